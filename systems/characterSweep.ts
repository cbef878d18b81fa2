/**
 * Melee sweeps on a pipeline's characters: a weapon moving from one pose to another over the last
 * step, against the characters' hitboxes moving over the same step (from their boxes before the
 * step to those after it).
 */
import type { World } from 'bitecs';
import { CollideInputError } from '../src/errors';
import { isShared } from '../src/sharedMemory';
import { createHitboxStore } from '../src/character/hitboxStore';
import type { HitboxStore } from '../src/character/hitboxLayout';
import type { HitboxHit } from '../src/character/hitboxHit';
import { beginHitboxMotion, beginHitboxMotionAt, createHitboxMotion, finishHitboxMotion, type HitboxMotion } from '../src/character/hitboxMotion';
import { checkSweepQuery, createSweepQuery, sweepAll, sweepFirst, type SweepQuery } from '../src/character/hitboxSweep';
import { createHitboxHit } from '../src/character/hitboxHit';
import { SWEEP_BATCH_ARRAYS, sweepAt, type SweepBatch } from '../src/character/sweepBatch';
import { HIT_ARRAYS, type HitboxRayHits } from '../src/character/hitboxRaycast';
import { assertBatchArrays, batchCount, hitWidth } from '../src/query/rayQuery';
import { OBB_STRIDE } from '../src/layout';
import { pipelineOf, type CollisionPipeline } from './collisionState';
import { characterOptionGiven } from './characterHistory';

// What a pipeline without characters (or not stepped yet) sweeps against: nothing.
const noHitboxes = createHitboxStore();
const noMotion = createHitboxMotion();

/** motionOf's answer, one record rewritten per call (an object literal per call was garbage). */
const swept: { store: HitboxStore; motion: HitboxMotion } = { store: noHitboxes, motion: noMotion };

/** Points `swept` at `store` and `motion`; returns it. */
function sweptOf(store: HitboxStore, motion: HitboxMotion): typeof swept {
  swept.store = store;
  swept.motion = motion;
  return swept;
}

/**
 * The pipeline's character store and the hitboxes' motion over its last step: kept by the steps
 * with the `sweeps` option, else made (once per step) from the hitbox history's two newest frames.
 * Throws CollideInputError when the pipeline keeps neither.
 */
function motionOf(target: World | CollisionPipeline, caller: string): typeof swept {
  const p = pipelineOf(target, caller);
  const store = p.characters?.hitboxes;
  // Before the first character collider reads the options, there is nothing to sweep.
  if (p.characterKind === undefined && (characterOptionGiven(p, 'sweeps') || characterOptionGiven(p, 'history'))) return sweptOf(noHitboxes, noMotion);
  if (p.sweeps) return store === undefined || p.hitboxMotion === undefined ? sweptOf(noHitboxes, noMotion) : sweptOf(store, p.hitboxMotion);
  if (p.historyFrames === 0 && p.hitboxHistory === undefined) {
    throw new CollideInputError(`${caller}: the pipeline keeps no hitboxes from before its last step: createCollisionPipeline(world, { characters: { sweeps: true } }) (or a hitbox history, { characters: { history: { frames } } })`);
  }
  const history = p.hitboxHistory;
  if (store === undefined || history === undefined || history.count === 0) return sweptOf(noHitboxes, noMotion);
  if (p.hitboxMotionTime !== history.newestTime) {
    const motion = (p.hitboxMotion ??= createHitboxMotion(isShared(store.world)));
    // One frame held (the first step, or the first after shiftWorldOrigin): the characters at rest.
    if (history.count === 1) beginHitboxMotion(motion, store);
    else beginHitboxMotionAt(motion, history, store, history.time[(history.newest - 1 + history.frames) % history.frames], caller);
    finishHitboxMotion(motion, store);
    p.hitboxMotionTime = history.newestTime;
  }
  return sweptOf(store, p.hitboxMotion!);
}

/**
 * The first contact of the query's weapon, moving from its start pose to its end pose over the
 * last step, with the pipeline's characters moving over that step (sweepHitboxes): `hit` names
 * the hitbox, bone, hit group, character and entity, t in [0, 1] (the fraction of the step), the
 * point and the normal (out of the hitbox). Returns whether anything was hit. The characters'
 * start boxes are their hitboxes before the step: kept by the step with the `characters: {
 * sweeps: true }` option, else the hitbox history's frame before the newest (`characters: {
 * history: { frames } }`). Before the second step (or the first after shiftWorldOrigin) the
 * characters are swept at rest. Allocation-free. Throws CollideInputError for a bad query, or when
 * the pipeline keeps neither option (naming them).
 */
export function sweepCharacters(target: World | CollisionPipeline, hit: HitboxHit, query: SweepQuery): boolean {
  const { store, motion } = motionOf(target, 'sweepCharacters');
  return sweepFirst(hit, store, motion, query, 'sweepCharacters');
}

/**
 * sweepCharacters' first contact with each character (sweepHitboxesAll): written to
 * hits[0..count) in order of t, count returned (at most hits.length, the earliest kept).
 */
export function sweepCharactersAll(target: World | CollisionPipeline, hits: HitboxHit[], query: SweepQuery): number {
  const { store, motion } = motionOf(target, 'sweepCharactersAll');
  return sweepAll(hits, store, motion, query, 'sweepCharactersAll');
}

/** Numbers per sweep of a SweepBatch's arrays. */
function sweepWidth(name: string): number {
  return name === 'start' || name === 'end' ? OBB_STRIDE : 1;
}

const batchQuery = createSweepQuery();
const batchHit = createHitboxHit();

/**
 * sweepCharacters for every sweep of `sweeps` (createSweepBatch, filled by setSweepAt): sweep i's
 * first contact written at index i of `hits` (createHitboxRayHits: hitbox −1 and t Infinity for a
 * miss; `distance`, a ray's, is NaN for a hit), to the bit of sweepCharacters. Returns the number
 * of sweeps that hit. With the `workers` option, a batch of at least `minSweeps` sweeps is split
 * between the calling thread and the workers when `sweeps` and `hits` are on SharedArrayBuffers
 * (createSweepBatch(n, true), createHitboxRayHits(n, true)), with the same results. Throws
 * CollideInputError, before sweeping, for a bad sweep (naming its index and field), short arrays,
 * or a pipeline that keeps no hitboxes from before its last step (as sweepCharacters).
 */
export function sweepCharactersBatch(target: World | CollisionPipeline, hits: HitboxRayHits, sweeps: SweepBatch): number {
  const caller = 'sweepCharactersBatch';
  const { store, motion } = motionOf(target, caller);
  const p = pipelineOf(target, caller);
  const n = batchCount(sweeps, caller, 'sweeps');
  assertBatchArrays(sweeps, SWEEP_BATCH_ARRAYS, n, sweepWidth, caller, 'sweeps');
  assertBatchArrays(hits, HIT_ARRAYS, n, hitWidth, caller, 'hits');
  for (let i = 0; i < n; i++) {
    if (sweeps.kind[i] > 1) throw new CollideInputError(`${caller}: sweeps.kind[${i}] must be 0 (a box) or 1 (a capsule), got ${sweeps.kind[i]}`);
    const q = sweepAt(batchQuery, sweeps, i);
    try {
      checkSweepQuery(q, caller);
    } catch (error) {
      // The message names the sweep only when there is one to throw: no string per sweep.
      throw error instanceof CollideInputError ? new CollideInputError(error.message.replace(`${caller}:`, `${caller} (sweep ${i}):`)) : error;
    }
    sweeps.ignoreCharacter[i] = q.ignore >= 0 ? store.characterOfEntity.get(q.ignore) ?? -1 : -1;
  }
  const parallel = p.parallel;
  if (parallel !== undefined && n >= parallel.minSweeps && store !== noHitboxes) {
    const count = parallel.queries.sweeps(hits, sweeps, store, motion);
    if (count >= 0) return count;
  }
  return sweepRange(hits, store, motion, sweeps, 0, n);
}

/**
 * @internal Sweeps [from, to) of a validated batch into `hits` and returns how many hit. Every
 * sweep writes only its own entries, so ranges may run on different threads, each with its own
 * view of the motion (its prepared-motion cache its own).
 */
export function sweepRange(hits: HitboxRayHits, store: HitboxStore, motion: HitboxMotion, sweeps: SweepBatch, from: number, to: number): number {
  let count = 0;
  for (let i = from; i < to; i++) {
    if (!sweepFirst(batchHit, store, motion, sweepAt(batchQuery, sweeps, i), 'sweepCharactersBatch', sweeps.ignoreCharacter[i])) {
      hits.hitbox[i] = hits.character[i] = hits.entity[i] = hits.bone[i] = hits.group[i] = -1;
      hits.t[i] = hits.distance[i] = Infinity;
      continue;
    }
    count++;
    hits.hitbox[i] = batchHit.hitbox;
    hits.character[i] = batchHit.character;
    hits.entity[i] = batchHit.entity;
    hits.bone[i] = batchHit.bone;
    hits.group[i] = batchHit.group;
    hits.t[i] = batchHit.t;
    hits.distance[i] = NaN;
    for (let k = 0; k < 3; k++) {
      hits.point[3 * i + k] = batchHit.point[k];
      hits.normal[3 * i + k] = batchHit.normal[k];
    }
  }
  return count;
}
