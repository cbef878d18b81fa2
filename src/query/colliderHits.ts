/**
 * The answers of batches of world queries (raycastCollidersBatch, castShapeCollidersBatch,
 * overlapCollidersBatch in the ecs entry), struct of arrays, made once and reused.
 */
import { CollideInputError, valueName } from '../errors';
import { allocate } from '../sharedMemory';
import { allocateBatch } from './rayQuery';

/**
 * The first hits of a batch of rays or shape casts against the colliders, struct of arrays: entry
 * i is query i's (entity −1 and t Infinity for a miss, whose point and normal are left as they
 * were). The fields mean what they mean in ColliderRayHit (for casts, t is the fraction of the
 * displacement, as in ColliderShapeHit).
 */
export interface ColliderHits {
  /** Per query: the entity hit, or −1. */
  readonly entity: Int32Array;
  /** Per query: ray parameter of the hit (units of |direction|; for a cast, the fraction of its displacement), Infinity for a miss. */
  readonly t: Float64Array;
  /** Per query: t·|direction| (a cast: t·|displacement|), the distance travelled; Infinity for a miss. */
  readonly distance: Float64Array;
  /** World points of the hits, 3 numbers per query. */
  readonly point: Float64Array;
  /** Unit surface normals, 3 numbers per query: facing the ray, or from the collider towards the cast shape. */
  readonly normal: Float64Array;
  /** Per query: the hitbox hit on a character collider (index into the hitbox store), else −1. */
  readonly hitbox: Int32Array;
  /** Per query: that hitbox's hit group (HIT_GROUP_*), else −1. */
  readonly group: Int32Array;
  /** Per query: the mesh triangle hit on a mesh collider, else −1. */
  readonly triangle: Int32Array;
}

/** Arrays of ColliderHits, for their checks and for sharing them with worker threads. */
export const COLLIDER_HIT_ARRAYS = ['entity', 't', 'distance', 'point', 'normal', 'hitbox', 'group', 'triangle'] as const;

/** Hit arrays for `capacity` queries, on SharedArrayBuffers when `shared` (worker threads then write them in place). */
export function createColliderHits(capacity: number, shared = false): ColliderHits {
  return allocateBatch(capacity, 'createColliderHits', () => ({
    entity: allocate(Int32Array, capacity, shared),
    t: allocate(Float64Array, capacity, shared),
    distance: allocate(Float64Array, capacity, shared),
    point: allocate(Float64Array, 3 * capacity, shared),
    normal: allocate(Float64Array, 3 * capacity, shared),
    hitbox: allocate(Int32Array, capacity, shared),
    group: allocate(Int32Array, capacity, shared),
    triangle: allocate(Int32Array, capacity, shared),
  }));
}

/**
 * What the overlap queries of a batch found: query i's total in `count[i]`, and the lowest
 * `perQuery` of its entities, ascending, in ids[i·perQuery ..] (the rest of its slice unwritten
 * when it found fewer): as overlapColliders fills an Int32Array of that length.
 */
export interface OverlapHits {
  /** Entities kept per query. */
  readonly perQuery: number;
  /** Per query: how many entities it found (more than perQuery when its slice was full). */
  readonly count: Int32Array;
  /** perQuery entries per query: its lowest entity ids, ascending. */
  readonly ids: Int32Array;
}

/** Arrays of OverlapHits, for their checks and for sharing them with worker threads. */
export const OVERLAP_HIT_ARRAYS = ['count', 'ids'] as const;

/**
 * Answer arrays for `capacity` overlap queries keeping `perQuery` entities each, on
 * SharedArrayBuffers when `shared`. Throws CollideInputError unless both are non-negative integers
 * (perQuery at least 1).
 */
export function createOverlapHits(capacity: number, perQuery: number, shared = false): OverlapHits {
  assertPerQuery(perQuery, 'createOverlapHits', 'perQuery');
  return allocateBatch(capacity, 'createOverlapHits', () => ({ perQuery, count: allocate(Int32Array, capacity, shared), ids: allocate(Int32Array, capacity * perQuery, shared) }), `capacity ${capacity} × perQuery ${perQuery}`);
}

/** Throws CollideInputError unless `perQuery` (named `what`) is a positive integer. */
export function assertPerQuery(perQuery: number, caller: string, what: string): void {
  if (!(Number.isInteger(perQuery) && perQuery >= 1)) throw new CollideInputError(`${caller}: ${what} must be a positive integer, got ${valueName(perQuery)}`);
}
