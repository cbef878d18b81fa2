/**
 * Box queries over the spatial hash's column grids: which boxes of a grid meet a query box, each
 * once, by the pair scans' lower-corner rule. Kept apart from the hash so that a program that
 * never queries does not bundle them. Overlap queries and shape casts read the hash's grids of
 * the last step (SpatialHashQueries), or a QueryGrid built for broad phases without one.
 */
import type { BoxQueryable, IdList } from './boxQuery';
import {
  CELL_SIZE_SAMPLES, ColumnGrid, DEFAULT_CELL_FACTOR, DEFAULT_MAX_CELLS, MAX_CELL_COORD,
  boxesMeet, columnHash, derivedCellSize, type SpatialHash,
} from './spatialHash';
import { HASH_WINDOW_SLACK } from '../tolerances';

/**
 * Appends to `out` the ids of the boxes of `grid` meeting the closed box at query[qo] (min-max),
 * each once: on each level in use, the columns the box covers there, by the lower-corner rule of
 * the pair scans (see ColumnGrid.entryFirst), or the level's boxes directly where the box covers more
 * columns than the level has boxes; then the oversize boxes directly.
 */
export function gridBoxesMeeting(grid: ColumnGrid, boxes: ArrayLike<number>, query: ArrayLike<number>, qo: number, out: IdList): void {
  // The box comes as an array, not six numbers: doubles passed to a call are boxed on the heap.
  const x0 = query[qo], y0 = query[qo + 1], z0 = query[qo + 2], x1 = query[qo + 3], y1 = query[qo + 4], z1 = query[qo + 5];
  const columns = grid.entryColumn, first = grid.entryFirst, levels = grid.entryLevel, bucketIds = grid.entryId, ends = grid.bucketStart, lowerX = grid.entryLowerX;
  const slotMask = grid.slots - 1;
  for (let level = grid.bottom; level <= grid.top; level++) {
    const count = grid.levelBoxes[level];
    if (count === 0) continue;
    const li = grid.levelInv[level];
    const cy0 = Math.floor(y0 * li), cz0 = Math.floor(z0 * li);
    const cy1 = Math.floor(y1 * li), cz1 = Math.floor(z1 * li);
    const inRange = cy0 >= -MAX_CELL_COORD && cz0 >= -MAX_CELL_COORD && cy1 <= MAX_CELL_COORD && cz1 <= MAX_CELL_COORD;
    if (!inRange || (cy1 - cy0 + 1) * (cz1 - cz0 + 1) > count) {
      levelBoxesMeeting(grid, boxes, level, query, qo, out);
      continue;
    }
    const reach = grid.levelWidthX[level];
    const windowStart = x0 - reach - (Math.abs(x0) + reach) * HASH_WINDOW_SLACK;
    for (let y = cy0; y <= cy1; y++) {
      for (let z = cz0; z <= cz1; z++) {
        const firstQ = (y === cy0 ? 1 : 0) | (z === cz0 ? 2 : 0);
        const h = columnHash(y, z, level, slotMask);
        const end = ends[h];
        for (let e = grid.firstEntryFrom(h > 0 ? ends[h - 1] : 0, end, windowStart); e < end; e++) {
          if (lowerX[e] > x1) break;
          if ((+((firstQ | first[e]) === 3) & +(levels[e] === level) & +(columns[e * 2] === y) & +(columns[e * 2 + 1] === z) &
            boxesMeet(boxes, bucketIds[e] * 6, x0, y0, z0, x1, y1, z1)) !== 0) out.push(bucketIds[e]);
        }
      }
    }
  }
  const oversize = grid.oversize;
  for (let s = 0; s < grid.oversizeCount; s++) {
    if (boxesMeet(boxes, oversize[s] * 6, x0, y0, z0, x1, y1, z1) !== 0) out.push(oversize[s]);
  }
}

/** Side of the cells of the finest level holding boxes (Infinity for an empty grid). */
export function gridFinestCell(grid: ColumnGrid): number {
  return grid.top >= grid.bottom ? 1 / grid.levelInv[grid.bottom] : Infinity;
}

/** The boxes of level `level` meeting the query box, each tested directly. */
function levelBoxesMeeting(grid: ColumnGrid, boxes: ArrayLike<number>, level: number, query: ArrayLike<number>, qo: number, out: IdList): void {
  const x0 = query[qo], y0 = query[qo + 1], z0 = query[qo + 2], x1 = query[qo + 3], y1 = query[qo + 4], z1 = query[qo + 5];
  const sortedIds = grid.byLowerX.order, columnN = grid.columnN, boxLevel = grid.boxLevel;
  for (let r = 0; r < grid.count; r++) {
    if (columnN[r * 2] < 0 || boxLevel[r] !== level) continue;
    if (boxesMeet(boxes, sortedIds[r] * 6, x0, y0, z0, x1, y1, z1) !== 0) out.push(sortedIds[r]);
  }
}

/**
 * A column grid over every proxy of a frame, for the box queries of broad phases that keep no
 * grid of their own (sweep and prune, trees, brute force): built on demand, at most once per frame
 * by its owner, with the spatial hash's starting cell factor.
 */
export class QueryGrid implements BoxQueryable {
  /** @internal The grid (world queries on worker threads read its arrays). */
  readonly grid: ColumnGrid;
  private readonly sides = new Float64Array(CELL_SIZE_SAMPLES);
  private readonly sideTags = new Int32Array(CELL_SIZE_SAMPLES);

  /** With `shared`, the grid lives on SharedArrayBuffers, for worker threads to query. */
  constructor(shared = false) {
    this.grid = new ColumnGrid(shared);
  }

  /** Builds the grid over the `count` boxes of `ids`. */
  build(boxes: ArrayLike<number>, ids: ArrayLike<number>, count: number): void {
    const inv = count === 0 ? 1 : 1 / derivedCellSize(boxes, ids, count, DEFAULT_CELL_FACTOR, this.sides, this.sideTags);
    this.grid.build(boxes, ids, count, inv, DEFAULT_MAX_CELLS);
  }

  queryBox(boxes: ArrayLike<number>, query: ArrayLike<number>, qo: number, out: IdList): void {
    if (this.grid.count > 0) gridBoxesMeeting(this.grid, boxes, query, qo, out);
  }

  queryCell(): number {
    return this.grid.count > 0 ? gridFinestCell(this.grid) : Infinity;
  }
}

/** Where SpatialHashQueries finds its grids: a spatial hash, or a worker thread's view of one. */
export type GridSource = Pick<SpatialHash, 'lastGrids'>;

/** Box queries over a spatial hash's grids of its last frame (static and dynamic). */
export class SpatialHashQueries implements BoxQueryable {
  constructor(private readonly hash: GridSource) {}

  queryBox(boxes: ArrayLike<number>, query: ArrayLike<number>, qo: number, out: IdList): void {
    const grids = this.hash.lastGrids();
    for (let i = 0; i < grids.length; i++) if (grids[i] !== undefined) gridBoxesMeeting(grids[i]!, boxes, query, qo, out);
  }

  queryCell(): number {
    const grids = this.hash.lastGrids();
    let cell = Infinity;
    for (let i = 0; i < grids.length; i++) if (grids[i] !== undefined) cell = Math.min(cell, gridFinestCell(grids[i]!));
    return cell;
  }
}
