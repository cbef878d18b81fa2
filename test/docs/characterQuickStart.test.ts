// The README's character quick start, run as written (relative imports instead of the package
// names, the Fox's path from the scenes), so the second code a user copies is known to work.
import { NodeIO } from '@gltf-transform/core';
import { addEntity, createWorld } from 'bitecs';
import { describe, expect, it } from 'vitest';
import {
  HIT_GROUP_NAMES, addCharacter, addCharacterHitboxes, createCharacterRayGrid, createHitboxRayHit,
  createHitboxStore, createSkeletonStore, raycastHitboxes,
} from '../../src/index';
import { addCollider, createCollisionPipeline } from '../../systems/index';
import { loadGltfCharacter, sampleGltfAnimation } from '../../gltf/index';
import { FOX_PATH } from '../../scenes/meshes';

describe('README character quick start', () => {
  it('shoots the walking Fox and names the bone and hit group', async () => {
    const fox = loadGltfCharacter(await new NodeIO().read(FOX_PATH)); // skeleton, skin, one box per bone, animations
    const world = createWorld();
    const skeletons = createSkeletonStore(), hitboxes = createHitboxStore(), rayGrid = createCharacterRayGrid();
    const collision = createCollisionPipeline(world, { characters: { skeletons, hitboxes, rayGrid } });

    const fox1 = addEntity(world);
    const character = addCharacter(skeletons, fox.skeleton, fox1);
    addCharacterHitboxes(hitboxes, skeletons, character, fox.hitboxes);
    addCollider(world, fox1, { shape: 'character', character });
    skeletons.characterMatrix.set(fox.rootMatrix, 16 * character); // where it stands (column-major)

    // each frame: pose the bones, step, then shoot
    const walk = fox.animations.find((a) => a.name === 'Walk')!;
    sampleGltfAnimation(walk, 0.5, skeletons.translation, skeletons.rotation, skeletons.scale, skeletons.firstBone[character]);
    collision.step(world);
    const hit = createHitboxRayHit();
    const box = hitboxes.characterAabb, y = (box[1] + box[4]) / 2; // aim at mid-height
    let shot = '';
    if (raycastHitboxes(hit, hitboxes, rayGrid, 0, y, 500, 0, 0, -1, 1000)) {
      const bone = fox.skeleton.names[hit.bone - skeletons.firstBone[hit.character]];
      shot = `${bone} (${HIT_GROUP_NAMES[hit.group]}) at ${hit.distance.toFixed(1)}`;
    }

    expect(hit.entity).toBe(fox1);
    expect(fox.skeleton.names).toContain(shot.split(' ')[0]);
    expect(HIT_GROUP_NAMES).toContain(shot.split(' ')[1].slice(1, -1));
    expect(hit.distance).toBeGreaterThan(0);
    expect(hit.distance).toBeLessThan(1000);
  });
});
