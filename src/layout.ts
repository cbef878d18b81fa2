/**
 * Flat layouts shared by every kernel. A volume is a run of numbers inside any indexable
 * array (typed array of a store, or a plain array), read at an offset, so kernels work the same on
 * a single volume and on a struct-of-arrays store.
 */

/** Any readable run of numbers: typed arrays, plain arrays. */
export type ReadonlyFloats = ArrayLike<number>;
/** Any writable run of numbers. */
export type Floats = {
  [index: number]: number;
  /** How many numbers it holds. */
  readonly length: number;
};

/** Sphere: centre x, y, z, radius. */
export const SPHERE_STRIDE = 4;

/** AABB in min-max form: min x, y, z, max x, y, z. */
export const AABB_STRIDE = 6;

/**
 * OBB: centre (3), then the three unit axes as columns of a right-handed rotation matrix
 * (u0.x, u0.y, u0.z, u1.x, u1.y, u1.z, u2.x, u2.y, u2.z), then half-extents along each axis (3).
 * Axes rather than a quaternion because SAT reads axes directly.
 */
export const OBB_STRIDE = 15;
/** Offset of an OBB's centre (3 numbers). */
export const OBB_CENTER = 0;
/** Offset of an OBB's axes (9 numbers: u0, u1, u2). */
export const OBB_AXES = 3;
/** Offset of an OBB's half-extents (3 numbers). */
export const OBB_HALF = 12;

/** The identity rotation as OBB axes (columns u0, u1, u2): an axis-aligned box. Read-only. */
export const IDENTITY_AXES = new Float64Array([1, 0, 0, 0, 1, 0, 0, 0, 1]);

/** Capsule (sphere-swept segment): endpoint p0 (3), endpoint p1 (3), radius. */
export const CAPSULE_STRIDE = 7;

/**
 * k-DOP with k/2 directions (see `KDOP_DIRECTIONS` in kdop.ts): the k/2 minima of dot(p, d_i)
 * first, then the k/2 maxima. Directions are the unnormalised integer vectors of the standard
 * sets, so a k-DOP store holds exactly k numbers per volume.
 */
export type KdopK = 6 | 14 | 18 | 26;
