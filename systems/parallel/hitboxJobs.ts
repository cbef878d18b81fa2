/**
 * The characters' work on the worker pool: the hitbox update split by ranges of characters, and
 * a ray batch split by ranges of rays. Every character and every ray writes only its own entries,
 * so the threads' results are those of one thread, to the bit.
 */
import { updateHitboxes } from '../../src/character/hitboxUpdate';
import type { HitboxStore } from '../../src/character/hitboxLayout';
import type { SkeletonStore } from '../../src/character/skeleton';
import type { CharacterRayGrid } from '../../src/character/rayGrid';
import { castHitboxRange, HIT_ARRAYS, type HitboxRayHits } from '../../src/character/hitboxRaycast';
import type { RayBatch } from '../../src/query/rayQuery';
import { allocate, isShared, type SharableArray } from '../../src/sharedMemory';
import type { WorkerPool } from './pool';
import { HITBOX_ARRAYS, HITBOX_JOB_PARAMS, JOB_HITBOXES, JOB_HITBOX_RAYS, RAY_BATCH_ARRAYS, RAY_GRID_ARRAYS } from './protocol';

/**
 * Defaults of the hitbox jobs' thresholds (below them, the calling thread alone is faster). The
 * update split where the threads' parts end together measured 0.75x to 0.94x of one thread at 100
 * to 200 characters and 1.1x to 1.75x from 250 (docs/design/hitboxes.md).
 */
export const PARALLEL_MIN_HITBOX_CHARACTERS = 256;
export const PARALLEL_MIN_HITBOX_RAYS = 512;

/** The hitbox jobs of one pool. */
export interface HitboxJobs {
  /** updateHitboxes of every character, split between the threads; false (nothing done) when the stores are not shared. */
  update(hitboxes: HitboxStore, skeletons: SkeletonStore): boolean;
  /** castHitboxRange over a prepared batch, split between the threads; -1 (nothing cast) when an array is not shared. */
  cast(hits: HitboxRayHits, store: HitboxStore, grid: CharacterRayGrid, rays: RayBatch): number;
}

/** Whether every named array of `arrays` lives on a SharedArrayBuffer. */
function allShared(arrays: object, names: readonly string[]): boolean {
  for (const name of names) if (!isShared((arrays as Record<string, SharableArray>)[name])) return false;
  return true;
}

/** Shares the named arrays of `arrays` with the pool as `prefix.name`. */
function shareAll(pool: WorkerPool, prefix: string, arrays: object, names: readonly string[]): void {
  for (const name of names) pool.share(`${prefix}.${name}`, (arrays as Record<string, ArrayBufferView>)[name]);
}

/** The hitbox jobs on `pool`. */
export function createHitboxJobs(pool: WorkerPool): HitboxJobs {
  const params = allocate(Float64Array, 1, true);
  pool.share(HITBOX_JOB_PARAMS, params);
  const shareStore = (hitboxes: HitboxStore) => shareAll(pool, 'hitboxes', hitboxes, HITBOX_ARRAYS);
  return {
    update(hitboxes, skeletons) {
      if (!allShared(hitboxes, HITBOX_ARRAYS) || !isShared(skeletons.world)) return false;
      shareStore(hitboxes);
      pool.share('skeletons.world', skeletons.world);
      pool.runClaimed(JOB_HITBOXES, hitboxes.characterCount, 0, hitboxes.characterCount, 0, (from, to) => updateHitboxes(hitboxes, skeletons, from, to - from));
      return true;
    },
    cast(hits, store, grid, rays) {
      if (!allShared(store, HITBOX_ARRAYS) || !allShared(grid, RAY_GRID_ARRAYS) || !allShared(rays, RAY_BATCH_ARRAYS) || !allShared(hits, HIT_ARRAYS)) return -1;
      shareStore(store);
      shareAll(pool, 'rayGrid', grid, RAY_GRID_ARRAYS);
      shareAll(pool, 'rays', rays, RAY_BATCH_ARRAYS);
      shareAll(pool, 'hits', hits, HIT_ARRAYS);
      params[0] = grid.cellSize;
      pool.runClaimed(JOB_HITBOX_RAYS, rays.count, 0, store.characterCount, 0, (from, to) => castHitboxRange(hits, store, grid, rays, from, to));
      let count = 0;
      for (let i = 0, hitbox = hits.hitbox; i < rays.count; i++) if (hitbox[i] >= 0) count++;
      return count;
    },
  };
}
