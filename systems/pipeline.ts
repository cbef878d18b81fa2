/**
 * createCollisionPipeline: registers the collision stores into the user's world and returns the
 * systems in frame order (refitVolumes, updateCharacterColliders, broadPhase, narrowPhase), a
 * `step` that runs them, and the outputs. The library never creates a world: it attaches to the
 * one given. Only the default broad phase and the primitive shapes are referenced here: other
 * broad phases come as instances, and mesh and character colliders install their code when the
 * first one is added, so a bundle holds what the program uses.
 */
import { $internal, observe, onRemove, type World } from 'bitecs';
import { PairList } from '../src/broadphase/pairList';
import { CollideInputError, assertKnownKeys, assertOptions, valueName } from '../src/errors';
import { MAX_COORDINATE } from '../src/tolerances';
import type { KdopK } from '../src/layout';
import { SHAPE_CHARACTER, createColliderStore, deleteColliderId } from '../components/collider';
import { createContactStore } from '../components/contactStore';
import { createTransformStore } from '../components/transform';
import type { BroadPhase } from '../src/broadphase/broadPhase';
import { createSpatialHash } from '../src/broadphase/spatialHash';
import { broadPhase } from './broadPhase';
import {
  COLLISION_PIPELINE,
  type CollisionPipeline,
  type CollisionPipelineOptions,
  type CollisionWorkers,
  type PipelineTimings,
  type System,
} from './collisionState';
import { createHitboxPairStore } from '../components/hitboxPairStore';
import { updateCharacterColliders } from './updateCharacterColliders';
import { narrowPhase } from './narrowPhase';
import { refitVolumes } from './refitVolumes';
import { createPoseSource } from './poseSource';
import { createTouchingTag } from './touchingTag';
import type { BoneHitboxState } from './updateBoneHitboxes';
import { retireCharacter } from '../src/character/hitboxStore';

/** Every option `createCollisionPipeline` accepts. */
const PIPELINE_OPTIONS = ['broadPhase', 'aabbMargin', 'kdopK', 'characters', 'timings', 'transform', 'tags', 'workers'] as const;

const KDOP_KS: readonly number[] = [6, 14, 18, 26];

/** Runs `system` on `world`, adding its duration to timings[key] when timing. */
function timed(p: CollisionPipeline, key: keyof PipelineTimings, system: System, world: World, measure: boolean): World {
  if (!measure) return system(world);
  const t0 = performance.now();
  const w = system(world);
  p.timings[key] = performance.now() - t0;
  return w;
}

/**
 * The `characters` option: stores given are checked; without them (or `true`), the first
 * addCharacterCollider makes the pipeline's own.
 */
function resolveCharacters(option: CollisionPipelineOptions['characters']): BoneHitboxState | undefined {
  if (option === undefined || option === false || option === true) return undefined;
  const stores = option !== null && typeof option === 'object' && ('skeletons' in option || 'hitboxes' in option);
  if (option === null || typeof option !== 'object' || (stores ? !option.skeletons || !option.hitboxes : !('history' in option || 'sweeps' in option))) {
    throw new CollideInputError('createCollisionPipeline: characters must be true, { history: { frames }, sweeps } or { skeletons, hitboxes[, rayGrid][, history][, sweeps] }');
  }
  assertKnownKeys(option, stores ? ['skeletons', 'hitboxes', 'rayGrid', 'history', 'sweeps'] : ['history', 'sweeps'], 'createCollisionPipeline: characters');
  return stores ? (option as BoneHitboxState) : undefined;
}

/** The `workers` option: a pool from createWorkerPool, or none. */
function checkWorkers(option: unknown): CollisionWorkers | undefined {
  if (option === undefined) return undefined;
  if (option === null || typeof option !== 'object' || typeof (option as CollisionWorkers).attach !== 'function') {
    throw new CollideInputError(`createCollisionPipeline: workers takes a pool, createWorkerPool(n) or createWorkerPool('auto'), got ${String(option)}`);
  }
  return option as CollisionWorkers;
}

/** The `broadPhase` option: an instance (made by its factory), default a spatial hash. */
function resolveBroadPhaseOption(option: unknown): BroadPhase {
  if (option === undefined) return createSpatialHash();
  if (typeof option === 'string') {
    throw new CollideInputError(`createCollisionPipeline: broadPhase takes an instance, e.g. createSweepAndPrune() from 'bitecs-collide'; resolveBroadPhase('${option}') from 'bitecs-collide/ecs' makes one from a name`);
  }
  if (option === null || typeof option !== 'object' || typeof (option as BroadPhase).findPairs !== 'function' || typeof (option as BroadPhase).clear !== 'function') {
    throw new CollideInputError(`createCollisionPipeline: broadPhase must be a broad-phase instance (findPairs, clear), got ${String(option)}`);
  }
  return option as BroadPhase;
}

/**
 * Creates the collision pipeline of `world` (a bitecs world) and registers it there: the world
 * gets a Transform and a Collider store (bitecs components), and the systems find the pipeline on
 * the world. One pipeline per world; any number of worlds. Throws CollideInputError for a world
 * that already has one or invalid options.
 */
export function createCollisionPipeline(world: World, options: CollisionPipelineOptions = {}): CollisionPipeline {
  if (world === null || typeof world !== 'object' || (world as { [$internal]?: unknown })[$internal] === undefined) {
    throw new CollideInputError(`createCollisionPipeline: world must be a bitecs world (createWorld()), got ${valueName(world)}`);
  }
  if ((world as { [COLLISION_PIPELINE]?: unknown })[COLLISION_PIPELINE] !== undefined) {
    throw new CollideInputError('createCollisionPipeline: this world already has a collision pipeline (destroy() it first)');
  }
  assertOptions(options, PIPELINE_OPTIONS, 'createCollisionPipeline');
  const aabbMargin = options.aabbMargin ?? 0;
  // Bounded like a coordinate: a box widened by more would leave Float32 range.
  if (typeof aabbMargin !== 'number' || !(aabbMargin >= 0 && aabbMargin <= MAX_COORDINATE)) {
    throw new CollideInputError(`createCollisionPipeline: aabbMargin must be a finite number >= 0 and <= ${MAX_COORDINATE.toExponential()}, got ${aabbMargin}`);
  }
  const kdopK = options.kdopK ?? 14;
  if (!KDOP_KS.includes(kdopK)) throw new CollideInputError(`createCollisionPipeline: kdopK must be 6, 14, 18 or 26, got ${kdopK}`);
  const measure = options.timings === true;
  for (const key of ['timings', 'tags'] as const) {
    if (options[key] !== undefined && typeof options[key] !== 'boolean') throw new CollideInputError(`createCollisionPipeline: ${key} must be a boolean, got ${options[key]}`);
  }
  const touchingTag = options.tags ? createTouchingTag() : undefined;
  const characters = resolveCharacters(options.characters);
  const poseSource = options.transform === undefined ? undefined : createPoseSource(options.transform, 'createCollisionPipeline: transform');
  const broadPhaseInstance = resolveBroadPhaseOption(options.broadPhase);
  const pool = checkWorkers(options.workers);
  const shared = pool !== undefined && pool.workers > 0;
  const systems: System[] = [refitVolumes, updateCharacterColliders, broadPhase, narrowPhase];
  const collider = createColliderStore(kdopK as KdopK, shared);
  let unobserve = (): void => {};

  const pipeline: CollisionPipeline = {
    world,
    transform: createTransformStore(shared),
    collider,
    broadPhase: broadPhaseInstance,
    candidates: new PairList(),
    touchingPairs: new PairList(),
    contacts: createContactStore(),
    events: { begin: new PairList(), stay: new PairList(), end: new PairList() },
    aabbMargin,
    characters,
    hitboxPairs: createHitboxPairStore(),
    charactersOption: options.characters,
    hitboxHistory: undefined,
    historyFrames: 0,
    sweeps: false,
    hitboxMotion: undefined,
    hitboxMotionTime: NaN,
    sweepFromRest: false,
    time: NaN,
    systems,
    step(w: World, time?: number): World {
      if (pipeline.destroyed) throw new CollideInputError('step: this pipeline was destroyed (create a new one with createCollisionPipeline)');
      if (w !== world) throw new CollideInputError('step: this pipeline belongs to another world');
      const lastTime = pipeline.time;
      pipeline.parallel?.wake();
      pipeline.characterKind?.stepTime(pipeline, time);
      try {
        w = timed(pipeline, 'refitVolumes', refitVolumes, w, measure);
        if (pipeline.characterKind !== undefined) w = timed(pipeline, 'boneHitboxes', updateCharacterColliders, w, measure);
      } catch (error) {
        // A pose refused before the history recorded this time: the same time may be stepped again.
        pipeline.time = lastTime;
        throw error;
      }
      w = timed(pipeline, 'broadPhase', broadPhase, w, measure);
      return timed(pipeline, 'narrowPhase', narrowPhase, w, measure);
    },
    timings: { refitVolumes: 0, boneHitboxes: 0, broadPhase: 0, narrowPhase: 0 },
    origin: new Float64Array(3),
    frame: 0,
    poseSource,
    workers: 0,
    parallel: undefined,
    meshKind: undefined,
    kdopKind: undefined,
    characterKind: undefined,
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
      broadPhaseRuns: 0,
      queryGrid: undefined,
      hashQueries: undefined,
      queryGridRun: -1,
      rayBounds: new Float64Array(6),
      rayBoundsRun: -1,
      queryCell: new Float64Array(1),
      queryCellRun: -1,
      stepIds: new Int32Array(0),
    },
    destroyed: false,
    destroy(): void {
      pipeline.destroyed = true;
      unobserve();
      pipeline.parallel?.destroy();
      delete (world as { [COLLISION_PIPELINE]?: unknown })[COLLISION_PIPELINE];
    },
  };
  // removeCollider and bitecs removeEntity both end up here, so the store never holds a dead collider.
  const unobserveCollider = observe(world, onRemove(collider), (eid: number) => {
    // A character's hitboxes stay in the stores; ray casts stop seeing them.
    if (collider.kind[eid] === SHAPE_CHARACTER && pipeline.characters !== undefined) retireCharacter(pipeline.characters.hitboxes, collider.character[eid]);
    deleteColliderId(collider, eid);
  });
  const unobserveTransform = observe(world, onRemove(pipeline.transform), (eid: number) => {
    pipeline.transform.present[eid] = 0;
  });
  unobserve = () => {
    unobserveCollider();
    unobserveTransform();
  };
  // Last, after every check: the threads start only for a pipeline that exists.
  pipeline.parallel = pool?.attach();
  pipeline.parallel?.installBroadPhase(broadPhaseInstance);
  (pipeline as { workers: number }).workers = pipeline.parallel?.workers ?? 0;
  Object.defineProperty(world, COLLISION_PIPELINE, { value: pipeline, configurable: true, enumerable: false, writable: false });
  return pipeline;
}
