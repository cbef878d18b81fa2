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
 */
import { aabbOverlap } from '../aabb';
import { float32Below } from '../float32';
import { maxProxyId, reportPair, type BroadPhase, type BroadPhaseInput } from './broadPhase';
import { grown } from './growable';
import { Float32Order } from './float32Order';
import type { PairList } from './pairList';
import { selectByKey } from './sortByKey';

/** Options of `createSpatialHash`. */
export interface SpatialHashOptions {
  /** Fixed cell edge; when omitted, `cellSizeFactor` times the median largest box side of the frame (over an evenly spaced sample of 63 boxes). */
  cellSize?: number;
  /**
   * Cell edge relative to the median largest box side, fixed. When omitted it adapts from frame
   * to frame (starting at 2), trading entries (fewer with wide columns) against the boxes each
   * scan passes (fewer with narrow ones): sparse scenes settle on wider columns, dense ones on
   * narrower.
   */
  cellSizeFactor?: number;
  /** Boxes covering more cells than this on a level go up a level (default 64). */
  maxCellsPerBox?: number;
}

// Large odd multipliers for mixing column coordinates (Teschner et al. 2003).
const HASH_Y = 19349663;
const HASH_Z = 83492791;
const HASH_LEVEL = 2654435761;
/** Levels of the hierarchy: cells up to 2^20 times the base size; larger boxes are oversize. */
const LEVELS = 21;
/** Hash table slots per entry (at least): keeps unrelated columns mostly in separate buckets. */
const SLOTS_PER_ENTRY = 1;
/** Boxes sampled for the median box size that sets the cell edge (the adaptive factor absorbs the estimate's error). */
const CELL_SIZE_SAMPLES = 63;
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
const MAX_CELL_COORD = 2 ** 31 - 1;
/**
 * Relative slack of the x window of cross-level scans: covers the Float32 rounding of the stored
 * lower-x keys (2^-23 relative) with room to spare.
 */
const WINDOW_SLACK = 2 ** -20;

/**
 * 1 when the closed box at `b` meets [ax0, ax1] × [ay0, ay1] × [az0, az1], else 0, without a
 * branch. The scans combine it with their column tests into one branch: those outcomes depend on
 * the data, and a short-circuit chain of them mispredicted often enough to cost about 10% of the
 * broad phase (measured at 2,000 and 10,000 boxes, alone and between the peers' frames).
 */
function boxesMeet(boxes: ArrayLike<number>, b: number, ax0: number, ay0: number, az0: number, ax1: number, ay1: number, az1: number): number {
  return +(boxes[b] <= ax1) & +(boxes[b + 3] >= ax0) & +(boxes[b + 1] <= ay1) & +(boxes[b + 4] >= ay0) & +(boxes[b + 2] <= az1) & +(boxes[b + 5] >= az0);
}

function columnHash(iy: number, iz: number, level: number, slotMask: number): number {
  return (Math.imul(iy, HASH_Y) ^ Math.imul(iz, HASH_Z) ^ Math.imul(level, HASH_LEVEL)) & slotMask;
}

/** Creates a spatial-hash broad phase. */
export function createSpatialHash(options: SpatialHashOptions = {}): BroadPhase {
  const fixedCell = options.cellSize;
  const adaptiveFactor = options.cellSizeFactor === undefined;
  let cellFactor = options.cellSizeFactor ?? 2;
  const maxCells = options.maxCellsPerBox ?? 64;
  if (fixedCell !== undefined && !(fixedCell > 0 && Number.isFinite(fixedCell))) {
    throw new RangeError(`spatialHash: cellSize must be positive and finite, got ${fixedCell}`);
  }
  if (!(cellFactor > 0 && Number.isFinite(cellFactor))) throw new RangeError(`spatialHash: cellSizeFactor must be positive, got ${cellFactor}`);
  if (!(maxCells >= 1)) throw new RangeError(`spatialHash: maxCellsPerBox must be >= 1, got ${maxCells}`);

  let frame = 0;
  let oversizeFrame = new Uint32Array(0); // by id: frame in which the box was oversize
  let oversize = new Int32Array(0);
  // Per box, by rank in lower-x order (ids in byLowerX.order): its lower x key, level, first
  // column (y, z) and column counts there; -1 count marks oversize.
  let boxLowerX = new Float32Array(0);
  let boxLevel = new Uint8Array(0);
  let columnLo = new Int32Array(0);
  let columnN = new Int32Array(0);
  /** Inverse cell size per level (each half the one below: exact, so every use floors alike). */
  const levelInv = new Float64Array(LEVELS);
  /** Boxes per level this frame. */
  const levelBoxes = new Int32Array(LEVELS);
  /** Widest x extent of a box per level this frame: how far below a box's lower x a box of that level can start and still reach it. */
  const levelWidthX = new Float64Array(LEVELS);
  let bucketStart = new Int32Array(0);
  let entryId = new Int32Array(0);
  let entryColumn = new Int32Array(0); // (y, z) per entry
  let entryLevel = new Uint8Array(0);
  // Per entry, bit 0 (y) and bit 1 (z) set when its column is the box's first on that axis. The
  // lower (y, z) corner of two boxes' intersection lies in column max(first of a, first of b) on
  // each axis, so a column both boxes cover holds that corner exactly when, on both axes, it is
  // the first column of one of them.
  let entryFirst = new Uint8Array(0);
  // Per entry, its box's lower x bound rounded down to Float32: the sort key, where bucket scans stop.
  let entryLowerX = new Float32Array(0);
  const byLowerX = new Float32Order();
  const sides = new Float64Array(CELL_SIZE_SAMPLES);
  const sideTags = new Int32Array(CELL_SIZE_SAMPLES);
  let entries = 0; // (box, column) entries this frame
  let oversizeCount = 0;
  /** Entries passed by this frame's bucket scans, and the adaptive factor's previous cost and direction. */
  let scanned = 0;
  let lastCost = Infinity;
  let factorDirection = 1;

  /**
   * Median largest box side times the factor, over an evenly spaced sample of the boxes (the cell
   * size only tunes speed; pairs are exact whatever it is). Falls back to the scene's spread when
   * the sampled boxes are points.
   */
  function derivedCellSize(input: BroadPhaseInput): number {
    const { ids, count, boxes } = input;
    const samples = Math.min(count, CELL_SIZE_SAMPLES);
    for (let s = 0; s < samples; s++) {
      const o = ids[Math.floor((s * count) / samples)] * 6;
      sides[s] = Math.max(boxes[o + 3] - boxes[o], boxes[o + 4] - boxes[o + 1], boxes[o + 5] - boxes[o + 2]);
      sideTags[s] = s;
    }
    const mid = samples >>> 1;
    selectByKey(sides, sideTags, 0, samples, mid);
    const size = cellFactor * sides[mid];
    if (size > 0 && Number.isFinite(size)) return size;
    // Mostly points: aim at a few boxes per cell over the scene's extent.
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

  /** Puts each box on its level, computes its column range there and counts the (box, column) entries, listing oversize boxes aside. */
  function classify(input: BroadPhaseInput, inv: number): void {
    const { count, boxes } = input;
    for (let l = 0; l < LEVELS; l++) levelInv[l] = inv * 2 ** -l;
    levelBoxes.fill(0);
    levelWidthX.fill(0);
    entries = 0;
    oversizeCount = 0;
    const sortedIds = byLowerX.order;
    for (let i = 0; i < count; i++) {
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
        oversizeFrame[id] = frame;
        oversize[oversizeCount++] = id;
      } else {
        boxLevel[i] = level;
        levelBoxes[level]++;
        const width = boxes[o + 3] - boxes[o];
        if (width > levelWidthX[level]) levelWidthX[level] = width;
        entries += columnN[i * 2] * columnN[i * 2 + 1];
      }
    }
  }

  /** Orders the input's ids by their boxes' lower x bound into `byLowerX.order`. */
  function orderByLowerX(input: BroadPhaseInput): void {
    const { ids, count, boxes } = input;
    byLowerX.reserve(count);
    const keys = byLowerX.keys;
    for (let i = 0; i < count; i++) keys[i] = float32Below(boxes[ids[i] * 6]);
    byLowerX.sort(count, ids);
  }

  /** Counting sort (stable, boxes taken by lower x) of (box, column) entries into hash buckets: pass 0 counts, pass 1 fills. */
  function fillBuckets(input: BroadPhaseInput, slotMask: number, pass: number): void {
    const sortedIds = byLowerX.order;
    for (let i = 0; i < input.count; i++) {
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
            bucketStart[h + 1]++;
          } else {
            const e = bucketStart[h]++;
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
   * Pairs of boxes that share a column of one level: each entry scans the entries after it in its
   * bucket up to the first that starts beyond its upper x, keeping those of its own column and
   * level; counts the entries passed for the adaptive factor.
   */
  function pairsInBuckets(input: BroadPhaseInput, out: PairList, slots: number): void {
    const boxes = input.boxes;
    // Locals, not the closure's reassignable arrays: V8 then keeps them in registers across the loop.
    const columns = entryColumn, first = entryFirst, levels = entryLevel, ids = entryId, ends = bucketStart, lowerX = entryLowerX;
    let passed = 0;
    // After the fill pass ends[h] is the end of bucket h, i.e. the start of h + 1.
    let start = 0;
    for (let h = 0; h < slots; h++) {
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
    scanned = passed;
  }

  /** Index of the first entry of [from, to) whose lower-x key is >= x (entries are in key order). */
  function firstEntryFrom(from: number, to: number, x: number): number {
    const lowerX = entryLowerX;
    let lo = from, hi = to;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (lowerX[mid] < x) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  /**
   * Pairs of a box with the larger boxes of coarser levels: each box looks up the columns it
   * covers on every coarser level in use. The lower-corner rule applies as within a level, with
   * the box's first columns on that level standing in for its entry flags. A scan starts at the
   * first entry whose key is within the level's widest box below the box's lower x (with slack
   * for the keys' rounding): entries before it end before the box starts.
   */
  function crossLevelPairs(input: BroadPhaseInput, out: PairList, slotMask: number): void {
    let top = LEVELS - 1;
    while (top > 0 && levelBoxes[top] === 0) top--;
    let bottom = 0;
    while (bottom < top && levelBoxes[bottom] === 0) bottom++;
    if (bottom === top) return;
    const { count, boxes } = input;
    const sortedIds = byLowerX.order;
    const columns = entryColumn, first = entryFirst, levels = entryLevel, bucketIds = entryId, ends = bucketStart, lowerX = entryLowerX;
    let passed = 0;
    for (let i = 0; i < count; i++) {
      if (columnN[i * 2] < 0) continue;
      const a = sortedIds[i], o = a * 6;
      const ax0 = boxes[o], ay0 = boxes[o + 1], az0 = boxes[o + 2];
      const ax1 = boxes[o + 3], ay1 = boxes[o + 4], az1 = boxes[o + 5];
      for (let level = boxLevel[i] + 1; level <= top; level++) {
        if (levelBoxes[level] === 0) continue;
        const li = levelInv[level];
        const reach = levelWidthX[level];
        const windowStart = ax0 - reach - (Math.abs(ax0) + reach) * WINDOW_SLACK;
        const y0 = Math.floor(ay0 * li), z0 = Math.floor(az0 * li);
        const y1 = Math.floor(ay1 * li), z1 = Math.floor(az1 * li);
        for (let y = y0; y <= y1; y++) {
          for (let z = z0; z <= z1; z++) {
            const firstA = (y === y0 ? 1 : 0) | (z === z0 ? 2 : 0);
            const h = columnHash(y, z, level, slotMask);
            const end = ends[h];
            const from = firstEntryFrom(h > 0 ? ends[h - 1] : 0, end, windowStart);
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
      }
    }
    scanned += passed;
  }

  function oversizePairs(input: BroadPhaseInput, out: PairList): void {
    const { ids, count, boxes } = input;
    for (let s = 0; s < oversizeCount; s++) {
      const a = oversize[s];
      for (let i = 0; i < count; i++) {
        const b = ids[i];
        // Oversize-oversize pairs are tested from the lower id only.
        if (b === a || (oversizeFrame[b] === frame && b < a)) continue;
        if (aabbOverlap(boxes, a * 6, boxes, b * 6)) reportPair(input, out, a, b);
      }
    }
  }

  return {
    name: 'spatialHash',
    findPairs(input: BroadPhaseInput, out: PairList): void {
      out.clear();
      const count = input.count;
      if (count === 0) return;
      frame = (frame + 1) >>> 0;
      if (frame === 0) {
        oversizeFrame.fill(0);
        frame = 1;
      }
      oversizeFrame = grown(oversizeFrame, maxProxyId(input) + 1);
      oversize = grown(oversize, count);
      boxLowerX = grown(boxLowerX, count);
      boxLevel = grown(boxLevel, count);
      columnLo = grown(columnLo, 2 * count);
      columnN = grown(columnN, 2 * count);
      const inv = 1 / (fixedCell ?? derivedCellSize(input));
      orderByLowerX(input);
      classify(input, inv);
      let slots = 16;
      while (slots < SLOTS_PER_ENTRY * entries) slots *= 2;
      bucketStart = grown(bucketStart, slots + 1);
      bucketStart.fill(0, 0, slots + 1);
      entryId = grown(entryId, entries);
      entryColumn = grown(entryColumn, 2 * entries);
      entryFirst = grown(entryFirst, entries);
      entryLevel = grown(entryLevel, entries);
      entryLowerX = grown(entryLowerX, entries);
      fillBuckets(input, slots - 1, 0);
      // Prefix sums: bucketStart[h] becomes the start of bucket h; the fill pass advances it to the end.
      for (let h = 1; h <= slots; h++) bucketStart[h] += bucketStart[h - 1];
      fillBuckets(input, slots - 1, 1);
      pairsInBuckets(input, out, slots);
      crossLevelPairs(input, out, slots - 1);
      oversizePairs(input, out);
      if (adaptiveFactor && fixedCell === undefined) adaptCellFactor((entries + SCAN_WEIGHT * scanned) / count);
      out.sort();
    },
    clear(): void {
      // Rebuilt every frame: nothing persists but pooled storage.
    },
  };
}
