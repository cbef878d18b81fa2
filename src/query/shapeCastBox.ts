import { KDOP_DIRECTIONS } from '../volumes/kdop';
import { obbFromAabb } from '../volumes/obb';
import { OBB_AXES, OBB_HALF, OBB_STRIDE, type Floats, type KdopK, type ReadonlyFloats } from '../layout';
import { ROUNDING_ALLOWANCE, SHAPE_CAST_FEATURE_COSINE, TOI_PARALLEL_SINE, TOI_SEPARATION_MARGIN } from '../tolerances';
import { closestPtPointObb, closestPtPointTriangle } from './closestPoints';
import { beginSlabs, clipSlab, enteredSlab, enteredSlabSign, finishSlabs, RAY_HIT_STRIDE, slabOriginInside } from './raycast';
import { castMotion, castSphereObbArrays, reversedMotion } from './shapeCast';
import { castCapsuleObbArrays } from './shapeCastCapsule';
import { backwardsHit, HIT_INPUT_STRIDE, writeShapeHit } from './shapeCastHit';
import { clipObbMotion, MOTION_AXIS_STRIDE, motionAxes } from './toi';

/**
 * Shape casts of an oriented box (OBB layout at box[bo]) translated by t·(dx, dy, dz), t in
 * [0, maxT], against static targets; results as in shapeCastHit.ts. An AABB mover is the OBB with
 * IDENTITY_AXES (`obbFromAabb`).
 *
 * Box against box, triangle or k-DOP: the moving separating-axis test (toi.ts): the shapes touch
 * at t iff their projections overlap on every axis of a complete set (15 for two boxes, 13 for a
 * box and a triangle), each axis allows one interval of t, and the first contact is the start of
 * their intersection, a ray-through-slabs clip. As in obbToi each axis is widened by
 * TOI_SEPARATION_MARGIN of the scene's scale, so the cast is never late and early by at most that
 * much in distance. The normal is the deciding axis (the slab entered last), oriented from the
 * target towards the mover; at a start overlap, the axis of least penetration. The point is the
 * mover's supporting feature along −normal at t (a corner, or the centre of an edge or face lying
 * along the target, SHAPE_CAST_FEATURE_COSINE), clamped onto the target: cheaper than clipping
 * features as contacts.ts does, and on the target's surface.
 *
 * A k-DOP is known by its slabs only, so the box against a k-DOP uses the k-DOP's directions as
 * axes: conservative, it reports contact once the box's own k-DOP meets the target, at most the
 * box's extent early (docs/design/sat-and-kernels.md); k = 6 is an AABB, exact. Box against sphere
 * or capsule: those casts run backwards (the target moving by −d against the box), exact.
 */

const rayHit = new Float64Array(RAY_HIT_STRIDE);
const closest = new Float64Array(6);
const boxScratch = new Float64Array(OBB_STRIDE);
// One axis of the box–triangle or box–k-DOP SAT: L (3), mover radius, target interval (2).
const axis = new Float64Array(6);
/** writeBoxHit's t and normal (staged[0..3]), for writeShapeHit (HIT_INPUT_STRIDE). */
const staged = new Float64Array(HIT_INPUT_STRIDE);

/**
 * Writes the hit at t with normal n (staged[0..3]; the motion at motion[mo]): the point is the
 * mover's support along −n at t, clamped onto the target by `clamp` (OBB or triangle; none for a
 * k-DOP).
 */
function writeBoxHit(
  out: Floats, oo: number, box: ReadonlyFloats, bo: number, motion: ReadonlyFloats, mo: number,
  target: ReadonlyFloats, to: number, clamp: number,
): void {
  const t = staged[0], dx = motion[mo], dy = motion[mo + 1], dz = motion[mo + 2];
  staged[4] = staged[5] = staged[6] = 0;
  writeShapeHit(out, oo, staged, motion, mo);
  const nx = out[oo + 1], ny = out[oo + 2], nz = out[oo + 3];
  let x = box[bo] + t * dx, y = box[bo + 1] + t * dy, z = box[bo + 2] + t * dz;
  for (let k = 0; k < 3; k++) {
    const u = bo + OBB_AXES + 3 * k, c = nx * box[u] + ny * box[u + 1] + nz * box[u + 2];
    if (Math.abs(c) <= SHAPE_CAST_FEATURE_COSINE) continue;
    const h = c > 0 ? -box[bo + OBB_HALF + k] : box[bo + OBB_HALF + k];
    x += h * box[u];
    y += h * box[u + 1];
    z += h * box[u + 2];
  }
  if (clamp === CLAMP_OBB) closestPtPointObb(closest, 0, x, y, z, target, to);
  else if (clamp === CLAMP_TRIANGLE) closestPtPointTriangle(closest, 0, x, y, z, target, to);
  else { closest[0] = x; closest[1] = y; closest[2] = z; }
  out[oo + 4] = closest[0];
  out[oo + 5] = closest[1];
  out[oo + 6] = closest[2];
}
const CLAMP_NONE = 0;
const CLAMP_OBB = 1;
const CLAMP_TRIANGLE = 2;

/** Box against an OBB at target[to]: the moving 15-axis SAT (clipObbMotion, shared with obbToi). */
export function castObbObb(
  out: Floats, oo: number, box: ReadonlyFloats, bo: number,
  dx: number, dy: number, dz: number, maxT: number,
  target: ReadonlyFloats, to: number,
): boolean {
  return castObbObbArrays(out, oo, box, bo, castMotion(dx, dy, dz, maxT), 0, target, to);
}

/** @internal castObbObb, the motion read from motion[mo..mo + 3] (CAST_MOTION_STRIDE). */
export function castObbObbArrays(
  out: Floats, oo: number, box: ReadonlyFloats, bo: number, motion: ReadonlyFloats, mo: number,
  target: ReadonlyFloats, to: number,
): boolean {
  const dx = motion[mo], dy = motion[mo + 1], dz = motion[mo + 2], maxT = motion[mo + 3];
  if (maxT < 0) return false;
  if (!clipObbMotion(box, bo, target, to, motion, mo)) return false;
  if (!finishSlabs(rayHit, motion, mo, mo + 3)) return false;
  let index = enteredSlab();
  if (slabOriginInside()) {
    // Least penetration, in true distance, over the axes (all were written: none rejected).
    let depth = Infinity;
    for (let i = 0; i < 15; i++) {
      const m = MOTION_AXIS_STRIDE * i;
      if (motionAxes[m + 4] < 0) continue;
      const l = Math.sqrt(motionAxes[m] * motionAxes[m] + motionAxes[m + 1] * motionAxes[m + 1] + motionAxes[m + 2] * motionAxes[m + 2]);
      const p = (motionAxes[m + 4] - Math.abs(motionAxes[m + 3])) / l;
      if (p < depth) { depth = p; index = i; }
    }
  }
  const m = MOTION_AXIS_STRIDE * index;
  const lx = motionAxes[m], ly = motionAxes[m + 1], lz = motionAxes[m + 2], s = motionAxes[m + 3];
  // s = (c_target − c_mover)·L at t = 0: the mover lies on the −sign(s) side (the entering side).
  const sign = s > 0 ? -1 : s < 0 ? 1 : dx * lx + dy * ly + dz * lz > 0 ? -1 : 1;
  staged[0] = rayHit[0];
  staged[1] = sign * lx;
  staged[2] = sign * ly;
  staged[3] = sign * lz;
  writeBoxHit(out, oo, box, bo, motion, mo, target, to, CLAMP_OBB);
  return true;
}

/** Box against a min-max AABB at target[to]: the OBB cast with identity axes. */
export function castObbAabb(
  out: Floats, oo: number, box: ReadonlyFloats, bo: number,
  dx: number, dy: number, dz: number, maxT: number,
  target: ReadonlyFloats, to: number,
): boolean {
  return castObbAabbArrays(out, oo, box, bo, castMotion(dx, dy, dz, maxT), 0, target, to);
}

/** @internal castObbAabb, the motion read from motion[mo..mo + 3] (CAST_MOTION_STRIDE). */
export function castObbAabbArrays(
  out: Floats, oo: number, box: ReadonlyFloats, bo: number, motion: ReadonlyFloats, mo: number,
  target: ReadonlyFloats, to: number,
): boolean {
  obbFromAabb(boxScratch, 0, target, to);
  return castObbObbArrays(out, oo, box, bo, motion, mo, boxScratch, 0);
}

/** Box against a sphere [x, y, z, r]: the sphere cast backwards against the box. */
export function castObbSphere(
  out: Floats, oo: number, box: ReadonlyFloats, bo: number,
  dx: number, dy: number, dz: number, maxT: number,
  sphere: ReadonlyFloats, so: number,
): boolean {
  return castObbSphereArrays(out, oo, box, bo, castMotion(dx, dy, dz, maxT), 0, sphere, so);
}

/** @internal castObbSphere, the motion read from motion[mo..mo + 3] (CAST_MOTION_STRIDE). */
export function castObbSphereArrays(
  out: Floats, oo: number, box: ReadonlyFloats, bo: number, motion: ReadonlyFloats, mo: number,
  sphere: ReadonlyFloats, so: number,
): boolean {
  return backwardsHit(castSphereObbArrays(out, oo, sphere, so, reversedMotion(motion, mo), 0, box, bo), out, oo, motion, mo);
}

/** Box against a capsule: the capsule cast backwards against the box. */
export function castObbCapsule(
  out: Floats, oo: number, box: ReadonlyFloats, bo: number,
  dx: number, dy: number, dz: number, maxT: number,
  cap: ReadonlyFloats, co: number,
): boolean {
  return castObbCapsuleArrays(out, oo, box, bo, castMotion(dx, dy, dz, maxT), 0, cap, co);
}

/** @internal castObbCapsule, the motion read from motion[mo..mo + 3] (CAST_MOTION_STRIDE). */
export function castObbCapsuleArrays(
  out: Floats, oo: number, box: ReadonlyFloats, bo: number, motion: ReadonlyFloats, mo: number,
  cap: ReadonlyFloats, co: number,
): boolean {
  return backwardsHit(castCapsuleObbArrays(out, oo, cap, co, reversedMotion(motion, mo), 0, box, bo), out, oo, motion, mo);
}

/**
 * Axis i of the box–triangle SAT into `axis`: 0..2 the box's faces, 3 the triangle's normal,
 * 4 + 3k + e = box axis k × triangle edge e. Projections are relative to the box's centre at t = 0.
 * False for a zero axis (a zero-area triangle's normal, an edge parallel to a box axis).
 */
function triangleAxis(box: ReadonlyFloats, bo: number, tri: ReadonlyFloats, to: number, i: number): boolean {
  let lx: number, ly: number, lz: number;
  if (i < 3) {
    const u = bo + OBB_AXES + 3 * i;
    lx = box[u]; ly = box[u + 1]; lz = box[u + 2];
  } else {
    const e1x = tri[to + 3] - tri[to], e1y = tri[to + 4] - tri[to + 1], e1z = tri[to + 5] - tri[to + 2];
    const e2x = tri[to + 6] - tri[to], e2y = tri[to + 7] - tri[to + 1], e2z = tri[to + 8] - tri[to + 2];
    let ex: number, ey: number, ez: number, ux = 0, uy = 0, uz = 0;
    if (i === 3) {
      lx = e1y * e2z - e1z * e2y; ly = e1z * e2x - e1x * e2z; lz = e1x * e2y - e1y * e2x;
      ex = Math.sqrt(e1x * e1x + e1y * e1y + e1z * e1z) * Math.sqrt(e2x * e2x + e2y * e2y + e2z * e2z);
      ux = 1;
    } else {
      const k = Math.floor((i - 4) / 3), e = (i - 4) % 3;
      const p = to + 3 * e, q = to + 3 * ((e + 1) % 3);
      ex = tri[q] - tri[p]; ey = tri[q + 1] - tri[p + 1]; ez = tri[q + 2] - tri[p + 2];
      const u = bo + OBB_AXES + 3 * k;
      ux = box[u]; uy = box[u + 1]; uz = box[u + 2];
      lx = uy * ez - uz * ey; ly = uz * ex - ux * ez; lz = ux * ey - uy * ex;
      ex = Math.sqrt(ex * ex + ey * ey + ez * ez);
    }
    // Edge crosses within TOI_PARALLEL_SINE of parallel (and degenerate normals) are skipped.
    if (!(lx * lx + ly * ly + lz * lz > TOI_PARALLEL_SINE * TOI_PARALLEL_SINE * ex * ex)) return false;
  }
  const pa = bo + OBB_AXES;
  axis[0] = lx; axis[1] = ly; axis[2] = lz;
  axis[3] =
    box[bo + OBB_HALF] * Math.abs(lx * box[pa] + ly * box[pa + 1] + lz * box[pa + 2]) +
    box[bo + OBB_HALF + 1] * Math.abs(lx * box[pa + 3] + ly * box[pa + 4] + lz * box[pa + 5]) +
    box[bo + OBB_HALF + 2] * Math.abs(lx * box[pa + 6] + ly * box[pa + 7] + lz * box[pa + 8]);
  let lo = Infinity, hi = -Infinity;
  for (let v = 0; v < 9; v += 3) {
    const p = (tri[to + v] - box[bo]) * lx + (tri[to + v + 1] - box[bo + 1]) * ly + (tri[to + v + 2] - box[bo + 2]) * lz;
    if (p < lo) lo = p;
    if (p > hi) hi = p;
  }
  axis[4] = lo;
  axis[5] = hi;
  return true;
}

/**
 * Slab clip of the box's projection (centre 0 + t·d·L, radius axis[3]) against the target's
 * interval [axis[4], axis[5]], widened by margin·|L|.
 */
function clipAxis(i: number, dx: number, dy: number, dz: number, margin: number): boolean {
  const l = Math.sqrt(axis[0] * axis[0] + axis[1] * axis[1] + axis[2] * axis[2]);
  const w = axis[3] + margin * l;
  return clipSlab(i, 0, dx * axis[0] + dy * axis[1] + dz * axis[2], axis[4] - w, axis[5] + w);
}

/**
 * After a clip by clipAxis that started inside: the axis of least penetration at t = 0, in true
 * distance, as ±(index + 1) (+: push the mover along +L). Recomputes each axis with `fill`.
 */
function leastPenetration(count: number, fill: (i: number) => boolean): number {
  let depth = Infinity, best = 0;
  for (let i = 0; i < count; i++) {
    if (!fill(i)) continue;
    const l = Math.sqrt(axis[0] * axis[0] + axis[1] * axis[1] + axis[2] * axis[2]);
    const up = (axis[5] + axis[3]) / l, down = (axis[3] - axis[4]) / l;
    if (up < depth) { depth = up; best = i + 1; }
    if (down < depth) { depth = down; best = -(i + 1); }
  }
  return best;
}

let satBox: ReadonlyFloats = boxScratch, satBo = 0, satTarget: ReadonlyFloats = boxScratch, satTo = 0, satK: KdopK = 6;
const fillTriangle = (i: number): boolean => triangleAxis(satBox, satBo, satTarget, satTo, i);
const fillKdop = (i: number): boolean => kdopAxis(satBox, satBo, satTarget, satTo, satK, i);

/**
 * Ends a box SAT cast (the clip done over `count` axes filled by `fill`): the normal from the
 * entered slab, or from the least penetration for a start overlap.
 */
function finishBoxSat(
  out: Floats, oo: number, box: ReadonlyFloats, bo: number, motion: ReadonlyFloats, mo: number,
  target: ReadonlyFloats, to: number, count: number, fill: (i: number) => boolean, clamp: number,
): boolean {
  if (!finishSlabs(rayHit, motion, mo, mo + 3)) return false;
  let index = enteredSlab(), sign = enteredSlabSign();
  if (slabOriginInside()) {
    const best = leastPenetration(count, fill);
    index = Math.abs(best) - 1;
    sign = best > 0 ? 1 : -1;
  }
  fill(index);
  // Entering through `lo` (sign −1) the mover lies below the target along L: normal −L.
  staged[0] = rayHit[0];
  for (let k = 0; k < 3; k++) staged[1 + k] = sign * axis[k];
  writeBoxHit(out, oo, box, bo, motion, mo, target, to, clamp);
  return true;
}

/** Box against a triangle (9 numbers at tri[to]): the moving 13-axis SAT. */
export function castObbTriangle(
  out: Floats, oo: number, box: ReadonlyFloats, bo: number,
  dx: number, dy: number, dz: number, maxT: number,
  tri: ReadonlyFloats, to: number,
): boolean {
  return castObbTriangleArrays(out, oo, box, bo, castMotion(dx, dy, dz, maxT), 0, tri, to);
}

/** @internal castObbTriangle, the motion read from motion[mo..mo + 3] (CAST_MOTION_STRIDE). */
export function castObbTriangleArrays(
  out: Floats, oo: number, box: ReadonlyFloats, bo: number, motion: ReadonlyFloats, mo: number,
  tri: ReadonlyFloats, to: number,
): boolean {
  const dx = motion[mo], dy = motion[mo + 1], dz = motion[mo + 2], maxT = motion[mo + 3];
  if (maxT < 0) return false;
  let extent = 0;
  for (let v = 0; v < 9; v += 3) {
    extent = Math.max(extent, Math.abs(tri[to + v] - box[bo]) + Math.abs(tri[to + v + 1] - box[bo + 1]) + Math.abs(tri[to + v + 2] - box[bo + 2]));
  }
  const margin = TOI_SEPARATION_MARGIN * (extent + Math.sqrt(dx * dx + dy * dy + dz * dz) + box[bo + OBB_HALF] + box[bo + OBB_HALF + 1] + box[bo + OBB_HALF + 2]);
  satBox = box; satBo = bo; satTarget = tri; satTo = to;
  beginSlabs();
  for (let i = 0; i < 13; i++) {
    if (!triangleAxis(box, bo, tri, to, i)) continue;
    if (!clipAxis(i, dx, dy, dz, margin)) return false;
  }
  return finishBoxSat(out, oo, box, bo, motion, mo, tri, to, 13, fillTriangle, CLAMP_TRIANGLE);
}

/** k-DOP direction i as an axis of the box–k-DOP SAT into `axis`, projections relative to the box's centre. */
function kdopAxis(box: ReadonlyFloats, bo: number, kdop: ReadonlyFloats, ko: number, k: KdopK, i: number): boolean {
  const dirs = KDOP_DIRECTIONS[k], half = k >> 1, pa = bo + OBB_AXES;
  const lx = dirs[3 * i], ly = dirs[3 * i + 1], lz = dirs[3 * i + 2];
  axis[0] = lx; axis[1] = ly; axis[2] = lz;
  axis[3] =
    box[bo + OBB_HALF] * Math.abs(lx * box[pa] + ly * box[pa + 1] + lz * box[pa + 2]) +
    box[bo + OBB_HALF + 1] * Math.abs(lx * box[pa + 3] + ly * box[pa + 4] + lz * box[pa + 5]) +
    box[bo + OBB_HALF + 2] * Math.abs(lx * box[pa + 6] + ly * box[pa + 7] + lz * box[pa + 8]);
  const c = lx * box[bo] + ly * box[bo + 1] + lz * box[bo + 2];
  axis[4] = kdop[ko + i] - c;
  axis[5] = kdop[ko + half + i] - c;
  return true;
}

/**
 * Box against a k-DOP at kdop[ko]: k = 6 is an AABB, exact (castObbAabb); otherwise the moving SAT
 * over the k-DOP's k/2 directions, conservative (see the module comment). The point is the box's
 * supporting feature at t, not clamped (no cheap projection onto a k-DOP).
 */
export function castObbKdop(
  out: Floats, oo: number, box: ReadonlyFloats, bo: number,
  dx: number, dy: number, dz: number, maxT: number,
  kdop: ReadonlyFloats, ko: number, k: KdopK,
): boolean {
  return castObbKdopArrays(out, oo, box, bo, castMotion(dx, dy, dz, maxT), 0, kdop, ko, k);
}

/** @internal castObbKdop, the motion read from motion[mo..mo + 3] (CAST_MOTION_STRIDE). */
export function castObbKdopArrays(
  out: Floats, oo: number, box: ReadonlyFloats, bo: number, motion: ReadonlyFloats, mo: number,
  kdop: ReadonlyFloats, ko: number, k: KdopK,
): boolean {
  const dx = motion[mo], dy = motion[mo + 1], dz = motion[mo + 2], maxT = motion[mo + 3];
  if (k === 6) return castObbAabbArrays(out, oo, box, bo, motion, mo, kdop, ko);
  if (maxT < 0) return false;
  const half = k >> 1;
  let bounds = 0, extent = 0;
  for (let i = 0; i < k; i++) bounds = Math.max(bounds, Math.abs(kdop[ko + i]));
  for (let i = 0; i < 3; i++) extent = Math.max(extent, kdop[ko + half + i] - kdop[ko + i]);
  const margin = TOI_SEPARATION_MARGIN * (extent + Math.sqrt(dx * dx + dy * dy + dz * dz) + box[bo + OBB_HALF] + box[bo + OBB_HALF + 1] + box[bo + OBB_HALF + 2]) +
    ROUNDING_ALLOWANCE * (Math.abs(box[bo]) + Math.abs(box[bo + 1]) + Math.abs(box[bo + 2]) + bounds);
  satBox = box; satBo = bo; satTarget = kdop; satTo = ko; satK = k;
  beginSlabs();
  for (let i = 0; i < half; i++) {
    kdopAxis(box, bo, kdop, ko, k, i);
    if (!clipAxis(i, dx, dy, dz, margin)) return false;
  }
  return finishBoxSat(out, oo, box, bo, motion, mo, kdop, ko, half, fillKdop, CLAMP_NONE);
}
