import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { addCharacterHitboxes, createHitboxStore } from '../../src/character/hitboxStore';
import { buildCharacterRayGrid, createCharacterRayGrid } from '../../src/character/rayGrid';
import { createHitboxRayHit, createHitboxRayHits, raycastHitboxes, raycastHitboxesBatch, type HitboxRayHits } from '../../src/character/hitboxRaycast';
import { fitBoneHitboxes } from '../../src/character/hitboxFit';
import { updateHitboxes } from '../../src/character/hitboxUpdate';
import type { HitboxStore } from '../../src/character/hitboxLayout';
import { CollideInputError } from '../../src/errors';
import { createRayBatch, createRayQuery, setRay, type RayBatch } from '../../src/query/rayQuery';
import { addCharacter, computeWorldMatrices, createSkeletonStore, defineSkeleton } from '../../src/character/skeleton';
import { defineSkin } from '../../src/character/skin';
import { buildHumanoid } from '../../scenes/humanoid';
import { mulberry32 } from '../../scenes/random';

const humanoid = buildHumanoid();
const def = defineSkeleton(humanoid.skeleton);
const fitted = fitBoneHitboxes(def, defineSkin(def, humanoid.skin));

/** A posed crowd of `crowd` characters (entities 100 + c) on a square of side `side`, from `seed`, with its grid. */
export function crowdScene(seed: number, crowd: number, side: number) {
  const rand = mulberry32(seed);
  const skeletons = createSkeletonStore();
  const store = createHitboxStore();
  for (let c = 0; c < crowd; c++) {
    addCharacter(skeletons, def, 100 + c);
    addCharacterHitboxes(store, skeletons, c, fitted);
    const first = skeletons.firstBone[c];
    humanoid.animate(rand() * humanoid.duration, skeletons.translation.subarray(3 * first), skeletons.rotation.subarray(4 * first), skeletons.scale.subarray(3 * first));
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
export function expectSingleRayHits(hits: HitboxRayHits, store: HitboxStore, grid: ReturnType<typeof createCharacterRayGrid>, rays: RayBatch): number {
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

describe('raycastHitboxesBatch', () => {
  it('gives every ray the single-ray hit, bit for bit, over random crowds and adversarial rays', () => {
    let hitsSeen = 0;
    fc.assert(fc.property(fc.integer({ min: 0, max: 2 ** 31 - 1 }), fc.integer({ min: 1, max: 30 }), fc.double({ min: 2, max: 40, noNaN: true }), (seed, crowd, side) => {
      const { store, grid, rand } = crowdScene(seed, crowd, side);
      const rays = sceneRays(store, rand, 240, side);
      const hits = createHitboxRayHits(rays.count);
      const count = raycastHitboxesBatch(hits, store, grid, rays);
      const found = expectSingleRayHits(hits, store, grid, rays);
      expect(count).toBe(found);
      hitsSeen += found;
    }), { numRuns: 25 });
    expect(hitsSeen).toBeGreaterThan(1000);
  });

  it('casts nothing for count 0 and on an empty store', () => {
    const store = createHitboxStore();
    const grid = createCharacterRayGrid();
    buildCharacterRayGrid(grid, store);
    const rays = createRayBatch(4);
    const hits = createHitboxRayHits(4);
    expect(raycastHitboxesBatch(hits, store, grid, rays)).toBe(0);
    rays.count = 4;
    rays.direction.fill(1);
    expect(raycastHitboxesBatch(hits, store, grid, rays)).toBe(0);
    expect(Array.from(hits.hitbox)).toEqual([-1, -1, -1, -1]);
  });

  it('refuses bad rays and short arrays, naming the field, before casting', () => {
    const { store, grid, rand } = crowdScene(3, 4, 6);
    const fresh = () => sceneRays(store, rand, 8, 6);
    const hits = createHitboxRayHits(8);
    const refusal = (rays: RayBatch, h: HitboxRayHits = hits) => {
      hits.hitbox.fill(7);
      try {
        raycastHitboxesBatch(h, store, grid, rays);
      } catch (error) {
        expect(error).toBeInstanceOf(CollideInputError);
        expect(Array.from(hits.hitbox)).toEqual(new Array(8).fill(7));
        return (error as Error).message;
      }
      return 'no error';
    };
    let rays = fresh();
    rays.origin[7] = NaN;
    expect(refusal(rays)).toMatch(/rays\.origin\[7\] \(ray 2\) is not finite/);
    rays = fresh();
    rays.direction[5] = Infinity;
    expect(refusal(rays)).toMatch(/rays\.direction\[5\] \(ray 1\) is not finite/);
    rays = fresh();
    rays.maxDistance[6] = -1;
    expect(refusal(rays)).toMatch(/rays\.maxDistance\[6\] \(ray 6\) must be >= 0, got -1/);
    rays = fresh();
    rays.maxDistance[3] = NaN;
    expect(refusal(rays)).toMatch(/rays\.maxDistance\[3\] \(ray 3\) must be >= 0, got NaN/);
    rays = fresh();
    rays.ignore[4] = -3;
    expect(refusal(rays)).toMatch(/rays\.ignore\[4\] \(ray 4\) must be an entity id or -1, got -3/);
    rays = fresh();
    rays.count = 9;
    expect(refusal(rays)).toMatch(/rays\.origin holds 24 numbers, 27 needed/);
    rays = fresh();
    rays.count = 2.5;
    expect(refusal(rays)).toMatch(/rays\.count must be a non-negative integer, got 2\.5/);
    rays = fresh();
    expect(refusal(rays, { ...createHitboxRayHits(8), normal: new Float64Array(12) })).toMatch(/hits\.normal holds 12 numbers, 24 needed/);
    expect(() => createRayBatch(-1)).toThrow(/createRayBatch: capacity must be a non-negative integer, got -1/);
    expect(() => createHitboxRayHits(1.5)).toThrow(/createHitboxRayHits: capacity must be a non-negative integer, got 1.5/);
  });
});
