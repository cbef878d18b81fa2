/**
 * The state a collision pipeline keeps for one world: the stores it registered, its outputs and
 * its scratch memory. Systems are plain `(world) => world` functions; they find this state on
 * the world object under `COLLISION_PIPELINE`, so one module-level system serves any number of
 * worlds, each with its own pipeline.
 */
import type { HitboxJobs } from './parallel/hitboxJobs';
import type { ColliderHits, OverlapHits } from '../src/query/colliderHits';
import type { RayBatch } from '../src/query/rayQuery';
import type { ShapeQueryBatch } from '../src/query/shapeQueryBatch';
import type { SweepBatch } from '../src/character/sweepBatch';
import type { HitboxRayHits } from '../src/character/hitboxRaycast';
import type { HitboxStore } from '../src/character/hitboxLayout';
import type { PooledTreeBuild } from './parallel/treeJob';
import type { World } from 'bitecs';
import type { BroadPhase, BroadPhaseInput } from '../src/broadphase/broadPhase';
import type { PairList } from '../src/broadphase/pairList';
import type { QueryGrid, SpatialHashQueries } from '../src/broadphase/gridQuery';
import type { Floats, KdopK } from '../src/layout';
import { CollideInputError } from '../src/errors';
import type { ColliderStore } from '../components/collider';
import type { ContactStore } from '../components/contactStore';
import type { TransformStore } from '../components/transform';
import type { HitboxPairStore } from '../components/hitboxPairStore';
import type { BoneHitboxState } from './updateBoneHitboxes';
import type { HitboxHistory } from '../src/character/hitboxHistory';
import type { HitboxMotion } from '../src/character/hitboxMotion';
import type { PoseSource, TransformComponents } from './poseSource';

/** Key of the pipeline on the user's world object. */
export const COLLISION_PIPELINE: unique symbol = Symbol.for('bitecs-collide.pipeline') as never;

/** A system: reads and writes stores of `world`, returns it (bitecs `pipe` compatible). */
export type System = (world: World) => World;

/** Broad-phase algorithms that `resolveBroadPhase` makes by name. */
export type BroadPhaseName = 'sap' | 'sweepAndPrune' | 'bruteForce' | 'spatialHash' | 'dynamicAabbTree' | 'kdTree' | 'octree';

/** Options of `createCollisionPipeline`. */
export interface CollisionPipelineOptions {
  /**
   * Broad-phase algorithm: an instance from its factory, e.g. `createSweepAndPrune()` (default
   * `createSpatialHash()`, the fastest on the benchmark scenes, mixed sizes included). Importing
   * only the factory you use lets a bundler drop the others; `resolveBroadPhase(name)` makes one
   * from a name (and bundles them all).
   */
  broadPhase?: BroadPhase;
  /**
   * Fattening margin of broad-phase boxes, in world units (default 0). With a margin, a box is
   * rewritten only when the tight box leaves it, so slow movers keep the same broad-phase box
   * for several frames; the narrow phase stays exact either way. At most MAX_COORDINATE (1e18).
   */
  aabbMargin?: number;
  /** k of the world's k-DOP colliders (default 14). */
  kdopK?: KdopK;
  /**
   * Skeleton and hitbox stores (and optionally a ray grid) you made, for the characters you add
   * to them yourself. Without it, the first addCharacterCollider gives the pipeline its own
   * stores and ray grid (`true` asks for that, the default). Once a character collider exists,
   * each step places the characters, updates their bones and hitboxes between refitVolumes and
   * the broad phase, and character colliders collide through their hitboxes.
   */
  characters?: boolean | BoneHitboxState | CharactersOption;
  /** Measure each system's time in `timings` at every `step` (default false). */
  timings?: boolean;
  /**
   * Keep the `Touching` component (pipeline.Touching) on every entity that touches something, so
   * bitecs queries can select them (default false). Added and removed only on transitions;
   * docs/benchmarks.md measures its cost.
   */
  tags?: boolean;
  /**
   * Worker threads: `createWorkerPool(n)` or `createWorkerPool('auto')`. The refit, the spatial
   * hash's classification, bucket fill and scans, and the narrow phase of large frames are split between the
   * threads, with the same results as on one thread. Default: the calling thread alone.
   */
  workers?: CollisionWorkers;
  /**
   * Your own position / rotation / scale components, read in place at each step instead of the
   * pipeline's transform store (see TransformComponents). Colliders are then dynamic (refit
   * every step) unless static; move a static one with `markTransformChanged`. `setTransform` and
   * the scalar setters are refused: write your components.
   */
  transform?: TransformComponents;
}

/**
 * The `characters` option as an object: your stores (skeletons and hitboxes together, optionally a
 * ray grid), a hitbox history, sweeps, or several. `history` and `sweeps` are read, and checked,
 * when the first character collider is added (so a program without characters bundles none of
 * their code).
 */
export interface CharactersOption {
  /** Bones of your characters (with `hitboxes`). */
  skeletons?: BoneHitboxState['skeletons'];
  /** Hitboxes of the same characters (with `skeletons`). */
  hitboxes?: BoneHitboxState['hitboxes'];
  /** Ray grid rebuilt each step, for raycastHitboxes. */
  rayGrid?: BoneHitboxState['rayGrid'];
  /**
   * Keep the characters' hitboxes of the last `frames` steps (an integer from 2 to
   * MAX_HISTORY_FRAMES, 65,536), each at the step's time (`step(world, time)`), for ray casts
   * and hitbox queries at a past time (lag compensation: raycastCharactersAt,
   * raycastCharactersBatchAt, characterHitboxesAt). Memory per
   * character per kept frame: 76 bytes per hitbox, 48 per cluster of 8 hitboxes and about 60 for
   * the character (about 4.6 KB for a 55-hitbox humanoid: 64 frames of 1,000 take about 300 MB).
   * A history you made (createHitboxHistory) is recorded into as it is.
   */
  history?: {
    /** Frames kept: an integer from 2 to MAX_HISTORY_FRAMES (65,536). */
    frames: number;
  } | HitboxHistory;
  /**
   * Keep each step's hitboxes from before its update (one copy of the world boxes per step, and
   * their swept bounds), so sweepCharacters can sweep a weapon against the characters' motion over
   * the last step. Without it, sweepCharacters takes the motion from the `history` option's two
   * newest frames, and refuses when neither is on. Default false.
   */
  sweeps?: boolean;
}

/** Worker threads for a pipeline (its `workers` option); made by createWorkerPool. */
export interface CollisionWorkers {
  /** Worker threads besides the calling one (0 where threads cannot share memory). */
  readonly workers: number;
  /**
   * Resolves once the pipeline that this pool serves has its threads started (at once without
   * threads); rejects when one failed to start. In Node the first step waits for them; a browser
   * page cannot wait, so its steps run on the calling thread alone (with the same results) until
   * the threads have started.
   */
  readonly ready: Promise<void>;
  /** @internal Starts the threads for the pipeline it serves and returns what that runs on them. */
  attach(): ParallelState | undefined;
}

/** @internal What a worker pool installs into the pipeline it serves. */
export interface ParallelState {
  /** Worker threads besides the calling one. */
  readonly workers: number;
  /**
   * Changed colliders from which the refit runs on the pool. Until set, it follows `polling`
   * (lower while the threads poll), as do minNarrow and minBroad.
   */
  minRefit: number;
  /** Candidate pairs from which the narrow phase runs on the pool. */
  minNarrow: number;
  /** Whether the threads poll between jobs now (WorkerPoolOptions.spinMs, unless they were seen losing their cores lately). */
  readonly polling: boolean;
  /** Wakes the workers to poll for a step's jobs, when they poll (see WorkerPool.wake). */
  wake(): void;
  /** Jobs split with the workers so far (not those a browser page ran alone while they started). */
  readonly jobsOnWorkers: number;
  /** Characters from which the character stage (bone matrices and hitboxes) runs on the pool. */
  minHitboxCharacters: number;
  /** Rays of a batch from which raycastCharactersBatch runs on the pool. */
  minHitboxRays: number;
  /** The hitbox update and ray batches, split between the threads. */
  readonly hitboxes: HitboxJobs;
  /** Rays of a batch from which raycastCollidersBatch runs on the pool. */
  minColliderRays: number;
  /** Shape casts of a batch from which castShapeCollidersBatch runs on the pool. */
  minColliderCasts: number;
  /** Overlap queries of a batch from which overlapCollidersBatch runs on the pool. */
  minColliderOverlaps: number;
  /** Melee sweeps of a batch from which sweepCharactersBatch runs on the pool. */
  minSweeps: number;
  /** World query batches, split between the threads. */
  readonly queries: QueryJobs;
  /** Mesh triangles from which buildMeshTree runs on the pool. */
  minTreeTriangles: number;
  /** buildBoundingTree split between the threads (the same tree). */
  readonly buildTree: PooledTreeBuild;
  /** Dynamic colliders from which the spatial hash's scans run on the pool. */
  minBroad: number;
  /** Splits the scans of `broadPhase` between the threads when it is a spatial hash (other broad phases run on the calling thread). */
  installBroadPhase(broadPhase: BroadPhase): void;
  /** The change list's refit, split between the threads. */
  refit(p: CollisionPipeline): void;
  /** The narrow phase's tests into the touching pairs and contacts, split between the threads. */
  narrowTests(p: CollisionPipeline): void;
  /** Tests: the jobs' splits between the threads made uneven at random. */
  scrambleSplits(rand: () => number): void;
  /** Tests: the next job makes every worker throw. */
  failNextJob(): void;
  /** Ends the threads. */
  destroy(): void;
}

/** The world query jobs of a pool (systems/parallel/queryJobs.ts). */
export interface QueryJobs {
  /**
   * A validated ray batch cast with raycastColliders per ray, split between the threads; -1
   * (nothing cast) when the workers cannot read everything a ray may meet (arrays not shared, or
   * a broad phase that answers box queries itself).
   */
  castRays(p: CollisionPipeline, hits: ColliderHits, rays: RayBatch): number;
  /** A validated shape-cast batch cast with castShapeColliders per cast, split between the threads; -1 (nothing cast) as for castRays. */
  castShapes(p: CollisionPipeline, hits: ColliderHits, casts: ShapeQueryBatch): number;
  /** A validated overlap batch run with overlapColliders per query, split between the threads: the sum of the counts, or -1 (nothing run) as for castRays. */
  overlaps(p: CollisionPipeline, hits: OverlapHits, queries: ShapeQueryBatch): number;
  /** A validated melee sweep batch (sweepRange over `store` and `motion`), split between the threads: the sweeps that hit, or -1 (nothing swept) when an array is not shared. */
  sweeps(hits: HitboxRayHits, sweeps: SweepBatch, store: HitboxStore, motion: HitboxMotion): number;
}

/** The `Touching` component and the touching-pair count of each entity id. */
export interface TouchingTag {
  /** The bitecs component (a tag: no fields) on every entity touching something. */
  readonly Touching: object;
  /** Touching pairs per entity id after the last step. */
  counts: Uint32Array;
}

/** Begin / stay / end events of one frame: touching pairs, each sorted ascending by (a, b), a < b. */
export interface PairEvents {
  /** Pairs touching now that did not touch last frame (or whose entity is a new collider since). */
  begin: PairList;
  /** Pairs touching now and last frame. */
  stay: PairList;
  /** Pairs that touched last frame and no longer do, including pairs of removed colliders (ids may be dead or reused). */
  end: PairList;
}

/** Milliseconds spent in each system by the last `step` (when the `timings` option is on). */
export interface PipelineTimings {
  /** refitVolumes: world shapes and broad-phase boxes of moved colliders. */
  refitVolumes: number;
  /** Bone world matrices, hitboxes and character boxes (0 without characters). */
  boneHitboxes: number;
  /** The broad phase: candidate pairs. */
  broadPhase: number;
  /** The narrow phase: exact tests, contacts, events. */
  narrowPhase: number;
}

/** Scratch memory of one pipeline, reused every frame (internal to the systems). */
export interface PipelineScratch {
  broadInput: BroadPhaseInput;
  /** Last frame's broad-phase candidates and the separating axis each OBB pair found (-1: none). */
  axisPairs: PairList;
  axisOfPair: Int8Array;
  /** This frame's candidates and axes, swapped with the above after the narrow phase. */
  nextAxisPairs: PairList;
  nextAxisOfPair: Int8Array;
  /** Collider generations of each touching pair's entities, parallel to `touchingPairs`. */
  touchingGenA: Uint32Array;
  touchingGenB: Uint32Array;
  /** Last frame's touching pairs and generations. */
  previousTouching: PairList;
  previousGenA: Uint32Array;
  previousGenB: Uint32Array;
  /** Touching pairs as (b, a), sorted, for `touching` queries; built lazily once per frame. */
  reversedTouching: PairList;
  reversedFrame: number;
  /** Contacts as (b, contact index), sorted, for `contactsOf`; built lazily once per frame. */
  reversedContacts: PairList;
  reversedContactsFrame: number;
  /** Broad phases run (the broadPhase system counts them): what the query grid was built for. */
  broadPhaseRuns: number;
  /** Box queries for overlap queries and casts when the broad phase answers none, built on the first query after a broad phase. */
  queryGrid: QueryGrid | undefined;
  /** Box queries over the spatial hash's grids, when it is the broad phase (made on the first query). */
  hashQueries: SpatialHashQueries | undefined;
  queryGridRun: number;
  /** The bounds of every collider's broad-phase box, for ray casts, and the broad-phase run they were made for. */
  rayBounds: Float64Array;
  rayBoundsRun: number;
  /** The box queries' finest cell (queryCell) as of the broad-phase run `queryCellRun`, for the walks of casts and rays. */
  queryCell: Float64Array;
  queryCellRun: number;
  /**
   * The ids of the last broad phase's input, copied when the broad phase answers no box queries:
   * the store's id list changes as colliders come and go, and the query grid must hold the step's.
   */
  stepIds: Int32Array;
}

/**
 * @internal Mesh colliders' exact tests, installed by addMeshCollider: a program without mesh
 * colliders never references them, so bundlers leave them out.
 */
export interface MeshKind {
  /** Whether a pair of a mesh and a collider of `kind` gets a manifold. */
  manifoldKind(kind: number): boolean;
  /** Contact manifold of (other, mesh) at out[oo]; its point count (0: not touching). */
  pairContact(c: ColliderStore, t: TransformStore, other: number, mesh: number, out: Floats, oo: number): number;
  /** Whether a pair with at least one mesh (no k-DOP) touches. */
  pairOverlap(c: ColliderStore, t: TransformStore, a: number, b: number): boolean;
  /** Whether mesh collider `mesh` meets the world box at box[bo]. */
  overlapsObb(c: ColliderStore, t: TransformStore, mesh: number, box: ArrayLike<number>, bo: number): boolean;
}

/** @internal k-DOP colliders' refit and test, installed by addKdopCollider (worker threads import it). */
export interface KdopKind {
  /** World k-DOP of collider `eid` from its local points, and its world box into `tight`. */
  refit(c: ColliderStore, eid: number, rotation: Floats, translation: Floats, scale: number, tight: Float64Array): void;
  /** The conservative k-DOP test of a pair with at least one k-DOP. */
  pairOverlap(c: ColliderStore, a: number, b: number): boolean;
  /** The same test of k-DOP collider `e` against a shape of collider kind `kind` (sphere, AABB, OBB, capsule) at shape[so]. */
  shapeOverlap(c: ColliderStore, e: number, kind: number, shape: ArrayLike<number>, so: number): boolean;
}

/** @internal Character colliders' per-step update and exact tests, installed by addCharacterCollider. */
export interface CharacterKind {
  /** Places the characters, updates bones, hitboxes and the characters' broad-phase boxes. */
  update(p: CollisionPipeline): void;
  /** Whether a pair with at least one character touches (writes its hitbox pairs). */
  pairOverlap(p: CollisionPipeline, a: number, b: number): boolean;
  /** Checks and keeps the time given to `step` (required with a hitbox history), before the step changes anything. */
  stepTime(p: CollisionPipeline, time: number | undefined): void;
}

/** What `createCollisionPipeline` returns; also stored on the world under COLLISION_PIPELINE. */
export interface CollisionPipeline {
  /** The bitecs world the pipeline is registered in. */
  readonly world: World;
  /** The world's transform store (bitecs component of entities with a transform). */
  readonly transform: TransformStore;
  /** The world's collider store (bitecs component of colliders). */
  readonly collider: ColliderStore;
  /** Broad-phase algorithm instance. */
  readonly broadPhase: BroadPhase;
  /** This frame's broad-phase candidate pairs (sorted). */
  readonly candidates: PairList;
  /** This frame's touching pairs, sensors included (sorted, a < b). */
  readonly touchingPairs: PairList;
  /** This frame's contact manifolds (non-sensor pairs, sorted). */
  readonly contacts: ContactStore;
  /** This frame's begin / stay / end pairs. */
  readonly events: PairEvents;
  /** Fattening margin of broad-phase boxes (the `aabbMargin` option). */
  readonly aabbMargin: number;
  /**
   * Skeleton and hitbox stores of the characters: those of the `characters` option, else the
   * pipeline's own from the first addCharacterCollider on; undefined before.
   */
  characters: BoneHitboxState | undefined;
  /** This frame's touching hitbox pairs of character colliders (sorted like touchingPairs). */
  readonly hitboxPairs: HitboxPairStore;
  /** @internal The `characters` option as given: its history and sweeps are read when the first character collider is added. */
  readonly charactersOption: CollisionPipelineOptions['characters'];
  /**
   * With the characters' `history` option: the hitbox history the character stage records into at
   * every step (its oldestTime and newestTime give the window a past time must fall in), from the
   * first character collider on (or the history given); else undefined.
   */
  hitboxHistory: HitboxHistory | undefined;
  /** @internal Frames of the characters' `history` option (0 without it). */
  historyFrames: number;
  /** @internal The characters' `sweeps` option. */
  sweeps: boolean;
  /**
   * @internal The hitboxes' motion over the last step that melee sweeps read: kept by each step
   * with the `sweeps` option, else made from the history's two newest frames on demand.
   */
  hitboxMotion: HitboxMotion | undefined;
  /** @internal Newest history time `hitboxMotion` was made for (NaN: none, or kept by the steps). */
  hitboxMotionTime: number;
  /** @internal Set by shiftWorldOrigin: the next step's motion starts at rest (the boxes before it are at the old origin). */
  sweepFromRest: boolean;
  /**
   * The time of the current step, in your units (e.g. the server's tick time in seconds): set by
   * `step(world, time)` once a character collider exists (before, no system reads it); with
   * custom system orders, write it before updateCharacterColliders. NaN until a time was given.
   */
  time: number;
  /** The systems in order: refitVolumes, updateCharacterColliders, broadPhase, narrowPhase. */
  readonly systems: readonly System[];
  /**
   * Runs every system in order on `world` (this pipeline's world). `time` is the step's time in
   * your units (e.g. the server's tick time), which a hitbox history records with each frame: with
   * a history and a character collider, required, finite and later than the last step's. Throws
   * CollideInputError for a bad time before running any system.
   */
  step(world: World, time?: number): World;
  /** Milliseconds per system of the last step (with the `timings` option). */
  readonly timings: PipelineTimings;
  /**
   * The world origin (x, y, z, Float64), moved by shiftWorldOrigin: every position the pipeline
   * stores or reports is relative to it.
   */
  readonly origin: Float64Array;
  /** Frames stepped (narrow phases run). */
  frame: number;
  /**
   * With the `tags` option: the bitecs component on every entity touching something after the
   * last step (`query(world, [collision.Touching, ...])`); undefined without it.
   */
  readonly Touching: object | undefined;
  /** @internal The counts behind `Touching`. */
  readonly touchingTag: TouchingTag | undefined;
  /** @internal Where poses are read from when the `transform` option is given (else the transform store itself). */
  readonly poseSource: PoseSource | undefined;
  /** @internal Mesh colliders' tests, once a mesh collider was added. */
  meshKind: MeshKind | undefined;
  /** @internal k-DOPs' refit and test, once a k-DOP collider was added. */
  kdopKind: KdopKind | undefined;
  /** @internal Characters' update and tests, once a character collider was added. */
  characterKind: CharacterKind | undefined;
  /** Worker threads in use (0: the calling thread alone). */
  readonly workers: number;
  /** @internal The worker pool and its buffers (the `workers` option), undefined on one thread. */
  parallel: ParallelState | undefined;
  /** @internal Per-frame scratch memory of the systems. */
  readonly scratch: PipelineScratch;
  /** @internal Set by destroy(). */
  destroyed: boolean;
  /**
   * Unregisters the pipeline from its world (stops observing collider removal) and ends its worker
   * threads; the calls that take the pipeline (or its world) then throw CollideInputError.
   */
  destroy(): void;
}

/** The pipeline of `target` (a pipeline itself, or a world that has one); throws when there is none. */
export function pipelineOf(target: World | CollisionPipeline, what: string): CollisionPipeline {
  const p = (target as { [COLLISION_PIPELINE]?: CollisionPipeline } | null)?.[COLLISION_PIPELINE];
  if (p !== undefined) return p;
  if (typeof target === 'object' && target !== null && isPipeline(target)) {
    if (!target.destroyed) return target;
    throw new CollideInputError(`${what}: this pipeline was destroyed`);
  }
  throw new CollideInputError(`${what}: this world has no collision pipeline (call createCollisionPipeline(world) first)`);
}

function isPipeline(target: object): target is CollisionPipeline {
  return 'scratch' in target && 'collider' in target && 'transform' in target;
}
