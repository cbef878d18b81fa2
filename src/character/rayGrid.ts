import { grown } from '../broadphase/growable';
import { allocate } from '../sharedMemory';
import { CollideInputError } from '../errors';
import { assertMadeBy } from '../query/rayQuery';
import { AABB_STRIDE } from '../layout';
import { type HitboxStore } from './hitboxLayout';

/**
 * A uniform grid over the characters' bounds, rebuilt each frame, that ray casts walk cell by
 * cell so a ray tests only the characters along it.
 */

// ---- ray casts ----

/**
 * Uniform grid over character AABBs for ray casts: cells in CSR form (`cellStart`, `cellItems`),
 * rebuilt each frame by a counting sort after `updateHitboxes`. `stamp` marks characters already
 * tested by the current ray (a character spans several cells).
 */
export interface CharacterRayGrid {
  /** Edge of a cell, in world units. */
  cellSize: number;
  /** Grid origin (min corner). */
  origin: Float64Array;
  /** Cells per axis. */
  dims: Int32Array;
  /** Per cell: start of its characters in `cellItems` (prefix sums; one more entry than cells). */
  cellStart: Int32Array;
  /** Character indices, cell by cell. */
  cellItems: Int32Array;
  /** Per character: the last ray that tested it, so a ray tests a character once. */
  stamp: Int32Array;
  /** Counter of rays cast, for `stamp`. */
  rayId: number;
  /** Cell size as a multiple of the mean character extent. */
  cellScale: number;
}

/** At most this many cells per character, so a spread-out scene does not allocate a huge grid. */
const MAX_CELLS_PER_CHARACTER = 16;

/**
 * An empty grid; `cellScale` sets the cell edge as a multiple of the mean character AABB's longest
 * edge (default 1). With `shared`, its cells live on SharedArrayBuffers, so worker threads can
 * walk them (each thread keeps its own stamps).
 */
export function createCharacterRayGrid(cellScale = 1, shared = false): CharacterRayGrid {
  if (!(cellScale > 0 && Number.isFinite(cellScale))) throw new CollideInputError(`createCharacterRayGrid: cellScale must be positive, got ${cellScale}`);
  return {
    cellSize: 1,
    origin: allocate(Float64Array, 3, shared),
    dims: allocate(Int32Array, 3, shared),
    cellStart: allocate(Int32Array, 0, shared),
    cellItems: allocate(Int32Array, 0, shared),
    stamp: new Int32Array(0),
    rayId: 0,
    cellScale,
  };
}

/**
 * The cell along axis k of the grid holding the coordinate v[vo], clamped to the grid (the grid's
 * origin and cell size written). Numbers come from arrays: V8 boxes a double passed to a call it
 * does not inline.
 */
export function cellOf(grid: Pick<CharacterRayGrid, 'origin' | 'cellSize' | 'dims'>, v: ArrayLike<number>, vo: number, k: number): number {
  const i = Math.floor((v[vo] - grid.origin[k]) * (1 / grid.cellSize)), dim = grid.dims[k];
  return i < 0 ? 0 : i >= dim ? dim - 1 : i;
}

/** Rebuilds the grid from the store's character AABBs (characters without hitboxes, and retired ones, are left out). Allocation-free once grown. */
export function buildCharacterRayGrid(grid: CharacterRayGrid, store: Pick<HitboxStore, 'characterCount' | 'hitboxCount' | 'retired'> & { characterAabb: ArrayLike<number> }): void {
  assertRayGrid(grid, 'buildCharacterRayGrid');
  assertMadeBy(store, 'characterAabb', 'buildCharacterRayGrid', 'store', 'createHitboxStore');
  const aabb = store.characterAabb;
  const n = store.characterCount;
  let minX = Infinity, minY = Infinity, minZ = Infinity, maxX = -Infinity, maxY = -Infinity, maxZ = -Infinity;
  let extentSum = 0, used = 0;
  for (let c = 0; c < n; c++) {
    if (store.hitboxCount[c] === 0 || store.retired[c] === 1) continue;
    const a = AABB_STRIDE * c;
    minX = Math.min(minX, aabb[a]); minY = Math.min(minY, aabb[a + 1]); minZ = Math.min(minZ, aabb[a + 2]);
    maxX = Math.max(maxX, aabb[a + 3]); maxY = Math.max(maxY, aabb[a + 4]); maxZ = Math.max(maxZ, aabb[a + 5]);
    extentSum += Math.max(aabb[a + 3] - aabb[a], aabb[a + 4] - aabb[a + 1], aabb[a + 5] - aabb[a + 2]);
    used++;
  }
  const dims = grid.dims;
  if (used === 0) {
    dims[0] = dims[1] = dims[2] = 0;
    return;
  }
  const spanX = maxX - minX, spanY = maxY - minY, spanZ = maxZ - minZ;
  let cell = grid.cellScale * (extentSum / used);
  if (!(cell > 0)) cell = Math.max(spanX, spanY, spanZ, 1);
  const maxCells = MAX_CELLS_PER_CHARACTER * used;
  for (;;) {
    dims[0] = Math.max(1, Math.ceil(spanX / cell));
    dims[1] = Math.max(1, Math.ceil(spanY / cell));
    dims[2] = Math.max(1, Math.ceil(spanZ / cell));
    const cells = dims[0] * dims[1] * dims[2];
    if (cells <= maxCells) break;
    cell *= Math.cbrt(cells / maxCells) * 1.01;
  }
  grid.cellSize = cell;
  grid.origin[0] = minX; grid.origin[1] = minY; grid.origin[2] = minZ;
  const cells = dims[0] * dims[1] * dims[2];
  grid.cellStart = grown(grid.cellStart, cells + 1);
  grid.stamp = grown(grid.stamp, n);
  const start = grid.cellStart;
  start.fill(0, 0, cells + 1);
  // Counting sort in two passes: count per cell, inclusive prefix sums (cell ends), then place
  // each item at --end, which leaves start[k] at the cell's beginning.
  for (let pass = 0; pass < 2; pass++) {
    for (let c = 0; c < n; c++) {
      if (store.hitboxCount[c] === 0 || store.retired[c] === 1) continue;
      const a = AABB_STRIDE * c;
      const x0 = cellOf(grid, aabb, a, 0), x1 = cellOf(grid, aabb, a + 3, 0);
      const y0 = cellOf(grid, aabb, a + 1, 1), y1 = cellOf(grid, aabb, a + 4, 1);
      const z0 = cellOf(grid, aabb, a + 2, 2), z1 = cellOf(grid, aabb, a + 5, 2);
      for (let z = z0; z <= z1; z++) {
        for (let y = y0; y <= y1; y++) {
          for (let x = x0; x <= x1; x++) {
            const k = (z * dims[1] + y) * dims[0] + x;
            if (pass === 0) start[k]++;
            else grid.cellItems[--start[k]] = c;
          }
        }
      }
    }
    if (pass === 0) {
      for (let k = 1; k < cells; k++) start[k] += start[k - 1];
      start[cells] = start[cells - 1];
      grid.cellItems = grown(grid.cellItems, start[cells]);
    }
  }
}

/** Throws CollideInputError unless `grid` is a character ray grid (createCharacterRayGrid). */
export function assertRayGrid(grid: unknown, caller: string): void {
  assertMadeBy(grid, 'cellStart', caller, 'grid', 'createCharacterRayGrid');
}
