/** Crowds and ray batches for the batch ray tests (one thread and worker threads). */
import { expect } from 'vitest';
import { addCharacterHitboxes, createHitboxStore } from '../../src/character/hitboxStore';
import { buildCharacterRayGrid, createCharacterRayGrid, type CharacterRayGrid } from '../../src/character/rayGrid';
import { createHitboxRayHit, raycastHitboxes, type HitboxRayHits } from '../../src/character/hitboxRaycast';
import { fitBoneHitboxes } from '../../src/character/hitboxFit';
import { updateHitboxes } from '../../src/character/hitboxUpdate';
import type { HitboxStore } from '../../src/character/hitboxLayout';
import { createRayBatch, createRayQuery, setRay, type RayBatch } from '../../src/query/rayQuery';
import { addCharacter, computeWorldMatrices, createSkeletonStore, defineSkeleton, type SkeletonStore } from '../../src/character/skeleton';
import { defineSkin } from '../../src/character/skin';
import { buildHumanoid } from '../../scenes/humanoid';
import { mulberry32 } from '../../scenes/random';

export const humanoid = buildHumanoid();
export const def = defineSkeleton(humanoid.skeleton);
export const fitted = fitBoneHitboxes(def, defineSkin(def, humanoid.skin));

/** Adds character `c` (owned by `entity`) to both stores, posed at a random time of the walk; returns its first bone. */
export function addAnimatedCharacter(skeletons: SkeletonStore, store: HitboxStore, c: number, entity: number, rand: () => number): number {
  addCharacter(skeletons, def, entity);
  addCharacterHitboxes(store, skeletons, c, fitted);
  const first = skeletons.firstBone[c];
  humanoid.animate(rand() * humanoid.duration, skeletons.translation.subarray(3 * first), skeletons.rotation.subarray(4 * first), skeletons.scale.subarray(3 * first));
  return first;
}

/** A posed crowd of `crowd` characters (entities 100 + c) on a square of side `side`, from `seed`, with its grid. */
export function crowdScene(seed: number, crowd: number, side: number) {
  const rand = mulberry32(seed);
  const skeletons = createSkeletonStore();
  const store = createHitboxStore();
  for (let c = 0; c < crowd; c++) {
    addAnimatedCharacter(skeletons, store, c, 100 + c, rand);
    skeletons.characterMatrix[16 * c + 12] = rand() * side;
    skeletons.characterMatrix[16 * c + 14] = rand() * side;
  }
  computeWorldMatrices(skeletons);
  updateHitboxes(store, skeletons);
  const grid = createCharacterRayGrid();
  buildCharacterRayGrid(grid, store);
  return { skeletons, store, grid, rand };
}

/**
 * `n` rays over the scene, with the adversarial kinds mixed in: origins inside a hitbox, rays
 * grazing a box face (origin on the face plane, direction along the face), zero max distance,
 * zero directions, random masks, the ignored entity a character's, a stranger's or none.
 */
export function sceneRays(store: HitboxStore, rand: () => number, n: number, side: number, shared = false): RayBatch {
  const rays = createRayBatch(n, shared);
  rays.count = n;
  const w = store.world;
  for (let i = 0; i < n; i++) {
    const kind = i % 6;
    const h = Math.floor(rand() * store.count), o = 15 * h;
    let ox = rand() * side, oy = rand() * 2, oz = rand() * side;
    let dx = rand() - 0.5, dy = (rand() - 0.5) * 0.3, dz = rand() - 0.5;
    if (kind === 1) {
      ox = w[o]; oy = w[o + 1]; oz = w[o + 2];
    } else if (kind === 2) {
      // On the face of axis 0, moving along axis 1.
      ox = w[o] + w[o + 12] * w[o + 3]; oy = w[o + 1] + w[o + 12] * w[o + 4]; oz = w[o + 2] + w[o + 12] * w[o + 5];
      ox -= w[o + 6]; oy -= w[o + 7]; oz -= w[o + 8];
      dx = w[o + 6]; dy = w[o + 7]; dz = w[o + 8];
    } else if (kind === 3) {
      const c = store.character[h];
      dx = w[o] - ox; dy = w[o + 1] - oy; dz = w[o + 2] - oz;
      if (c >= 0 && rand() < 0.2) { dx = dy = dz = 0; ox = w[o]; oy = w[o + 1]; oz = w[o + 2]; }
    }
    rays.origin.set([ox, oy, oz], 3 * i);
    rays.direction.set([dx, dy, dz], 3 * i);
    rays.maxDistance[i] = i % 11 === 0 ? 0 : i % 5 === 0 ? Infinity : rand() * side;
    rays.mask[i] = Math.floor(rand() * 0x100000000);
    const who = rand();
    rays.ignore[i] = who < 0.4 ? -1 : who < 0.8 ? store.characterEntity[store.character[h]] : 5;
  }
  return rays;
}

/** Ray i of `rays` cast alone; expects `hits` entry i to be that hit, bit for bit. */
export function expectSingleRayHits(hits: HitboxRayHits, store: HitboxStore, grid: CharacterRayGrid, rays: RayBatch): number {
  const hit = createHitboxRayHit();
  const query = createRayQuery();
  let found = 0;
  for (let i = 0; i < rays.count; i++) {
    const o = 3 * i;
    setRay(query, rays.origin[o], rays.origin[o + 1], rays.origin[o + 2], rays.direction[o], rays.direction[o + 1], rays.direction[o + 2]);
    query.maxDistance = rays.maxDistance[i];
    query.mask = rays.mask[i];
    query.ignore = rays.ignore[i];
    if (!raycastHitboxes(hit, store, grid, query)) {
      expect(hits.hitbox[i], `ray ${i}`).toBe(-1);
      expect([hits.character[i], hits.entity[i], hits.bone[i], hits.group[i], hits.t[i], hits.distance[i]]).toEqual([-1, -1, -1, -1, Infinity, Infinity]);
      continue;
    }
    found++;
    expect(hits.hitbox[i], `ray ${i}`).toBe(hit.hitbox);
    expect([hits.character[i], hits.entity[i], hits.bone[i], hits.group[i]]).toEqual([hit.character, hit.entity, hit.bone, hit.group]);
    expect(Object.is(hits.t[i], hit.t) && Object.is(hits.distance[i], hit.distance)).toBe(true);
    for (let k = 0; k < 3; k++) {
      expect(Object.is(hits.point[o + k], hit.point[k])).toBe(true);
      expect(Object.is(hits.normal[o + k], hit.normal[k])).toBe(true);
    }
  }
  return found;
}

