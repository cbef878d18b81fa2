/**
 * Characters on their own entity: addCharacterCollider places a character by its entity's
 * transform (library store or the game's own components) times the asset's root matrix, so the
 * hitboxes equal those of the same character placed by hand; animateCharacter poses its bones;
 * ray hits and hitbox pairs give bone and hit-group names.
 */
import { NodeIO } from '@gltf-transform/core';
import { addEntity, createWorld, removeEntity } from 'bitecs';
import { mat4, quat } from 'gl-matrix';
import { beforeAll, describe, expect, it } from 'vitest';
import { CollideInputError } from '../../src/errors';
import { addCharacter, createSkeletonStore } from '../../src/character/skeleton';
import { createHitboxStore, addCharacterHitboxes } from '../../src/character/hitboxStore';
import { HIT_GROUP_NAMES } from '../../src/character/hitGroups';
import { createHitboxRayHit, raycastHitboxes } from '../../src/character/hitboxRaycast';
import { createCharacterRayGrid } from '../../src/character/rayGrid';
import { addCollider, removeCollider, setPosition, setTransform } from '../../systems/colliderApi';
import { addCharacterCollider, characterOf } from '../../systems/characters';
import { createCollisionPipeline } from '../../systems/pipeline';
import { createColliderRayHit, raycastColliders } from '../../systems/raycastColliders';
import { animateCharacter, loadGltfCharacter, sampleGltfAnimation, type GltfCharacter } from '../../gltf/index';
import { FOX_PATH } from '../../scenes/meshes';
import { rayQueryOf } from '../support/rays';

let fox: GltfCharacter;
beforeAll(async () => {
  fox = loadGltfCharacter(await new NodeIO().read(FOX_PATH));
});

/** The reference: the same character added by hand, characterMatrix = placement · rootMatrix · assetScale. */
function byHand(position: number[], rotation: number[], scale: number, assetScale: number, time: number) {
  const world = createWorld();
  const skeletons = createSkeletonStore(), hitboxes = createHitboxStore(), rayGrid = createCharacterRayGrid();
  const p = createCollisionPipeline(world, { characters: { skeletons, hitboxes, rayGrid } });
  const e = addEntity(world);
  const c = addCharacter(skeletons, fox.skeleton, e);
  addCharacterHitboxes(hitboxes, skeletons, c, fox.hitboxes);
  addCharacterCollider(world, e, c);
  const placement = mat4.fromRotationTranslationScale(mat4.create(), quat.normalize(quat.create(), rotation as quat), position as [number, number, number], [scale, scale, scale]);
  const root = mat4.multiplyScalar(mat4.create(), fox.rootMatrix as unknown as mat4, assetScale);
  root[15] = fox.rootMatrix[15];
  root[3] = fox.rootMatrix[3]; root[7] = fox.rootMatrix[7]; root[11] = fox.rootMatrix[11];
  skeletons.characterMatrix.set(mat4.multiply(mat4.create(), placement, root), 16 * c);
  sampleGltfAnimation(fox.animations[0], time, skeletons.translation, skeletons.rotation, skeletons.scale, skeletons.firstBone[c]);
  p.step(world);
  return { hitboxes, skeletons };
}

describe('addCharacterCollider', () => {
  it('places the character by its entity transform: hitboxes match the same character placed by hand', () => {
    for (const [position, rotation, scale, assetScale, time] of [
      [[0, 0, 0], [0, 0, 0, 1], 1, 1, 0],
      [[12, -3, 40], [0.2, 0.7, -0.1, 0.6], 1, 1, 0.4],
      [[-5, 2, 8], [0, 1, 0, 1], 2.5, 0.01, 1.1],
    ] as [number[], number[], number, number, number][]) {
      const world = createWorld();
      const p = createCollisionPipeline(world, { characters: true });
      const e = addEntity(world);
      const c = addCharacterCollider(world, e, fox, { assetScale });
      expect(characterOf(world, e)).toBe(c);
      setTransform(world, e, position, rotation, scale);
      animateCharacter(world, e, fox.animations[0], time);
      p.step(world);
      const ref = byHand(position, rotation, scale, assetScale, time);
      const got = p.characters!.hitboxes;
      expect(got.count).toBe(ref.hitboxes.count);
      for (let i = 0; i < 15 * got.count; i++) expect(got.world[i]).toBeCloseTo(ref.hitboxes.world[i], 3);
      const scaleOf = Math.abs(ref.hitboxes.characterAabb[3] - ref.hitboxes.characterAabb[0]);
      for (let k = 0; k < 6; k++) expect(Math.abs(got.characterAabb[k] - ref.hitboxes.characterAabb[k])).toBeLessThan(1e-5 * (scaleOf + 50));
    }
  });

  it('follows the entity when it moves, also from the game\'s own components', () => {
    const position = { x: new Float32Array(4), y: new Float32Array(4), z: new Float32Array(4) };
    const world = createWorld();
    const p = createCollisionPipeline(world, { characters: true, transform: { position } });
    const e = addEntity(world);
    addCharacterCollider(world, e, fox);
    p.step(world);
    const before = Array.from(p.characters!.hitboxes.characterAabb.subarray(0, 6));
    position.x[e] = 100;
    p.step(world); // dynamic by default with components: no marking
    const after = Array.from(p.characters!.hitboxes.characterAabb.subarray(0, 6));
    expect(after[0] - before[0]).toBeCloseTo(100, 3);
    expect(after[3] - before[3]).toBeCloseTo(100, 3);
    expect(after[1]).toBeCloseTo(before[1], 4);
  });

  it('reports hits by bone name and hit group, through raycastHitboxes and raycastColliders', () => {
    const world = createWorld();
    const p = createCollisionPipeline(world, { characters: true });
    const e = addEntity(world);
    addCharacterCollider(world, e, fox);
    setTransform(world, e, [10, 0, -20]);
    p.step(world);
    const { hitboxes, rayGrid } = p.characters!;
    const box = hitboxes.characterAabb;
    const y = (box[1] + box[4]) / 2, x = (box[0] + box[3]) / 2;
    const hit = createHitboxRayHit();
    expect(raycastHitboxes(hit, hitboxes, rayGrid!, rayQueryOf(x, y, 500, 0, 0, -1, 1000))).toBe(true);
    expect(hit.entity).toBe(e);
    const bones = fox.skeleton.names;
    expect(hit.boneName).toBe(bones[hit.bone - p.characters!.skeletons.firstBone[hit.character]]);
    expect(hit.boneName.length).toBeGreaterThan(0);
    expect(hit.groupName).toBe(HIT_GROUP_NAMES[hit.group]);
    const any = createColliderRayHit();
    expect(raycastColliders(world, any, rayQueryOf(x, y, 500, 0, 0, -1, 1000))).toBe(true);
    expect([any.entity, any.hitbox, any.boneName, any.group, any.groupName]).toEqual([e, hit.hitbox, hit.boneName, hit.group, hit.groupName]);
    // A hitbox pair names its bone through the store.
    const ball = addEntity(world);
    addCollider(world, ball, { shape: 'sphere', radius: 0.5 });
    setTransform(world, ball, [any.point[0], any.point[1], any.point[2]]);
    p.step(world);
    expect(p.hitboxPairs.count).toBeGreaterThan(0);
    const h = p.hitboxPairs.hitboxA[0] >= 0 ? p.hitboxPairs.hitboxA[0] : p.hitboxPairs.hitboxB[0];
    expect(bones).toContain(hitboxes.boneName[h]);
  });

  it('a removed character is no longer hit by rays; re-adding its collider brings it back', () => {
    const world = createWorld();
    const p = createCollisionPipeline(world, { characters: true });
    const e = addEntity(world);
    const c = addCharacterCollider(world, e, fox);
    p.step(world);
    const box = p.characters!.hitboxes.characterAabb;
    const shot = rayQueryOf((box[0] + box[3]) / 2, (box[1] + box[4]) / 2, 500, 0, 0, -1, 1000);
    const hit = createHitboxRayHit(), any = createColliderRayHit();
    expect(raycastHitboxes(hit, p.characters!.hitboxes, p.characters!.rayGrid!, shot)).toBe(true);
    removeCollider(world, e);
    p.step(world);
    expect(raycastHitboxes(hit, p.characters!.hitboxes, p.characters!.rayGrid!, shot)).toBe(false);
    expect(raycastColliders(world, any, shot)).toBe(false);
    addCharacterCollider(world, e, c);
    p.step(world);
    expect(raycastHitboxes(hit, p.characters!.hitboxes, p.characters!.rayGrid!, shot)).toBe(true);
    removeEntity(world, e);
    p.step(world);
    expect(raycastHitboxes(hit, p.characters!.hitboxes, p.characters!.rayGrid!, shot)).toBe(false);
  });

  it('refuses what it cannot place, naming the problem, and adds nothing', () => {
    const world = createWorld();
    const p = createCollisionPipeline(world, { characters: true });
    const e = addEntity(world);
    const bad: [() => unknown, RegExp][] = [
      [() => addCharacterCollider(world, 999, fox), /addCharacterCollider: entity 999 does not exist/],
      [() => addCharacterCollider(world, e, { ...fox, rootMatrix: new Float64Array(15) }), /rootMatrix must hold 16 numbers, got 15/],
      [() => addCharacterCollider(world, e, { ...fox, rootMatrix: new Float64Array(16).fill(NaN) }), /rootMatrix/],
      [() => addCharacterCollider(world, e, fox, { assetScale: 0 }), /assetScale must be a finite number > 0, got 0/],
      [() => addCharacterCollider(world, e, fox, { layer: -1 }), /layer must be a uint32, got -1/],
      [() => addCharacterCollider(world, e, fox, { scale: 2 } as never), /unknown option 'scale'/],
      [() => addCharacterCollider(world, e, { skeleton: fox.skeleton } as never), /the asset must be \{ skeleton, hitboxes/],
      [() => animateCharacter(world, e, fox.animations[0], 0), /entity \d+ has no character collider/],
    ];
    for (const [call, message] of bad) {
      expect(call).toThrow(CollideInputError);
      expect(call).toThrow(message);
    }
    expect(p.characters).toBeUndefined(); // refused calls make no stores
    addCharacterCollider(world, e, fox);
    expect(p.characters!.skeletons.characterCount).toBe(1);
    expect(() => addCharacterCollider(world, e, fox)).toThrow(/already has character 0/);
    expect(() => animateCharacter(world, e, fox.animations[0], NaN)).toThrow(/time NaN is not finite/);
    expect(() => addCollider(world, e, { shape: 'character', character: 0 } as never)).toThrow(/are added with addCharacterCollider/);
  });

  it('needs no option: the first character collider makes the stores and joins the step', () => {
    const world = createWorld();
    const p = createCollisionPipeline(world);
    expect(p.characters).toBeUndefined();
    expect(p.systems).toHaveLength(4);
    const e = addEntity(world);
    setPosition(world, e, 3, 0, 0);
    addCharacterCollider(world, e, fox);
    p.step(world);
    const box = p.characters!.hitboxes.characterAabb;
    expect(box[3]).toBeGreaterThan(box[0]); // updated by the step
    const shot = rayQueryOf((box[0] + box[3]) / 2, (box[1] + box[4]) / 2, 500, 0, 0, -1, 1000);
    const hit = createColliderRayHit();
    expect(raycastColliders(world, hit, shot)).toBe(true);
    expect(hit.entity).toBe(e);
    expect(hit.boneName).not.toBe('');
  });

  it('with the game\'s components, an entity outside them is refused before the stores grow', () => {
    const world = createWorld();
    const p = createCollisionPipeline(world, { characters: true, transform: { position: { x: [0], y: [0], z: [0] } } });
    addEntity(world);
    const e = addEntity(world);
    expect(() => addCharacterCollider(world, e, fox)).toThrow(/has no position.x in the pipeline's transform components/);
    expect(p.characters).toBeUndefined();
  });
});
