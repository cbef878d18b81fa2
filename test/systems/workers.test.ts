/**
 * The pipeline on worker threads: the same touching pairs, contacts, events and hitbox-free
 * outputs as on one thread, frame by frame, under random scenes, worker counts and add / remove
 * sequences (overlap queries and shape casts too, which read the broad phase's grids); faults
 * inside a worker reach `step`; a late wake-up does not run a job twice; bad `workers` options are refused; without
 * SharedArrayBuffer the pipeline says so once and runs on one thread; the process exits after
 * destroy().
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { addEntity, createWorld, removeEntity, type World } from 'bitecs';
import fc from 'fast-check';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { CONTACT_COUNT, CONTACT_POINTS, CONTACT_POINT_STRIDE, CONTACT_STRIDE } from '../../src/contacts/manifold';
import { CollideInputError } from '../../src/errors';
import { buildBoundingTree } from '../../src/tree/build';
import { addCollider, removeCollider, setTransform } from '../../systems/colliderApi';
import type { CollisionPipeline } from '../../systems/collisionState';
import { addMeshCollider } from '../../systems/meshCollider';
import { addKdopCollider } from '../../systems/kdopCollider';
import { createCollisionPipeline } from '../../systems/pipeline';
import { createWorkerPool } from '../../systems/parallel/workerPool';
import { createScanSplitter } from '../../systems/parallel/broadJob';
import { WorkerPool } from '../../systems/parallel/pool';
import {
  CONTENDED_SHARE, CTRL_DONE, CTRL_SEQUENCE, FORGET_AFTER_POLLED_MS, JOB_REFIT, JUDGE_AFTER_LOST_MS, createPollRecord, lostCore, pollWhileEqual, pollingAllowed, stopPolling,
  type Control,
} from '../../systems/parallel/protocol';
import { PARALLEL_MIN_CANDIDATES, PARALLEL_MIN_COLLIDERS, PARALLEL_MIN_DYNAMIC_BOXES, POLLING_MIN_CANDIDATES, POLLING_MIN_COLLIDERS, POLLING_MIN_DYNAMIC_BOXES } from '../../systems/parallel/narrowBuffers';
import { overlapColliders } from '../../systems/shapeQueries';
import { castShapeColliders, createColliderShapeHit } from '../../systems/shapeCasts';
import { createShapeQuery, setCapsuleQuery, setShapeCast, setSphereQuery } from '../../src/query/shapeQuery';
import { triangulatedFloor } from '../../scenes/floors';
import { mulberry32 } from '../../scenes/random';
import { advanceScene, randomScene, type Body } from '../support/pipelineScene';
import { packageRoot } from '../../scenes/packageRoot';

/** What a step reports, as comparable text: touching pairs, contacts (the defined part of each manifold), events. */
function outputs(p: CollisionPipeline): string {
  const pairs = (list: { a: Uint32Array; b: Uint32Array; count: number }) => {
    const out: string[] = [];
    for (let i = 0; i < list.count; i++) out.push(`${list.a[i]}-${list.b[i]}`);
    return out.join(' ');
  };
  const c = p.contacts, m = c.manifold;
  const contacts: string[] = [];
  for (let i = 0; i < c.count; i++) {
    const o = i * CONTACT_STRIDE;
    const used = CONTACT_POINTS + CONTACT_POINT_STRIDE * m[o + CONTACT_COUNT];
    contacts.push(`${c.a[i]}-${c.b[i]}:${Array.from(m.subarray(o, o + used)).join(',')}`);
  }
  return [pairs(p.touchingPairs), contacts.join(' '), pairs(p.events.begin), pairs(p.events.stay), pairs(p.events.end)].join('\n');
}

const floor = triangulatedFloor(8, { pattern: 'random-diagonal', cell: 3 }, mulberry32(5));
const floorTree = buildBoundingTree(floor.positions, floor.indices);

interface Run {
  world: World;
  p: CollisionPipeline;
  eids: number[];
}

/**
 * A world with the scene's bodies (sensors every fifth, one k-DOP, one mesh floor), on `workers`
 * threads. With an even number of workers the threads sleep after every job (spinMs 0), with an
 * odd one they poll for the next: both ways of waiting run.
 */
function createRun(bodies: Body[], workers: number): Run {
  const world = createWorld();
  const p = createCollisionPipeline(world, workers > 0 ? { workers: createWorkerPool(workers, { spinMs: workers % 2 === 0 ? 0 : 5 }) } : {});
  if (p.parallel !== undefined) {
    // Every frame of these small scenes on the pool.
    p.parallel.minRefit = 1;
    p.parallel.minNarrow = 1;
    p.parallel.minBroad = 1;
  }
  const eids = bodies.map((body, i) => {
    const e = addEntity(world);
    if (i === 3) addKdopCollider(world, e, [0, 0, 0, 1, 1, 1, -1, 0.5, 0.2]);
    else addCollider(world, e, { ...body.desc, sensor: i % 5 === 0 });
    return e;
  });
  const level = addEntity(world);
  addMeshCollider(world, level, floorTree, { isStatic: true });
  setTransform(world, level, [10, 10, 10]);
  return { world, p, eids };
}

const running: Run[] = [];
afterEach(() => {
  for (const run of running.splice(0)) run.p.destroy();
});

const overlapQuery = createShapeQuery({ shape: 'sphere' });
const castQuery = createShapeQuery({ shape: 'capsule' });
const overlapped: number[] = [];
const castHit = createColliderShapeHit();

/**
 * What overlap queries and shape casts find after a step, as comparable text: they read the
 * broad phase's grids, which the worker threads fill when the broad phase is split.
 */
function queries(p: CollisionPipeline, frame: number): string {
  const rand = mulberry32(1000 + frame);
  const found: string[] = [];
  for (let i = 0; i < 6; i++) {
    const x = 40 * rand(), y = 40 * rand(), z = 40 * rand();
    setSphereQuery(overlapQuery, x, y, z, 1 + 4 * rand());
    const count = overlapColliders(p, overlapped, overlapQuery);
    found.push(`overlap ${overlapped.slice(0, count).join(',')}`);
    setCapsuleQuery(castQuery, x, y, z, x + 2, y, z, 0.5 + rand());
    setShapeCast(castQuery, 30 * rand() - 15, 30 * rand() - 15, 30 * rand() - 15);
    found.push(castShapeColliders(p, castHit, castQuery) ? `cast ${castHit.entity} ${castHit.t}` : 'cast none');
  }
  return found.join('\n');
}

/**
 * Steps a single-thread world and one on `workers` threads through the same frames of `bodies`
 * (plus what `extra` adds to each world), with the same removal, removed entity and re-add, and
 * expects the same outputs after every step.
 */
function agreesWithOneThread(rand: () => number, bodies: Body[], workers: number, extra: (world: World) => void): void {
  const runs = [createRun(bodies, 0), createRun(bodies, workers)];
  running.push(...runs);
  for (const run of runs) extra(run.world);
  expect(runs[1].p.workers).toBe(workers);
  const victim = Math.floor(rand() * bodies.length);
  for (let frame = 0; frame < 12; frame++) {
    advanceScene(bodies, 24);
    for (const run of runs) {
      if (frame === 4) removeCollider(run.world, run.eids[victim]);
      if (frame === 6) removeEntity(run.world, run.eids[(victim + 1) % bodies.length]);
      if (frame === 8) addCollider(run.world, run.eids[victim], { shape: 'sphere', radius: 1.5 });
      bodies.forEach((body, i) => {
        if (frame >= 6 && i === (victim + 1) % bodies.length) return;
        setTransform(run.world, run.eids[i], body.position, body.rotation);
      });
      // Every other frame, uneven splits between the threads (otherwise as the pool balances them).
      if (frame % 2 === 1) run.p.parallel?.scrambleSplits(rand);
      run.p.step(run.world);
    }
    expect(outputs(runs[1].p)).toBe(outputs(runs[0].p));
    expect(queries(runs[1].p, frame)).toBe(queries(runs[0].p, frame));
    expect(Array.from(runs[1].p.candidates.a.subarray(0, runs[1].p.candidates.count))).toEqual(Array.from(runs[0].p.candidates.a.subarray(0, runs[0].p.candidates.count)));
    expect(Array.from(runs[1].p.candidates.b.subarray(0, runs[1].p.candidates.count))).toEqual(Array.from(runs[0].p.candidates.b.subarray(0, runs[0].p.candidates.count)));
  }
  for (const run of runs.splice(0)) run.p.destroy();
  running.length = 0;
}

describe('the pipeline on worker threads', () => {
  it('reports exactly what one thread reports, frame by frame, through adds and removals', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 1e6 }), fc.integer({ min: 1, max: 3 }), (seed, workers) => {
        const rand = mulberry32(seed);
        agreesWithOneThread(rand, randomScene(rand, { count: 160, kinds: ['obb', 'sphere', 'capsule', 'aabb'], size: 24 }), workers, () => {});
      }),
      { numRuns: 5 },
    );
  });

  it('reports what one thread reports with boxes on several hash levels, oversize boxes and static colliders', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 1e6 }), fc.integer({ min: 1, max: 3 }), (seed, workers) => {
        const rand = mulberry32(seed);
        const bodies = randomScene(rand, { count: 160, kinds: ['obb', 'sphere', 'aabb'], size: 40 });
        // Sizes over two orders of magnitude: the larger boxes sit on coarser levels of the hash.
        bodies.forEach((body, i) => {
          const grow = i % 9 === 0 ? 24 : i % 4 === 0 ? 5 : 1;
          const d = body.desc as { halfExtents?: number[]; radius?: number };
          if (d.halfExtents) d.halfExtents = d.halfExtents.map((h) => h * grow);
          if (d.radius !== undefined) d.radius *= grow;
        });
        const statics = Array.from({ length: 12 }, () => [40 * rand(), 40 * rand(), 40 * rand(), 0.5 + 6 * rand()]);
        agreesWithOneThread(rand, bodies, workers, (world) => {
          for (const [x, y, z, h] of statics) {
            const e = addEntity(world);
            addCollider(world, e, { shape: 'aabb', halfExtents: [h, h, 2 * h], isStatic: true });
            setTransform(world, e, [x, y, z]);
          }
          // Beyond the hash's top level, one moving with the scene and one static.
          const wall = addEntity(world), slab = addEntity(world);
          addCollider(world, wall, { shape: 'aabb', halfExtents: [1e8, 1, 1e8] });
          setTransform(world, wall, [0, 20, 0]);
          addCollider(world, slab, { shape: 'aabb', halfExtents: [1e8, 1e8, 1], isStatic: true });
          setTransform(world, slab, [0, 0, 10]);
        });
      }),
      { numRuns: 4 },
    );
  });

  it('a worker that throws makes step throw; the next steps agree with one thread again', () => {
    const bodies = randomScene(mulberry32(9), { count: 120, kinds: ['obb', 'sphere'], size: 20 });
    const runs = [createRun(bodies, 0), createRun(bodies, 2)];
    running.push(...runs);
    const stepBoth = (failing: boolean) => {
      advanceScene(bodies, 20);
      for (const run of runs) {
        bodies.forEach((body, i) => setTransform(run.world, run.eids[i], body.position, body.rotation));
        if (run === runs[1] && failing) {
          run.p.parallel!.failNextJob();
          expect(() => run.p.step(run.world)).toThrow(/a worker thread failed: job -1 failed on purpose/);
        } else {
          run.p.step(run.world);
        }
      }
    };
    stepBoth(false);
    stepBoth(true);
    // The single-thread run stepped once more; both see the same poses from here on.
    for (let frame = 0; frame < 4; frame++) {
      stepBoth(false);
      expect(runs[1].p.touchingPairs.count).toBe(runs[0].p.touchingPairs.count);
      expect(outputs(runs[1].p).split('\n').slice(0, 2)).toEqual(outputs(runs[0].p).split('\n').slice(0, 2));
    }
    // Events resume relative to the last completed frame: nothing touching is lost or doubled.
    const p = runs[1].p;
    expect(p.events.begin.count + p.events.stay.count).toBe(p.touchingPairs.count);
  });

  it('a worker woken by a notify that lands after it ran the job does not run the job again', async () => {
    // The caller bumps the job sequence, then notifies: a worker that saw the bump first can have
    // finished the job and be waiting for the next when that notify lands. Here the late notify
    // is sent by hand after a job; a worker that took it for a new job would count itself done twice.
    const pool = new WorkerPool(2);
    try {
      await pool.ready;
      const ints = (pool as unknown as { control: { ints: Int32Array } }).control.ints;
      // A claimed job of no items: whichever thread claims its one empty chunk, nothing runs.
      const none = () => {};
      pool.runClaimed(JOB_REFIT, 0, 0, 0, 0, none);
      expect(Atomics.load(ints, CTRL_DONE)).toBe(2);
      for (let k = 0; k < 3; k++) {
        Atomics.notify(ints, CTRL_SEQUENCE);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      expect(Atomics.load(ints, CTRL_DONE)).toBe(2);
      pool.runClaimed(JOB_REFIT, 0, 0, 0, 0, none);
      expect(Atomics.load(ints, CTRL_DONE)).toBe(2);
      expect(pool.jobsOnWorkers).toBe(2);
    } finally {
      pool.destroy();
    }
  });

  it('splits the spatial hash only while the workers run (a page\'s pool runs jobs alone until they start)', () => {
    const state = { minBroad: 100 };
    for (const workersRunning of [false, true]) {
      const pool = { workerCount: 1, workersRunning } as unknown as WorkerPool;
      const splitter = createScanSplitter(pool, state);
      expect(splitter.splits(99)).toBe(false);
      expect(splitter.splits(100)).toBe(workersRunning);
    }
  });

  it('refuses a worker count that is not a positive integer or auto, and a workers option that is not a pool', () => {
    for (const workers of [0, -1, 1.5, NaN, Infinity, 'many', '2', null, 1000]) {
      const call = () => createWorkerPool(workers as never);
      expect(call).toThrow(CollideInputError);
      expect(call).toThrow(/createWorkerPool: workers must be an integer in \[1, 64\] or 'auto', got/);
    }
    for (const workers of [2, 'auto', {}]) {
      const call = () => createCollisionPipeline(createWorld(), { workers: workers as never });
      expect(call).toThrow(CollideInputError);
      expect(call).toThrow(/workers takes a pool, createWorkerPool\(n\) or createWorkerPool\('auto'\)/);
    }
    const pool = createWorkerPool(1);
    const p = createCollisionPipeline(createWorld(), { workers: pool });
    running.push({ world: p.world, p, eids: [] });
    expect(() => createCollisionPipeline(createWorld(), { workers: pool })).toThrow(/already serves a pipeline/);
  });

  it('refuses bad or unknown pool options, naming the field', () => {
    const cases: [unknown, RegExp][] = [
      [null, /createWorkerPool: options must be an object, got null/],
      [{ workerURL: 'w.js' }, /createWorkerPool: unknown option 'workerURL' \(accepted: workerUrl, createWorker, spinMs\)/],
      [{ spinMs: -1 }, /createWorkerPool: spinMs must be a number of milliseconds in \[0, 100\], got -1/],
      [{ spinMs: NaN }, /createWorkerPool: spinMs must be a number of milliseconds in \[0, 100\], got NaN/],
      [{ spinMs: 1000 }, /createWorkerPool: spinMs must be a number of milliseconds in \[0, 100\], got 1000/],
      [{ spinMs: '1' }, /createWorkerPool: spinMs must be a number of milliseconds in \[0, 100\], got '1'/],
      [{ workerUrl: 3 }, /createWorkerPool: workerUrl must be a string or a URL, got 3/],
      [{ createWorker: 'worker.js' }, /createWorkerPool: createWorker must be a function returning a Worker, got worker.js/],
      [{ workerUrl: 'w.js', createWorker: () => undefined }, /createWorkerPool: give workerUrl or createWorker, not both/],
    ];
    for (const [options, message] of cases) {
      const call = () => createWorkerPool(1, options as never);
      expect(call).toThrow(CollideInputError);
      expect(call).toThrow(message);
    }
    expect(() => createWorkerPool(1, { workerUrl: new URL('https://example.org/worker.js') })).not.toThrow();
  });

  it('splits a step from smaller frames when its threads poll between jobs', () => {
    const sleeping = createCollisionPipeline(createWorld(), { workers: createWorkerPool(1) });
    const polling = createCollisionPipeline(createWorld(), { workers: createWorkerPool(1, { spinMs: 0.5 }) });
    running.push({ world: sleeping.world, p: sleeping, eids: [] }, { world: polling.world, p: polling, eids: [] });
    expect([sleeping.parallel!.minRefit, sleeping.parallel!.minBroad, sleeping.parallel!.minNarrow]).toEqual([PARALLEL_MIN_COLLIDERS, PARALLEL_MIN_DYNAMIC_BOXES, PARALLEL_MIN_CANDIDATES]);
    expect([polling.parallel!.minRefit, polling.parallel!.minBroad, polling.parallel!.minNarrow]).toEqual([POLLING_MIN_COLLIDERS, POLLING_MIN_DYNAMIC_BOXES, POLLING_MIN_CANDIDATES]);
    expect([sleeping.parallel!.polling, polling.parallel!.polling]).toEqual([false, true]);
    // A threshold set stays whatever the threads do.
    polling.parallel!.minRefit = 7;
    expect(polling.parallel!.minRefit).toBe(7);
    expect(POLLING_MIN_COLLIDERS).toBeLessThan(PARALLEL_MIN_COLLIDERS);
    expect(POLLING_MIN_DYNAMIC_BOXES).toBeLessThan(PARALLEL_MIN_DYNAMIC_BOXES);
    expect(POLLING_MIN_CANDIDATES).toBeLessThan(PARALLEL_MIN_CANDIDATES);
  });

  it('judges contention from time lost, and stops every thread polling for a while once found', () => {
    // lostCore: nothing judged before JUDGE_AFTER_LOST_MS were lost; then contended above CONTENDED_SHARE.
    const record = createPollRecord();
    record[0] = FORGET_AFTER_POLLED_MS;
    record[1] = JUDGE_AFTER_LOST_MS / 2;
    expect(lostCore(record)).toBe(false);
    expect(Array.from(record)).toEqual([0, 0]); // unjudged, and forgotten: over FORGET_AFTER_POLLED_MS observed
    record[0] = FORGET_AFTER_POLLED_MS / 2;
    record[1] = JUDGE_AFTER_LOST_MS;
    expect(lostCore(record)).toBe(false); // a small share of the time observed
    expect(Array.from(record)).toEqual([0, 0]); // judged, then forgotten
    record[0] = 2 * JUDGE_AFTER_LOST_MS;
    record[1] = JUDGE_AFTER_LOST_MS;
    expect(lostCore(record)).toBe(true);
    record[0] = FORGET_AFTER_POLLED_MS;
    record[1] = 1;
    expect(lostCore(record)).toBe(false);
    expect(Array.from(record)).toEqual([0, 0]);
    expect(CONTENDED_SHARE).toBeGreaterThan(0);
    // pollWhileEqual: adds the time it polled, and returns at once on a change.
    const ints = new Int32Array(new SharedArrayBuffer(8));
    expect(pollWhileEqual(ints, 0, 0, 2, record)).toBe(false);
    expect(record[0]).toBeGreaterThanOrEqual(2);
    ints[0] = 1;
    expect(pollWhileEqual(ints, 0, 0, 50, record)).toBe(true);
    expect(pollWhileEqual(ints, 0, 0, 0)).toBe(true);
    // A pool that polls stops, for every thread, once stopPolling is called.
    const pool = new WorkerPool(1, { spinMs: 1 });
    const sleeping = new WorkerPool(1);
    try {
      expect(pool.polls).toBe(true);
      expect(sleeping.polls).toBe(false);
      stopPolling((pool as unknown as { control: Control }).control);
      expect(pool.polls).toBe(false);
      expect(pollingAllowed((pool as unknown as { control: Control }).control)).toBe(false);
    } finally {
      pool.destroy();
      sleeping.destroy();
    }
  });

  it('ready resolves once the threads have started, and the first step runs on them', async () => {
    const pool = createWorkerPool(2);
    const p = createCollisionPipeline(createWorld(), { workers: pool });
    running.push({ world: p.world, p, eids: [] });
    await expect(pool.ready).resolves.toBeUndefined();
    p.parallel!.minRefit = 1;
    const e = addEntity(p.world);
    addCollider(p.world, e, { shape: 'sphere', radius: 1 });
    p.step(p.world);
    expect(p.parallel!.jobsOnWorkers).toBe(1);
  });

  it('without SharedArrayBuffer, runs on one thread and says so once', () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    const saved = globalThis.SharedArrayBuffer;
    try {
      (globalThis as { SharedArrayBuffer?: unknown }).SharedArrayBuffer = undefined;
      const pipelines = [createCollisionPipeline(createWorld(), { workers: createWorkerPool(2) }), createCollisionPipeline(createWorld(), { workers: createWorkerPool('auto') })];
      expect(pipelines.map((p) => p.workers)).toEqual([0, 0]);
      expect(warn).toHaveBeenCalledTimes(1);
      expect(String(warn.mock.calls[0][0])).toMatch(/runs on one thread/);
      const world = pipelines[0].world;
      const a = addEntity(world), b = addEntity(world);
      addCollider(world, a, { shape: 'sphere', radius: 1 });
      addCollider(world, b, { shape: 'sphere', radius: 1 });
      setTransform(world, b, [1.5, 0, 0]);
      pipelines[0].step(world);
      expect(pipelines[0].touchingPairs.count).toBe(1);
    } finally {
      globalThis.SharedArrayBuffer = saved;
      warn.mockRestore();
    }
  });

  it('the process exits after destroy(), and waits for the threads while a script awaits ready', () => {
    const root = packageRoot(import.meta.url);
    mkdirSync(join(root, 'test-artifacts'), { recursive: true });
    const dir = mkdtempSync(join(root, 'test-artifacts', 'workers-'));
    try {
      const script = join(dir, 'exit.mts');
      writeFileSync(script, `
import { addEntity, createWorld } from 'bitecs';
import { createCollisionPipeline } from ${JSON.stringify(join(root, 'systems/pipeline.ts'))};
import { createWorkerPool } from ${JSON.stringify(join(root, 'systems/parallel/workerPool.ts'))};
import { addCollider, setTransform } from ${JSON.stringify(join(root, 'systems/colliderApi.ts'))};
// Threads that sleep between jobs, and threads that poll for as long as they may.
for (const options of [{}, { spinMs: 100 }]) {
  const world = createWorld();
  const workers = createWorkerPool(2, options);
  const p = createCollisionPipeline(world, { workers });
  await workers.ready;
  console.log('ready');
  p.parallel.minRefit = 1;
  p.parallel.minNarrow = 1;
  p.parallel.minBroad = 1;
  for (let i = 0; i < 50; i++) { const e = addEntity(world); addCollider(world, e, { shape: 'sphere', radius: 1 }); setTransform(world, e, [1.5 * i, 0, 0]); }
  p.step(world);
  console.log('pairs', p.touchingPairs.count);
  p.destroy();
}
`);
      const started = performance.now();
      const out = execFileSync(process.execPath, ['--import', 'tsx', script], { cwd: root, encoding: 'utf8', timeout: 60_000 });
      expect(out.trim()).toBe('ready\npairs 49\nready\npairs 49');
      expect(performance.now() - started).toBeLessThan(60_000);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
