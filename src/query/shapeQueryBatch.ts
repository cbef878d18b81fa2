/**
 * Many shape queries at once (overlap queries or shape casts), struct of arrays, made once and
 * refilled each frame: query i is the shape query stored at index i (its kind, its numbers, its
 * displacement, mask and ignore), as `setShapeQueryAt` copies it from a ShapeQuery.
 */
import { OBB_STRIDE } from '../layout';
import { allocate } from '../sharedMemory';
import { assertShapeQuery, setKind, type ShapeQuery } from './shapeQuery';
import { allocateBatch, assertBatchIndex, assertInt32Ignore } from './rayQuery';

/** A batch of shape queries (overlapCollidersBatch, castShapeCollidersBatch); fill it with setShapeQueryAt and set `count`. */
export interface ShapeQueryBatch {
  /** Queries to make: the first `count` entries of every array (at most the capacity). */
  count: number;
  /** Per query: its shape's kind (ShapeQuery.kind). */
  readonly kind: Uint8Array;
  /** Per query: its shape's numbers in the layout of its kind (ShapeQuery.data), OBB_STRIDE (15) per query. */
  readonly data: Float64Array;
  /** Per query: its displacement (casts), 3 numbers. */
  readonly displacement: Float64Array;
  /** Per query: its layer mask. */
  readonly mask: Uint32Array;
  /** Per query: the entity it passes through, or -1. */
  readonly ignore: Int32Array;
}

/** Arrays of a ShapeQueryBatch, for its checks and for sharing it with worker threads. */
export const SHAPE_QUERY_BATCH_ARRAYS = ['kind', 'data', 'displacement', 'mask', 'ignore'] as const;

/**
 * A reusable batch of `capacity` shape queries (count 0), on SharedArrayBuffers when `shared` (to
 * be run by worker threads without a copy). Throws CollideInputError unless capacity is a
 * non-negative integer.
 */
export function createShapeQueryBatch(capacity: number, shared = false): ShapeQueryBatch {
  return allocateBatch(capacity, 'createShapeQueryBatch', () => ({
    count: 0,
    kind: allocate(Uint8Array, capacity, shared),
    data: allocate(Float64Array, OBB_STRIDE * capacity, shared),
    displacement: allocate(Float64Array, 3 * capacity, shared),
    mask: allocate(Uint32Array, capacity, shared),
    ignore: allocate(Int32Array, capacity, shared),
  }));
}

/**
 * Copies shape query `query` (its shape, displacement, mask and ignore) into entry `index` of the
 * batch, allocation-free. Throws CollideInputError for an index outside the batch's capacity, or
 * a query an overlap query would refuse (its mask and ignore would not survive the batch's
 * integer arrays); the batch checks its entries again when it runs, as they may be written
 * directly, and a cast's displacement then.
 */
export function setShapeQueryAt(batch: ShapeQueryBatch, index: number, query: ShapeQuery): void {
  assertBatchIndex(batch, index, 'setShapeQueryAt');
  assertShapeQuery(query, 'setShapeQueryAt', false);
  assertInt32Ignore(query.ignore, 'setShapeQueryAt');
  batch.kind[index] = query.kind;
  for (let k = 0; k < OBB_STRIDE; k++) batch.data[OBB_STRIDE * index + k] = query.data[k];
  for (let k = 0; k < 3; k++) batch.displacement[3 * index + k] = query.displacement[k];
  batch.mask[index] = query.mask;
  batch.ignore[index] = query.ignore;
}

/** @internal Loads entry `index` of the batch into `query` (made by createShapeQuery); returns it. */
export function shapeQueryAt(query: ShapeQuery, batch: ShapeQueryBatch, index: number): ShapeQuery {
  for (let k = 0; k < OBB_STRIDE; k++) query.data[k] = batch.data[OBB_STRIDE * index + k];
  for (let k = 0; k < 3; k++) query.displacement[k] = batch.displacement[3 * index + k];
  query.mask = batch.mask[index];
  query.ignore = batch.ignore[index];
  return setKind(query, batch.kind[index]);
}
