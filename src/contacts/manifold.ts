import { closestPtPointAabb, closestPtPointObb, closestPtPointSegment, closestPtSegmentSegment, CLOSEST_SEGMENTS_STRIDE } from '../query/closestPoints';
import { OBB_AXES, OBB_HALF, OBB_STRIDE, type Floats, type ReadonlyFloats } from '../layout';
import { raycastObb, RAY_HIT_STRIDE } from '../query/raycast';
import { obbFromAabb } from '../volumes/obb';
import { SAT_FALSE_OVERLAP_BAND } from '../query/sat';

/**
 * Contact manifolds between pairs of convex shapes (sphere, capsule, AABB, OBB).
 *
 * Every function is `contactXY(out, oo, a, ao, b, bo)`: shape A at `a[ao..]`, shape B at
 * `b[bo..]` (layouts of layout.ts), manifold written at `out[oo..oo+CONTACT_STRIDE-1]`. It
 * returns the number of contact points, 0 when the shapes are separated (then only the count is
 * written). Touching shapes (depth 0) are in contact. Nothing here allocates: scratch lives in
 * module-level typed arrays. Inputs are trusted (no validation); finite input, including
 * zero-size shapes, never produces NaN.
 *
 * Conventions:
 * - The normal is unit and points from A to B: translating B by `depth` along it separates the
 *   shapes (they touch), and no shorter translation in any direction does.
 * - Each contact point carries its own depth (<= the manifold depth). Between round shapes, and
 *   a round shape and a box, it lies midway between the two surfaces along the normal. Between
 *   boxes it lies on the incident face (the clipped face of the box that does not own the axis),
 *   below the reference face by its depth: inside both boxes unless the depth exceeds the
 *   reference box's thickness, which a midpoint would not guarantee either (it leaves thin boxes).
 */

/** Numbers per manifold. */
export const CONTACT_STRIDE = 23;
/** Unit normal (3), from A to B. */
export const CONTACT_NORMAL = 0;
/** Penetration depth along the normal (>= 0; 0 = touching). */
export const CONTACT_DEPTH = 3;
/** Number of contact points, 0..4. */
export const CONTACT_COUNT = 4;
/** Feature of A that is in contact (see FEATURE_*), for contact caching between frames. */
export const CONTACT_FEATURE_A = 5;
/** Feature of B that is in contact (see FEATURE_*). */
export const CONTACT_FEATURE_B = 6;
/** First contact point: x, y, z, depth of this point; up to 4 points follow one another. */
export const CONTACT_POINTS = 7;
/** Numbers per contact point. */
export const CONTACT_POINT_STRIDE = 4;

/**
 * Feature ids. A box (OBB or AABB; axis k = u0, u1, u2 or x, y, z) numbers its features:
 * - faces 0..5: FEATURE_BOX_FACE + 2k + (1 on the +u_k side, 0 on the −u_k side);
 * - edges 6..17: FEATURE_BOX_EDGE + 4k + s1 + 2·s2 for the edge along u_k, where s1, s2 (0 or 1)
 *   say on which side of u_(k+1 mod 3) and u_(k+2 mod 3) it lies (1 = + side);
 * - vertices 18..25: FEATURE_BOX_VERTEX + (bit k set on the +u_k side), the order of obbCorners.
 * A sphere is feature 0. A capsule is FEATURE_CAPSULE_P0 / _P1 when an end cap is in contact,
 * FEATURE_CAPSULE_SIDE when the contact is along the segment (or spans it).
 */
export const FEATURE_BOX_FACE = 0;
/** First box edge id (see above). */
export const FEATURE_BOX_EDGE = 6;
/** First box vertex id (see above). */
export const FEATURE_BOX_VERTEX = 18;
/** The feature id of a sphere. */
export const FEATURE_SPHERE = 0;
/** Capsule feature: the end cap at p0. */
export const FEATURE_CAPSULE_P0 = 0;
/** Capsule feature: the end cap at p1. */
export const FEATURE_CAPSULE_P1 = 1;
/** Capsule feature: the side, along the segment. */
export const FEATURE_CAPSULE_SIDE = 2;

/**
 * Normal used when the closest points of two round shapes coincide (equal sphere centres, a
 * sphere centre on a zero-length capsule...) and nothing else fixes a direction: any direction
 * is a least-translation direction there, and a fixed one keeps the result deterministic.
 */
export const COINCIDENT_NORMAL_X = 1;

/**
 * Edge-edge axes whose length (the sine of the edges' angle) is below this are skipped: the edges
 * are parallel, the face axes cover that direction, and the depth error of skipping is at most
 * about this fraction of the box sizes. Above it the axis is built as in src/sat.ts, exact for
 * the stored axes however small the sine, so the contact's band matches the SAT's.
 */
export const EDGE_AXIS_MIN_SINE = 1e-9;

/**
 * Hysteresis between candidate axes, so that contacts do not flicker between frames: an edge
 * axis replaces the best face axis, and a face of B replaces the best face of A, only when its
 * depth is smaller by more than this fraction of the incumbent's depth...
 */
export const AXIS_PREFERENCE_DEPTH = 0.02;
/** ...plus this fraction of the shapes' size (which absorbs rounding when resting, at depth ~ 0). */
export const AXIS_PREFERENCE_SIZE = 1e-6;

/**
 * Clipped points up to this fraction of the box sizes above the reference face still count as
 * touching: resting boxes sit at depth ~ 0, where rounding alone would drop their points.
 */
export const CONTACT_SLACK = 1e-9;

/**
 * A segment whose direction makes an angle with sine below this with a face (capsule-box) or with
 * another segment (capsule-capsule) is treated as parallel to it and gets two contact points, the
 * ends of the overlap, so that a capsule lying on a box or on another capsule rests stably. It
 * only picks the number of points, never whether the shapes touch: no band of its own (that is
 * closestPtSegmentSegment's, see src/closestPoints.ts).
 */
export const PARALLEL_SEGMENT_SINE = 1e-3;

// Scratch. rot[3i + j] = A_i · B_j for the current OBB pair.
const rot = new Float64Array(9);
// (cB − cA)·Ai for the current OBB pair.
const centreAlongA = new Float64Array(3);
// Incident polygon while clipping (ping-pong, up to 8 points in the reference box frame).
const incident = new Float64Array(12);
const polyA = new Float64Array(24);
const polyB = new Float64Array(24);
const pointDepth = new Float64Array(8);
const chosen = new Int32Array(4);
const segments = new Float64Array(12);
const closest = new Float64Array(CLOSEST_SEGMENTS_STRIDE);
const rayHit = new Float64Array(RAY_HIT_STRIDE);
const aabbAsObb = new Float64Array(OBB_STRIDE);
const localSegment = new Float64Array(6);
const boxEdge = new Float64Array(6);
const bestPoints = new Float64Array(6);
const onBox = new Float64Array(3);

export function separated(out: Floats, oo: number): number {
  out[oo + CONTACT_COUNT] = 0;
  return 0;
}

export function writeHeader(
  out: Floats, oo: number,
  nx: number, ny: number, nz: number,
  depth: number, count: number, featureA: number, featureB: number,
): number {
  out[oo + CONTACT_NORMAL] = nx;
  out[oo + CONTACT_NORMAL + 1] = ny;
  out[oo + CONTACT_NORMAL + 2] = nz;
  out[oo + CONTACT_DEPTH] = depth;
  out[oo + CONTACT_COUNT] = count;
  out[oo + CONTACT_FEATURE_A] = featureA;
  out[oo + CONTACT_FEATURE_B] = featureB;
  return count;
}

export function writePoint(out: Floats, oo: number, i: number, x: number, y: number, z: number, depth: number): void {
  const p = oo + CONTACT_POINTS + CONTACT_POINT_STRIDE * i;
  out[p] = x;
  out[p + 1] = y;
  out[p + 2] = z;
  out[p + 3] = depth;
}

/** Writes point i given in the frame of the box at `box[bo..]` (centre + local coordinates). */
export function writeBoxLocalPoint(
  out: Floats, oo: number, i: number,
  box: ReadonlyFloats, bo: number,
  x: number, y: number, z: number, depth: number,
): void {
  const ax = bo + OBB_AXES;
  writePoint(
    out, oo, i,
    box[bo] + x * box[ax] + y * box[ax + 3] + z * box[ax + 6],
    box[bo + 1] + x * box[ax + 1] + y * box[ax + 4] + z * box[ax + 7],
    box[bo + 2] + x * box[ax + 2] + y * box[ax + 5] + z * box[ax + 8],
    depth,
  );
}

/**
 * `candidate` beats `incumbent` by a clear margin (see AXIS_PREFERENCE_*). Written so that an
 * infinite incumbent (no candidate yet) is always beaten.
 */
export function clearlySmaller(candidate: number, incumbent: number, size: number): boolean {
  return candidate < (1 - AXIS_PREFERENCE_DEPTH) * incumbent - AXIS_PREFERENCE_SIZE * size;
}

/** Box feature id of a point given which axes it is clamped on (bit k) and on which side (bit k = + side). */
export function boxFeature(clamped: number, positive: number): number {
  const count = (clamped & 1) + ((clamped >> 1) & 1) + ((clamped >> 2) & 1);
  if (count === 3) return FEATURE_BOX_VERTEX + positive;
  if (count === 2) {
    const k = (clamped & 1) === 0 ? 0 : (clamped & 2) === 0 ? 1 : 2;
    return boxEdgeFeature(k, (positive >> ((k + 1) % 3)) & 1, (positive >> ((k + 2) % 3)) & 1);
  }
  const k = (clamped & 2) !== 0 ? 1 : (clamped & 4) !== 0 ? 2 : 0;
  return FEATURE_BOX_FACE + 2 * k + ((positive >> k) & 1);
}

export function boxEdgeFeature(k: number, plusNext: number, plusAfter: number): number {
  return FEATURE_BOX_EDGE + 4 * k + plusNext + 2 * plusAfter;
}

/** Capsule feature of a segment parameter: an end cap at t = 0 or 1, the side in between. */
export function capsuleFeature(t: number): number {
  return t <= 0 ? FEATURE_CAPSULE_P0 : t >= 1 ? FEATURE_CAPSULE_P1 : FEATURE_CAPSULE_SIDE;
}

/**
 * One-point contact between two round shapes reduced to their closest core points: A's core
 * point p with radius ra, B's core point p + d with radius rb. The normal is d/|d|, or the
 * fallback (fx, fy, fz) when the core points coincide. Shared by every sphere/capsule pair and
 * by the sphere and capsule against a box when the core is outside the box (rb = 0).
 */
export function roundContact(
  out: Floats, oo: number,
  px: number, py: number, pz: number, ra: number,
  dx: number, dy: number, dz: number, rb: number,
  fx: number, fy: number, fz: number,
  featureA: number, featureB: number,
): number {
  // Squared distance against squared radii, as the boolean kernels compare (sphereOverlap):
  // through sqrt, rounding could turn an exact touch into a depth of −1 ulp and no contact.
  const d2 = dx * dx + dy * dy + dz * dz, r = ra + rb;
  if (d2 > r * r) return separated(out, oo);
  return touchingRoundContact(out, oo, px, py, pz, ra, dx, dy, dz, rb, fx, fy, fz, featureA, featureB);
}

/**
 * `roundContact` for shapes already known to touch (the caller decided it with its boolean
 * kernel's own arithmetic): no separation test; a core distance that rounding put past the radii
 * gives depth 0.
 */
function touchingRoundContact(
  out: Floats, oo: number,
  px: number, py: number, pz: number, ra: number,
  dx: number, dy: number, dz: number, rb: number,
  fx: number, fy: number, fz: number,
  featureA: number, featureB: number,
): number {
  const r = ra + rb;
  const dist = Math.sqrt(dx * dx + dy * dy + dz * dz);
  const depth = Math.max(r - dist, 0);
  let nx = fx, ny = fy, nz = fz;
  if (dist > 0) {
    nx = dx / dist;
    ny = dy / dist;
    nz = dz / dist;
  }
  // Midway between A's surface (p + ra·n) and B's (p + d − rb·n).
  const m = 0.5 * (ra - rb);
  writePoint(out, oo, 0, px + 0.5 * dx + m * nx, py + 0.5 * dy + m * ny, pz + 0.5 * dz + m * nz, depth);
  return writeHeader(out, oo, nx, ny, nz, depth, 1, featureA, featureB);
}

/** Sphere A [cx, cy, cz, r] against sphere B. Equal centres give the normal +x (COINCIDENT_NORMAL_X). */
export function contactSphereSphere(out: Floats, oo: number, a: ReadonlyFloats, ao: number, b: ReadonlyFloats, bo: number): number {
  return roundContact(
    out, oo,
    a[ao], a[ao + 1], a[ao + 2], a[ao + 3],
    b[bo] - a[ao], b[bo + 1] - a[ao + 1], b[bo + 2] - a[ao + 2], b[bo + 3],
    COINCIDENT_NORMAL_X, 0, 0,
    FEATURE_SPHERE, FEATURE_SPHERE,
  );
}

/**
 * Sphere A against OBB B. A centre outside the box: the normal runs from the centre to its
 * closest box point, and the box feature is the face, edge or vertex of that point. A centre
 * inside (or on) the box: the normal is the face normal of least penetration (ties go to the
 * lower axis, then the + side), pointing into the box, and depth = radius + distance to that face.
 *
 * They touch when `obbSphereOverlap` says so, by the same call (closestPtPointObb's squared
 * distance against r²), so this reports a point wherever the narrow phase's boolean test reports
 * touching; and also when the offset measured in the box frame says so, which that test's world
 * reconstruction of the closest point can miss by rounding (a zero-radius sphere inside the box, a
 * touch far from the origin). The normal and depth come from that box-frame offset, which stays
 * accurate far from the origin; where the two measures differ at a touch, the depth is 0.
 */
export function contactSphereObb(out: Floats, oo: number, s: ReadonlyFloats, so: number, b: ReadonlyFloats, bo: number): number {
  const r = s[so + 3];
  return sphereObbContact(out, oo, s, so, b, bo, closestPtPointObb(onBox, 0, s[so], s[so + 1], s[so + 2], b, bo) <= r * r);
}

/**
 * `contactSphereObb` once its boolean test has answered: `touching`, always one point; otherwise
 * one point when the box-frame offset reaches the sphere, else none.
 */
function sphereObbContact(out: Floats, oo: number, s: ReadonlyFloats, so: number, b: ReadonlyFloats, bo: number, touching: boolean): number {
  const sx = s[so], sy = s[so + 1], sz = s[so + 2], r = s[so + 3];
  const rx = sx - b[bo], ry = sy - b[bo + 1], rz = sz - b[bo + 2];
  const ax = bo + OBB_AXES;
  let clamped = 0, positive = 0;
  // World offset from the centre to its closest box point, accumulated axis by axis.
  let dx = 0, dy = 0, dz = 0;
  let leastPenetration = Infinity, leastAxis = 0;
  for (let k = 0; k < 3; k++) {
    const a = ax + 3 * k;
    const h = b[bo + OBB_HALF + k];
    const l = rx * b[a] + ry * b[a + 1] + rz * b[a + 2];
    if (l >= 0) positive |= 1 << k;
    const excess = Math.abs(l) - h;
    if (excess > 0) {
      clamped |= 1 << k;
      const step = l > 0 ? -excess : excess;
      dx += step * b[a];
      dy += step * b[a + 1];
      dz += step * b[a + 2];
    } else if (-excess < leastPenetration) {
      leastPenetration = -excess;
      leastAxis = k;
    }
  }
  if (clamped !== 0) {
    if (!touching && dx * dx + dy * dy + dz * dz > r * r) return separated(out, oo);
    // Fallback normal for an offset lost to rounding: into the box across a clamped face.
    const k = (clamped & 1) !== 0 ? 0 : (clamped & 2) !== 0 ? 1 : 2;
    const sign = (positive >> k) & 1 ? -1 : 1;
    const a = ax + 3 * k;
    return touchingRoundContact(
      out, oo, sx, sy, sz, r, dx, dy, dz, 0,
      sign * b[a], sign * b[a + 1], sign * b[a + 2],
      FEATURE_SPHERE, boxFeature(clamped, positive),
    );
  }
  const a = ax + 3 * leastAxis;
  const sign = (positive >> leastAxis) & 1 ? -1 : 1;
  const nx = sign * b[a], ny = sign * b[a + 1], nz = sign * b[a + 2];
  const depth = r + leastPenetration;
  // Midway between the sphere's deepest point (c + r·n) and the face (c − penetration·n).
  const m = 0.5 * (r - leastPenetration);
  writePoint(out, oo, 0, sx + m * nx, sy + m * ny, sz + m * nz, depth);
  return writeHeader(out, oo, nx, ny, nz, depth, 1, FEATURE_SPHERE, boxFeature(1 << leastAxis, positive));
}

/** Writes a min-max AABB into the module's scratch OBB (identity axes). */
function aabbToObb(box: ReadonlyFloats, bo: number): Float64Array {
  return obbFromAabb(aabbAsObb, 0, box, bo) as Float64Array;
}

/**
 * Sphere A against min-max AABB B: as `contactSphereObb` with the world axes. Whether they touch
 * is decided by closestPtPointAabb's squared distance against r² alone, the narrow phase's
 * boolean test for this pair, exact on the min-max numbers themselves (the centre-half box the
 * rest works on rounds differently and could lose exact touches): a point exactly when that test
 * reports touching.
 */
export function contactSphereAabb(out: Floats, oo: number, s: ReadonlyFloats, so: number, b: ReadonlyFloats, bo: number): number {
  const r = s[so + 3];
  if (closestPtPointAabb(onBox, 0, s[so], s[so + 1], s[so + 2], b, bo) > r * r) return separated(out, oo);
  return sphereObbContact(out, oo, s, so, aabbToObb(b, bo), 0, true);
}

/**
 * Min-max AABB A against AABB B. The normal is the world axis of least penetration (ties go to
 * the lower axis; on an axis, B is pushed toward the cheaper side, + on ties); the points are the
 * corners of the overlap rectangle across that axis (1, 2 or 4 distinct corners), on B's face (A's
 * face is the reference face, as in contactObbObb).
 */
export function contactAabbAabb(out: Floats, oo: number, a: ReadonlyFloats, ao: number, b: ReadonlyFloats, bo: number): number {
  let depth = Infinity, axis = 0, sign = 1;
  for (let k = 0; k < 3; k++) {
    const up = a[ao + 3 + k] - b[bo + k]; // push B toward +k
    const down = b[bo + 3 + k] - a[ao + k]; // push B toward −k
    if (up < 0 || down < 0) return separated(out, oo);
    const d = up <= down ? up : down;
    if (d < depth) {
      depth = d;
      axis = k;
      sign = up <= down ? 1 : -1;
    }
  }
  const j = (axis + 1) % 3, l = (axis + 2) % 3;
  const jLo = Math.max(a[ao + j], b[bo + j]), jHi = Math.min(a[ao + 3 + j], b[bo + 3 + j]);
  const lLo = Math.max(a[ao + l], b[bo + l]), lHi = Math.min(a[ao + 3 + l], b[bo + 3 + l]);
  // On B's face across the axis: A's face is the reference, as in contactObbObb.
  const across = sign > 0 ? b[bo + axis] : b[bo + 3 + axis];
  const jCount = jHi > jLo ? 2 : 1, lCount = lHi > lLo ? 2 : 1;
  let count = 0;
  for (let q = 0; q < 4; q++) {
    // Corners in ring order (lo,lo) (hi,lo) (hi,hi) (lo,hi), skipping duplicates of flat rectangles.
    const jHigh = q === 1 || q === 2, lHigh = q >= 2;
    if ((jHigh && jCount === 1) || (lHigh && lCount === 1)) continue;
    const p = oo + CONTACT_POINTS + CONTACT_POINT_STRIDE * count;
    out[p + axis] = across;
    out[p + j] = jHigh ? jHi : jLo;
    out[p + l] = lHigh ? lHi : lLo;
    out[p + 3] = depth;
    count++;
  }
  const faceA = FEATURE_BOX_FACE + 2 * axis + (sign > 0 ? 1 : 0);
  const faceB = FEATURE_BOX_FACE + 2 * axis + (sign > 0 ? 0 : 1);
  return writeHeader(out, oo, axis === 0 ? sign : 0, axis === 1 ? sign : 0, axis === 2 ? sign : 0, depth, count, faceA, faceB);
}

/**
 * Clips the polygon `src` (count points, box frame) to the rectangle |x[j]| <= hj, |x[l]| <= hl of
 * a box face: the side planes of that face. Result in `dst` (`tmp` is scratch); returns its count.
 */
export function clipToFaceRectangle(
  src: Float64Array, count: number, tmp: Float64Array, dst: Float64Array, j: number, hj: number, l: number, hl: number,
): number {
  let n = clipPolygon(src, tmp, count, j, 1, hj);
  n = clipPolygon(tmp, dst, n, j, -1, hj);
  n = clipPolygon(dst, tmp, n, l, 1, hl);
  return clipPolygon(tmp, dst, n, l, -1, hl);
}

/**
 * Keeps the points of `src` (count points, xyz in the reference frame) with side·x[axis] <= limit,
 * adding the crossing points of the edges that cross the line: clipPolygonPlane with an axis normal.
 */
export function clipPolygon(src: Float64Array, dst: Float64Array, count: number, axis: number, side: number, limit: number): number {
  return clipPolygonPlane(src, dst, count, axis === 0 ? side : 0, axis === 1 ? side : 0, axis === 2 ? side : 0, limit);
}

/**
 * Keeps the points of `src` (count points, xyz) with n·x <= limit, adding the crossing points of
 * the edges that cross the plane (Sutherland-Hodgman, one plane).
 */
export function clipPolygonPlane(src: Float64Array, dst: Float64Array, count: number, nx: number, ny: number, nz: number, limit: number): number {
  let n = 0;
  for (let i = 0; i < count; i++) {
    const c = 3 * i, next = 3 * ((i + 1) % count);
    const dc = limit - (nx * src[c] + ny * src[c + 1] + nz * src[c + 2]);
    const dn = limit - (nx * src[next] + ny * src[next + 1] + nz * src[next + 2]);
    if (dc >= 0) {
      dst[3 * n] = src[c];
      dst[3 * n + 1] = src[c + 1];
      dst[3 * n + 2] = src[c + 2];
      n++;
    }
    if (dc >= 0 !== dn >= 0) {
      const t = dc / (dc - dn);
      dst[3 * n] = src[c] + t * (src[next] - src[c]);
      dst[3 * n + 1] = src[c + 1] + t * (src[next + 1] - src[c + 1]);
      dst[3 * n + 2] = src[c + 2] + t * (src[next + 2] - src[c + 2]);
      n++;
    }
  }
  return n;
}

/**
 * Picks 4 well-spread points of `count` (> 4) in `poly` (depths in `pointDepth`) into `chosen`: the deepest, the farthest
 * from it across the face (coordinates j, l), then the one spanning the largest triangle with
 * those two, then the largest on the other side of their line.
 */
export function reduceToFour(poly: Float64Array, pointDepth: Float64Array, count: number, j: number, l: number, chosen: Int32Array): void {
  let first = 0;
  for (let i = 1; i < count; i++) if (pointDepth[i] > pointDepth[first]) first = i;
  const x0 = poly[3 * first + j], y0 = poly[3 * first + l];
  let second = first === 0 ? 1 : 0, far = -1;
  for (let i = 0; i < count; i++) {
    if (i === first) continue;
    const ex = poly[3 * i + j] - x0, ey = poly[3 * i + l] - y0;
    const d = ex * ex + ey * ey;
    if (d > far) {
      far = d;
      second = i;
    }
  }
  const ux = poly[3 * second + j] - x0, uy = poly[3 * second + l] - y0;
  let third = -1, thirdArea = 0, best = -1;
  for (let i = 0; i < count; i++) {
    if (i === first || i === second) continue;
    const area = ux * (poly[3 * i + l] - y0) - uy * (poly[3 * i + j] - x0);
    if (Math.abs(area) > best) {
      best = Math.abs(area);
      third = i;
      thirdArea = area;
    }
  }
  const otherSide = thirdArea >= 0 ? -1 : 1;
  let fourth = -1;
  best = -Infinity;
  for (let i = 0; i < count; i++) {
    if (i === first || i === second || i === third) continue;
    const area = otherSide * (ux * (poly[3 * i + l] - y0) - uy * (poly[3 * i + j] - x0));
    if (area > best) {
      best = area;
      fourth = i;
    }
  }
  chosen[0] = first;
  chosen[1] = second;
  chosen[2] = third;
  chosen[3] = fourth;
}

/** A_i · B_j for the current pair, seen from the reference box: refAxis · incAxis. */
function refDotInc(refIsA: boolean, refAxis: number, incAxis: number): number {
  return refIsA ? rot[3 * refAxis + incAxis] : rot[3 * incAxis + refAxis];
}

/**
 * Face contact of two boxes: the incident face of box `inc` (the one most anti-parallel to the
 * reference face normal nf = refSign·ref_k) is clipped against the side planes of the reference
 * face, in the reference box frame, and the points at or below the reference face are kept.
 * (dx, dy, dz) = inc centre − ref centre.
 */
function boxFaceContact(
  out: Floats, oo: number,
  ref: ReadonlyFloats, ro: number, inc: ReadonlyFloats, io: number, refIsA: boolean,
  k: number, refSign: number, dx: number, dy: number, dz: number,
  nx: number, ny: number, nz: number, depth: number, size: number,
): number {
  let m = 0, mostAligned = -1;
  for (let c = 0; c < 3; c++) {
    const v = Math.abs(refDotInc(refIsA, k, c));
    if (v > mostAligned) {
      mostAligned = v;
      m = c;
    }
  }
  const incSign = refSign * refDotInc(refIsA, k, m) > 0 ? -1 : 1;
  const ia = (m + 1) % 3, ib = (m + 2) % 3;
  const hm = inc[io + OBB_HALF + m], ha = inc[io + OBB_HALF + ia], hb = inc[io + OBB_HALF + ib];
  // Incident face centre and half edges, in the reference frame.
  const rAx = ro + OBB_AXES;
  const iAx = io + OBB_AXES + 3 * m;
  const fx = dx + incSign * hm * inc[iAx], fy = dy + incSign * hm * inc[iAx + 1], fz = dz + incSign * hm * inc[iAx + 2];
  for (let c = 0; c < 3; c++) {
    const r = rAx + 3 * c;
    const centre = fx * ref[r] + fy * ref[r + 1] + fz * ref[r + 2];
    const ea = ha * refDotInc(refIsA, c, ia), eb = hb * refDotInc(refIsA, c, ib);
    incident[c] = centre + ea + eb;
    incident[3 + c] = centre - ea + eb;
    incident[6 + c] = centre - ea - eb;
    incident[9 + c] = centre + ea - eb;
  }
  const j = (k + 1) % 3, l = (k + 2) % 3;
  const hj = ref[ro + OBB_HALF + j], hl = ref[ro + OBB_HALF + l], hk = ref[ro + OBB_HALF + k];
  const n = clipToFaceRectangle(incident, 4, polyB, polyA, j, hj, l, hl);
  // Keep the points at or below the reference face, compacted in place.
  const slack = CONTACT_SLACK * size;
  let kept = 0;
  for (let i = 0; i < n; i++) {
    const d = hk - refSign * polyA[3 * i + k];
    if (d < -slack) continue;
    polyA[3 * kept] = polyA[3 * i];
    polyA[3 * kept + 1] = polyA[3 * i + 1];
    polyA[3 * kept + 2] = polyA[3 * i + 2];
    pointDepth[kept] = d > 0 ? d : 0;
    kept++;
  }
  if (kept === 0) {
    // The deepest incident corner lies outside the reference face's side planes (a glancing,
    // edge-like configuration). Its projection into the face rectangle stands in for it.
    let deepest = 0;
    for (let i = 1; i < 4; i++) if (refSign * incident[3 * i + k] < refSign * incident[3 * deepest + k]) deepest = i;
    const d = hk - refSign * incident[3 * deepest + k];
    polyA[j] = Math.max(-hj, Math.min(hj, incident[3 * deepest + j]));
    polyA[l] = Math.max(-hl, Math.min(hl, incident[3 * deepest + l]));
    polyA[k] = incident[3 * deepest + k];
    pointDepth[0] = d > 0 ? d : 0;
    kept = 1;
  }
  const count = kept > 4 ? 4 : kept;
  if (kept > 4) reduceToFour(polyA, pointDepth, kept, j, l, chosen);
  for (let q = 0; q < count; q++) {
    const i = kept > 4 ? chosen[q] : q;
    writeBoxLocalPoint(out, oo, q, ref, ro, polyA[3 * i], polyA[3 * i + 1], polyA[3 * i + 2], pointDepth[i]);
  }
  const refFace = FEATURE_BOX_FACE + 2 * k + (refSign > 0 ? 1 : 0);
  const incFace = FEATURE_BOX_FACE + 2 * m + (incSign > 0 ? 1 : 0);
  return writeHeader(out, oo, nx, ny, nz, depth, count, refIsA ? refFace : incFace, refIsA ? incFace : refFace);
}

/**
 * OBB A against OBB B (layout.ts, stride 15). The normal is the axis of least penetration over
 * the 15 SAT axes (3 + 3 face normals, 9 normalised edge crosses built as in src/sat.ts,
 * near-parallel crosses skipped: EDGE_AXIS_MIN_SINE), with hysteresis favouring A's faces, then B's, then edges
 * (AXIS_PREFERENCE_*). Face axis: the box owning it gives the reference face, the other box's
 * most anti-parallel face is clipped against the reference face's side planes; up to 4 points
 * (the deepest, the farthest from it, then the largest spread), features = reference and
 * incident faces. Edge axis: one point, midway between the closest points of the two edges,
 * features = the two edges. Depth = penetration along the chosen axis, 0 for boxes within the
 * SAT's false-overlap band (SAT_FALSE_OVERLAP_BAND): whenever `obbOverlap` reports the pair
 * touching, this reports at least one point.
 */
export function contactObbObb(out: Floats, oo: number, a: ReadonlyFloats, ao: number, b: ReadonlyFloats, bo: number): number {
  const dx = b[bo] - a[ao], dy = b[bo + 1] - a[ao + 1], dz = b[bo + 2] - a[ao + 2];
  const aAx = ao + OBB_AXES, bAx = bo + OBB_AXES;
  const ha0 = a[ao + OBB_HALF], ha1 = a[ao + OBB_HALF + 1], ha2 = a[ao + OBB_HALF + 2];
  const hb0 = b[bo + OBB_HALF], hb1 = b[bo + OBB_HALF + 1], hb2 = b[bo + OBB_HALF + 2];
  const size = Math.max(ha0, ha1, ha2) + Math.max(hb0, hb1, hb2);
  for (let i = 0; i < 3; i++) {
    const u = aAx + 3 * i;
    for (let j = 0; j < 3; j++) {
      const v = bAx + 3 * j;
      rot[3 * i + j] = a[u] * b[v] + a[u + 1] * b[v + 1] + a[u + 2] * b[v + 2];
    }
  }
  // Every axis reports separation only past the SAT's false-overlap band, so whenever
  // obbOverlap (the narrow phase's touching test) says touching, a manifold comes out.
  const band = SAT_FALSE_OVERLAP_BAND * (ha0 + ha1 + ha2 + hb0 + hb1 + hb2);
  // Faces of A.
  let faceA = Infinity, axisA = 0, signA = 1;
  for (let i = 0; i < 3; i++) {
    const u = aAx + 3 * i;
    const dist = dx * a[u] + dy * a[u + 1] + dz * a[u + 2];
    centreAlongA[i] = dist;
    const r = a[ao + OBB_HALF + i] + hb0 * Math.abs(rot[3 * i]) + hb1 * Math.abs(rot[3 * i + 1]) + hb2 * Math.abs(rot[3 * i + 2]);
    const overlap = r - Math.abs(dist);
    if (overlap < -band) return separated(out, oo);
    if (overlap < faceA) {
      faceA = overlap;
      axisA = i;
      signA = dist >= 0 ? 1 : -1;
    }
  }
  // Faces of B.
  let faceB = Infinity, axisB = 0, signB = 1;
  for (let j = 0; j < 3; j++) {
    const v = bAx + 3 * j;
    const dist = dx * b[v] + dy * b[v + 1] + dz * b[v + 2];
    const r = b[bo + OBB_HALF + j] + ha0 * Math.abs(rot[j]) + ha1 * Math.abs(rot[3 + j]) + ha2 * Math.abs(rot[6 + j]);
    const overlap = r - Math.abs(dist);
    if (overlap < -band) return separated(out, oo);
    if (overlap < faceB) {
      faceB = overlap;
      axisB = j;
      signB = dist >= 0 ? 1 : -1;
    }
  }
  // Edge crosses, built as src/sat.ts builds them: Ai × Bj is L = R[k][j]·Al − R[l][j]·Ak with
  // (i, k, l) and (j, m, n) cyclic, B's radius along it from 2×2 minors of R, so that the
  // normal and depth stay exact for nearly parallel edges and agree with the SAT's answer.
  let edge = Infinity, edgeI = 0, edgeJ = 0, enx = 0, eny = 0, enz = 0;
  for (let i = 0; i < 3; i++) {
    const k = (i + 1) % 3, l = (i + 2) % 3;
    const uk = aAx + 3 * k, ul = aAx + 3 * l;
    for (let j = 0; j < 3; j++) {
      const m = (j + 1) % 3, n = (j + 2) % 3;
      const rkj = rot[3 * k + j], rlj = rot[3 * l + j];
      let nx = rkj * a[ul] - rlj * a[uk];
      let ny = rkj * a[ul + 1] - rlj * a[uk + 1];
      let nz = rkj * a[ul + 2] - rlj * a[uk + 2];
      const len2 = nx * nx + ny * ny + nz * nz;
      if (len2 < EDGE_AXIS_MIN_SINE * EDGE_AXIS_MIN_SINE) continue;
      const proj = centreAlongA[l] * rkj - centreAlongA[k] * rlj;
      const r = a[ao + OBB_HALF + k] * Math.abs(rlj) + a[ao + OBB_HALF + l] * Math.abs(rkj) +
        b[bo + OBB_HALF + m] * Math.abs(rkj * rot[3 * l + m] - rlj * rot[3 * k + m]) +
        b[bo + OBB_HALF + n] * Math.abs(rkj * rot[3 * l + n] - rlj * rot[3 * k + n]);
      const inv = 1 / Math.sqrt(len2);
      const overlap = (r - Math.abs(proj)) * inv;
      if (overlap < -band) return separated(out, oo);
      if (overlap < edge) {
        const s = proj >= 0 ? inv : -inv;
        edge = overlap;
        edgeI = i;
        edgeJ = j;
        enx = s * nx;
        eny = s * ny;
        enz = s * nz;
      }
    }
  }
  const useB = clearlySmaller(faceB, faceA, size);
  const face = useB ? faceB : faceA;
  // Within the band boxes touch at depth 0.
  if (clearlySmaller(edge, face, size)) return boxEdgeContact(out, oo, a, ao, b, bo, edgeI, edgeJ, enx, eny, enz, Math.max(edge, 0), dx, dy, dz);
  if (useB) {
    const v = bAx + 3 * axisB;
    return boxFaceContact(
      out, oo, b, bo, a, ao, false, axisB, -signB, -dx, -dy, -dz,
      signB * b[v], signB * b[v + 1], signB * b[v + 2], Math.max(faceB, 0), size,
    );
  }
  const u = aAx + 3 * axisA;
  return boxFaceContact(
    out, oo, a, ao, b, bo, true, axisA, signA, dx, dy, dz,
    signA * a[u], signA * a[u + 1], signA * a[u + 2], Math.max(faceA, 0), size,
  );
}

/**
 * Writes into segments[so..so+5] the edge of a box along axis k that is its support in direction
 * (nx, ny, nz) (the + side of an axis on ties), relative to `shift` + the box centre; returns its
 * edge feature id.
 */
function supportEdge(
  box: ReadonlyFloats, bo: number, k: number,
  nx: number, ny: number, nz: number,
  sx: number, sy: number, sz: number, so: number,
): number {
  let cx = sx, cy = sy, cz = sz;
  let feature = FEATURE_BOX_EDGE + 4 * k;
  for (let step = 1; step <= 2; step++) {
    const c = (k + step) % 3;
    const a = bo + OBB_AXES + 3 * c;
    const plus = nx * box[a] + ny * box[a + 1] + nz * box[a + 2] >= 0;
    const h = plus ? box[bo + OBB_HALF + c] : -box[bo + OBB_HALF + c];
    if (plus) feature += step;
    cx += h * box[a];
    cy += h * box[a + 1];
    cz += h * box[a + 2];
  }
  const a = bo + OBB_AXES + 3 * k;
  const h = box[bo + OBB_HALF + k];
  segments[so] = cx - h * box[a];
  segments[so + 1] = cy - h * box[a + 1];
  segments[so + 2] = cz - h * box[a + 2];
  segments[so + 3] = cx + h * box[a];
  segments[so + 4] = cy + h * box[a + 1];
  segments[so + 5] = cz + h * box[a + 2];
  return feature;
}

/** Edge-edge contact of two boxes: one point, midway between the closest points of the edges. */
function boxEdgeContact(
  out: Floats, oo: number, a: ReadonlyFloats, ao: number, b: ReadonlyFloats, bo: number,
  i: number, j: number, nx: number, ny: number, nz: number, depth: number,
  dx: number, dy: number, dz: number,
): number {
  // Both edges relative to A's centre, so large world coordinates cancel first.
  const featureA = supportEdge(a, ao, i, nx, ny, nz, 0, 0, 0, 0);
  const featureB = supportEdge(b, bo, j, -nx, -ny, -nz, dx, dy, dz, 6);
  closestPtSegmentSegment(closest, 0, segments, 0, segments, 6);
  writePoint(
    out, oo, 0,
    a[ao] + 0.5 * (closest[0] + closest[3]),
    a[ao + 1] + 0.5 * (closest[1] + closest[4]),
    a[ao + 2] + 0.5 * (closest[2] + closest[5]),
    depth,
  );
  return writeHeader(out, oo, nx, ny, nz, depth, 1, featureA, featureB);
}

// Fallback normal for round shapes whose cores meet: written by `perpendicularTo`. A typed array,
// as doubles written to module-level `let`s are boxed (one allocation per write).
const perp = new Float64Array(3);

/**
 * Sets `perp` to a unit vector perpendicular to (dx, dy, dz) (crossing it with the world axis
 * it is least aligned with), or to the coincident normal for a zero vector.
 */
function perpendicularTo(dx: number, dy: number, dz: number): void {
  const ax = Math.abs(dx), ay = Math.abs(dy), az = Math.abs(dz);
  let px: number, py: number, pz: number;
  if (ax <= ay && ax <= az) {
    px = 0; py = dz; pz = -dy; // d × x
  } else if (ay <= az) {
    px = -dz; py = 0; pz = dx; // d × y
  } else {
    px = dy; py = -dx; pz = 0; // d × z
  }
  const len = Math.sqrt(px * px + py * py + pz * pz);
  if (len > 0) {
    perp[0] = px / len;
    perp[1] = py / len;
    perp[2] = pz / len;
  } else {
    perp[0] = COINCIDENT_NORMAL_X;
    perp[1] = 0;
    perp[2] = 0;
  }
}

/**
 * Capsule A [p0, p1, r] against sphere B. A centre on the segment gets a normal perpendicular to
 * the segment (+x for a zero-length one).
 */
export function contactCapsuleSphere(out: Floats, oo: number, c: ReadonlyFloats, co: number, s: ReadonlyFloats, so: number): number {
  const sx = s[so], sy = s[so + 1], sz = s[so + 2];
  closestPtPointSegment(closest, 0, sx, sy, sz, c, co);
  perpendicularTo(c[co + 3] - c[co], c[co + 4] - c[co + 1], c[co + 5] - c[co + 2]);
  return roundContact(
    out, oo,
    closest[0], closest[1], closest[2], c[co + 6],
    sx - closest[0], sy - closest[1], sz - closest[2], s[so + 3],
    perp[0], perp[1], perp[2],
    capsuleFeature(closest[3]), FEATURE_SPHERE,
  );
}

/**
 * Capsule A against capsule B. One point between the closest points of the segments, except for
 * parallel segments (PARALLEL_SEGMENT_SINE) that overlap along their length: two points, at the
 * ends of the overlap, each with its own depth. Crossing segments get the normal along their
 * cross product, oriented from A's midpoint toward B's; collinear ones a perpendicular.
 */
export function contactCapsuleCapsule(out: Floats, oo: number, a: ReadonlyFloats, ao: number, b: ReadonlyFloats, bo: number): number {
  const ra = a[ao + 6], rb = b[bo + 6];
  closestPtSegmentSegment(closest, 0, a, ao, b, bo);
  const px = closest[0], py = closest[1], pz = closest[2];
  const dx = closest[3] - px, dy = closest[4] - py, dz = closest[5] - pz;
  const s = closest[6], t = closest[7];
  const ux = a[ao + 3] - a[ao], uy = a[ao + 4] - a[ao + 1], uz = a[ao + 5] - a[ao + 2];
  const vx = b[bo + 3] - b[bo], vy = b[bo + 4] - b[bo + 1], vz = b[bo + 5] - b[bo + 2];
  const cx = uy * vz - uz * vy, cy = uz * vx - ux * vz, cz = ux * vy - uy * vx;
  const uu = ux * ux + uy * uy + uz * uz, vv = vx * vx + vy * vy + vz * vz;
  const cross2 = cx * cx + cy * cy + cz * cz;
  const parallel = cross2 <= PARALLEL_SEGMENT_SINE * PARALLEL_SEGMENT_SINE * uu * vv;
  if (parallel) {
    perpendicularTo(uu >= vv ? ux : vx, uu >= vv ? uy : vy, uu >= vv ? uz : vz);
  } else {
    const len = Math.sqrt(cross2);
    perp[0] = cx / len;
    perp[1] = cy / len;
    perp[2] = cz / len;
  }
  // Orient the fallback from A toward B (midpoint to midpoint).
  const mx = b[bo] + b[bo + 3] - a[ao] - a[ao + 3], my = b[bo + 1] + b[bo + 4] - a[ao + 1] - a[ao + 4], mz = b[bo + 2] + b[bo + 5] - a[ao + 2] - a[ao + 5];
  if (perp[0] * mx + perp[1] * my + perp[2] * mz < 0) {
    perp[0] = -perp[0];
    perp[1] = -perp[1];
    perp[2] = -perp[2];
  }
  const count = roundContact(out, oo, px, py, pz, ra, dx, dy, dz, rb, perp[0], perp[1], perp[2], capsuleFeature(s), capsuleFeature(t));
  if (count === 0 || !parallel || uu === 0 || vv === 0) return count;
  // Overlap of the parallel segments, as parameters on A.
  const s0 = ((b[bo] - a[ao]) * ux + (b[bo + 1] - a[ao + 1]) * uy + (b[bo + 2] - a[ao + 2]) * uz) / uu;
  const s1 = s0 + (vx * ux + vy * uy + vz * uz) / uu;
  const lo = Math.max(0, Math.min(s0, s1)), hi = Math.min(1, Math.max(s0, s1));
  if (!(hi > lo)) return count;
  const nx = out[oo + CONTACT_NORMAL], ny = out[oo + CONTACT_NORMAL + 1], nz = out[oo + CONTACT_NORMAL + 2];
  // Staged in scratch: the single point stays if an end of the overlap is out of contact.
  for (let e = 0; e < 2; e++) {
    const sp = e === 0 ? lo : hi;
    const qx = a[ao] + sp * ux, qy = a[ao + 1] + sp * uy, qz = a[ao + 2] + sp * uz;
    const d2 = closestPtPointSegment(bestPoints, 0, qx, qy, qz, b, bo);
    const depth = ra + rb - Math.sqrt(d2);
    if (depth < 0) return count;
    // Midway between A's surface (q + ra·n) and B's (closest − rb·n).
    const m = 0.5 * (ra - rb);
    segments[4 * e] = 0.5 * (qx + bestPoints[0]) + m * nx;
    segments[4 * e + 1] = 0.5 * (qy + bestPoints[1]) + m * ny;
    segments[4 * e + 2] = 0.5 * (qz + bestPoints[2]) + m * nz;
    segments[4 * e + 3] = depth;
  }
  for (let e = 0; e < 2; e++) writePoint(out, oo, e, segments[4 * e], segments[4 * e + 1], segments[4 * e + 2], segments[4 * e + 3]);
  out[oo + CONTACT_COUNT] = 2;
  out[oo + CONTACT_FEATURE_A] = FEATURE_CAPSULE_SIDE;
  out[oo + CONTACT_FEATURE_B] = FEATURE_CAPSULE_SIDE;
  return 2;
}

/** Writes into boxEdge the box-frame edge along axis k on the given sides of the other two axes. */
function setBoxEdgeLocal(b: ReadonlyFloats, bo: number, k: number, plusNext: boolean, plusAfter: boolean): void {
  const n = (k + 1) % 3, f = (k + 2) % 3;
  const hn = b[bo + OBB_HALF + n], hf = b[bo + OBB_HALF + f], hk = b[bo + OBB_HALF + k];
  boxEdge[n] = boxEdge[3 + n] = plusNext ? hn : -hn;
  boxEdge[f] = boxEdge[3 + f] = plusAfter ? hf : -hf;
  boxEdge[k] = -hk;
  boxEdge[3 + k] = hk;
}

/** Writes the manifold header with a normal given in the frame of the box at `b[bo..]`. */
export function writeBoxLocalHeader(
  out: Floats, oo: number, b: ReadonlyFloats, bo: number,
  nx: number, ny: number, nz: number,
  depth: number, count: number, featureA: number, featureB: number,
): number {
  const ax = bo + OBB_AXES;
  return writeHeader(
    out, oo,
    nx * b[ax] + ny * b[ax + 3] + nz * b[ax + 6],
    nx * b[ax + 1] + ny * b[ax + 4] + nz * b[ax + 7],
    nx * b[ax + 2] + ny * b[ax + 5] + nz * b[ax + 8],
    depth, count, featureA, featureB,
  );
}

/**
 * Contact of the capsule segment (localSegment, box frame) with the box face on axis k whose
 * outward normal is side·u_k, from the part of the segment over the face: two points (its ends)
 * when the segment lies parallel to the face (PARALLEL_SEGMENT_SINE), else, if `single`, one
 * point at its deeper end; each with its own depth. Returns 0 (nothing written) when no part of
 * the segment is over the face, or when two points are due but an end is out of contact, or when
 * one is due but `single` is false.
 */
function capsuleFaceContact(
  out: Floats, oo: number, b: ReadonlyFloats, bo: number,
  r: number, k: number, side: number, depth: number, single: boolean,
): number {
  const dx = localSegment[3] - localSegment[0], dy = localSegment[4] - localSegment[1], dz = localSegment[5] - localSegment[2];
  const len2 = dx * dx + dy * dy + dz * dz;
  const dk = k === 0 ? dx : k === 1 ? dy : dz;
  let lo = 0, hi = 1;
  for (let step = 1; step <= 2; step++) {
    const j = (k + step) % 3;
    const h = b[bo + OBB_HALF + j], p = localSegment[j], d = localSegment[3 + j] - p;
    if (d === 0) {
      if (Math.abs(p) > h) return 0;
      continue;
    }
    const t0 = (-h - p) / d, t1 = (h - p) / d;
    lo = Math.max(lo, Math.min(t0, t1));
    hi = Math.min(hi, Math.max(t0, t1));
  }
  if (!(hi >= lo)) return 0;
  const parallel = hi > lo && dk * dk <= PARALLEL_SEGMENT_SINE * PARALLEL_SEGMENT_SINE * len2;
  if (!parallel) {
    if (!single) return 0;
    // One point: the deeper end of the part over the face.
    if (side * dk > 0) hi = lo;
    else lo = hi;
  }
  const hk = b[bo + OBB_HALF + k];
  for (let e = 0; e < (parallel ? 2 : 1); e++) {
    const t = e === 0 ? lo : hi;
    const px = localSegment[0] + t * dx, py = localSegment[1] + t * dy, pz = localSegment[2] + t * dz;
    const pointDepth = r + hk - side * (k === 0 ? px : k === 1 ? py : pz);
    if (pointDepth < 0) return 0;
    // Midway between the capsule's surface and the face, across the face.
    const across = side * (hk - 0.5 * pointDepth);
    writeBoxLocalPoint(out, oo, e, b, bo, k === 0 ? across : px, k === 1 ? across : py, k === 2 ? across : pz, pointDepth);
  }
  return writeBoxLocalHeader(
    out, oo, b, bo,
    k === 0 ? -side : 0, k === 1 ? -side : 0, k === 2 ? -side : 0,
    depth, parallel ? 2 : 1, parallel ? FEATURE_CAPSULE_SIDE : capsuleFeature(lo),
    FEATURE_BOX_FACE + 2 * k + (side > 0 ? 1 : 0),
  );
}

/**
 * Capsule A against OBB B, in the box frame. When the segment misses the box, the closest points
 * of segment and box (over the two end caps and the 12 box edges) give a sphere-like contact.
 * When it meets the box, the depth is the radius plus the segment's least penetration over the
 * SAT axes of a segment and a box (3 face normals, 3 crosses of the segment with the box axes),
 * which is exact since the capsule is the segment grown by its radius. A segment lying parallel
 * to the contact face gets two points (the ends of its part over the face). A zero-length
 * segment behaves as a sphere.
 */
export function contactCapsuleObb(out: Floats, oo: number, c: ReadonlyFloats, co: number, b: ReadonlyFloats, bo: number): number {
  const r = c[co + 6];
  const ax = bo + OBB_AXES;
  for (let e = 0; e < 2; e++) {
    const rx = c[co + 3 * e] - b[bo], ry = c[co + 3 * e + 1] - b[bo + 1], rz = c[co + 3 * e + 2] - b[bo + 2];
    for (let k = 0; k < 3; k++) localSegment[3 * e + k] = rx * b[ax + 3 * k] + ry * b[ax + 3 * k + 1] + rz * b[ax + 3 * k + 2];
  }
  const h0 = b[bo + OBB_HALF], h1 = b[bo + OBB_HALF + 1], h2 = b[bo + OBB_HALF + 2];
  const hit = raycastObb(rayHit, c[co], c[co + 1], c[co + 2], c[co + 3] - c[co], c[co + 4] - c[co + 1], c[co + 5] - c[co + 2], 1, b, bo);
  if (!hit) {
    let best2 = Infinity, bestT = 0;
    for (let e = 0; e < 2; e++) {
      const px = localSegment[3 * e], py = localSegment[3 * e + 1], pz = localSegment[3 * e + 2];
      const qx = Math.max(-h0, Math.min(h0, px)), qy = Math.max(-h1, Math.min(h1, py)), qz = Math.max(-h2, Math.min(h2, pz));
      const d2 = (qx - px) * (qx - px) + (qy - py) * (qy - py) + (qz - pz) * (qz - pz);
      if (d2 < best2) {
        best2 = d2;
        bestT = e;
        bestPoints[0] = px; bestPoints[1] = py; bestPoints[2] = pz;
        bestPoints[3] = qx; bestPoints[4] = qy; bestPoints[5] = qz;
      }
    }
    for (let k = 0; k < 3; k++) {
      for (let corner = 0; corner < 4; corner++) {
        setBoxEdgeLocal(b, bo, k, (corner & 1) !== 0, (corner & 2) !== 0);
        const d2 = closestPtSegmentSegment(closest, 0, localSegment, 0, boxEdge, 0);
        if (d2 < best2) {
          best2 = d2;
          bestT = closest[6];
          for (let i = 0; i < 6; i++) bestPoints[i] = closest[i];
        }
      }
    }
    if (best2 > 0) {
      const dist = Math.sqrt(best2);
      if (r - dist < 0) return separated(out, oo);
      let clamped = 0, positive = 0;
      for (let k = 0; k < 3; k++) {
        const q = bestPoints[3 + k], h = b[bo + OBB_HALF + k];
        if (q >= h) {
          clamped |= 1 << k;
          positive |= 1 << k;
        } else if (q <= -h) clamped |= 1 << k;
      }
      const feature = boxFeature(clamped, positive);
      if (feature < FEATURE_BOX_EDGE) {
        const k = (feature - FEATURE_BOX_FACE) >> 1;
        const count = capsuleFaceContact(out, oo, b, bo, r, k, (feature & 1) !== 0 ? 1 : -1, r - dist, false);
        if (count > 0) return count;
      }
      const px = bestPoints[0], py = bestPoints[1], pz = bestPoints[2];
      const dx = bestPoints[3] - px, dy = bestPoints[4] - py, dz = bestPoints[5] - pz;
      return roundContact(
        out, oo,
        b[bo] + px * b[ax] + py * b[ax + 3] + pz * b[ax + 6],
        b[bo + 1] + px * b[ax + 1] + py * b[ax + 4] + pz * b[ax + 7],
        b[bo + 2] + px * b[ax + 2] + py * b[ax + 5] + pz * b[ax + 8],
        r,
        dx * b[ax] + dy * b[ax + 3] + dz * b[ax + 6],
        dx * b[ax + 1] + dy * b[ax + 4] + dz * b[ax + 7],
        dx * b[ax + 2] + dy * b[ax + 5] + dz * b[ax + 8],
        0,
        COINCIDENT_NORMAL_X, 0, 0,
        capsuleFeature(bestT), feature,
      );
    }
  }
  return capsuleObbPenetration(out, oo, b, bo, r);
}

/** The segment (localSegment) meets the box: least penetration over the segment-box SAT axes. */
function capsuleObbPenetration(out: Floats, oo: number, b: ReadonlyFloats, bo: number, r: number): number {
  const h0 = b[bo + OBB_HALF], h1 = b[bo + OBB_HALF + 1], h2 = b[bo + OBB_HALF + 2];
  const sx = localSegment[0], sy = localSegment[1], sz = localSegment[2];
  const ex = localSegment[3], ey = localSegment[4], ez = localSegment[5];
  const dx = ex - sx, dy = ey - sy, dz = ez - sz;
  const len2 = dx * dx + dy * dy + dz * dz;
  const size = r + Math.max(h0, h1, h2) + Math.sqrt(len2);
  // Face axes: pushing B along +u_k costs max + r + h; along −u_k, h + r − min.
  let face = Infinity, faceAxis = 0, faceSign = 1;
  for (let k = 0; k < 3; k++) {
    const h = b[bo + OBB_HALF + k], p = localSegment[k], q = localSegment[3 + k];
    const plus = Math.max(p, q) + r + h, minus = h + r - Math.min(p, q);
    const depth = plus <= minus ? plus : minus;
    if (depth < face) {
      face = depth;
      faceAxis = k;
      faceSign = plus <= minus ? 1 : -1;
    }
  }
  // Edge axes d × u_k.
  let edge = Infinity, edgeAxis = 0, wx = 0, wy = 0, wz = 0;
  for (let k = 0; k < 3; k++) {
    let nx = k === 0 ? 0 : k === 1 ? -dz : dy;
    let ny = k === 0 ? dz : k === 1 ? 0 : -dx;
    let nz = k === 0 ? -dy : k === 1 ? dx : 0;
    const w2 = nx * nx + ny * ny + nz * nz;
    if (len2 === 0 || w2 <= EDGE_AXIS_MIN_SINE * EDGE_AXIS_MIN_SINE * len2) continue;
    const inv = 1 / Math.sqrt(w2);
    nx *= inv;
    ny *= inv;
    nz *= inv;
    const h = h0 * Math.abs(nx) + h1 * Math.abs(ny) + h2 * Math.abs(nz);
    const p = sx * nx + sy * ny + sz * nz, q = ex * nx + ey * ny + ez * nz;
    const plus = Math.max(p, q) + r + h, minus = h + r - Math.min(p, q);
    const depth = plus <= minus ? plus : minus;
    if (depth < edge) {
      const s = plus <= minus ? 1 : -1;
      edge = depth;
      edgeAxis = k;
      wx = s * nx;
      wy = s * ny;
      wz = s * nz;
    }
  }
  if (clearlySmaller(edge, face, size)) {
    // The box edge along u_k that is deepest toward the capsule (support in −n).
    setBoxEdgeLocal(b, bo, edgeAxis, -(edgeAxis === 0 ? wy : edgeAxis === 1 ? wz : wx) >= 0, -(edgeAxis === 0 ? wz : edgeAxis === 1 ? wx : wy) >= 0);
    closestPtSegmentSegment(closest, 0, localSegment, 0, boxEdge, 0);
    writeBoxLocalPoint(
      out, oo, 0, b, bo,
      0.5 * (closest[0] + r * wx + closest[3]),
      0.5 * (closest[1] + r * wy + closest[4]),
      0.5 * (closest[2] + r * wz + closest[5]),
      edge,
    );
    const n = (edgeAxis + 1) % 3, f = (edgeAxis + 2) % 3;
    const featureB = boxEdgeFeature(edgeAxis, boxEdge[n] > 0 ? 1 : 0, boxEdge[f] > 0 ? 1 : 0);
    return writeBoxLocalHeader(out, oo, b, bo, wx, wy, wz, edge, 1, capsuleFeature(closest[6]), featureB);
  }
  // The segment meets the box, so part of it lies over the face.
  return capsuleFaceContact(out, oo, b, bo, r, faceAxis, -faceSign, face, true);
}
