import { addEntity, createWorld, type World } from 'bitecs';
import { describe, expect, it } from 'vitest';
import { CONTACT_COUNT, CONTACT_DEPTH, CONTACT_NORMAL, CONTACT_STRIDE } from '../../src/contacts/manifold';
import { BROAD_PHASE_NAMES, resolveBroadPhase } from '../../systems/broadPhaseNames';
import { addCollider, setTransform, type ColliderDescription } from '../../systems/colliderApi';
import type { BroadPhaseName, CollisionPipeline } from '../../systems/collisionState';
import { createCollisionPipeline } from '../../systems/pipeline';
import { advanceScene, randomScene, referencePairs, referenceShape, type Body, type BodyKind } from '../support/pipelineScene';
import { mulberry32 } from '../../scenes/random';

/** Every algorithm once ('sweepAndPrune' is an alias of 'sap'). */
const ALGORITHMS = BROAD_PHASE_NAMES.filter((n) => n !== 'sweepAndPrune');

interface Run {
  name: BroadPhaseName;
  world: World;
  p: CollisionPipeline;
  eids: number[];
  indexOf: Map<number, number>;
}

function createRun(name: BroadPhaseName, bodies: Body[], sensorEvery: number, margin = 0, staticEvery = 0): Run {
  const world = createWorld();
  const p = createCollisionPipeline(world, { broadPhase: resolveBroadPhase(name), aabbMargin: margin });
  const eids: number[] = [];
  const indexOf = new Map<number, number>();
  bodies.forEach((b, i) => {
    const e = addEntity(world);
    addCollider(world, e, { ...b.desc, sensor: sensorEvery > 0 && i % sensorEvery === 0, isStatic: isStaticBody(i, staticEvery) });
    eids.push(e);
    indexOf.set(e, i);
  });
  return { name, world, p, eids, indexOf };
}

/** The run's touching pairs as scene-index keys, checking on the way that they are sorted with a < b. */
function scenePairs(run: Run): string[] {
  const t = run.p.touchingPairs;
  const keys: string[] = [];
  for (let k = 0; k < t.count; k++) {
    const a = t.a[k], b = t.b[k];
    if (!(a < b)) throw new Error(`${run.name}: pair (${a}, ${b}) not ordered`);
    if (k > 0 && (t.a[k - 1] > a || (t.a[k - 1] === a && t.b[k - 1] >= b))) throw new Error(`${run.name}: pairs not sorted at ${k}`);
    const i = run.indexOf.get(a)!, j = run.indexOf.get(b)!;
    keys.push(i < j ? `${i},${j}` : `${j},${i}`);
  }
  return keys;
}

/** Contacts must be exactly the touching pairs without a sensor, with unit normals and non-negative depths. */
function checkContacts(run: Run, bodies: Body[], sensorEvery: number): void {
  const t = run.p.touchingPairs, c = run.p.contacts;
  const expected: string[] = [];
  for (let k = 0; k < t.count; k++) {
    const i = run.indexOf.get(t.a[k])!, j = run.indexOf.get(t.b[k])!;
    if (sensorEvery === 0 || (i % sensorEvery !== 0 && j % sensorEvery !== 0)) expected.push(`${t.a[k]},${t.b[k]}`);
  }
  const got: string[] = [];
  for (let k = 0; k < c.count; k++) {
    got.push(`${c.a[k]},${c.b[k]}`);
    const m = k * CONTACT_STRIDE;
    const n = Math.hypot(c.manifold[m + CONTACT_NORMAL], c.manifold[m + CONTACT_NORMAL + 1], c.manifold[m + CONTACT_NORMAL + 2]);
    expect(Math.abs(n - 1)).toBeLessThan(1e-5);
    expect(c.manifold[m + CONTACT_DEPTH]).toBeGreaterThanOrEqual(0);
    expect(c.manifold[m + CONTACT_COUNT]).toBeGreaterThanOrEqual(1);
  }
  expect(got).toEqual(expected);
  void bodies;
}

interface Scenario {
  name: string;
  kinds: BodyKind[];
  count: number;
  size: number;
  frames: number;
  seed: number;
  sensorEvery: number;
  margin?: number;
  /** Every this many bodies one is static (0: none); statics are posed only every `staticPoseEvery` frames, so static structures are kept in between. */
  staticEvery?: number;
  staticPoseEvery?: number;
  /** The scene must produce at least this many sure touching pair-frames (so the test cannot pass vacuously). */
  minSurePairFrames: number;
}

const SCENARIOS: Scenario[] = [
  { name: 'OBBs, N=300 in [0,100]^3, 200 frames', kinds: ['obb'], count: 300, size: 100, frames: 200, seed: 1, sensorEvery: 3, minSurePairFrames: 200 },
  { name: 'OBBs, dense N=300 in [0,22]^3, 60 frames', kinds: ['obb'], count: 300, size: 22, frames: 60, seed: 2, sensorEvery: 2, minSurePairFrames: 10000 },
  { name: 'mixed sphere/capsule/AABB/OBB, N=300 in [0,100]^3, 200 frames', kinds: ['sphere', 'capsule', 'aabb', 'obb'], count: 300, size: 100, frames: 200, seed: 3, sensorEvery: 5, minSurePairFrames: 200 },
  { name: 'mixed, dense N=240 in [0,20]^3, 40 frames, fat margin 0.3', kinds: ['sphere', 'capsule', 'aabb', 'obb'], count: 240, size: 20, frames: 40, seed: 4, sensorEvery: 4, margin: 0.3, minSurePairFrames: 4000 },
  { name: 'mixed, dense N=240 in [0,20]^3, a third static and posed every 7th frame, 40 frames', kinds: ['sphere', 'capsule', 'aabb', 'obb'], count: 240, size: 20, frames: 40, seed: 5, sensorEvery: 4, staticEvery: 3, staticPoseEvery: 7, minSurePairFrames: 2000 },
];

function isStaticBody(index: number, staticEvery = 0): boolean {
  return staticEvery > 0 && index % staticEvery === 0;
}

describe('pipeline pair set equals an independent all-pairs reference at every frame', () => {
  for (const s of SCENARIOS) {
    it(`${s.name}, every broad phase`, () => {
      const rand = mulberry32(s.seed);
      const bodies = randomScene(rand, { count: s.count, kinds: s.kinds, size: s.size });
      const runs = ALGORITHMS.map((name) => createRun(name, bodies, s.sensorEvery, s.margin, s.staticEvery));
      let surePairFrames = 0, ambiguous = 0;
      for (let frame = 0; frame < s.frames; frame++) {
        for (const run of runs) {
          bodies.forEach((b, i) => {
            if (!isStaticBody(i, s.staticEvery) || frame % (s.staticPoseEvery ?? 1) === 0) setTransform(run.world, run.eids[i], b.position, b.rotation);
          });
          run.p.step(run.world);
        }
        const t = runs[0].p.transform;
        const ref = referencePairs(bodies.map((b, i) => referenceShape(b.desc, t, runs[0].eids[i])));
        // Two statics never pair.
        for (const set of [ref.sure, ref.either]) {
          for (const key of set) {
            const [i, j] = key.split(',').map(Number);
            if (isStaticBody(i, s.staticEvery) && isStaticBody(j, s.staticEvery)) set.delete(key);
          }
        }
        surePairFrames += ref.sure.size;
        ambiguous += ref.either.size;
        for (const run of runs) {
          const got = new Set(scenePairs(run));
          const missing = [...ref.sure].filter((k) => !got.has(k));
          const extra = [...got].filter((k) => !ref.sure.has(k) && !ref.either.has(k));
          expect({ algorithm: run.name, frame, missing, extra }).toEqual({ algorithm: run.name, frame, missing: [], extra: [] });
          checkContacts(run, bodies, s.sensorEvery);
        }
        advanceScene(bodies, s.size);
      }
      expect(surePairFrames).toBeGreaterThanOrEqual(s.minSurePairFrames);
      // The band must stay a rare exception, or the comparison would say little.
      expect(ambiguous).toBeLessThan(0.01 * surePairFrames + 5);
    });
  }
});

/** Two bodies at given transforms; `exact` = touching exactly (representable values), else apart by a tiny gap. */
interface TouchCase {
  name: string;
  a: ColliderDescription;
  b: ColliderDescription;
  pa: number[];
  pb: number[];
  qa?: number[];
  qb?: number[];
}

/** 2^-10: exactly representable, far above the rounding of coordinates near 10 (~1e-6), far below the sizes. */
const APART = 2 ** -10;

const TOUCH_CASES: TouchCase[] = [
  { name: 'OBB face to face', a: { shape: 'obb', halfExtents: [1, 1, 1] }, b: { shape: 'obb', halfExtents: [1, 0.5, 2] }, pa: [10, 10, 10], pb: [12, 10.5, 10] },
  { name: 'OBB face to face, flipped 180° about x and y', a: { shape: 'obb', halfExtents: [1, 2, 1] }, b: { shape: 'obb', halfExtents: [0.5, 1, 1] }, pa: [10, 10, 10], pb: [10, 13, 10.25], qa: [1, 0, 0, 0], qb: [0, 1, 0, 0] },
  { name: 'OBB edge to edge', a: { shape: 'obb', halfExtents: [1, 1, 1] }, b: { shape: 'obb', halfExtents: [1, 1, 1] }, pa: [10, 10, 10], pb: [12, 12, 10] },
  { name: 'AABB corner to corner', a: { shape: 'aabb', halfExtents: [1, 1, 1] }, b: { shape: 'aabb', min: [-1, -1, -1], max: [1, 1, 1] }, pa: [10, 10, 10], pb: [12, 12, 12] },
  { name: 'AABB face to OBB face', a: { shape: 'aabb', halfExtents: [1, 1, 1] }, b: { shape: 'obb', halfExtents: [1, 1, 1] }, pa: [10, 10, 10], pb: [10, 10, 12] },
  { name: 'sphere to sphere', a: { shape: 'sphere', radius: 1 }, b: { shape: 'sphere', radius: 2 }, pa: [10, 10, 10], pb: [13, 10, 10] },
  { name: 'sphere to OBB face', a: { shape: 'obb', halfExtents: [1, 1, 1] }, b: { shape: 'sphere', radius: 1 }, pa: [10, 10, 10], pb: [10, 12, 10] },
  { name: 'sphere to AABB face', a: { shape: 'sphere', radius: 0.5 }, b: { shape: 'aabb', halfExtents: [1, 1, 1] }, pa: [10, 10, 11.5], pb: [10, 10, 10] },
  { name: 'capsule side to OBB face', a: { shape: 'obb', halfExtents: [1, 1, 1] }, b: { shape: 'capsule', p0: [0, -1, 0], p1: [0, 1, 0], radius: 1 }, pa: [10, 10, 10], pb: [12, 10, 10] },
  { name: 'capsule side to AABB face', a: { shape: 'capsule', p0: [0, 0, -1], p1: [0, 0, 1], radius: 0.5 }, b: { shape: 'aabb', halfExtents: [1, 1, 1] }, pa: [10, 11.5, 10], pb: [10, 10, 10] },
  { name: 'capsule to capsule, parallel', a: { shape: 'capsule', p0: [0, -1, 0], p1: [0, 1, 0], radius: 1 }, b: { shape: 'capsule', p0: [0, -1, 0], p1: [0, 1, 0], radius: 1 }, pa: [10, 10, 10], pb: [12, 10.5, 10] },
  { name: 'capsule end to sphere', a: { shape: 'capsule', p0: [0, -1, 0], p1: [0, 1, 0], radius: 0.5 }, b: { shape: 'sphere', radius: 1 }, pa: [10, 10, 10], pb: [10, 12.5, 10] },
];

/** Steps a two-body world and returns [touching pair count, contact count, contact depth]. */
function stepPair(name: BroadPhaseName, c: TouchCase, sensor: boolean, shift: number): [number, number, number] {
  const world = createWorld();
  const p = createCollisionPipeline(world, { broadPhase: resolveBroadPhase(name) });
  const a = addEntity(world), b = addEntity(world);
  addCollider(world, a, { ...c.a, sensor });
  addCollider(world, b, c.b);
  setTransform(world, a, c.pa, c.qa);
  // Move b away from a along the centre line by `shift`.
  const d = c.pb.map((v, k) => v - c.pa[k]);
  const n = Math.hypot(d[0], d[1], d[2]);
  setTransform(world, b, c.pb.map((v, k) => v + (shift * d[k]) / n), c.qb);
  p.step(world);
  return [p.touchingPairs.count, p.contacts.count, p.contacts.count > 0 ? p.contacts.manifold[CONTACT_DEPTH] : NaN];
}

describe('exactly touching shapes are reported, shapes a hair apart are not', () => {
  for (const c of TOUCH_CASES) {
    it(c.name, () => {
      for (const name of ALGORITHMS) {
        const [sensorTouch] = stepPair(name, c, true, 0);
        expect({ name, sensorTouch }).toEqual({ name, sensorTouch: 1 });
        const [touch, contacts, depth] = stepPair(name, c, false, 0);
        expect({ name, touch, contacts }).toEqual({ name, touch: 1, contacts: 1 });
        expect(Math.abs(depth)).toBeLessThan(1e-6);
        expect(stepPair(name, c, true, APART)[0]).toBe(0);
        expect(stepPair(name, c, false, APART).slice(0, 2)).toEqual([0, 0]);
      }
    });
  }
});
