/**
 * World queries on the worker pool: a ray batch against the colliders split in claimed chunks of
 * rays. Every thread casts its rays with raycastColliders over the same shared stores and grids
 * (a worker over its own view of the pipeline: worker.ts), and each ray writes only its own
 * entries, so the hits are those of one thread, to the bit.
 */
import { hasGrids, type ColumnGrid } from '../../src/broadphase/spatialHash';
import type { RayBatch } from '../../src/query/rayQuery';
import { allocate, allShared, isShared } from '../../src/sharedMemory';
import { SHAPE_MESH, type ColliderStore } from '../../components/collider';
import type { CollisionPipeline } from '../collisionState';
import { COLLIDER_RAY_HIT_ARRAYS, castColliderRayRange, type ColliderRayHits } from '../colliderRayBatch';
import { colliderBounds } from '../raycastColliders';
import { boxQueries } from '../shapeQueries';
import { shareStores } from './narrowBuffers';
import { shareAll, type WorkerPool } from './pool';
import {
  COLLIDER_ARRAYS, COLLIDER_RAY_BATCH_ARRAYS, HITBOX_ARRAYS, JOB_COLLIDER_RAYS, QUERY_COLLIDER_ARRAYS, QUERY_GRID_ARRAYS, QUERY_GRID_PARAMS, QUERY_JOB_PARAMS,
  QUERY_PARAM_BOUNDS, QUERY_PARAM_GRIDS, TRANSFORM_ARRAYS,
} from './protocol';

/**
 * Rays of a batch from which raycastCollidersBatch runs on the pool: 256 rays cost about 0.5 ms
 * on one thread among 10,000 colliders, where a job's start costs about 0.05
 * (docs/design/threads.md).
 */
export const PARALLEL_MIN_COLLIDER_RAYS = 256;

/** The world query jobs of one pool. */
export interface QueryJobs {
  /**
   * castColliderRayRange over a validated batch, split between the threads; -1 (nothing cast)
   * when the workers cannot read everything a ray may meet: arrays not shared, mesh colliders
   * (their trees are objects), or a broad phase that answers box queries itself.
   */
  castRays(p: CollisionPipeline, hits: ColliderRayHits, rays: RayBatch): number;
}

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

/** Whether some collider is a mesh. */
function hasMeshColliders(c: ColliderStore): boolean {
  for (let e = 0; e < c.mesh.length; e++) if (c.mesh[e] !== undefined && c.kind[e] === SHAPE_MESH) return true;
  return false;
}

/** Whether the arrays a box query reads of `grid` are shared. */
function gridShared(grid: ColumnGrid): boolean {
  return allShared(grid, QUERY_GRID_ARRAYS) && isShared(grid.byLowerX.order);
}

/** The world query jobs on `pool`. */
export function createQueryJobs(pool: WorkerPool): QueryJobs {
  const params = allocate(Float64Array, QUERY_PARAM_GRIDS + QUERY_GRID_PARAMS * grids.length, true);
  pool.share(QUERY_JOB_PARAMS, params);
  return {
    castRays(p, hits, rays) {
      const c = p.collider, t = p.transform, hitboxes = p.characters?.hitboxes;
      if (!allShared(c, COLLIDER_ARRAYS) || !allShared(c, QUERY_COLLIDER_ARRAYS) || !allShared(t, TRANSFORM_ARRAYS)) return -1;
      if (!allShared(rays, COLLIDER_RAY_BATCH_ARRAYS) || !allShared(hits, COLLIDER_RAY_HIT_ARRAYS)) return -1;
      if (hitboxes !== undefined && !allShared(hitboxes, HITBOX_ARRAYS)) return -1;
      if (hasMeshColliders(c) || !queryGrids(p)) return -1;
      for (let slot = 0; slot < grids.length; slot++) if (grids[slot] !== undefined && !gridShared(grids[slot]!)) return -1;
      const bounds = colliderBounds(p);
      for (let k = 0; k < 6; k++) params[QUERY_PARAM_BOUNDS + k] = bounds[k];
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
      shareAll(pool, 'colliderRays', rays, COLLIDER_RAY_BATCH_ARRAYS);
      shareAll(pool, 'colliderHits', hits, COLLIDER_RAY_HIT_ARRAYS);
      const n = rays.count;
      pool.runClaimed(JOB_COLLIDER_RAYS, n, 0, hitboxes === undefined ? 0 : 1, 0, (from, to) => castColliderRayRange(p, hits, rays, from, to));
      let count = 0;
      for (let i = 0, entity = hits.entity; i < n; i++) if (entity[i] >= 0) count++;
      return count;
    },
  };
}
