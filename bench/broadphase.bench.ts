/**
 * Broad phase: milliseconds per `findPairs` call on a moving scene of boxes (half-extents in
 * [0.5, 2], centres in a cube of edge 100 for 2,000 boxes, the edge scaled with the cube root of
 * the count so density stays the same), every box drifting a little each frame and bouncing off
 * the cube's walls; then the same with mixed sizes, and a static level (a floor of touching static
 * tiles under moving boxes). Each algorithm steps its own copy of the same scene, so stateful
 * algorithms see a true frame sequence; all copies stay in lockstep, so their pair counts must agree.
 */
import type { BroadPhase, BroadPhaseInput } from '../src/broadphase/broadPhase';
import { createBruteForce } from '../src/broadphase/bruteForce';
import { createDynamicAabbTree } from '../src/broadphase/dynamicAabbTree';
import { createKdTree } from '../src/broadphase/kdTree';
import { createOctree } from '../src/broadphase/octree';
import { PairList } from '../src/broadphase/pairList';
import { createSpatialHash } from '../src/broadphase/spatialHash';
import { createSweepAndPrune } from '../src/broadphase/sweepAndPrune';
import { mulberry32 } from '../scenes/random';
import { markdownTable, runInterleaved, type BenchCase } from './harness';
import type { BenchReport } from './harness';

const ALGORITHMS: (() => BroadPhase)[] = [
  createBruteForce,
  createSweepAndPrune,
  createSpatialHash,
  createDynamicAabbTree,
  createKdTree,
  createOctree,
];
const COUNTS = [2000, 10000];
/** Largest per-frame displacement on each axis. */
const MAX_SPEED = 0.1;

interface MovingScene extends BroadPhaseInput {
  boxes: Float64Array;
  velocity: Float64Array;
  half: Float64Array;
  edge: number;
}

/** The mixed-size scene: this share of the boxes is this many times larger (walls, vehicles, props among small bodies). */
const MIXED_SHARE = 0.1;
const MIXED_SCALE = 10;
const MIXED_COUNT = 10000;

function makeScene(n: number, seed: number, largeShare = 0): MovingScene {
  const rand = mulberry32(seed);
  const edge = 100 * Math.cbrt(n / 2000);
  const ids = new Int32Array(n);
  const boxes = new Float64Array(n * 6);
  const velocity = new Float64Array(n * 3);
  const half = new Float64Array(n * 3);
  for (let i = 0; i < n; i++) {
    ids[i] = i;
    const scale = rand() < largeShare ? MIXED_SCALE : 1;
    for (let k = 0; k < 3; k++) {
      const h = (0.5 + 1.5 * rand()) * scale;
      const c = edge * rand();
      half[i * 3 + k] = h;
      boxes[i * 6 + k] = c - h;
      boxes[i * 6 + 3 + k] = c + h;
      velocity[i * 3 + k] = (2 * rand() - 1) * MAX_SPEED;
    }
  }
  return {
    ids,
    count: n,
    boxes,
    isStatic: new Uint8Array(n),
    layer: new Uint32Array(n).fill(1),
    mask: new Uint32Array(n).fill(0xffffffff),
    velocity,
    half,
    edge,
  };
}

/** The static level: a floor of touching static tiles (half-extents 1, 0.2, 1 on a grid of 2), boxes moving above it. */
const LEVEL_TILES_PER_SIDE = 100;
const LEVEL_MOVING = 1000;
const LEVEL_HEIGHT = 20;

function makeStaticLevelScene(seed: number): MovingScene {
  const rand = mulberry32(seed);
  const tiles = LEVEL_TILES_PER_SIDE * LEVEL_TILES_PER_SIDE;
  const n = tiles + LEVEL_MOVING;
  const edge = 2 * LEVEL_TILES_PER_SIDE;
  const boxes = new Float64Array(n * 6), velocity = new Float64Array(n * 3), half = new Float64Array(n * 3);
  const isStatic = new Uint8Array(n);
  for (let t = 0; t < tiles; t++) {
    const cx = 2 * (t % LEVEL_TILES_PER_SIDE) + 1, cz = 2 * Math.floor(t / LEVEL_TILES_PER_SIDE) + 1;
    boxes.set([cx - 1, -0.4, cz - 1, cx + 1, 0, cz + 1], t * 6);
    isStatic[t] = 1;
  }
  for (let i = tiles; i < n; i++) {
    for (let k = 0; k < 3; k++) {
      const h = 0.5 + 1.5 * rand();
      const c = (k === 1 ? LEVEL_HEIGHT : edge) * rand();
      half[i * 3 + k] = h;
      boxes[i * 6 + k] = c - h;
      boxes[i * 6 + 3 + k] = c + h;
      velocity[i * 3 + k] = (2 * rand() - 1) * MAX_SPEED;
    }
  }
  const ids = Int32Array.from({ length: n }, (_, i) => i);
  return { ids, count: n, boxes, isStatic, layer: new Uint32Array(n).fill(1), mask: new Uint32Array(n).fill(0xffffffff), velocity, half, edge };
}

function step(s: MovingScene): void {
  const { boxes, velocity, half } = s;
  for (let i = 0; i < s.count; i++) {
    // Static boxes stay exactly as they are (recomputing them from their centre could move them by rounding).
    if (s.isStatic[i] === 1) continue;
    for (let k = 0; k < 3; k++) {
      let c = (boxes[i * 6 + k] + boxes[i * 6 + 3 + k]) / 2 + velocity[i * 3 + k];
      if (c < 0 || c > s.edge) {
        velocity[i * 3 + k] = -velocity[i * 3 + k];
        c = Math.min(s.edge, Math.max(0, c));
      }
      boxes[i * 6 + k] = c - half[i * 3 + k];
      boxes[i * 6 + 3 + k] = c + half[i * 3 + k];
    }
  }
}

interface Row {
  algorithm: string;
  boxes: number;
  medianMs: number;
  p95Ms: number;
  pairs: number;
}

/** Times every algorithm on the same moving scene, interleaved; all must find the same pairs. */
function measure(n: number, largeShare: number, staticLevel = false): Row[] {
  const cases: BenchCase[] = ALGORITHMS.map((create) => {
    const algorithm = create();
    const scene = staticLevel ? makeStaticLevelScene(12345) : makeScene(n, 12345, largeShare);
    const out = new PairList();
    return {
      name: algorithm.name,
      ops: 1,
      run: () => {
        step(scene);
        algorithm.findPairs(scene, out);
        return out.count;
      },
    };
  });
  const results = runInterleaved(cases, { warmupSamples: 5, samples: 30 });
  const pairs = results[0].checksum;
  return results.map((r) => {
    if (r.checksum !== pairs) throw new Error(`broadphase bench: ${r.name} found ${r.checksum} pairs, ${results[0].name} ${pairs}`);
    return { algorithm: r.name, boxes: staticLevel ? LEVEL_TILES_PER_SIDE ** 2 + LEVEL_MOVING : n, medianMs: r.medianMs, p95Ms: r.p95Ms, pairs: r.checksum };
  });
}

export function run(): BenchReport {
  const rows = COUNTS.flatMap((n) => measure(n, 0));
  const mixed = measure(MIXED_COUNT, MIXED_SHARE);
  const level = measure(0, 0, true);
  const table = (list: Row[]) => markdownTable(
    ['algorithm', 'boxes', 'ms per frame (median)', 'p95', 'pairs'],
    list.map((r) => [r.algorithm, r.boxes, r.medianMs.toFixed(3), r.p95Ms.toFixed(3), r.pairs]),
  );
  return {
    name: 'broadphase',
    markdown: [
      table(rows),
      '',
      `Mixed sizes: ${MIXED_COUNT} boxes as above, ${100 * MIXED_SHARE}% of them ${MIXED_SCALE} times larger (the spatial hash puts them on coarser levels of its hierarchy).`,
      '',
      table(mixed),
      '',
      `Static level: a floor of ${LEVEL_TILES_PER_SIDE * LEVEL_TILES_PER_SIDE} static tiles (each touching its neighbours) under ${LEVEL_MOVING} moving boxes as above (heights up to ${LEVEL_HEIGHT}); static-static pairs are never reported. Every algorithm but the brute force keeps the statics in a structure of their own, rebuilt only when they change, which the moving boxes query and which never queries itself.`,
      '',
      table(level),
    ].join('\n'),
    // `rows` first: the plots read the first array of sized rows (the uniform scenes).
    data: { rows, mixed, level },
  };
}
