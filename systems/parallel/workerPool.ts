/**
 * `createWorkerPool`: worker threads for one collision pipeline, given as its `workers` option.
 * The pool installs the parallel refit, broad phase, narrow phase and character work into the
 * pipeline it serves, so a program that never creates one never references (nor bundles) the
 * thread code.
 */
import { CollideInputError, assertKnownKeys, valueName } from '../../src/errors';
import { canShareMemory } from '../../src/sharedMemory';
import { markChanged } from '../../components/transform';
import type { CollisionPipeline, CollisionWorkers, ParallelState } from '../collisionState';
import { refitRange } from '../refitVolumes';
import {
  createNarrowBuffers, shareStores, PARALLEL_MIN_CANDIDATES, PARALLEL_MIN_COLLIDERS, PARALLEL_MIN_DYNAMIC_BOXES, POLLING_MIN_CANDIDATES, POLLING_MIN_COLLIDERS,
  POLLING_MIN_DYNAMIC_BOXES,
} from './narrowBuffers';
import { parallelNarrowTests } from './narrowJob';
import { MAX_SPIN_MS, MAX_WORKERS, WorkerPool, autoWorkerCount, canStartWorkers, type WorkerPoolOptions, type WorkerHandle } from './pool';
import { createScanSplitter } from './broadJob';
import type { BroadPhase } from '../../src/broadphase/broadPhase';
import type { SpatialHash } from '../../src/broadphase/spatialHash';
import { JOB_REFIT } from './protocol';
import { createHitboxJobs, PARALLEL_MIN_HITBOX_CHARACTERS, PARALLEL_MIN_HITBOX_RAYS } from './hitboxJobs';
import { createTreeJobs, PARALLEL_MIN_TREE_TRIANGLES } from './treeJob';
import { createQueryJobs, PARALLEL_MIN_COLLIDER_CASTS, PARALLEL_MIN_COLLIDER_OVERLAPS, PARALLEL_MIN_COLLIDER_RAYS, PARALLEL_MIN_SWEEPS } from './queryJobs';

export type { WorkerPoolOptions, WorkerHandle };

let warnedNoSharedMemory = false;

const WORKER_POOL_OPTIONS = ['workerUrl', 'createWorker', 'spinMs'] as const;

/** The options, checked: CollideInputError naming a bad or unknown field. */
function checkPoolOptions(options: WorkerPoolOptions): WorkerPoolOptions {
  if (options === null || typeof options !== 'object') throw new CollideInputError(`createWorkerPool: options must be an object, got ${String(options)}`);
  assertKnownKeys(options, WORKER_POOL_OPTIONS, 'createWorkerPool');
  const { workerUrl, createWorker, spinMs } = options;
  if (spinMs !== undefined && !(typeof spinMs === 'number' && spinMs >= 0 && spinMs <= MAX_SPIN_MS)) {
    throw new CollideInputError(`createWorkerPool: spinMs must be a number of milliseconds in [0, ${MAX_SPIN_MS}], got ${valueName(spinMs)}`);
  }
  if (workerUrl !== undefined && typeof workerUrl !== 'string' && !(workerUrl instanceof URL)) {
    throw new CollideInputError(`createWorkerPool: workerUrl must be a string or a URL, got ${String(workerUrl)}`);
  }
  if (createWorker !== undefined && typeof createWorker !== 'function') {
    throw new CollideInputError(`createWorkerPool: createWorker must be a function returning a Worker, got ${String(createWorker)}`);
  }
  if (workerUrl !== undefined && createWorker !== undefined) throw new CollideInputError('createWorkerPool: give workerUrl or createWorker, not both');
  return { workerUrl, createWorker, spinMs };
}

/**
 * Worker threads for one collision pipeline: `workers` threads besides the calling one, or
 * `'auto'`, one per further core. The refit, the spatial hash's classification, bucket fill and
 * scans (the default broad phase; others run on the calling thread), the narrow phase of large
 * frames and the characters' hitbox update are split between the threads, with exactly the
 * results of one thread. The threads start with the pipeline and end with its destroy() (they
 * never keep Node alive by themselves); `ready` resolves once they have started. Where threads
 * cannot share memory (SharedArrayBuffer missing, or a browser page that is not cross-origin
 * isolated: the COOP and COEP headers), the pipeline runs on one thread and this warns once.
 * Throws CollideInputError unless `workers` is an integer in [1, 64] or 'auto', and for bad or
 * unknown options.
 */
export function createWorkerPool(workers: number | 'auto', options: WorkerPoolOptions = {}): CollisionWorkers {
  if (workers !== 'auto' && !(typeof workers === 'number' && Number.isInteger(workers) && workers >= 1 && workers <= MAX_WORKERS)) {
    throw new CollideInputError(`createWorkerPool: workers must be an integer in [1, ${MAX_WORKERS}] or 'auto', got ${String(workers)}`);
  }
  const source = checkPoolOptions(options);
  let count = workers === 'auto' ? autoWorkerCount() : workers;
  if (count > 0 && (!canShareMemory() || !canStartWorkers())) {
    if (!warnedNoSharedMemory) {
      warnedNoSharedMemory = true;
      console.warn('bitecs-collide: worker threads need SharedArrayBuffer (in browsers, a cross-origin isolated page: COOP and COEP headers) and Worker; the collision pipeline runs on one thread');
    }
    count = 0;
  }
  let attached = false;
  let started!: (pool: WorkerPool | undefined) => void;
  const ready = new Promise<WorkerPool | undefined>((resolve) => (started = resolve)).then((pool) => pool?.ready);
  ready.catch(() => {}); // step throws the same error: an unread `ready` is no unhandled rejection
  return {
    workers: count,
    ready,
    attach(): ParallelState | undefined {
      if (attached) throw new CollideInputError('createCollisionPipeline: this worker pool already serves a pipeline (create one pool per pipeline)');
      attached = true;
      const pool = count === 0 ? undefined : new WorkerPool(count, source);
      started(pool);
      return pool === undefined ? undefined : parallelState(pool);
    },
  };
}

/** A step threshold: the polling or the sleeping default, as the pool's threads wait between jobs now (pool.polls), until fixed. */
function followsPolling(pool: WorkerPool, polling: number, sleeping: number): { fixed: number | undefined; value(): number } {
  return {
    fixed: undefined,
    value() {
      return this.fixed ?? (pool.polls ? polling : sleeping);
    },
  };
}

/** The parallel refit, broad-phase scans, narrow phase, hitbox jobs and tree builds on `pool`. */
function parallelState(pool: WorkerPool): ParallelState {
  const narrow = createNarrowBuffers();
  let splitBroadPhase: SpatialHash | undefined;
  const refitMin = followsPolling(pool, POLLING_MIN_COLLIDERS, PARALLEL_MIN_COLLIDERS);
  const narrowMin = followsPolling(pool, POLLING_MIN_CANDIDATES, PARALLEL_MIN_CANDIDATES);
  const broadMin = followsPolling(pool, POLLING_MIN_DYNAMIC_BOXES, PARALLEL_MIN_DYNAMIC_BOXES);
  const state: ParallelState = {
    workers: pool.workerCount,
    get minRefit() { return refitMin.value(); },
    set minRefit(value: number) { refitMin.fixed = value; },
    get minNarrow() { return narrowMin.value(); },
    set minNarrow(value: number) { narrowMin.fixed = value; },
    get polling() {
      return pool.polls;
    },
    wake: () => pool.wake(),
    get jobsOnWorkers() {
      return pool.jobsOnWorkers;
    },
    minHitboxCharacters: PARALLEL_MIN_HITBOX_CHARACTERS,
    minHitboxRays: PARALLEL_MIN_HITBOX_RAYS,
    hitboxes: createHitboxJobs(pool),
    minColliderRays: PARALLEL_MIN_COLLIDER_RAYS,
    minColliderCasts: PARALLEL_MIN_COLLIDER_CASTS,
    minColliderOverlaps: PARALLEL_MIN_COLLIDER_OVERLAPS,
    minSweeps: PARALLEL_MIN_SWEEPS,
    queries: createQueryJobs(pool),
    minTreeTriangles: PARALLEL_MIN_TREE_TRIANGLES,
    buildTree: createTreeJobs(pool),
    get minBroad() { return broadMin.value(); },
    set minBroad(value: number) { broadMin.fixed = value; },
    installBroadPhase(broadPhase: BroadPhase): void {
      const splittable = broadPhase as Partial<SpatialHash>;
      if (typeof splittable.splitScans !== 'function') return;
      splitBroadPhase = broadPhase as SpatialHash;
      splitBroadPhase.splitScans(createScanSplitter(pool, state));
    },
    refit(p: CollisionPipeline): void {
      const c = p.collider, t = p.transform, margin = p.aabbMargin;
      shareStores(pool, c, t);
      try {
        pool.runClaimed(JOB_REFIT, t.changedCount, margin, 0, 0, (from, to) => refitRange(c, t, from, to, margin, p.kdopKind));
      } catch (error) {
        // Every collider is refit by the next step, so none keeps a stale volume.
        for (let i = 0; i < t.changedCount; i++) t.changed[t.changedIds[i]] = 0;
        t.changedCount = 0;
        for (let i = 0; i < c.count; i++) markChanged(t, c.ids[i]);
        throw error;
      }
    },
    narrowTests(p: CollisionPipeline): void {
      parallelNarrowTests(p, pool, narrow);
    },
    failNextJob(): void {
      pool.failNextJob = true;
    },
    scrambleSplits(rand: () => number): void {
      pool.scrambleSplits(rand);
    },
    destroy(): void {
      splitBroadPhase?.splitScans(undefined);
      pool.destroy();
    },
  };
  return state;
}
