/**
 * World queries over the 10,000-box benchmark scene (scenes/movingBoxes.ts, every third body a
 * sphere), ours side by side with Rapier's, interleaved in one process:
 * - 10,000 sphere overlap queries per sample: overlapColliders (on the spatial hash's grids, and on
 *   the pipeline's query grid with sweep and prune) against `world.intersectionsWithShape`; both
 *   must find the same sets;
 * - 10,000 sphere casts per sample: castShapeColliders (the same two ways) against
 *   `world.castShape`; both must hit the same body at the same time, but for near-ties;
 * - 10,000 rays per sample: raycastColliders (the same two ways) against `world.castRay`; the
 *   same agreement.
 */
import RAPIER from '@dimforge/rapier3d-simd-compat';
import { addEntity, createWorld } from 'bitecs';
import { createScene, sizeForDensity, type Scene } from '../scenes/movingBoxes';
import { mulberry32 } from '../scenes/random';
import { addCollider, setTransform } from '../systems/colliderApi';
import { createCollisionPipeline } from '../systems/pipeline';
import { overlapColliders } from '../systems/shapeQueries';
import { castShapeColliders, createColliderShapeHit } from '../systems/shapeCasts';
import { raycastColliders } from '../systems/raycastColliders';
import { castShapeCollidersBatch, overlapCollidersBatch, raycastCollidersBatch } from '../systems/colliderBatches';
import { createColliderHits, createOverlapHits } from '../src/query/colliderHits';
import { createShapeQueryBatch, setShapeQueryAt } from '../src/query/shapeQueryBatch';
import { createWorkerPool } from '../systems/parallel/workerPool';
import { createRayBatch, createRayQuery, setRay } from '../src/query/rayQuery';
import { createShapeQuery, setShapeCast, setSphereQuery } from '../src/query/shapeQuery';
import { createSweepAndPrune } from '../src/broadphase/sweepAndPrune';
import type { BroadPhase } from '../src/broadphase/broadPhase';
import { amdahl, markdownTable, millions, runInterleaved, type BenchReport } from './harness';

const COUNT = 10_000;
const QUERIES = 10_000;

const isSphere = (i: number): boolean => i % 3 === 0;

/** Query spheres: centres over the scene, radii 0.5 to 3. */
function querySpheres(scene: Scene): Float64Array {
  const rand = mulberry32(11);
  const s = new Float64Array(4 * QUERIES);
  for (let i = 0; i < QUERIES; i++) {
    for (let k = 0; k < 3; k++) s[4 * i + k] = scene.size * rand();
    s[4 * i + 3] = 0.5 + 2.5 * rand();
  }
  return s;
}

/** Sphere casts (7 numbers each: centre, radius, displacement): radii 0.25 to 1.5, 2 to 30 units in a uniform direction. */
function sphereCasts(scene: Scene): Float64Array {
  const rand = mulberry32(13);
  const s = new Float64Array(CAST_STRIDE * QUERIES);
  for (let i = 0; i < QUERIES; i++) {
    const o = CAST_STRIDE * i;
    for (let k = 0; k < 3; k++) s[o + k] = scene.size * rand();
    s[o + 3] = 0.25 + 1.25 * rand();
    unitDirection(rand, s, o + 4);
    const length = 2 + 28 * rand();
    for (let k = 4; k < 7; k++) s[o + k] *= length;
  }
  return s;
}

/** A direction uniform on the sphere, unit length, at out[o..o+2]. */
function unitDirection(rand: () => number, out: Float64Array, o: number): void {
  const z = 2 * rand() - 1, phi = 2 * Math.PI * rand(), r = Math.sqrt(1 - z * z);
  out[o] = r * Math.cos(phi);
  out[o + 1] = r * Math.sin(phi);
  out[o + 2] = z;
}

const CAST_STRIDE = 7;

/** How many of the QUERIES queries `hits(i)` says hit (the timed loop of every cast and ray case). */
function countHits(hits: (i: number) => boolean): number {
  let sum = 0;
  for (let i = 0; i < QUERIES; i++) if (hits(i)) sum++;
  return sum;
}

/** Rays (7 numbers each: origin, unit direction, length): from inside the scene, 2 to 100 units long, a uniform direction. */
function rays(scene: Scene): Float64Array {
  const rand = mulberry32(17);
  const s = new Float64Array(CAST_STRIDE * QUERIES);
  for (let i = 0; i < QUERIES; i++) {
    const o = CAST_STRIDE * i;
    for (let k = 0; k < 3; k++) s[o + k] = scene.size * rand();
    unitDirection(rand, s, o + 3);
    s[o + 6] = 2 + 98 * rand();
  }
  return s;
}

/** A cast's answer: body index (-1: none) and t. */
interface CastAnswer {
  body: number;
  t: number;
}

function ours(scene: Scene, broadPhase: BroadPhase | undefined, workers = 0) {
  const world = createWorld();
  const p = createCollisionPipeline(world, { broadPhase, ...(workers > 0 ? { workers: createWorkerPool(workers) } : {}) });
  const eids: number[] = [];
  const { half: h, position: pos, rotation: r } = scene;
  for (let i = 0; i < scene.count; i++) {
    const e = addEntity(world);
    addCollider(world, e, isSphere(i) ? { shape: 'sphere', radius: h[3 * i] } : { shape: 'obb', halfExtents: [h[3 * i], h[3 * i + 1], h[3 * i + 2]] });
    setTransform(world, e, [pos[3 * i], pos[3 * i + 1], pos[3 * i + 2]], [r[4 * i], r[4 * i + 1], r[4 * i + 2], r[4 * i + 3]]);
    eids.push(e);
  }
  p.step(world);
  const index = new Map(eids.map((e, i) => [e, i]));
  const q = createShapeQuery();
  const out = new Int32Array(256);
  const hit = createColliderShapeHit();
  const rayQuery = createRayQuery();
  /** Whether ray i of `r` hits (into `hit`). */
  const rayHits = (r: Float64Array, i: number): boolean => {
    const o = CAST_STRIDE * i;
    setRay(rayQuery, r[o], r[o + 1], r[o + 2], r[o + 3], r[o + 4], r[o + 5]);
    rayQuery.maxDistance = r[o + 6];
    return raycastColliders(world, hit, rayQuery);
  };
  /** Whether cast i of `casts` hits (into `hit`). */
  const castHits = (casts: Float64Array, i: number): boolean => {
    const o = CAST_STRIDE * i;
    setSphereQuery(q, casts[o], casts[o + 1], casts[o + 2], casts[o + 3]);
    setShapeCast(q, casts[o + 4], casts[o + 5], casts[o + 6]);
    return castShapeColliders(world, hit, q);
  };
  const batch = createRayBatch(QUERIES, true);
  const castBatch = createShapeQueryBatch(QUERIES, true);
  const batchHits = createColliderHits(QUERIES, true);
  const overlapBatch = createShapeQueryBatch(QUERIES, true);
  /** Each query keeps the 256 lowest ids, as `run` does. */
  const overlapHits = createOverlapHits(QUERIES, 256, true);
  return {
    /** Rays: the number that hit. */
    ray: (r: Float64Array): number => countHits((i) => rayHits(r, i)),
    /** The rays of `r` as one batch (raycastCollidersBatch): the number that hit. */
    rayBatch(r: Float64Array): number {
      batch.count = QUERIES;
      for (let i = 0; i < QUERIES; i++) {
        const o = CAST_STRIDE * i;
        for (let k = 0; k < 3; k++) {
          batch.origin[3 * i + k] = r[o + k];
          batch.direction[3 * i + k] = r[o + 3 + k];
        }
        batch.maxDistance[i] = r[o + 6];
      }
      return raycastCollidersBatch(world, batchHits, batch);
    },
    /** The casts of `casts` as one batch (castShapeCollidersBatch): the number that hit. */
    castBatch(casts: Float64Array): number {
      castBatch.count = QUERIES;
      for (let i = 0; i < QUERIES; i++) {
        const o = CAST_STRIDE * i;
        setSphereQuery(q, casts[o], casts[o + 1], casts[o + 2], casts[o + 3]);
        setShapeCast(q, casts[o + 4], casts[o + 5], casts[o + 6]);
        setShapeQueryAt(castBatch, i, q);
      }
      return castShapeCollidersBatch(world, batchHits, castBatch);
    },
    /** The overlap queries of `spheres` as one batch (overlapCollidersBatch): the bodies found, summed. */
    runBatch(spheres: Float64Array): number {
      overlapBatch.count = QUERIES;
      for (let i = 0; i < QUERIES; i++) setShapeQueryAt(overlapBatch, i, setSphereQuery(q, spheres[4 * i], spheres[4 * i + 1], spheres[4 * i + 2], spheres[4 * i + 3]));
      return overlapCollidersBatch(world, overlapHits, overlapBatch);
    },
    /** Query i's bodies in the last overlap batch, sorted. */
    batchSet: (i: number): number[] => Array.from(overlapHits.ids.subarray(256 * i, 256 * i + Math.min(256, overlapHits.count[i])), (e) => index.get(e)!).sort((a, b) => a - b),
    /** Query i's answer in the last batch (`miss`: the t of a miss). */
    batchOne: (i: number, miss = Infinity): CastAnswer => (batchHits.entity[i] >= 0 ? { body: index.get(batchHits.entity[i])!, t: batchHits.t[i] } : { body: -1, t: miss }),
    /** Batches split with the workers so far. */
    pooledJobs: () => p.parallel?.jobsOnWorkers ?? 0,
    dispose: () => p.destroy(),
    rayOne: (r: Float64Array, i: number): CastAnswer => (rayHits(r, i) ? { body: index.get(hit.entity)!, t: hit.t } : { body: -1, t: Infinity }),
    run(spheres: Float64Array): number {
      let sum = 0;
      for (let i = 0; i < QUERIES; i++) {
        setSphereQuery(q, spheres[4 * i], spheres[4 * i + 1], spheres[4 * i + 2], spheres[4 * i + 3]);
        sum += overlapColliders(world, out, q);
      }
      return sum;
    },
    /** Body indices the query meets, sorted. */
    set(x: number, y: number, z: number, radius: number): number[] {
      setSphereQuery(q, x, y, z, radius);
      const list: number[] = [];
      overlapColliders(world, list, q);
      return list.map((e) => index.get(e)!).sort((a, b) => a - b);
    },
    /** Casts: the number that hit. */
    cast: (casts: Float64Array): number => countHits((i) => castHits(casts, i)),
    castOne: (casts: Float64Array, i: number): CastAnswer => (castHits(casts, i) ? { body: index.get(hit.entity)!, t: hit.t } : { body: -1, t: 1 }),
  };
}

async function rapier(scene: Scene) {
  await RAPIER.init();
  const world = new RAPIER.World({ x: 0, y: 0, z: 0 });
  const { half: h, position: pos, rotation: r } = scene;
  const indexOf = new Map<number, number>();
  for (let i = 0; i < scene.count; i++) {
    const desc = (isSphere(i) ? RAPIER.ColliderDesc.ball(h[3 * i]) : RAPIER.ColliderDesc.cuboid(h[3 * i], h[3 * i + 1], h[3 * i + 2]))
      .setTranslation(pos[3 * i], pos[3 * i + 1], pos[3 * i + 2])
      .setRotation({ x: r[4 * i], y: r[4 * i + 1], z: r[4 * i + 2], w: r[4 * i + 3] });
    indexOf.set(world.createCollider(desc).handle, i);
  }
  world.step();
  const ball = new RAPIER.Ball(1);
  // Reused pose objects and callback: allocating them per query would be unfair.
  const t = { x: 0, y: 0, z: 0 };
  const rot = { x: 0, y: 0, z: 0, w: 1 };
  let count = 0;
  const onHit = (): boolean => {
    count++;
    return true;
  };
  const velocity = { x: 0, y: 0, z: 0 };
  const castBall = new RAPIER.Ball(1);
  const castTo = (casts: Float64Array, i: number) => {
    const o = CAST_STRIDE * i;
    t.x = casts[o]; t.y = casts[o + 1]; t.z = casts[o + 2];
    castBall.radius = casts[o + 3];
    velocity.x = casts[o + 4]; velocity.y = casts[o + 5]; velocity.z = casts[o + 6];
    // Time in units of the displacement, up to 1; touching at the start is a hit at 0.
    return world.castShape(t, rot, velocity, castBall, 0, 1, true);
  };
  const ray = new RAPIER.Ray({ x: 0, y: 0, z: 0 }, { x: 1, y: 0, z: 0 });
  const rayTo = (r: Float64Array, i: number) => {
    const o = CAST_STRIDE * i;
    ray.origin.x = r[o]; ray.origin.y = r[o + 1]; ray.origin.z = r[o + 2];
    ray.dir.x = r[o + 3]; ray.dir.y = r[o + 4]; ray.dir.z = r[o + 5];
    // Solid: a ray starting inside a body hits it at 0, as ours does.
    return world.castRay(ray, r[o + 6], true);
  };
  return {
    ray: (r: Float64Array): number => countHits((i) => rayTo(r, i) !== null),
    rayOne(r: Float64Array, i: number): CastAnswer {
      const h = rayTo(r, i);
      return h === null ? { body: -1, t: Infinity } : { body: indexOf.get(h.collider.handle)!, t: h.timeOfImpact };
    },
    cast: (casts: Float64Array): number => countHits((i) => castTo(casts, i) !== null),
    castOne(casts: Float64Array, i: number): CastAnswer {
      const h = castTo(casts, i);
      return h === null ? { body: -1, t: 1 } : { body: indexOf.get(h.collider.handle)!, t: h.time_of_impact };
    },
    run(spheres: Float64Array): number {
      let sum = 0;
      for (let i = 0; i < QUERIES; i++) {
        t.x = spheres[4 * i]; t.y = spheres[4 * i + 1]; t.z = spheres[4 * i + 2];
        ball.radius = spheres[4 * i + 3];
        count = 0;
        world.intersectionsWithShape(t, rot, ball, onHit);
        sum += count;
      }
      return sum;
    },
    set(x: number, y: number, z: number, radius: number): number[] {
      const found: number[] = [];
      t.x = x; t.y = y; t.z = z;
      ball.radius = radius;
      world.intersectionsWithShape(t, rot, ball, (c) => {
        found.push(indexOf.get(c.handle)!);
        return true;
      });
      return found.sort((a, b) => a - b);
    },
    dispose: () => world.free(),
  };
}

export async function run(): Promise<BenchReport> {
  const scene = createScene(COUNT, sizeForDensity(COUNT), 7);
  const spheres = querySpheres(scene);
  const hash = ours(scene, undefined);
  const sap = ours(scene, createSweepAndPrune());
  const pooled = ours(scene, undefined, 1);
  const peer = await rapier(scene);
  // Agreement: the same sets, but for bodies within a hair of the query (Float32 stores vs f32 Rapier).
  let mismatches = 0;
  for (let i = 0; i < 1000; i++) {
    const o = 4 * i;
    const a = hash.set(spheres[o], spheres[o + 1], spheres[o + 2], spheres[o + 3]);
    const b = peer.set(spheres[o], spheres[o + 1], spheres[o + 2], spheres[o + 3]);
    const c = sap.set(spheres[o], spheres[o + 1], spheres[o + 2], spheres[o + 3]);
    if (a.join() !== c.join()) throw new Error(`query ${i}: spatial hash and query grid disagree`);
    if (a.join() !== b.join()) {
      // Accept a difference only for bodies that stay or leave with a 1e-4 change of the radius.
      const near = hash.set(spheres[o], spheres[o + 1], spheres[o + 2], spheres[o + 3] * (1 + 1e-4));
      const far = hash.set(spheres[o], spheres[o + 1], spheres[o + 2], spheres[o + 3] * (1 - 1e-4));
      const disputed = [...a, ...b].filter((x) => !(a.includes(x) && b.includes(x)));
      if (disputed.some((x) => !near.includes(x) || far.includes(x))) throw new Error(`query ${i}: ours ${a} vs Rapier ${b}`);
      mismatches++;
    }
  }
  // Casts: the same body at the same t (Rapier computes in f32), or a near-tie: the two t's within
  // the tolerance, whichever body each names.
  const casts = sphereCasts(scene);
  let castTies = 0, castHits = 0;
  for (let i = 0; i < 1000; i++) {
    const a = hash.castOne(casts, i), b = peer.castOne(casts, i), c = sap.castOne(casts, i);
    if (a.body !== c.body || a.t !== c.t) throw new Error(`cast ${i}: spatial hash and query grid disagree`);
    if (a.body >= 0) castHits++;
    const o = CAST_STRIDE * i, length = Math.hypot(casts[o + 4], casts[o + 5], casts[o + 6]);
    const tolerance = (1e-4 * (1 + scene.size)) / length;
    if (!(Math.abs(a.t - b.t) <= tolerance)) throw new Error(`cast ${i}: ours ${a.body} at ${a.t} vs Rapier ${b.body} at ${b.t}`);
    if (a.body !== b.body) castTies++;
  }
  // Rays: the same agreement, t in units of the (unit) direction.
  const rayList = rays(scene);
  let rayTies = 0, rayHits = 0;
  for (let i = 0; i < 1000; i++) {
    const a = hash.rayOne(rayList, i), b = peer.rayOne(rayList, i), c = sap.rayOne(rayList, i);
    if (a.body !== c.body || a.t !== c.t) throw new Error(`ray ${i}: spatial hash and query grid disagree`);
    if (a.body >= 0) rayHits++;
    if ((a.body < 0) !== (b.body < 0) && Math.min(a.t, b.t) < rayList[CAST_STRIDE * i + 6] - 1e-4 * (1 + scene.size)) throw new Error(`ray ${i}: ours ${a.body} at ${a.t} vs Rapier ${b.body} at ${b.t}`);
    if (a.body >= 0 && b.body >= 0 && !(Math.abs(a.t - b.t) <= 1e-4 * (1 + scene.size))) throw new Error(`ray ${i}: ours ${a.body} at ${a.t} vs Rapier ${b.body} at ${b.t}`);
    if (a.body !== b.body) rayTies++;
  }
  // Batches: every query's answer is the single query's, to the bit, on one thread and on two.
  const batchesAgree = (name: string, runBatch: (c: ReturnType<typeof ours>) => number, one: (i: number) => CastAnswer, miss: number): void => {
    runBatch(hash);
    const jobsBefore = pooled.pooledJobs();
    runBatch(pooled);
    if (pooled.pooledJobs() !== jobsBefore + 1) throw new Error(`the ${name} batch did not run on the worker pool`);
    for (let i = 0; i < QUERIES; i++) {
      const a = one(i), b = hash.batchOne(i, miss), c = pooled.batchOne(i, miss);
      if (a.body !== b.body || !Object.is(a.t, b.t) || a.body !== c.body || !Object.is(a.t, c.t)) throw new Error(`${name} ${i}: a batch disagrees with the single query`);
    }
  };
  batchesAgree('ray', (c) => c.rayBatch(rayList), (i) => hash.rayOne(rayList, i), Infinity);
  hash.runBatch(spheres);
  pooled.runBatch(spheres);
  for (let i = 0; i < QUERIES; i++) {
    const o = 4 * i, a = hash.set(spheres[o], spheres[o + 1], spheres[o + 2], spheres[o + 3]).join();
    if (hash.batchSet(i).join() !== a || pooled.batchSet(i).join() !== a) throw new Error(`overlap ${i}: a batch disagrees with the single query`);
  }
  batchesAgree('cast', (c) => c.castBatch(casts), (i) => hash.castOne(casts, i), 1);
  const results = runInterleaved([
    { name: 'bitecs-collide (spatial hash grids)', run: () => hash.run(spheres), ops: QUERIES },
    { name: 'bitecs-collide (query grid, sweep and prune)', run: () => sap.run(spheres), ops: QUERIES },
    { name: 'Rapier intersectionsWithShape', run: () => peer.run(spheres), ops: QUERIES },
    { name: 'bitecs-collide overlapCollidersBatch (spatial hash grids), one thread', run: () => hash.runBatch(spheres), ops: QUERIES },
    { name: 'bitecs-collide overlapCollidersBatch, two threads (createWorkerPool(1))', run: () => pooled.runBatch(spheres), ops: QUERIES },
  ], { warmupSamples: 5, samples: 25 });
  const castResults = runInterleaved([
    { name: 'bitecs-collide (spatial hash grids)', run: () => hash.cast(casts), ops: QUERIES },
    { name: 'bitecs-collide (query grid, sweep and prune)', run: () => sap.cast(casts), ops: QUERIES },
    { name: 'Rapier castShape', run: () => peer.cast(casts), ops: QUERIES },
    { name: 'bitecs-collide castShapeCollidersBatch (spatial hash grids), one thread', run: () => hash.castBatch(casts), ops: QUERIES },
    { name: 'bitecs-collide castShapeCollidersBatch, two threads (createWorkerPool(1))', run: () => pooled.castBatch(casts), ops: QUERIES },
  ], { warmupSamples: 5, samples: 25 });
  const rayResults = runInterleaved([
    { name: 'bitecs-collide (spatial hash grids)', run: () => hash.ray(rayList), ops: QUERIES },
    { name: 'bitecs-collide (query grid, sweep and prune)', run: () => sap.ray(rayList), ops: QUERIES },
    { name: 'Rapier castRay', run: () => peer.ray(rayList), ops: QUERIES },
    { name: 'bitecs-collide raycastCollidersBatch (spatial hash grids), one thread', run: () => hash.rayBatch(rayList), ops: QUERIES },
    { name: 'bitecs-collide raycastCollidersBatch, two threads (createWorkerPool(1))', run: () => pooled.rayBatch(rayList), ops: QUERIES },
  ], { warmupSamples: 5, samples: 25 });
  peer.dispose();
  for (const contestant of [hash, sap, pooled]) contestant.dispose();
  const table = (rs: typeof results, title: string, found: string): string => {
    const rapierMs = rs.find((r) => r.name.startsWith('Rapier'))!.medianMs;
    const rows = rs.map((r) => [r.name, r.medianMs.toFixed(2), millions(r.opsPerSecond), (rapierMs / r.medianMs).toFixed(2), r.checksum]);
    return markdownTable([title, 'median ms', 'M queries/s', 'vs Rapier', found], rows);
  };
  /** The batch rows' scaling model (Amdahl's law from the one- and two-thread batches, the last two rows). */
  const scaling = (rs: typeof results): string => {
    const { serial, at } = amdahl(rs[rs.length - 2].medianMs, rs[rs.length - 1].medianMs);
    return `Batch scaling model (Amdahl's law from its one- and two-thread medians; memory bandwidth ignored): serial share ${Math.round(100 * serial)}%, predicted ${at(4).toFixed(1)} ms on 4 cores, ${at(8).toFixed(1)} on 8, ${at(16).toFixed(1)} on 16.`;
  };
  const markdown = [
    table(results, '10,000 sphere overlap queries, 10,000 bodies', 'bodies found'),
    `Sets agree with Rapier's on 1,000 queries (${mismatches} differ only by bodies within 1e-4 of the radius). The batches give every one of the 10,000 queries the single query's set. ${scaling(results)}`,
    table(castResults, '10,000 sphere casts (r 0.25 to 1.5, 2 to 30 units), 10,000 bodies', 'casts that hit'),
    `Casts agree with Rapier's on 1,000 casts (${castHits} hits): the same time within 1e-4 of the scene's size; ${castTies} name another body at that time (near-ties). The batches give every one of the 10,000 casts the single cast's hit, to the bit. ${scaling(castResults)}`,
    table(rayResults, '10,000 rays (2 to 100 units), 10,000 bodies', 'rays that hit'),
    `Rays agree with Rapier's on 1,000 rays (${rayHits} hits): the same time within 1e-4 of the scene's size; ${rayTies} name another body at that time or graze the end of the ray (near-ties). The batches give every one of the 10,000 rays the single ray's hit, to the bit; two threads split a batch in claimed chunks of rays (Rapier's castRay runs on one). ${scaling(rayResults)}`,
  ].join('\n\n');
  return { name: 'queries', markdown, data: { results, mismatches, castResults, castTies, rayResults, rayTies } };
}

// Run directly (npx tsx bench/queries.bench.ts): print the table only.
if (process.argv[1]?.endsWith('queries.bench.ts')) console.log((await run()).markdown);
