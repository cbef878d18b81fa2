import { CollideInputError, assertKnownKeys, coordinateRefusal, isCoordinate } from '../errors';

/**
 * A ray query: made once (`createRayQuery`), reused for every cast, so a cast allocates nothing
 * and takes one argument instead of a list of numbers. Write its fields between casts, or set
 * the ray with `setRay`.
 */
export interface RayQuery {
  /** Start of the ray, world coordinates (x, y, z). */
  readonly origin: Float64Array;
  /** Its direction (x, y, z), any length: hits report t in units of this length; zero tests the origin alone. */
  readonly direction: Float64Array;
  /** Farthest hit, in world units along the ray (default Infinity). */
  maxDistance: number;
  /** Layers the ray can hit: a collider is hit when its layer shares a bit with this (default all). Character hitbox casts hit every character. */
  mask: number;
  /** An entity the ray passes through, e.g. the shooter (default -1: none). */
  ignore: number;
}

/** Initial values of a ray query; every field is optional. */
export interface RayQueryInit {
  /** Start of the ray (default the origin). */
  origin?: ArrayLike<number>;
  /** Direction (default +x). */
  direction?: ArrayLike<number>;
  /** Farthest hit, world units (default Infinity). */
  maxDistance?: number;
  /** Layer mask (default all). */
  mask?: number;
  /** Entity to pass through (default -1). */
  ignore?: number;
}

/** A reusable ray query; throws CollideInputError for an unknown field or a bad value. */
export function createRayQuery(init: RayQueryInit = {}): RayQuery {
  if (init === null || typeof init !== 'object') throw new CollideInputError('createRayQuery: init must be an object');
  assertKnownKeys(init, ['origin', 'direction', 'maxDistance', 'mask', 'ignore'], 'createRayQuery');
  const q: RayQuery = {
    origin: Float64Array.from(init.origin ?? [0, 0, 0]),
    direction: Float64Array.from(init.direction ?? [1, 0, 0]),
    maxDistance: init.maxDistance ?? Infinity,
    mask: init.mask ?? 0xffffffff,
    ignore: init.ignore ?? -1,
  };
  rayLimit(q, 'createRayQuery');
  return q;
}

/** Sets the query's origin and direction (allocation-free); returns the query. */
export function setRay(q: RayQuery, ox: number, oy: number, oz: number, dx: number, dy: number, dz: number): RayQuery {
  const o = q.origin, d = q.direction;
  o[0] = ox; o[1] = oy; o[2] = oz;
  d[0] = dx; d[1] = dy; d[2] = dz;
  return q;
}

/**
 * Validates the query for a cast (CollideInputError naming the field and value) and returns the
 * largest ray parameter t to search: maxDistance / |direction| (0 for a zero direction, which
 * tests the origin point alone).
 */
export function rayLimit(q: RayQuery, caller: string): number {
  const o = q.origin, d = q.direction;
  if (!(o instanceof Float64Array) || o.length !== 3 || !(d instanceof Float64Array) || d.length !== 3) {
    throw new CollideInputError(`${caller}: the query must come from createRayQuery`);
  }
  for (let k = 0; k < 3; k++) {
    if (!isCoordinate(o[k])) throw new CollideInputError(`${caller}: query.origin[${k}] ${coordinateRefusal(o[k])}`);
    if (!isCoordinate(d[k])) throw new CollideInputError(`${caller}: query.direction[${k}] ${coordinateRefusal(d[k])}`);
  }
  if (!(q.maxDistance >= 0)) throw new CollideInputError(`${caller}: query.maxDistance must be >= 0, got ${q.maxDistance}`);
  if (!Number.isInteger(q.mask) || q.mask < 0 || q.mask > 0xffffffff) throw new CollideInputError(`${caller}: query.mask must be a uint32, got ${q.mask}`);
  if (!Number.isInteger(q.ignore) || q.ignore < -1) throw new CollideInputError(`${caller}: query.ignore must be an entity id or -1, got ${q.ignore}`);
  const length = Math.hypot(d[0], d[1], d[2]);
  // A zero direction tests the origin point alone (t = 0).
  return length > 0 ? q.maxDistance / length : 0;
}
