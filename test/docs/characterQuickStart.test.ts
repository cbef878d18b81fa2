// The README's character quick start, run as written (relative imports instead of the package
// names, the Fox's path from the scenes), so the second code a user copies is known to work.
import { NodeIO } from '@gltf-transform/core';
import { addEntity, createWorld } from 'bitecs';
import { describe, expect, it } from 'vitest';
import { createRayQuery } from '../../src/index';
import { addCharacterCollider, createColliderRayHit, createCollisionPipeline, raycastColliders, setPosition } from '../../systems/index';
import { animateCharacter, loadGltfCharacter } from '../../gltf/index';
import { FOX_PATH } from '../../scenes/meshes';

describe('README character quick start', () => {
  it('shoots the walking Fox and names the bone and hit group', async () => {
    const fox = loadGltfCharacter(await new NodeIO().read(FOX_PATH)); // skeleton, one fitted box per bone, animations
    const world = createWorld();
    const collision = createCollisionPipeline(world);

    const fox1 = addEntity(world);
    addCharacterCollider(world, fox1, fox);             // placed by the entity's own transform
    setPosition(world, fox1, 0, 0, 0);

    // each frame: pose the bones, step, then shoot
    const walk = fox.animations.find((a) => a.name === 'Walk')!;
    animateCharacter(world, fox1, walk, 0.5);
    collision.step(world);
    const shot = createRayQuery({ origin: [0, 40, 500], direction: [0, 0, -1], maxDistance: 1000 }); // reusable
    const hit = createColliderRayHit();
    let said = '';
    if (raycastColliders(world, hit, shot)) {
      said = `hit ${hit.boneName} (${hit.groupName}) of entity ${hit.entity} at ${hit.distance.toFixed(1)}`;
    }

    expect(hit.entity).toBe(fox1);
    expect(fox.skeleton.names).toContain(hit.boneName);
    expect(['head', 'torso', 'arms', 'legs', 'tail', 'other']).toContain(hit.groupName);
    expect(hit.distance).toBeGreaterThan(400);
    expect(hit.distance).toBeLessThan(600);
    expect(said).toMatch(/^hit \S+ \(\w+\) of entity \d+ at \d+\.\d$/);
  });
});
