/**
 * The characters' work on the worker pool: the hitbox update split by ranges of characters, and
 * a ray batch split by ranges of rays, at the present time or each ray at its own past time of a
 * hitbox history. Every character and every ray writes only its own entries, so the threads'
 * results are those of one thread, to the bit.
 */
import { updateCharacterRunShared } from '../../src/character/hitboxUpdate';
import type { HitboxStore } from '../../src/character/hitboxLayout';
import type { SkeletonStore } from '../../src/character/skeleton';
import type { CharacterRayGrid } from '../../src/character/rayGrid';
import { castHitboxRange, HIT_ARRAYS, type HitboxRayHits } from '../../src/character/hitboxRaycast';
import { createHitboxHistory, type HitboxHistory } from '../../src/character/hitboxHistory';
import { grown } from '../../src/broadphase/growable';
import type { RayBatch } from '../../src/query/rayQuery';
import { allocate, allShared, isShared } from '../../src/sharedMemory';
import { shareAll, type WorkerPool } from './pool';
import {
  HISTORY_FRAME_ARRAYS, HISTORY_PARAM_COUNT, HISTORY_PARAM_NEWEST, HISTORY_PARAM_SLOTS, HISTORY_PARAM_VERSION, HISTORY_PARAMS, HITBOX_ARRAYS, HITBOX_JOB_PARAMS, HITBOX_REFUSED_BONE, NO_REFUSED_BONE,
  JOB_HITBOX_RAYS_AT, JOB_HITBOXES, JOB_HITBOX_RAYS, RAY_BATCH_ARRAYS, RAY_GRID_ARRAYS, REWOUND_BATCH_ARRAYS, SKELETON_ARRAYS,
} from './protocol';

/**
 * Defaults of the hitbox jobs' thresholds (below them, the calling thread alone is faster). The
 * character stage on two threads (bone matrices and hitboxes per run of characters) measured
 * 0.98x to 1.28x of one thread at 64 characters and 1.13x to 1.39x from 96 to 512 (docs/design/hitboxes.md).
 */
export const PARALLEL_MIN_HITBOX_CHARACTERS = 128;
export const PARALLEL_MIN_HITBOX_RAYS = 512;

/** The hitbox jobs of one pool. */
export interface HitboxJobs {
  /**
   * The bone world matrices and hitboxes of every character (updateCharacterRun), split between
   * the threads: -1, or the first bone whose world matrix was refused; undefined (nothing done)
   * when the stores are not shared.
   */
  update(hitboxes: HitboxStore, skeletons: SkeletonStore): number | undefined;
  /** castHitboxRange over a prepared batch, split between the threads; -1 (nothing cast) when an array is not shared. */
  cast(hits: HitboxRayHits, store: HitboxStore, grid: CharacterRayGrid, rays: RayBatch): number;
  /**
   * castHitboxRange over a batch prepared for past times (prepareHitboxRayBatchAt: its rays in
   * frame `order`, each ray's frame in `frameOf`), split between the threads in runs of that
   * order; -1 (nothing cast) when the stores, the history, the rays or the hits are not shared.
   */
  castAt(hits: HitboxRayHits, store: HitboxStore, history: HitboxHistory, rays: RayBatch, times: ArrayLike<number>, order: Int32Array, frameOf: Int32Array): number;
}

/** A rewound batch's order, frames and times, copied to shared arrays for the workers. */
interface RewoundBatch {
  order: Int32Array;
  frameOf: Int32Array;
  times: Float64Array;
}

/** Slots of HISTORY_PARAMS per ring slot: characters, hitboxes, grid cell size. */
const HISTORY_SLOT_PARAMS = 3;

/** The binding names of each ring slot's arrays (HISTORY_FRAME_ARRAYS, then RAY_GRID_ARRAYS as `grid.name`), made once per history size. */
function historyNames(frames: number): string[][] {
  return Array.from({ length: frames }, (_, slot) => [
    ...HISTORY_FRAME_ARRAYS.map((name) => `history.${slot}.${name}`),
    ...RAY_GRID_ARRAYS.map((name) => `history.${slot}.grid.${name}`),
  ]);
}

/** Hands a history's frames and numbers to the pool (the arrays are sent again only when a frame grew). */
function shareHistory(pool: WorkerPool, history: HitboxHistory, params: Float64Array, names: string[][]): void {
  params[HISTORY_PARAM_COUNT] = history.count;
  params[HISTORY_PARAM_NEWEST] = history.newest;
  params[HISTORY_PARAM_VERSION] = history.version;
  pool.share('history.time', history.time);
  const frameArrays = HISTORY_FRAME_ARRAYS.length;
  for (let slot = 0; slot < history.frames; slot++) {
    const frame = history.slots[slot], o = HISTORY_PARAM_SLOTS + HISTORY_SLOT_PARAMS * slot, slotNames = names[slot];
    params[o] = frame.characterCount;
    params[o + 1] = frame.hitboxCount;
    params[o + 2] = frame.grid.cellSize;
    for (let k = 0; k < frameArrays; k++) pool.share(slotNames[k], frame[HISTORY_FRAME_ARRAYS[k]]);
    for (let k = 0; k < RAY_GRID_ARRAYS.length; k++) pool.share(slotNames[frameArrays + k], frame.grid[RAY_GRID_ARRAYS[k]]);
  }
  pool.share(HISTORY_PARAMS, params);
}

/**
 * A worker's view of the calling thread's history from the bound arrays (a history of its own,
 * its frames pointed at them), or undefined when none was shared; `view` is reused when it has
 * as many frames.
 */
export function bindHistory(view: HitboxHistory | undefined, arrays: Record<string, ArrayBufferView>): HitboxHistory | undefined {
  const time = arrays['history.time'] as Float64Array | undefined;
  if (time === undefined) return view;
  const history = view !== undefined && view.frames === time.length ? view : createHitboxHistory(time.length);
  (history as { time: Float64Array }).time = time;
  history.slots.forEach((frame, slot) => {
    for (const name of HISTORY_FRAME_ARRAYS) (frame as unknown as Record<string, unknown>)[name] = arrays[`history.${slot}.${name}`];
    for (const name of RAY_GRID_ARRAYS) (frame.grid as unknown as Record<string, unknown>)[name] = arrays[`history.${slot}.grid.${name}`];
  });
  return history;
}

/** Sets a worker's history view's numbers from the shared params before a rewound batch. */
export function readHistoryParams(history: HitboxHistory, params: Float64Array): void {
  history.count = params[HISTORY_PARAM_COUNT];
  history.newest = params[HISTORY_PARAM_NEWEST];
  history.version = params[HISTORY_PARAM_VERSION];
  for (let slot = 0; slot < history.frames; slot++) {
    const frame = history.slots[slot] as { characterCount: number; hitboxCount: number; grid: CharacterRayGrid };
    const o = HISTORY_PARAM_SLOTS + HISTORY_SLOT_PARAMS * slot;
    frame.characterCount = params[o];
    frame.hitboxCount = params[o + 1];
    frame.grid.cellSize = params[o + 2];
    // This thread's stamps (a ray tests a character once): as many as the frame's characters.
    frame.grid.stamp = grown(frame.grid.stamp, params[o]);
  }
}

/** Rays of the batch's first `n` that hit. */
function hitCount(hits: HitboxRayHits, n: number): number {
  let count = 0;
  for (let i = 0, hitbox = hits.hitbox; i < n; i++) if (hitbox[i] >= 0) count++;
  return count;
}


/** The hitbox jobs on `pool`. */
export function createHitboxJobs(pool: WorkerPool): HitboxJobs {
  const params = allocate(Float64Array, 1, true);
  pool.share(HITBOX_JOB_PARAMS, params);
  const refusedBone = allocate(Int32Array, 1, true);
  pool.share(HITBOX_REFUSED_BONE, refusedBone);
  const shareStore = (hitboxes: HitboxStore) => shareAll(pool, 'hitboxes', hitboxes, HITBOX_ARRAYS);
  let historyParams = allocate(Float64Array, 0, true);
  let historyBindingNames: string[][] = [];
  const rewound: RewoundBatch = { order: allocate(Int32Array, 0, true), frameOf: allocate(Int32Array, 0, true), times: allocate(Float64Array, 0, true) };
  return {
    update(hitboxes, skeletons) {
      if (!allShared(hitboxes, HITBOX_ARRAYS) || !allShared(skeletons, SKELETON_ARRAYS)) return undefined;
      shareStore(hitboxes);
      shareAll(pool, 'skeletons', skeletons, SKELETON_ARRAYS);
      const n = hitboxes.characterCount;
      refusedBone[0] = NO_REFUSED_BONE;
      pool.runClaimed(JOB_HITBOXES, n, 0, n, skeletons.characterCount, (from, to) => updateCharacterRunShared(hitboxes, skeletons, from, to, refusedBone));
      return refusedBone[0] === NO_REFUSED_BONE ? -1 : refusedBone[0];
    },
    cast(hits, store, grid, rays) {
      if (!allShared(store, HITBOX_ARRAYS) || !allShared(grid, RAY_GRID_ARRAYS) || !allShared(rays, RAY_BATCH_ARRAYS) || !allShared(hits, HIT_ARRAYS)) return -1;
      shareStore(store);
      shareAll(pool, 'rayGrid', grid, RAY_GRID_ARRAYS);
      shareAll(pool, 'rays', rays, RAY_BATCH_ARRAYS);
      shareAll(pool, 'hits', hits, HIT_ARRAYS);
      params[0] = grid.cellSize;
      pool.runClaimed(JOB_HITBOX_RAYS, rays.count, 0, store.characterCount, 0, (from, to) => castHitboxRange(hits, store, grid, rays, from, to));
      return hitCount(hits, rays.count);
    },
    castAt(hits, store, history, rays, times, order, frameOf) {
      if (!allShared(store, HITBOX_ARRAYS) || !isShared(history.time) || !allShared(rays, RAY_BATCH_ARRAYS) || !allShared(hits, HIT_ARRAYS)) return -1;
      const n = rays.count;
      shareStore(store);
      shareAll(pool, 'rays', rays, RAY_BATCH_ARRAYS);
      shareAll(pool, 'hits', hits, HIT_ARRAYS);
      historyParams = grown(historyParams, HISTORY_PARAM_SLOTS + HISTORY_SLOT_PARAMS * history.frames);
      if (historyBindingNames.length !== history.frames) historyBindingNames = historyNames(history.frames);
      shareHistory(pool, history, historyParams, historyBindingNames);
      rewound.order = grown(rewound.order, n);
      rewound.frameOf = grown(rewound.frameOf, n);
      rewound.times = grown(rewound.times, n);
      rewound.order.set(order.subarray(0, n));
      rewound.frameOf.set(frameOf.subarray(0, n));
      for (let i = 0; i < n; i++) rewound.times[i] = times[i];
      shareAll(pool, 'rewound', rewound, REWOUND_BATCH_ARRAYS);
      const { order: o, frameOf: f, times: t } = rewound;
      pool.runClaimed(JOB_HITBOX_RAYS_AT, n, 0, store.characterCount, 0, (from, to) => castHitboxRange(hits, store, undefined, rays, from, to, history, t, o, f));
      return hitCount(hits, n);
    },
  };
}
