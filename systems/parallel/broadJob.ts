/**
 * The spatial hash on the worker pool (the grid lives on SharedArrayBuffers). The frame's dynamic
 * boxes are sorted by lower x in three radix passes, each split in two jobs: every thread counts
 * the digits of a run of the boxes, the calling thread turns the counts into each run's places,
 * and every thread moves its run. Then each thread classifies a run of them by level, and the
 * calling thread merges the per-level counts, widths and column spans. The bucket fill's counting
 * sort runs in two jobs, each thread counting then placing the entries of a run of the boxes, with
 * the calling thread turning the counts into each thread's places between them (the same layout
 * as one thread's). Then every thread scans its part of the grid (scanPart: a run of the buckets
 * and a run of the boxes) and sorts its pairs, the workers into their own runs of a shared pair
 * buffer, and the calling thread merges their runs into its own: the candidates are the same, in
 * the same order, as on one thread. Every job's runs are where the pool's split puts them. */
import { allocate } from '../../src/sharedMemory';
import type { BroadPhaseInput } from '../../src/broadphase/broadPhase';
import { PairList } from '../../src/broadphase/pairList';
import { scanPart, type ColumnGrid, type ScanSplitter } from '../../src/broadphase/spatialHash';
import { FLOAT32_ORDER_DIGITS, FLOAT32_ORDER_RADIX, float32OrderPass, type Float32Order } from '../../src/broadphase/float32Order';
import { mergeGridCounts, mergeGridLevels, mergeSortedPairs, sortPairsAfter } from '../../src/broadphase/splitGrid';
import { radixCount, radixPlaces, radixScatter } from '../../src/broadphase/radixPass';
import { bindingNamesOf, shareAll, type WorkerPool } from './pool';
import { JOB_BROAD, JOB_BUCKET_COUNT, JOB_BUCKET_FILL, JOB_CLASSIFY, JOB_SORT_COUNT, JOB_SORT_SCATTER, MAX_WORKERS, partStart } from './protocol';

/** Slots of BroadBuffers.scalars: the grid's counts, then each worker's pair capacity. */
const SCALAR_BOXES = 0, SCALAR_SLOTS = 1, SCALAR_BOTTOM = 2, SCALAR_TOP = 3, SCALAR_CAPACITY = 4, SCALAR_MAX_CELLS = 5;
/** Room per part for a grid's per-level counts (a grid has fewer levels). */
const LEVEL_SLOTS = 32;
/** Pairs each worker's run of the buffer starts with; past the most a part found it grows to twice that (so small first: a large scene grows it in its first frame). */
const INITIAL_PAIR_CAPACITY = 64;

/** The broad-phase job's shared buffers. */
export interface BroadBuffers {
  /** See the SCALAR_* slots. */
  scalars: Int32Array;
  /** Per part: pairs found, entries passed. */
  results: Float64Array;
  /** The workers' pairs: worker w (part w + 1) writes [w * capacity, w * capacity + its count). */
  pairA: Uint32Array;
  pairB: Uint32Array;
  /** Per part: its bucket counts, then its places (see mergeGridCounts); in the sort, its digit counts, then places. */
  counts: Int32Array[];
  /** Per part, LEVEL_SLOTS each: the boxes it put on each level and the widest of them. */
  levelBoxes: Int32Array;
  levelWidthX: Float64Array;
}

/** Names of the broad-phase job's arrays: its buffers, the grid's arrays the scans read, the input's. */
export const BROAD_ARRAYS = ['scalars', 'results', 'pairA', 'pairB', 'levelBoxes', 'levelWidthX'] as const;
export const GRID_ARRAYS = [
  'boxLowerX', 'columnLo', 'boxLevel', 'columnN', 'levelInv', 'levelBoxes', 'levelWidthX', 'bucketStart', 'entryId', 'entryColumn', 'entryLevel', 'entryFirst', 'entryLowerX',
] as const;
export const INPUT_ARRAYS = ['boxes', 'isStatic', 'layer', 'mask'] as const;
/** Names of the parts' count arrays (`counts0`, ...), as many as a pool's threads can be. */
const COUNT_NAMES = Array.from({ length: MAX_WORKERS + 1 }, (_, part) => `counts${part}`);

/** Empty buffers for `workers` workers, on SharedArrayBuffers. */
export function createBroadBuffers(workers: number): BroadBuffers {
  const bb: BroadBuffers = {
    scalars: allocate(Int32Array, 8, true),
    results: allocate(Float64Array, 2 * (workers + 1), true),
    pairA: allocate(Uint32Array, 0, true),
    pairB: allocate(Uint32Array, 0, true),
    counts: Array.from({ length: workers + 1 }, () => allocate(Int32Array, 0, true)),
    levelBoxes: allocate(Int32Array, LEVEL_SLOTS * (workers + 1), true),
    levelWidthX: allocate(Float64Array, LEVEL_SLOTS * (workers + 1), true),
  };
  reservePairs(bb, workers, INITIAL_PAIR_CAPACITY);
  return bb;
}

function reservePairs(bb: BroadBuffers, workers: number, capacity: number): void {
  bb.scalars[SCALAR_CAPACITY] = capacity;
  bb.pairA = allocate(Uint32Array, workers * capacity, true);
  bb.pairB = allocate(Uint32Array, workers * capacity, true);
}

/** Hands the job's arrays to the pool (sent again only when one was replaced). */
function shareBroadArrays(pool: WorkerPool, bb: BroadBuffers, grid: ColumnGrid, input: BroadPhaseInput): void {
  shareAll(pool, 'broad', bb, BROAD_ARRAYS);
  const countNames = bindingNamesOf('broad', COUNT_NAMES);
  for (let part = 0; part < bb.counts.length; part++) pool.share(countNames[part], bb.counts[part]);
  shareAll(pool, 'grid', grid, GRID_ARRAYS);
  const order = grid.byLowerX;
  pool.share('grid.order', order.order);
  pool.share('sort.mapped', order.mapped);
  pool.share('sort.scratchMapped', order.scratchMapped);
  pool.share('sort.scratchOrder', order.scratchOrder);
  shareAll(pool, 'input', input, INPUT_ARRAYS);
}

/**
 * A worker's part of the scans: the grid's counts from the buffers, its pairs into `local`, then
 * into its run of the shared buffer when they fit (else only their count: the calling thread
 * scans that part again).
 */
export function broadWorkerPart(grid: ColumnGrid, input: BroadPhaseInput, bb: BroadBuffers, local: PairList, part: number, bounds: ArrayLike<number>): void {
  const s = readGridCounts(grid, bb);
  local.clear();
  const passed = scanPart(grid, input, local, part, bounds);
  local.sort();
  const n = local.count, capacity = s[SCALAR_CAPACITY];
  if (n <= capacity) {
    const base = (part - 1) * capacity;
    bb.pairA.set(local.a.subarray(0, n), base);
    bb.pairB.set(local.b.subarray(0, n), base);
  }
  bb.results[2 * part] = n;
  bb.results[2 * part + 1] = passed;
}

/** The grid's counts from the buffers (a worker's grid has the calling thread's arrays, not its fields). */
function readGridCounts(grid: ColumnGrid, bb: BroadBuffers): Int32Array {
  const s = bb.scalars;
  grid.count = s[SCALAR_BOXES];
  grid.slots = s[SCALAR_SLOTS];
  grid.bottom = s[SCALAR_BOTTOM];
  grid.top = s[SCALAR_TOP];
  return s;
}

function writeGridCounts(grid: ColumnGrid, bb: BroadBuffers): void {
  const s = bb.scalars;
  s[SCALAR_BOXES] = grid.count;
  s[SCALAR_SLOTS] = grid.slots;
  s[SCALAR_BOTTOM] = grid.bottom;
  s[SCALAR_TOP] = grid.top;
}

/** A thread's part of radix pass `pass` of the sort by lower x: step 0 counts its run's digits (into its counts), step 1 moves the run to its places. */
export function sortPart(order: Float32Order, bb: BroadBuffers, pass: number, step: number, part: number, bounds: ArrayLike<number>): void {
  const count = bb.scalars[SCALAR_BOXES], from = partStart(count, bounds, part), to = partStart(count, bounds, part + 1);
  const [shift, bits] = FLOAT32_ORDER_DIGITS[pass];
  const arrays = float32OrderPass(order, pass);
  if (step === 0) radixCount(arrays[0], shift, bits, from, to, bb.counts[part]);
  else radixScatter(arrays[0], shift, bits, from, to, bb.counts[part], arrays[0], arrays[1], arrays[2], arrays[3]);
}

/** A thread's part of the classification: its run of the boxes, its level counts and widths into its slots; its entries into the results. */
export function classifyPart(grid: ColumnGrid, input: BroadPhaseInput, bb: BroadBuffers, part: number, bounds: ArrayLike<number>): void {
  readGridCounts(grid, bb);
  const levels = grid.levelBoxes.length, at = part * LEVEL_SLOTS;
  const levelBoxes = bb.levelBoxes.subarray(at, at + levels), levelWidthX = bb.levelWidthX.subarray(at, at + levels);
  levelBoxes.fill(0);
  levelWidthX.fill(0);
  const entries = grid.classifyRange(input.boxes, bb.scalars[SCALAR_MAX_CELLS], partStart(grid.count, bounds, part), partStart(grid.count, bounds, part + 1), levelBoxes, levelWidthX);
  bb.results[2 * part] = entries;
}

/** A thread's part of the bucket fill: pass 0 counts the entries of its run of boxes (into zeroed counts), pass 1 places them. */
export function fillPart(grid: ColumnGrid, bb: BroadBuffers, pass: number, part: number, bounds: ArrayLike<number>): void {
  readGridCounts(grid, bb);
  const counts = bb.counts[part];
  if (pass === 0) counts.fill(0, 0, grid.slots + 1);
  grid.fillBuckets(pass, counts, partStart(grid.count, bounds, part), partStart(grid.count, bounds, part + 1));
}

/** The bucket fill and scans of grids of at least `state.minBroad` dynamic boxes, split between the pool's threads. */
export function createScanSplitter(pool: WorkerPool, state: { minBroad: number }): ScanSplitter {
  const workers = pool.workerCount, parts = workers + 1;
  const bb = createBroadBuffers(workers);
  /** A part scanned again here when its worker's pairs did not fit its run of the buffer; then the frame's other pairs, sorted apart. */
  const rescanned = new PairList();
  /** Receives each merge of sorted pairs, then exchanges contents with the list merged into. */
  const merged = new PairList();
  /** Room in each part's counts for `n` buckets or digits. */
  const reserveCounts = (n: number) => {
    for (let part = 0; part < parts; part++) {
      if (bb.counts[part].length < n) bb.counts[part] = allocate(Int32Array, Math.max(2 * bb.counts[part].length, n), true);
    }
  };
  return {
    // The split hash merges every part's counts and pairs: only with the workers running.
    splits: (dynamics) => dynamics >= state.minBroad && pool.workersRunning,
    sort(grid: ColumnGrid, input: BroadPhaseInput, tags: ArrayLike<number>): void {
      const order = grid.byLowerX;
      order.prepare(grid.count, tags);
      reserveCounts(FLOAT32_ORDER_RADIX);
      writeGridCounts(grid, bb);
      shareBroadArrays(pool, bb, grid, input);
      // Each pass's count and moves cover the same runs: one split, rebalanced before the first pass only.
      const split = pool.splitOf(JOB_SORT_SCATTER);
      for (let pass = 0; pass < FLOAT32_ORDER_DIGITS.length; pass++) {
        pool.run(JOB_SORT_COUNT, parts, 0, pass, 0, () => sortPart(order, bb, pass, 0, 0, split.bounds), split, pass === 0);
        radixPlaces(bb.counts, parts, FLOAT32_ORDER_DIGITS[pass][1]);
        pool.run(JOB_SORT_SCATTER, parts, 0, pass, 0, () => sortPart(order, bb, pass, 1, 0, split.bounds), split, false);
      }
    },
    classify(grid: ColumnGrid, input: BroadPhaseInput, maxCells: number): number {
      writeGridCounts(grid, bb);
      bb.scalars[SCALAR_MAX_CELLS] = maxCells;
      shareBroadArrays(pool, bb, grid, input);
      const split = pool.splitOf(JOB_CLASSIFY);
      pool.run(JOB_CLASSIFY, parts, 0, 0, 0, () => classifyPart(grid, input, bb, 0, split.bounds), split);
      let entries = 0;
      for (let part = 0; part < parts; part++) entries += bb.results[2 * part];
      mergeGridLevels(grid, bb.levelBoxes, bb.levelWidthX, LEVEL_SLOTS, parts);
      return entries;
    },
    fill(grid: ColumnGrid, input: BroadPhaseInput): void {
      reserveCounts(grid.slots + 1);
      writeGridCounts(grid, bb);
      shareBroadArrays(pool, bb, grid, input);
      // Both passes cover the same runs of boxes: the fill's split, kept between them.
      const split = pool.splitOf(JOB_BUCKET_FILL);
      pool.run(JOB_BUCKET_COUNT, parts, 0, 0, 0, () => fillPart(grid, bb, 0, 0, split.bounds), split);
      mergeGridCounts(grid, bb.counts, parts);
      pool.run(JOB_BUCKET_FILL, parts, 0, 0, 0, () => fillPart(grid, bb, 1, 0, split.bounds), split, false);
    },
    scan(grid: ColumnGrid, input: BroadPhaseInput, out: PairList): number {
      const s = bb.scalars;
      writeGridCounts(grid, bb);
      shareBroadArrays(pool, bb, grid, input);
      let passed = 0;
      const split = pool.splitOf(JOB_BROAD);
      pool.run(JOB_BROAD, parts, 0, 0, 0, () => {
        passed = scanPart(grid, input, out, 0, split.bounds);
        out.sort();
      }, split);
      const capacity = s[SCALAR_CAPACITY];
      let most = 0;
      for (let part = 1; part < parts; part++) {
        const n = bb.results[2 * part];
        passed += bb.results[2 * part + 1];
        most = Math.max(most, n);
        if (n > capacity) {
          // The worker's run was too short: this part again, here.
          rescanned.clear();
          scanPart(grid, input, rescanned, part, split.bounds);
          rescanned.sort();
          mergeSortedPairs(out, merged, rescanned.a, rescanned.b, 0, rescanned.count);
          continue;
        }
        const base = (part - 1) * capacity;
        mergeSortedPairs(out, merged, bb.pairA, bb.pairB, base, base + n);
      }
      if (most > capacity) reservePairs(bb, workers, 2 ** Math.ceil(Math.log2(2 * most)));
      return passed;
    },
    sortAfter(out: PairList, sorted: number): void {
      sortPairsAfter(out, sorted, rescanned, merged);
    },
  };
}
