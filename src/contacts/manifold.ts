import { OBB_AXES, type Floats, type ReadonlyFloats } from '../layout';
import { AXIS_PREFERENCE_SIZE, AXIS_PREFERENCE_DEPTH } from '../tolerances';

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

// Scratch. rot[3i + j] = A_i · B_j for the current OBB pair.
// (cB − cA)·Ai for the current OBB pair.
// Incident polygon while clipping (ping-pong, up to 8 points in the reference box frame).

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
