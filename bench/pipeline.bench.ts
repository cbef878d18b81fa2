/**
 * Whole pipeline against the peers: milliseconds per frame on the moving-boxes scene of
 * scenes/movingBoxes.ts (one OBB collider per box). Our frame is what a user writes: setTransform per
 * entity, then `step` (refit, broad phase, narrow phase). "pairs only" uses sensor colliders
 * (touching pairs and events, exact SAT, no manifolds) — the same work the peers do here, since
 * their bodies are sensors / kinematic; "with contacts" adds manifolds for every pair. Every
 * frame all contestants run on the same scene state, in rotating order, so bursts of machine noise
 * fall on all of them alike; ratios come from the same run.
 */
import { addEntity, createWorld, type World } from 'bitecs';
import { addCollider, markTransformChanged, setPosition, setRotation, setTransform } from '../systems/colliderApi';
import type { TransformComponents } from '../systems/poseSource';
import type { BroadPhaseName, CollisionPipeline } from '../systems/collisionState';
import { createCollisionPipeline } from '../systems/pipeline';
import { resolveBroadPhase } from '../systems/broadPhaseNames';
import { shiftWorldOrigin } from '../systems/worldOrigin';
import { createWorkerPool } from '../systems/parallel/workerPool';
import {
  PARALLEL_MIN_CANDIDATES, PARALLEL_MIN_COLLIDERS, PARALLEL_MIN_DYNAMIC_BOXES, POLLING_MIN_CANDIDATES, POLLING_MIN_COLLIDERS, POLLING_MIN_DYNAMIC_BOXES,
} from '../systems/parallel/narrowBuffers';
import { markdownTable, percentile, amdahl } from './harness';
import { createCannonRunner, createRapierRunner, type SceneRunner } from './peers';
import type { BenchReport } from './harness';
import { advanceScene, createScene, sizeForDensity, type Scene } from '../scenes/movingBoxes';

interface Setup {
  label: string;
  count: number;
  size: number;
  warmup: number;
  frames: number;
  cannon: boolean;
  /** Whether sweep and prune runs too. */
  sap: boolean;
  /** The dense scene (N = 10,000 in 100^3), kept apart from the constant-density series in the results. */
  dense?: boolean;
}

/**
 * cannon-es keeps an O(n²) collision matrix and takes over a second per frame on dense 10k, so it
 * runs on the sparse scenes up to 10k only; sweep and prune, several times slower than the
 * spatial hash from 10k on, is left out above 10k; large scenes get fewer frames, to keep the run
 * near 3 minutes.
 */
const SETUPS: Setup[] = [
  ...[1000, 2000, 10000].map((n) => ({ label: `${n / 1000}k`, count: n, size: sizeForDensity(n), warmup: 10, frames: 100, cannon: true, sap: true })),
  { label: 'dense 10k', count: 10000, size: 100, warmup: 10, frames: 100, cannon: false, sap: true, dense: true },
  { label: '50k', count: 50000, size: sizeForDensity(50000), warmup: 5, frames: 30, cannon: false, sap: false },
  { label: '100k', count: 100000, size: sizeForDensity(100000), warmup: 3, frames: 20, cannon: false, sap: false },
];

/** Our broad phases compared; the last is the default candidate, also run with contacts. */
const OUR_BROAD_PHASES: BroadPhaseName[] = ['sap', 'spatialHash'];
const CONTACTS_BROAD_PHASE: BroadPhaseName = 'spatialHash';

interface Contestant {
  name: string;
  frame: () => number;
  pairKeys?: () => string[];
  times: number[];
  pairs: number;
  dispose: () => void;
  /** Our pipeline, for the per-system timings. */
  pipeline?: CollisionPipeline;
  systemTimes?: number[][];
}

const position = new Float64Array(3);
const rotation = new Float64Array(4);

/** How long the pool's threads poll between jobs in the runs marked "polling" (WorkerPoolOptions.spinMs). */
const POLL_MS = 1;

/** Our pipeline on `scene`: pairs only (`sensor`) or with contacts, on the calling thread or with `workers` more that poll between jobs. */
function ours(scene: Scene, broadPhase: BroadPhaseName, sensor: boolean, workers = 0): Contestant {
  const world: World = createWorld();
  const p = createCollisionPipeline(world, { broadPhase: resolveBroadPhase(broadPhase), timings: true, ...(workers > 0 ? { workers: createWorkerPool(workers, { spinMs: POLL_MS }) } : {}) });
  const eids = new Int32Array(scene.count);
  const h = scene.half;
  for (let i = 0; i < scene.count; i++) {
    eids[i] = addEntity(world);
    addCollider(world, eids[i], { shape: 'obb', halfExtents: [h[3 * i], h[3 * i + 1], h[3 * i + 2]], sensor });
  }
  const boxOf = new Map<number, number>();
  eids.forEach((e, i) => boxOf.set(e, i));
  const c: Contestant = {
    name: `ours ${broadPhase}${sensor ? '' : ' +contacts'}${workers > 0 ? `, ${workers + 1} threads polling` : ''}`,
    frame() {
      for (let i = 0; i < scene.count; i++) {
        for (let k = 0; k < 3; k++) position[k] = scene.position[3 * i + k];
        for (let k = 0; k < 4; k++) rotation[k] = scene.rotation[4 * i + k];
        setTransform(world, eids[i], position, rotation);
      }
      p.step(world);
      return p.touchingPairs.count;
    },
    pairKeys() {
      const t = p.touchingPairs, keys: number[] = [];
      for (let k = 0; k < t.count; k++) {
        const i = boxOf.get(t.a[k])!, j = boxOf.get(t.b[k])!;
        keys.push(i < j ? i * 0x1000000 + j : j * 0x1000000 + i);
      }
      return keys.sort((a, b) => a - b).map((k) => `${Math.floor(k / 0x1000000)},${k % 0x1000000}`);
    },
    times: [],
    pairs: 0,
    dispose: () => p.destroy(),
    pipeline: p,
    systemTimes: [[], [], []],
  };
  return c;
}

function peer(runner: SceneRunner): Contestant {
  return { name: runner.name, frame: () => runner.frame(), pairKeys: () => runner.pairKeys(), times: [], pairs: 0, dispose: () => runner.dispose() };
}

/** Pairs in one list and not the other, both ways. */
function difference(a: string[], b: string[]): [number, number] {
  const sa = new Set(a), sb = new Set(b);
  return [a.filter((k) => !sb.has(k)).length, b.filter((k) => !sa.has(k)).length];
}

const fmt = (x: number | undefined) => (x === undefined || Number.isNaN(x) ? '—' : x < 10 ? x.toFixed(2) : x.toFixed(1));

/**
 * What moving the world origin costs on the moving-boxes scene (pairs only, spatial hash): one
 * `shiftWorldOrigin` call alone, and frames with a shift before the poses are written against
 * frames without, interleaved. Shifts alternate between +1024 and −1024 units along x.
 */
function originShiftRows(): (string | number)[][] {
  const rows: (string | number)[][] = [];
  for (const count of [2000, 100000]) {
    const scene = createScene(count, sizeForDensity(count));
    const c = ours(scene, 'spatialHash', true);
    const world = c.pipeline!.world;
    const frames = count > 10000 ? 20 : 100;
    const shiftMs: number[] = [], plain: number[] = [], shifted: number[] = [];
    for (let f = 0; f < 5; f++) c.frame();
    for (let f = 0; f < frames; f++) {
      let t0 = performance.now();
      c.frame();
      plain.push(performance.now() - t0);
      advanceScene(scene);
      t0 = performance.now();
      shiftWorldOrigin(world, f % 2 === 0 ? 1024 : -1024, 0, 0);
      const t1 = performance.now();
      c.frame();
      shifted.push(performance.now() - t0);
      shiftMs.push(t1 - t0);
      advanceScene(scene);
    }
    c.dispose();
    const med = (v: number[]) => percentile(v.slice().sort((a, b) => a - b), 0.5);
    rows.push([count.toLocaleString('en-US'), fmt(med(shiftMs)), fmt(med(plain)), fmt(med(shifted)), `${(med(shifted) / med(plain)).toFixed(2)}x`]);
  }
  return rows;
}

type PoseWay = 'setTransform' | 'setPosition + setRotation' | 'store writes + markTransformChanged' | 'store writes, dynamic' | 'own components {x,y,z}, dynamic' | 'own components interleaved, dynamic';
const POSE_WAYS: PoseWay[] = [
  'setTransform', 'setPosition + setRotation', 'store writes + markTransformChanged', 'store writes, dynamic',
  'own components {x,y,z}, dynamic', 'own components interleaved, dynamic',
];

/** One pipeline (spatial hash, pairs only) fed its poses one way; frame() writes them and steps. */
function poseContestant(scene: Scene, way: PoseWay): { frame: () => number; dispose: () => void } {
  const world: World = createWorld();
  const n = scene.count + 1;
  const fields = { x: new Float32Array(n), y: new Float32Array(n), z: new Float32Array(n) };
  const turns = { x: new Float32Array(n), y: new Float32Array(n), z: new Float32Array(n), w: new Float32Array(n) };
  const posArray = new Float32Array(3 * n), rotArray = new Float32Array(4 * n);
  const transform: TransformComponents | undefined = way === 'own components {x,y,z}, dynamic' ? { position: fields, rotation: turns }
    : way === 'own components interleaved, dynamic' ? { position: posArray, rotation: rotArray } : undefined;
  const p = createCollisionPipeline(world, transform ? { transform } : {});
  const eids = new Int32Array(scene.count);
  const h = scene.half;
  for (let i = 0; i < scene.count; i++) {
    eids[i] = addEntity(world);
    turns.w[eids[i]] = 1;
    rotArray[4 * eids[i] + 3] = 1;
    addCollider(world, eids[i], { shape: 'obb', halfExtents: [h[3 * i], h[3 * i + 1], h[3 * i + 2]], sensor: true, dynamic: way === 'store writes, dynamic' || undefined });
  }
  const sp = scene.position, sr = scene.rotation;
  const write: Record<PoseWay, () => void> = {
    'setTransform': () => {
      for (let i = 0; i < scene.count; i++) {
        for (let k = 0; k < 3; k++) position[k] = sp[3 * i + k];
        for (let k = 0; k < 4; k++) rotation[k] = sr[4 * i + k];
        setTransform(world, eids[i], position, rotation);
      }
    },
    'setPosition + setRotation': () => {
      for (let i = 0; i < scene.count; i++) {
        setPosition(world, eids[i], sp[3 * i], sp[3 * i + 1], sp[3 * i + 2]);
        setRotation(world, eids[i], sr[4 * i], sr[4 * i + 1], sr[4 * i + 2], sr[4 * i + 3]);
      }
    },
    'store writes + markTransformChanged': () => {
      const tp = p.transform.position, tr = p.transform.rotation;
      for (let i = 0; i < scene.count; i++) {
        const e = eids[i];
        for (let k = 0; k < 3; k++) tp[3 * e + k] = sp[3 * i + k];
        for (let k = 0; k < 4; k++) tr[4 * e + k] = sr[4 * i + k];
        markTransformChanged(world, e);
      }
    },
    'store writes, dynamic': () => {
      const tp = p.transform.position, tr = p.transform.rotation;
      for (let i = 0; i < scene.count; i++) {
        const e = eids[i];
        for (let k = 0; k < 3; k++) tp[3 * e + k] = sp[3 * i + k];
        for (let k = 0; k < 4; k++) tr[4 * e + k] = sr[4 * i + k];
      }
    },
    'own components {x,y,z}, dynamic': () => {
      for (let i = 0; i < scene.count; i++) {
        const e = eids[i];
        fields.x[e] = sp[3 * i]; fields.y[e] = sp[3 * i + 1]; fields.z[e] = sp[3 * i + 2];
        turns.x[e] = sr[4 * i]; turns.y[e] = sr[4 * i + 1]; turns.z[e] = sr[4 * i + 2]; turns.w[e] = sr[4 * i + 3];
      }
    },
    'own components interleaved, dynamic': () => {
      for (let i = 0; i < scene.count; i++) {
        const e = eids[i];
        for (let k = 0; k < 3; k++) posArray[3 * e + k] = sp[3 * i + k];
        for (let k = 0; k < 4; k++) rotArray[4 * e + k] = sr[4 * i + k];
      }
    },
  };
  const writePoses = write[way];
  return {
    frame() {
      writePoses();
      p.step(world);
      return p.touchingPairs.count;
    },
    dispose: () => p.destroy(),
  };
}

/**
 * The ways of giving the pipeline its poses, timed interleaved on the moving-boxes scene (pairs
 * only, spatial hash): the user's code that writes the poses plus `step`, medians in ms, and the
 * ratio to direct store writes with markTransformChanged. Pair counts must agree.
 */
export function poseWayRows(): (string | number)[][] {
  const rows: (string | number)[][] = [];
  for (const count of [2000, 100000]) {
    const scene = createScene(count, sizeForDensity(count));
    const contestants = POSE_WAYS.map((way) => ({ way, ...poseContestant(scene, way), times: [] as number[], pairs: -1 }));
    const warmup = count > 10000 ? 3 : 10, frames = count > 10000 ? 20 : 100;
    for (let f = 0; f < warmup + frames; f++) {
      for (let k = 0; k < contestants.length; k++) {
        const c = contestants[(k + f) % contestants.length];
        const t0 = performance.now();
        const pairs = c.frame();
        const dt = performance.now() - t0;
        if (k > 0 && f >= warmup && pairs !== contestants[(f) % contestants.length].pairs) throw new Error(`pose ways disagree at frame ${f}`);
        c.pairs = pairs;
        if (f >= warmup) c.times.push(dt);
      }
      advanceScene(scene);
    }
    const med = (v: number[]) => percentile(v.slice().sort((a, b) => a - b), 0.5);
    const reference = med(contestants.find((c) => c.way === 'store writes + markTransformChanged')!.times);
    for (const c of contestants) {
      rows.push([count.toLocaleString('en-US'), c.way, fmt(med(c.times)), `${(med(c.times) / reference).toFixed(2)}x`]);
      c.dispose();
    }
  }
  return rows;
}

/**
 * Marking against dynamic colliders when few bodies move: each frame a tenth of the boxes (a
 * different tenth each frame) get new poses by direct store writes; "marked" calls
 * markTransformChanged for those, "dynamic" declares every collider dynamic and marks nothing, so
 * every step refits them all. Medians in ms, interleaved, spatial hash, pairs only.
 */
export function dynamicTradeoffRows(): (string | number)[][] {
  const rows: (string | number)[][] = [];
  for (const count of [2000, 100000]) {
    const scene = createScene(count, sizeForDensity(count));
    const runs = [false, true].map((dynamic) => {
      const world: World = createWorld();
      const p = createCollisionPipeline(world);
      const eids = new Int32Array(scene.count);
      const h = scene.half;
      for (let i = 0; i < scene.count; i++) {
        eids[i] = addEntity(world);
        addCollider(world, eids[i], { shape: 'obb', halfExtents: [h[3 * i], h[3 * i + 1], h[3 * i + 2]], sensor: true, dynamic });
        // Every body starts at its place in the scene; afterwards only the movers are written.
        p.transform.position.set(scene.position.subarray(3 * i, 3 * i + 3), 3 * eids[i]);
        p.transform.rotation.set(scene.rotation.subarray(4 * i, 4 * i + 4), 4 * eids[i]);
      }
      const frame = (f: number) => {
        const tp = p.transform.position, tr = p.transform.rotation;
        for (let i = f % 10; i < scene.count; i += 10) {
          const e = eids[i];
          for (let k = 0; k < 3; k++) tp[3 * e + k] = scene.position[3 * i + k];
          for (let k = 0; k < 4; k++) tr[4 * e + k] = scene.rotation[4 * i + k];
          if (!dynamic) markTransformChanged(world, e);
        }
        p.step(world);
        return p.touchingPairs.count;
      };
      return { dynamic, frame, times: [] as number[], pairs: 0, dispose: () => p.destroy() };
    });
    const warmup = count > 10000 ? 3 : 10, frames = count > 10000 ? 20 : 100;
    for (let f = 0; f < warmup + frames; f++) {
      for (let k = 0; k < runs.length; k++) {
        const r = runs[(k + f) % runs.length];
        const t0 = performance.now();
        r.pairs = r.frame(f);
        if (f >= warmup) r.times.push(performance.now() - t0);
      }
      if (runs[0].pairs !== runs[1].pairs) throw new Error(`marked and dynamic disagree at frame ${f}`);
      advanceScene(scene);
    }
    const med = (v: number[]) => percentile(v.slice().sort((a, b) => a - b), 0.5);
    const [marked, dynamic] = runs.map((r) => med(r.times));
    rows.push([count.toLocaleString('en-US'), fmt(marked), fmt(dynamic), `${(dynamic / marked).toFixed(2)}x`]);
    for (const r of runs) r.dispose();
  }
  return rows;
}

/**
 * The `tags` option (the Touching component kept on transitions) against the same pipeline
 * without it, interleaved on the moving-boxes scene (pairs only, spatial hash): medians in ms,
 * the ratio, and the begin + end events per frame that drive the structural changes.
 */
export function tagRows(): (string | number)[][] {
  const rows: (string | number)[][] = [];
  for (const count of [2000, 10000]) {
    const scene = createScene(count, sizeForDensity(count));
    const runs = [false, true].map((tags) => {
      const world: World = createWorld();
      const p = createCollisionPipeline(world, { tags });
      const eids = new Int32Array(scene.count);
      const h = scene.half;
      for (let i = 0; i < scene.count; i++) {
        eids[i] = addEntity(world);
        addCollider(world, eids[i], { shape: 'obb', halfExtents: [h[3 * i], h[3 * i + 1], h[3 * i + 2]], sensor: true });
      }
      const frame = () => {
        for (let i = 0; i < scene.count; i++) {
          setPosition(world, eids[i], scene.position[3 * i], scene.position[3 * i + 1], scene.position[3 * i + 2]);
          setRotation(world, eids[i], scene.rotation[4 * i], scene.rotation[4 * i + 1], scene.rotation[4 * i + 2], scene.rotation[4 * i + 3]);
        }
        p.step(world);
        return p.events.begin.count + p.events.end.count;
      };
      return { tags, frame, times: [] as number[], events: 0, dispose: () => p.destroy() };
    });
    const warmup = 10, frames = 100;
    for (let f = 0; f < warmup + frames; f++) {
      for (let k = 0; k < runs.length; k++) {
        const r = runs[(k + f) % runs.length];
        const t0 = performance.now();
        const events = r.frame();
        const dt = performance.now() - t0;
        if (f >= warmup) {
          r.times.push(dt);
          r.events += events;
        }
      }
      advanceScene(scene);
    }
    const med = (v: number[]) => percentile(v.slice().sort((a, b) => a - b), 0.5);
    const [off, on] = runs.map((r) => med(r.times));
    rows.push([count.toLocaleString('en-US'), fmt(off), fmt(on), `${(on / off).toFixed(2)}x`, fmt(runs[1].events / frames)]);
    for (const r of runs) r.dispose();
  }
  return rows;
}

/** 30-bit Morton code of a point in [0, size)^3 (10 bits per axis). */
function mortonCode(x: number, y: number, z: number, size: number): number {
  const spread = (v: number) => {
    let w = Math.min(1023, Math.max(0, Math.floor((v / size) * 1024)));
    w = (w | (w << 16)) & 0x030000ff;
    w = (w | (w << 8)) & 0x0300f00f;
    w = (w | (w << 4)) & 0x030c30c3;
    return (w | (w << 2)) & 0x09249249;
  };
  return spread(x) | (spread(y) << 1) | (spread(z) << 2);
}

/**
 * Spatial order of the stores: the 100,000-body scene with entity ids given in the boxes' random
 * order against ids given in Morton order of their starting positions, so that the stores, indexed
 * by id, hold neighbours near each other; each world's poses are written in id order. Interleaved;
 * medians in ms of step and each system (with contacts).
 */
export function spatialOrderRows(): (string | number)[][] {
  const count = 100000;
  const scene = createScene(count, sizeForDensity(count));
  const random = Array.from({ length: count }, (_, i) => i);
  const codes = random.map((i) => mortonCode(scene.position[3 * i], scene.position[3 * i + 1], scene.position[3 * i + 2], scene.size));
  const orders: [string, number[]][] = [['random (creation order)', random], ['Morton order of the start', random.slice().sort((a, b) => codes[a] - codes[b])]];
  const runs = orders.map(([name, order]) => {
    const world: World = createWorld();
    const p = createCollisionPipeline(world, { timings: true });
    const eidOf = new Int32Array(count);
    for (const i of order) {
      eidOf[i] = addEntity(world);
      addCollider(world, eidOf[i], { shape: 'obb', halfExtents: [scene.half[3 * i], scene.half[3 * i + 1], scene.half[3 * i + 2]] });
    }
    const times = { step: [] as number[], refit: [] as number[], broad: [] as number[], narrow: [] as number[] };
    const frame = (keep: boolean) => {
      for (const i of order) {
        const e = eidOf[i];
        setPosition(world, e, scene.position[3 * i], scene.position[3 * i + 1], scene.position[3 * i + 2]);
        setRotation(world, e, scene.rotation[4 * i], scene.rotation[4 * i + 1], scene.rotation[4 * i + 2], scene.rotation[4 * i + 3]);
      }
      const t0 = performance.now();
      p.step(world);
      if (!keep) return;
      times.step.push(performance.now() - t0);
      times.refit.push(p.timings.refitVolumes);
      times.broad.push(p.timings.broadPhase);
      times.narrow.push(p.timings.narrowPhase);
    };
    return { name, p, frame, times };
  });
  const warmup = 5, frames = 30;
  for (let f = 0; f < warmup + frames; f++) {
    for (let k = 0; k < runs.length; k++) runs[(k + f) % runs.length].frame(f >= warmup);
    advanceScene(scene);
  }
  const med = (v: number[]) => percentile(v.slice().sort((a, b) => a - b), 0.5);
  const base = med(runs[0].times.step);
  const rows = runs.map((r) => [r.name, fmt(med(r.times.step)), `${(base / med(r.times.step)).toFixed(2)}x`, fmt(med(r.times.refit)), fmt(med(r.times.broad)), fmt(med(r.times.narrow))]);
  for (const r of runs) r.p.destroy();
  return rows;
}

/** One thread against the calling thread plus one worker (this machine has two cores). */
const THREAD_COUNTS = [2000, 10000, 100000];

/**
 * The pipeline on one thread against the same pipeline with a worker pool of one thread whose
 * threads sleep between jobs (the default) and one whose threads poll (spinMs), interleaved on the
 * moving-boxes scene with contacts (setPosition + setRotation per box, then step): medians in ms
 * of the frame, of `step` alone and of each system, with the ratios.
 */
export function threadRows(): { rows: (string | number)[][]; model: (string | number)[][] } {
  const rows: (string | number)[][] = [];
  const model: (string | number)[][] = [];
  for (const count of THREAD_COUNTS) {
    const scene = createScene(count, sizeForDensity(count));
    const runs = [undefined, 0, POLL_MS].map((spinMs) => {
      const world: World = createWorld();
      const p = createCollisionPipeline(world, spinMs !== undefined ? { workers: createWorkerPool(1, { spinMs }), timings: true } : { timings: true });
      const eids = new Int32Array(scene.count);
      const h = scene.half;
      for (let i = 0; i < scene.count; i++) {
        eids[i] = addEntity(world);
        addCollider(world, eids[i], { shape: 'obb', halfExtents: [h[3 * i], h[3 * i + 1], h[3 * i + 2]] });
      }
      const times = { frame: [] as number[], step: [] as number[], refit: [] as number[], broad: [] as number[], narrow: [] as number[] };
      const frame = (keep: boolean) => {
        const t0 = performance.now();
        for (let i = 0; i < scene.count; i++) {
          setPosition(world, eids[i], scene.position[3 * i], scene.position[3 * i + 1], scene.position[3 * i + 2]);
          setRotation(world, eids[i], scene.rotation[4 * i], scene.rotation[4 * i + 1], scene.rotation[4 * i + 2], scene.rotation[4 * i + 3]);
        }
        const t1 = performance.now();
        p.step(world);
        const t2 = performance.now();
        if (!keep) return;
        times.frame.push(t2 - t0);
        times.step.push(t2 - t1);
        times.refit.push(p.timings.refitVolumes);
        times.broad.push(p.timings.broadPhase);
        times.narrow.push(p.timings.narrowPhase);
      };
      return { p, frame, times, contacts: () => p.contacts.count };
    });
    const warmup = count > 50000 ? 5 : 10, frames = count > 50000 ? 30 : 100;
    for (let f = 0; f < warmup + frames; f++) {
      for (let k = 0; k < runs.length; k++) runs[(k + f) % runs.length].frame(f >= warmup);
      advanceScene(scene);
    }
    for (const r of runs.slice(1)) {
      if (runs[0].p.candidates.count !== r.p.candidates.count) throw new Error(`threads: ${r.p.candidates.count} candidates against ${runs[0].p.candidates.count} on one thread`);
      if (runs[0].contacts() !== r.contacts()) throw new Error(`threads: ${r.contacts()} contacts against ${runs[0].contacts()} on one thread`);
    }
    const med = (v: number[]) => percentile(v.slice().sort((a, b) => a - b), 0.5);
    const [one, two, polled] = runs.map((r) => r.times);
    const label = count.toLocaleString('en-US');
    for (const [waits, t] of [['sleep', two], [`poll ${POLL_MS} ms`, polled]] as const) {
      rows.push([label, waits, fmt(med(one.frame)), fmt(med(t.frame)), `${(med(one.frame) / med(t.frame)).toFixed(2)}x`,
        fmt(med(one.step)), fmt(med(t.step)), `${(med(one.step) / med(t.step)).toFixed(2)}x`,
        `${fmt(med(one.refit))} / ${fmt(med(t.refit))}`, `${fmt(med(one.broad))} / ${fmt(med(t.broad))}`, `${fmt(med(one.narrow))} / ${fmt(med(t.narrow))}`]);
    }
    if (count === THREAD_COUNTS[THREAD_COUNTS.length - 1]) {
      // Amdahl per part (see amdahl).
      const parts: [string, number[], number[]][] = [
        ['poses written (user code)', one.frame.map((x, i) => x - one.step[i]), two.frame.map((x, i) => x - two.step[i])],
        ['refit', one.refit, two.refit], ['broad phase', one.broad, two.broad], ['narrow phase', one.narrow, two.narrow],
      ];
      let total1 = 0;
      const predicted = [0, 0, 0];
      for (const [name, a, b] of parts) {
        const t1 = med(a), t2 = med(b);
        const { serial, at } = amdahl(t1, t2);
        total1 += t1;
        [4, 8, 16].forEach((n, k) => (predicted[k] += at(n)));
        model.push([name, fmt(t1), fmt(t2), `${Math.round(100 * serial)}%`, fmt(at(4)), fmt(at(8)), fmt(at(16))]);
      }
      model.push(['frame', fmt(total1), fmt(med(two.frame)), '', fmt(predicted[0]), fmt(predicted[1]), fmt(predicted[2])]);
    }
    for (const r of runs) r.p.destroy();
  }
  return { rows, model };
}

export async function run(): Promise<BenchReport> {
  const rows: (string | number)[][] = [];
  const breakdown: (string | number)[][] = [];
  const agreement: string[] = [];
  // Constant-density scenes form the series plotted against N (scripts/plots.ts); the dense one stands apart.
  const scenes: Record<string, unknown>[] = [];
  let denseScene: Record<string, unknown> | undefined;
  for (const s of SETUPS) {
    const scene = createScene(s.count, s.size);
    const contestants: Contestant[] = OUR_BROAD_PHASES.filter((b) => s.sap || b !== 'sap').map((b) => ours(scene, b, true));
    contestants.push(ours(scene, CONTACTS_BROAD_PHASE, false));
    contestants.push(ours(scene, CONTACTS_BROAD_PHASE, true, 1));
    contestants.push(peer(await createRapierRunner(scene)));
    if (s.cannon) contestants.push(peer(createCannonRunner(scene)));
    for (let frame = 0; frame < s.warmup + s.frames; frame++) {
      for (let k = 0; k < contestants.length; k++) {
        const c = contestants[(k + frame) % contestants.length];
        const t0 = performance.now();
        c.pairs = c.frame();
        const dt = performance.now() - t0;
        if (frame < s.warmup) continue;
        c.times.push(dt);
        if (c.pipeline && c.systemTimes) {
          const t = c.pipeline.timings;
          c.systemTimes[0].push(t.refitVolumes);
          c.systemTimes[1].push(t.broadPhase);
          c.systemTimes[2].push(t.narrowPhase);
        }
      }
      advanceScene(scene);
    }
    const stats = contestants.map((c) => {
      const sorted = c.times.slice().sort((a, b) => a - b);
      return { name: c.name, medianMs: percentile(sorted, 0.5), p95Ms: percentile(sorted, 0.95), pairs: c.pairs };
    });
    const byName = (n: string) => stats.find((x) => x.name === n);
    const oursPairsOnly = stats.filter((x) => x.name.startsWith('ours') && !x.name.includes('contacts') && !x.name.includes('threads'));
    const twoThreads = byName(`ours ${CONTACTS_BROAD_PHASE}, 2 threads polling`)!;
    const best = oursPairsOnly.reduce((a, b) => (b.medianMs < a.medianMs ? b : a));
    const rapier = byName('Rapier'), cannon = byName('cannon-es');
    const cell = (x: { medianMs: number; p95Ms: number } | undefined) => (x ? `${fmt(x.medianMs)} / ${fmt(x.p95Ms)}` : 'not run');
    rows.push([
      s.label,
      ...OUR_BROAD_PHASES.map((b) => cell(byName(`ours ${b}`))),
      cell(byName(`ours ${CONTACTS_BROAD_PHASE} +contacts`)),
      cell(twoThreads),
      cell(rapier),
      cell(cannon),
      `${best.pairs} / ${rapier?.pairs ?? '—'} / ${cannon?.pairs ?? '—'}`,
      rapier ? `${(rapier.medianMs / best.medianMs).toFixed(1)}x (${best.name.slice(5)})` : '—',
      rapier ? `${(rapier.medianMs / twoThreads.medianMs).toFixed(1)}x` : '—',
    ]);
    if (twoThreads.pairs !== best.pairs) throw new Error(`${s.label}: ${twoThreads.pairs} pairs on two threads against ${best.pairs} on one`);
    // Where our time goes, for the best pairs-only configuration.
    const bestC = contestants.find((c) => c.name === best.name)!;
    const med = (v: number[]) => percentile(v.slice().sort((a, b) => a - b), 0.5);
    const [refit, broad, narrow] = bestC.systemTimes!.map(med);
    breakdown.push([s.label, best.name.slice(5), fmt(best.medianMs), fmt(best.medianMs - refit - broad - narrow), fmt(refit), fmt(broad), fmt(narrow)]);
    const oursKeys = bestC.pairKeys!();
    for (const c of contestants) {
      if (c.pipeline || !c.pairKeys) continue;
      const [onlyOurs, onlyPeer] = difference(oursKeys, c.pairKeys());
      agreement.push(`${s.label} vs ${c.name}: ${onlyOurs} pairs only ours, ${onlyPeer} only theirs (of ${oursKeys.length})`);
    }
    const sceneData = { setup: s.label, count: s.count, size: s.size, frames: s.frames, stats, breakdown: { refit, broad, narrow } };
    if (s.dense) denseScene = sceneData;
    else scenes.push(sceneData);
    for (const c of contestants) c.dispose();
    console.log(rows[rows.length - 1].join(' | '));
  }
  const originShift = originShiftRows();
  console.log(originShift.map((r) => r.join(' | ')).join('\n'));
  const poseWays = poseWayRows();
  console.log(poseWays.map((r) => r.join(' | ')).join('\n'));
  const dynamicTradeoff = dynamicTradeoffRows();
  console.log(dynamicTradeoff.map((r) => r.join(' | ')).join('\n'));
  const tagCost = tagRows();
  console.log(tagCost.map((r) => r.join(' | ')).join('\n'));
  const threads = threadRows();
  console.log(threads.rows.map((r) => r.join(' | ')).join('\n'));
  const spatialOrder = spatialOrderRows();
  console.log(spatialOrder.map((r) => r.join(' | ')).join('\n'));
  const markdown = [
    'Milliseconds per frame, median / p95 (setTransform per box + step for ours; set poses + step for the peers). ' +
      'Ratio = Rapier median / our best pairs-only median on the calling thread; on two threads, the spatial hash pairs only with ' +
      `\`createWorkerPool(1, { spinMs: ${POLL_MS} })\` (threads polling between jobs; this machine has two cores; Rapier's JavaScript builds run on one).`,
    '',
    markdownTable(
      ['scene', 'ours sap', 'ours spatialHash', `ours ${CONTACTS_BROAD_PHASE} + contacts`, `ours ${CONTACTS_BROAD_PHASE}, 2 threads polling`, 'Rapier', 'cannon-es', 'pairs ours / Rapier / cannon', 'Rapier / ours', 'Rapier / ours, 2 threads'],
      rows,
    ),
    '',
    'Our best pairs-only configuration per system (medians, ms; "set" = setTransform calls and overhead):',
    '',
    markdownTable(['scene', 'broad phase', 'frame', 'set', 'refit', 'broad', 'narrow'], breakdown),
    '',
    'Pair-set agreement on the last frame:',
    '',
    ...agreement.map((a) => `- ${a}`),
    '',
    'World origin shift (docs/precision.md): one `shiftWorldOrigin` call, and a frame (poses + step) with a shift before it ' +
      'against one without, medians in ms:',
    '',
    markdownTable(['bodies', 'shiftWorldOrigin', 'frame', 'frame after a shift', 'ratio'], originShift),
    '',
    'Ways of giving the pipeline its poses (the user code writing the poses + `step`; pairs only, spatial hash; medians in ms; ' +
      'ratio to direct store writes with markTransformChanged). Dynamic colliders are refit every step with no marking; ' +
      '"own components" are the game\'s own Float32 position / rotation components, read in place by the pipeline:',
    '',
    markdownTable(['bodies', 'poses written by', 'frame', 'ratio'], poseWays),
    '',
    'Marking against dynamic colliders when a tenth of the bodies move each frame (direct store writes for the movers; ' +
      'markTransformChanged for them, or every collider dynamic and nothing marked; medians in ms):',
    '',
    markdownTable(['bodies', 'frame, marked', 'frame, all dynamic', 'ratio'], dynamicTradeoff),
    '',
    'The `tags` option (the Touching component, added and removed on transitions) against the same pipeline without it ' +
      '(setPosition + setRotation + step, pairs only, spatial hash; medians in ms):',
    '',
    markdownTable(['bodies', 'frame, tags off', 'frame, tags on', 'ratio', 'begin + end events per frame'], tagCost),
    '',
    `Worker threads: the same pipeline (with contacts) on the calling thread alone and with \`createWorkerPool(1)\` (two threads; this machine has two cores), its threads sleeping between jobs (the default) or polling for ${POLL_MS} ms (\`spinMs: ${POLL_MS}\`), interleaved; medians in ms. The refit, the spatial hash (its sort by lower x, classification, bucket fill and scans) and the narrow phase run on the pool from ${PARALLEL_MIN_COLLIDERS.toLocaleString('en-US')} changed colliders, ${PARALLEL_MIN_DYNAMIC_BOXES.toLocaleString('en-US')} dynamic colliders and ${PARALLEL_MIN_CANDIDATES.toLocaleString('en-US')} candidate pairs with sleeping threads, from ${POLLING_MIN_COLLIDERS.toLocaleString('en-US')}, ${POLLING_MIN_DYNAMIC_BOXES.toLocaleString('en-US')} and ${POLLING_MIN_CANDIDATES.toLocaleString('en-US')} with polling ones, each job split where the threads' parts end together. All runs report the same contacts.`,
    '',
    markdownTable(['bodies', 'threads between jobs', 'frame, 1 thread', 'frame, 2 threads', 'ratio', 'step, 1 thread', 'step, 2 threads', 'ratio', 'refit 1 / 2', 'broad 1 / 2', 'narrow 1 / 2'], threads.rows),
    '',
    `Scaling model at ${THREAD_COUNTS[THREAD_COUNTS.length - 1].toLocaleString('en-US')} bodies (Amdahl's law per part, from its one- and two-thread medians, the threads sleeping between jobs: serial share s = 1 - 2(1 - t2/t1), then t1·(s + (1 - s)/n) on n cores; the model ignores memory bandwidth, which a machine shares between its cores):`,
    '',
    markdownTable(['part', '1 thread', '2 threads', 'serial share', '4 cores', '8 cores', '16 cores'], threads.model),
    '',
    'Spatial order of the stores at 100,000 bodies (one thread, with contacts): entity ids in the boxes\' random creation order against ids in Morton order of their starting positions, so the id-indexed stores hold neighbours together (poses written in id order in both); medians in ms:',
    '',
    markdownTable(['ids in', 'step', 'speed-up', 'refit', 'broad', 'narrow'], spatialOrder),
  ].join('\n');
  return { name: 'pipeline', markdown, data: { scenes, denseScene, originShift, poseWays, dynamicTradeoff, tagCost, threads, spatialOrder } };
}
