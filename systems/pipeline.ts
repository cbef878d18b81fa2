/**
 * createCollisionPipeline: registers the collision stores into the user's world and returns the
 * systems in frame order (refitVolumes, [updateCharacterColliders], broadPhase, narrowPhase), a `step` that
 * runs them, and the outputs. The library never creates a world: it attaches to the one given.
 */
import { observe, onRemove, type World } from 'bitecs';
import { PairList } from '../src/broadphase/pairList';
import { CollideInputError, assertKnownKeys } from '../src/errors';
import type { KdopK } from '../src/layout';
import { SHAPE_CHARACTER, createColliderStore, deleteColliderId } from '../components/collider';
import { createContactStore } from '../components/contactStore';
import { createTransformStore } from '../components/transform';
import { broadPhase, resolveBroadPhase } from './broadPhase';
import {
  COLLISION_PIPELINE,
  type CollisionPipeline,
  type CollisionPipelineOptions,
  type PipelineTimings,
  type System,
} from './collisionState';
import { createHitboxPairStore } from '../components/hitboxPairStore';
import { updateCharacterColliders } from './characterColliders';
import { narrowPhase } from './narrowPhase';
import { refitVolumes } from './refitVolumes';
import { createPoseSource } from './poseSource';
import { createTouchingTag } from './touchingTag';
import type { BoneHitboxState } from './updateBoneHitboxes';
import { createSkeletonStore } from '../src/character/skeleton';
import { createHitboxStore, retireCharacter } from '../src/character/hitboxStore';
import { createCharacterRayGrid } from '../src/character/rayGrid';

/** Every option `createCollisionPipeline` accepts. */
const PIPELINE_OPTIONS = ['broadPhase', 'aabbMargin', 'kdopK', 'characters', 'timings', 'transform', 'tags'] as const;

const KDOP_KS: readonly number[] = [6, 14, 18, 26];

/** Runs `system` on `world`, adding its duration to timings[key] when timing. */
function timed(p: CollisionPipeline, key: keyof PipelineTimings, system: System, world: World, measure: boolean): World {
  if (!measure) return system(world);
  const t0 = performance.now();
  const w = system(world);
  p.timings[key] = performance.now() - t0;
  return w;
}

/** The `characters` option: `true` makes fresh stores (with a ray grid); an object is checked. */
function resolveCharacters(option: CollisionPipelineOptions['characters']): BoneHitboxState | undefined {
  if (option === undefined || option === false) return undefined;
  if (option === true) return { skeletons: createSkeletonStore(), hitboxes: createHitboxStore(), rayGrid: createCharacterRayGrid() };
  if (option === null || typeof option !== 'object' || !option.skeletons || !option.hitboxes) {
    throw new CollideInputError('createCollisionPipeline: characters must be true or { skeletons, hitboxes[, rayGrid] }');
  }
  assertKnownKeys(option, ['skeletons', 'hitboxes', 'rayGrid'], 'createCollisionPipeline: characters');
  return option;
}

/**
 * Creates the collision pipeline of `world` (a bitecs world) and registers it there: the world
 * gets a Transform and a Collider store (bitecs components), and the systems find the pipeline on
 * the world. One pipeline per world; any number of worlds. Throws CollideInputError for a world
 * that already has one or invalid options.
 */
export function createCollisionPipeline(world: World, options: CollisionPipelineOptions = {}): CollisionPipeline {
  if (world === null || typeof world !== 'object') throw new CollideInputError('createCollisionPipeline: world must be a bitecs world object');
  if ((world as { [COLLISION_PIPELINE]?: unknown })[COLLISION_PIPELINE] !== undefined) {
    throw new CollideInputError('createCollisionPipeline: this world already has a collision pipeline (destroy() it first)');
  }
  if (options === null || typeof options !== 'object') throw new CollideInputError('createCollisionPipeline: options must be an object');
  assertKnownKeys(options, PIPELINE_OPTIONS, 'createCollisionPipeline');
  const aabbMargin = options.aabbMargin ?? 0;
  if (!Number.isFinite(aabbMargin) || aabbMargin < 0) {
    throw new CollideInputError(`createCollisionPipeline: aabbMargin must be a finite number >= 0, got ${aabbMargin}`);
  }
  const kdopK = options.kdopK ?? 14;
  if (!KDOP_KS.includes(kdopK)) throw new CollideInputError(`createCollisionPipeline: kdopK must be 6, 14, 18 or 26, got ${kdopK}`);
  const measure = options.timings === true;
  if (options.tags !== undefined && typeof options.tags !== 'boolean') throw new CollideInputError(`createCollisionPipeline: tags must be a boolean, got ${options.tags}`);
  const touchingTag = options.tags ? createTouchingTag() : undefined;
  const characters = resolveCharacters(options.characters);
  const poseSource = options.transform === undefined ? undefined : createPoseSource(options.transform, 'createCollisionPipeline: transform');
  const systems: System[] = characters
    ? [refitVolumes, updateCharacterColliders, broadPhase, narrowPhase]
    : [refitVolumes, broadPhase, narrowPhase];
  const collider = createColliderStore(kdopK as KdopK);
  let unobserve = (): void => {};

  const pipeline: CollisionPipeline = {
    world,
    transform: createTransformStore(),
    collider,
    broadPhase: resolveBroadPhase(options.broadPhase ?? 'spatialHash'),
    candidates: new PairList(),
    touchingPairs: new PairList(),
    contacts: createContactStore(),
    events: { begin: new PairList(), stay: new PairList(), end: new PairList() },
    aabbMargin,
    characters,
    hitboxPairs: createHitboxPairStore(),
    systems,
    step(w: World): World {
      if (w !== world) throw new CollideInputError('step: this pipeline belongs to another world');
      w = timed(pipeline, 'refitVolumes', refitVolumes, w, measure);
      if (characters) w = timed(pipeline, 'boneHitboxes', updateCharacterColliders, w, measure);
      w = timed(pipeline, 'broadPhase', broadPhase, w, measure);
      return timed(pipeline, 'narrowPhase', narrowPhase, w, measure);
    },
    timings: { refitVolumes: 0, boneHitboxes: 0, broadPhase: 0, narrowPhase: 0 },
    origin: new Float64Array(3),
    frame: 0,
    poseSource,
    Touching: touchingTag?.Touching,
    touchingTag,
    scratch: {
      broadInput: { ids: collider.ids, count: 0, boxes: collider.aabb, isStatic: collider.isStatic, layer: collider.layer, mask: collider.mask },
      axisPairs: new PairList(),
      axisOfPair: new Int8Array(64),
      nextAxisPairs: new PairList(),
      nextAxisOfPair: new Int8Array(64),
      touchingGenA: new Uint32Array(64),
      touchingGenB: new Uint32Array(64),
      previousTouching: new PairList(),
      previousGenA: new Uint32Array(64),
      previousGenB: new Uint32Array(64),
      reversedTouching: new PairList(),
      reversedFrame: -1,
      reversedContacts: new PairList(),
      reversedContactsFrame: -1,
    },
    destroy(): void {
      unobserve();
      delete (world as { [COLLISION_PIPELINE]?: unknown })[COLLISION_PIPELINE];
    },
  };
  // removeCollider and bitecs removeEntity both end up here, so the store never holds a dead collider.
  const unobserveCollider = observe(world, onRemove(collider), (eid: number) => {
    // A character's hitboxes stay in the stores; ray casts stop seeing them.
    if (collider.kind[eid] === SHAPE_CHARACTER && characters !== undefined) retireCharacter(characters.hitboxes, collider.character[eid]);
    deleteColliderId(collider, eid);
  });
  const unobserveTransform = observe(world, onRemove(pipeline.transform), (eid: number) => {
    pipeline.transform.present[eid] = 0;
  });
  unobserve = () => {
    unobserveCollider();
    unobserveTransform();
  };
  Object.defineProperty(world, COLLISION_PIPELINE, { value: pipeline, configurable: true, enumerable: false, writable: false });
  return pipeline;
}
