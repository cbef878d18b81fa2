/**
 * Hierarchical grid stored as a spatial hash, rebuilt every frame. Level 0 has cells of the
 * base size, each level above cells twice as large. Each box goes to the lowest level where it
 * covers at most `maxCellsPerBox` cells and is entered in every cell it covers there, so boxes of
 * any mix of sizes cost a few entries each. Pairs of one level meet in a shared cell; a box also
 * looks up the cells it covers on every coarser level in use, to meet larger boxes. Boxes beyond
 * the top level (or beyond int32 cell coordinates) go to an "oversize" list tested against
 * everything. Entries are bucketed by hash with a counting sort into flat arrays (no per-frame
 * allocation). A pair sharing several cells is reported only from the cell holding the lower
 * corner of the two boxes' intersection, which both boxes cover, so no hash set of reported pairs
 * is needed. Boxes are entered in order of their lower x bound (a radix sort per frame), so each
 * bucket lists them by lower x and a box's scan of its bucket stops at the first box starting
 * beyond its upper x: larger cells then cost fewer tests, and the cell size adapts to density.
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
  /** Fixed cell edge; when omitted, `cellSizeFactor` times the median largest box side of the frame (over a sample of 255 boxes). */
  cellSize?: number;
  /**
   * Cell edge relative to the median largest box side, fixed. When omitted it adapts from frame
   * to frame (starting at 2) so that an occupied cell holds about 8 to 20 entries: sparse scenes
   * get larger cells (fewer entries per box), dense ones smaller (fewer box pairs per cell).
   */
  cellSizeFactor?: number;
  /** Boxes covering more cells than this on a level go up a level (default 64). */
  maxCellsPerBox?: number;
}

// Large odd multipliers for mixing cell coordinates (Teschner et al. 2003).
const HASH_X = 73856093;
const HASH_Y = 19349663;
const HASH_Z = 83492791;
const HASH_LEVEL = 2654435761;
/** Levels of the hierarchy: cells up to 2^20 times the base size; larger boxes are oversize. */
const LEVELS = 21;
/** Hash table slots per entry (at least): keeps unrelated cells mostly in separate buckets. */
const SLOTS_PER_ENTRY = 1;
/** Boxes sampled for the median box size that sets the cell edge. */
const CELL_SIZE_SAMPLES = 255;
/** Band of entries per occupied cell that the adaptive cell factor aims at, and its limits and step. */
const MIN_ENTRIES_PER_CELL = 8;
const MAX_ENTRIES_PER_CELL = 20;
const MIN_CELL_FACTOR = 1;
const MAX_CELL_FACTOR = 8;
const CELL_FACTOR_STEP = 1.25;
/** Cell coordinates must fit int32 to be stored and hashed exactly; farther boxes count as oversize. */
const MAX_CELL_COORD = 2 ** 31 - 1;

function cellHash(ix: number, iy: number, iz: number, level: number, slotMask: number): number {
  return (Math.imul(ix, HASH_X) ^ Math.imul(iy, HASH_Y) ^ Math.imul(iz, HASH_Z) ^ Math.imul(level, HASH_LEVEL)) & slotMask;
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
  // Per box, by rank in lower-x order (ids in byLowerX.order): its lower x key, level, first cell on each axis and cell counts there; -1 count marks oversize.
  let boxLowerX = new Float32Array(0);
  let boxLevel = new Uint8Array(0);
  let cellLo = new Int32Array(0);
  let cellN = new Int32Array(0);
  /** Inverse cell size per level (each half the one below: exact, so every use floors alike). */
  const levelInv = new Float64Array(LEVELS);
  /** Boxes per level this frame. */
  const levelBoxes = new Int32Array(LEVELS);
  let bucketStart = new Int32Array(0);
  let entryId = new Int32Array(0);
  let entryCell = new Int32Array(0); // 3 per entry
  let entryLevel = new Uint8Array(0);
  // Per entry, bit k set when its cell is the box's first cell on axis k. The lower corner of two
  // boxes' intersection lies in cell max(first cell of a, first cell of b) on each axis, so a cell
  // both boxes cover holds that corner exactly when, on every axis, it is the first cell of one of them.
  let entryFirst = new Uint8Array(0);
  // Per entry, its box's lower x bound rounded down to Float32: the sort key, where bucket scans stop.
  let entryLowerX = new Float32Array(0);
  const byLowerX = new Float32Order();
  const sides = new Float64Array(CELL_SIZE_SAMPLES);
  const sideTags = new Int32Array(CELL_SIZE_SAMPLES);
  let entries = 0; // (box, cell) entries this frame
  let oversizeCount = 0;

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
   * Next frame's cell factor from this frame's entries per occupied cell (bucket, near enough: the
   * table has a slot per entry). Boxes per cell grow with (factor + 1)^3, so one step of 1.25
   * moves them by at most 1.6x, inside the band's 2.5x: the factor settles instead of oscillating.
   * 10 to 13 entries per cell measured fastest with the lower-x scan, on dense and sparse scenes.
   */
  function adaptCellFactor(entriesPerCell: number): void {
    if (entriesPerCell < MIN_ENTRIES_PER_CELL) cellFactor = Math.min(MAX_CELL_FACTOR, cellFactor * CELL_FACTOR_STEP);
    else if (entriesPerCell > MAX_ENTRIES_PER_CELL) cellFactor = Math.max(MIN_CELL_FACTOR, cellFactor / CELL_FACTOR_STEP);
  }

  /** Puts each box on its level, computes its cell range there and counts the (box, cell) entries, listing oversize boxes aside. */
  function classify(input: BroadPhaseInput, inv: number): void {
    const { count, boxes } = input;
    for (let l = 0; l < LEVELS; l++) levelInv[l] = inv * 2 ** -l;
    levelBoxes.fill(0);
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
        cells = 1;
        for (let k = 0; k < 3; k++) {
          const lo = Math.floor(boxes[o + k] * li);
          const hi = Math.floor(boxes[o + 3 + k] * li);
          if (!(lo >= -MAX_CELL_COORD && hi <= MAX_CELL_COORD)) cells = Infinity;
          cellLo[i * 3 + k] = lo;
          cellN[i * 3 + k] = hi - lo + 1;
          cells *= hi - lo + 1;
        }
        if (cells <= maxCells) break;
      }
      if (cells > maxCells) {
        cellN[i * 3] = -1;
        oversizeFrame[id] = frame;
        oversize[oversizeCount++] = id;
      } else {
        boxLevel[i] = level;
        levelBoxes[level]++;
        entries += cells;
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

  /** Counting sort (stable, boxes taken by lower x) of (box, cell) entries into hash buckets: pass 0 counts, pass 1 fills. */
  function fillBuckets(input: BroadPhaseInput, slotMask: number, pass: number): void {
    const sortedIds = byLowerX.order;
    for (let i = 0; i < input.count; i++) {
      const nx = cellN[i * 3];
      if (nx < 0) continue;
      const ny = cellN[i * 3 + 1];
      const nz = cellN[i * 3 + 2];
      const x0 = cellLo[i * 3];
      const y0 = cellLo[i * 3 + 1];
      const z0 = cellLo[i * 3 + 2];
      const id = sortedIds[i];
      const level = boxLevel[i];
      const x = boxLowerX[i];
      for (let a = 0; a < nx; a++) {
        for (let b = 0; b < ny; b++) {
          for (let c = 0; c < nz; c++) {
            const h = cellHash(x0 + a, y0 + b, z0 + c, level, slotMask);
            if (pass === 0) {
              bucketStart[h + 1]++;
            } else {
              const e = bucketStart[h]++;
              entryId[e] = id;
              entryCell[e * 3] = x0 + a;
              entryCell[e * 3 + 1] = y0 + b;
              entryCell[e * 3 + 2] = z0 + c;
              entryFirst[e] = (a === 0 ? 1 : 0) | (b === 0 ? 2 : 0) | (c === 0 ? 4 : 0);
              entryLevel[e] = level;
              entryLowerX[e] = x;
            }
          }
        }
      }
    }
  }

  function pairsInBuckets(input: BroadPhaseInput, out: PairList, slots: number): void {
    const boxes = input.boxes;
    // Locals, not the closure's reassignable arrays: V8 then keeps them in registers across the loop.
    const cells = entryCell, first = entryFirst, levels = entryLevel, ids = entryId, ends = bucketStart, lowerX = entryLowerX;
    // After the fill pass ends[h] is the end of bucket h, i.e. the start of h + 1.
    let start = 0;
    for (let h = 0; h < slots; h++) {
      const end = ends[h];
      for (let i = start; i < end - 1; i++) {
        const a = ids[i];
        const cx = cells[i * 3];
        const cy = cells[i * 3 + 1];
        const cz = cells[i * 3 + 2];
        const firstA = first[i];
        const level = levels[i];
        const ax0 = boxes[a * 6], ay0 = boxes[a * 6 + 1], az0 = boxes[a * 6 + 2];
        const ax1 = boxes[a * 6 + 3], ay1 = boxes[a * 6 + 4], az1 = boxes[a * 6 + 5];
        for (let j = i + 1; j < end; j++) {
          // Entries come in lower-x order: once one starts beyond a's upper x, so do all after it.
          if (lowerX[j] > ax1) break;
          // Same cell, and this cell owns the pair (see entryFirst): each pair is reported once.
          if ((firstA | first[j]) !== 7 || cells[j * 3] !== cx || cells[j * 3 + 1] !== cy || cells[j * 3 + 2] !== cz || levels[j] !== level) continue;
          const b = ids[j] * 6;
          if (boxes[b] > ax1 || boxes[b + 3] < ax0 || boxes[b + 1] > ay1 || boxes[b + 4] < ay0 || boxes[b + 2] > az1 || boxes[b + 5] < az0) continue;
          reportPair(input, out, a, ids[j]);
        }
      }
      start = end;
    }
  }

  /**
   * Pairs of a box with the larger boxes of coarser levels: each box looks up the cells it covers
   * on every coarser level in use. The lower-corner rule applies as within a level, with the
   * box's first cells on that level standing in for its entry flags.
   */
  function crossLevelPairs(input: BroadPhaseInput, out: PairList, slotMask: number): void {
    let top = LEVELS - 1;
    while (top > 0 && levelBoxes[top] === 0) top--;
    let bottom = 0;
    while (bottom < top && levelBoxes[bottom] === 0) bottom++;
    if (bottom === top) return;
    const { count, boxes } = input;
    const sortedIds = byLowerX.order;
    const cells = entryCell, first = entryFirst, levels = entryLevel, bucketIds = entryId, ends = bucketStart;
    for (let i = 0; i < count; i++) {
      if (cellN[i * 3] < 0) continue;
      const a = sortedIds[i], o = a * 6;
      const ax0 = boxes[o], ay0 = boxes[o + 1], az0 = boxes[o + 2];
      const ax1 = boxes[o + 3], ay1 = boxes[o + 4], az1 = boxes[o + 5];
      for (let level = boxLevel[i] + 1; level <= top; level++) {
        if (levelBoxes[level] === 0) continue;
        const li = levelInv[level];
        const x0 = Math.floor(ax0 * li), y0 = Math.floor(ay0 * li), z0 = Math.floor(az0 * li);
        const x1 = Math.floor(ax1 * li), y1 = Math.floor(ay1 * li), z1 = Math.floor(az1 * li);
        for (let x = x0; x <= x1; x++) {
          for (let y = y0; y <= y1; y++) {
            for (let z = z0; z <= z1; z++) {
              const firstA = (x === x0 ? 1 : 0) | (y === y0 ? 2 : 0) | (z === z0 ? 4 : 0);
              const h = cellHash(x, y, z, level, slotMask);
              for (let e = h > 0 ? ends[h - 1] : 0, end = ends[h]; e < end; e++) {
                if ((firstA | first[e]) !== 7 || levels[e] !== level || cells[e * 3] !== x || cells[e * 3 + 1] !== y || cells[e * 3 + 2] !== z) continue;
                const b = bucketIds[e] * 6;
                if (boxes[b] > ax1 || boxes[b + 3] < ax0 || boxes[b + 1] > ay1 || boxes[b + 4] < ay0 || boxes[b + 2] > az1 || boxes[b + 5] < az0) continue;
                reportPair(input, out, a, bucketIds[e]);
              }
            }
          }
        }
      }
    }
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
      cellLo = grown(cellLo, 3 * count);
      cellN = grown(cellN, 3 * count);
      const inv = 1 / (fixedCell ?? derivedCellSize(input));
      orderByLowerX(input);
      classify(input, inv);
      let slots = 16;
      while (slots < SLOTS_PER_ENTRY * entries) slots *= 2;
      bucketStart = grown(bucketStart, slots + 1);
      bucketStart.fill(0, 0, slots + 1);
      entryId = grown(entryId, entries);
      entryCell = grown(entryCell, 3 * entries);
      entryFirst = grown(entryFirst, entries);
      entryLevel = grown(entryLevel, entries);
      entryLowerX = grown(entryLowerX, entries);
      fillBuckets(input, slots - 1, 0);
      // Prefix sums: bucketStart[h] becomes the start of bucket h; the fill pass advances it to the end.
      let occupied = 0;
      for (let h = 1; h <= slots; h++) {
        if (bucketStart[h] !== 0) occupied++;
        bucketStart[h] += bucketStart[h - 1];
      }
      if (adaptiveFactor && fixedCell === undefined) adaptCellFactor(entries / occupied);
      fillBuckets(input, slots - 1, 1);
      pairsInBuckets(input, out, slots);
      crossLevelPairs(input, out, slots - 1);
      oversizePairs(input, out);
      out.sort();
    },
    clear(): void {
      // Rebuilt every frame: nothing persists but pooled storage.
    },
  };
}
