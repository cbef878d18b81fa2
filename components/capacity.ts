/**
 * Growth of per-entity stores. A store's arrays are indexed by entity id, so they must hold the
 * largest id in use; they grow by doubling (amortised O(1) per entity, nothing allocated once the
 * world's largest id has been seen) and keep their contents. Users never size a store.
 */
import { CollideInputError } from '../src/errors';
import { allocateLike } from '../src/sharedMemory';

/** Entity ids must be below this (ids are packed into 24 bits when pairs are sorted). */
export const MAX_ENTITY_ID = 1 << 24;

/** Entities a fresh store has room for. */
export const INITIAL_ENTITY_CAPACITY = 64;

/** Any typed array a store holds. */
export type StoreArray = Float32Array | Float64Array | Uint8Array | Uint32Array | Int32Array | Int8Array;

/** Throws a CollideInputError unless `eid` is an integer entity id in [0, 2^24). */
export function assertEntityId(eid: number, what: string): void {
  if (!Number.isInteger(eid) || eid < 0 || eid >= MAX_ENTITY_ID) {
    throw new CollideInputError(`${what}: entity ${eid} is not an integer id in [0, 2^24)`);
  }
}

/** Smallest doubling of `capacity` that holds index `eid`. */
export function capacityFor(capacity: number, eid: number): number {
  let n = Math.max(capacity, INITIAL_ENTITY_CAPACITY);
  while (n <= eid) n *= 2;
  return n;
}

/**
 * `arr` when it already holds `length` elements, else a copy of it with `length` elements (the
 * tail filled with `fill`), shared when `arr` is (see src/sharedMemory.ts).
 */
export function resized<T extends StoreArray>(arr: T, length: number, fill = 0): T {
  if (arr.length >= length) return arr;
  const next = allocateLike(arr, length);
  next.set(arr as never);
  if (fill !== 0) next.fill(fill, arr.length);
  return next;
}
