import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createHitboxStore } from '../../src/character/hitboxStore';
import { buildCharacterRayGrid, createCharacterRayGrid } from '../../src/character/rayGrid';
import { createHitboxRayHit, createHitboxRayHits, raycastHitboxes, raycastHitboxesAt, raycastHitboxesBatch, raycastHitboxesBatchAt, type HitboxRayHit, type HitboxRayHits } from '../../src/character/hitboxRaycast';
import { createHitboxHistory, hitboxesAt, recordHitboxHistory, type HitboxHistory } from '../../src/character/hitboxHistory';
import { beginHitboxMotion, createHitboxMotion, finishHitboxMotion, type HitboxMotion } from '../../src/character/hitboxMotion';
import { createHitboxSweepHits, createSweepQuery, setSweepObb, sweepHitboxes, sweepHitboxesAll } from '../../src/character/hitboxSweep';
import { createHitboxHit } from '../../src/character/hitboxHit';
import type { HitboxStore } from '../../src/character/hitboxLayout';
import type { CharacterRayGrid } from '../../src/character/rayGrid';
import { createColliderHits } from '../../src/query/colliderHits';
import { CollideInputError } from '../../src/errors';
import { refusal } from '../support/refusal';
import { createRayBatch, createRayQuery, type RayBatch } from '../../src/query/rayQuery';
import { crowdScene, expectSingleRayHits, sceneRays } from '../support/hitboxRays';

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

  it('reports the distance of a hit along a tiny direction, whose squared length underflows, single and batched', () => {
    const { store, grid } = crowdScene(3, 1, 1);
    const w = store.world;
    const unit = createHitboxRayHit(), tiny = createHitboxRayHit();
    expect(raycastHitboxes(unit, store, grid, createRayQuery({ origin: [w[0] - 5, w[1], w[2]], direction: [1, 0, 0] }))).toBe(true);
    expect(raycastHitboxes(tiny, store, grid, createRayQuery({ origin: [w[0] - 5, w[1], w[2]], direction: [1e-200, 0, 0] }))).toBe(true);
    expect(tiny.distance).toBeCloseTo(unit.distance, 9);
    const rays = createRayBatch(1), hits = createHitboxRayHits(1);
    rays.count = 1;
    rays.origin.set([w[0] - 5, w[1], w[2]]);
    rays.direction.set([1e-200, 0, 0]);
    expect(raycastHitboxesBatch(hits, store, grid, rays)).toBe(1);
    expect(hits.distance[0]).toBe(tiny.distance);
    expect(hits.t[0]).toBe(tiny.t);
  });

  it('refuses missing and foreign records, absent times and oversized batches with CollideInputError, naming them', () => {
    const { store, grid, rand } = crowdScene(4, 3, 6);
    const rays = sceneRays(store, rand, 4, 6);
    const hits = createHitboxRayHits(4);
    const history = createHitboxHistory(2);
    recordHitboxHistory(history, store, 1);
    expect(refusal(() => raycastHitboxesBatch(null as unknown as HitboxRayHits, store, grid, rays))).toMatch(/raycastHitboxesBatch: hits must be an object, got null/);
    expect(refusal(() => raycastHitboxesBatch(createColliderHits(4) as unknown as HitboxRayHits, store, grid, rays))).toMatch(/raycastHitboxesBatch: hits\.character is missing/);
    expect(refusal(() => raycastHitboxesBatch(hits, store, grid, undefined as unknown as RayBatch))).toMatch(/raycastHitboxesBatch: rays must be an object, got undefined/);
    expect(refusal(() => raycastHitboxesBatchAt(hits, history, store, rays, null as unknown as number[]))).toMatch(/raycastHitboxesBatchAt: times is missing \(null\), 4 numbers needed/);
    // A miss leaves the hit alone, so without the check a null hit threw only on a hit.
    expect(refusal(() => raycastHitboxes(null as unknown as HitboxRayHit, store, grid, createRayQuery({ origin: [-100, 0, 0] })))).toMatch(/raycastHitboxes: hit must come from createHitboxRayHit \(a record with point and normal arrays of 3 numbers\), got null/);
    expect(refusal(() => raycastHitboxesAt(null as unknown as HitboxRayHit, history, store, createRayQuery({ origin: [-100, 0, 0] }), 1))).toMatch(/raycastHitboxesAt: hit must come from createHitboxRayHit/);
    // An object without the point and normal arrays: a hit would write into them.
    for (const bad of [{}, { point: [0, 0], normal: new Float64Array(3) }, { point: new Float64Array(3), normal: 'up' }]) {
      expect(refusal(() => raycastHitboxes(bad as unknown as HitboxRayHit, store, grid, createRayQuery({ origin: [-100, 0, 0] })))).toMatch(/raycastHitboxes: hit must come from createHitboxRayHit/);
      expect(refusal(() => raycastHitboxesAt(bad as unknown as HitboxRayHit, history, store, createRayQuery({ origin: [-100, 0, 0] }), 1))).toMatch(/raycastHitboxesAt: hit must come from createHitboxRayHit/);
    }
    expect(refusal(() => createRayBatch(2 ** 40))).toMatch(/createRayBatch: capacity 1099511627776 is too large to allocate/);
    expect(refusal(() => createHitboxRayHits(2 ** 40))).toMatch(/createHitboxRayHits: capacity 1099511627776 is too large to allocate/);
  });

  it('refuses a store, grid, history or motion that none of their makers made, naming the maker', () => {
    const { store, grid, rand } = crowdScene(4, 3, 6);
    const rays = sceneRays(store, rand, 4, 6);
    const hits = createHitboxRayHits(4), hit = createHitboxRayHit();
    const history = createHitboxHistory(2);
    recordHitboxHistory(history, store, 1);
    const motion = createHitboxMotion();
    beginHitboxMotion(motion, store);
    finishHitboxMotion(motion, store);
    const sweep = setSweepObb(createSweepQuery(), store.world, 0, store.world, 0);
    const query = createRayQuery({ origin: [-100, 0, 0] });
    const foreign = [null, undefined, {}, { world: [] }, 7] as unknown[];
    for (const bad of foreign) {
      const noStore = bad as HitboxStore, noGrid = bad as CharacterRayGrid, noHistory = bad as HitboxHistory, noMotion = bad as HitboxMotion;
      expect(refusal(() => raycastHitboxes(hit, noStore, grid, query))).toMatch(/^raycastHitboxes: store must come from createHitboxStore, got /);
      expect(refusal(() => raycastHitboxes(hit, store, noGrid, query))).toMatch(/^raycastHitboxes: grid must come from createCharacterRayGrid, got /);
      expect(refusal(() => raycastHitboxesBatch(hits, noStore, grid, rays))).toMatch(/^raycastHitboxesBatch: store must come from createHitboxStore/);
      expect(refusal(() => raycastHitboxesBatch(hits, store, noGrid, rays))).toMatch(/^raycastHitboxesBatch: grid must come from createCharacterRayGrid/);
      expect(refusal(() => raycastHitboxesAt(hit, noHistory, store, query, 1))).toMatch(/^raycastHitboxesAt: history must come from createHitboxHistory/);
      expect(refusal(() => raycastHitboxesAt(hit, history, noStore, query, 1))).toMatch(/^raycastHitboxesAt: store must come from createHitboxStore/);
      expect(refusal(() => raycastHitboxesBatchAt(hits, noHistory, store, rays, [1, 1, 1, 1]))).toMatch(/^raycastHitboxesBatchAt: history must come from createHitboxHistory/);
      expect(refusal(() => hitboxesAt(new Float64Array(1e4), noHistory, store, 1))).toMatch(/^hitboxesAt: history must come from createHitboxHistory/);
      expect(refusal(() => hitboxesAt(new Float64Array(1e4), history, noStore, 1))).toMatch(/^hitboxesAt: store must come from createHitboxStore/);
      expect(refusal(() => recordHitboxHistory(noHistory, store, 2))).toMatch(/^recordHitboxHistory: history must come from createHitboxHistory/);
      expect(refusal(() => recordHitboxHistory(history, noStore, 2))).toMatch(/^recordHitboxHistory: store must come from createHitboxStore/);
      expect(refusal(() => sweepHitboxes(createHitboxHit(), noStore, motion, sweep))).toMatch(/^sweepHitboxes: store must come from createHitboxStore/);
      expect(refusal(() => sweepHitboxes(createHitboxHit(), store, noMotion, sweep))).toMatch(/^sweepHitboxes: motion must come from createHitboxMotion/);
      expect(refusal(() => sweepHitboxesAll(createHitboxSweepHits(2), store, noMotion, sweep))).toMatch(/^sweepHitboxesAll: motion must come from createHitboxMotion/);
    }
    // The real ones pass.
    expect(refusal(() => raycastHitboxesBatch(hits, store, grid, rays))).toBe('no error');
    expect(refusal(() => sweepHitboxes(createHitboxHit(), store, motion, sweep))).toBe('no error');
  });
});
