import { CollideInputError, coordinateRefusal, isCoordinate } from '../errors';
import { CAPSULE_STRIDE, OBB_AXES, OBB_HALF, OBB_STRIDE, type Floats, type KdopK, type ReadonlyFloats } from '../layout';
import { obbFromAabb } from '../volumes/obb';
import { CLOSEST_ON_TRIANGLE_STRIDE, closestPtPointTriangle } from './closestPoints';
import { DEGENERATE_TRIANGLE_SINE } from '../tolerances';
import { BALL_ENTRY, ballEntry, RAY_HIT_STRIDE, RAY_INPUT_STRIDE, raycastCapsuleArrays, writeRay } from './raycast';
import { HIT_INPUT_STRIDE, writeShapeHit } from './shapeCastHit';
import { castSegmentKdop } from './shapeCastKdop';

/**
 * Shape casts of a sphere: the sphere (cx, cy, cz, r) translated by t·(dx, dy, dz), t in [0, maxT],
 * against a static target read at an offset (layout.ts). Each kernel returns true on a hit at
 * t <= maxT and writes SHAPE_CAST_HIT_STRIDE numbers at out[oo] (see shapeCastHit.ts); on a miss it
 * leaves `out` alone. A zero displacement is a static overlap test (t = 0 or a miss).
 *
 * Exact: the moving sphere touches the target when its centre meets the target grown by r (the
 * Minkowski sum, a rounded shape), so each cast is a ray against that rounded shape, built from
 * the ray kernels of raycast.ts: a ball (sphere), a capsule (capsule), a box widened by r with
 * capsules on the edges (AABB, OBB: Ericson, Real-Time Collision Detection 5.5.7), a triangle
 * lifted by r plus its edge capsules (triangle). The k-DOP cast (shapeCastKdop.ts) is exact for
 * k = 6 and conservative otherwise. Nothing here allocates objects; the public kernels take
 * numbers and write them into arrays for the array kernels (castSphereObbArrays, ...), which the
 * queries call: V8 boxes a double passed to a call it does not inline (16 bytes of garbage).
 */

/**
 * Throws CollideInputError unless a cast's displacement is finite, within ±MAX_COORDINATE and of
 * non-zero length, maxT is in [0, 1] and the radius (0 for a box mover) finite and non-negative.
 * `what` names the caller in the message. For the public query code: the kernels trust their input.
 */
export function assertShapeCast(what: string, dx: number, dy: number, dz: number, maxT = 1, radius = 0): void {
  const d = [dx, dy, dz];
  for (let k = 0; k < 3; k++) {
    if (typeof d[k] !== 'number' || !isCoordinate(d[k])) throw new CollideInputError(`${what}: displacement.${'xyz'[k]} ${coordinateRefusal(d[k])}`);
  }
  if (dx === 0 && dy === 0 && dz === 0) throw new CollideInputError(`${what}: displacement (0, 0, 0) has zero length`);
  if (!(maxT >= 0 && maxT <= 1)) throw new CollideInputError(`${what}: maxT must be in [0, 1], got ${maxT}`);
  if (typeof radius !== 'number' || !isCoordinate(radius)) throw new CollideInputError(`${what}: radius ${coordinateRefusal(radius)}`);
  if (radius < 0) throw new CollideInputError(`${what}: radius is negative (${radius})`);
}

/**
 * The motion of the array kernels (castSphereSphereArrays, ...): the displacement (3), then maxT.
 * They read their numbers from arrays because V8 boxes a double passed to a call it does not
 * inline (16 bytes of garbage each); the public kernels, which take numbers, write them there.
 * @internal
 */
export const CAST_MOTION_STRIDE = 4;
const sphereNumbers = new Float64Array(4);

/** Writes a public kernel's sphere into a scratch array (its motion goes through castMotion); returns it. */
function castSphere(cx: number, cy: number, cz: number, r: number): Float64Array {
  sphereNumbers[0] = cx;
  sphereNumbers[1] = cy;
  sphereNumbers[2] = cz;
  sphereNumbers[3] = r;
  return sphereNumbers;
}

/**
 * The motion (dx, dy, dz) up to maxT in an array, for the array kernels (the capsule and box
 * movers' public kernels; each reads it before any other kernel writes it again).
 * @internal
 */
export function castMotion(dx: number, dy: number, dz: number, maxT: number): Float64Array {
  moverMotion[0] = dx;
  moverMotion[1] = dy;
  moverMotion[2] = dz;
  moverMotion[3] = maxT;
  return moverMotion;
}
const moverMotion = new Float64Array(CAST_MOTION_STRIDE);

/**
 * The motion at motion[mo] reversed (−d, same maxT), for the casts run backwards.
 * @internal
 */
export function reversedMotion(motion: ReadonlyFloats, mo: number): Float64Array {
  reversed[0] = -motion[mo];
  reversed[1] = -motion[mo + 1];
  reversed[2] = -motion[mo + 2];
  reversed[3] = motion[mo + 3];
  return reversed;
}
const reversed = new Float64Array(CAST_MOTION_STRIDE);

const capsule = new Float64Array(CAPSULE_STRIDE);
const rayHit = new Float64Array(RAY_HIT_STRIDE);
/** The ray of a sphere's centre, for the ray kernels (RAY_INPUT_STRIDE). */
const centreRay = new Float64Array(RAY_INPUT_STRIDE);

/** The ray of the centre of the sphere at sphere[so] moved by the motion at motion[mo], in centreRay. */
function centreRayOf(sphere: ReadonlyFloats, so: number, motion: ReadonlyFloats, mo: number): Float64Array {
  for (let k = 0; k < 3; k++) {
    centreRay[k] = sphere[so + k];
    centreRay[3 + k] = motion[mo + k];
  }
  centreRay[6] = motion[mo + 3];
  return centreRay;
}
/** castSphereBoxFrame's input: the centre and motion in the box frame (6), the half-extents (3), r, maxT. */
const frame = new Float64Array(11);
const boxScratch = new Float64Array(OBB_STRIDE);
const closest = new Float64Array(CLOSEST_ON_TRIANGLE_STRIDE);
const boxHit = new Float64Array(7); // t, normal (3), point (3), in the box frame
/** A hit for writeShapeHit (HIT_INPUT_STRIDE; writeRoundHit's radius last). */
const staged = new Float64Array(HIT_INPUT_STRIDE);
const ball = new Float64Array(BALL_ENTRY + 1);

/** Sphere against a sphere [x, y, z, r] at sphere[so]: a ray against the ball of radius r + r_s. */
export function castSphereSphere(
  out: Floats, oo: number,
  cx: number, cy: number, cz: number, r: number,
  dx: number, dy: number, dz: number, maxT: number,
  target: ReadonlyFloats, to: number,
): boolean {
  return castSphereSphereArrays(out, oo, castSphere(cx, cy, cz, r), 0, castMotion(dx, dy, dz, maxT), 0, target, to);
}

/** @internal castSphereSphere, the sphere read from sphere[so..so + 3], the motion from motion[mo..mo + 3] (CAST_MOTION_STRIDE). */
export function castSphereSphereArrays(
  out: Floats, oo: number, sphere: ReadonlyFloats, so: number, motion: ReadonlyFloats, mo: number,
  target: ReadonlyFloats, to: number,
): boolean {
  const cx = sphere[so], cy = sphere[so + 1], cz = sphere[so + 2], r = sphere[so + 3];
  const dx = motion[mo], dy = motion[mo + 1], dz = motion[mo + 2], maxT = motion[mo + 3];
  if (maxT < 0) return false;
  const sx = target[to], sy = target[to + 1], sz = target[to + 2], rs = target[to + 3];
  const mx = cx - sx, my = cy - sy, mz = cz - sz, reach = r + rs;
  const m2 = mx * mx + my * my + mz * mz;
  let t = 0;
  if (m2 > reach * reach) {
    for (let k = 0; k < 3; k++) {
      ball[k] = sphere[so + k] - target[to + k];
      ball[3 + k] = motion[mo + k];
    }
    ball[6] = reach;
    ballEntry(ball);
    t = ball[BALL_ENTRY];
    if (!(t <= maxT)) return false;
  }
  staged[0] = t;
  staged[1] = mx + t * dx;
  staged[2] = my + t * dy;
  staged[3] = mz + t * dz;
  staged[4] = staged[5] = staged[6] = 0;
  writeShapeHit(out, oo, staged, motion, mo);
  // The point on the target's surface (at start overlap, the closest point of the solid ball).
  const k = t > 0 ? rs : Math.min(rs, Math.sqrt(m2));
  out[oo + 4] = sx + k * out[oo + 1];
  out[oo + 5] = sy + k * out[oo + 2];
  out[oo + 6] = sz + k * out[oo + 3];
  return true;
}

/**
 * Writes the hit of the sphere at sphere[so] moved by t·d (d at motion[mo]) whose contact normal
 * is (from the ray kernel's rounded shape) the unit n at rayHit[1..3], t at rayHit[0]: the point
 * is the centre at t less r·n.
 */
function writeRoundHit(out: Floats, oo: number, sphere: ReadonlyFloats, so: number, motion: ReadonlyFloats, mo: number): void {
  const t = rayHit[0];
  for (let k = 0; k < 4; k++) staged[k] = rayHit[k];
  writeShapeHit(out, oo, staged, motion, mo);
  const r = sphere[so + 3];
  for (let k = 0; k < 3; k++) out[oo + 4 + k] = sphere[so + k] + t * motion[mo + k] - r * out[oo + 1 + k];
}

/**
 * Start-overlap hit of the sphere at sphere[so] against a target whose closest point to its
 * centre c is q at closest[0..2] (c itself when c is inside): normal c − q (least penetration),
 * point q.
 */
function writeStartHit(out: Floats, oo: number, sphere: ReadonlyFloats, so: number, motion: ReadonlyFloats, mo: number): void {
  staged[0] = 0;
  for (let k = 0; k < 3; k++) {
    staged[1 + k] = sphere[so + k] - closest[k];
    staged[4 + k] = closest[k];
  }
  writeShapeHit(out, oo, staged, motion, mo);
}

/** Sphere against a capsule [p0, p1, r_c] at cap[co]: a ray against the capsule of radius r + r_c. */
export function castSphereCapsule(
  out: Floats, oo: number,
  cx: number, cy: number, cz: number, r: number,
  dx: number, dy: number, dz: number, maxT: number,
  cap: ReadonlyFloats, co: number,
): boolean {
  return castSphereCapsuleArrays(out, oo, castSphere(cx, cy, cz, r), 0, castMotion(dx, dy, dz, maxT), 0, cap, co);
}

/** @internal castSphereCapsule, the sphere read from sphere[so..so + 3], the motion from motion[mo..mo + 3] (CAST_MOTION_STRIDE). */
export function castSphereCapsuleArrays(
  out: Floats, oo: number, sphere: ReadonlyFloats, so: number, motion: ReadonlyFloats, mo: number,
  cap: ReadonlyFloats, co: number,
): boolean {
  const cx = sphere[so], cy = sphere[so + 1], cz = sphere[so + 2], r = sphere[so + 3];
  if (motion[mo + 3] < 0) return false;
  for (let i = 0; i < 6; i++) capsule[i] = cap[co + i];
  const rc = cap[co + 6];
  capsule[6] = r + rc;
  // Closest point of the core segment, for the start-overlap test.
  const ax = capsule[3] - capsule[0], ay = capsule[4] - capsule[1], az = capsule[5] - capsule[2];
  const aa = ax * ax + ay * ay + az * az;
  const mx = cx - capsule[0], my = cy - capsule[1], mz = cz - capsule[2];
  const s = aa > 0 ? Math.min(1, Math.max(0, (mx * ax + my * ay + mz * az) / aa)) : 0;
  const ex = mx - s * ax, ey = my - s * ay, ez = mz - s * az;
  const e2 = ex * ex + ey * ey + ez * ez;
  if (e2 <= capsule[6] * capsule[6]) {
    // Closest point of the solid capsule to c: c itself when inside, else on its surface.
    const e = Math.sqrt(e2), k = e > rc ? rc / e : 1;
    staged[0] = 0;
    staged[1] = ex;
    staged[2] = ey;
    staged[3] = ez;
    staged[4] = capsule[0] + s * ax + k * ex;
    staged[5] = capsule[1] + s * ay + k * ey;
    staged[6] = capsule[2] + s * az + k * ez;
    writeShapeHit(out, oo, staged, motion, mo);
    return true;
  }
  if (!raycastCapsuleArrays(rayHit, centreRayOf(sphere, so, motion, mo), 0, capsule, 0)) return false;
  writeRoundHit(out, oo, sphere, so, motion, mo);
  return true;
}

/**
 * Sphere (centre p relative to the box centre, motion v, both in the box frame; radius r, up to
 * maxT: all read from `frame`) against the box of half-extents h: writes boxHit (t, normal, point, box frame) and returns whether it hits by maxT.
 * The ray is clipped by the box widened by r; where it enters on a face of the widened box within
 * that face of the box (at most one coordinate beyond the box), that is the hit. Otherwise it
 * enters in an edge region (two coordinates beyond: the sphere can only meet that edge first, so
 * the answer is the ray against the edge's capsule, or a miss) or a corner region (the three
 * edges' capsules at that corner). Started inside the widened box but not touching the box, the
 * centre is in such a region already (entry t = 0).
 */
function castSphereBoxFrame(): boolean {
  const px = frame[0], py = frame[1], pz = frame[2], vx = frame[3], vy = frame[4], vz = frame[5];
  const h0 = frame[6], h1 = frame[7], h2 = frame[8], r = frame[9], maxT = frame[10];
  // Start overlap: the centre within r of the box.
  const q0 = Math.max(-h0, Math.min(h0, px)), q1 = Math.max(-h1, Math.min(h1, py)), q2 = Math.max(-h2, Math.min(h2, pz));
  const ex = px - q0, ey = py - q1, ez = pz - q2;
  if (ex * ex + ey * ey + ez * ez <= r * r) {
    boxHit[0] = 0;
    boxHit[1] = ex;
    boxHit[2] = ey;
    boxHit[3] = ez;
    if (ex === 0 && ey === 0 && ez === 0) {
      // Centre inside the box: push out through the nearest face.
      const g0 = h0 - Math.abs(px), g1 = h1 - Math.abs(py), g2 = h2 - Math.abs(pz);
      const i = g0 <= g1 && g0 <= g2 ? 0 : g1 <= g2 ? 1 : 2;
      boxHit[1 + i] = (i === 0 ? px : i === 1 ? py : pz) >= 0 ? 1 : -1;
    }
    boxHit[4] = q0;
    boxHit[5] = q1;
    boxHit[6] = q2;
    return true;
  }
  // Widened slabs.
  let enter = 0, exit = Infinity, axis = -1;
  for (let i = 0; i < 3; i++) {
    const p = i === 0 ? px : i === 1 ? py : pz, v = i === 0 ? vx : i === 1 ? vy : vz;
    const w = (i === 0 ? h0 : i === 1 ? h1 : h2) + r;
    if (v === 0) {
      if (p < -w || p > w) return false;
      continue;
    }
    let t0 = (-w - p) / v, t1 = (w - p) / v;
    if (t0 > t1) { const x = t0; t0 = t1; t1 = x; }
    if (t0 > enter) { enter = t0; axis = i; }
    if (t1 < exit) exit = t1;
    if (enter > exit) return false;
  }
  if (enter > maxT) return false;
  const x = px + enter * vx, y = py + enter * vy, z = pz + enter * vz;
  const o0 = x < -h0 ? -1 : x > h0 ? 1 : 0, o1 = y < -h1 ? -1 : y > h1 ? 1 : 0, o2 = z < -h2 ? -1 : z > h2 ? 1 : 0;
  const outside = (o0 !== 0 ? 1 : 0) + (o1 !== 0 ? 1 : 0) + (o2 !== 0 ? 1 : 0);
  if (outside <= 1) {
    // A face (entered at t = 0 only when the test above missed a touch by rounding: its axis is
    // then the one coordinate outside the box).
    const i = axis >= 0 ? axis : o0 !== 0 ? 0 : o1 !== 0 ? 1 : 2;
    boxHit[0] = enter;
    boxHit[1] = boxHit[2] = boxHit[3] = 0;
    const c = i === 0 ? x : i === 1 ? y : z;
    boxHit[1 + i] = c >= 0 ? 1 : -1;
    boxHit[4] = x - r * boxHit[1];
    boxHit[5] = y - r * boxHit[2];
    boxHit[6] = z - r * boxHit[3];
    return true;
  }
  // Edge or corner region: the capsules of the edges through the region's edge or corner.
  let best = Infinity;
  writeRay(centreRay, px, py, pz, vx, vy, vz, maxT);
  for (let k = 0; k < 3; k++) {
    const ok = k === 0 ? o0 : k === 1 ? o1 : o2;
    // The edge along axis k runs through the region when the other two coordinates are outside.
    if (outside === 2 && ok !== 0) continue;
    capsule[0] = o0 * h0;
    capsule[1] = o1 * h1;
    capsule[2] = o2 * h2;
    capsule[3] = capsule[0];
    capsule[4] = capsule[1];
    capsule[5] = capsule[2];
    const hk = k === 0 ? h0 : k === 1 ? h1 : h2;
    capsule[k] = -hk;
    capsule[3 + k] = hk;
    capsule[6] = r;
    centreRay[6] = Math.min(best, maxT);
    if (raycastCapsuleArrays(rayHit, centreRay, 0, capsule, 0) && rayHit[0] < best) {
      best = rayHit[0];
      boxHit[0] = best;
      boxHit[1] = rayHit[1];
      boxHit[2] = rayHit[2];
      boxHit[3] = rayHit[3];
    }
  }
  if (best === Infinity) return false;
  if (best === 0) {
    // Touching at the start by the capsule's rounding, not by the test above: the same answer as there.
    boxHit[1] = ex;
    boxHit[2] = ey;
    boxHit[3] = ez;
    boxHit[4] = q0;
    boxHit[5] = q1;
    boxHit[6] = q2;
    return true;
  }
  boxHit[4] = px + best * vx - r * boxHit[1];
  boxHit[5] = py + best * vy - r * boxHit[2];
  boxHit[6] = pz + best * vz - r * boxHit[3];
  return true;
}

/** Sphere against an OBB (layout.ts) at box[bo]; exact (rounded box, see castSphereBoxFrame). */
export function castSphereObb(
  out: Floats, oo: number,
  cx: number, cy: number, cz: number, r: number,
  dx: number, dy: number, dz: number, maxT: number,
  box: ReadonlyFloats, bo: number,
): boolean {
  return castSphereObbArrays(out, oo, castSphere(cx, cy, cz, r), 0, castMotion(dx, dy, dz, maxT), 0, box, bo);
}

/** @internal castSphereObb, the sphere read from sphere[so..so + 3], the motion from motion[mo..mo + 3] (CAST_MOTION_STRIDE). */
export function castSphereObbArrays(
  out: Floats, oo: number, sphere: ReadonlyFloats, so: number, motion: ReadonlyFloats, mo: number,
  box: ReadonlyFloats, bo: number,
): boolean {
  const cx = sphere[so], cy = sphere[so + 1], cz = sphere[so + 2], r = sphere[so + 3];
  const dx = motion[mo], dy = motion[mo + 1], dz = motion[mo + 2], maxT = motion[mo + 3];
  if (maxT < 0) return false;
  const bx = box[bo], by = box[bo + 1], bz = box[bo + 2], ao = bo + OBB_AXES;
  const mx = cx - bx, my = cy - by, mz = cz - bz;
  const u0x = box[ao], u0y = box[ao + 1], u0z = box[ao + 2];
  const u1x = box[ao + 3], u1y = box[ao + 4], u1z = box[ao + 5];
  const u2x = box[ao + 6], u2y = box[ao + 7], u2z = box[ao + 8];
  frame[0] = u0x * mx + u0y * my + u0z * mz;
  frame[1] = u1x * mx + u1y * my + u1z * mz;
  frame[2] = u2x * mx + u2y * my + u2z * mz;
  frame[3] = u0x * dx + u0y * dy + u0z * dz;
  frame[4] = u1x * dx + u1y * dy + u1z * dz;
  frame[5] = u2x * dx + u2y * dy + u2z * dz;
  frame[6] = box[bo + OBB_HALF];
  frame[7] = box[bo + OBB_HALF + 1];
  frame[8] = box[bo + OBB_HALF + 2];
  frame[9] = r;
  frame[10] = maxT;
  if (!castSphereBoxFrame()) return false;
  const n0 = boxHit[1], n1 = boxHit[2], n2 = boxHit[3], p0 = boxHit[4], p1 = boxHit[5], p2 = boxHit[6];
  staged[0] = boxHit[0];
  staged[1] = n0 * u0x + n1 * u1x + n2 * u2x;
  staged[2] = n0 * u0y + n1 * u1y + n2 * u2y;
  staged[3] = n0 * u0z + n1 * u1z + n2 * u2z;
  staged[4] = bx + p0 * u0x + p1 * u1x + p2 * u2x;
  staged[5] = by + p0 * u0y + p1 * u1y + p2 * u2y;
  staged[6] = bz + p0 * u0z + p1 * u1z + p2 * u2z;
  writeShapeHit(out, oo, staged, motion, mo);
  return true;
}

/** Sphere against a min-max AABB at box[bo]; exact (the OBB cast, identity axes). */
export function castSphereAabb(
  out: Floats, oo: number,
  cx: number, cy: number, cz: number, r: number,
  dx: number, dy: number, dz: number, maxT: number,
  box: ReadonlyFloats, bo: number,
): boolean {
  return castSphereAabbArrays(out, oo, castSphere(cx, cy, cz, r), 0, castMotion(dx, dy, dz, maxT), 0, box, bo);
}

/** @internal castSphereAabb, the sphere read from sphere[so..so + 3], the motion from motion[mo..mo + 3] (CAST_MOTION_STRIDE). */
export function castSphereAabbArrays(
  out: Floats, oo: number, sphere: ReadonlyFloats, so: number, motion: ReadonlyFloats, mo: number,
  box: ReadonlyFloats, bo: number,
): boolean {
  return castSphereObbArrays(out, oo, sphere, so, motion, mo, obbFromAabb(boxScratch, 0, box, bo), 0);
}

/**
 * Whether the point p (relative to vertex a) projects along the normal n into the triangle with
 * edges e1 = b − a, e2 = c − a (closed): on the inner side of all three edges.
 */
function overTriangle(
  px: number, py: number, pz: number, e1x: number, e1y: number, e1z: number, e2x: number, e2y: number, e2z: number,
  nx: number, ny: number, nz: number,
): boolean {
  // (e1 × p)·n >= 0, (p × e2)·n >= 0, and ((e2 − e1) × (p − e1))·n >= 0.
  const s1 = (e1y * pz - e1z * py) * nx + (e1z * px - e1x * pz) * ny + (e1x * py - e1y * px) * nz;
  const s2 = (py * e2z - pz * e2y) * nx + (pz * e2x - px * e2z) * ny + (px * e2y - py * e2x) * nz;
  const fx = e2x - e1x, fy = e2y - e1y, fz = e2z - e1z, qx = px - e1x, qy = py - e1y, qz = pz - e1z;
  const s3 = (fy * qz - fz * qy) * nx + (fz * qx - fx * qz) * ny + (fx * qy - fy * qx) * nz;
  return s1 >= 0 && s2 >= 0 && s3 >= 0;
}

/**
 * Sphere against a triangle (9 numbers a, b, c at tri[to]), two-sided and closed. Exact: the
 * triangle grown by r is the prism between the triangle lifted by ±r along its normal and the three
 * edge capsules; the first entry into that union is the earliest of the centre reaching the lifted
 * triangle on its side (plane distance r, over the triangle) and the rays against the capsules. A
 * zero-area triangle has no lifted face: its edge capsules are the whole shape.
 */
export function castSphereTriangle(
  out: Floats, oo: number,
  cx: number, cy: number, cz: number, r: number,
  dx: number, dy: number, dz: number, maxT: number,
  tri: ReadonlyFloats, to: number,
): boolean {
  return castSphereTriangleArrays(out, oo, castSphere(cx, cy, cz, r), 0, castMotion(dx, dy, dz, maxT), 0, tri, to);
}

/** @internal castSphereTriangle, the sphere read from sphere[so..so + 3], the motion from motion[mo..mo + 3] (CAST_MOTION_STRIDE). */
export function castSphereTriangleArrays(
  out: Floats, oo: number, sphere: ReadonlyFloats, so: number, motion: ReadonlyFloats, mo: number,
  tri: ReadonlyFloats, to: number,
): boolean {
  const cx = sphere[so], cy = sphere[so + 1], cz = sphere[so + 2], r = sphere[so + 3];
  const dx = motion[mo], dy = motion[mo + 1], dz = motion[mo + 2], maxT = motion[mo + 3];
  if (maxT < 0) return false;
  const ax = tri[to], ay = tri[to + 1], az = tri[to + 2];
  const e1x = tri[to + 3] - ax, e1y = tri[to + 4] - ay, e1z = tri[to + 5] - az;
  const e2x = tri[to + 6] - ax, e2y = tri[to + 7] - ay, e2z = tri[to + 8] - az;
  let nx = e1y * e2z - e1z * e2y, ny = e1z * e2x - e1x * e2z, nz = e1x * e2y - e1y * e2x;
  const nl = Math.sqrt(nx * nx + ny * ny + nz * nz);
  // A triangle thinner than DEGENERATE_TRIANGLE_SINE has a noise normal: no face, edges only (as raycastTriangle).
  const face = nl > DEGENERATE_TRIANGLE_SINE * Math.sqrt((e1x * e1x + e1y * e1y + e1z * e1z) * (e2x * e2x + e2y * e2y + e2z * e2z));
  if (nl > 0) { nx /= nl; ny /= nl; nz /= nl; }
  const side = (cx - ax) * nx + (cy - ay) * ny + (cz - az) * nz;
  const d2 = closestPtPointTriangle(closest, 0, cx, cy, cz, tri, to);
  if (d2 <= r * r) {
    if (d2 === 0) {
      // Centre on the triangle: either face is a least penetration; take the one against the motion.
      const s = dx * nx + dy * ny + dz * nz > 0 ? -1 : 1;
      staged[0] = 0;
      staged[1] = s * nx;
      staged[2] = s * ny;
      staged[3] = s * nz;
      for (let k = 0; k < 3; k++) staged[4 + k] = closest[k];
      writeShapeHit(out, oo, staged, motion, mo);
    } else {
      writeStartHit(out, oo, sphere, so, motion, mo);
    }
    return true;
  }
  let best = Infinity, bx = 0, by = 0, bz = 0;
  // The lifted face on the centre's side: reached when the plane distance falls to r (at once if
  // it is within r by rounding only), if the centre then lies over the triangle.
  const sign = side >= 0 ? 1 : -1, closing = -sign * (dx * nx + dy * ny + dz * nz);
  if (face && closing > 0) {
    const t = Math.max(0, (Math.abs(side) - r) / closing);
    if (t <= maxT && overTriangle(cx + t * dx - ax, cy + t * dy - ay, cz + t * dz - az, e1x, e1y, e1z, e2x, e2y, e2z, nx, ny, nz)) {
      best = t;
      bx = sign * nx; by = sign * ny; bz = sign * nz;
    }
  }
  capsule[6] = r;
  centreRayOf(sphere, so, motion, mo);
  for (let e = 0; e < 3; e++) {
    const p = to + 3 * e, q = to + 3 * ((e + 1) % 3);
    for (let i = 0; i < 3; i++) {
      capsule[i] = tri[p + i];
      capsule[3 + i] = tri[q + i];
    }
    centreRay[6] = Math.min(best, maxT);
    if (raycastCapsuleArrays(rayHit, centreRay, 0, capsule, 0) && rayHit[0] < best) {
      best = rayHit[0];
      bx = rayHit[1]; by = rayHit[2]; bz = rayHit[3];
    }
  }
  if (best === Infinity) return false;
  if (best === 0) {
    // Touching at the start by a capsule's rounding, not by the test above: the same answer as there.
    writeStartHit(out, oo, sphere, so, motion, mo);
    return true;
  }
  rayHit[0] = best;
  rayHit[1] = bx;
  rayHit[2] = by;
  rayHit[3] = bz;
  writeRoundHit(out, oo, sphere, so, motion, mo);
  return true;
}

/**
 * Sphere against a k-DOP (layout.ts) at kdop[ko]. k = 6 is an AABB (same layout) and exact.
 * Otherwise conservative (castSegmentKdop): never later than the true contact, and at the time it
 * reports, the sphere is within (KDOP_ROUNDING_FACTOR[k] − 1)·r of the k-DOP (exact for r = 0).
 */
export function castSphereKdop(
  out: Floats, oo: number,
  cx: number, cy: number, cz: number, r: number,
  dx: number, dy: number, dz: number, maxT: number,
  kdop: ReadonlyFloats, ko: number, k: KdopK,
): boolean {
  return castSphereKdopArrays(out, oo, castSphere(cx, cy, cz, r), 0, castMotion(dx, dy, dz, maxT), 0, kdop, ko, k);
}

/** @internal castSphereKdop, the sphere read from sphere[so..so + 3], the motion from motion[mo..mo + 3] (CAST_MOTION_STRIDE). */
export function castSphereKdopArrays(
  out: Floats, oo: number, sphere: ReadonlyFloats, so: number, motion: ReadonlyFloats, mo: number,
  kdop: ReadonlyFloats, ko: number, k: KdopK,
): boolean {
  const cx = sphere[so], cy = sphere[so + 1], cz = sphere[so + 2], r = sphere[so + 3];
  const dx = motion[mo], dy = motion[mo + 1], dz = motion[mo + 2], maxT = motion[mo + 3];
  if (k === 6) return castSphereAabbArrays(out, oo, sphere, so, motion, mo, kdop, ko);
  return castSegmentKdop(out, oo, cx, cy, cz, 0, 0, 0, r, dx, dy, dz, maxT, kdop, ko, k);
}
