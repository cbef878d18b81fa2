import { grown } from '../broadphase/growable';
import { allocate } from '../sharedMemory';
import { assertMadeBy } from '../query/rayQuery';
import { OBB_STRIDE } from '../layout';
import { SWEEP_CONTACT_TOLERANCE } from '../tolerances';
import { SWEEP_MOTION_STRIDE } from '../query/sweep';
import { interpolationReach } from '../volumes/obb';
import { assertHitboxStore, HITBOXES_PER_CLUSTER, type HitboxStore } from './hitboxLayout';
import { buildCharacterRayGrid, createCharacterRayGrid, type CharacterRayGrid } from './rayGrid';
import { assertHitboxHistory, boxAt, createHistoryCursor, includeBox, locateTime, seenAt, type HitboxHistory } from './hitboxHistory';

/**
 * The motion of every hitbox over one frame, for melee sweeps (hitboxSweep.ts): each hitbox's box
 * at the start of the frame and at its end, and bounds that hold each box, and each character,
 * at every time in between (the boxes move as interpolateObb moves them).
 */

/**
 * Numbers per hitbox in `HitboxMotion.hitboxBounds`: its swept AABB (6), then a sphere holding it
 * over the motion (centre 3, radius: about the midpoint of its two centres).
 */
export const MOTION_BOUNDS_STRIDE = 10;

/**
 * Start and end boxes of every hitbox over a frame (createHitboxMotion): the start written by
 * beginHitboxMotion (the store before its update) or beginHitboxMotionAt (a time of a hitbox
 * history), the end taken by finishHitboxMotion (the store after its update). Arrays are replaced
 * when they grow.
 */
export interface HitboxMotion {
  /** Characters covered: those of the store at finishHitboxMotion. */
  characterCount: number;
  /** Per hitbox: its world box at the start (OBB layout, by hitbox index, as HitboxStore.world). */
  start: Float64Array;
  /** Per hitbox: its world box at the end: the store's `world` array at finishHitboxMotion. */
  end: ArrayLike<number>;
  /** Per character: 1 when it was present (not retired, with hitboxes) at both ends; the others are never hit. */
  seen: Uint8Array;
  /** Per character: an AABB holding its hitboxes over the motion, widened by the sweep's contact tolerance (6 numbers). */
  characterAabb: Float64Array;
  /** Per hitbox: the same for its box alone, then a sphere holding it (MOTION_BOUNDS_STRIDE numbers). */
  hitboxBounds: Float64Array;
  /** @internal Per cluster (HitboxStore.firstCluster): the union of its hitboxes' swept AABBs (6 numbers). */
  clusterAabb: Float64Array;
  /** @internal A grid over the characters' swept AABBs (those seen at both ends), so a sweep visits the few its weapon reaches. */
  grid: CharacterRayGrid;
  /** @internal The grid's input: the swept AABBs, and 1 per character left out. */
  gridInput: { characterAabb: Float64Array; characterCount: number; hitboxCount: Int32Array; retired: Uint8Array };
  /** @internal Characters when the start was written. */
  startCount: number;
  /** @internal Per hitbox: its motion prepared for the sweep kernel (SWEEP_MOTION_STRIDE numbers), once `prepared` is 1. */
  motion: Float64Array;
  /** @internal Per hitbox: 1 once `motion` holds it (cleared by finishHitboxMotion). */
  prepared: Uint8Array;
  /** @internal Motions finished so far: a thread's own prepared cache is stale when it changed. */
  version: number;
}

/** Arrays of a HitboxMotion that every thread's sweeps read (its grid's too: RAY_GRID arrays). */
export const MOTION_ARRAYS = ['start', 'seen', 'characterAabb', 'hitboxBounds', 'clusterAabb'] as const;

/**
 * An empty motion (no character); with `shared`, the arrays sweeps read (MOTION_ARRAYS and the
 * grid's) live on SharedArrayBuffers, for worker threads. `motion` and `prepared`, a cache each
 * sweeping thread fills, stay the thread's own.
 */
export function createHitboxMotion(shared = false): HitboxMotion {
  return {
    characterCount: 0, start: allocate(Float64Array, 0, shared), end: new Float32Array(0), seen: allocate(Uint8Array, 0, shared), characterAabb: allocate(Float64Array, 0, shared),
    hitboxBounds: allocate(Float64Array, 0, shared), clusterAabb: allocate(Float64Array, 0, shared), grid: createCharacterRayGrid(1, shared),
    gridInput: { characterAabb: new Float64Array(0), characterCount: 0, hitboxCount: new Int32Array(0), retired: new Uint8Array(0) },
    startCount: 0, motion: new Float64Array(0), prepared: new Uint8Array(0), version: 0,
  };
}

/** Whether character c of the store takes part in queries (not retired, has hitboxes). */
function present(store: HitboxStore, c: number): boolean {
  return store.retired[c] === 0 && store.hitboxCount[c] > 0;
}

/** Sizes the start arrays to the store. */
function beginFor(motion: HitboxMotion, store: HitboxStore): void {
  motion.start = grown(motion.start, OBB_STRIDE * store.count);
  motion.seen = grown(motion.seen, store.characterCount);
  motion.startCount = store.characterCount;
}

/**
 * Takes the store's current world boxes as the start of the motion: call it before the frame's
 * hitbox update (the pipeline's `characters: { sweeps: true }` option does). Allocation-free once
 * grown.
 */
export function beginHitboxMotion(motion: HitboxMotion, store: HitboxStore): void {
  assertHitboxMotion(motion, 'beginHitboxMotion');
  assertHitboxStore(store, 'beginHitboxMotion');
  beginFor(motion, store);
  motion.start.set(store.world.subarray(0, OBB_STRIDE * store.count));
  for (let c = 0; c < store.characterCount; c++) motion.seen[c] = present(store, c) ? 1 : 0;
}

const cursor = createHistoryCursor();

/**
 * Takes the boxes at `time` of a hitbox history of `store` (e.g. the frame before the newest) as
 * the start of the motion: at a frame's time its stored boxes, between frames interpolateObb of
 * the two. A character not seen then (added later, or retired) is left out of the motion. Throws
 * CollideInputError for a time outside the history's window.
 */
export function beginHitboxMotionAt(motion: HitboxMotion, history: HitboxHistory, store: HitboxStore, time: number, caller = 'beginHitboxMotionAt'): void {
  assertHitboxMotion(motion, caller);
  assertHitboxStore(store, caller);
  assertHitboxHistory(history, caller);
  locateTime(cursor, history, time, caller);
  beginFor(motion, store);
  for (let c = 0; c < store.characterCount; c++) {
    const seen = seenAt(cursor, c);
    motion.seen[c] = seen ? 1 : 0;
    if (!seen) continue;
    for (let h = store.firstHitbox[c], end = h + store.hitboxCount[c]; h < end; h++) boxAt(motion.start, OBB_STRIDE * h, cursor, h);
  }
}

// Scratch: one character's and one hitbox's swept bounds, in doubles.
const bounds = new Float64Array(6);
const box = new Float64Array(6);
const cluster = new Float64Array(6);

function empty(b: Float64Array): void {
  b[0] = b[1] = b[2] = Infinity;
  b[3] = b[4] = b[5] = -Infinity;
}

/**
 * Ends the motion at the store's current world boxes (after the frame's hitbox update) and
 * computes the swept bounds of every hitbox and character present at both ends, each widened by
 * the sweep's contact tolerance of its size (a pair within the tolerance is never culled).
 * Allocation-free once grown.
 */
export function finishHitboxMotion(motion: HitboxMotion, store: HitboxStore): void {
  assertHitboxMotion(motion, 'finishHitboxMotion');
  assertHitboxStore(store, 'finishHitboxMotion');
  const n = Math.min(motion.startCount, store.characterCount);
  const start = motion.start, end = store.world;
  motion.end = end;
  motion.characterCount = n;
  motion.characterAabb = grown(motion.characterAabb, 6 * n);
  motion.hitboxBounds = grown(motion.hitboxBounds, MOTION_BOUNDS_STRIDE * store.count);
  motion.clusterAabb = grown(motion.clusterAabb, 6 * store.clusterCount);
  const gridInput = motion.gridInput;
  gridInput.retired = grown(gridInput.retired, n);
  motion.motion = grown(motion.motion, SWEEP_MOTION_STRIDE * store.count);
  motion.prepared = grown(motion.prepared, store.count);
  motion.prepared.fill(0, 0, store.count);
  motion.version++;
  const hb = motion.hitboxBounds, ca = motion.characterAabb, cl = motion.clusterAabb;
  for (let c = 0; c < n; c++) {
    if (motion.seen[c] === 1 && !present(store, c)) motion.seen[c] = 0;
    gridInput.retired[c] = 1 - motion.seen[c];
    if (motion.seen[c] === 0) continue;
    empty(bounds);
    const first = store.firstHitbox[c], last = first + store.hitboxCount[c];
    // Cluster by cluster: the character's bounds are the union of its clusters'.
    for (let h0 = first, a = 6 * store.firstCluster[c]; h0 < last; h0 += HITBOXES_PER_CLUSTER, a += 6) {
      empty(cluster);
      for (let h = h0, h1 = Math.min(last, h0 + HITBOXES_PER_CLUSTER); h < h1; h++) {
        const o = OBB_STRIDE * h, b = MOTION_BOUNDS_STRIDE * h;
        // Math.hypot is several times slower than the square root of the sum.
        const a0 = start[o + 12], a1 = start[o + 13], a2 = start[o + 14], b0 = end[o + 12], b1 = end[o + 13], b2 = end[o + 14];
        const size = Math.sqrt(Math.max(a0 * a0 + a1 * a1 + a2 * a2, b0 * b0 + b1 * b1 + b2 * b2));
        const e = interpolationReach(start, o, end, o) + SWEEP_CONTACT_TOLERANCE * size;
        empty(box);
        includeBox(box, start, o, e);
        includeBox(box, end, o, e);
        for (let k = 0; k < 3; k++) {
          hb[b + k] = box[k];
          hb[b + 3 + k] = box[3 + k];
          cluster[k] = Math.min(cluster[k], box[k]);
          cluster[3 + k] = Math.max(cluster[3 + k], box[3 + k]);
        }
        // The centre stays within half its travel of the midpoint, the box within `size` of its centre.
        const mx = 0.5 * (start[o] + end[o]), my = 0.5 * (start[o + 1] + end[o + 1]), mz = 0.5 * (start[o + 2] + end[o + 2]);
        const dx = end[o] - start[o], dy = end[o + 1] - start[o + 1], dz = end[o + 2] - start[o + 2];
        hb[b + 6] = mx; hb[b + 7] = my; hb[b + 8] = mz;
        hb[b + 9] = size * (1 + SWEEP_CONTACT_TOLERANCE) + 0.5 * Math.sqrt(dx * dx + dy * dy + dz * dz);
      }
      for (let k = 0; k < 3; k++) {
        cl[a + k] = cluster[k];
        cl[a + 3 + k] = cluster[3 + k];
        bounds[k] = Math.min(bounds[k], cluster[k]);
        bounds[3 + k] = Math.max(bounds[3 + k], cluster[3 + k]);
      }
    }
    ca.set(bounds, 6 * c);
  }
  gridInput.characterAabb = ca;
  gridInput.characterCount = n;
  gridInput.hitboxCount = store.hitboxCount;
  buildCharacterRayGrid(motion.grid, gridInput);
}

/** Throws CollideInputError unless `motion` is a hitbox motion (createHitboxMotion). */
export function assertHitboxMotion(motion: unknown, caller: string): void {
  assertMadeBy(motion, 'hitboxBounds', caller, 'motion', 'createHitboxMotion');
}
