/**
 * Batches of world queries: raycastCollidersBatch, castShapeCollidersBatch and
 * overlapCollidersBatch, many rays, shape casts or overlap queries against a pipeline's colliders
 * in one call, each one's answer exactly as raycastColliders, castShapeColliders or
 * overlapColliders gives it, written into arrays (one slice per query); on the pipeline's worker
 * threads for large batches.
 */
import type { World } from 'bitecs';
import { CollideInputError, assertRecord } from '../src/errors';
import { assertBatchArrays, assertBatchLength, batchCount, hitWidth, rayBatchLimits, type RayBatch } from '../src/query/rayQuery';
import { assertPerQuery, COLLIDER_HIT_ARRAYS, type ColliderHits, type OverlapHits } from '../src/query/colliderHits';
import { assertShapeQueryFields, createShapeQuery, QUERY_CAPSULE } from '../src/query/shapeQuery';
import { SHAPE_QUERY_BATCH_ARRAYS, shapeQueryAt, type ShapeQueryBatch } from '../src/query/shapeQueryBatch';
import { OBB_STRIDE } from '../src/layout';
import { pipelineOf, type CollisionPipeline } from './collisionState';
import { createColliderRayHit, raycastCollidersAt } from './raycastColliders';
import { castShapeQuery } from './shapeCasts';
import { overlapColliders } from './shapeQueries';

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

/**
 * Validates the batch's first `count` queries (for casts when `cast`: a displacement too) and
 * returns their count; CollideInputError naming the query and field.
 */
function checkShapeQueries(queries: ShapeQueryBatch, cast: boolean, caller: string): number {
  const n = batchCount(queries, caller, 'queries');
  assertBatchArrays(queries, SHAPE_QUERY_BATCH_ARRAYS, n, queryWidth, caller, 'queries');
  // A Uint32Array holds only valid masks, an Int32Array only integers.
  const { kind, data, displacement, ignore } = queries;
  for (let i = 0; i < n; i++) {
    if (kind[i] > QUERY_CAPSULE) throw new CollideInputError(`${caller}: queries.kind[${i}] must be a ShapeQuery kind (0 to ${QUERY_CAPSULE}), got ${kind[i]}`);
    assertShapeQueryFields(kind[i], data, OBB_STRIDE * i, displacement, 3 * i, caller, cast, i);
    if (ignore[i] < -1) throw new CollideInputError(`${caller} (query ${i}): query.ignore must be an entity id or -1, got ${ignore[i]}`);
  }
  return n;
}

/** Numbers per query of a ShapeQueryBatch's arrays. */
function queryWidth(name: string): number {
  return name === 'data' ? OBB_STRIDE : name === 'displacement' ? 3 : 1;
}

/** Throws unless `hits` holds `n` queries' entries. */
function assertHitsLength(hits: ColliderHits, n: number, caller: string): void {
  assertBatchArrays(hits, COLLIDER_HIT_ARRAYS, n, hitWidth, caller, 'hits');
}

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
  let count = 0;
  for (let i = from; i < to; i++) {
    const found = raycastCollidersAt(p, hit, rays, i);
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
 * SharedArrayBuffers (createShapeQueryBatch(n, true), createColliderHits(n, true)), with the same
 * results, as for raycastCollidersBatch. Throws CollideInputError, before casting, for a bad cast
 * (naming its index and field) or short arrays.
 */
export function castShapeCollidersBatch(target: World | CollisionPipeline, hits: ColliderHits, casts: ShapeQueryBatch): number {
  const p = pipelineOf(target, 'castShapeCollidersBatch');
  const n = checkShapeQueries(casts, true, 'castShapeCollidersBatch');
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
export function castShapeRange(p: CollisionPipeline, hits: ColliderHits, casts: ShapeQueryBatch, from: number, to: number): number {
  let count = 0;
  for (let i = from; i < to; i++) {
    const found = castShapeQuery(p, hit, shapeQueryAt(shapeQuery, casts, i));
    recordHit(hits, i, found);
    if (found) count++;
  }
  return count;
}

/**
 * Runs every overlap query of `queries` against the pipeline's colliders: query i's total in
 * hits.count[i] and its lowest hits.perQuery entities, ascending, in its slice of hits.ids, as
 * overlapColliders fills an Int32Array of that length. Returns the sum of the counts. With the
 * `workers` option, a batch of at least `minColliderOverlaps` queries is split between the calling
 * thread and the workers when `queries` and `hits` are on SharedArrayBuffers
 * (createShapeQueryBatch(n, true), createOverlapHits(n, perQuery, true)), with the same results, as
 * for raycastCollidersBatch. Throws CollideInputError, before any query runs, for a bad query
 * (naming its index and field) or short arrays.
 */
export function overlapCollidersBatch(target: World | CollisionPipeline, hits: OverlapHits, queries: ShapeQueryBatch): number {
  const p = pipelineOf(target, 'overlapCollidersBatch');
  const n = checkShapeQueries(queries, false, 'overlapCollidersBatch');
  assertRecord(hits, 'overlapCollidersBatch', 'hits');
  assertPerQuery(hits.perQuery, 'overlapCollidersBatch', 'hits.perQuery');
  assertBatchLength(hits.count, n, 'overlapCollidersBatch: hits.count');
  assertBatchLength(hits.ids, n * hits.perQuery, 'overlapCollidersBatch: hits.ids');
  const parallel = p.parallel;
  if (parallel !== undefined && n >= parallel.minColliderOverlaps) {
    const total = parallel.queries.overlaps(p, hits, queries);
    if (total >= 0) return total;
  }
  return overlapRange(p, hits, queries, 0, n);
}

/** The slice overlapColliders fills for one query of a batch, as long as the batch's perQuery. */
let overlapSlice = new Int32Array(0);

/**
 * @internal Runs overlap queries [from, to) of a validated batch into `hits` (overlapColliders per
 * query) and returns the sum of their counts; ranges may run on different threads, as
 * castColliderRayRange's.
 */
export function overlapRange(p: CollisionPipeline, hits: OverlapHits, queries: ShapeQueryBatch, from: number, to: number): number {
  const perQuery = hits.perQuery;
  if (overlapSlice.length !== perQuery) overlapSlice = new Int32Array(perQuery);
  let total = 0;
  for (let i = from; i < to; i++) {
    const n = overlapColliders(p, overlapSlice, shapeQueryAt(shapeQuery, queries, i));
    hits.count[i] = n;
    const kept = n < perQuery ? n : perQuery;
    for (let k = 0; k < kept; k++) hits.ids[i * perQuery + k] = overlapSlice[k];
    total += n;
  }
  return total;
}
