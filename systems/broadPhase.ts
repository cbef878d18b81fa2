/**
 * broadPhase: candidate pairs from the colliders' world boxes, by the pipeline's algorithm
 * (src/broadphase), layer/mask and static filtered, sorted ascending (a < b).
 */
import type { World } from 'bitecs';
import type { BroadPhase } from '../src/broadphase/broadPhase';
import { createBruteForce } from '../src/broadphase/bruteForce';
import { createDynamicAabbTree } from '../src/broadphase/dynamicAabbTree';
import { createKdTree } from '../src/broadphase/kdTree';
import { createOctree } from '../src/broadphase/octree';
import { createSpatialHash } from '../src/broadphase/spatialHash';
import { createSweepAndPrune } from '../src/broadphase/sweepAndPrune';
import { CollideInputError } from '../src/errors';
import { pipelineOf, type BroadPhaseName } from './collisionState';

const FACTORIES: Record<BroadPhaseName, () => BroadPhase> = {
  sap: () => createSweepAndPrune(),
  sweepAndPrune: () => createSweepAndPrune(),
  bruteForce: () => createBruteForce(),
  spatialHash: () => createSpatialHash(),
  dynamicAabbTree: () => createDynamicAabbTree(),
  kdTree: () => createKdTree(),
  octree: () => createOctree(),
};

/** Names accepted by the `broadPhase` option. */
export const BROAD_PHASE_NAMES = Object.keys(FACTORIES) as readonly BroadPhaseName[];

/** The algorithm named `name` (a fresh instance), or `name` itself when it is an instance. */
export function resolveBroadPhase(name: BroadPhaseName | BroadPhase): BroadPhase {
  if (typeof name !== 'string') return name;
  const make = FACTORIES[name];
  if (make === undefined) {
    throw new CollideInputError(`broadPhase: unknown algorithm '${name}'; known: ${BROAD_PHASE_NAMES.join(', ')}`);
  }
  return make();
}

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
  return world;
}
