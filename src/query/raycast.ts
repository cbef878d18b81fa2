import { KDOP_DIRECTIONS } from '../volumes/kdop';
import { OBB_AXES, OBB_HALF, type Floats, type KdopK, type ReadonlyFloats } from '../layout';
import { DEGENERATE_TRIANGLE_SINE, TINY_MOTION, TINY_MOTION_SCALE } from '../tolerances';

/**
 * Ray and segment casts against single volumes.
 *
 * Every cast has the shape `raycastX(out, ox, oy, oz, dx, dy, dz, maxT, shape, shapeOffset)`: the
 * ray is o + t·d for t in [0, maxT] (a segment p0→p1 is the ray o = p0, d = p1 − p0, maxT = 1).
 * On a hit it returns true and writes out[0] = t of the first point of the closed shape on the
 * ray, out[1..3] = the unit outward surface normal there (so normal·d <= 0). On a miss it returns
 * false and leaves `out` alone. `d` need not be unit; t is in units of |d|.
 *
 * Origin inside (or on) a solid shape: t = 0 and the normal is −d/|d|, the direction that pushes
 * the origin back against the motion; with a zero direction the normal is (0, 0, 0), since there
 * is no motion to oppose. A zero direction from outside never hits.
 *
 * Nothing here allocates objects: slab clipping keeps its running state in module variables. The
 * public kernels take numbers and write them into an array for the array kernels
 * (raycastSphereArrays, ...), which the queries call: V8 boxes a double passed to a call it does
 * not inline.
 */

/** Exact cast result layout: t, then the normal. */
export const RAY_HIT_STRIDE = 4;

/**
 * The ray of the array kernels (raycastSphereArrays, ...): origin (3), direction (3), maxT. They
 * read their numbers from an array because V8 boxes a double passed to a call it does not inline
 * (16 bytes of garbage each); the public kernels, which take numbers, write them there.
 * @internal
 */
export const RAY_INPUT_STRIDE = 7;
const rayNumbers = new Float64Array(RAY_INPUT_STRIDE);

/**
 * Writes the ray (ox, oy, oz) + t·(dx, dy, dz), t <= maxT, into `out` (RAY_INPUT_STRIDE); returns out.
 * @internal
 */
export function writeRay(out: Float64Array, ox: number, oy: number, oz: number, dx: number, dy: number, dz: number, maxT: number): Float64Array {
  out[0] = ox;
  out[1] = oy;
  out[2] = oz;
  out[3] = dx;
  out[4] = dy;
  out[5] = dz;
  out[6] = maxT;
  return out;
}

/**
 * The power of two that brings the largest component of v[vo..vo+2] to at least TINY_MOTION (1
 * when it is there already, 0 for the zero vector): multiplying by it is exact.
 */
function tinyMotionScale(v: ReadonlyFloats, vo: number): number {
  let big = Math.max(Math.abs(v[vo]), Math.abs(v[vo + 1]), Math.abs(v[vo + 2]));
  if (big === 0) return 0;
  let scale = 1;
  while (big < TINY_MOTION) {
    big *= TINY_MOTION_SCALE;
    scale *= TINY_MOTION_SCALE;
  }
  return scale;
}

/**
 * Writes the "origin inside" hit: t = 0, normal = −d/|d| (zero for a zero direction), d at
 * v[vo..vo + 2]. The helpers read their numbers from arrays: V8 boxes a double passed to a call it
 * does not inline.
 */
function writeInsideHit(out: Floats, v: ReadonlyFloats, vo: number): void {
  let dx = v[vo], dy = v[vo + 1], dz = v[vo + 2], dd = dx * dx + dy * dy + dz * dz;
  if (dd < TINY_MOTION * TINY_MOTION) {
    // A tiny direction's square underflows: scaled up first (the same unit vector).
    const scale = tinyMotionScale(v, vo);
    dx *= scale;
    dy *= scale;
    dz *= scale;
    dd = dx * dx + dy * dy + dz * dz;
  }
  const len = Math.sqrt(dd);
  const s = len > 0 ? -1 / len : 0;
  out[0] = 0;
  out[1] = dx * s;
  out[2] = dy * s;
  out[3] = dz * s;
}

/** writeHit's t and normal. */
const staged = new Float64Array(RAY_HIT_STRIDE);

/**
 * Writes t and the normal (staged[0..3]) normalised; a zero vector (the hit point is the centre of
 * a zero-radius round shape) falls back to −d/|d|, d the direction of the ray at ray[ro].
 */
function writeHit(out: Floats, ray: ReadonlyFloats, ro: number): void {
  const t = staged[0], nx = staged[1], ny = staged[2], nz = staged[3];
  const len = Math.sqrt(nx * nx + ny * ny + nz * nz);
  if (len > 0) {
    out[0] = t;
    out[1] = nx / len;
    out[2] = ny / len;
    out[3] = nz / len;
  } else {
    writeInsideHit(out, ray, ro + 3);
    out[0] = t;
  }
}

/**
 * Smallest t >= 0 with |m + t·v| = r, for a start m strictly outside the ball (|m| > r);
 * Infinity when the line never reaches it or moves away. Shared by spheres, capsule caps and
 * cylinders (in the plane across the axis) and by the sphere time of impact.
 *
 * Numerically careful (as in Haines et al., "Precision improvements for ray/sphere
 * intersection"): the discriminant comes from the closest approach f = m − (m·v/v·v)·v, which
 * does not cancel when the ray starts far away, and the near root is taken as c/q so that a start
 * close to the surface does not cancel either.
 *
 * Reads m, v and r from ball[0..6] and writes t at ball[BALL_ENTRY] (V8 boxes a double passed to
 * or returned from a call it does not inline).
 * @internal
 */
export function ballEntry(ball: Float64Array): void {
  const mx = ball[0], my = ball[1], mz = ball[2], r = ball[6];
  let vx = ball[3], vy = ball[4], vz = ball[5], vv = vx * vx + vy * vy + vz * vz, scale = 1;
  if (vv < TINY_MOTION * TINY_MOTION) {
    // A tiny motion: its square underflows. Scaled up (exactly), then t scaled back.
    scale = tinyMotionScale(ball, 3);
    ball[BALL_ENTRY] = Infinity;
    if (scale === 0) return;
    vx *= scale;
    vy *= scale;
    vz *= scale;
    vv = vx * vx + vy * vy + vz * vz;
  }
  const b = mx * vx + my * vy + mz * vz;
  ball[BALL_ENTRY] = Infinity;
  if (b >= 0) return;
  const k = b / vv;
  const fx = mx - k * vx, fy = my - k * vy, fz = mz - k * vz;
  const f = Math.sqrt(fx * fx + fy * fy + fz * fz);
  const disc = (r - f) * (r + f);
  if (disc < 0) return;
  const q = -b + Math.sqrt(vv * disc);
  const m = Math.sqrt(mx * mx + my * my + mz * mz);
  ball[BALL_ENTRY] = (((m - r) * (m + r)) / q) * scale;
}
/** @internal Where ballEntry writes its answer; its input before (BALL_ENTRY numbers). */
export const BALL_ENTRY = 7;

/** ballEntry's numbers for the ray kernels. */
const ball = new Float64Array(BALL_ENTRY + 1);

/** Loads `ball` with the ray at ray[ro] and the ball about shape[so] of radius shape[radiusAt] (indices: numbers stay in arrays). */
function loadBall(ray: ReadonlyFloats, ro: number, shape: ReadonlyFloats, so: number, radiusAt: number): void {
  for (let k = 0; k < 3; k++) {
    ball[k] = ray[ro + k] - shape[so + k];
    ball[3 + k] = ray[ro + 3 + k];
  }
  ball[6] = shape[radiusAt];
}

// Running state of a slab clip (AABB, OBB, k-DOP): the ray's parameter interval inside every slab
// seen so far, which slab bounds its start (index and outward sign), and whether the origin lies in
// all of them (1 or 0). In a typed array: a double written to a module-level `let` is boxed, which
// allocated on every slab and made ray casts collect garbage.
const slab = new Float64Array(5);
const ENTER_T = 0;
const EXIT_T = 1;
const ENTER_INDEX = 2;
const ENTER_SIGN = 3;
const ORIGIN_INSIDE = 4;

/**
 * Starts a slab clip. Slab clipping is shared with the time of impact of moving boxes, where
 * the "ray" is the relative motion and the slabs are the separating axes.
 * @internal
 */
export function beginSlabs(): void {
  slab[ENTER_T] = -Infinity;
  slab[EXIT_T] = Infinity;
  slab[ENTER_INDEX] = -1;
  slab[ENTER_SIGN] = 0;
  slab[ORIGIN_INSIDE] = 1;
}

/**
 * Clips the ray against slab `index`: lo <= po + t·pd <= hi, where po and pd are the origin and
 * direction projected on the slab's direction. Returns false once the ray provably misses.
 * A direction parallel to the slab (pd exactly 0) is decided by the origin alone, so no
 * 0·Infinity ever reaches the interval.
 * @internal
 */
export function clipSlab(index: number, po: number, pd: number, lo: number, hi: number): boolean {
  const outside = po < lo || po > hi;
  if (outside) slab[ORIGIN_INSIDE] = 0;
  if (pd === 0) return !outside;
  let near = (lo - po) / pd;
  let far = (hi - po) / pd;
  // Entering through the `lo` face (moving up the slab) means the outward normal is −direction.
  let sign = -1;
  if (pd < 0) {
    const swap = near;
    near = far;
    far = swap;
    sign = 1;
  }
  if (near > slab[ENTER_T]) {
    slab[ENTER_T] = near;
    slab[ENTER_INDEX] = index;
    slab[ENTER_SIGN] = sign;
  }
  if (far < slab[EXIT_T]) slab[EXIT_T] = far;
  return slab[ENTER_T] <= slab[EXIT_T];
}

/**
 * Ends a slab clip of the direction at v[vo..vo + 2] up to v[limit]: writes t (and the inside
 * normal when the origin is inside) and reports a hit. The caller writes the entering slab's
 * normal (slab ENTER_INDEX, ENTER_SIGN) when the origin was outside.
 * @internal
 */
export function finishSlabs(out: Floats, v: ReadonlyFloats, vo: number, limit: number): boolean {
  const maxT = v[limit];
  if (maxT < 0) return false;
  if (slab[ORIGIN_INSIDE] === 1) {
    writeInsideHit(out, v, vo);
    return true;
  }
  const t = slab[ENTER_T];
  if (t < 0 || t > maxT || t > slab[EXIT_T]) return false;
  out[0] = t;
  return true;
}

/**
 * The slab that bounded the last clip's start (its index, as passed to clipSlab), and the outward
 * sign of its entering face (−1 entering through `lo`, +1 through `hi`); whether the origin lay in
 * every slab. For callers that map the entering slab to their own normal (the shape casts).
 * @internal
 */
export function enteredSlab(): number {
  return slab[ENTER_INDEX];
}
/** @internal See enteredSlab. */
export function enteredSlabSign(): number {
  return slab[ENTER_SIGN];
}
/** @internal See enteredSlab. */
export function slabOriginInside(): boolean {
  return slab[ORIGIN_INSIDE] === 1;
}

/** Ray against a sphere [cx, cy, cz, r]. See the module comment for the conventions. */
export function raycastSphere(
  out: Floats,
  ox: number, oy: number, oz: number,
  dx: number, dy: number, dz: number,
  maxT: number,
  sphere: ReadonlyFloats,
  so: number,
): boolean {
  return raycastSphereArrays(out, writeRay(rayNumbers, ox, oy, oz, dx, dy, dz, maxT), 0, sphere, so);
}

/** @internal raycastSphere, the ray read from ray[ro..ro + RAY_INPUT_STRIDE) (see RAY_INPUT_STRIDE). */
export function raycastSphereArrays(out: Floats, ray: ReadonlyFloats, ro: number, sphere: ReadonlyFloats, so: number): boolean {
  const ox = ray[ro], oy = ray[ro + 1], oz = ray[ro + 2], dx = ray[ro + 3], dy = ray[ro + 4], dz = ray[ro + 5], maxT = ray[ro + 6];
  if (maxT < 0) return false;
  const mx = ox - sphere[so], my = oy - sphere[so + 1], mz = oz - sphere[so + 2];
  const r = sphere[so + 3];
  if (mx * mx + my * my + mz * mz <= r * r) {
    writeInsideHit(out, ray, ro + 3);
    return true;
  }
  loadBall(ray, ro, sphere, so, so + 3);
  ballEntry(ball);
  const t = ball[BALL_ENTRY];
  // A miss is Infinity, which an unlimited ray's maxT does not exceed.
  if (t === Infinity || t > maxT) return false;
  staged[0] = t;
  staged[1] = mx + t * dx;
  staged[2] = my + t * dy;
  staged[3] = mz + t * dz;
  writeHit(out, ray, ro);
  return true;
}

/** Ray against an AABB [min x, y, z, max x, y, z] by the slab test. */
export function raycastAabb(
  out: Floats,
  ox: number, oy: number, oz: number,
  dx: number, dy: number, dz: number,
  maxT: number,
  box: ReadonlyFloats,
  bo: number,
): boolean {
  return raycastAabbArrays(out, writeRay(rayNumbers, ox, oy, oz, dx, dy, dz, maxT), 0, box, bo);
}

/** @internal raycastAabb, the ray read from ray[ro..ro + RAY_INPUT_STRIDE) (see RAY_INPUT_STRIDE). */
export function raycastAabbArrays(out: Floats, ray: ReadonlyFloats, ro: number, box: ReadonlyFloats, bo: number): boolean {
  const ox = ray[ro], oy = ray[ro + 1], oz = ray[ro + 2], dx = ray[ro + 3], dy = ray[ro + 4], dz = ray[ro + 5];
  beginSlabs();
  if (!clipSlab(0, ox, dx, box[bo], box[bo + 3])) return false;
  if (!clipSlab(1, oy, dy, box[bo + 1], box[bo + 4])) return false;
  if (!clipSlab(2, oz, dz, box[bo + 2], box[bo + 5])) return false;
  if (!finishSlabs(out, ray, ro + 3, ro + 6)) return false;
  if (slab[ORIGIN_INSIDE] === 0) {
    out[1] = 0;
    out[2] = 0;
    out[3] = 0;
    out[1 + slab[ENTER_INDEX]] = slab[ENTER_SIGN];
  }
  return true;
}

/**
 * Ray against an OBB (layout.ts): the ray is taken into the box frame (origin relative to the
 * centre, so large world offsets cancel first), then clipped by the three slabs as clipSlab clips
 * them, with the running interval in locals: ray casts over hitboxes and colliders call this per
 * box, and the shared slab state's loads and stores were most of its time.
 */
export function raycastObb(
  out: Floats,
  ox: number, oy: number, oz: number,
  dx: number, dy: number, dz: number,
  maxT: number,
  box: ReadonlyFloats,
  bo: number,
): boolean {
  return raycastObbArrays(out, writeRay(rayNumbers, ox, oy, oz, dx, dy, dz, maxT), 0, box, bo);
}

/** @internal raycastObb, the ray read from ray[ro..ro + RAY_INPUT_STRIDE) (see RAY_INPUT_STRIDE). */
export function raycastObbArrays(out: Floats, ray: ReadonlyFloats, ro: number, box: ReadonlyFloats, bo: number): boolean {
  const ox = ray[ro], oy = ray[ro + 1], oz = ray[ro + 2], dx = ray[ro + 3], dy = ray[ro + 4], dz = ray[ro + 5], maxT = ray[ro + 6];
  const rx = ox - box[bo], ry = oy - box[bo + 1], rz = oz - box[bo + 2];
  let enter = -Infinity, exit = Infinity, entered = -1, sign = 0, inside = true;
  for (let k = 0; k < 3; k++) {
    const a = bo + OBB_AXES + 3 * k;
    const ux = box[a], uy = box[a + 1], uz = box[a + 2];
    const h = box[bo + OBB_HALF + k];
    const po = rx * ux + ry * uy + rz * uz, pd = dx * ux + dy * uy + dz * uz;
    const outside = po < -h || po > h;
    if (outside) inside = false;
    if (pd === 0) {
      if (outside) return false;
      continue;
    }
    let near = (-h - po) / pd, far = (h - po) / pd, s = -1;
    if (pd < 0) {
      const swap = near;
      near = far;
      far = swap;
      s = 1;
    }
    if (near > enter) {
      enter = near;
      entered = k;
      sign = s;
    }
    if (far < exit) exit = far;
    if (!(enter <= exit)) return false;
  }
  if (maxT < 0) return false;
  if (inside) {
    writeInsideHit(out, ray, ro + 3);
    return true;
  }
  if (enter < 0 || enter > maxT || enter > exit) return false;
  const a = bo + OBB_AXES + 3 * entered;
  out[0] = enter;
  out[1] = sign * box[a];
  out[2] = sign * box[a + 1];
  out[3] = sign * box[a + 2];
  return true;
}

/**
 * Ray against a k-DOP (layout.ts: k/2 minima then k/2 maxima over the unnormalised
 * `KDOP_DIRECTIONS[k]`). Each direction is a slab; the normal is the entering direction, unit.
 */
export function raycastKdop(
  out: Floats,
  ox: number, oy: number, oz: number,
  dx: number, dy: number, dz: number,
  maxT: number,
  kdop: ReadonlyFloats,
  ko: number,
  k: KdopK,
): boolean {
  return raycastKdopArrays(out, writeRay(rayNumbers, ox, oy, oz, dx, dy, dz, maxT), 0, kdop, ko, k);
}

/** @internal raycastKdop, the ray read from ray[ro..ro + RAY_INPUT_STRIDE) (see RAY_INPUT_STRIDE). */
export function raycastKdopArrays(out: Floats, ray: ReadonlyFloats, ro: number, kdop: ReadonlyFloats, ko: number, k: KdopK): boolean {
  const ox = ray[ro], oy = ray[ro + 1], oz = ray[ro + 2], dx = ray[ro + 3], dy = ray[ro + 4], dz = ray[ro + 5];
  const dirs = KDOP_DIRECTIONS[k];
  const half = k / 2;
  beginSlabs();
  for (let i = 0; i < half; i++) {
    const nx = dirs[3 * i], ny = dirs[3 * i + 1], nz = dirs[3 * i + 2];
    const po = ox * nx + oy * ny + oz * nz;
    const pd = dx * nx + dy * ny + dz * nz;
    if (!clipSlab(i, po, pd, kdop[ko + i], kdop[ko + half + i])) return false;
  }
  if (!finishSlabs(out, ray, ro + 3, ro + 6)) return false;
  if (slab[ORIGIN_INSIDE] === 0) {
    const i = 3 * slab[ENTER_INDEX], sign = slab[ENTER_SIGN];
    staged[0] = slab[ENTER_T];
    for (let k = 0; k < 3; k++) staged[1 + k] = sign * dirs[i + k];
    writeHit(out, ray, ro);
  }
  return true;
}

/**
 * Ray against a capsule [p0, p1, r]: the union of the cylinder around p0p1 and the two end
 * balls. From outside, the first entry into a union is the earliest entry into any part. A
 * zero-length capsule is a ball; a zero radius leaves the segment itself (hit only exactly).
 */
export function raycastCapsule(
  out: Floats,
  ox: number, oy: number, oz: number,
  dx: number, dy: number, dz: number,
  maxT: number,
  capsule: ReadonlyFloats,
  co: number,
): boolean {
  return raycastCapsuleArrays(out, writeRay(rayNumbers, ox, oy, oz, dx, dy, dz, maxT), 0, capsule, co);
}

/** @internal raycastCapsule, the ray read from ray[ro..ro + RAY_INPUT_STRIDE) (see RAY_INPUT_STRIDE). */
export function raycastCapsuleArrays(out: Floats, ray: ReadonlyFloats, ro: number, capsule: ReadonlyFloats, co: number): boolean {
  const ox = ray[ro], oy = ray[ro + 1], oz = ray[ro + 2], dx = ray[ro + 3], dy = ray[ro + 4], dz = ray[ro + 5], maxT = ray[ro + 6];
  if (maxT < 0) return false;
  const ax = capsule[co + 3] - capsule[co], ay = capsule[co + 4] - capsule[co + 1], az = capsule[co + 5] - capsule[co + 2];
  const r = capsule[co + 6];
  const mx = ox - capsule[co], my = oy - capsule[co + 1], mz = oz - capsule[co + 2];
  const aa = ax * ax + ay * ay + az * az;
  const ma = mx * ax + my * ay + mz * az;
  const s0 = aa > 0 ? Math.min(1, Math.max(0, ma / aa)) : 0;
  const qx = mx - s0 * ax, qy = my - s0 * ay, qz = mz - s0 * az;
  if (qx * qx + qy * qy + qz * qz <= r * r) {
    writeInsideHit(out, ray, ro + 3);
    return true;
  }
  // The two end balls, then the cylinder (ballEntry reads its numbers from `ball`).
  loadBall(ray, ro, capsule, co, co + 6);
  ballEntry(ball);
  const t0 = ball[BALL_ENTRY];
  ball[0] = mx - ax;
  ball[1] = my - ay;
  ball[2] = mz - az;
  ballEntry(ball);
  let t = Math.min(t0, ball[BALL_ENTRY]);
  if (aa > 0) {
    // Cylinder: a circle problem in the plane across the axis; valid only between the end caps.
    const km = ma / aa, kd = (dx * ax + dy * ay + dz * az) / aa;
    const px = mx - km * ax, py = my - km * ay, pz = mz - km * az;
    if (px * px + py * py + pz * pz > r * r) {
      ball[0] = px;
      ball[1] = py;
      ball[2] = pz;
      ball[3] = dx - kd * ax;
      ball[4] = dy - kd * ay;
      ball[5] = dz - kd * az;
      ballEntry(ball);
      const tc = ball[BALL_ENTRY];
      const axial = km + tc * kd;
      if (tc < t && axial >= 0 && axial <= 1) t = tc;
    }
  }
  if (t === Infinity || t > maxT) return false;
  const hx = mx + t * dx, hy = my + t * dy, hz = mz + t * dz;
  const s = aa > 0 ? Math.min(1, Math.max(0, (hx * ax + hy * ay + hz * az) / aa)) : 0;
  staged[0] = t;
  staged[1] = hx - s * ax;
  staged[2] = hy - s * ay;
  staged[3] = hz - s * az;
  writeHit(out, ray, ro);
  return true;
}

/**
 * Ray against a triangle (9 numbers: a, b, c), two-sided, by Möller–Trumbore; the normal faces
 * the ray (normal·d <= 0). The triangle is closed (edges and corners hit). A zero-area triangle,
 * a ray lying in the triangle's plane and a zero direction never hit: a triangle has no inside.
 */
export function raycastTriangle(
  out: Floats,
  ox: number, oy: number, oz: number,
  dx: number, dy: number, dz: number,
  maxT: number,
  tri: ReadonlyFloats,
  to: number,
): boolean {
  return raycastTriangleArrays(out, writeRay(rayNumbers, ox, oy, oz, dx, dy, dz, maxT), 0, tri, to);
}

/** @internal raycastTriangle, the ray read from ray[ro..ro + RAY_INPUT_STRIDE) (see RAY_INPUT_STRIDE). */
export function raycastTriangleArrays(out: Floats, ray: ReadonlyFloats, ro: number, tri: ReadonlyFloats, to: number): boolean {
  const ox = ray[ro], oy = ray[ro + 1], oz = ray[ro + 2], dx = ray[ro + 3], dy = ray[ro + 4], dz = ray[ro + 5], maxT = ray[ro + 6];
  const ax = tri[to], ay = tri[to + 1], az = tri[to + 2];
  const e1x = tri[to + 3] - ax, e1y = tri[to + 4] - ay, e1z = tri[to + 5] - az;
  const e2x = tri[to + 6] - ax, e2y = tri[to + 7] - ay, e2z = tri[to + 8] - az;
  const nx = e1y * e2z - e1z * e2y, ny = e1z * e2x - e1x * e2z, nz = e1x * e2y - e1y * e2x;
  const nn = nx * nx + ny * ny + nz * nz;
  const edgeScale = DEGENERATE_TRIANGLE_SINE * DEGENERATE_TRIANGLE_SINE * (e1x * e1x + e1y * e1y + e1z * e1z) * (e2x * e2x + e2y * e2y + e2z * e2z);
  if (!(nn > edgeScale)) return false;
  // p = d × e2; det = e1·p = −d·n.
  const px = dy * e2z - dz * e2y, py = dz * e2x - dx * e2z, pz = dx * e2y - dy * e2x;
  const det = e1x * px + e1y * py + e1z * pz;
  if (det === 0) return false;
  const inv = 1 / det;
  const sx = ox - ax, sy = oy - ay, sz = oz - az;
  const u = (sx * px + sy * py + sz * pz) * inv;
  if (u < 0 || u > 1) return false;
  const qx = sy * e1z - sz * e1y, qy = sz * e1x - sx * e1z, qz = sx * e1y - sy * e1x;
  const v = (dx * qx + dy * qy + dz * qz) * inv;
  if (v < 0 || u + v > 1) return false;
  const t = (e2x * qx + e2y * qy + e2z * qz) * inv;
  if (t < 0 || t > maxT) return false;
  // det > 0 means d·n < 0: n already faces the ray.
  const side = det > 0 ? 1 : -1;
  staged[0] = t;
  staged[1] = side * nx;
  staged[2] = side * ny;
  staged[3] = side * nz;
  writeHit(out, ray, ro);
  return true;
}
