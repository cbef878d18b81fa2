/**
 * World queries on the worker pool: a batch of rays, shape casts or overlap queries against the
 * colliders split in claimed chunks of queries. Every thread runs its queries with
 * raycastColliders, castShapeColliders or overlapColliders over the same shared stores, grids and
 * mesh trees (a worker over its own view of the pipeline: worker.ts), and each query writes only
 * its own entries, so the answers are those of one thread, to the bit.
 */
import { hasGrids, type ColumnGrid } from '../../src/broadphase/spatialHash';
import { grown } from '../../src/broadphase/growable';
import type { BoundingTree } from '../../src/tree/build';
import { allocate, allShared, isShared, sharedCopy } from '../../src/sharedMemory';
import { SHAPE_MESH, type ColliderStore } from '../../components/collider';
import type { CollisionPipeline, QueryJobs } from '../collisionState';
import { castColliderRayRange, castShapeRange, overlapRange } from '../colliderBatches';
import { sweepRange } from '../characterSweep';
import { MOTION_ARRAYS } from '../../src/character/hitboxMotion';
import { HIT_ARRAYS } from '../../src/character/hitboxRaycast';
import { SWEEP_BATCH_ARRAYS } from '../../src/character/sweepBatch';
import { COLLIDER_HIT_ARRAYS, OVERLAP_HIT_ARRAYS, type ColliderHits } from '../../src/query/colliderHits';
import { SHAPE_QUERY_BATCH_ARRAYS } from '../../src/query/shapeQueryBatch';
import { colliderBounds } from '../raycastColliders';
import { boxQueries } from '../shapeQueries';
import { shareStores } from './narrowBuffers';
import { shareAll, type WorkerPool } from './pool';
import {
  COLLIDER_ARRAYS, COLLIDER_RAY_BATCH_ARRAYS, HITBOX_ARRAYS, JOB_COLLIDER_CASTS, JOB_COLLIDER_OVERLAPS, JOB_COLLIDER_RAYS, QUERY_COLLIDER_ARRAYS, QUERY_GRID_ARRAYS, QUERY_GRID_PARAMS, QUERY_JOB_PARAMS,
  QUERY_MESH_OF, QUERY_PARAM_BOUNDS, QUERY_PARAM_GRIDS, QUERY_PARAM_MESH_LENGTH, QUERY_PARAM_TREES, QUERY_TREE_ARRAYS, QUERY_TREE_KINDS, QUERY_TREE_PARAMS,
  QUERY_TREE_PARAM_STRIDE, TRANSFORM_ARRAYS, RAY_GRID_ARRAYS, JOB_SWEEPS, SWEEP_JOB_PARAMS, SWEEP_PARAMS, SWEEP_PARAM_CELL, SWEEP_PARAM_CHARACTERS,
  SWEEP_PARAM_HITBOXES, SWEEP_PARAM_START_COUNT, SWEEP_PARAM_VERSION, SWEEP_PARAM_STORE_CHARACTERS,
} from './protocol';

/**
 * Rays of a batch from which raycastCollidersBatch runs on the pool: among 10,000 colliders two
 * threads measured 1.5x to 1.7x faster than one at 512 rays, 0.85x to 1.1x at 256
 * (docs/design/threads.md).
 */
export const PARALLEL_MIN_COLLIDER_RAYS = 512;
/** Shape casts of a batch from which castShapeCollidersBatch runs on the pool (docs/design/threads.md). */
export const PARALLEL_MIN_COLLIDER_CASTS = 512;
/** Overlap queries of a batch from which overlapCollidersBatch runs on the pool (docs/design/threads.md). */
export const PARALLEL_MIN_COLLIDER_OVERLAPS = 2048;
/** Melee sweeps of a batch from which sweepCharactersBatch runs on the pool (docs/design/threads.md). */
export const PARALLEL_MIN_SWEEPS = 128;

/** The grids a world query reads: the spatial hash's [static, dynamic], or [the query grid, none]. */
const grids: (ColumnGrid | undefined)[] = [undefined, undefined];

/** Fills `grids` with the grids the pipeline's box queries read (making them current); false for a broad phase that answers box queries itself. */
function queryGrids(p: CollisionPipeline): boolean {
  const queries = boxQueries(p);
  const b = p.broadPhase;
  if (hasGrids(b)) {
    const last = b.lastGrids();
    grids[0] = last[0];
    grids[1] = last[1];
    return true;
  }
  if (queries !== p.scratch.queryGrid) return false;
  grids[0] = p.scratch.queryGrid.grid;
  grids[1] = undefined;
  return true;
}

/** A tree's arrays on SharedArrayBuffers: the tree itself when they are, else a copy made once (trees never change). */
const sharedTrees = new WeakMap<BoundingTree, BoundingTree>();
function sharedTree(tree: BoundingTree): BoundingTree {
  if (allShared(tree, QUERY_TREE_ARRAYS)) return tree;
  let copy = sharedTrees.get(tree);
  if (copy === undefined) {
    const arrays: Record<string, ArrayBufferView> = {};
    for (const name of QUERY_TREE_ARRAYS) arrays[name] = sharedCopy(tree[name]);
    copy = { ...tree, ...arrays };
    sharedTrees.set(tree, copy);
  }
  return copy;
}

/** The distinct trees of a job's mesh colliders, in order of first use, and each one's index. */
const jobTrees: BoundingTree[] = [];
const treeIndex = new Map<BoundingTree, number>();

/** Whether the arrays a box query reads of `grid` are shared. */
function gridShared(grid: ColumnGrid): boolean {
  return allShared(grid, QUERY_GRID_ARRAYS) && isShared(grid.byLowerX.order);
}

/** The world query jobs on `pool`. */
export function createQueryJobs(pool: WorkerPool): QueryJobs {
  const params = allocate(Float64Array, QUERY_PARAM_GRIDS + QUERY_GRID_PARAMS * grids.length, true);
  pool.share(QUERY_JOB_PARAMS, params);
  const sweepParams = allocate(Float64Array, SWEEP_PARAMS, true);
  pool.share(SWEEP_JOB_PARAMS, sweepParams);
  let treeParams = allocate(Float64Array, 0, true);
  let meshOf = allocate(Int32Array, 0, true);

  /**
   * Hands the workers the mesh colliders' trees (the distinct ones, numbered in order of first
   * use, their arrays shared) and each entity's tree number.
   */
  function shareMeshes(c: ColliderStore): void {
    const meshes = c.mesh, length = meshes.length;
    jobTrees.length = 0;
    treeIndex.clear();
    meshOf = grown(meshOf, length);
    for (let e = 0; e < length; e++) {
      const tree = meshes[e];
      if (tree === undefined || c.kind[e] !== SHAPE_MESH) {
        meshOf[e] = -1;
        continue;
      }
      let k = treeIndex.get(tree);
      if (k === undefined) {
        k = jobTrees.length;
        treeIndex.set(tree, k);
        jobTrees.push(tree);
      }
      meshOf[e] = k;
    }
    treeParams = grown(treeParams, QUERY_TREE_PARAM_STRIDE * jobTrees.length);
    for (let k = 0; k < jobTrees.length; k++) {
      const tree = sharedTree(jobTrees[k]), o = QUERY_TREE_PARAM_STRIDE * k;
      treeParams[o] = QUERY_TREE_KINDS.indexOf(tree.kind);
      treeParams[o + 1] = tree.nodeCount;
      treeParams[o + 2] = tree.triangleCount;
      treeParams[o + 3] = tree.depth;
      treeParams[o + 4] = tree.scale;
      shareAll(pool, `queryMesh${k}`, tree, QUERY_TREE_ARRAYS);
    }
    params[QUERY_PARAM_TREES] = jobTrees.length;
    params[QUERY_PARAM_MESH_LENGTH] = length;
    pool.share(QUERY_TREE_PARAMS, treeParams);
    pool.share(QUERY_MESH_OF, meshOf);
  }

  /**
   * Hands the workers what a query of `p` reads (stores, grids, mesh trees, ray bounds). Returns the
   * job's CTRL_ARG, whether the pipeline has characters (1) or not (0), or -1 when the workers
   * cannot read all of it.
   */
  function shareQueryState(p: CollisionPipeline): number {
    const c = p.collider, t = p.transform, hitboxes = p.characters?.hitboxes;
    if (!allShared(c, COLLIDER_ARRAYS) || !allShared(c, QUERY_COLLIDER_ARRAYS) || !allShared(t, TRANSFORM_ARRAYS)) return -1;
    if (hitboxes !== undefined && !allShared(hitboxes, HITBOX_ARRAYS)) return -1;
    if (!queryGrids(p)) return -1;
    for (let slot = 0; slot < grids.length; slot++) if (grids[slot] !== undefined && !gridShared(grids[slot]!)) return -1;
    const bounds = colliderBounds(p);
    for (let k = 0; k < 6; k++) params[QUERY_PARAM_BOUNDS + k] = bounds[k];
    shareMeshes(c);
    for (let slot = 0; slot < grids.length; slot++) {
      const grid = grids[slot], o = QUERY_PARAM_GRIDS + QUERY_GRID_PARAMS * slot;
      params[o] = grid === undefined ? 0 : 1;
      if (grid === undefined) continue;
      params[o + 1] = grid.count;
      params[o + 2] = grid.slots;
      params[o + 3] = grid.bottom;
      params[o + 4] = grid.top;
      params[o + 5] = grid.oversizeCount;
      shareAll(pool, `queryGrid${slot}`, grid, QUERY_GRID_ARRAYS);
      pool.share(`queryGrid${slot}.order`, grid.byLowerX.order);
    }
    shareStores(pool, c, t);
    shareAll(pool, 'collider', c, QUERY_COLLIDER_ARRAYS);
    if (hitboxes !== undefined) shareAll(pool, 'hitboxes', hitboxes, HITBOX_ARRAYS);
    return hitboxes === undefined ? 0 : 1;
  }

  /**
   * Runs job `job` over the `count` queries of `batch` (its arrays `batchNames`, bound as
   * `batchPrefix.name`) into `answers` (`answerNames`, bound as `answerPrefix.name`), `own` being
   * this thread's range function; false (nothing run) when the workers cannot read it all.
   */
  function runQueries(
    p: CollisionPipeline, job: number, count: number, batch: object, batchNames: readonly string[], batchPrefix: string,
    answers: object, answerNames: readonly string[], answerPrefix: string, arg2: number, own: (from: number, to: number) => void,
  ): boolean {
    if (!allShared(batch, batchNames) || !allShared(answers, answerNames)) return false;
    const characters = shareQueryState(p);
    if (characters < 0) return false;
    shareAll(pool, batchPrefix, batch, batchNames);
    shareAll(pool, answerPrefix, answers, answerNames);
    pool.runClaimed(job, count, 0, characters, arg2, own);
    return true;
  }

  return {
    castRays(p, hits, rays) {
      const own = (from: number, to: number) => castColliderRayRange(p, hits, rays, from, to);
      if (!runQueries(p, JOB_COLLIDER_RAYS, rays.count, rays, COLLIDER_RAY_BATCH_ARRAYS, 'colliderRays', hits, COLLIDER_HIT_ARRAYS, 'colliderHits', 0, own)) return -1;
      return hitCount(hits, rays.count);
    },
    castShapes(p, hits, casts) {
      const own = (from: number, to: number) => castShapeRange(p, hits, casts, from, to);
      if (!runQueries(p, JOB_COLLIDER_CASTS, casts.count, casts, SHAPE_QUERY_BATCH_ARRAYS, 'shapeQueries', hits, COLLIDER_HIT_ARRAYS, 'colliderHits', 0, own)) return -1;
      return hitCount(hits, casts.count);
    },
    overlaps(p, hits, queries) {
      const n = queries.count, own = (from: number, to: number) => overlapRange(p, hits, queries, from, to);
      if (!runQueries(p, JOB_COLLIDER_OVERLAPS, n, queries, SHAPE_QUERY_BATCH_ARRAYS, 'shapeQueries', hits, OVERLAP_HIT_ARRAYS, 'overlapHits', hits.perQuery, own)) return -1;
      let total = 0;
      for (let i = 0; i < n; i++) total += hits.count[i];
      return total;
    },
    sweeps(hits, sweeps, store, motion) {
      if (!allShared(sweeps, SWEEP_BATCH_ARRAYS) || !allShared(hits, HIT_ARRAYS) || !allShared(store, HITBOX_ARRAYS)) return -1;
      if (!allShared(motion, MOTION_ARRAYS) || !allShared(motion.grid, RAY_GRID_ARRAYS)) return -1;
      sweepParams[SWEEP_PARAM_CHARACTERS] = motion.characterCount;
      sweepParams[SWEEP_PARAM_START_COUNT] = motion.startCount;
      sweepParams[SWEEP_PARAM_CELL] = motion.grid.cellSize;
      sweepParams[SWEEP_PARAM_STORE_CHARACTERS] = store.characterCount;
      sweepParams[SWEEP_PARAM_HITBOXES] = store.count;
      sweepParams[SWEEP_PARAM_VERSION] = motion.version;
      shareAll(pool, 'hitboxes', store, HITBOX_ARRAYS);
      shareAll(pool, 'motion', motion, MOTION_ARRAYS);
      shareAll(pool, 'motionGrid', motion.grid, RAY_GRID_ARRAYS);
      shareAll(pool, 'sweeps', sweeps, SWEEP_BATCH_ARRAYS);
      shareAll(pool, 'sweepHits', hits, HIT_ARRAYS);
      const n = sweeps.count;
      pool.runClaimed(JOB_SWEEPS, n, 0, 0, 0, (from, to) => sweepRange(hits, store, motion, sweeps, from, to));
      let count = 0;
      for (let i = 0; i < n; i++) if (hits.hitbox[i] >= 0) count++;
      return count;
    },
  };
}

/** Queries of the batch's first `n` that hit. */
function hitCount(hits: ColliderHits, n: number): number {
  let count = 0;
  for (let i = 0, entity = hits.entity; i < n; i++) if (entity[i] >= 0) count++;
  return count;
}
