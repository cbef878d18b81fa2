/**
 * sweepCharactersBatch: each sweep's first contact is sweepCharacters' for that sweep, to the bit,
 * on one thread and split between 1-3 workers, with the characters' motion from the `sweeps`
 * option or from the hitbox history, boxes and capsules, hit groups and ignored wielders, as the
 * crowd walks and its poses change; unshared batches stay on the calling thread with the same
 * hits; bad sweeps are refused before anything is swept.
 */
import { addEntity, createWorld } from 'bitecs';
import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import { quat } from 'gl-matrix';
import { CollideInputError } from '../../src/errors';
import { refusal } from '../support/refusal';
import { createHitboxHit } from '../../src/character/hitboxHit';
import { createHitboxRayHits, type HitboxRayHits } from '../../src/character/hitboxRaycast';
import { createSweepQuery, setSweepCapsule, setSweepObb, type SweepQuery } from '../../src/character/hitboxSweep';
import type { HitboxHit } from '../../src/character/hitboxHit';
import { createColliderHits } from '../../src/query/colliderHits';
import { createShapeQueryBatch } from '../../src/query/shapeQueryBatch';
import { createSweepBatch, setSweepAt, sweepAt, type SweepBatch } from '../../src/character/sweepBatch';
import { HIT_GROUP_HEAD, HIT_GROUP_TORSO } from '../../src/character/hitGroups';
import { setTransform } from '../../systems/colliderApi';
import { addCharacterCollider } from '../../systems/characters';
import { sweepCharacters, sweepCharactersAll, sweepCharactersBatch } from '../../systems/characterSweep';
import type { CollisionPipeline } from '../../systems/collisionState';
import { createCollisionPipeline } from '../../systems/pipeline';
import { createWorkerPool } from '../../systems/parallel/workerPool';
import { mulberry32 } from '../../scenes/random';
import { def, fitted, humanoid } from '../support/hitboxRays';

const running: CollisionPipeline[] = [];
afterEach(() => {
  for (const p of running.splice(0)) p.destroy();
});

const SIDE = 8;
const CROWD = 12;

interface Crowd {
  world: ReturnType<typeof createWorld>;
  p: CollisionPipeline;
  entities: number[];
  /** Per character: x, z, heading, animation phase. */
  state: Float64Array;
}

/** A crowd of walking humanoids on `workers` threads, keeping their motion by the `sweeps` option or a history. */
function crowd(seed: number, workers: number, history: boolean): Crowd {
  const world = createWorld();
  const p = createCollisionPipeline(world, {
    characters: history ? { history: { frames: 3 } } : { sweeps: true },
    ...(workers > 0 ? { workers: createWorkerPool(workers) } : {}),
  });
  running.push(p);
  if (p.parallel !== undefined) p.parallel.minSweeps = 1;
  const rand = mulberry32(seed);
  const state = new Float64Array(4 * CROWD);
  const entities = Array.from({ length: CROWD }, (_, c) => {
    const e = addEntity(world);
    addCharacterCollider(world, e, { skeleton: def, hitboxes: fitted });
    state.set([SIDE * rand(), SIDE * rand(), 2 * Math.PI * rand(), rand()], 4 * c);
    return e;
  });
  return { world, p, entities, state };
}

/** One step of the crowd: each walks 0.1 m on and turns a little, its pose advanced; `time` for the history. */
function stepCrowd(k: Crowd, time: number, rand: () => number): void {
  for (let c = 0; c < CROWD; c++) {
    const o = 4 * c, s = k.state;
    s[o + 2] += 0.4 * (rand() - 0.5);
    s[o] += 0.1 * Math.cos(s[o + 2]);
    s[o + 1] += 0.1 * Math.sin(s[o + 2]);
    s[o + 3] = (s[o + 3] + 0.05) % 1;
    setTransform(k.world, k.entities[c], [s[o], 0, s[o + 1]], [0, Math.sin(-s[o + 2] / 2), 0, Math.cos(-s[o + 2] / 2)]);
    const skeletons = k.p.characters!.skeletons, first = skeletons.firstBone[c];
    humanoid.animate(s[o + 3] * humanoid.duration, skeletons.translation.subarray(3 * first), skeletons.rotation.subarray(4 * first), skeletons.scale.subarray(3 * first));
  }
  k.p.step(k.world, time);
}

/** A box (OBB layout) about `centre` with a random rotation, half-extents blade-like. */
function blade(out: Float64Array, o: number, x: number, y: number, z: number, rand: () => number): void {
  const q = quat.normalize(quat.create(), [rand() - 0.5, rand() - 0.5, rand() - 0.5, rand() - 0.5]);
  const m = [1, 0, 0, 0, 1, 0, 0, 0, 1].map(() => 0);
  const [qx, qy, qz, qw] = q;
  m[0] = 1 - 2 * (qy * qy + qz * qz); m[1] = 2 * (qx * qy + qz * qw); m[2] = 2 * (qx * qz - qy * qw);
  m[3] = 2 * (qx * qy - qz * qw); m[4] = 1 - 2 * (qx * qx + qz * qz); m[5] = 2 * (qy * qz + qx * qw);
  m[6] = 2 * (qx * qz + qy * qw); m[7] = 2 * (qy * qz - qx * qw); m[8] = 1 - 2 * (qx * qx + qy * qy);
  out.set([x, y, z, ...m, 0.02, 0.05, 0.5], o);
}

/** `n` sweeps by the crowd's characters: blades and fists (capsules) swung about them, some passing their wielder or limited to head and torso. */
function fillSweeps(batch: SweepBatch, n: number, k: Crowd, rand: () => number): void {
  const query = createSweepQuery();
  const start = new Float64Array(15), end = new Float64Array(15);
  batch.count = n;
  for (let i = 0; i < n; i++) {
    const c = i % CROWD, x = k.state[4 * c] + 2 * (rand() - 0.5), z = k.state[4 * c + 1] + 2 * (rand() - 0.5), y = 0.5 + 1.2 * rand();
    if (i % 3 === 2) {
      start.set([x, y, z, x + 0.3 * rand(), y + 0.2, z, 0.05 + 0.05 * rand()]);
      end.set([x + 1.5 * (rand() - 0.5), y, z + 1.5 * (rand() - 0.5), x + 0.3, y + 0.2, z + 0.3, start[6]]);
      setSweepCapsule(query, start, 0, end, 0);
    } else {
      blade(start, 0, x, y, z, rand);
      blade(end, 0, x + 1.2 * (rand() - 0.5), y + 0.3 * (rand() - 0.5), z + 1.2 * (rand() - 0.5), rand);
      setSweepObb(query, start, 0, end, 0);
    }
    query.ignore = i % 4 === 0 ? k.entities[c] : -1;
    query.groups = i % 5 === 0 ? (1 << HIT_GROUP_HEAD) | (1 << HIT_GROUP_TORSO) : 0xffffffff;
    setSweepAt(batch, i, query);
  }
}

const single = createHitboxHit();
const query = createSweepQuery();

/** Expects entry i of `hits` to be sweepCharacters' hit for sweep i, to the bit; returns the sweeps that hit. */
function expectSingleSweeps(k: Crowd, hits: HitboxRayHits, batch: SweepBatch): number {
  let count = 0;
  for (let i = 0; i < batch.count; i++) {
    const found = sweepCharacters(k.world, single, sweepAt(query, batch, i));
    const what = `sweep ${i}`;
    if (!found) {
      expect(hits.hitbox[i], what).toBe(-1);
      expect(hits.t[i], what).toBe(Infinity);
      continue;
    }
    count++;
    expect([hits.hitbox[i], hits.character[i], hits.entity[i], hits.bone[i], hits.group[i]], what).toEqual([single.hitbox, single.character, single.entity, single.bone, single.group]);
    expect(Object.is(hits.t[i], single.t), what).toBe(true);
    expect(hits.distance[i], what).toBeNaN();
    for (let d = 0; d < 3; d++) expect(Object.is(hits.point[3 * i + d], single.point[d]) && Object.is(hits.normal[3 * i + d], single.normal[d]), what).toBe(true);
  }
  return count;
}

describe('sweepCharactersBatch', () => {
  it('gives each sweep the first contact sweepCharacters gives it, on one thread and on 1-3 workers, as the crowd walks', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 1e6 }), fc.integer({ min: 0, max: 3 }), fc.boolean(), (seed, workers, history) => {
        const rand = mulberry32(seed);
        const k = crowd(seed, workers, history);
        const batch = createSweepBatch(120, true), hits = createHitboxRayHits(120, true);
        let total = 0, early = 0;
        for (let frame = 0; frame < 4; frame++) {
          stepCrowd(k, frame / 30, rand);
          fillSweeps(batch, 80 + 10 * frame, k, rand);
          const before = k.p.parallel?.jobsOnWorkers ?? 0;
          const count = sweepCharactersBatch(k.world, hits, batch);
          expect(count).toBe(expectSingleSweeps(k, hits, batch));
          if (workers > 0) expect(k.p.parallel!.jobsOnWorkers).toBe(before + 1);
          total += count;
          for (let i = 0; i < batch.count; i++) if (hits.t[i] > 0 && hits.t[i] < 1) early++;
        }
        expect(total, `seed ${seed}: sweeps that hit`).toBeGreaterThan(20);
        expect(early, `seed ${seed}: contacts during the step`).toBeGreaterThan(0);
      }),
      { numRuns: 6 },
    );
  });

  it('sweeps a batch whose arrays are not shared on the calling thread, with the same hits', () => {
    const rand = mulberry32(3);
    const k = crowd(3, 2, false);
    stepCrowd(k, 0, rand);
    stepCrowd(k, 1 / 30, rand);
    for (const [batch, hits] of [[createSweepBatch(60), createHitboxRayHits(60, true)], [createSweepBatch(60, true), createHitboxRayHits(60)]] as const) {
      fillSweeps(batch, 60, k, rand);
      const before = k.p.parallel!.jobsOnWorkers;
      expect(sweepCharactersBatch(k.world, hits, batch)).toBe(expectSingleSweeps(k, hits, batch));
      expect(k.p.parallel!.jobsOnWorkers).toBe(before);
    }
  });

  /** A crowd of `seed`'s size, stepped once, and a batch of `n` sweeps over it with its hit arrays. */
  function sweptCrowd(seed: number, n: number) {
    const rand = mulberry32(seed);
    const k = crowd(seed, 0, false);
    stepCrowd(k, 0, rand);
    const batch = createSweepBatch(n), hits = createHitboxRayHits(n);
    fillSweeps(batch, n, k, rand);
    return { k, batch, hits };
  }

  it('refuses bad sweeps and short arrays before sweeping, naming them', () => {
    const { k, batch, hits } = sweptCrowd(5, 4);
    hits.hitbox.fill(7);
    batch.start[15 * 1 + 13] = -1;
    batch.kind[1] = 0;
    expect(() => sweepCharactersBatch(k.world, hits, batch)).toThrow(CollideInputError);
    expect(() => sweepCharactersBatch(k.world, hits, batch)).toThrow(/sweepCharactersBatch \(sweep 1\): query\.start\[13\] \(half-extent\) must be >= 0, got -1/);
    batch.start[15 * 1 + 13] = 0.05;
    batch.kind[2] = 4;
    expect(() => sweepCharactersBatch(k.world, hits, batch)).toThrow(/sweepCharactersBatch: sweeps\.kind\[2\] must be 0 \(a box\) or 1 \(a capsule\), got 4/);
    batch.kind[2] = 1;
    expect(() => sweepCharactersBatch(k.world, createHitboxRayHits(3), batch)).toThrow(/sweepCharactersBatch: hits\.hitbox holds 3 numbers, 4 needed/);
    expect(Array.from(hits.hitbox)).toEqual([7, 7, 7, 7]);
    expect(() => setSweepAt(batch, 4, query)).toThrow(/setSweepAt: index must be an integer in \[0, 4\), got 4/);
    expect(() => createSweepBatch(-2)).toThrow(/createSweepBatch: capacity must be a non-negative integer, got -2/);
    const plain = createWorld();
    running.push(createCollisionPipeline(plain));
    expect(() => sweepCharactersBatch(plain, hits, batch)).toThrow(/sweepCharactersBatch: the pipeline keeps no hitboxes from before its last step/);
  });

  it('refuses a sweep setSweepAt cannot store as it is, missing or foreign records and oversized batches, naming them', () => {
    const { k, batch, hits } = sweptCrowd(6, 2);
    const kept = Array.from(batch.ignore);
    // Each would have been stored as another sweep: a box, no groups, entity 0 ignored, a wrapped id.
    const bad = createSweepQuery();
    (bad as { kind: string }).kind = 'sword';
    expect(refusal(() => setSweepAt(batch, 0, bad))).toMatch(/setSweepAt: query\.kind must be 'obb' or 'capsule', got sword/);
    bad.kind = 'obb';
    bad.groups = NaN;
    expect(refusal(() => setSweepAt(batch, 0, bad))).toMatch(/setSweepAt: query\.groups must be a uint32, got NaN/);
    bad.groups = 1;
    bad.ignore = NaN;
    expect(refusal(() => setSweepAt(batch, 0, bad))).toMatch(/setSweepAt: query\.ignore must be an entity id or -1, got NaN/);
    bad.ignore = 2 ** 31;
    expect(refusal(() => setSweepAt(batch, 0, bad))).toMatch(/setSweepAt: query\.ignore must be an entity id or -1 within int32.*got 2147483648/);
    expect(refusal(() => setSweepAt(batch, 0, null as unknown as SweepQuery))).toMatch(/setSweepAt: the query must come from createSweepQuery/);
    expect(Array.from(batch.ignore)).toEqual(kept);

    expect(refusal(() => sweepCharactersBatch(k.world, null as unknown as HitboxRayHits, batch))).toMatch(/sweepCharactersBatch: hits must be an object, got null/);
    expect(refusal(() => sweepCharactersBatch(k.world, createColliderHits(2) as unknown as HitboxRayHits, batch))).toMatch(/sweepCharactersBatch: hits\.character is missing/);
    expect(refusal(() => sweepCharactersBatch(k.world, hits, null as unknown as SweepBatch))).toMatch(/sweepCharactersBatch: sweeps must be an object, got null/);
    expect(refusal(() => sweepCharactersBatch(k.world, hits, createShapeQueryBatch(2) as unknown as SweepBatch))).toMatch(/sweepCharactersBatch: sweeps\.start is missing/);
    expect(refusal(() => sweepCharacters(k.world, null as unknown as HitboxHit, createSweepQuery()))).toMatch(/sweepCharacters: hit must come from createHitboxHit \(a record with point and normal arrays of 3 numbers\), got null/);
    expect(refusal(() => sweepCharacters(k.world, {} as HitboxHit, createSweepQuery()))).toMatch(/sweepCharacters: hit must come from createHitboxHit/);
    expect(refusal(() => sweepCharactersAll(k.world, [createHitboxHit(), {} as HitboxHit], createSweepQuery()))).toMatch(/sweepCharactersAll: hits\[1\]: hit must come from createHitboxSweepHits/);
    expect(refusal(() => createSweepBatch(2 ** 40))).toMatch(/createSweepBatch: capacity 1099511627776 is too large to allocate/);
    expect(sweepCharactersBatch(k.world, hits, batch)).toBeGreaterThanOrEqual(0);
  });
});
