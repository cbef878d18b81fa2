import { grown } from '../broadphase/growable';
import { CollideInputError, isNumberList, valueName } from '../errors';
import { assertMadeBy } from '../query/rayQuery';
import { OBB_STRIDE, SPHERE_STRIDE, type Floats, type ReadonlyFloats } from '../layout';
import { HITBOX_ROUNDING_MARGIN_RELATIVE } from '../tolerances';
import { interpolateObbArrays, interpolationReach } from '../volumes/obb';
import { assertHitboxStore, HITBOXES_PER_CLUSTER, type HitboxStore } from './hitboxLayout';
import { buildCharacterRayGrid, createCharacterRayGrid, type CharacterRayGrid } from './rayGrid';
import { allocateLike, allocate } from '../sharedMemory';

/**
 * Hitbox history for lag compensation: a ring buffer of the last K frames of every character's
 * world hitboxes, each with its time, and the boxes at any time inside that window, interpolated
 * between the two frames around it (centre and half-extents linearly, axes by quaternion slerp:
 * interpolateObb). Ray casts at a past time (hitboxRaycast.ts) walk a per-frame ray grid built
 * over bounds that hold every box between the frame and the one before it.
 */

/** One kept frame. Arrays are grown to the store's size when the frame is written. */
interface HistoryFrame {
  /** Characters in the store when the frame was recorded. */
  characterCount: number;
  /** Hitboxes in the store when the frame was recorded. */
  hitboxCount: number;
  /** World boxes of every hitbox at this frame (OBB layout, by hitbox index: a copy of HitboxStore.world). */
  world: Float32Array;
  /**
   * Per hitbox, a sphere (sphere layout) holding its box at every time between the frame before
   * and this one, or at this frame alone when its character was not seen before: a ray's first
   * test per box, 16 bytes of one frame where the box itself is 60 bytes of two.
   */
  sphere: Float32Array;
  /** Per character: 1 when it was not seen at this frame (retired, or no hitboxes). */
  absent: Uint8Array;
  /** Per character: this frame's AABB (HitboxStore.characterAabb), inverted when absent. */
  characterAabb: Float32Array;
  /** Per cluster: this frame's cluster AABBs (HitboxStore.clusterAabb). */
  clusterAabb: Float32Array;
  /**
   * Per character: a box holding each of its hitboxes at every time between the frame before and
   * this one; inverted (so no ray meets it) unless the character was seen at both frames.
   */
  sweptCharacterAabb: Float32Array;
  /** Per cluster: the same, per cluster. */
  sweptClusterAabb: Float32Array;
  /** Ray grid over what a ray between the frame before and this one, or at this frame, may test. */
  grid: CharacterRayGrid;
}

/**
 * The last `frames` frames of a hitbox store's world boxes (createHitboxHistory), written by
 * recordHitboxHistory after each update. Memory per character per kept frame: 76 bytes per
 * hitbox (its world box and bounding sphere), 48 per cluster of HITBOXES_PER_CLUSTER hitboxes
 * and about 60 for the character (its bounds and its share of the frame's ray grid): about
 * 4.6 KB for a 55-hitbox humanoid, so 64 frames of 1,000 of them take about 300 MB.
 */
export interface HitboxHistory {
  /** Frames kept (K). */
  readonly frames: number;
  /** Frames held so far (at most `frames`). */
  count: number;
  /** Time of the oldest frame held (NaN before the first). */
  oldestTime: number;
  /** Time of the newest frame held (NaN before the first). */
  newestTime: number;
  /** @internal Ring slot of the newest frame (−1 before the first). */
  newest: number;
  /** @internal Bumped by every record and clear, so a cursor knows its frames may have changed. */
  version: number;
  /** @internal Time of each ring slot. */
  readonly time: Float64Array;
  /** @internal The ring's frames. */
  readonly slots: readonly HistoryFrame[];
}

/** Where a time falls in a history: the two frames around it (the same frame at a frame's exact time) and what a ray there tests. */
export interface HistoryCursor {
  /** World boxes of the frame at or before the time. */
  a: Float32Array;
  /** World boxes of the frame after it (`a` itself at a frame's exact time). */
  b: Float32Array;
  /** Spheres holding each box at the time (HistoryFrame.sphere). */
  sphere: Float32Array;
  /**
   * Fraction of the way from `a` to `b` (0 exactly at a frame's time), in s[0]: an array, as the
   * box interpolation reads it from one (interpolateObbArrays).
   */
  readonly s: Float64Array;
  /** Absent flags of both frames (characters not seen at `a` or `b`). */
  absentA: Uint8Array;
  absentB: Uint8Array;
  /** Characters recorded in both frames (higher indices were added later). */
  characterCount: number;
  /** Character and cluster bounds a ray at this time tests. */
  characterAabb: Float32Array;
  clusterAabb: Float32Array;
  /** The grid to walk: the frame's cells with this cursor's own stamps. */
  readonly grid: CharacterRayGrid;
  /** The history, ring slot of `a` and history version the cursor was last pointed at (locateFrame). */
  history: HitboxHistory | undefined;
  slotA: number;
  version: number;
}

/** A cursor for `locateTime` (each caller keeps its own: the grid's stamps are per walk). */
export function createHistoryCursor(): HistoryCursor {
  const empty = new Float32Array(0);
  return { a: empty, b: empty, sphere: empty, s: new Float64Array(1), absentA: new Uint8Array(0), absentB: new Uint8Array(0), characterCount: 0, characterAabb: empty, clusterAabb: empty, grid: createCharacterRayGrid(), history: undefined, slotA: -1, version: -1 };
}

function createFrame(shared: boolean): HistoryFrame {
  return {
    characterCount: 0,
    hitboxCount: 0,
    world: allocate(Float32Array, 0, shared),
    sphere: allocate(Float32Array, 0, shared),
    absent: allocate(Uint8Array, 0, shared),
    characterAabb: allocate(Float32Array, 0, shared),
    clusterAabb: allocate(Float32Array, 0, shared),
    sweptCharacterAabb: allocate(Float32Array, 0, shared),
    sweptClusterAabb: allocate(Float32Array, 0, shared),
    grid: createCharacterRayGrid(1, shared),
  };
}

/**
 * Most frames a history keeps: a window of 18 minutes at 60 steps a second. The frames' objects
 * alone take about 2.4 KB each before any character is recorded (155 MB at this many).
 */
export const MAX_HISTORY_FRAMES = 65536;

/**
 * An empty history keeping the last `frames` frames. With `shared`, its frames live on
 * SharedArrayBuffers, so worker threads can cast rays at past times (a pipeline with `workers`
 * makes its history so). Throws CollideInputError unless `frames` is an integer from 2 (a time
 * between two frames needs both) to MAX_HISTORY_FRAMES.
 */
export function createHitboxHistory(frames: number, shared = false): HitboxHistory {
  assertHistoryFrames(frames, 'createHitboxHistory: frames');
  return {
    frames,
    count: 0,
    oldestTime: NaN,
    newestTime: NaN,
    newest: -1,
    version: 0,
    time: allocate(Float64Array, frames, shared),
    slots: Array.from({ length: frames }, () => createFrame(shared)),
  };
}

/**
 * Empties the history: times before the next recorded frame can no longer be rewound to, and the
 * next frame may have any time. For a discontinuity (a new map, a moved world origin), after
 * which the frames held no longer describe the world.
 */
export function clearHitboxHistory(history: HitboxHistory): void {
  assertHitboxHistory(history, 'clearHitboxHistory');
  history.count = 0;
  history.newest = -1;
  history.version++;
  history.oldestTime = history.newestTime = NaN;
}

// Scratch of the grid build: per character the bounds the grid places it by, and whether it is left out.
const gridInput: Pick<HitboxStore, 'characterAabb' | 'characterCount' | 'hitboxCount' | 'retired'> = { characterAabb: new Float32Array(0), characterCount: 0, hitboxCount: new Int32Array(0), retired: new Uint8Array(0) };

/**
 * Records the store's current world boxes as the frame at `time` (your clock, e.g. the server's
 * tick time), replacing the oldest frame once `frames` are held. Characters retired (or without
 * hitboxes) are recorded as absent. Throws CollideInputError unless `time` is finite and later
 * than the newest frame's. Once the frames have grown to the store, it allocates only the three
 * typed-array views it copies the store through.
 */
export function recordHitboxHistory(history: HitboxHistory, store: HitboxStore, time: number): void {
  assertHitboxHistory(history, 'recordHitboxHistory');
  assertHitboxStore(store, 'recordHitboxHistory');
  if (!Number.isFinite(time)) throw new CollideInputError(`recordHitboxHistory: time must be a finite number, got ${time}`);
  if (history.count > 0 && !(time > history.newestTime)) {
    throw new CollideInputError(`recordHitboxHistory: time must increase from frame to frame, got ${time} after ${history.newestTime}`);
  }
  const k = history.frames;
  const slot = (history.newest + 1) % k;
  const frame = history.slots[slot];
  const previous = history.count > 0 ? history.slots[history.newest] : undefined;
  const n = store.characterCount, hitboxes = store.count, clusters = store.clusterCount;
  frame.world = sized(frame.world, OBB_STRIDE * hitboxes);
  frame.world.set(store.world.subarray(0, OBB_STRIDE * hitboxes));
  frame.sphere = sized(frame.sphere, SPHERE_STRIDE * hitboxes);
  frame.absent = sized(frame.absent, n);
  frame.characterAabb = sized(frame.characterAabb, 6 * n);
  frame.characterAabb.set(store.characterAabb.subarray(0, 6 * n));
  frame.clusterAabb = sized(frame.clusterAabb, 6 * clusters);
  frame.clusterAabb.set(store.clusterAabb.subarray(0, 6 * clusters));
  frame.sweptCharacterAabb = sized(frame.sweptCharacterAabb, 6 * n);
  frame.sweptClusterAabb = sized(frame.sweptClusterAabb, 6 * clusters);
  gridInput.characterAabb = grown(gridInput.characterAabb, 6 * n);
  gridInput.retired = grown(gridInput.retired, n);
  for (let c = 0; c < n; c++) {
    const absent = store.retired[c] === 1 || store.hitboxCount[c] === 0 ? 1 : 0;
    frame.absent[c] = absent;
    if (absent === 1) invert(frame.characterAabb, 6 * c);
    const seenBefore = previous !== undefined && c < previous.characterCount && previous.absent[c] === 0;
    if (seenBefore && absent === 0) {
      sweptBounds(frame, previous, store, c);
    } else {
      invert(frame.sweptCharacterAabb, 6 * c);
      // Seen at this frame alone: its spheres at this frame.
      const end = SPHERE_STRIDE * (store.firstHitbox[c] + store.hitboxCount[c]);
      for (let i = SPHERE_STRIDE * store.firstHitbox[c]; absent === 0 && i < end; i++) frame.sphere[i] = store.sphere[i];
    }
    // The grid holds every box a ray may test: between both frames, or at the one frame it was seen.
    const bounds = seenBefore && absent === 0 ? frame.sweptCharacterAabb : absent === 0 ? frame.characterAabb : seenBefore ? previous.characterAabb : undefined;
    gridInput.retired[c] = bounds === undefined ? 1 : 0;
    for (let k = 0; bounds !== undefined && k < 6; k++) gridInput.characterAabb[6 * c + k] = bounds[6 * c + k];
  }
  gridInput.characterCount = n;
  gridInput.hitboxCount = store.hitboxCount;
  buildCharacterRayGrid(frame.grid, gridInput);
  frame.characterCount = n;
  frame.hitboxCount = hitboxes;
  history.time[slot] = time;
  history.newest = slot;
  history.version++;
  history.count = Math.min(history.count + 1, k);
  history.newestTime = time;
  history.oldestTime = history.time[(slot - history.count + 1 + k) % k];
}

/**
 * `array` if it holds `length` numbers, else a new one of exactly that length: the frames are most
 * of the history's memory, and doubling (as the stores grow) would leave up to half of it unused.
 */
function sized<T extends Float32Array | Uint8Array>(array: T, length: number): T {
  return array.length >= length ? array : allocateLike(array, length);
}

function invert(aabb: Float32Array, o: number): void {
  aabb[o] = aabb[o + 1] = aabb[o + 2] = Infinity;
  aabb[o + 3] = aabb[o + 4] = aabb[o + 5] = -Infinity;
}

/**
 * The swept bounds of character c between the frame `before` and this one: each box's two AABBs
 * widened by interpolationReach hold it at every time between (interpolateObb), so a cluster's
 * AABBs at both frames (as updateHitboxes bounded them), widened by its boxes' largest reach, hold
 * the cluster; widened again for Float32 storage like updateHitboxes' bounds. The boxes' own AABBs
 * would be tighter by the reach's spread within a cluster, at twice this record's cost.
 */
function sweptBounds(frame: HistoryFrame, before: HistoryFrame, store: HitboxStore, c: number): void {
  const after = frame.world, sphere = frame.sphere, previous = before.world;
  const rounding = HITBOX_ROUNDING_MARGIN_RELATIVE, perCluster = HITBOXES_PER_CLUSTER;
  const clusterBefore = before.clusterAabb, clusterAfter = frame.clusterAabb, cluster = frame.sweptClusterAabb;
  empty(characterBounds);
  const end = store.firstHitbox[c] + store.hitboxCount[c];
  for (let h0 = store.firstHitbox[c], a = 6 * store.firstCluster[c]; h0 < end; h0 += perCluster, a += 6) {
    let reach = 0;
    const clusterEnd = end < h0 + perCluster ? end : h0 + perCluster;
    for (let h = h0; h < clusterEnd; h++) {
      const o = 15 * h;
      const e = interpolationReach(previous, o, after, o);
      reach = e > reach ? e : reach;
      const ha0 = previous[o + 12], ha1 = previous[o + 13], ha2 = previous[o + 14];
      const hb0 = after[o + 12], hb1 = after[o + 13], hb2 = after[o + 14];
      const hMax = Math.sqrt(Math.max(ha0 * ha0 + ha1 * ha1 + ha2 * ha2, hb0 * hb0 + hb1 * hb1 + hb2 * hb2));
      // The sphere about the two centres' midpoint: the box's centre stays within half their
      // distance of it, its corners within |H|max of the centre; widened for its Float32 centre.
      const mx = 0.5 * (previous[o] + after[o]), my = 0.5 * (previous[o + 1] + after[o + 1]), mz = 0.5 * (previous[o + 2] + after[o + 2]);
      const dx = after[o] - previous[o], dy = after[o + 1] - previous[o + 1], dz = after[o + 2] - previous[o + 2];
      const so = 4 * h;
      sphere[so] = mx; sphere[so + 1] = my; sphere[so + 2] = mz;
      sphere[so + 3] = (hMax + 0.5 * Math.sqrt(dx * dx + dy * dy + dz * dz)) * (1 + rounding)
        + rounding * (Math.abs(mx) + Math.abs(my) + Math.abs(mz));
    }
    const b = clusterBounds;
    for (let k = 0; k < 6; k++) {
      const lo = clusterBefore[a + k], hi = clusterAfter[a + k];
      b[k] = (k < 3 ? (lo < hi ? lo : hi) : (lo > hi ? lo : hi)) + (k < 3 ? -reach : reach);
    }
    // Per axis: a stored corner coordinate moves with that coordinate of the centre and with the box size.
    const size = Math.max(b[3] - b[0], b[4] - b[1], b[5] - b[2]);
    for (let k = 0; k < 3; k++) {
      const margin = rounding * (Math.max(-b[k], b[3 + k]) + size);
      cluster[a + k] = b[k] - margin;
      cluster[a + 3 + k] = b[3 + k] + margin;
      characterBounds[k] = Math.min(characterBounds[k], cluster[a + k]);
      characterBounds[3 + k] = Math.max(characterBounds[3 + k], cluster[a + 3 + k]);
    }
  }
  frame.sweptCharacterAabb.set(characterBounds, 6 * c);
}

// Scratch of sweptBounds: min-max bounds of a cluster and of its character, in doubles.
const clusterBounds = new Float64Array(6);
const characterBounds = new Float64Array(6);

function empty(bounds: Float64Array): void {
  bounds[0] = bounds[1] = bounds[2] = Infinity;
  bounds[3] = bounds[4] = bounds[5] = -Infinity;
}

/** Grows `bounds` over the AABB of the box at w[o] (Arvo: half-size Σ_k H_k |e_k| per axis), widened by e. */
export function includeBox(bounds: Floats, w: ReadonlyFloats, o: number, e: number): void {
  const h0 = w[o + 12], h1 = w[o + 13], h2 = w[o + 14];
  for (let k = 0; k < 3; k++) {
    const reach = h0 * Math.abs(w[o + 3 + k]) + h1 * Math.abs(w[o + 6 + k]) + h2 * Math.abs(w[o + 9 + k]) + e;
    bounds[k] = Math.min(bounds[k], w[o + k] - reach);
    bounds[3 + k] = Math.max(bounds[3 + k], w[o + k] + reach);
  }
}

/**
 * Throws CollideInputError, naming `caller`, the argument (`time`, or `times[ray]` for a ray of a
 * batch), the time and the window, for a time that is not a number inside [oldestTime,
 * newestTime] (or an empty history).
 */
export function assertTimeInWindow(history: HitboxHistory, time: number, caller: string, ray = -1): void {
  if (history.count > 0 && typeof time === 'number' && time >= history.oldestTime && time <= history.newestTime) return;
  const what = ray < 0 ? 'time' : `times[${ray}]`;
  if (typeof time !== 'number') throw new CollideInputError(`${caller}: ${what} must be a number, got ${valueName(time)}`);
  if (history.count === 0) throw new CollideInputError(`${caller}: the hitbox history holds no frame yet, so ${what} ${time} cannot be rewound to`);
  throw new CollideInputError(`${caller}: ${what} ${time} is outside the kept window [${history.oldestTime}, ${history.newestTime}] (${history.count} frames)`);
}

/** Ring slot of the i-th oldest frame held. */
function slotOf(history: HitboxHistory, i: number): number {
  const k = history.frames;
  return (history.newest - history.count + 1 + i + k) % k;
}

/** The last frame at or before `time`, a time inside the window: 0 for the oldest (binary search). */
export function frameBefore(history: HitboxHistory, time: number): number {
  let lo = 0, hi = history.count - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (history.time[slotOf(history, mid)] <= time) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

/**
 * Points `cursor` at `time`: the two frames around it and the fraction between them, or the one
 * frame at its exact time. Throws as assertTimeInWindow does.
 */
export function locateTime(cursor: HistoryCursor, history: HitboxHistory, time: number, caller: string): void {
  assertTimeInWindow(history, time, caller);
  locateFrame(cursor, history, frameBefore(history, time), time);
}

/**
 * Points `cursor` at `time`, a time inside the window whose frame before it is `lo` (frameBefore).
 * A cursor already at frame `lo` of the same history only takes the new fraction: a batch sorted
 * by frame points it at each frame once.
 */
export function locateFrame(cursor: HistoryCursor, history: HitboxHistory, lo: number, time: number): void {
  const slotA = slotOf(history, lo);
  const tA = history.time[slotA];
  if (tA !== time && cursor.history === history && cursor.slotA === slotA && cursor.version === history.version && cursor.s[0] !== 0) {
    cursor.s[0] = (time - tA) / (history.time[slotOf(history, lo + 1)] - tA);
    return;
  }
  cursor.history = history;
  cursor.slotA = slotA;
  cursor.version = history.version;
  const frameA = history.slots[slotA];
  const grid = cursor.grid;
  let cells: CharacterRayGrid;
  if (tA === time) {
    // At a frame's own time: its boxes and bounds as stored, the present-time cast's numbers.
    cursor.a = cursor.b = frameA.world;
    cursor.sphere = frameA.sphere;
    cursor.s[0] = 0;
    cursor.absentA = cursor.absentB = frameA.absent;
    cursor.characterCount = frameA.characterCount;
    cursor.characterAabb = frameA.characterAabb;
    cursor.clusterAabb = frameA.clusterAabb;
    cells = frameA.grid;
  } else {
    const slotB = slotOf(history, lo + 1);
    const frameB = history.slots[slotB];
    cursor.a = frameA.world;
    cursor.b = frameB.world;
    cursor.sphere = frameB.sphere;
    cursor.s[0] = (time - tA) / (history.time[slotB] - tA);
    cursor.absentA = frameA.absent;
    cursor.absentB = frameB.absent;
    cursor.characterCount = Math.min(frameA.characterCount, frameB.characterCount);
    cursor.characterAabb = frameB.sweptCharacterAabb;
    cursor.clusterAabb = frameB.sweptClusterAabb;
    cells = frameB.grid;
  }
  grid.cellSize = cells.cellSize;
  grid.origin = cells.origin;
  grid.dims = cells.dims;
  grid.cellStart = cells.cellStart;
  grid.cellItems = cells.cellItems;
  grid.stamp = grown(grid.stamp, cells.stamp.length);
}

/** Whether character c was seen at both frames of the cursor. */
export function seenAt(cursor: HistoryCursor, c: number): boolean {
  return c < cursor.characterCount && cursor.absentA[c] === 0 && cursor.absentB[c] === 0;
}

/** Writes hitbox h's box at the cursor's time at out[oo..oo+14] (OBB layout): the stored box at a frame's time, else interpolateObb between the two. */
export function boxAt(out: Floats, oo: number, cursor: HistoryCursor, h: number): void {
  const o = OBB_STRIDE * h;
  if (cursor.s[0] === 0) {
    for (let k = 0; k < OBB_STRIDE; k++) out[oo + k] = cursor.a[o + k];
  } else {
    interpolateObbArrays(out, oo, cursor.a, o, cursor.b, o, cursor.s, 0);
  }
}

const cursor = createHistoryCursor();

/**
 * Writes the world boxes of character `character` (every character seen at that time when −1,
 * the default) at `time` into `out`, OBB layout by hitbox index (hitbox h at 15h, as
 * HitboxStore.world), for queries at a past time. At a frame's exact time the boxes are the
 * stored ones; in between, interpolateObb of the two frames around the time. A character not
 * seen at both frames (added later, or retired) is left unwritten. Returns the number of
 * characters written. Throws CollideInputError for a time outside the window, a character index
 * out of range or an `out` shorter than its hitboxes need. Allocation-free.
 */
export function hitboxesAt(out: Floats, history: HitboxHistory, store: HitboxStore, time: number, character = -1): number {
  return boxesAt(out, history, store, time, character, 'hitboxesAt');
}

/** @internal hitboxesAt, its errors naming `caller`. */
export function boxesAt(out: Floats, history: HitboxHistory, store: HitboxStore, time: number, character: number, caller: string): number {
  assertHitboxHistory(history, caller);
  assertHitboxStore(store, caller);
  locateTime(cursor, history, time, caller);
  if (!(Number.isInteger(character) && character >= -1 && character < store.characterCount)) {
    throw new CollideInputError(`${caller}: character must be -1 or a character index in [0, ${store.characterCount}), got ${character}`);
  }
  const first = character < 0 ? 0 : character, last = character < 0 ? store.characterCount - 1 : character;
  const needed = OBB_STRIDE * (last < 0 ? 0 : store.firstHitbox[last] + store.hitboxCount[last]);
  if (!isNumberList(out)) throw new CollideInputError(`${caller}: out must be an array of numbers (typed or plain), got ${valueName(out)}`);
  if (!(out.length >= needed)) throw new CollideInputError(`${caller}: out holds ${out.length} numbers, ${needed} needed`);
  let written = 0;
  for (let c = first; c <= last; c++) {
    if (!seenAt(cursor, c)) continue;
    written++;
    for (let h = store.firstHitbox[c], end = h + store.hitboxCount[c]; h < end; h++) boxAt(out, OBB_STRIDE * h, cursor, h);
  }
  return written;
}

/** Throws CollideInputError unless `frames` (named `what`) is an integer in [2, MAX_HISTORY_FRAMES]. */
export function assertHistoryFrames(frames: unknown, what: string): void {
  if (!(Number.isInteger(frames) && (frames as number) >= 2 && (frames as number) <= MAX_HISTORY_FRAMES)) {
    throw new CollideInputError(`${what} must be an integer in [2, ${MAX_HISTORY_FRAMES}], got ${valueName(frames)}`);
  }
}

/** Throws CollideInputError unless `history` is a hitbox history (createHitboxHistory). */
export function assertHitboxHistory(history: unknown, caller: string): void {
  assertMadeBy(history, 'time', caller, 'history', 'createHitboxHistory');
}
