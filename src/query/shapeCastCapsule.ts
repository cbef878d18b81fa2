import { OBB_AXES, OBB_HALF, type Floats, type KdopK, type ReadonlyFloats } from '../layout';
import { SEGMENTS_PARALLEL_SINE_SQUARED } from '../tolerances';
import { CLOSEST_SEGMENTS_STRIDE, closestPtPointObb, closestPtPointTriangle, closestSegments, SEGMENTS_DISTANCE } from './closestPoints';
import { RAY_HIT_STRIDE, RAY_INPUT_STRIDE, raycastObbArrays, raycastTriangleArrays } from './raycast';
import { CAST_MOTION_STRIDE, castMotion, castSphereCapsuleArrays, castSphereObbArrays, castSphereTriangleArrays, reversedMotion } from './shapeCast';
import { backwardsHit, HIT_INPUT_STRIDE, SHAPE_CAST_HIT_STRIDE, swapShapeHit, writeShapeHit } from './shapeCastHit';
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
const segs = new Float64Array(CLOSEST_SEGMENTS_STRIDE + 1);
const edge = new Float64Array(6);
const closest = new Float64Array(6);
const rayHit = new Float64Array(RAY_HIT_STRIDE);
const corners = new Float64Array(24);
// The feature casts read their numbers from arrays (V8 boxes a double passed to a call it does not
// inline): the sphere cast (centre, radius), the motion up to the earliest hit so far, forwards
// and backwards (CAST_MOTION_STRIDE), and edgeEntry's segments and radii (EDGE_* offsets).
const ball = new Float64Array(4);
const staged = new Float64Array(HIT_INPUT_STRIDE);
const ahead = new Float64Array(CAST_MOTION_STRIDE);
const back = new Float64Array(CAST_MOTION_STRIDE);
const edgeInput = new Float64Array(14);
const segment = new Float64Array(RAY_INPUT_STRIDE);
const EDGE_B = 6;
const EDGE_REACH = 12;
const EDGE_RB = 13;

/** Starts a feature search: no hit yet, `ahead` and `back` the motion at motion[mo] and its reverse. */
function beginFeatures(motion: ReadonlyFloats, mo: number): void {
  best[0] = Infinity;
  for (let k = 0; k < CAST_MOTION_STRIDE; k++) ahead[k] = motion[mo + k];
  for (let k = 0; k < 3; k++) back[k] = -ahead[k];
  back[3] = ahead[3];
}

/** Keeps `hit` in `best` when earlier, which then limits the later feature casts. */
function keep(found: boolean): void {
  if (found && hit[0] < best[0]) {
    best.set(hit);
    ahead[3] = back[3] = hit[0];
  }
}

/** Copies `best` to out[oo] and reports whether anything was found. */
function emit(out: Floats, oo: number): boolean {
  if (best[0] === Infinity) return false;
  for (let i = 0; i < SHAPE_CAST_HIT_STRIDE; i++) out[oo + i] = best[i];
  return true;
}

/** The sphere at points[p..p + 2] of radius radii[ro], in `ball`. */
function copyBall(points: ReadonlyFloats, p: number, radii: ReadonlyFloats, ro: number): void {
  for (let k = 0; k < 3; k++) ball[k] = points[p + k];
  ball[3] = radii[ro];
}

/** The capsule's second end as p0 + (p1 − p0), in `ball` (as the triangle and box casts take it). */
function farEndBall(cap: ReadonlyFloats, co: number): void {
  for (let k = 0; k < 3; k++) ball[k] = cap[co + k] + (cap[co + 3 + k] - cap[co + k]);
  ball[3] = cap[co + 6];
}

/**
 * The capsule's bounding sphere (about the segment's midpoint), in `ball`: the cheap rejection.
 * The capsule lies inside it, so when it does not meet the target, neither does the capsule; most
 * misses end there, before the dozen feature casts, and a sphere first touching after t = 0 rules
 * out a start overlap.
 */
function boundingBall(cap: ReadonlyFloats, co: number): void {
  const x0 = cap[co], y0 = cap[co + 1], z0 = cap[co + 2];
  const ax = cap[co + 3] - x0, ay = cap[co + 4] - y0, az = cap[co + 5] - z0;
  const half = 0.5 * Math.sqrt(ax * ax + ay * ay + az * az);
  ball[0] = x0 + 0.5 * ax;
  ball[1] = y0 + 0.5 * ay;
  ball[2] = z0 + 0.5 * az;
  ball[3] = half + cap[co + 6];
}

/** The moving segment of edgeEntry: the capsule's core (start, direction), its reach r + rb and rb. */
function edgeMover(cap: ReadonlyFloats, co: number, rb: number): void {
  for (let k = 0; k < 3; k++) {
    edgeInput[k] = cap[co + k];
    edgeInput[3 + k] = cap[co + 3 + k] - cap[co + k];
  }
  edgeInput[EDGE_REACH] = cap[co + 6] + rb;
  edgeInput[EDGE_RB] = rb;
}

/** The static segment of edgeEntry: from points[p] to points[q]. */
function edgeTarget(points: ReadonlyFloats, p: number, q: number): void {
  for (let k = 0; k < 3; k++) {
    edgeInput[EDGE_B + k] = points[p + k];
    edgeInput[EDGE_B + 3 + k] = points[q + k] - points[p + k];
  }
}

/**
 * Interior contact of the moving segment a0 + s·ea (moved by t·d, `ahead`) with the static segment
 * b0 + u·eb (edgeInput): the first t at which the two lines are `reach` apart with both closest
 * points inside their segments (s, u in [0, 1]); the lines must be approaching through that
 * distance. Writes `hit` (normal along ea × eb, towards the mover; point on the target's surface,
 * rb from its core). Nearly parallel segments (SEGMENTS_PARALLEL_SINE_SQUARED) are left to the
 * endpoint casts.
 */
function edgeEntry(): boolean {
  const a0x = edgeInput[0], a0y = edgeInput[1], a0z = edgeInput[2], eax = edgeInput[3], eay = edgeInput[4], eaz = edgeInput[5];
  const b0x = edgeInput[6], b0y = edgeInput[7], b0z = edgeInput[8], ebx = edgeInput[9], eby = edgeInput[10], ebz = edgeInput[11];
  const reach = edgeInput[EDGE_REACH], rb = edgeInput[EDGE_RB];
  const dx = ahead[0], dy = ahead[1], dz = ahead[2], maxT = ahead[3];
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
  staged[0] = t;
  staged[1] = sign * nx;
  staged[2] = sign * ny;
  staged[3] = sign * nz;
  staged[4] = staged[5] = staged[6] = 0;
  writeShapeHit(hit, 0, staged, ahead, 0);
  hit[4] = b0x + u * ebx + rb * hit[1];
  hit[5] = b0y + u * eby + rb * hit[2];
  hit[6] = b0z + u * ebz + rb * hit[3];
  return true;
}

/** The capsule's core segment as a ray (RAY_INPUT_STRIDE: p0, p1 − p0, up to 1), in `segment`. */
function segmentRay(cap: ReadonlyFloats, co: number): void {
  for (let k = 0; k < 3; k++) {
    segment[k] = cap[co + k];
    segment[3 + k] = cap[co + 3 + k] - cap[co + k];
  }
  segment[6] = 1;
}

/** The point of the core segment (`segment`, as segmentRay wrote it) at the ray hit's t, into staged[4..6]. */
function stageSegmentHitPoint(): void {
  for (let k = 0; k < 3; k++) staged[4 + k] = segment[k] + rayHit[0] * segment[3 + k];
}

/** Point points[p..p + 2] cast by −d against the moving capsule, rewritten as the capsule's hit on it. */
function vertexCast(cap: ReadonlyFloats, co: number, points: ReadonlyFloats, p: number): boolean {
  for (let k = 0; k < 3; k++) ball[k] = points[p + k];
  ball[3] = 0;
  if (!castSphereCapsuleArrays(hit, 0, ball, 0, back, 0, cap, co)) return false;
  swapShapeHit(hit, 0, ahead, 0);
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
  return backwardsHit(castSphereCapsuleArrays(out, oo, sphere, so, reversedMotion(motion, mo), 0, cap, co), out, oo, motion, mo);
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
  if (motion[mo + 3] < 0) return false;
  const r = cap[co + 6], rb = tc[to + 6], reach = r + rb;
  closestSegments(segs, 0, cap, co, tc, to);
  const d2 = segs[SEGMENTS_DISTANCE];
  if (d2 <= reach * reach) {
    // Start overlap: from the target's core point towards the mover's; the point is the target's
    // solid point nearest the mover's core.
    staged[0] = 0;
    for (let i = 0; i < 3; i++) {
      staged[1 + i] = segs[i] - segs[3 + i];
      staged[4 + i] = 0;
    }
    writeShapeHit(out, oo, staged, motion, mo);
    const k = Math.min(rb, Math.sqrt(d2));
    for (let i = 0; i < 3; i++) out[oo + 4 + i] = segs[3 + i] + k * out[oo + 1 + i];
    return true;
  }
  beginFeatures(motion, mo);
  for (let e = 0; e < 2; e++) {
    copyBall(cap, co + 3 * e, cap, co + 6);
    keep(castSphereCapsuleArrays(hit, 0, ball, 0, ahead, 0, tc, to));
  }
  // The target's end balls, cast backwards against the moving capsule.
  for (let e = 0; e < 2; e++) {
    copyBall(tc, to + 3 * e, tc, to + 6);
    if (castSphereCapsuleArrays(hit, 0, ball, 0, back, 0, cap, co)) {
      swapShapeHit(hit, 0, ahead, 0);
      keep(true);
    }
  }
  edgeMover(cap, co, rb);
  edgeTarget(tc, to, to + 3);
  keep(edgeEntry());
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
  if (motion[mo + 3] < 0) return false;
  beginFeatures(motion, mo);
  boundingBall(cap, co);
  if (!castSphereTriangleArrays(hit, 0, ball, 0, ahead, 0, tri, to)) return false;
  // Start overlap is only possible when the bounding sphere touches at the start.
  if (hit[0] === 0 && startOverlapTriangle(out, oo, cap, co, tri, to)) return true;
  copyBall(cap, co, cap, co + 6);
  keep(castSphereTriangleArrays(hit, 0, ball, 0, ahead, 0, tri, to));
  farEndBall(cap, co);
  keep(castSphereTriangleArrays(hit, 0, ball, 0, ahead, 0, tri, to));
  for (let v = 0; v < 3; v++) keep(vertexCast(cap, co, tri, to + 3 * v));
  edgeMover(cap, co, 0);
  for (let e = 0; e < 3; e++) {
    edgeTarget(tri, to + 3 * e, to + 3 * ((e + 1) % 3));
    keep(edgeEntry());
  }
  return emit(out, oo);
}

/**
 * Start overlap of the capsule with the triangle: the segment crosses it (normal: the triangle's,
 * against the motion; point: the crossing), or comes within r of it at an end or an edge (normal
 * from the triangle's closest point, which is the point).
 */
function startOverlapTriangle(out: Floats, oo: number, cap: ReadonlyFloats, co: number, tri: ReadonlyFloats, to: number): boolean {
  const x0 = cap[co], y0 = cap[co + 1], z0 = cap[co + 2], r = cap[co + 6];
  const ax = cap[co + 3] - x0, ay = cap[co + 4] - y0, az = cap[co + 5] - z0;
  const dx = ahead[0], dy = ahead[1], dz = ahead[2];
  segmentRay(cap, co);
  if (raycastTriangleArrays(rayHit, segment, 0, tri, to)) {
    const side = rayHit[1] * dx + rayHit[2] * dy + rayHit[3] * dz > 0 ? -1 : 1;
    staged[0] = 0;
    for (let k = 0; k < 3; k++) staged[1 + k] = side * rayHit[1 + k];
    stageSegmentHitPoint();
    writeShapeHit(out, oo, staged, ahead, 0);
    return true;
  }
  // The nearest pair so far (core point m, target point q) is kept as its hit: normal m − q, point q.
  let near = closestPtPointTriangle(closest, 0, x0, y0, z0, tri, to);
  let qx = closest[0], qy = closest[1], qz = closest[2], mx = x0, my = y0, mz = z0;
  const d1 = closestPtPointTriangle(closest, 0, x0 + ax, y0 + ay, z0 + az, tri, to);
  if (d1 < near) { near = d1; qx = closest[0]; qy = closest[1]; qz = closest[2]; mx = x0 + ax; my = y0 + ay; mz = z0 + az; }
  for (let e = 0; e < 3; e++) {
    const p = to + 3 * e, q = to + 3 * ((e + 1) % 3);
    for (let i = 0; i < 3; i++) { edge[i] = tri[p + i]; edge[3 + i] = tri[q + i]; }
    closestSegments(segs, 0, cap, co, edge, 0);
    const de = segs[SEGMENTS_DISTANCE];
    if (de < near) { near = de; mx = segs[0]; my = segs[1]; mz = segs[2]; qx = segs[3]; qy = segs[4]; qz = segs[5]; }
  }
  if (near > r * r) return false;
  staged[0] = 0;
  staged[1] = mx - qx; staged[2] = my - qy; staged[3] = mz - qz;
  staged[4] = qx; staged[5] = qy; staged[6] = qz;
  writeShapeHit(out, oo, staged, ahead, 0);
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
  if (motion[mo + 3] < 0) return false;
  beginFeatures(motion, mo);
  boundingBall(cap, co);
  if (!castSphereObbArrays(hit, 0, ball, 0, ahead, 0, box, bo)) return false;
  writeCorners(box, bo);
  // Start overlap is only possible when the bounding sphere touches at the start.
  if (hit[0] === 0 && startOverlapObb(out, oo, cap, co, box, bo)) return true;
  copyBall(cap, co, cap, co + 6);
  keep(castSphereObbArrays(hit, 0, ball, 0, ahead, 0, box, bo));
  farEndBall(cap, co);
  keep(castSphereObbArrays(hit, 0, ball, 0, ahead, 0, box, bo));
  for (let i = 0; i < 8; i++) keep(vertexCast(cap, co, corners, 3 * i));
  // Edges: from corner i along axis k to corner i | (1 << k), for the corners with bit k clear.
  edgeMover(cap, co, 0);
  for (let k = 0; k < 3; k++) {
    const bit = 1 << k;
    for (let i = 0; i < 8; i++) {
      if (i & bit) continue;
      edgeTarget(corners, 3 * i, 3 * (i | bit));
      keep(edgeEntry());
    }
  }
  return emit(out, oo);
}

/**
 * Start overlap of the capsule with the box (corners written): the segment meets the box (normal:
 * the box axis of least penetration of the capsule, point: where the segment is in the box), or
 * comes within r of it at an end or an edge (normal from the box's closest point, which is the point).
 */
function startOverlapObb(out: Floats, oo: number, cap: ReadonlyFloats, co: number, box: ReadonlyFloats, bo: number): boolean {
  const x0 = cap[co], y0 = cap[co + 1], z0 = cap[co + 2], r = cap[co + 6];
  const ax = cap[co + 3] - x0, ay = cap[co + 4] - y0, az = cap[co + 5] - z0;
  segmentRay(cap, co);
  if (raycastObbArrays(rayHit, segment, 0, box, bo)) {
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
    staged[0] = 0;
    for (let k = 0; k < 3; k++) staged[1 + k] = sign * box[u + k];
    stageSegmentHitPoint();
    writeShapeHit(out, oo, staged, ahead, 0);
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
      closestSegments(segs, 0, cap, co, edge, 0);
      const de = segs[SEGMENTS_DISTANCE];
      if (de < near) { near = de; mx = segs[0]; my = segs[1]; mz = segs[2]; qx = segs[3]; qy = segs[4]; qz = segs[5]; }
    }
  }
  if (near > r * r) return false;
  staged[0] = 0;
  staged[1] = mx - qx; staged[2] = my - qy; staged[3] = mz - qz;
  staged[4] = qx; staged[5] = qy; staged[6] = qz;
  writeShapeHit(out, oo, staged, ahead, 0);
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
