/**
 * Hierarchical grid of columns stored as a spatial hash, rebuilt every frame: a sort-and-sweep
 * along x inside each column of a grid over (y, z). Level 0 has columns of the base cell size,
 * each level above twice as wide. Each box goes to the lowest level where it covers at most
 * `maxCellsPerBox` cells (counting x too, so a level's boxes are also bounded in x) and is
 * entered in every column it covers there, so boxes of any mix of sizes cost a few entries each.
 * Boxes are entered in order of their lower x bound (a radix sort per frame), so each bucket
 * lists them by lower x: a box's scan of its bucket stops at the first box starting beyond its
 * upper x, which does the work that cells along x would do, without entering a box once per x
 * cell. Pairs of one level meet in a shared column; a box also looks up the columns it covers on
 * every coarser level in use, to meet larger boxes, starting its scan there by binary search at
 * the lowest x where a box of that level can still reach it. Boxes beyond the top level (or
 * beyond int32 column coordinates) go to an "oversize" list tested against everything. Entries
 * are bucketed by hash with a counting sort into flat arrays (no per-frame allocation). A pair
 * sharing several columns is reported only from the column holding the lower (y, z) corner of
 * the two boxes' intersection, which both boxes cover, so no hash set of reported pairs is
 * needed. The cell size adapts from frame to frame to the density of the scene.
 *
 * Static proxies have a grid of their own (same structure, own cell size), rebuilt only when the
 * statics change; every dynamic box looks up its columns on each of that grid's levels, so two
 * statics are never tested against each other and an unchanged level costs no rebuild.
 *
 * With a worker pool, the dynamic grid's sort, classification, bucket fill and scans run in parts,
 * one per thread (see ScanSplitter), merged (splitGrid.ts) into exactly the single-thread grid and
 * pairs.
 *
 * One file, one structure: the column grid, its per-frame build and the scans that read it share
 * the bucket layout and the scratch arrays, and split apart they would only pass those around.
 */
import { CollideInputError, assertOptions } from '../errors';
import { aabbOverlap } from '../volumes/aabb';
import { float32Below } from '../float32';
import { reportPair, type BroadPhase, type BroadPhaseInput } from './broadPhase';
import { grown } from './growable';
import { Float32Order } from './float32Order';
import type { PairList } from './pairList';
import { selectByKey } from './sortByKey';
import { StaticSplit } from './staticSplit';
import { HASH_WINDOW_SLACK } from '../tolerances';
import { allocate } from '../sharedMemory';

/** Options of `createSpatialHash`. */
export interface SpatialHashOptions {
  /** Fixed cell edge; when omitted, `cellSizeFactor` times the median largest box side of the frame (over an evenly spaced sample of 63 boxes). */
  cellSize?: number;
  /**
   * Cell edge relative to the median largest box side, fixed. When omitted it adapts from frame
   * to frame (starting at 2), trading entries (fewer with wide columns) against the boxes each
   * scan passes (fewer with narrow ones): sparse scenes settle on wider columns, dense ones on
   * narrower. The static grid uses the starting factor (or this one) on the static boxes' sizes.
   */
  cellSizeFactor?: number;
  /** Boxes covering more cells than this on a level go up a level (default 64). */
  maxCellsPerBox?: number;
}

/** Work counters of a spatial hash's last `findPairs`, for tests and tuning. */
export interface SpatialHashStatistics {
  /** Box tests made: every entry a scan passes (each is tested, branch-free), plus one per column looked up on another level or grid. */
  boxTests: number;
  /** Whether the static grid was rebuilt (the static set or a static box changed since the last frame). */
  staticRebuilt: boolean;
}

/**
 * Runs a frame's dynamic grid's sort, classification, bucket fill and scans on several threads:
 * `sort` and `classify` inside the grid's `layOut`, `fill` after it (each part running fillBuckets on a run
 * of the boxes, with `mergeCounts` between the passes), `scan` over the parts of `scanPart`,
 * leaving every part's pairs in `out`, sorted (each part sorts its own, then they are merged), and
 * returning the entries the parts passed, summed.
 */
export interface ScanSplitter {
  /** Whether a frame with `dynamics` dynamic boxes is split. */
  splits(dynamics: number): boolean;
  /** The boxes' sort by lower x: `grid.byLowerX.sort(grid.count, tags)`, its passes split (the keys are written). */
  sort(grid: ColumnGrid, input: BroadPhaseInput, tags: ArrayLike<number>): void;
  /** The grid's classification (classifyRange over runs of the boxes, per-part level counts and widths merged into the grid's); returns the entries. */
  classify(grid: ColumnGrid, input: BroadPhaseInput, maxCells: number): number;
  fill(grid: ColumnGrid, input: BroadPhaseInput): void;
  scan(grid: ColumnGrid, input: BroadPhaseInput, out: PairList): number;
  /** Sorts the pairs of `out` from `sorted` on (those before are sorted) and merges them with the others. */
  sortAfter(out: PairList, sorted: number): void;
}

/** A spatial-hash broad phase, with the work counters of its last frame; box queries read its grids. */
export interface SpatialHash extends BroadPhase {
  /** Work counters of the last `findPairs`, for tests and tuning. */
  readonly statistics: SpatialHashStatistics;
  /**
   * @internal The worker pool's splitter of the scans (undefined: one thread). With one, both
   * grids live on SharedArrayBuffers, for the worker threads to read.
   */
  splitScans(splitter: ScanSplitter | undefined): void;
  /**
   * @internal The grids of the last `findPairs` that hold its boxes ([static, dynamic], undefined
   * for one that holds none), for box queries (gridQuery.ts). The same array each call.
   */
  lastGrids(): readonly (ColumnGrid | undefined)[];
}

/** Whether broad phase `b` is a spatial hash, whose grids box queries read. */
export function hasGrids(b: BroadPhase): b is SpatialHash {
  return typeof (b as Partial<SpatialHash>).lastGrids === 'function';
}

// Large odd multipliers for mixing column coordinates (Teschner et al. 2003).
const HASH_Y = 19349663;
const HASH_Z = 83492791;
const HASH_LEVEL = 2654435761;
/** Levels of the hierarchy: cells up to 2^20 times the base size; larger boxes are oversize. */
const LEVELS = 21;
/**
 * Hash table slots per column in use (at least): keeps unrelated columns mostly in separate
 * buckets. The columns in use are bounded by the entries and by the levels in use times the
 * columns the boxes' column coordinates span (exact for one level, more with several), far fewer
 * in a scene many columns long in x: a table sized by the columns stays in cache where one sized
 * by the entries would not.
 */
const SLOTS_PER_COLUMN = 2;
/** Boxes sampled for the median box size that sets the cell edge (the adaptive factor absorbs the estimate's error). */
export const CELL_SIZE_SAMPLES = 63;
/** Default of `maxCellsPerBox`. */
export const DEFAULT_MAX_CELLS = 64;
/** Starting cell factor, and the static grid's. */
export const DEFAULT_CELL_FACTOR = 2;
/** Limits and step of the adaptive cell factor. */
const MIN_CELL_FACTOR = 0.5;
const MAX_CELL_FACTOR = 8;
const CELL_FACTOR_STEP = 1.25;
/**
 * Cost of one entry passed in a bucket scan, in entries (an entry costs its hash, two fill passes
 * and its scan's setup): the adaptive cell factor minimises entries + SCAN_WEIGHT * entries
 * passed, cross-level lookups counting one pass each besides their scans. 0.25-1 measured alike.
 */
const SCAN_WEIGHT = 0.5;
/** Column coordinates must fit int32 to be stored and hashed exactly; farther boxes count as oversize. */
export const MAX_CELL_COORD = 2 ** 31 - 1;
/** `ColumnGrid.pairsWithAll` level meaning all levels. */
const ANY_LEVEL = -1;

export function columnHash(iy: number, iz: number, level: number, slotMask: number): number {
  return (Math.imul(iy, HASH_Y) ^ Math.imul(iz, HASH_Z) ^ Math.imul(level, HASH_LEVEL)) & slotMask;
}

/**
 * 1 when the closed box at `b` meets [ax0, ax1] × [ay0, ay1] × [az0, az1], else 0, without a
 * branch. The scans combine it with their column tests into one branch: those outcomes depend on
 * the data, and a short-circuit chain of them mispredicted often enough to cost about 10% of the
 * broad phase (measured at 2,000 and 10,000 boxes, alone and between the peers' frames).
 */
export function boxesMeet(boxes: ArrayLike<number>, b: number, ax0: number, ay0: number, az0: number, ax1: number, ay1: number, az1: number): number {
  return +(boxes[b] <= ax1) & +(boxes[b + 3] >= ax0) & +(boxes[b + 1] <= ay1) & +(boxes[b + 4] >= ay0) & +(boxes[b + 2] <= az1) & +(boxes[b + 5] >= az0);
}

/**
 * Median largest box side of `ids` times `factor`, over an evenly spaced sample of the boxes (the
 * cell size only tunes speed; pairs are exact whatever it is). Falls back to the boxes' spread
 * when the sampled boxes are points.
 */
export function derivedCellSize(boxes: ArrayLike<number>, ids: ArrayLike<number>, count: number, factor: number, sides: Float64Array, sideTags: Int32Array): number {
  const samples = Math.min(count, CELL_SIZE_SAMPLES);
  for (let s = 0; s < samples; s++) {
    const o = ids[Math.floor((s * count) / samples)] * 6;
    sides[s] = Math.max(boxes[o + 3] - boxes[o], boxes[o + 4] - boxes[o + 1], boxes[o + 5] - boxes[o + 2]);
    sideTags[s] = s;
  }
  const mid = samples >>> 1;
  selectByKey(sides, sideTags, 0, samples, mid);
  const size = factor * sides[mid];
  if (size > 0 && Number.isFinite(size)) return size;
  // Mostly points: aim at a few boxes per cell over the boxes' extent.
  let sceneMin = Infinity;
  let sceneMax = -Infinity;
  for (let i = 0; i < count; i++) {
    const o = ids[i] * 6;
    sceneMin = Math.min(sceneMin, boxes[o], boxes[o + 1], boxes[o + 2]);
    sceneMax = Math.max(sceneMax, boxes[o + 3], boxes[o + 4], boxes[o + 5]);
  }
  const spread = (sceneMax - sceneMin) / Math.cbrt(count);
  return spread > 0 && Number.isFinite(spread) ? spread : 1;
}

/**
 * One hierarchical grid of columns over a set of boxes (ids into a shared box array), built in one
 * go: the boxes sorted by lower x, each put on its level and entered in the columns it covers
 * there, the entries bucketed by column hash. The pair searches read it; nothing persists
 * between builds but pooled storage.
 */
export class ColumnGrid {
  /** Boxes in the grid; by rank in lower-x order (ids in `byLowerX.order`): lower x key, level, first column (y, z) and column counts there (-1 count: oversize). */
  count = 0;
  readonly byLowerX: Float32Order;
  boxLowerX: Float32Array;
  boxLevel: Uint8Array;
  columnLo: Int32Array;
  columnN: Int32Array;
  /** Inverse cell size per level (each half the one below: exact, so every use floors alike). */
  levelInv: Float64Array;
  /** Boxes per level. */
  levelBoxes: Int32Array;
  /** Widest x extent of a box per level: how far below a box's lower x a box of that level can start and still reach it. */
  levelWidthX: Float64Array;
  /** Lowest and highest level holding boxes (top < bottom: none). */
  bottom = 0;
  top = -1;
  /** Hash buckets: after a build, bucketStart[h] is the end of bucket h (the start of h + 1). */
  slots = 0;
  bucketStart: Int32Array;
  entries = 0;
  entryId: Int32Array;
  entryColumn: Int32Array; // (y, z) per entry
  entryLevel: Uint8Array;
  /**
   * Per entry, bit 0 (y) and bit 1 (z) set when its column is the box's first on that axis. The
   * lower (y, z) corner of two boxes' intersection lies in column max(first of a, first of b) on
   * each axis, so a column both boxes cover holds that corner exactly when, on both axes, it is
   * the first column of one of them.
   */
  entryFirst: Uint8Array;
  /** Per entry, its box's lower x bound rounded down to Float32: the sort key, where bucket scans stop. */
  entryLowerX: Float32Array;
  /** Oversize boxes (beyond the top level or int32 column coordinates), by id. */
  oversize: Int32Array;
  oversizeCount = 0;

  /** An empty grid; with `shared`, the arrays the scans read live on SharedArrayBuffers (and stay there as they grow). */
  constructor(shared = false) {
    this.byLowerX = new Float32Order(shared);
    this.boxLowerX = allocate(Float32Array, 0, shared);
    this.boxLevel = allocate(Uint8Array, 0, shared);
    this.columnLo = allocate(Int32Array, 0, shared);
    this.columnN = allocate(Int32Array, 0, shared);
    this.levelInv = allocate(Float64Array, LEVELS, shared);
    this.levelBoxes = allocate(Int32Array, LEVELS, shared);
    this.levelWidthX = allocate(Float64Array, LEVELS, shared);
    this.bucketStart = allocate(Int32Array, 0, shared);
    this.entryId = allocate(Int32Array, 0, shared);
    this.entryColumn = allocate(Int32Array, 0, shared);
    this.entryLevel = allocate(Uint8Array, 0, shared);
    this.entryFirst = allocate(Uint8Array, 0, shared);
    this.entryLowerX = allocate(Float32Array, 0, shared);
    this.oversize = allocate(Int32Array, 0, shared);
  }

  build(boxes: ArrayLike<number>, ids: ArrayLike<number>, count: number, inv: number, maxCells: number): void {
    this.layOut(boxes, ids, count, inv, maxCells);
    const starts = this.bucketStart;
    starts.fill(0, 0, this.slots + 1);
    this.fillBuckets(0, starts, 0, count);
    // Prefix sums: bucketStart[h] becomes the start of bucket h; the fill pass advances it to the end.
    for (let h = 1; h <= this.slots; h++) starts[h] += starts[h - 1];
    this.fillBuckets(1, starts, 0, count);
  }

  /**
   * A build but the bucket fill: the boxes sorted, classified (all in one go, or by `split` in
   * parts with classifyRange; `input` is what the split's parts read), the hash table sized, the
   * entry arrays grown.
   */
  layOut(boxes: ArrayLike<number>, ids: ArrayLike<number>, count: number, inv: number, maxCells: number, split?: ScanSplitter, input?: BroadPhaseInput): void {
    this.count = count;
    this.boxLowerX = grown(this.boxLowerX, count);
    this.boxLevel = grown(this.boxLevel, count);
    this.columnLo = grown(this.columnLo, 2 * count);
    this.columnN = grown(this.columnN, 2 * count);
    this.oversize = grown(this.oversize, count);
    const byLowerX = this.byLowerX;
    byLowerX.reserve(count);
    const keys = byLowerX.keys;
    for (let i = 0; i < count; i++) keys[i] = float32Below(boxes[ids[i] * 6]);
    if (split !== undefined) split.sort(this, input!, ids);
    else byLowerX.sort(count, ids);
    this.startClassify(inv);
    const entries = split !== undefined ? split.classify(this, input!, maxCells) : this.classifyRange(boxes, maxCells, 0, count, this.levelBoxes, this.levelWidthX);
    this.finishLayOut(entries);
  }


  /**
   * Puts each box of ranks [from, to) on its level and computes its column range there (count -1:
   * oversize), counting the boxes per level into `levelBoxes` and the widest per level into
   * `levelWidthX`. Returns the boxes' (box, column) entries. `levelInv` must be set.
   */
  classifyRange(boxes: ArrayLike<number>, maxCells: number, from: number, to: number, levelBoxes: Int32Array, levelWidthX: Float64Array): number {
    const { levelInv, boxLowerX, boxLevel, columnLo, columnN } = this;
    let entries = 0;
    const sortedIds = this.byLowerX.order;
    for (let i = from; i < to; i++) {
      const id = sortedIds[i];
      const o = id * 6;
      // The sort key again, from the box this loop reads anyway (cheaper than gathering the keys).
      boxLowerX[i] = float32Below(boxes[o]);
      let cells = Infinity;
      let level = 0;
      for (; level < LEVELS; level++) {
        const li = levelInv[level];
        cells = Math.floor(boxes[o + 3] * li) - Math.floor(boxes[o] * li) + 1;
        for (let k = 1; k < 3; k++) {
          const lo = Math.floor(boxes[o + k] * li);
          const hi = Math.floor(boxes[o + 3 + k] * li);
          if (!(lo >= -MAX_CELL_COORD && hi <= MAX_CELL_COORD)) cells = Infinity;
          columnLo[i * 2 + k - 1] = lo;
          columnN[i * 2 + k - 1] = hi - lo + 1;
          cells *= hi - lo + 1;
        }
        if (cells <= maxCells) break;
      }
      if (!(cells <= maxCells)) {
        columnN[i * 2] = -1;
      } else {
        boxLevel[i] = level;
        levelBoxes[level]++;
        const width = boxes[o + 3] - boxes[o];
        if (width > levelWidthX[level]) levelWidthX[level] = width;
        entries += columnN[i * 2] * columnN[i * 2 + 1];
      }
    }
    return entries;
  }


  /** Sets the inverse cell sizes of the levels and clears their counts, before classifyRange. */
  startClassify(inv: number): void {
    for (let l = 0; l < LEVELS; l++) this.levelInv[l] = inv * 2 ** -l;
    this.levelBoxes.fill(0);
    this.levelWidthX.fill(0);
  }

  /**
   * After classifyRange covered every box (`entries` of them in all): lists the oversize boxes
   * (in rank order), finds the levels in use and the span of the column coordinates, and sizes
   * the hash table and entry arrays.
   */
  finishLayOut(entries: number): void {
    const { columnN, columnLo, oversize, levelBoxes } = this, sortedIds = this.byLowerX.order;
    let oversizeCount = 0, y0 = Infinity, y1 = -Infinity, z0 = Infinity, z1 = -Infinity;
    for (let i = 0; i < this.count; i++) {
      const ny = columnN[i * 2];
      if (ny < 0) {
        oversize[oversizeCount++] = sortedIds[i];
        continue;
      }
      y0 = Math.min(y0, columnLo[i * 2]);
      y1 = Math.max(y1, columnLo[i * 2] + ny);
      z0 = Math.min(z0, columnLo[i * 2 + 1]);
      z1 = Math.max(z1, columnLo[i * 2 + 1] + columnN[i * 2 + 1]);
    }
    this.entries = entries;
    this.oversizeCount = oversizeCount;
    let top = LEVELS - 1;
    while (top >= 0 && levelBoxes[top] === 0) top--;
    let bottom = 0;
    while (bottom < top && levelBoxes[bottom] === 0) bottom++;
    this.top = top;
    this.bottom = bottom;
    let slots = 16;
    while (slots < SLOTS_PER_COLUMN * Math.min(entries, (top - bottom + 1) * (y1 - y0) * (z1 - z0))) slots *= 2;
    this.slots = slots;
    this.bucketStart = grown(this.bucketStart, slots + 1);
    this.entryId = grown(this.entryId, entries);
    this.entryColumn = grown(this.entryColumn, 2 * entries);
    this.entryFirst = grown(this.entryFirst, entries);
    this.entryLevel = grown(this.entryLevel, entries);
    this.entryLowerX = grown(this.entryLowerX, entries);
  }

  /**
   * Counting sort (stable, boxes taken by lower x) of the (box, column) entries of the boxes of
   * ranks [from, to) into hash buckets: pass 0 counts bucket h's entries in counts[h + 1], pass 1
   * puts each entry at counts[h] and advances it.
   */
  fillBuckets(pass: number, counts: Int32Array, from: number, to: number): void {
    const { columnLo, columnN, boxLevel, boxLowerX, entryId, entryColumn, entryFirst, entryLevel, entryLowerX } = this;
    const sortedIds = this.byLowerX.order, slotMask = this.slots - 1;
    for (let i = from; i < to; i++) {
      const ny = columnN[i * 2];
      if (ny < 0) continue;
      const nz = columnN[i * 2 + 1];
      const y0 = columnLo[i * 2];
      const z0 = columnLo[i * 2 + 1];
      const id = sortedIds[i];
      const level = boxLevel[i];
      const x = boxLowerX[i];
      for (let b = 0; b < ny; b++) {
        for (let c = 0; c < nz; c++) {
          const h = columnHash(y0 + b, z0 + c, level, slotMask);
          if (pass === 0) {
            counts[h + 1]++;
          } else {
            const e = counts[h]++;
            entryId[e] = id;
            entryColumn[e * 2] = y0 + b;
            entryColumn[e * 2 + 1] = z0 + c;
            entryFirst[e] = (b === 0 ? 1 : 0) | (c === 0 ? 2 : 0);
            entryLevel[e] = level;
            entryLowerX[e] = x;
          }
        }
      }
    }
  }

  /**
   * Pairs of boxes that share a column of one level, from buckets [fromBucket, toBucket): each
   * entry scans the entries after it in its bucket up to the first that starts beyond its upper x,
   * keeping those of its own column and level. Returns the entries passed (the adaptive factor's
   * measure of scanning).
   */
  pairsInBuckets(input: BroadPhaseInput, out: PairList, fromBucket: number, toBucket: number): number {
    const boxes = input.boxes;
    // Locals, not fields: V8 then keeps them in registers across the loop.
    const columns = this.entryColumn, first = this.entryFirst, levels = this.entryLevel, ids = this.entryId, ends = this.bucketStart, lowerX = this.entryLowerX;
    let passed = 0;
    // After the fill pass ends[h] is the end of bucket h, i.e. the start of h + 1.
    let start = fromBucket > 0 ? ends[fromBucket - 1] : 0;
    for (let h = fromBucket; h < toBucket; h++) {
      const end = ends[h];
      for (let i = start; i < end - 1; i++) {
        const a = ids[i];
        const cy = columns[i * 2];
        const cz = columns[i * 2 + 1];
        const firstA = first[i];
        const level = levels[i];
        const ax0 = boxes[a * 6], ay0 = boxes[a * 6 + 1], az0 = boxes[a * 6 + 2];
        const ax1 = boxes[a * 6 + 3], ay1 = boxes[a * 6 + 4], az1 = boxes[a * 6 + 5];
        let j = i + 1;
        for (; j < end; j++) {
          // Entries come in lower-x order: once one starts beyond a's upper x, so do all after it.
          if (lowerX[j] > ax1) break;
          // Same column, this column owns the pair (see entryFirst: each pair is reported once),
          // and the boxes overlap; all tests in one branch (see boxesMeet).
          const b = ids[j] * 6;
          if ((+((firstA | first[j]) === 3) & +(columns[j * 2] === cy) & +(columns[j * 2 + 1] === cz) & +(levels[j] === level) &
            boxesMeet(boxes, b, ax0, ay0, az0, ax1, ay1, az1)) === 0) continue;
          reportPair(input, out, a, ids[j]);
        }
        passed += j - i - 1;
      }
      start = end;
    }
    return passed;
  }

  /** Index of the first entry of [from, to) whose lower-x key is >= x (entries are in key order). */
  /** @internal */
  firstEntryFrom(from: number, to: number, x: number): number {
    const lowerX = this.entryLowerX;
    let lo = from, hi = to;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (lowerX[mid] < x) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  /**
   * Pairs of box `a` (any box, in this grid or not) with this grid's boxes of level `level`: it
   * looks up the columns it covers there. The lower-corner rule applies as within a level, with
   * the box's first columns on that level standing in for its entry flags. A scan starts at the
   * first entry whose key is within the level's widest box below the box's lower x (with slack for
   * the keys' rounding): entries before it end before the box starts. Returns the entries passed
   * plus one per column looked up.
   */
  pairsOnLevel(input: BroadPhaseInput, out: PairList, a: number, level: number): number {
    const boxes = input.boxes, o = a * 6;
    const ax0 = boxes[o], ay0 = boxes[o + 1], az0 = boxes[o + 2];
    const ax1 = boxes[o + 3], ay1 = boxes[o + 4], az1 = boxes[o + 5];
    const columns = this.entryColumn, first = this.entryFirst, levels = this.entryLevel, bucketIds = this.entryId, ends = this.bucketStart, lowerX = this.entryLowerX;
    const slotMask = this.slots - 1;
    const li = this.levelInv[level];
    const reach = this.levelWidthX[level];
    const windowStart = ax0 - reach - (Math.abs(ax0) + reach) * HASH_WINDOW_SLACK;
    const y0 = Math.floor(ay0 * li), z0 = Math.floor(az0 * li);
    const y1 = Math.floor(ay1 * li), z1 = Math.floor(az1 * li);
    let passed = 0;
    for (let y = y0; y <= y1; y++) {
      for (let z = z0; z <= z1; z++) {
        const firstA = (y === y0 ? 1 : 0) | (z === z0 ? 2 : 0);
        const h = columnHash(y, z, level, slotMask);
        const end = ends[h];
        const from = this.firstEntryFrom(h > 0 ? ends[h - 1] : 0, end, windowStart);
        let e = from;
        for (; e < end; e++) {
          if (lowerX[e] > ax1) break;
          const b = bucketIds[e] * 6;
          if ((+((firstA | first[e]) === 3) & +(levels[e] === level) & +(columns[e * 2] === y) & +(columns[e * 2 + 1] === z) &
            boxesMeet(boxes, b, ax0, ay0, az0, ax1, ay1, az1)) === 0) continue;
          reportPair(input, out, a, bucketIds[e]);
        }
        passed += e - from + 1;
      }
    }
    return passed;
  }

  /**
   * Columns box `a` covers on `level` (a float: it may be astronomically many), or Infinity when
   * they do not fit int32 coordinates.
   */
  columnsOnLevel(boxes: ArrayLike<number>, a: number, level: number): number {
    const li = this.levelInv[level], o = a * 6;
    const y0 = Math.floor(boxes[o + 1] * li), z0 = Math.floor(boxes[o + 2] * li);
    const y1 = Math.floor(boxes[o + 4] * li), z1 = Math.floor(boxes[o + 5] * li);
    if (!(y0 >= -MAX_CELL_COORD && z0 >= -MAX_CELL_COORD && y1 <= MAX_CELL_COORD && z1 <= MAX_CELL_COORD)) return Infinity;
    return (y1 - y0 + 1) * (z1 - z0 + 1);
  }

  /** Pairs of the boxes of ranks [from, to) with the grid's larger boxes on coarser levels. Returns the entries passed. */
  crossLevelPairs(input: BroadPhaseInput, out: PairList, from: number, to: number): number {
    const top = this.top;
    if (this.bottom >= top) return 0;
    const sortedIds = this.byLowerX.order, columnN = this.columnN, boxLevel = this.boxLevel, levelBoxes = this.levelBoxes;
    let passed = 0;
    for (let i = from; i < to; i++) {
      if (columnN[i * 2] < 0) continue;
      for (let level = boxLevel[i] + 1; level <= top; level++) {
        if (levelBoxes[level] !== 0) passed += this.pairsOnLevel(input, out, sortedIds[i], level);
      }
    }
    return passed;
  }

  /** Pairs of box `a` with every box of level `level` (every box but the oversize ones for ANY_LEVEL), each tested directly. */
  pairsWithAll(input: BroadPhaseInput, out: PairList, a: number, level: number): void {
    const boxes = input.boxes, o = a * 6;
    const ax0 = boxes[o], ay0 = boxes[o + 1], az0 = boxes[o + 2];
    const ax1 = boxes[o + 3], ay1 = boxes[o + 4], az1 = boxes[o + 5];
    const sortedIds = this.byLowerX.order, columnN = this.columnN, boxLevel = this.boxLevel;
    for (let r = 0; r < this.count; r++) {
      if (columnN[r * 2] < 0 || (level !== ANY_LEVEL && boxLevel[r] !== level)) continue;
      const b = sortedIds[r];
      if (boxesMeet(boxes, b * 6, ax0, ay0, az0, ax1, ay1, az1) !== 0) reportPair(input, out, a, b);
    }
  }
}

/** Part bounds of a scan covering the whole grid. */
export const WHOLE_GRID: readonly number[] = [0, 1];

/**
 * Part `part` of the scans of a grid of dynamic boxes (pairs inside buckets, then pairs across
 * levels): of the buckets and of the boxes, the fractions [bounds[part], bounds[part + 1]) (the
 * last part's end 1). The parts together find each pair once, as one part covering everything
 * does. Returns the entries passed.
 */
export function scanPart(grid: ColumnGrid, input: BroadPhaseInput, out: PairList, part: number, bounds: ArrayLike<number>): number {
  const fromBucket = Math.floor(grid.slots * bounds[part]), toBucket = Math.floor(grid.slots * bounds[part + 1]);
  const fromBox = Math.floor(grid.count * bounds[part]), toBox = Math.floor(grid.count * bounds[part + 1]);
  return grid.pairsInBuckets(input, out, fromBucket, toBucket) + grid.crossLevelPairs(input, out, fromBox, toBox);
}

/**
 * Creates a spatial-hash broad phase. Static proxies live in a grid of their own, rebuilt only
 * when the static set or a static box changes (compared with a copy each frame); dynamic boxes
 * look it up, and statics are never tested against each other.
 */
export function createSpatialHash(options: SpatialHashOptions = {}): SpatialHash {
  assertOptions(options, ['cellSize', 'cellSizeFactor', 'maxCellsPerBox'], 'createSpatialHash');
  const fixedCell = options.cellSize;
  const adaptiveFactor = options.cellSizeFactor === undefined;
  let cellFactor = options.cellSizeFactor ?? DEFAULT_CELL_FACTOR;
  const staticFactor = cellFactor;
  const maxCells = options.maxCellsPerBox ?? DEFAULT_MAX_CELLS;
  if (fixedCell !== undefined && !(fixedCell > 0 && Number.isFinite(fixedCell))) {
    throw new CollideInputError(`createSpatialHash: cellSize must be positive and finite, got ${fixedCell}`);
  }
  if (!(cellFactor > 0 && Number.isFinite(cellFactor))) throw new CollideInputError(`createSpatialHash: cellSizeFactor must be positive, got ${cellFactor}`);
  if (!(maxCells >= 1)) throw new CollideInputError(`createSpatialHash: maxCellsPerBox must be >= 1, got ${maxCells}`);

  let dynamicGrid = new ColumnGrid();
  let splitter: ScanSplitter | undefined;
  let staticGrid = new ColumnGrid();
  /** Whether each grid holds the boxes of the last frame (a frame without dynamics leaves the dynamic grid stale). */
  let dynamicsQueryable = false;
  let staticsQueryable = false;
  const lastGrids: (ColumnGrid | undefined)[] = [undefined, undefined];
  const split = new StaticSplit();
  const sides = new Float64Array(CELL_SIZE_SAMPLES);
  const sideTags = new Int32Array(CELL_SIZE_SAMPLES);
  /** The adaptive factor's previous cost and direction. */
  let lastCost = Infinity;
  let factorDirection = 1;
  const statistics: SpatialHashStatistics = { boxTests: 0, staticRebuilt: false };

  /**
   * Next frame's cell factor, by hill climbing on this frame's cost per box (entries plus weighted
   * entries passed by scans, both counted, so the choice is deterministic): keep stepping while the cost
   * falls, turn back when it rises. Near the optimum the factor alternates between neighbouring
   * steps, where the cost curve is flat.
   */
  function adaptCellFactor(cost: number): void {
    if (cost > lastCost) factorDirection = -factorDirection;
    lastCost = cost;
    const next = factorDirection > 0 ? cellFactor * CELL_FACTOR_STEP : cellFactor / CELL_FACTOR_STEP;
    if (next < MIN_CELL_FACTOR || next > MAX_CELL_FACTOR) factorDirection = -factorDirection;
    else cellFactor = next;
  }

  /**
   * Pairs of every dynamic box with the static grid: its levels looked up column by column, or,
   * where a box would cover more columns than the level has boxes, that level's boxes tested
   * directly; oversize boxes of either side tested against all of the other. Returns box tests.
   */
  function dynamicStaticPairs(input: BroadPhaseInput, out: PairList): number {
    const boxes = input.boxes;
    const sortedIds = dynamicGrid.byLowerX.order, columnN = dynamicGrid.columnN;
    let tests = 0;
    for (let i = 0; i < dynamicGrid.count; i++) {
      const a = sortedIds[i];
      if (columnN[i * 2] < 0) {
        // An oversize dynamic box meets every static directly (the static oversize ones below).
        staticGrid.pairsWithAll(input, out, a, ANY_LEVEL);
        tests += staticGrid.count - staticGrid.oversizeCount;
        continue;
      }
      for (let level = staticGrid.bottom; level <= staticGrid.top; level++) {
        if (staticGrid.levelBoxes[level] === 0) continue;
        if (staticGrid.columnsOnLevel(boxes, a, level) > staticGrid.levelBoxes[level]) {
          staticGrid.pairsWithAll(input, out, a, level);
          tests += staticGrid.levelBoxes[level];
        } else {
          tests += staticGrid.pairsOnLevel(input, out, a, level);
        }
      }
    }
    for (let s = 0; s < staticGrid.oversizeCount; s++) {
      const a = staticGrid.oversize[s];
      for (let i = 0; i < dynamicGrid.count; i++) {
        const b = sortedIds[i];
        if (aabbOverlap(boxes, a * 6, boxes, b * 6)) reportPair(input, out, a, b);
      }
      tests += dynamicGrid.count;
    }
    return tests;
  }

  /** Pairs of each oversize dynamic box with every other dynamic box (oversize pairs from the lower id only). */
  function oversizePairs(input: BroadPhaseInput, out: PairList): number {
    const boxes = input.boxes, grid = dynamicGrid;
    const sortedIds = grid.byLowerX.order, columnN = grid.columnN;
    for (let s = 0; s < grid.oversizeCount; s++) {
      const a = grid.oversize[s];
      for (let i = 0; i < grid.count; i++) {
        const b = sortedIds[i];
        if (b === a || (columnN[i * 2] < 0 && b < a)) continue;
        if (aabbOverlap(boxes, a * 6, boxes, b * 6)) reportPair(input, out, a, b);
      }
    }
    return grid.oversizeCount * grid.count;
  }

  return {
    name: 'spatialHash',
    statistics,
    findPairs(input: BroadPhaseInput, out: PairList): void {
      out.clear();
      statistics.boxTests = 0;
      statistics.staticRebuilt = false;
      dynamicsQueryable = staticsQueryable = false;
      if (input.count === 0) return;
      const boxes = input.boxes;
      const staticsChanged = split.update(input);
      const { dynamicIds, staticIds } = split;
      if (staticsChanged) {
        const statics = split.staticCount;
        const inv = statics === 0 ? 1 : 1 / (fixedCell ?? derivedCellSize(boxes, staticIds, statics, staticFactor, sides, sideTags));
        staticGrid.build(boxes, staticIds, statics, inv, maxCells);
        statistics.staticRebuilt = true;
      }
      const dynamics = split.dynamicCount;
      staticsQueryable = split.staticCount > 0;
      dynamicsQueryable = dynamics > 0;
      // A split scan leaves its pairs sorted: the splitter sorts the other pairs after them and merges.
      let sorted = 0;
      if (dynamics > 0) {
        const inv = 1 / (fixedCell ?? derivedCellSize(boxes, dynamicIds, dynamics, cellFactor, sides, sideTags));
        let scanned: number;
        if (splitter !== undefined && splitter.splits(dynamics)) {
          dynamicGrid.layOut(boxes, dynamicIds, dynamics, inv, maxCells, splitter, input);
          splitter.fill(dynamicGrid, input);
          scanned = splitter.scan(dynamicGrid, input, out);
          sorted = out.count;
        } else {
          dynamicGrid.build(boxes, dynamicIds, dynamics, inv, maxCells);
          scanned = scanPart(dynamicGrid, input, out, 0, WHOLE_GRID);
        }
        statistics.boxTests = scanned + oversizePairs(input, out);
        if (split.staticCount > 0) statistics.boxTests += dynamicStaticPairs(input, out);
        if (adaptiveFactor && fixedCell === undefined) adaptCellFactor((dynamicGrid.entries + SCAN_WEIGHT * scanned) / dynamics);
      }
      if (sorted > 0) splitter!.sortAfter(out, sorted);
      else out.sort();
    },
    lastGrids(): readonly (ColumnGrid | undefined)[] {
      lastGrids[0] = staticsQueryable ? staticGrid : undefined;
      lastGrids[1] = dynamicsQueryable ? dynamicGrid : undefined;
      return lastGrids;
    },
    clear(): void {
      // The dynamic grid is rebuilt every frame; the static one when its boxes change.
      split.reset();
      dynamicsQueryable = staticsQueryable = false;
    },
    splitScans(next: ScanSplitter | undefined): void {
      splitter = next;
      // Fresh grids on the memory the threads can share (their scans and the world queries read
      // them): the dynamic one is rebuilt every frame anyway, the static one at the next frame.
      dynamicGrid = new ColumnGrid(next !== undefined);
      staticGrid = new ColumnGrid(next !== undefined);
      split.reset();
      dynamicsQueryable = staticsQueryable = false;
    },
  };
}

