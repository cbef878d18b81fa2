import { CollideInputError, assertKnownKeys, assertRecord, coordinateRefusal, isCoordinate, valueName } from '../errors';
import { allocate } from '../sharedMemory';
import { writeHypot } from '../hypot';

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
  rayLimit(validated, 0, q, 'createRayQuery');
  return q;
}

const directionLength = new Float64Array(1);

/** Where createRayQuery's validation writes the limit it does not keep. */
const validated = new Float64Array(2);

/** Sets the query's origin and direction (allocation-free); returns the query. */
export function setRay(q: RayQuery, ox: number, oy: number, oz: number, dx: number, dy: number, dz: number): RayQuery {
  assertRayQueryRecord(q, 'setRay');
  const o = q.origin, d = q.direction;
  o[0] = ox; o[1] = oy; o[2] = oz;
  d[0] = dx; d[1] = dy; d[2] = dz;
  return q;
}

/** Throws CollideInputError unless `q` has a ray query's arrays (createRayQuery); its numbers are not checked. */
function assertRayQueryRecord(q: RayQuery, caller: string): void {
  const o = q?.origin, d = q?.direction;
  if (!(o instanceof Float64Array) || o.length !== 3 || !(d instanceof Float64Array) || d.length !== 3) {
    throw new CollideInputError(`${caller}: the query must come from createRayQuery, got ${valueName(q)}`);
  }
}

/**
 * Validates the query for a cast (CollideInputError naming the field and value) and writes into
 * out[oo] the largest ray parameter t to search: maxDistance / |direction| (0 for a zero
 * direction, which tests the origin point alone), and |direction| into out[oo + 1]. Into an array:
 * a double returned from a call V8 does not inline is boxed (16 bytes of garbage per ray).
 */
export function rayLimit(out: Float64Array, oo: number, q: RayQuery, caller: string): void {
  assertRayQueryRecord(q, caller);
  const o = q.origin, d = q.direction;
  assertRayVectors(o, d, -1, caller, 'query');
  const maxDistance = q.maxDistance;
  if (!validRayFields(maxDistance, q.mask, q.ignore)) refuseRayFields(maxDistance, q.mask, q.ignore, -1, caller, 'query');
  writeHypot(out, oo + 1, d, 0);
  const length = out[oo + 1];
  out[oo] = length > 0 ? maxDistance / length : 0;
}

/** Throws CollideInputError for a ray's origin or direction coordinate (ray −1: a query's) that is not finite or outside ±MAX_COORDINATE. */
function assertRayVectors(origin: Float64Array, direction: Float64Array, ray: number, caller: string, name: string): void {
  const o = ray < 0 ? 0 : 3 * ray;
  for (let k = 0; k < 3; k++) {
    if (!isCoordinate(origin[o + k])) throw new CollideInputError(`${caller}: ${fieldName(name, 'origin', k, ray)} ${coordinateRefusal(origin[o + k])}`);
    if (!isCoordinate(direction[o + k])) throw new CollideInputError(`${caller}: ${fieldName(name, 'direction', k, ray)} ${coordinateRefusal(direction[o + k])}`);
  }
}

/** Whether maxDistance is >= 0, mask a uint32 and ignore an entity id or -1. */
function validRayFields(maxDistance: number, mask: number, ignore: number): boolean {
  return maxDistance >= 0 && Number.isInteger(mask) && mask >= 0 && mask <= 0xffffffff && Number.isInteger(ignore) && ignore >= -1;
}

/** Throws CollideInputError naming the first of the fields validRayFields refuses. */
function refuseRayFields(maxDistance: number, mask: number, ignore: number, ray: number, caller: string, name: string): never {
  if (!(maxDistance >= 0)) throw new CollideInputError(`${caller}: ${fieldName(name, 'maxDistance', -1, ray)} must be >= 0, got ${maxDistance}`);
  if (!Number.isInteger(mask) || mask < 0 || mask > 0xffffffff) throw new CollideInputError(`${caller}: ${fieldName(name, 'mask', -1, ray)} must be a uint32, got ${mask}`);
  throw new CollideInputError(`${caller}: ${fieldName(name, 'ignore', -1, ray)} must be an entity id or -1, got ${ignore}`);
}

/** A field's name in messages: `query.origin[1]`, `query.mask`, `rays.origin[4] (ray 1)`, `rays.mask[1] (ray 1)`. */
function fieldName(name: string, f: string, k: number, ray: number): string {
  if (ray < 0) return `${name}.${f}${k < 0 ? '' : `[${k}]`}`;
  return `${name}.${f}[${k < 0 ? ray : 3 * ray + k}] (ray ${ray})`;
}

/**
 * rayLimit of one ray of a batch (ray `ray`: origin and direction at 3·ray) or, with ray −1, of a
 * query's fields; `name` ('query', 'rays') prefixes the field names of the messages.
 */
export function rayLimitAt(
  origin: Float64Array, direction: Float64Array, maxDistance: number, mask: number, ignore: number,
  ray: number, caller: string, name: string,
): number {
  assertRayVectors(origin, direction, ray, caller, name);
  if (!validRayFields(maxDistance, mask, ignore)) refuseRayFields(maxDistance, mask, ignore, ray, caller, name);
  const o = ray < 0 ? 0 : 3 * ray;
  writeHypot(directionLength, 0, direction, o);
  const length = directionLength[0];
  // A zero direction tests the origin point alone (t = 0).
  return length > 0 ? maxDistance / length : 0;
}

/**
 * Many rays at once, struct of arrays, made once (`createRayBatch`) and refilled each frame: ray
 * i has its origin at origin[3i..3i+2], its direction at direction[3i..3i+2], and maxDistance[i],
 * mask[i], ignore[i] with the meaning of the RayQuery fields. `count` rays are cast.
 */
export interface RayBatch {
  /** Rays to cast: the first `count` entries of every array (at most the capacity). */
  count: number;
  /** Origins, 3 numbers per ray. */
  readonly origin: Float64Array;
  /** Directions, 3 numbers per ray, any length (see RayQuery.direction). */
  readonly direction: Float64Array;
  /** Farthest hit per ray, world units (default Infinity). */
  readonly maxDistance: Float64Array;
  /** Layer mask per ray (default all); as for a RayQuery, character hitbox casts hit every character. */
  readonly mask: Uint32Array;
  /** Entity each ray passes through, or -1 (default). */
  readonly ignore: Int32Array;
  /** @internal Per ray: its largest ray parameter t, written by a cast's validation. */
  readonly limit: Float64Array;
  /** @internal Per ray: the character index of `ignore` (or -1), written by a hitbox cast's validation. */
  readonly ignoreCharacter: Int32Array;
}

/**
 * A reusable batch of `capacity` rays (count 0; maxDistance Infinity, mask all, ignore -1), on
 * SharedArrayBuffers when `shared` (to be cast by worker threads without a copy). Throws
 * CollideInputError unless capacity is a non-negative integer.
 */
export function createRayBatch(capacity: number, shared = false): RayBatch {
  return allocateBatch(capacity, 'createRayBatch', () => ({
    count: 0,
    origin: allocate(Float64Array, 3 * capacity, shared),
    direction: allocate(Float64Array, 3 * capacity, shared),
    maxDistance: allocate(Float64Array, capacity, shared).fill(Infinity),
    mask: allocate(Uint32Array, capacity, shared).fill(0xffffffff),
    ignore: allocate(Int32Array, capacity, shared).fill(-1),
    limit: allocate(Float64Array, capacity, shared),
    ignoreCharacter: allocate(Int32Array, capacity, shared),
  }));
}

/**
 * The record `make` allocates for a batch of `capacity` entries: CollideInputError naming `caller`
 * unless capacity is a non-negative integer, or when `size` (default the capacity) is more than
 * the platform can allocate (its typed arrays have a largest length, and memory an end).
 */
export function allocateBatch<T>(capacity: number, caller: string, make: () => T, size = `capacity ${capacity}`): T {
  if (!(Number.isInteger(capacity) && capacity >= 0)) throw new CollideInputError(`${caller}: capacity must be a non-negative integer, got ${valueName(capacity)}`);
  try {
    return make();
  } catch (error) {
    if (error instanceof RangeError) throw new CollideInputError(`${caller}: ${size} is too large to allocate (${error.message})`);
    throw error;
  }
}

/** Throws CollideInputError unless `array` holds at least `needed` numbers; `what` names it. */
export function assertBatchLength(array: ArrayLike<number> | undefined, needed: number, what: string): void {
  if (array === null || typeof array !== 'object') throw new CollideInputError(`${what} is missing (${valueName(array)}), ${needed} numbers needed`);
  if (!(array.length >= needed)) throw new CollideInputError(`${what} holds ${array.length} numbers, ${needed} needed`);
}


/**
 * Throws CollideInputError unless `record` (named `what`) looks made by `maker`: an object whose
 * field `array` is a typed array (a store, grid, history or motion of this library).
 */
export function assertMadeBy(record: unknown, array: string, caller: string, what: string, maker: string): void {
  if (record === null || typeof record !== 'object' || !ArrayBuffer.isView((record as Record<string, unknown>)[array])) {
    throw new CollideInputError(`${caller}: ${what} must come from ${maker}, got ${valueName(record)}`);
  }
}

/**
 * The `count` of batch `batch` (named `what`: 'rays', 'queries', 'sweeps'): CollideInputError
 * unless the batch is an object and its count a non-negative integer.
 */
export function batchCount(batch: { count: number }, caller: string, what: string): number {
  assertRecord(batch, caller, what);
  const n = batch.count;
  if (!Number.isInteger(n) || n < 0) throw new CollideInputError(`${caller}: ${what}.count must be a non-negative integer, got ${valueName(n)}`);
  return n;
}

/**
 * Throws CollideInputError unless `record` (named `what`: 'hits', 'queries') is an object whose
 * arrays `names` hold `n` entries, `width(name)` numbers each, naming the first that does not.
 */
export function assertBatchArrays(record: object, names: readonly string[], n: number, width: (name: string) => number, caller: string, what: string): void {
  assertRecord(record, caller, what);
  for (const name of names) assertBatchLength((record as Record<string, ArrayLike<number> | undefined>)[name], width(name) * n, `${caller}: ${what}.${name}`);
}

/** Throws CollideInputError unless `index` is an integer entry of `batch` (as many as its `kind` array holds). */
export function assertBatchIndex(batch: { readonly kind: ArrayLike<number> }, index: number, caller: string): void {
  assertRecord(batch, caller, 'batch');
  assertBatchLength(batch.kind, 0, `${caller}: batch.kind`);
  const capacity = batch.kind.length;
  if (!(Number.isInteger(index) && index >= 0 && index < capacity)) throw new CollideInputError(`${caller}: index must be an integer in [0, ${capacity}), got ${valueName(index)}`);
}

/** Throws CollideInputError for a query's ignore (valid otherwise) beyond what a batch's Int32Array holds. */
export function assertInt32Ignore(ignore: number, caller: string): void {
  if (ignore > 0x7fffffff) throw new CollideInputError(`${caller}: query.ignore must be an entity id or -1 within int32 (a batch's Int32Array), got ${ignore}`);
}

/** Numbers per entry of a hit record's arrays: 3 for points and normals, else 1. */
export function hitWidth(name: string): number {
  return name === 'point' || name === 'normal' ? 3 : 1;
}

/**
 * Validates a batch for a cast (CollideInputError naming the field, its index and value) and
 * writes each ray's largest ray parameter into `rays.limit` (see rayLimit).
 */
export function rayBatchLimits(rays: RayBatch, caller: string): void {
  const n = batchCount(rays, caller, 'rays');
  assertBatchLength(rays.origin, 3 * n, `${caller}: rays.origin`);
  assertBatchLength(rays.direction, 3 * n, `${caller}: rays.direction`);
  assertBatchLength(rays.maxDistance, n, `${caller}: rays.maxDistance`);
  assertBatchLength(rays.mask, n, `${caller}: rays.mask`);
  assertBatchLength(rays.ignore, n, `${caller}: rays.ignore`);
  assertBatchLength(rays.limit, n, `${caller}: rays (not made by createRayBatch)`);
  const { origin, direction, maxDistance, mask, ignore, limit } = rays;
  for (let i = 0; i < n; i++) limit[i] = rayLimitAt(origin, direction, maxDistance[i], mask[i], ignore[i], i, caller, 'rays');
}
