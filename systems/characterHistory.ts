/**
 * Lag compensation on a pipeline's characters: ray casts and hitbox boxes at a past time, from the
 * hitbox history that the characters' `history` option keeps (one frame per step, at the step's
 * time). A server casts each client's shot at the time that client saw the world.
 */
import type { World } from 'bitecs';
import { CollideInputError } from '../src/errors';
import type { Floats } from '../src/layout';
import type { RayBatch, RayQuery } from '../src/query/rayQuery';
import { boxesAt, type HitboxHistory } from '../src/character/hitboxHistory';
import { castAt, castHitboxRange, prepareHitboxRayBatchAt, preparedRayFrames, type HitboxRayHit, type HitboxRayHits } from '../src/character/hitboxRaycast';
import { createHitboxStore } from '../src/character/hitboxStore';
import type { HitboxStore } from '../src/character/hitboxLayout';
import { pipelineOf, type CollisionPipeline } from './collisionState';
import { characterIndexOf } from './characters';

// What a pipeline whose history holds no frame yet casts against (the time check refuses first).
const noHitboxes = createHitboxStore();

/**
 * @internal Whether the pipeline's `characters` option asks for `key` (a history, sweeps), which
 * the first character collider reads: before one is added, only the option as given tells.
 */
export function characterOptionGiven(p: CollisionPipeline, key: 'history' | 'sweeps'): boolean {
  const option = p.charactersOption as Record<string, unknown> | undefined;
  return option !== null && typeof option === 'object' && option[key] !== undefined && option[key] !== false;
}

/** The pipeline's history and hitbox store; throws CollideInputError when it keeps no history. */
function historyOf(target: World | CollisionPipeline, caller: string): { history: HitboxHistory; store: HitboxStore } {
  const p = pipelineOf(target, caller);
  const history = p.hitboxHistory;
  if (history === undefined && (p.historyFrames > 0 || characterOptionGiven(p, 'history'))) throw new CollideInputError(`${caller}: the hitbox history holds no frame yet (no character collider was added)`);
  if (history === undefined) {
    throw new CollideInputError(`${caller}: the pipeline keeps no hitbox history (createCollisionPipeline(world, { characters: { history: { frames: 64 } } }))`);
  }
  return { history, store: p.characters?.hitboxes ?? noHitboxes };
}

/**
 * The query's nearest character hit at a past `time` (in the units of `step(world, time)`, inside
 * [pipeline.hitboxHistory.oldestTime, newestTime]): raycastHitboxesAt over the pipeline's
 * characters as they were then, interpolated between the two steps around the time; at a step's
 * own time, the hit raycastHitboxes gave after that step, to the bit. A character seen at only one
 * of those steps (added or removed in between) is missed. Allocation-free. Throws
 * CollideInputError when the pipeline keeps no history, for a time outside the window (naming it
 * and the window) and for a bad query field.
 */
export function raycastCharactersAt(target: World | CollisionPipeline, hit: HitboxRayHit, query: RayQuery, time: number): boolean {
  const { history, store } = historyOf(target, 'raycastCharactersAt');
  return castAt(hit, history, store, query, time, 'raycastCharactersAt');
}

/**
 * Ray i of `rays` cast as raycastCharactersAt casts it at `times[i]` (each shot at its shooter's
 * time), its nearest hit written at index i of `hits` (hitbox −1 for a miss). Returns the number
 * of rays that hit. With the `workers` option, a batch of at least `minHitboxRays` (512) rays is
 * split between the calling thread and the workers, in runs of the rays sorted by frame, when
 * `rays` and `hits` are on SharedArrayBuffers (createRayBatch(n, true),
 * createHitboxRayHits(n, true)), with the same results. Throws CollideInputError, before
 * casting, as raycastCharactersAt does, naming the ray.
 */
export function raycastCharactersBatchAt(target: World | CollisionPipeline, hits: HitboxRayHits, rays: RayBatch, times: ArrayLike<number>): number {
  const caller = 'raycastCharactersBatchAt';
  const { history, store } = historyOf(target, caller);
  const order = prepareHitboxRayBatchAt(hits, history, store, rays, times, caller);
  const parallel = pipelineOf(target, caller).parallel;
  if (parallel !== undefined && rays.count >= parallel.minHitboxRays) {
    const count = parallel.hitboxes.castAt(hits, store, history, rays, times, order, preparedRayFrames());
    if (count >= 0) return count;
  }
  return castHitboxRange(hits, store, undefined, rays, 0, rays.count, history, times, order, preparedRayFrames());
}

/**
 * Writes the hitboxes of `entity`'s character (of every character when −1, the default) at a past
 * `time` into `out`, OBB layout by hitbox index (hitbox h at 15h, like the hitbox store's `world`),
 * for other queries at that time: hitboxesAt on the pipeline's history. Returns the number of
 * characters written (0 for a character not seen at both steps around the time). Throws
 * CollideInputError when the pipeline keeps no history, for a time outside the window, an entity
 * without a character collider or a short `out`.
 */
export function characterHitboxesAt(target: World | CollisionPipeline, out: Floats, time: number, entity = -1): number {
  const { history, store } = historyOf(target, 'characterHitboxesAt');
  return boxesAt(out, history, store, time, entity === -1 ? -1 : characterIndexOf(target, entity, 'characterHitboxesAt'), 'characterHitboxesAt');
}
