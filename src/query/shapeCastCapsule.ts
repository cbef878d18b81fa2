import { OBB_AXES, OBB_HALF, type Floats, type KdopK, type ReadonlyFloats } from '../layout';
import { SEGMENTS_PARALLEL_SINE_SQUARED } from '../tolerances';
import { CLOSEST_SEGMENTS_STRIDE, closestPtPointObb, closestPtPointTriangle, closestPtSegmentSegment } from './closestPoints';
import { RAY_HIT_STRIDE, raycastObb, raycastTriangle } from './raycast';
import { castMotion, castSphereCapsule, castSphereCapsuleArrays, castSphereObb, castSphereTriangle, reversedMotion } from './shapeCast';
import { SHAPE_CAST_HIT_STRIDE, swapShapeHit, writeShapeHit } from './shapeCastHit';
import { castSegmentKdop } from './shapeCastKdop';

/**
 * Shape casts of a capsule (CAPSULE layout: p0, p1, r, at cap[co]) translated by t·(dx, dy, dz),
 * t in [0, maxT], against static targets; results as in shapeCastHit.ts.
 *
 * Exact, by the features that can meet first. At the first contact, the closest points x (on the
 * moving segment) and y (on the target's core) are: an endpoint of the segment (the sphere casts
 * of shapeCast.ts from p0 and p1), or a vertex of the target (a point cast backwards, by −d,
 * against the moving capsule), or interior points of the segment and of a target edge (the two
 * lines come within r + r_target between both segments: `edgeEntry`). An interior point of the
 * segment against a face interior needs the segment parallel to the face, and then the contact
 * also reaches an endpoint or an edge. So the earliest of those casts is the first contact. Capsule
 * vs k-DOP is conservative (shapeCastKdop.ts).
 */

const hit = new Float64Array(SHAPE_CAST_HIT_STRIDE);
const best = new Float64Array(SHAPE_CAST_HIT_STRIDE);
const segs = new Float64Array(CLOSEST_SEGMENTS_STRIDE);
const edge = new Float64Array(6);
const closest = new Float64Array(6);
const rayHit = new Float64Array(RAY_HIT_STRIDE);
const corners = new Float64Array(24);

/** Keeps `hit` in `best` when earlier; returns the best t so far. */
function keep(found: boolean): number {
  if (found && hit[0] < best[0]) best.set(hit);
  return best[0];
}

/** Copies `best` to out[oo] and reports whether anything was found. */
function emit(out: Floats, oo: number): boolean {
  if (best[0] === Infinity) return false;
  for (let i = 0; i < SHAPE_CAST_HIT_STRIDE; i++) out[oo + i] = best[i];
  return true;
}

/**
 * Interior contact of the moving segment a0 + s·ea (moved by t·d) with the static segment
 * b0 + u·eb: the first t at which the two lines are `reach` apart with both closest points inside
 * their segments (s, u in [0, 1]); the lines must be approaching through that distance. Writes
 * `hit` (normal along ea × eb, towards the mover; point on the target's surface, rb from its core).
 * Nearly parallel segments (SEGMENTS_PARALLEL_SINE_SQUARED) are left to the endpoint casts.
 */
function edgeEntry(
  a0x: number, a0y: number, a0z: number, eax: number, eay: number, eaz: number,
  b0x: number, b0y: number, b0z: number, ebx: number, eby: number, ebz: number,
  dx: number, dy: number, dz: number, reach: number, rb: number, maxT: number,
): boolean {
  const nx = eay * ebz - eaz * eby, ny = eaz * ebx - eax * ebz, nz = eax * eby - eay * ebx;
  const a = eax * eax + eay * eay + eaz * eaz, b = eax * ebx + eay * eby + eaz * ebz, c = ebx * ebx + eby * eby + ebz * ebz;
  const nn = nx * nx + ny * ny + nz * nz;
  if (!(nn > SEGMENTS_PARALLEL_SINE_SQUARED * a * c)) return false;
  const nl = Math.sqrt(nn);
  const wx = a0x - b0x, wy = a0y - b0y, wz = a0z - b0z;
  const g0 = (wx * nx + wy * ny + wz * nz) / nl, gd = (dx * nx + dy * ny + dz * nz) / nl;
  if (g0 * gd >= 0) return false;
  // Within reach already only by rounding at a touch (the callers test start overlap first): t = 0.
  const t = Math.max(0, (Math.abs(g0) - reach) / Math.abs(gd));
  if (!(t <= maxT)) return false;
  const px = wx + t * dx, py = wy + t * dy, pz = wz + t * dz;
  const d = eax * px + eay * py + eaz * pz, e = ebx * px + eby * py + ebz * pz, denom = a * c - b * b;
  const s = (b * e - c * d) / denom, u = (a * e - b * d) / denom;
  if (s < 0 || s > 1 || u < 0 || u > 1) return false;
  const sign = g0 > 0 ? 1 : -1;
  writeShapeHit(hit, 0, t, sign * nx, sign * ny, sign * nz, 0, 0, 0, dx, dy, dz);
  hit[4] = b0x + u * ebx + rb * hit[1];
  hit[5] = b0y + u * eby + rb * hit[2];
  hit[6] = b0z + u * ebz + rb * hit[3];
  return true;
}

/**
 * Cheap rejection: whether the capsule's bounding sphere (about the segment's midpoint) meets the
 * target by maxT (its hit left in `hit`). The capsule lies inside it, so when it does not, neither
 * does the capsule; most misses end here, before the dozen feature casts, and a sphere first
 * touching after t = 0 rules out a start overlap.
 */
function boundingSphereReaches(
  x0: number, y0: number, z0: number, ax: number, ay: number, az: number, r: number,
  dx: number, dy: number, dz: number, maxT: number, target: ReadonlyFloats, to: number,
  cast: typeof castSphereObb,
): boolean {
  const half = 0.5 * Math.sqrt(ax * ax + ay * ay + az * az);
  return cast(hit, 0, x0 + 0.5 * ax, y0 + 0.5 * ay, z0 + 0.5 * az, half + r, dx, dy, dz, maxT, target, to);
}

/** Point (x, y, z) cast by −d against the moving capsule, rewritten as the capsule's hit on it. */
function vertexCast(cap: ReadonlyFloats, co: number, x: number, y: number, z: number, dx: number, dy: number, dz: number, maxT: number): boolean {
  if (!castSphereCapsule(hit, 0, x, y, z, 0, -dx, -dy, -dz, maxT, cap, co)) return false;
  swapShapeHit(hit, 0, dx, dy, dz);
  return true;
}

/** Capsule against a sphere [x, y, z, r] at sphere[so]: the sphere cast backwards against the capsule. */
export function castCapsuleSphere(
  out: Floats, oo: number, cap: ReadonlyFloats, co: number,
  dx: number, dy: number, dz: number, maxT: number,
  sphere: ReadonlyFloats, so: number,
): boolean {
  return castCapsuleSphereArrays(out, oo, cap, co, castMotion(dx, dy, dz, maxT), 0, sphere, so);
}

/** @internal castCapsuleSphere, the motion read from motion[mo..mo + 3] (CAST_MOTION_STRIDE). */
export function castCapsuleSphereArrays(
  out: Floats, oo: number, cap: ReadonlyFloats, co: number, motion: ReadonlyFloats, mo: number,
  sphere: ReadonlyFloats, so: number,
): boolean {
  const dx = motion[mo], dy = motion[mo + 1], dz = motion[mo + 2];
  if (!castSphereCapsuleArrays(out, oo, sphere, so, reversedMotion(motion, mo), 0, cap, co)) return false;
  swapShapeHit(out, oo, dx, dy, dz);
  return true;
}

/** Capsule against a capsule at tc[to]; exact (see the module comment). */
export function castCapsuleCapsule(
  out: Floats, oo: number, cap: ReadonlyFloats, co: number,
  dx: number, dy: number, dz: number, maxT: number,
  tc: ReadonlyFloats, to: number,
): boolean {
  return castCapsuleCapsuleArrays(out, oo, cap, co, castMotion(dx, dy, dz, maxT), 0, tc, to);
}

/** @internal castCapsuleCapsule, the motion read from motion[mo..mo + 3] (CAST_MOTION_STRIDE). */
export function castCapsuleCapsuleArrays(
  out: Floats, oo: number, cap: ReadonlyFloats, co: number, motion: ReadonlyFloats, mo: number,
  tc: ReadonlyFloats, to: number,
): boolean {
  const dx = motion[mo], dy = motion[mo + 1], dz = motion[mo + 2], maxT = motion[mo + 3];
  if (maxT < 0) return false;
  const r = cap[co + 6], rb = tc[to + 6], reach = r + rb;
  const d2 = closestPtSegmentSegment(segs, 0, cap, co, tc, to);
  if (d2 <= reach * reach) {
    // Start overlap: from the target's core point towards the mover's; the point is the target's
    // solid point nearest the mover's core.
    const ex = segs[0] - segs[3], ey = segs[1] - segs[4], ez = segs[2] - segs[5];
    writeShapeHit(out, oo, 0, ex, ey, ez, 0, 0, 0, dx, dy, dz);
    const k = Math.min(rb, Math.sqrt(d2));
    for (let i = 0; i < 3; i++) out[oo + 4 + i] = segs[3 + i] + k * out[oo + 1 + i];
    return true;
  }
  best[0] = Infinity;
  let limit = maxT;
  limit = keep(castSphereCapsule(hit, 0, cap[co], cap[co + 1], cap[co + 2], r, dx, dy, dz, limit, tc, to));
  limit = keep(castSphereCapsule(hit, 0, cap[co + 3], cap[co + 4], cap[co + 5], r, dx, dy, dz, Math.min(limit, maxT), tc, to));
  // The target's end balls, cast backwards against the moving capsule.
  for (let e = 0; e < 2; e++) {
    const p = to + 3 * e;
    if (castSphereCapsule(hit, 0, tc[p], tc[p + 1], tc[p + 2], rb, -dx, -dy, -dz, Math.min(limit, maxT), cap, co)) {
      swapShapeHit(hit, 0, dx, dy, dz);
      limit = keep(true);
    }
  }
  keep(edgeEntry(
    cap[co], cap[co + 1], cap[co + 2], cap[co + 3] - cap[co], cap[co + 4] - cap[co + 1], cap[co + 5] - cap[co + 2],
    tc[to], tc[to + 1], tc[to + 2], tc[to + 3] - tc[to], tc[to + 4] - tc[to + 1], tc[to + 5] - tc[to + 2],
    dx, dy, dz, reach, rb, Math.min(limit, maxT),
  ));
  return emit(out, oo);
}

/**
 * Capsule against a triangle (9 numbers at tri[to]); exact: the sphere casts of the two ends, the
 * three vertices cast backwards, the segment against the three edges.
 */
export function castCapsuleTriangle(
  out: Floats, oo: number, cap: ReadonlyFloats, co: number,
  dx: number, dy: number, dz: number, maxT: number,
  tri: ReadonlyFloats, to: number,
): boolean {
  return castCapsuleTriangleArrays(out, oo, cap, co, castMotion(dx, dy, dz, maxT), 0, tri, to);
}

/** @internal castCapsuleTriangle, the motion read from motion[mo..mo + 3] (CAST_MOTION_STRIDE). */
export function castCapsuleTriangleArrays(
  out: Floats, oo: number, cap: ReadonlyFloats, co: number, motion: ReadonlyFloats, mo: number,
  tri: ReadonlyFloats, to: number,
): boolean {
  const dx = motion[mo], dy = motion[mo + 1], dz = motion[mo + 2], maxT = motion[mo + 3];
  if (maxT < 0) return false;
  const r = cap[co + 6];
  const x0 = cap[co], y0 = cap[co + 1], z0 = cap[co + 2];
  const ax = cap[co + 3] - x0, ay = cap[co + 4] - y0, az = cap[co + 5] - z0;
  if (!boundingSphereReaches(x0, y0, z0, ax, ay, az, r, dx, dy, dz, maxT, tri, to, castSphereTriangle)) return false;
  // Start overlap is only possible when the bounding sphere touches at the start.
  if (hit[0] === 0 && startOverlapTriangle(out, oo, cap, co, x0, y0, z0, ax, ay, az, r, dx, dy, dz, tri, to)) return true;
  best[0] = Infinity;
  let limit = maxT;
  limit = keep(castSphereTriangle(hit, 0, x0, y0, z0, r, dx, dy, dz, limit, tri, to));
  limit = keep(castSphereTriangle(hit, 0, x0 + ax, y0 + ay, z0 + az, r, dx, dy, dz, Math.min(limit, maxT), tri, to));
  for (let v = 0; v < 3; v++) {
    const p = to + 3 * v;
    limit = keep(vertexCast(cap, co, tri[p], tri[p + 1], tri[p + 2], dx, dy, dz, Math.min(limit, maxT)));
  }
  for (let e = 0; e < 3; e++) {
    const p = to + 3 * e, q = to + 3 * ((e + 1) % 3);
    limit = keep(edgeEntry(
      x0, y0, z0, ax, ay, az, tri[p], tri[p + 1], tri[p + 2], tri[q] - tri[p], tri[q + 1] - tri[p + 1], tri[q + 2] - tri[p + 2],
      dx, dy, dz, r, 0, Math.min(limit, maxT),
    ));
  }
  return emit(out, oo);
}

/**
 * Start overlap of the capsule with the triangle: the segment crosses it (normal: the triangle's,
 * against the motion; point: the crossing), or comes within r of it at an end or an edge (normal
 * from the triangle's closest point, which is the point).
 */
function startOverlapTriangle(
  out: Floats, oo: number, cap: ReadonlyFloats, co: number,
  x0: number, y0: number, z0: number, ax: number, ay: number, az: number, r: number,
  dx: number, dy: number, dz: number, tri: ReadonlyFloats, to: number,
): boolean {
  if (raycastTriangle(rayHit, x0, y0, z0, ax, ay, az, 1, tri, to)) {
    const s = rayHit[0];
    const side = rayHit[1] * dx + rayHit[2] * dy + rayHit[3] * dz > 0 ? -1 : 1;
    writeShapeHit(out, oo, 0, side * rayHit[1], side * rayHit[2], side * rayHit[3], x0 + s * ax, y0 + s * ay, z0 + s * az, dx, dy, dz);
    return true;
  }
  let near = closestPtPointTriangle(closest, 0, x0, y0, z0, tri, to);
  let qx = closest[0], qy = closest[1], qz = closest[2], mx = x0, my = y0, mz = z0;
  const d1 = closestPtPointTriangle(closest, 0, x0 + ax, y0 + ay, z0 + az, tri, to);
  if (d1 < near) { near = d1; qx = closest[0]; qy = closest[1]; qz = closest[2]; mx = x0 + ax; my = y0 + ay; mz = z0 + az; }
  for (let e = 0; e < 3; e++) {
    const p = to + 3 * e, q = to + 3 * ((e + 1) % 3);
    for (let i = 0; i < 3; i++) { edge[i] = tri[p + i]; edge[3 + i] = tri[q + i]; }
    const de = closestPtSegmentSegment(segs, 0, cap, co, edge, 0);
    if (de < near) { near = de; mx = segs[0]; my = segs[1]; mz = segs[2]; qx = segs[3]; qy = segs[4]; qz = segs[5]; }
  }
  if (near > r * r) return false;
  writeShapeHit(out, oo, 0, mx - qx, my - qy, mz - qz, qx, qy, qz, dx, dy, dz);
  return true;
}

/** Box corner i (bits: signs of the three half-extents) of the OBB at box[bo] into corners[3i]. */
function writeCorners(box: ReadonlyFloats, bo: number): void {
  for (let i = 0; i < 8; i++) {
    const s0 = i & 1 ? 1 : -1, s1 = i & 2 ? 1 : -1, s2 = i & 4 ? 1 : -1;
    const h0 = s0 * box[bo + OBB_HALF], h1 = s1 * box[bo + OBB_HALF + 1], h2 = s2 * box[bo + OBB_HALF + 2];
    for (let k = 0; k < 3; k++) {
      corners[3 * i + k] = box[bo + k] + h0 * box[bo + OBB_AXES + k] + h1 * box[bo + OBB_AXES + 3 + k] + h2 * box[bo + OBB_AXES + 6 + k];
    }
  }
}

/**
 * Capsule against an OBB (layout.ts) at box[bo]; exact: the sphere casts of the two ends, the eight
 * corners cast backwards, the segment against the twelve edges.
 */
export function castCapsuleObb(
  out: Floats, oo: number, cap: ReadonlyFloats, co: number,
  dx: number, dy: number, dz: number, maxT: number,
  box: ReadonlyFloats, bo: number,
): boolean {
  return castCapsuleObbArrays(out, oo, cap, co, castMotion(dx, dy, dz, maxT), 0, box, bo);
}

/** @internal castCapsuleObb, the motion read from motion[mo..mo + 3] (CAST_MOTION_STRIDE). */
export function castCapsuleObbArrays(
  out: Floats, oo: number, cap: ReadonlyFloats, co: number, motion: ReadonlyFloats, mo: number,
  box: ReadonlyFloats, bo: number,
): boolean {
  const dx = motion[mo], dy = motion[mo + 1], dz = motion[mo + 2], maxT = motion[mo + 3];
  if (maxT < 0) return false;
  const r = cap[co + 6];
  const x0 = cap[co], y0 = cap[co + 1], z0 = cap[co + 2];
  const ax = cap[co + 3] - x0, ay = cap[co + 4] - y0, az = cap[co + 5] - z0;
  if (!boundingSphereReaches(x0, y0, z0, ax, ay, az, r, dx, dy, dz, maxT, box, bo, castSphereObb)) return false;
  writeCorners(box, bo);
  // Start overlap is only possible when the bounding sphere touches at the start.
  if (hit[0] === 0 && startOverlapObb(out, oo, cap, co, x0, y0, z0, ax, ay, az, r, dx, dy, dz, box, bo)) return true;
  best[0] = Infinity;
  let limit = maxT;
  limit = keep(castSphereObb(hit, 0, x0, y0, z0, r, dx, dy, dz, limit, box, bo));
  limit = keep(castSphereObb(hit, 0, x0 + ax, y0 + ay, z0 + az, r, dx, dy, dz, Math.min(limit, maxT), box, bo));
  for (let i = 0; i < 8; i++) {
    limit = keep(vertexCast(cap, co, corners[3 * i], corners[3 * i + 1], corners[3 * i + 2], dx, dy, dz, Math.min(limit, maxT)));
  }
  // Edges: from corner i along axis k to corner i | (1 << k), for the corners with bit k clear.
  for (let k = 0; k < 3; k++) {
    const bit = 1 << k;
    for (let i = 0; i < 8; i++) {
      if (i & bit) continue;
      const p = 3 * i, q = 3 * (i | bit);
      limit = keep(edgeEntry(
        x0, y0, z0, ax, ay, az, corners[p], corners[p + 1], corners[p + 2],
        corners[q] - corners[p], corners[q + 1] - corners[p + 1], corners[q + 2] - corners[p + 2],
        dx, dy, dz, r, 0, Math.min(limit, maxT),
      ));
    }
  }
  return emit(out, oo);
}

/**
 * Start overlap of the capsule with the box (corners written): the segment meets the box (normal:
 * the box axis of least penetration of the capsule, point: where the segment is in the box), or
 * comes within r of it at an end or an edge (normal from the box's closest point, which is the point).
 */
function startOverlapObb(
  out: Floats, oo: number, cap: ReadonlyFloats, co: number,
  x0: number, y0: number, z0: number, ax: number, ay: number, az: number, r: number,
  dx: number, dy: number, dz: number, box: ReadonlyFloats, bo: number,
): boolean {
  if (raycastObb(rayHit, x0, y0, z0, ax, ay, az, 1, box, bo)) {
    const s = rayHit[0];
    let depth = Infinity, nk = 0, sign = 1;
    for (let k = 0; k < 3; k++) {
      const u = bo + OBB_AXES + 3 * k, h = box[bo + OBB_HALF + k];
      const p0 = (x0 - box[bo]) * box[u] + (y0 - box[bo + 1]) * box[u + 1] + (z0 - box[bo + 2]) * box[u + 2];
      const p1 = p0 + ax * box[u] + ay * box[u + 1] + az * box[u + 2];
      const up = h - Math.min(p0, p1) + r, down = Math.max(p0, p1) + h + r;
      if (up < depth) { depth = up; nk = k; sign = 1; }
      if (down < depth) { depth = down; nk = k; sign = -1; }
    }
    const u = bo + OBB_AXES + 3 * nk;
    writeShapeHit(out, oo, 0, sign * box[u], sign * box[u + 1], sign * box[u + 2], x0 + s * ax, y0 + s * ay, z0 + s * az, dx, dy, dz);
    return true;
  }
  let near = closestPtPointObb(closest, 0, x0, y0, z0, box, bo);
  let qx = closest[0], qy = closest[1], qz = closest[2], mx = x0, my = y0, mz = z0;
  const d1 = closestPtPointObb(closest, 0, x0 + ax, y0 + ay, z0 + az, box, bo);
  if (d1 < near) { near = d1; qx = closest[0]; qy = closest[1]; qz = closest[2]; mx = x0 + ax; my = y0 + ay; mz = z0 + az; }
  for (let k = 0; k < 3; k++) {
    const bit = 1 << k;
    for (let i = 0; i < 8; i++) {
      if (i & bit) continue;
      for (let j = 0; j < 3; j++) { edge[j] = corners[3 * i + j]; edge[3 + j] = corners[3 * (i | bit) + j]; }
      const de = closestPtSegmentSegment(segs, 0, cap, co, edge, 0);
      if (de < near) { near = de; mx = segs[0]; my = segs[1]; mz = segs[2]; qx = segs[3]; qy = segs[4]; qz = segs[5]; }
    }
  }
  if (near > r * r) return false;
  writeShapeHit(out, oo, 0, mx - qx, my - qy, mz - qz, qx, qy, qz, dx, dy, dz);
  return true;
}

// Scratch OBB with identity axes (centre and half-extents written per call); made in one
// expression so that bundles without the capsule casts drop it.
const aabbBox = new Float64Array([0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0]);

/** Capsule against a min-max AABB at box[bo]: the OBB cast with identity axes. */
export function castCapsuleAabb(
  out: Floats, oo: number, cap: ReadonlyFloats, co: number,
  dx: number, dy: number, dz: number, maxT: number,
  box: ReadonlyFloats, bo: number,
): boolean {
  return castCapsuleAabbArrays(out, oo, cap, co, castMotion(dx, dy, dz, maxT), 0, box, bo);
}

/** @internal castCapsuleAabb, the motion read from motion[mo..mo + 3] (CAST_MOTION_STRIDE). */
export function castCapsuleAabbArrays(
  out: Floats, oo: number, cap: ReadonlyFloats, co: number, motion: ReadonlyFloats, mo: number,
  box: ReadonlyFloats, bo: number,
): boolean {
  for (let k = 0; k < 3; k++) {
    aabbBox[k] = 0.5 * (box[bo + k] + box[bo + 3 + k]);
    aabbBox[OBB_HALF + k] = 0.5 * (box[bo + 3 + k] - box[bo + k]);
  }
  return castCapsuleObbArrays(out, oo, cap, co, motion, mo, aabbBox, 0);
}

/**
 * Capsule against a k-DOP at kdop[ko]: k = 6 is an AABB (same layout), exact; otherwise
 * conservative, within (c_k − 1)·r of the k-DOP at the reported t (shapeCastKdop.ts).
 */
export function castCapsuleKdop(
  out: Floats, oo: number, cap: ReadonlyFloats, co: number,
  dx: number, dy: number, dz: number, maxT: number,
  kdop: ReadonlyFloats, ko: number, k: KdopK,
): boolean {
  return castCapsuleKdopArrays(out, oo, cap, co, castMotion(dx, dy, dz, maxT), 0, kdop, ko, k);
}

/** @internal castCapsuleKdop, the motion read from motion[mo..mo + 3] (CAST_MOTION_STRIDE). */
export function castCapsuleKdopArrays(
  out: Floats, oo: number, cap: ReadonlyFloats, co: number, motion: ReadonlyFloats, mo: number,
  kdop: ReadonlyFloats, ko: number, k: KdopK,
): boolean {
  const dx = motion[mo], dy = motion[mo + 1], dz = motion[mo + 2], maxT = motion[mo + 3];
  if (k === 6) return castCapsuleAabbArrays(out, oo, cap, co, motion, mo, kdop, ko);
  const x0 = cap[co], y0 = cap[co + 1], z0 = cap[co + 2];
  return castSegmentKdop(out, oo, x0, y0, z0, cap[co + 3] - x0, cap[co + 4] - y0, cap[co + 5] - z0, cap[co + 6], dx, dy, dz, maxT, kdop, ko, k);
}
