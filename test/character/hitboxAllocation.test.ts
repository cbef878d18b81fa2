/**
 * Garbage the hitbox queries leave per call: rays (present and rewound) and melee sweeps (box and
 * capsule weapons, first contact and one per character, on a store and on a pipeline). Each query
 * is made up front, so that the loops pass no number of their own: V8 boxes a double passed to a
 * call it does not inline, and that would count here.
 */
import { addEntity, createWorld } from 'bitecs';
import { beforeAll, describe, expect, it } from 'vitest';
import { createHitboxRayHit, raycastHitboxes, raycastHitboxesAt } from '../../src/character/hitboxRaycast';
import { createHitboxHistory, recordHitboxHistory } from '../../src/character/hitboxHistory';
import { beginHitboxMotion, createHitboxMotion, finishHitboxMotion } from '../../src/character/hitboxMotion';
import { createHitboxSweepHits, createSweepQuery, setSweepCapsule, setSweepObb, sweepHitboxes, sweepHitboxesAll } from '../../src/character/hitboxSweep';
import { createHitboxHit } from '../../src/character/hitboxHit';
import { updateHitboxes } from '../../src/character/hitboxUpdate';
import { computeWorldMatrices } from '../../src/character/skeleton';
import { buildCharacterRayGrid } from '../../src/character/rayGrid';
import { createRayQuery, setRay } from '../../src/query/rayQuery';
import { quaternionToAxes } from '../../scenes/random';
import { setPosition } from '../../systems/colliderApi';
import { addCharacterCollider } from '../../systems/characters';
import { createCollisionPipeline } from '../../systems/pipeline';
import { sweepCharacters, sweepCharactersAll } from '../../systems/characterSweep';
import { crowdScene, def, fitted, humanoid } from '../support/hitboxRays';
import { leastBytesPerCall } from '../support/allocation';

const CROWD = 100, SIDE = Math.sqrt(10 * CROWD), N = 256;
const { skeletons, store, grid, rand } = crowdScene(11, CROWD, SIDE);
const first = skeletons.firstBone;

// Four frames of the walk: a history for the rewound rays, the last two as the sweeps' motion.
const history = createHitboxHistory(8);
const motion = createHitboxMotion();
for (let f = 0; f < 4; f++) {
  beginHitboxMotion(motion, store);
  for (let c = 0; c < CROWD; c++) {
    humanoid.animate((c * 0.37 + f / 30) % humanoid.duration, skeletons.translation.subarray(3 * first[c]), skeletons.rotation.subarray(4 * first[c]), skeletons.scale.subarray(3 * first[c]));
  }
  computeWorldMatrices(skeletons);
  updateHitboxes(store, skeletons);
  finishHitboxMotion(motion, store);
  recordHitboxHistory(history, store, f / 30);
}
buildCharacterRayGrid(grid, store);

const rays = Array.from({ length: N }, () => {
  const q = createRayQuery({ maxDistance: 40 });
  return setRay(q, SIDE * rand(), 2 * rand(), SIDE * rand(), rand() - 0.5, 0.3 * (rand() - 0.5), rand() - 0.5);
});
const times = Float64Array.from({ length: N }, () => 0.05 + 0.04 * rand());

/** Swings of a blade (a thin box, or its capsule) about a character, start and end poses: box layout at 30i, 30i + 15. */
const swings = new Float64Array(30 * N);
const blades = new Float64Array(14 * N);
for (let i = 0; i < N; i++) {
  const c = Math.floor(rand() * CROWD), around = rand() * 2 * Math.PI;
  const hx = skeletons.characterMatrix[16 * c + 12] + Math.cos(around), hz = skeletons.characterMatrix[16 * c + 14] + Math.sin(around);
  const a0 = around + 0.5 * Math.PI - rand(), sweep = 0.5 * Math.PI * (1 + rand());
  for (let e = 0; e < 2; e++) {
    const a = a0 + e * sweep, ux = Math.cos(a), uz = Math.sin(a), y = 1.2 + (rand() - 0.5) * 0.4;
    const axes = quaternionToAxes([0, Math.sin(-a / 2), 0, Math.cos(-a / 2)]);
    swings.set([hx + 0.6 * ux, y, hz + 0.6 * uz, ...axes, 0.45, 0.004, 0.02], 30 * i + 15 * e);
    for (let k = 0; k < 3; k++) {
      blades[14 * i + 7 * e + k] = swings[30 * i + 15 * e + k] - 0.45 * axes[k];
      blades[14 * i + 7 * e + 3 + k] = swings[30 * i + 15 * e + k] + 0.45 * axes[k];
    }
    blades[14 * i + 7 * e + 6] = 0.03;
  }
}
const boxSweeps = Array.from({ length: N }, (_, i) => setSweepObb(createSweepQuery(), swings, 30 * i, swings, 30 * i + 15));
const capsuleSweeps = Array.from({ length: N }, (_, i) => setSweepCapsule(createSweepQuery(), blades, 14 * i, blades, 14 * i + 7));

const rayHit = createHitboxRayHit(), hit = createHitboxHit(), hits = createHitboxSweepHits(8);

/** Bytes per call of `query` over the prepared inputs, after warming up. */
function bytesPerCall(query: (i: number) => boolean, n = 10_000): number {
  const run = (count: number): number => {
    let found = 0;
    for (let i = 0; i < count; i++) if (query(i & (N - 1))) found++;
    return found;
  };
  run(3 * n);
  return leastBytesPerCall(run, n, 4, n / 20);
}

// Bytes of heap a query leaves, least of four runs after warming up, under vitest (from sources).
// The kernels pass their numbers in arrays (sweepClock, the ray's array, the grid walk's steps),
// the groups mask goes as an int32, and no `ok ? x : Infinity` remains on the hot paths (V8 boxed
// x there): docs/design/hitboxes.md. "Before": these tests on the code before that.
describe('garbage per hitbox query', () => {
  // Every query warmed up first: the sweeps share their kernels, which V8 optimizes again as new
  // callers come (a query measured first, before the others ran, left more).
  beforeAll(() => {
    for (let r = 0; r < 8; r++) {
      for (let i = 0; i < 2000; i++) {
        const j = i & (N - 1);
        raycastHitboxes(rayHit, store, grid, rays[j]);
        raycastHitboxesAt(rayHit, history, store, rays[j], times[j]);
        sweepHitboxes(hit, store, motion, boxSweeps[j]);
        sweepHitboxes(hit, store, motion, capsuleSweeps[j]);
        sweepHitboxesAll(hits, store, motion, boxSweeps[j]);
        sweepHitboxesAll(hits, store, motion, capsuleSweeps[j]);
      }
    }
  });

  it('raycastHitboxes', () => {
    // measured 1.5 to 2.2 (398 before)
    expect(bytesPerCall((i) => raycastHitboxes(rayHit, store, grid, rays[i]))).toBeLessThan(48);
  });

  it('raycastHitboxesAt', () => {
    // measured 19: the time, passed in as a number and on to locateTime (one double boxed; a
    // caller that does not inline raycastHitboxesAt boxes it at its own call anyway) (495 before)
    expect(bytesPerCall((i) => raycastHitboxesAt(rayHit, history, store, rays[i], times[i]))).toBeLessThan(64);
  });

  it.each([
    // measured 2.8 to 3.4 (2,985 before)
    ['capsule', capsuleSweeps, 48],
    // measured 3.0 to 3.3 (839 before)
    ['box', boxSweeps, 48],
  ] as const)('sweepHitboxes, %s weapon', (_name, sweeps, bound) => {
    expect(bytesPerCall((i) => sweepHitboxes(hit, store, motion, sweeps[i]), 4000)).toBeLessThan(bound);
  });

  it('sweepHitboxesAll', () => {
    // measured 3.4 to 3.6 (938 before)
    expect(bytesPerCall((i) => sweepHitboxesAll(hits, store, motion, boxSweeps[i]) > 0, 4000)).toBeLessThan(48);
  });

  it('sweepCharacters and sweepCharactersAll', () => {
    // Two walkers a pipeline steps, a pole held across their path: the motion over the last step
    // comes from the `sweeps` option (motionOf answered with an object literal per call before).
    const world = createWorld();
    const p = createCollisionPipeline(world, { characters: { sweeps: true } });
    const a = addEntity(world), b = addEntity(world);
    addCharacterCollider(world, a, { skeleton: def, hitboxes: fitted });
    addCharacterCollider(world, b, { skeleton: def, hitboxes: fitted });
    for (let k = 0; k < 4; k++) {
      setPosition(world, a, k * 0.5, 0, 0);
      setPosition(world, b, k * 0.5, 0, 3);
      p.step(world, k / 20);
    }
    const poles = Array.from({ length: N }, (_, i) => {
      const box = Float64Array.from([1.75, 0.6 + (i / N), 1.5, 1, 0, 0, 0, 1, 0, 0, 0, 1, 0.01, 0.01, 3]);
      return setSweepObb(createSweepQuery(), box, 0, box, 0);
    });
    // measured 2.9 to 3.7 and 3.9 to 21 (87 and more before)
    expect(bytesPerCall((i) => sweepCharacters(world, hit, poles[i]), 4000)).toBeLessThan(48);
    expect(bytesPerCall((i) => sweepCharactersAll(world, hits, poles[i]) > 0, 4000)).toBeLessThan(48);
  });
});
