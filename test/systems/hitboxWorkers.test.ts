/**
 * Characters on worker threads: the hitbox update and ray batches (at the present time, and each
 * ray at its own past time of the hitbox history) split between 1-3 workers give the stores and
 * hits of one thread, to the bit; small batches and unshared arrays stay on the calling thread
 * with the same results.
 */
import { addEntity, createWorld } from 'bitecs';
import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import { createHitboxRayHits, type HitboxRayHits } from '../../src/character/hitboxRaycast';
import { isShared } from '../../src/sharedMemory';
import { removeCollider, setTransform } from '../../systems/colliderApi';
import { addCharacterCollider } from '../../systems/characters';
import type { CollisionPipeline } from '../../systems/collisionState';
import { createCollisionPipeline } from '../../systems/pipeline';
import { createWorkerPool } from '../../systems/parallel/workerPool';
import { raycastCharactersBatch } from '../../systems/raycastColliders';
import { raycastCharactersBatchAt } from '../../systems/characterHistory';
import { mulberry32 } from '../../scenes/random';
import { def, fitted, humanoid, sceneRays } from '../support/hitboxRays';
import { createRayBatch } from '../../src/query/rayQuery';
import { CollideInputError } from '../../src/errors';

const asset = { skeleton: def, hitboxes: fitted };
const running: CollisionPipeline[] = [];
afterEach(() => {
  for (const p of running.splice(0)) p.destroy();
});

/** A pipeline with `crowd` animated characters from `seed`, stepped once; `workers` 0 for one thread. */
function crowdPipeline(seed: number, crowd: number, side: number, workers: number): CollisionPipeline {
  const world = createWorld();
  const p = createCollisionPipeline(world, workers > 0 ? { workers: createWorkerPool(workers) } : {});
  running.push(p);
  if (p.parallel !== undefined) {
    p.parallel.minHitboxCharacters = 1;
    p.parallel.minHitboxRays = 1;
  }
  const rand = mulberry32(seed);
  for (let c = 0; c < crowd; c++) {
    const e = addEntity(world);
    addCharacterCollider(world, e, asset);
    const a = rand() * 2 * Math.PI;
    setTransform(world, e, [rand() * side, 0, rand() * side], [0, Math.sin(a / 2), 0, Math.cos(a / 2)], 0.5 + rand());
    const s = p.characters!.skeletons, first = s.firstBone[c];
    humanoid.animate(rand() * humanoid.duration, s.translation.subarray(3 * first), s.rotation.subarray(4 * first), s.scale.subarray(3 * first));
  }
  p.step(world);
  return p;
}

/** A new entity with a character collider of the test's asset. */
function addCharacter(world: ReturnType<typeof createWorld>): number {
  const e = addEntity(world);
  addCharacterCollider(world, e, asset);
  return e;
}

function sameBits(a: ArrayLike<number>, b: ArrayLike<number>, what: string): void {
  expect(a.length, what).toBe(b.length);
  for (let i = 0; i < a.length; i++) if (!Object.is(a[i], b[i])) expect([i, a[i]], what).toEqual([i, b[i]]);
}

function sameHits(a: HitboxRayHits, b: HitboxRayHits): void {
  for (const name of ['hitbox', 'character', 'entity', 'bone', 'group', 't', 'distance', 'point', 'normal'] as const) sameBits(a[name], b[name], `hits.${name}`);
}

describe('characters on worker threads', () => {
  it('update the hitboxes and cast ray batches to the bit of one thread, for 1-3 workers', () => {
    let hitsSeen = 0;
    fc.assert(fc.property(fc.integer({ min: 1, max: 3 }), fc.integer({ min: 0, max: 2 ** 31 - 1 }), fc.integer({ min: 1, max: 40 }), (workers, seed, crowd) => {
      const side = 2 * Math.sqrt(crowd);
      const one = crowdPipeline(seed, crowd, side, 0);
      const many = crowdPipeline(seed, crowd, side, workers);
      const h1 = one.characters!.hitboxes, hn = many.characters!.hitboxes;
      expect(isShared(hn.world) && isShared(many.characters!.skeletons.world)).toBe(true);
      for (const name of ['world', 'sphere', 'characterAabb', 'clusterAabb'] as const) sameBits(hn[name], h1[name], `hitboxes.${name}`);
      sameBits(many.characters!.skeletons.world, one.characters!.skeletons.world, 'skeletons.world');
      // A second pose: the threads compute the bone matrices of their characters again.
      for (const p of [one, many]) {
        const s = p.characters!.skeletons, animate = mulberry32(seed + 2);
        for (let c = 0; c < crowd; c++) {
          const first = s.firstBone[c];
          humanoid.animate(animate() * humanoid.duration, s.translation.subarray(3 * first), s.rotation.subarray(4 * first), s.scale.subarray(3 * first));
        }
        p.step(p.world);
      }
      sameBits(many.characters!.skeletons.world, one.characters!.skeletons.world, 'skeletons.world, second pose');
      for (const name of ['world', 'sphere', 'characterAabb', 'clusterAabb'] as const) sameBits(hn[name], h1[name], `hitboxes.${name}, second pose`);
      // Rays over the scene, on shared arrays so the workers take their part.
      const rays = sceneRays(hn, mulberry32(seed + 1), 300, side, true);
      const hits1 = createHitboxRayHits(300), hitsN = createHitboxRayHits(300, true);
      const found = raycastCharactersBatch(one.world, hits1, rays);
      expect(raycastCharactersBatch(many.world, hitsN, rays)).toBe(found);
      sameHits(hitsN, hits1);
      // The workers took part: the pool's cast ran (it returns -1 when it leaves the batch to the caller),
      // here split unevenly between the threads.
      hitsN.hitbox.fill(-2);
      many.parallel!.scrambleSplits(mulberry32(seed + 2));
      expect(many.parallel!.hitboxes.cast(hitsN, hn, many.characters!.rayGrid!, rays)).toBe(found);
      sameHits(hitsN, hits1);
      hitsSeen += found;
    }), { numRuns: 6 });
    expect(hitsSeen).toBeGreaterThan(100);
  });

  it('casts rewound batches to the bit of one thread, for 1-3 workers, as the crowd moves, grows and shrinks', () => {
    let hitsSeen = 0;
    fc.assert(fc.property(fc.integer({ min: 1, max: 3 }), fc.integer({ min: 0, max: 2 ** 31 - 1 }), fc.integer({ min: 2, max: 24 }), (workers, seed, crowd) => {
      const side = 2 * Math.sqrt(crowd);
      const runs = [0, workers].map((w) => {
        const world = createWorld();
        const p = createCollisionPipeline(world, { characters: { history: { frames: 6 } }, ...(w > 0 ? { workers: createWorkerPool(w) } : {}) });
        running.push(p);
        if (p.parallel !== undefined) p.parallel.minHitboxRays = p.parallel.minHitboxCharacters = 1;
        return { world, p, entities: [] as number[] };
      });
      // Both crowds walk the same way for 9 steps (the window keeps the last 6); one character
      // joins at step 3 and one leaves at step 6, so some rewound times see them and some not.
      const rand = mulberry32(seed);
      const poses: number[][] = Array.from({ length: crowd + 1 }, () => [rand() * side, rand() * side, rand() * 2 * Math.PI, rand() * humanoid.duration]);
      for (let step = 0; step < 9; step++) {
        for (const run of runs) {
          const { world, p, entities } = run;
          if (step === 0) for (let c = 0; c < crowd; c++) entities.push(addCharacter(world));
          if (step === 3) entities.push(addCharacter(world));
          if (step === 6) removeCollider(world, entities[0]);
          entities.forEach((e, c) => {
            if (step >= 6 && c === 0) return; // left the crowd
            const [x, z, a, t] = poses[c];
            const s = p.characters!.skeletons, first = s.firstBone[c];
            setTransform(world, e, [x + 0.3 * step * Math.cos(a), 0, z + 0.3 * step * Math.sin(a)], [0, Math.sin(a / 2), 0, Math.cos(a / 2)]);
            humanoid.animate((t + step / 30) % humanoid.duration, s.translation.subarray(3 * first), s.rotation.subarray(4 * first), s.scale.subarray(3 * first));
          });
          p.step(world, step / 60);
        }
        // The character stage on the threads, through the crowd's growth and a retirement: the same bones and boxes.
        const [a, b] = runs.map((r) => r.p.characters!);
        sameBits(b.skeletons.world, a.skeletons.world, `skeletons.world, step ${step}`);
        sameBits(b.hitboxes.world, a.hitboxes.world, `hitboxes.world, step ${step}`);
      }
      const [one, many] = runs.map((r) => r.p);
      expect(isShared(many.hitboxHistory!.time)).toBe(true);
      const rays = sceneRays(many.characters!.hitboxes, mulberry32(seed + 1), 300, side, true);
      // Times over the window, every seventh exactly at a step's time.
      const r = mulberry32(seed + 2), oldest = many.hitboxHistory!.oldestTime, newest = many.hitboxHistory!.newestTime;
      const times = Float64Array.from({ length: 300 }, (_, i) => (i % 7 === 0 ? Math.round(oldest * 60 + r() * 5) / 60 : oldest + r() * (newest - oldest)));
      const hits1 = createHitboxRayHits(300), hitsN = createHitboxRayHits(300, true);
      const found = raycastCharactersBatchAt(one.world, hits1, rays, times);
      const jobs = many.parallel!.jobsOnWorkers;
      expect(raycastCharactersBatchAt(many.world, hitsN, rays, times)).toBe(found);
      expect(many.parallel!.jobsOnWorkers).toBe(jobs + 1);
      sameHits(hitsN, hits1);
      // Split unevenly between the threads: the same hits.
      hitsN.hitbox.fill(-2);
      many.parallel!.scrambleSplits(mulberry32(seed + 3));
      expect(raycastCharactersBatchAt(many.world, hitsN, rays, times)).toBe(found);
      sameHits(hitsN, hits1);
      hitsSeen += found;
    }), { numRuns: 6 });
    expect(hitsSeen).toBeGreaterThan(100);
  });

  it('casts a batch on the calling thread when its arrays are not shared, with the same hits', () => {
    const one = crowdPipeline(5, 12, 7, 0);
    const many = crowdPipeline(5, 12, 7, 2);
    const rays = sceneRays(many.characters!.hitboxes, mulberry32(9), 200, 7);
    const hits1 = createHitboxRayHits(200), hits2 = createHitboxRayHits(200);
    expect(raycastCharactersBatch(many.world, hits2, rays)).toBe(raycastCharactersBatch(one.world, hits1, rays));
    sameHits(hits2, hits1);
  });

  it('misses every ray of a pipeline without characters and refuses a bad ray', () => {
    const p = createCollisionPipeline(createWorld());
    running.push(p);
    const rays = createRayBatch(4);
    rays.count = 3;
    rays.direction.fill(1);
    const hits = createHitboxRayHits(4);
    expect(raycastCharactersBatch(p.world, hits, rays)).toBe(0);
    expect(Array.from(hits.hitbox.subarray(0, 3))).toEqual([-1, -1, -1]);
    rays.maxDistance[2] = -1;
    expect(() => raycastCharactersBatch(p.world, hits, rays)).toThrow(CollideInputError);
    expect(() => raycastCharactersBatch(p.world, hits, rays)).toThrow(/raycastCharactersBatch: rays\.maxDistance\[2\] \(ray 2\) must be >= 0, got -1/);
  });
});
