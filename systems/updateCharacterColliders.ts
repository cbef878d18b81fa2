/**
 * The characters' stage of the pipeline, a system of its own for custom orders. It runs the
 * character update that addCharacterCollider installs, so a program without characters never
 * references (nor bundles) the skeleton and hitbox code.
 */
import type { World } from 'bitecs';
import { pipelineOf } from './collisionState';

/**
 * System (between refitVolumes and the broad phase): places the characters by their entities'
 * transforms, then updates their bones, hitboxes, ray grid and broad-phase boxes. Does nothing
 * before the first character collider. Allocation-free.
 */
export function updateCharacterColliders(world: World): World {
  const p = pipelineOf(world, 'updateCharacterColliders');
  p.characterKind?.update(p);
  return world;
}
