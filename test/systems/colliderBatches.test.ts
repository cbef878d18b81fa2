/**
 * raycastCollidersBatch, castShapeCollidersBatch and overlapCollidersBatch: each query's answer is
 * raycastColliders', castShapeColliders' or overlapColliders' for that query, to the bit, on one
 * thread and split between 1-3 workers,
 * over every collider kind, static colliders, characters and
 * mesh colliders (one tree shared by two entities), characters and the broad phases whose grids
 * the workers read (the spatial hash's, or the query grid of sweep and prune), through moves,
 * removals and additions; unshared arrays keep the batch on the calling thread with the same hits;
 * bad input is refused before anything is cast.
 */
import { addEntity, createWorld, type World } from 'bitecs';
import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import { CollideInputError } from '../../src/errors';
import { refusal } from '../support/refusal';
import { createRayBatch, type RayBatch } from '../../src/query/rayQuery';
import { createSweepAndPrune } from '../../src/broadphase/sweepAndPrune';
import { buildBoundingTree } from '../../src/tree/build';
import { addCollider, removeCollider, setTransform } from '../../systems/colliderApi';
import { addCharacterCollider } from '../../systems/characters';
import { addKdopCollider } from '../../systems/kdopCollider';
import { addMeshCollider } from '../../systems/meshCollider';
import type { CollisionPipeline } from '../../systems/collisionState';
import { createCollisionPipeline } from '../../systems/pipeline';
import { createWorkerPool } from '../../systems/parallel/workerPool';
import { createColliderRayHit, raycastColliders } from '../../systems/raycastColliders';
import { castShapeColliders, createColliderShapeHit } from '../../systems/shapeCasts';
import { createHitboxRayHits } from '../../src/character/hitboxRaycast';
import { castShapeCollidersBatch, overlapCollidersBatch, raycastCollidersBatch } from '../../systems/colliderBatches';
import { createColliderHits, createOverlapHits, type ColliderHits, type OverlapHits } from '../../src/query/colliderHits';
import { overlapColliders } from '../../systems/shapeQueries';
import { createRayQuery } from '../../src/query/rayQuery';
import { createShapeQuery, type ShapeQuery, setAabbQuery, setCapsuleQuery, setObbQuery, setShapeCast, setSphereQuery } from '../../src/query/shapeQuery';
import { createShapeQueryBatch, setShapeQueryAt, shapeQueryAt, type ShapeQueryBatch } from '../../src/query/shapeQueryBatch';
import { triangulatedFloor } from '../../scenes/floors';
import { mulberry32 } from '../../scenes/random';
import { advanceScene, randomScene, type Body } from '../support/pipelineScene';
import { def, fitted, humanoid } from '../support/hitboxRays';

const SIDE = 30;
const running: CollisionPipeline[] = [];
afterEach(() => {
  for (const p of running.splice(0)) p.destroy();
});

interface Scene {
  world: World;
  p: CollisionPipeline;
  eids: number[];
  /** Where the characters stand (x, z). */
  characters: number[][];
}

const floor = triangulatedFloor(6, { pattern: 'random-diagonal', cell: 5 }, mulberry32(2));
const floorTree = buildBoundingTree(floor.positions, floor.indices);

/**
 * The bodies (one k-DOP, every seventh static), three characters and two mesh floors of one tree
 * (one tilted and moving), on `workers` threads (0: none) with the given broad phase.
 */
function createScene(bodies: Body[], workers: number, sap: boolean, rand: () => number): Scene {
  const world = createWorld();
  const p = createCollisionPipeline(world, {
    ...(workers > 0 ? { workers: createWorkerPool(workers) } : {}),
    ...(sap ? { broadPhase: createSweepAndPrune() } : {}),
  });
  running.push(p);
  if (p.parallel !== undefined) p.parallel.minColliderRays = p.parallel.minColliderCasts = p.parallel.minColliderOverlaps = 1;
  const eids = bodies.map((body, i) => {
    const e = addEntity(world);
    if (i === 5) addKdopCollider(world, e, [0, 0, 0, 1, 1, 1, -1, 0.5, 0.2, 0.3, -1, 0.8]);
    else addCollider(world, e, { ...body.desc, isStatic: i % 7 === 0 });
    return e;
  });
  for (let m = 0; m < 2; m++) {
    const e = addEntity(world);
    addMeshCollider(world, e, floorTree, { isStatic: m === 0 });
    setTransform(world, e, [SIDE / 2, m === 0 ? -3 : 12, SIDE / 2], m === 0 ? [0, 0, 0, 1] : [0.2, 0, 0.1, Math.sqrt(0.95)]);
    eids.push(e);
  }
  const characters: number[][] = [];
  for (let c = 0; c < 3; c++) {
    const e = addEntity(world);
    addCharacterCollider(world, e, { skeleton: def, hitboxes: fitted });
    characters.push([SIDE * rand(), SIDE * rand()]);
    setTransform(world, e, [characters[c][0], 0, characters[c][1]], [0, 0, 0, 1], 0.3);
    const s = p.characters!.skeletons, first = s.firstBone[c];
    humanoid.animate(rand() * humanoid.duration, s.translation.subarray(3 * first), s.rotation.subarray(4 * first), s.scale.subarray(3 * first));
  }
  return { world, p, eids, characters };
}

/**
 * `n` rays over the scene: from inside it and from far outside, some from just outside a
 * character's box towards it, some unlimited, some with a mask or ignoring a body.
 */
function fillRays(rays: RayBatch, n: number, rand: () => number, scene: Scene): void {
  const eids = scene.eids;
  rays.count = n;
  for (let i = 0; i < n; i++) {
    const far = i % 5 === 0;
    for (let k = 0; k < 3; k++) {
      rays.origin[3 * i + k] = far ? -1e4 : SIDE * rand();
      rays.direction[3 * i + k] = far ? 1e4 + SIDE * rand() : rand() - 0.5;
    }
    rays.maxDistance[i] = i % 3 === 0 ? Infinity : 5 + 40 * rand();
    if (i % 6 === 1) {
      // From just outside a character's box, each character from each of its sides and from
      // above in turn, towards its middle: a body may stand in the way of some, not of all.
      const k = Math.floor(i / 6), box = scene.p.characters!.hitboxes.characterAabb, o = 6 * (k % scene.characters.length);
      const axis = Math.floor(k / scene.characters.length) % 5, side = axis === 4 ? 1 : axis % 2 === 0 ? 1 : -1, along = axis === 4 ? 1 : axis < 2 ? 0 : 2;
      for (let a = 0; a < 3; a++) {
        const middle = (box[o + a] + box[o + 3 + a]) / 2;
        rays.origin[3 * i + a] = a === along ? (side > 0 ? box[o + 3 + a] + 0.3 : box[o + a] - 0.3) : middle;
        rays.direction[3 * i + a] = a === along ? -side : 0.02 * (rand() - 0.5);
      }
    }
    rays.mask[i] = i % 11 === 0 ? 2 : 0xffffffff;
    rays.ignore[i] = i % 4 === 0 ? eids[Math.floor(rand() * eids.length)] : -1;
  }
}

/** `n` casts of every shape kind over the scene, some large, some aimed at a character, some with a mask or ignoring a body. */
function fillCasts(casts: ShapeQueryBatch, n: number, rand: () => number, scene: Scene): void {
  const q = createShapeQuery();
  const c = Math.SQRT1_2;
  const box = [0, 0, 0, c, c, 0, -c, c, 0, 0, 0, 1, 0, 0, 0];
  casts.count = n;
  for (let i = 0; i < n; i++) {
    // Every tenth shape large: as an overlap query it finds several bodies.
    const x = SIDE * rand(), y = SIDE * rand(), z = SIDE * rand(), r = (i % 10 === 0 ? 5 : 0.2) + 1.5 * rand();
    if (i % 4 === 0) setSphereQuery(q, x, y, z, r);
    else if (i % 4 === 1) setCapsuleQuery(q, x, y, z, x + r, y + 1, z, 0.5 * r);
    else if (i % 4 === 2) setAabbQuery(q, x - r, y - r, z - 0.5, x + r, y + r, z + 0.5);
    else {
      box.splice(0, 3, x, y, z);
      box.splice(12, 3, r, 0.5 * r, 0.25);
      setObbQuery(q, box);
    }
    if (i % 6 === 1) {
      const [tx, tz] = scene.characters[i % scene.characters.length];
      setShapeCast(q, tx - x, 0.3 - y, tz - z);
    } else {
      setShapeCast(q, 30 * rand() - 15, 30 * rand() - 15, 30 * rand() - 15);
    }
    q.mask = i % 11 === 0 ? 2 : 0xffffffff;
    q.ignore = i % 4 === 0 ? scene.eids[Math.floor(rand() * scene.eids.length)] : -1;
    setShapeQueryAt(casts, i, q);
  }
}

const query = createRayQuery();
const shapeQuery = createShapeQuery();
const hit = createColliderRayHit();

/** Expects entry i of `hits` to be `hit` (found) or a miss, to the bit. */
function expectHit(hits: ColliderHits, i: number, found: boolean, what: string): void {
  if (!found) {
    expect(hits.entity[i], what).toBe(-1);
    expect(hits.t[i], what).toBe(Infinity);
    return;
  }
  expect([hits.entity[i], hits.hitbox[i], hits.group[i], hits.triangle[i]], what).toEqual([hit.entity, hit.hitbox, hit.group, hit.triangle]);
  expect(Object.is(hits.t[i], hit.t) && Object.is(hits.distance[i], hit.distance), what).toBe(true);
  for (let k = 0; k < 3; k++) {
    expect(Object.is(hits.point[3 * i + k], hit.point[k]) && Object.is(hits.normal[3 * i + k], hit.normal[k]), what).toBe(true);
  }
}

/** Expects entry i of `hits` to be what castShapeColliders gives for cast i, to the bit; returns the casts that hit. */
function expectSingleCastHits(p: CollisionPipeline, hits: ColliderHits, casts: ShapeQueryBatch): number {
  let hitCount = 0;
  for (let i = 0; i < casts.count; i++) {
    const found = castShapeColliders(p, hit, shapeQueryAt(shapeQuery, casts, i));
    expectHit(hits, i, found, `cast ${i}`);
    if (found) hitCount++;
  }
  return hitCount;
}

/** Expects entry i of `hits` to be what raycastColliders gives for ray i, to the bit. */
function expectSingleRayHits(p: CollisionPipeline, hits: ColliderHits, rays: RayBatch): number {
  let hitCount = 0;
  for (let i = 0; i < rays.count; i++) {
    for (let k = 0; k < 3; k++) {
      query.origin[k] = rays.origin[3 * i + k];
      query.direction[k] = rays.direction[3 * i + k];
    }
    query.maxDistance = rays.maxDistance[i];
    query.mask = rays.mask[i];
    query.ignore = rays.ignore[i];
    const found = raycastColliders(p, hit, query);
    expectHit(hits, i, found, `ray ${i}`);
    if (found) hitCount++;
  }
  return hitCount;
}

/** Expects query i's count and slice of `hits` to be what overlapColliders gives with a slice as long; returns the sum of the counts. */
function expectSingleOverlaps(p: CollisionPipeline, hits: OverlapHits, queries: ShapeQueryBatch): number {
  const slice = new Int32Array(hits.perQuery);
  let total = 0;
  for (let i = 0; i < queries.count; i++) {
    const n = overlapColliders(p, slice, shapeQueryAt(shapeQuery, queries, i));
    expect(hits.count[i], `query ${i}`).toBe(n);
    const kept = Math.min(n, hits.perQuery);
    expect(Array.from(hits.ids.subarray(i * hits.perQuery, i * hits.perQuery + kept)), `query ${i}`).toEqual(Array.from(slice.subarray(0, kept)));
    total += n;
  }
  return total;
}

describe('batches of world queries', () => {
  it('gives each ray, shape cast and overlap query the answer of the single query, on one thread and on 1-3 workers, frame after frame', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 1e6 }), fc.integer({ min: 0, max: 3 }), fc.boolean(), (seed, workers, sap) => {
        const rand = mulberry32(seed);
        const bodies = randomScene(rand, { count: 90, kinds: ['obb', 'sphere', 'capsule', 'aabb'], size: SIDE });
        const scene = createScene(bodies, workers, sap, mulberry32(seed + 1));
        const rays = createRayBatch(160, true);
        const casts = createShapeQueryBatch(160, true);
        const hits = createColliderHits(160, true);
        const overlaps = createOverlapHits(160, 3, true);
        let hitTotal = 0, hitboxHits = 0, triangleHits = 0, full = 0;
        const tally = (n: number) => {
          for (let i = 0; i < n; i++) {
            if (hits.hitbox[i] >= 0) hitboxHits++;
            if (hits.triangle[i] >= 0) triangleHits++;
          }
        };
        for (let frame = 0; frame < 4; frame++) {
          advanceScene(bodies, SIDE);
          bodies.forEach((body, i) => {
            if (i % 7 !== 0) setTransform(scene.world, scene.eids[i], body.position, body.rotation);
          });
          if (frame === 2) removeCollider(scene.world, scene.eids[1]);
          if (frame === 3) addCollider(scene.world, scene.eids[1], { shape: 'sphere', radius: 2 });
          scene.p.step(scene.world);
          const before = scene.p.parallel?.jobsOnWorkers ?? 0;
          fillRays(rays, 100 + frame * 20, rand, scene);
          const count = raycastCollidersBatch(scene.p, hits, rays);
          expect(count).toBe(expectSingleRayHits(scene.p, hits, rays));
          hitTotal += count;
          tally(rays.count);
          fillCasts(casts, 100 + frame * 20, rand, scene);
          const castCount = castShapeCollidersBatch(scene.p, hits, casts);
          expect(castCount).toBe(expectSingleCastHits(scene.p, hits, casts));
          hitTotal += castCount;
          tally(casts.count);
          // The casts' shapes where they start, as overlap queries; 3 entities kept of each.
          const found = overlapCollidersBatch(scene.p, overlaps, casts);
          expect(found).toBe(expectSingleOverlaps(scene.p, overlaps, casts));
          for (let i = 0; i < casts.count; i++) if (overlaps.count[i] > 3) full++;
          // The batches really ran on the pool.
          if (workers > 0) expect(scene.p.parallel!.jobsOnWorkers).toBe(before + 3);
        }
        expect(hitTotal).toBeGreaterThan(50);
        expect(hitboxHits, `seed ${seed}: hitbox hits`).toBeGreaterThan(0);
        expect(triangleHits, `seed ${seed}: triangle hits`).toBeGreaterThan(0);
        expect(full, `seed ${seed}: overlap queries finding more than they keep`).toBeGreaterThan(0);
      }),
      { numRuns: 8 },
    );
  });

  it('casts batches whose arrays are not shared on the calling thread, with the same hits', () => {
    const rand = mulberry32(4);
    const bodies = randomScene(rand, { count: 60, kinds: ['obb', 'sphere'], size: SIDE });
    const scene = createScene(bodies, 2, false, rand);
    scene.p.step(scene.world);
    const scenes = [scene];
    for (const [rays, hits] of [[createRayBatch(200), createColliderHits(200, true)], [createRayBatch(200, true), createColliderHits(200)]] as const) {
      fillRays(rays, 200, rand, scenes[0]);
      const before = scene.p.parallel!.jobsOnWorkers;
      expect(raycastCollidersBatch(scene.p, hits, rays)).toBe(expectSingleRayHits(scene.p, hits, rays));
      expect(scene.p.parallel!.jobsOnWorkers).toBe(before);
    }
    for (const [casts, hits, overlaps] of [
      [createShapeQueryBatch(200), createColliderHits(200, true), createOverlapHits(200, 4, true)],
      [createShapeQueryBatch(200, true), createColliderHits(200), createOverlapHits(200, 4)],
    ] as const) {
      fillCasts(casts, 200, rand, scene);
      const before = scene.p.parallel!.jobsOnWorkers;
      expect(castShapeCollidersBatch(scene.p, hits, casts)).toBe(expectSingleCastHits(scene.p, hits, casts));
      expect(overlapCollidersBatch(scene.p, overlaps, casts)).toBe(expectSingleOverlaps(scene.p, overlaps, casts));
      expect(scene.p.parallel!.jobsOnWorkers).toBe(before);
    }
  });

  it('refuses bad rays, bad shape queries and short answer arrays before any query runs, naming them', () => {
    const world = createWorld();
    const p = createCollisionPipeline(world);
    running.push(p);
    const rays = createRayBatch(4), hits = createColliderHits(4);
    rays.count = 4;
    for (let i = 0; i < 4; i++) rays.direction[3 * i] = 1;
    hits.entity.fill(7);
    rays.origin[4] = NaN;
    expect(() => raycastCollidersBatch(p, hits, rays)).toThrow(CollideInputError);
    expect(() => raycastCollidersBatch(p, hits, rays)).toThrow(/rays\.origin\[4\] \(ray 1\)/);
    rays.origin[4] = 0;
    rays.maxDistance[2] = -1;
    expect(() => raycastCollidersBatch(p, hits, rays)).toThrow(/rays\.maxDistance\[2\] \(ray 2\) must be >= 0, got -1/);
    rays.maxDistance[2] = 1;
    expect(() => raycastCollidersBatch(p, createColliderHits(3), rays)).toThrow(/raycastCollidersBatch: hits\.entity holds 3 numbers, 4 needed/);
    expect(Array.from(hits.entity)).toEqual([7, 7, 7, 7]);
    expect(() => createColliderHits(-1)).toThrow(/createColliderHits: capacity must be a non-negative integer, got -1/);
    expect(() => raycastCollidersBatch(createWorld(), hits, rays)).toThrow(/raycastCollidersBatch: this world has no collision pipeline/);
    expect(raycastCollidersBatch(p, hits, rays)).toBe(0);
    expect(Array.from(hits.entity)).toEqual([-1, -1, -1, -1]);

    const casts = createShapeQueryBatch(4), q = createShapeQuery();
    for (let i = 0; i < 4; i++) setShapeQueryAt(casts, i, setSphereQuery(q, i, 0, 0, 1));
    casts.count = 4;
    hits.entity.fill(7);
    casts.data[15 * 2 + 3] = -1;
    expect(() => castShapeCollidersBatch(p, hits, casts)).toThrow(/castShapeCollidersBatch \(query 2\): query\.radius must be in \[0, .*\], got -1/);
    casts.data[15 * 2 + 3] = 1;
    casts.displacement.fill(0, 3, 6);
    expect(() => castShapeCollidersBatch(p, hits, casts)).toThrow(/castShapeCollidersBatch \(query 1\): query\.displacement must not be zero/);
    setShapeQueryAt(casts, 1, q);
    casts.kind[3] = 9;
    expect(() => castShapeCollidersBatch(p, hits, casts)).toThrow(/castShapeCollidersBatch: queries\.kind\[3\] must be a ShapeQuery kind \(0 to 3\), got 9/);
    casts.kind[3] = 0;
    casts.ignore[3] = -2;
    expect(() => castShapeCollidersBatch(p, hits, casts)).toThrow(/castShapeCollidersBatch \(query 3\): query\.ignore must be an entity id or -1, got -2/);
    casts.ignore[3] = -1;
    expect(() => castShapeCollidersBatch(p, createColliderHits(2), casts)).toThrow(/castShapeCollidersBatch: hits\.entity holds 2 numbers, 4 needed/);
    casts.count = 5;
    expect(() => castShapeCollidersBatch(p, hits, casts)).toThrow(/castShapeCollidersBatch: queries\.kind holds 4 numbers, 5 needed/);
    expect(Array.from(hits.entity)).toEqual([7, 7, 7, 7]);
    expect(() => setShapeQueryAt(casts, 4, q)).toThrow(/setShapeQueryAt: index must be an integer in \[0, 4\), got 4/);
    expect(() => createShapeQueryBatch(1.5)).toThrow(/createShapeQueryBatch: capacity must be a non-negative integer, got 1.5/);
    casts.count = 4;
    expect(castShapeCollidersBatch(p, hits, casts)).toBe(0);
    expect(Array.from(hits.entity)).toEqual([-1, -1, -1, -1]);

    const overlaps = createOverlapHits(4, 2);
    overlaps.count.fill(7);
    casts.data[15 * 2 + 3] = NaN;
    expect(() => overlapCollidersBatch(p, overlaps, casts)).toThrow(/overlapCollidersBatch \(query 2\): query\.center|overlapCollidersBatch \(query 2\): query\.radius/);
    casts.data[15 * 2 + 3] = 1;
    casts.displacement.fill(0);
    expect(() => overlapCollidersBatch(p, createOverlapHits(4, 1), { ...casts, count: 4 })).not.toThrow();
    expect(() => overlapCollidersBatch(p, createOverlapHits(3, 2), casts)).toThrow(/overlapCollidersBatch: hits\.count holds 3 numbers, 4 needed/);
    expect(() => createOverlapHits(4, 0)).toThrow(/createOverlapHits: perQuery must be a positive integer, got 0/);
    expect(Array.from(overlaps.count)).toEqual([7, 7, 7, 7]);
    expect(overlapCollidersBatch(p, overlaps, casts)).toBe(0);
    expect(Array.from(overlaps.count)).toEqual([0, 0, 0, 0]);
  });

  it('refuses missing, foreign and oversized records, a tampered perQuery and a destroyed pipeline with CollideInputError, naming them', () => {
    const world = createWorld();
    const p = createCollisionPipeline(world);
    running.push(p);
    const e = addEntity(world);
    addCollider(world, e, { shape: 'sphere', radius: 1 });
    p.step(world);
    // Past the platform's largest typed array: refused by name, not a bare RangeError.
    expect(refusal(() => createColliderHits(2 ** 40))).toMatch(/createColliderHits: capacity 1099511627776 is too large to allocate/);
    expect(refusal(() => createShapeQueryBatch(2 ** 40))).toMatch(/createShapeQueryBatch: capacity 1099511627776 is too large to allocate/);
    expect(refusal(() => createOverlapHits(2, 2 ** 40))).toMatch(/createOverlapHits: capacity 2 × perQuery 1099511627776 is too large to allocate/);
    expect(refusal(() => createColliderHits('3' as unknown as number))).toMatch(/capacity must be a non-negative integer, got '3'/);

    const rays = createRayBatch(2), hits = createColliderHits(2);
    rays.count = 2;
    rays.origin.set([-5, 0, 0, -5, 0, 0]);
    rays.direction.set([1, 0, 0, 1, 0, 0]);
    expect(refusal(() => raycastCollidersBatch(p, null as unknown as ColliderHits, rays))).toMatch(/raycastCollidersBatch: hits must be an object, got null/);
    expect(refusal(() => raycastCollidersBatch(p, hits, null as unknown as RayBatch))).toMatch(/raycastCollidersBatch: rays must be an object, got null/);
    expect(refusal(() => raycastCollidersBatch(p, createHitboxRayHits(2) as unknown as ColliderHits, rays))).toMatch(/raycastCollidersBatch: hits\.triangle is missing/);
    expect(refusal(() => raycastCollidersBatch(p, hits, createShapeQueryBatch(2) as unknown as RayBatch))).toMatch(/raycastCollidersBatch: rays\.origin is missing/);
    expect(refusal(() => raycastCollidersBatch(null as unknown as World, hits, rays))).toMatch(/raycastCollidersBatch: this world has no collision pipeline/);
    expect(refusal(() => raycastColliders(p, null as unknown as ReturnType<typeof createColliderRayHit>, createRayQuery()))).toMatch(/raycastColliders: hit must come from createColliderRayHit \(a record with point and normal arrays of 3 numbers\), got null/);
    expect(refusal(() => raycastColliders(p, { entity: -1 } as unknown as ReturnType<typeof createColliderRayHit>, createRayQuery({ origin: [-5, 0, 0], direction: [1, 0, 0] })))).toMatch(/raycastColliders: hit must come from createColliderRayHit/);
    const aimed = setShapeCast(setSphereQuery(createShapeQuery(), -5, 0, 0, 0.5), 10, 0, 0);
    expect(refusal(() => castShapeColliders(p, {} as ReturnType<typeof createColliderShapeHit>, aimed))).toMatch(/castShapeColliders: hit must come from createColliderShapeHit/);

    const casts = createShapeQueryBatch(2), q = createShapeQuery();
    for (let i = 0; i < 2; i++) setShapeQueryAt(casts, i, setShapeCast(setSphereQuery(q, -5, 0, 0, 0.5), 10, 0, 0));
    casts.count = 2;
    expect(refusal(() => castShapeCollidersBatch(p, hits, null as unknown as ShapeQueryBatch))).toMatch(/castShapeCollidersBatch: queries must be an object, got null/);
    expect(refusal(() => castShapeCollidersBatch(p, hits, rays as unknown as ShapeQueryBatch))).toMatch(/castShapeCollidersBatch: queries\.kind is missing/);
    expect(refusal(() => castShapeColliders(p, createColliderShapeHit(), null as unknown as ShapeQuery))).toMatch(/castShapeColliders: the query must come from createShapeQuery, got null/);
    expect(refusal(() => overlapCollidersBatch(p, null as unknown as OverlapHits, casts))).toMatch(/overlapCollidersBatch: hits must be an object, got null/);
    // perQuery is read-only in the type; a record with another one would write beside its slices.
    for (const perQuery of [-1, 0, 1.5, NaN]) {
      expect(refusal(() => overlapCollidersBatch(p, { ...createOverlapHits(2, 2), perQuery }, casts))).toMatch(new RegExp(`overlapCollidersBatch: hits\\.perQuery must be a positive integer, got ${perQuery}`));
    }

    // Fields the batch's integer arrays would silently change (NaN ignore would become entity 0).
    const bad = createShapeQuery();
    bad.ignore = NaN;
    expect(refusal(() => setShapeQueryAt(casts, 0, bad))).toMatch(/setShapeQueryAt: query\.ignore must be an entity id or -1, got NaN/);
    bad.ignore = 2 ** 31;
    expect(refusal(() => setShapeQueryAt(casts, 0, bad))).toMatch(/setShapeQueryAt: query\.ignore must be an entity id or -1 within int32.*got 2147483648/);
    bad.ignore = -1;
    bad.mask = 1.5;
    expect(refusal(() => setShapeQueryAt(casts, 0, bad))).toMatch(/setShapeQueryAt: query\.mask must be a uint32, got 1\.5/);
    expect(refusal(() => setShapeQueryAt(casts, 0, null as unknown as ShapeQuery))).toMatch(/setShapeQueryAt: the query must come from createShapeQuery/);
    expect(refusal(() => setShapeQueryAt(null as unknown as ShapeQueryBatch, 0, q))).toMatch(/setShapeQueryAt: batch must be an object, got null/);
    expect(casts.ignore[0]).toBe(-1);
    expect(castShapeCollidersBatch(p, hits, casts)).toBe(2);
    expect(Array.from(hits.entity)).toEqual([e, e]);

    // A destroyed pipeline no longer sees removals: its queries refuse rather than answer stale.
    p.destroy();
    expect(refusal(() => p.step(world))).toMatch(/step: this pipeline was destroyed/);
    expect(refusal(() => raycastCollidersBatch(p, hits, rays))).toMatch(/raycastCollidersBatch: this pipeline was destroyed/);
    expect(refusal(() => castShapeCollidersBatch(p, hits, casts))).toMatch(/castShapeCollidersBatch: this pipeline was destroyed/);
    expect(refusal(() => overlapCollidersBatch(p, createOverlapHits(2, 1), casts))).toMatch(/overlapCollidersBatch: this pipeline was destroyed/);
    expect(refusal(() => raycastColliders(p, createColliderRayHit(), createRayQuery()))).toMatch(/raycastColliders: this pipeline was destroyed/);
    expect(refusal(() => raycastCollidersBatch(world, hits, rays))).toMatch(/raycastCollidersBatch: this world has no collision pipeline/);
  });
});
