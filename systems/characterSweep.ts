/**
 * Melee sweeps on a pipeline's characters: a weapon moving from one pose to another over the last
 * step, against the characters' hitboxes moving over the same step (from their boxes before the
 * step to those after it).
 */
import type { World } from 'bitecs';
import { CollideInputError } from '../src/errors';
import { createHitboxStore } from '../src/character/hitboxStore';
import type { HitboxStore } from '../src/character/hitboxLayout';
import type { HitboxHit } from '../src/character/hitboxHit';
import { beginHitboxMotion, beginHitboxMotionAt, createHitboxMotion, finishHitboxMotion, type HitboxMotion } from '../src/character/hitboxMotion';
import { sweepAll, sweepFirst, type SweepQuery } from '../src/character/hitboxSweep';
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
    const motion = (p.hitboxMotion ??= createHitboxMotion());
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
