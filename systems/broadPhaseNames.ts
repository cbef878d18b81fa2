/**
 * Broad phases by name, for code that picks one from a setting (a config file, a debug menu).
 * Every name's factory is referenced here, so a bundle that uses this module holds them all;
 * `createCollisionPipeline` itself takes an instance, and a program that imports only the factory
 * it uses bundles only that one.
 */
import type { BroadPhase } from '../src/broadphase/broadPhase';
import { createBruteForce } from '../src/broadphase/bruteForce';
import { createDynamicAabbTree } from '../src/broadphase/dynamicAabbTree';
import { createKdTree } from '../src/broadphase/kdTree';
import { createOctree } from '../src/broadphase/octree';
import { createSpatialHash } from '../src/broadphase/spatialHash';
import { createSweepAndPrune } from '../src/broadphase/sweepAndPrune';
import { CollideInputError } from '../src/errors';
import type { BroadPhaseName } from './collisionState';

const FACTORIES: Record<BroadPhaseName, () => BroadPhase> = {
  sap: () => createSweepAndPrune(),
  sweepAndPrune: () => createSweepAndPrune(),
  bruteForce: () => createBruteForce(),
  spatialHash: () => createSpatialHash(),
  dynamicAabbTree: () => createDynamicAabbTree(),
  kdTree: () => createKdTree(),
  octree: () => createOctree(),
};

/** Names `resolveBroadPhase` accepts (a literal, not Object.keys: no module-level call for bundlers to keep). */
export const BROAD_PHASE_NAMES: readonly BroadPhaseName[] = ['sap', 'sweepAndPrune', 'bruteForce', 'spatialHash', 'dynamicAabbTree', 'kdTree', 'octree'];

/**
 * A fresh instance of the broad phase named `name` (`name` itself when it is an instance), for
 * the pipeline's `broadPhase` option. Throws CollideInputError for an unknown name.
 */
export function resolveBroadPhase(name: BroadPhaseName | BroadPhase): BroadPhase {
  if (typeof name !== 'string') return name;
  const make = Object.hasOwn(FACTORIES, name) ? FACTORIES[name] : undefined;
  if (make === undefined) {
    throw new CollideInputError(`resolveBroadPhase: unknown algorithm '${name}'; known: ${BROAD_PHASE_NAMES.join(', ')}`);
  }
  return make();
}
