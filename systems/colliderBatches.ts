/**
 * Batches of world queries: raycastCollidersBatch and castShapeCollidersBatch, many rays or shape
 * casts against a pipeline's colliders in one call, each one's first hit exactly as
 * raycastColliders or castShapeColliders gives it, written into arrays (one entry per query); on
 * the pipeline's worker threads for large batches.
 */
import type { World } from 'bitecs';
import { CollideInputError } from '../src/errors';
import { allocate } from '../src/sharedMemory';
import { assertBatchLength, createRayQuery, rayBatchLimits, type RayBatch } from '../src/query/rayQuery';
import { assertShapeQuery, createShapeQuery, QUERY_CAPSULE } from '../src/query/shapeQuery';
import { SHAPE_CAST_BATCH_ARRAYS, shapeCastAt, type ShapeCastBatch } from '../src/query/shapeCastBatch';
import { OBB_STRIDE } from '../src/layout';
import { pipelineOf, type CollisionPipeline } from './collisionState';
import { createColliderRayHit, raycastColliders } from './raycastColliders';
import { castShapeColliders } from './shapeCasts';

/**
 * The first hits of a batch of rays or shape casts against the colliders, struct of arrays: entry
 * i is query i's (entity −1 and t Infinity for a miss, whose point and normal are left as they
 * were). The fields mean what they mean in ColliderRayHit (for casts, t is the fraction of the
 * displacement, as in ColliderShapeHit).
 */
export interface ColliderHits {
  /** Per ray: the entity hit, or −1. */
  readonly entity: Int32Array;
  /** Per query: ray parameter of the hit (units of |direction|; for a cast, the fraction of its displacement), Infinity for a miss. */
  readonly t: Float64Array;
  /** Per ray: t·|direction|, the distance from the origin; Infinity for a miss. */
  readonly distance: Float64Array;
  /** World points of the hits, 3 numbers per ray. */
  readonly point: Float64Array;
  /** Unit surface normals facing the rays, 3 numbers per ray. */
  readonly normal: Float64Array;
  /** Per ray: the hitbox hit on a character collider (index into the hitbox store), else −1. */
  readonly hitbox: Int32Array;
  /** Per ray: that hitbox's hit group (HIT_GROUP_*), else −1. */
  readonly group: Int32Array;
  /** Per ray: the mesh triangle hit on a mesh collider, else −1. */
  readonly triangle: Int32Array;
}

/** Arrays of ColliderHits, for their checks and for sharing them with worker threads. */
export const COLLIDER_HIT_ARRAYS = ['entity', 't', 'distance', 'point', 'normal', 'hitbox', 'group', 'triangle'] as const;

/** Hit arrays for `capacity` queries, on SharedArrayBuffers when `shared` (worker threads then write them in place). */
export function createColliderHits(capacity: number, shared = false): ColliderHits {
  if (!(Number.isInteger(capacity) && capacity >= 0)) throw new CollideInputError(`createColliderHits: capacity must be a non-negative integer, got ${capacity}`);
  return {
    entity: allocate(Int32Array, capacity, shared),
    t: allocate(Float64Array, capacity, shared),
    distance: allocate(Float64Array, capacity, shared),
    point: allocate(Float64Array, 3 * capacity, shared),
    normal: allocate(Float64Array, 3 * capacity, shared),
    hitbox: allocate(Int32Array, capacity, shared),
    group: allocate(Int32Array, capacity, shared),
    triangle: allocate(Int32Array, capacity, shared),
  };
}

/**
 * Casts every ray of `rays` against the pipeline's colliders and writes ray i's nearest hit at
 * index i of `hits`: the hit raycastColliders gives for a query with that ray's origin,
 * direction, maxDistance, mask and ignore, to the bit. Returns the number of rays that hit. With
 * the `workers` option, a batch of at least `minColliderRays` (512) rays is split between the
 * calling thread and the workers when `rays` and `hits` are on SharedArrayBuffers
 * (createRayBatch(n, true), createColliderHits(n, true)), with the same results (mesh trees
 * not built on SharedArrayBuffers are copied there once). A custom broad phase that answers box
 * queries itself, or characters whose stores the workers cannot read, keep the batch on the
 * calling thread. Throws
 * CollideInputError, before casting, for a bad ray field or short arrays, naming the field, index
 * and ray.
 */
export function raycastCollidersBatch(target: World | CollisionPipeline, hits: ColliderHits, rays: RayBatch): number {
  const p = pipelineOf(target, 'raycastCollidersBatch');
  rayBatchLimits(rays, 'raycastCollidersBatch');
  const n = rays.count;
  assertHitsLength(hits, n, 'raycastCollidersBatch');
  const parallel = p.parallel;
  if (parallel !== undefined && n >= parallel.minColliderRays) {
    const count = parallel.queries.castRays(p, hits, rays);
    if (count >= 0) return count;
  }
  return castColliderRayRange(p, hits, rays, 0, n);
}

/** Throws unless `hits` holds `n` queries' entries. */
function assertHitsLength(hits: ColliderHits, n: number, caller: string): void {
  for (const name of COLLIDER_HIT_ARRAYS) assertBatchLength(hits[name], (name === 'point' || name === 'normal' ? 3 : 1) * n, `${caller}: hits.${name}`);
}

const query = createRayQuery();
const shapeQuery = createShapeQuery();
const hit = createColliderRayHit();

/** Writes entry i of `hits`: the hit in `hit`, or a miss. */
function recordHit(hits: ColliderHits, i: number, found: boolean): void {
  if (!found) {
    hits.entity[i] = hits.hitbox[i] = hits.group[i] = hits.triangle[i] = -1;
    hits.t[i] = hits.distance[i] = Infinity;
    return;
  }
  hits.entity[i] = hit.entity;
  hits.t[i] = hit.t;
  hits.distance[i] = hit.distance;
  for (let k = 0; k < 3; k++) {
    hits.point[3 * i + k] = hit.point[k];
    hits.normal[3 * i + k] = hit.normal[k];
  }
  hits.hitbox[i] = hit.hitbox;
  hits.group[i] = hit.group;
  hits.triangle[i] = hit.triangle;
}

/**
 * @internal Casts rays [from, to) of a validated batch into `hits` (raycastColliders per ray) and
 * returns how many hit. Every ray writes only its own entries, so ranges may run on different
 * threads, each over its own view of the pipeline.
 */
export function castColliderRayRange(p: CollisionPipeline, hits: ColliderHits, rays: RayBatch, from: number, to: number): number {
  const { origin, direction, maxDistance, mask, ignore } = rays;
  const o = query.origin, d = query.direction;
  let count = 0;
  for (let i = from; i < to; i++) {
    for (let k = 0; k < 3; k++) {
      o[k] = origin[3 * i + k];
      d[k] = direction[3 * i + k];
    }
    query.maxDistance = maxDistance[i];
    query.mask = mask[i];
    query.ignore = ignore[i];
    const found = raycastColliders(p, hit, query);
    recordHit(hits, i, found);
    if (found) count++;
  }
  return count;
}

/**
 * Casts every shape cast of `casts` against the pipeline's colliders and writes cast i's first hit
 * at index i of `hits`: the hit castShapeColliders gives for that cast, to the bit. Returns the
 * number of casts that hit. With the `workers` option, a batch of at least `minColliderCasts`
 * casts is split between the calling thread and the workers when `casts` and `hits` are on
 * SharedArrayBuffers (createShapeCastBatch(n, true), createColliderHits(n, true)), with the same
 * results, as for raycastCollidersBatch. Throws CollideInputError, before casting, for a bad cast
 * (naming its index and field) or short arrays.
 */
export function castShapeCollidersBatch(target: World | CollisionPipeline, hits: ColliderHits, casts: ShapeCastBatch): number {
  const p = pipelineOf(target, 'castShapeCollidersBatch');
  const n = casts.count;
  if (!Number.isInteger(n) || n < 0) throw new CollideInputError(`castShapeCollidersBatch: casts.count must be a non-negative integer, got ${n}`);
  for (const name of SHAPE_CAST_BATCH_ARRAYS) {
    assertBatchLength(casts[name], (name === 'data' ? OBB_STRIDE : name === 'displacement' ? 3 : 1) * n, `castShapeCollidersBatch: casts.${name}`);
  }
  for (let i = 0; i < n; i++) {
    if (casts.kind[i] > QUERY_CAPSULE) throw new CollideInputError(`castShapeCollidersBatch: casts.kind[${i}] must be a ShapeQuery kind (0 to ${QUERY_CAPSULE}), got ${casts.kind[i]}`);
    assertShapeQuery(shapeCastAt(shapeQuery, casts, i), `castShapeCollidersBatch (cast ${i})`, true);
  }
  assertHitsLength(hits, n, 'castShapeCollidersBatch');
  const parallel = p.parallel;
  if (parallel !== undefined && n >= parallel.minColliderCasts) {
    const count = parallel.queries.castShapes(p, hits, casts);
    if (count >= 0) return count;
  }
  return castShapeRange(p, hits, casts, 0, n);
}

/**
 * @internal Casts [from, to) of a validated batch into `hits` (castShapeColliders per cast) and
 * returns how many hit; ranges may run on different threads, as castColliderRayRange's.
 */
export function castShapeRange(p: CollisionPipeline, hits: ColliderHits, casts: ShapeCastBatch, from: number, to: number): number {
  let count = 0;
  for (let i = from; i < to; i++) {
    const found = castShapeColliders(p, hit, shapeCastAt(shapeQuery, casts, i));
    recordHit(hits, i, found);
    if (found) count++;
  }
  return count;
}
