/**
 * Many melee sweeps at once, struct of arrays, made once and refilled each frame: sweep i is the
 * sweep query stored at index i (its weapon kind, start and end poses, hit groups and ignored
 * entity), as `setSweepAt` copies it from a SweepQuery.
 */
import { OBB_STRIDE } from '../layout';
import { allocate } from '../sharedMemory';
import { checkSweepQuery, type SweepQuery } from './hitboxSweep';
import { allocateBatch, assertBatchIndex, assertInt32Ignore } from '../query/rayQuery';

/** A batch of melee sweeps (sweepCharactersBatch); fill it with setSweepAt and set `count`. */
export interface SweepBatch {
  /** Sweeps to make: the first `count` entries of every array (at most the capacity). */
  count: number;
  /** Per sweep: its weapon, 0 a box, 1 a capsule. */
  readonly kind: Uint8Array;
  /** Per sweep: the weapon's start pose, 15 numbers (a box in OBB layout; a capsule's p0, p1, radius first). */
  readonly start: Float64Array;
  /** Per sweep: its end pose, 15 numbers. */
  readonly end: Float64Array;
  /** Per sweep: the hit groups it can hit (bit HIT_GROUP_* set). */
  readonly groups: Uint32Array;
  /** Per sweep: the entity whose character it passes through, or -1. */
  readonly ignore: Int32Array;
  /** @internal Per sweep: the character of `ignore` (or -1), written by a batch's validation. */
  readonly ignoreCharacter: Int32Array;
}

/** Arrays of a SweepBatch, for its checks and for sharing it with worker threads. */
export const SWEEP_BATCH_ARRAYS = ['kind', 'start', 'end', 'groups', 'ignore', 'ignoreCharacter'] as const;

/**
 * A reusable batch of `capacity` sweeps (count 0), on SharedArrayBuffers when `shared` (to be swept
 * by worker threads without a copy). Throws CollideInputError unless capacity is a non-negative
 * integer.
 */
export function createSweepBatch(capacity: number, shared = false): SweepBatch {
  return allocateBatch(capacity, 'createSweepBatch', () => ({
    count: 0,
    kind: allocate(Uint8Array, capacity, shared),
    start: allocate(Float64Array, OBB_STRIDE * capacity, shared),
    end: allocate(Float64Array, OBB_STRIDE * capacity, shared),
    groups: allocate(Uint32Array, capacity, shared),
    ignore: allocate(Int32Array, capacity, shared),
    ignoreCharacter: allocate(Int32Array, capacity, shared),
  }));
}

/**
 * Copies sweep query `query` into entry `index` of the batch, allocation-free. Throws
 * CollideInputError for an index outside the capacity, or a query sweepCharacters would refuse
 * (its kind, groups and ignore would not survive the batch's integer arrays); the batch checks
 * its entries again when it is swept, as they may be written directly.
 */
export function setSweepAt(batch: SweepBatch, index: number, query: SweepQuery): void {
  assertBatchIndex(batch, index, 'setSweepAt');
  checkSweepQuery(query, 'setSweepAt');
  assertInt32Ignore(query.ignore, 'setSweepAt');
  batch.kind[index] = query.kind === 'capsule' ? 1 : 0;
  for (let k = 0; k < OBB_STRIDE; k++) {
    batch.start[OBB_STRIDE * index + k] = query.start[k];
    batch.end[OBB_STRIDE * index + k] = query.end[k];
  }
  batch.groups[index] = query.groups;
  batch.ignore[index] = query.ignore;
}

/** @internal Loads entry `index` of the batch into `query` (made by createSweepQuery); returns it. */
export function sweepAt(query: SweepQuery, batch: SweepBatch, index: number): SweepQuery {
  query.kind = batch.kind[index] === 1 ? 'capsule' : 'obb';
  for (let k = 0; k < OBB_STRIDE; k++) {
    query.start[k] = batch.start[OBB_STRIDE * index + k];
    query.end[k] = batch.end[OBB_STRIDE * index + k];
  }
  query.groups = batch.groups[index];
  query.ignore = batch.ignore[index];
  return query;
}
