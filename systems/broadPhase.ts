/**
 * broadPhase: candidate pairs from the colliders' world boxes, by the pipeline's algorithm
 * (src/broadphase), layer/mask and static filtered, sorted ascending (a < b).
 */
import type { World } from 'bitecs';
import { pipelineOf } from './collisionState';
import { isBoxQueryable } from '../src/broadphase/boxQuery';
import { hasGrids } from '../src/broadphase/spatialHash';
import { grown } from '../src/broadphase/growable';

/** System: fills the pipeline's `candidates` with the overlapping broad-phase boxes. Allocation-free in steady state. */
export function broadPhase(world: World): World {
  const p = pipelineOf(world, 'broadPhase');
  const c = p.collider;
  const input = p.scratch.broadInput;
  // Re-read every frame: the store's arrays are replaced when it grows.
  input.ids = c.ids;
  input.count = c.count;
  input.boxes = c.aabb;
  input.isStatic = c.isStatic;
  input.layer = c.layer;
  input.mask = c.mask;
  p.broadPhase.findPairs(input, p.candidates);
  p.scratch.broadPhaseRuns++;
  if (!hasGrids(p.broadPhase) && !isBoxQueryable(p.broadPhase)) {
    // For the query grid of overlap queries and casts, built later from this step's colliders.
    const ids = (p.scratch.stepIds = grown(p.scratch.stepIds, c.count));
    for (let i = 0; i < c.count; i++) ids[i] = c.ids[i];
  }
  return world;
}
