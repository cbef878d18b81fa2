/**
 * A worker thread of the pipeline's pool (pool.ts): it waits on the control block, runs its part
 * of each job over the shared arrays, and reports back through the control block. Any error a
 * part throws is caught and its message handed to the calling thread, which throws it from step.
 */
import { createColliderStore } from '../../components/collider';
import { createTransformStore } from '../../components/transform';
import type { KdopK } from '../../src/layout';
import { narrowRange } from './narrowJob';
import { BROAD_ARRAYS, GRID_ARRAYS, INPUT_ARRAYS, broadWorkerPart, classifyPart, createBroadBuffers, fillPart, sortPart } from './broadJob';
import { ColumnGrid } from '../../src/broadphase/spatialHash';
import { PairList } from '../../src/broadphase/pairList';
import type { BroadPhaseInput } from '../../src/broadphase/broadPhase';
import { createNarrowBuffers } from './narrowBuffers';
import { refitRange } from '../refitVolumes';
import { KDOP_KIND } from '../kdopCollider';
import { createHitboxStore } from '../../src/character/hitboxStore';
import { createSkeletonStore } from '../../src/character/skeleton';
import { updateCharacterRunShared } from '../../src/character/hitboxUpdate';
import { createCharacterRayGrid } from '../../src/character/rayGrid';
import { castHitboxRange, createHitboxRayHits, HIT_ARRAYS } from '../../src/character/hitboxRaycast';
import { createRayBatch } from '../../src/query/rayQuery';
import { grown } from '../../src/broadphase/growable';
import { createTreeBuffers, treeWorkerPart } from './treeJob';
import { bindHistory, readHistoryParams } from './hitboxJobs';
import type { HitboxHistory } from '../../src/character/hitboxHistory';
import { castColliderRayRange, castShapeRange, overlapRange } from '../colliderBatches';
import { createColliderHits, createOverlapHits, COLLIDER_HIT_ARRAYS, OVERLAP_HIT_ARRAYS } from '../../src/query/colliderHits';
import { createShapeQueryBatch, SHAPE_QUERY_BATCH_ARRAYS } from '../../src/query/shapeQueryBatch';
import { createHitboxMotion, MOTION_ARRAYS } from '../../src/character/hitboxMotion';
import { createSweepBatch, SWEEP_BATCH_ARRAYS } from '../../src/character/sweepBatch';
import { SWEEP_MOTION_STRIDE } from '../../src/query/sweep';
import { sweepRange } from '../characterSweep';
import type { CollisionPipeline, PipelineScratch } from '../collisionState';
import type { BroadPhase } from '../../src/broadphase/broadPhase';
import type { BoundingTree } from '../../src/tree/build';
import {
  CTRL_ARG, CTRL_ARG2, CTRL_BINDINGS, CTRL_CHUNKS, forClaimedChunks, CTRL_COUNT, CTRL_DONE, CTRL_ERROR, CTRL_JOB, CTRL_MARGIN, CTRL_PARTS, CTRL_READY, CTRL_SEQUENCE,
  COLLIDER_ARRAYS, JOB_BROAD, JOB_BUCKET_COUNT, JOB_BUCKET_FILL, JOB_CLASSIFY, JOB_NARROW, JOB_REFIT, JOB_SORT_COUNT, JOB_SORT_SCATTER, JOB_STOP, NARROW_ARRAYS, TRANSFORM_ARRAYS, controlViews, partStart,
  HITBOX_ARRAYS, HITBOX_JOB_PARAMS, HITBOX_REFUSED_BONE, SKELETON_ARRAYS, JOB_HITBOXES, JOB_HITBOX_RAYS, JOB_HITBOX_RAYS_AT, RAY_BATCH_ARRAYS, RAY_GRID_ARRAYS, JOB_TREE_GROW, JOB_TREE_PREPARE, TREE_ARRAYS,
  HISTORY_PARAMS, REWOUND_BATCH_ARRAYS, JOB_COLLIDER_RAYS, JOB_COLLIDER_CASTS, JOB_COLLIDER_OVERLAPS, QUERY_COLLIDER_ARRAYS, COLLIDER_RAY_BATCH_ARRAYS, QUERY_GRID_ARRAYS, QUERY_GRID_PARAMS,
  QUERY_JOB_PARAMS, QUERY_PARAM_BOUNDS, QUERY_PARAM_GRIDS, QUERY_PARAM_MESH_LENGTH, QUERY_PARAM_TREES, QUERY_TREE_ARRAYS, QUERY_TREE_KINDS, QUERY_TREE_PARAMS,
  QUERY_TREE_PARAM_STRIDE, QUERY_MESH_OF, JOB_SWEEPS, SWEEP_JOB_PARAMS, SWEEP_PARAM_CELL, SWEEP_PARAM_CHARACTERS, SWEEP_PARAM_HITBOXES,
  SWEEP_PARAM_START_COUNT, SWEEP_PARAM_STORE_CHARACTERS, SWEEP_PARAM_VERSION,
  JUDGE_AFTER_JOBS, createPollRecord, lostCore, pollWhileEqual, pollingAllowed, stopPolling, type Bindings, type Control,
} from './protocol';

interface Port {
  on?(event: 'message', listener: (message: unknown) => void): void;
  addEventListener?(event: 'message', listener: (event: { data: unknown }) => void): void;
}

interface WorkerStart {
  control: SharedArrayBuffer;
  index: number;
  /** How long to poll for the next job before sleeping (WorkerPoolOptions.spinMs). */
  spinMs: number;
}

let control: Control;
/** This thread's polling between jobs, for lostCore. */
const pollRecord = createPollRecord();
/** Jobs this thread took. */
let jobsRun = 0;
/** How long to poll for the next job before sleeping (WorkerPoolOptions.spinMs). */
let spinMs = 0;
let part = 0;
let version = 0;
// Made by the calling thread's factories, so they have its stores' shapes (fields and their
// order): the kernels' property loads stay monomorphic. Objects built field by field measured
// twice as slow.
let collider = createColliderStore(14);
const transform = createTransformStore();
const narrow = createNarrowBuffers();
const hitboxes = createHitboxStore();
const skeletons = createSkeletonStore();
// This thread's own grid object over the shared cells: its stamps (characters a ray has tested) are its own.
const rayGrid = createCharacterRayGrid();
const rays = createRayBatch(0);
const hits = createHitboxRayHits(0);
let hitboxParams: Float64Array = new Float64Array(1);
let refusedBone: Int32Array = new Int32Array(1);
const broad = createBroadBuffers(0);
const grid = new ColumnGrid();
const broadInput: BroadPhaseInput = { ids: [], count: 0, boxes: new Float32Array(0), isStatic: new Uint8Array(0), layer: new Uint32Array(0), mask: new Uint32Array(0) };
/** This worker's pairs of a broad-phase part, before they go to the shared buffer. */
const broadPairs = new PairList();
const trees = createTreeBuffers(false);
let bindingsArrived: (() => void) | undefined;
/** The calling thread's hitbox history, once a rewound batch shared it; and that batch's order, frames and times. */
let history: HitboxHistory | undefined;
let historyParams: Float64Array = new Float64Array(0);
const rewound = { order: new Int32Array(0), frameOf: new Int32Array(0), times: new Float64Array(0) };
/** A collider batch's rays or shape queries, and its answers. */
const colliderRays = createRayBatch(0);
const shapeQueries = createShapeQueryBatch(0);
const colliderHits = createColliderHits(0);
const overlapHits = createOverlapHits(0, 1) as { perQuery: number; count: Int32Array; ids: Int32Array };
/** The grids the world queries read ([static or query grid, dynamic]), their arrays bound, their numbers from the query params. */
const boundQueryGrids = [new ColumnGrid(), new ColumnGrid()];
const queryGrids: (ColumnGrid | undefined)[] = [undefined, undefined];
let queryParams: Float64Array = new Float64Array(0);
/**
 * A melee sweep batch, its hits, and this thread's view of the calling thread's hitbox motion:
 * the shared start boxes, bounds and grid cells, with its own grid stamps and its own cache of
 * prepared hitbox motions (cleared when the motion's version changes).
 */
const sweeps = createSweepBatch(0);
const sweepHits = createHitboxRayHits(0);
const sweepMotion = createHitboxMotion();
let sweepParams: Float64Array = new Float64Array(0);
let sweepVersion = -1;

/** Sets the sweep view's numbers from the params of a sweep job. */
function readSweepParams(): void {
  const params = sweepParams, m = sweepMotion;
  m.characterCount = params[SWEEP_PARAM_CHARACTERS];
  m.startCount = params[SWEEP_PARAM_START_COUNT];
  m.grid.cellSize = params[SWEEP_PARAM_CELL];
  m.grid.stamp = grown(m.grid.stamp, m.characterCount);
  m.end = hitboxes.world;
  hitboxes.characterCount = params[SWEEP_PARAM_STORE_CHARACTERS];
  const count = params[SWEEP_PARAM_HITBOXES];
  m.motion = grown(m.motion, SWEEP_MOTION_STRIDE * count);
  m.prepared = grown(m.prepared, count);
  if (params[SWEEP_PARAM_VERSION] !== sweepVersion) {
    m.prepared.fill(0);
    sweepVersion = params[SWEEP_PARAM_VERSION];
  }
}

/** The world query's mesh trees (numbers per tree, each entity's tree number) and this thread's tree objects over their shared arrays. */
let treeParams: Float64Array = new Float64Array(0);
let meshOf: Int32Array = new Int32Array(0);
const treeArrays: Record<string, ArrayBufferView>[] = [];
const queryTrees: BoundingTree[] = [];
/**
 * What the world queries (raycastColliders, castShapeColliders, overlapColliders) read of a
 * pipeline, over the shared stores and grids: the colliders, transforms, characters' hitboxes,
 * mesh trees and the broad phase's grids of the calling thread's last step, the colliders' ray
 * bounds it made (so this thread never recomputes them), and the k-DOP tests.
 */
/** The query view's characters, when the calling thread's pipeline has any. */
const characterView = { hitboxes };
const queryView = {
  collider,
  transform,
  characters: undefined as typeof characterView | undefined,
  broadPhase: { lastGrids: () => queryGrids } as unknown as BroadPhase,
  scratch: { rayBounds: new Float64Array(6), rayBoundsRun: 0, broadPhaseRuns: 0, hashQueries: undefined, queryCell: new Float64Array(1), queryCellRun: -1 } as
    Pick<PipelineScratch, 'rayBounds' | 'rayBoundsRun' | 'broadPhaseRuns' | 'hashQueries' | 'queryCell' | 'queryCellRun'>,
  kdopKind: KDOP_KIND,
};
const queryPipeline = queryView as unknown as CollisionPipeline;

/** Sets the query view's grids and ray bounds from the params of a world query job; `characters` whether the pipeline has any. */
function readQueryParams(characters: boolean): void {
  const params = queryParams;
  for (let k = 0; k < 6; k++) queryView.scratch.rayBounds[k] = params[QUERY_PARAM_BOUNDS + k];
  for (let slot = 0; slot < queryGrids.length; slot++) {
    const o = QUERY_PARAM_GRIDS + QUERY_GRID_PARAMS * slot, grid = boundQueryGrids[slot];
    queryGrids[slot] = params[o] === 1 ? grid : undefined;
    grid.count = params[o + 1];
    grid.slots = params[o + 2];
    grid.bottom = params[o + 3];
    grid.top = params[o + 4];
    grid.oversizeCount = params[o + 5];
  }
  queryView.collider = collider;
  queryView.characters = characters ? characterView : undefined;
  // The grids may have changed since the last job: the walks ask them their finest cell again.
  queryView.scratch.queryCellRun = -1;
  const trees = params[QUERY_PARAM_TREES];
  for (let k = 0; k < trees; k++) queryTrees[k] = treeView(k);
  const mesh = collider.mesh;
  mesh.length = params[QUERY_PARAM_MESH_LENGTH];
  for (let e = 0; e < mesh.length; e++) mesh[e] = meshOf[e] >= 0 ? queryTrees[meshOf[e]] : undefined;
}

/** The k-th tree of a world query job, over its bound arrays (made anew when they changed). */
function treeView(k: number): BoundingTree {
  const o = QUERY_TREE_PARAM_STRIDE * k, arrays = treeArrays[k], tree = queryTrees[k] as BoundingTree | undefined;
  if (tree !== undefined && tree.nodes === arrays.nodes && tree.triangles === arrays.triangles && tree.scale === treeParams[o + 4]) return tree;
  return {
    kind: QUERY_TREE_KINDS[treeParams[o]],
    nodeCount: treeParams[o + 1],
    triangleCount: treeParams[o + 2],
    depth: treeParams[o + 3],
    nodes: arrays.nodes as Float64Array,
    children: arrays.children as Int32Array,
    firstTriangle: arrays.firstTriangle as Int32Array,
    nodeTriangleCount: arrays.nodeTriangleCount as Int32Array,
    sizes: arrays.sizes as Float64Array,
    triangles: arrays.triangles as Float64Array,
    triangleIds: arrays.triangleIds as Uint32Array,
    scale: treeParams[o + 4],
  };
}

function bind(bindings: Bindings): void {
  if (collider.kdopK !== bindings.kdopK) collider = createColliderStore(bindings.kdopK as KdopK);
  const c = collider as unknown as Record<string, unknown>, t = transform as unknown as Record<string, unknown>, n = narrow as unknown as Record<string, unknown>;
  for (const name of COLLIDER_ARRAYS) c[name] = bindings.arrays[`collider.${name}`];
  for (const name of TRANSFORM_ARRAYS) t[name] = bindings.arrays[`transform.${name}`];
  for (const name of NARROW_ARRAYS) n[name] = bindings.arrays[`narrow.${name}`];
  bindNamed(hitboxes, 'hitboxes', HITBOX_ARRAYS, bindings);
  bindNamed(rayGrid, 'rayGrid', RAY_GRID_ARRAYS, bindings);
  bindNamed(rays, 'rays', RAY_BATCH_ARRAYS, bindings);
  bindNamed(hits, 'hits', HIT_ARRAYS, bindings);
  bindNamed(trees, 'tree', TREE_ARRAYS, bindings);
  bindNamed(skeletons, 'skeletons', SKELETON_ARRAYS, bindings);
  const params = bindings.arrays[HITBOX_JOB_PARAMS];
  if (params !== undefined) hitboxParams = params as Float64Array;
  const refused = bindings.arrays[HITBOX_REFUSED_BONE];
  if (refused !== undefined) refusedBone = refused as Int32Array;
  history = bindHistory(history, bindings.arrays);
  if (bindings.arrays[HISTORY_PARAMS] !== undefined) historyParams = bindings.arrays[HISTORY_PARAMS] as Float64Array;
  bindNamed(rewound, 'rewound', REWOUND_BATCH_ARRAYS, bindings);
  bindNamed(collider, 'collider', QUERY_COLLIDER_ARRAYS, bindings);
  bindNamed(colliderRays, 'colliderRays', COLLIDER_RAY_BATCH_ARRAYS, bindings);
  bindNamed(shapeQueries, 'shapeQueries', SHAPE_QUERY_BATCH_ARRAYS, bindings);
  bindNamed(overlapHits, 'overlapHits', OVERLAP_HIT_ARRAYS, bindings);
  bindNamed(colliderHits, 'colliderHits', COLLIDER_HIT_ARRAYS, bindings);
  for (let slot = 0; slot < boundQueryGrids.length; slot++) {
    bindNamed(boundQueryGrids[slot], `queryGrid${slot}`, QUERY_GRID_ARRAYS, bindings);
    const order = bindings.arrays[`queryGrid${slot}.order`];
    if (order !== undefined) boundQueryGrids[slot].byLowerX.order = order as Uint32Array;
  }
  if (bindings.arrays[QUERY_JOB_PARAMS] !== undefined) queryParams = bindings.arrays[QUERY_JOB_PARAMS] as Float64Array;
  bindNamed(sweeps, 'sweeps', SWEEP_BATCH_ARRAYS, bindings);
  bindNamed(sweepHits, 'sweepHits', HIT_ARRAYS, bindings);
  bindNamed(sweepMotion, 'motion', MOTION_ARRAYS, bindings);
  bindNamed(sweepMotion.grid, 'motionGrid', RAY_GRID_ARRAYS, bindings);
  if (bindings.arrays[SWEEP_JOB_PARAMS] !== undefined) sweepParams = bindings.arrays[SWEEP_JOB_PARAMS] as Float64Array;
  if (bindings.arrays[QUERY_TREE_PARAMS] !== undefined) treeParams = bindings.arrays[QUERY_TREE_PARAMS] as Float64Array;
  if (bindings.arrays[QUERY_MESH_OF] !== undefined) meshOf = bindings.arrays[QUERY_MESH_OF] as Int32Array;
  for (let k = 0; bindings.arrays[`queryMesh${k}.nodes`] !== undefined; k++) {
    treeArrays[k] = {};
    for (const name of QUERY_TREE_ARRAYS) treeArrays[k][name] = bindings.arrays[`queryMesh${k}.${name}`];
  }
  // The broad-phase arrays exist once a pipeline split a broad phase.
  if (bindings.arrays['grid.order'] !== undefined) {
    const b = broad as unknown as Record<string, unknown>, g = grid as unknown as Record<string, unknown>, i = broadInput as unknown as Record<string, unknown>;
    for (const name of BROAD_ARRAYS) b[name] = bindings.arrays[`broad.${name}`];
    for (let part = 0; bindings.arrays[`broad.counts${part}`] !== undefined; part++) broad.counts[part] = bindings.arrays[`broad.counts${part}`] as Int32Array;
    for (const name of GRID_ARRAYS) g[name] = bindings.arrays[`grid.${name}`];
    const order = grid.byLowerX;
    order.order = bindings.arrays['grid.order'] as Uint32Array;
    order.mapped = bindings.arrays['sort.mapped'] as Uint32Array;
    order.scratchMapped = bindings.arrays['sort.scratchMapped'] as Uint32Array;
    order.scratchOrder = bindings.arrays['sort.scratchOrder'] as Uint32Array;
    for (const name of INPUT_ARRAYS) i[name] = bindings.arrays[`input.${name}`];
  }
  version = bindings.version;
  bindingsArrived?.();
}

/** Binds `prefix.name` of the bindings to target[name] for the names bound (the hitbox jobs' arrays come with their first job). */
function bindNamed(target: object, prefix: string, names: readonly string[], bindings: Bindings): void {
  for (const name of names) {
    const array = bindings.arrays[`${prefix}.${name}`];
    if (array !== undefined) (target as Record<string, unknown>)[name] = array;
  }
}

function onMessage(message: unknown): void {
  const m = message as { bindings?: Bindings; workerData?: WorkerStart };
  if (m.workerData !== undefined) void start(m.workerData);
  if (m.bindings !== undefined) bind(m.bindings);
}

/** Resolves once bindings of version `wanted` (or later) arrived. */
function bindingsOf(wanted: number): Promise<void> | undefined {
  if (version >= wanted) return undefined;
  return new Promise((resolve) => {
    bindingsArrived = () => {
      if (version >= wanted) {
        bindingsArrived = undefined;
        resolve();
      }
    };
  });
}

/** Items [from, to) of an item job (refit, narrow phase, hitbox update, ray batch): a chunk or a part. */
function runItems(job: number, from: number, to: number): void {
  if (job === JOB_REFIT) refitRange(collider, transform, from, to, control.floats[CTRL_MARGIN], KDOP_KIND);
  else if (job === JOB_NARROW) narrowRange(collider, narrow, from, to, KDOP_KIND);
  else if (job === JOB_HITBOXES) updateCharacterRunShared(hitboxes, skeletons, from, to, refusedBone);
  else if (job === JOB_HITBOX_RAYS) castHitboxRange(hits, hitboxes, rayGrid, rays, from, to);
  else if (job === JOB_COLLIDER_RAYS) castColliderRayRange(queryPipeline, colliderHits, colliderRays, from, to);
  else if (job === JOB_COLLIDER_CASTS) castShapeRange(queryPipeline, colliderHits, shapeQueries, from, to);
  else if (job === JOB_COLLIDER_OVERLAPS) overlapRange(queryPipeline, overlapHits, shapeQueries, from, to);
  else if (job === JOB_SWEEPS) sweepRange(sweepHits, hitboxes, sweepMotion, sweeps, from, to);
  else castHitboxRange(hits, hitboxes, undefined, rays, from, to, history, rewound.times, rewound.order, rewound.frameOf);
}

function runPart(job: number, ints: Int32Array): void {
  const count = ints[CTRL_COUNT], bounds = control.bounds;
  const from = partStart(count, bounds, part), to = partStart(count, bounds, part + 1);
  if (job === JOB_REFIT || job === JOB_NARROW || job === JOB_HITBOXES || job === JOB_HITBOX_RAYS || job === JOB_HITBOX_RAYS_AT || job === JOB_COLLIDER_RAYS || job === JOB_COLLIDER_CASTS || job === JOB_COLLIDER_OVERLAPS || job === JOB_SWEEPS) {
    if (job === JOB_NARROW) {
      narrow.current = ints[CTRL_ARG];
      narrow.previousCount = ints[CTRL_ARG2];
    } else if (job === JOB_HITBOXES) {
      hitboxes.characterCount = ints[CTRL_ARG];
      skeletons.characterCount = ints[CTRL_ARG2];
    } else if (job === JOB_HITBOX_RAYS) {
      const characters = ints[CTRL_ARG];
      hitboxes.characterCount = characters;
      rayGrid.cellSize = hitboxParams[0];
      rayGrid.stamp = grown(rayGrid.stamp, characters);
    } else if (job === JOB_HITBOX_RAYS_AT) {
      hitboxes.characterCount = ints[CTRL_ARG];
      readHistoryParams(history!, historyParams);
    } else if (job === JOB_COLLIDER_RAYS || job === JOB_COLLIDER_CASTS || job === JOB_COLLIDER_OVERLAPS) {
      readQueryParams(ints[CTRL_ARG] === 1);
      overlapHits.perQuery = ints[CTRL_ARG2];
    } else if (job === JOB_SWEEPS) {
      readSweepParams();
    }
    if (ints[CTRL_CHUNKS] > 0) forClaimedChunks(ints, count, (f, t) => runItems(job, f, t));
    else runItems(job, from, to);
  } else if (job === JOB_CLASSIFY) {
    classifyPart(grid, broadInput, broad, part, bounds);
  } else if (job === JOB_BUCKET_COUNT || job === JOB_BUCKET_FILL) {
    fillPart(grid, broad, job === JOB_BUCKET_COUNT ? 0 : 1, part, bounds);
  } else if (job === JOB_SORT_COUNT || job === JOB_SORT_SCATTER) {
    sortPart(grid.byLowerX, broad, ints[CTRL_ARG], job === JOB_SORT_COUNT ? 0 : 1, part, bounds);
  } else if (job === JOB_BROAD) {
    broadWorkerPart(grid, broadInput, broad, broadPairs, part, bounds);
  } else if (job === JOB_TREE_PREPARE || job === JOB_TREE_GROW) {
    treeWorkerPart(trees, job, ints[CTRL_PARTS]);
  } else {
    throw new Error(`job ${job} failed on purpose (a test of fault reporting)`);
  }
}

function reportError(error: unknown): void {
  const text = new TextEncoder().encode(error instanceof Error ? `${error.message}\n${error.stack ?? ''}` : String(error));
  const out = control.errorText;
  out.fill(0);
  out.set(text.subarray(0, out.length - 1));
  Atomics.store(control.ints, CTRL_ERROR, 1);
}

/** Polls for a job after sequence `seen` when the pool's threads may poll (true once one came). */
function poll(seen: number): boolean {
  if (spinMs <= 0 || !pollingAllowed(control)) return false;
  const changed = pollWhileEqual(control.ints, CTRL_SEQUENCE, seen, spinMs, jobsRun > JUDGE_AFTER_JOBS ? pollRecord : undefined);
  if (lostCore(pollRecord)) stopPolling(control);
  return changed;
}

async function start(data: WorkerStart): Promise<void> {
  control = controlViews(data.control);
  part = data.index + 1;
  spinMs = data.spinMs;
  const ints = control.ints;
  let seen = Atomics.load(ints, CTRL_SEQUENCE);
  Atomics.add(ints, CTRL_READY, 1);
  Atomics.notify(ints, CTRL_READY);
  for (;;) {
    // Blocking: Atomics.waitAsync does not wake in a Node worker while the calling thread blocks.
    // New bindings are received by returning to the event loop (below) only when a job needs them.
    // A wake-up alone does not mean a new job: the caller bumps the sequence, then notifies, and
    // this thread may have seen the bump, run the job and be waiting again when that notify lands.
    // Where the threads poll (spinMs), polling first: the next job of a step usually comes
    // within the window, and a sleeping thread takes tens of microseconds to wake. A wake-up
    // with no job is then the pool's wake() (a step has begun): poll for its first job.
    let polled = poll(seen);
    while (!polled && Atomics.load(ints, CTRL_SEQUENCE) === seen) {
      Atomics.wait(ints, CTRL_SEQUENCE, seen);
      if (Atomics.load(ints, CTRL_SEQUENCE) === seen) polled = poll(seen);
    }
    control.slept[part] = polled ? 0 : 1;
    jobsRun++;
    seen = Atomics.load(ints, CTRL_SEQUENCE);
    const job = ints[CTRL_JOB];
    if (job === JOB_STOP) return;
    const pending = bindingsOf(ints[CTRL_BINDINGS]);
    if (pending !== undefined) await pending;
    const started = performance.now();
    try {
      runPart(job, ints);
    } catch (error) {
      reportError(error);
    }
    control.partMs[part] = performance.now() - started;
    Atomics.add(ints, CTRL_DONE, 1);
    Atomics.notify(ints, CTRL_DONE);
  }
}

const nodeThreads = (globalThis as { process?: { getBuiltinModule?: (id: string) => unknown } }).process?.getBuiltinModule?.('node:worker_threads') as
  { parentPort: Port | null; workerData: WorkerStart } | undefined;
if (nodeThreads?.parentPort) {
  nodeThreads.parentPort.on!('message', onMessage);
  void start(nodeThreads.workerData);
} else {
  (globalThis as unknown as Port).addEventListener!('message', (event) => onMessage(event.data));
}
