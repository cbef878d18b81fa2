import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import '../support/fastCheckSeed';
import { addCharacterHitboxes, createHitboxStore, retireCharacter } from '../../src/character/hitboxStore';
import { addCharacter, computeWorldMatrices, createSkeletonStore } from '../../src/character/skeleton';
import { updateHitboxes } from '../../src/character/hitboxUpdate';
import { beginHitboxMotion, beginHitboxMotionAt, createHitboxMotion, finishHitboxMotion } from '../../src/character/hitboxMotion';
import { createHitboxSweepHits, createSweepQuery, setSweepCapsule, setSweepObb, sweepHitboxes, sweepHitboxesAll } from '../../src/character/hitboxSweep';
import { createHitboxHit } from '../../src/character/hitboxHit';
import { createHitboxHistory, recordHitboxHistory } from '../../src/character/hitboxHistory';
import { HIT_GROUP_HEAD, HIT_GROUP_NAMES, HIT_GROUP_TORSO } from '../../src/character/hitGroups';
import { capsuleObbSweep, obbSweep, SWEEP_HIT_STRIDE } from '../../src/query/sweep';
import { interpolateObb, obbCorners } from '../../src/volumes/obb';
import { HITBOXES_PER_CLUSTER } from '../../src/character/hitboxLayout';
import { SWEEP_CONTACT_TOLERANCE } from '../../src/tolerances';
import { CollideInputError } from '../../src/errors';
import { mulberry32, quaternionToAxes, randomQuaternion } from '../../scenes/random';
import { def, fitted, humanoid } from '../support/hitboxRays';
import { boxGapAt, capsuleGapAt, referenceFirstContact } from '../support/sweepReference';

const BONES = def.boneCount;

/**
 * `crowd` humanoids on a square of `side` metres (default 3), each animated from its own time to
 * dt later while walking `step` metres: returns the stores with the motion between the two poses.
 */
function animatedCrowd(seed: number, crowd: number, dt: number, step: number, side = 3) {
  const rand = mulberry32(seed);
  const skeletons = createSkeletonStore();
  const store = createHitboxStore();
  const phase: number[] = [];
  const pose = (c: number, time: number) => {
    const first = skeletons.firstBone[c];
    humanoid.animate(time, skeletons.translation.subarray(3 * first, 3 * (first + BONES)), skeletons.rotation.subarray(4 * first, 4 * (first + BONES)), skeletons.scale.subarray(3 * first, 3 * (first + BONES)));
  };
  for (let c = 0; c < crowd; c++) {
    addCharacter(skeletons, def, 100 + c);
    addCharacterHitboxes(store, skeletons, c, fitted);
    phase.push(rand() * humanoid.duration);
    pose(c, phase[c]);
    skeletons.characterMatrix[16 * c + 12] = rand() * side;
    skeletons.characterMatrix[16 * c + 14] = rand() * side;
  }
  computeWorldMatrices(skeletons);
  updateHitboxes(store, skeletons);
  const motion = createHitboxMotion();
  beginHitboxMotion(motion, store);
  for (let c = 0; c < crowd; c++) {
    pose(c, phase[c] + dt);
    skeletons.characterMatrix[16 * c + 12] += (rand() - 0.5) * step;
    skeletons.characterMatrix[16 * c + 14] += (rand() - 0.5) * step;
  }
  computeWorldMatrices(skeletons);
  updateHitboxes(store, skeletons);
  finishHitboxMotion(motion, store);
  return { rand, skeletons, store, motion };
}

/** A blade (1 mm thick per metre) swung near a random character: start and end boxes. */
function swing(rand: () => number, store: ReturnType<typeof createHitboxStore>) {
  const c = Math.floor(rand() * store.characterCount);
  const chest = 15 * (store.firstHitbox[c] + 3);
  const w = store.world;
  const length = 0.3 + 0.5 * rand();
  const half = [length, 1e-3 * length, 0.03];
  const centre = [w[chest] + (rand() - 0.5) * 1.5, w[chest + 1] + (rand() - 0.5) * 1.2, w[chest + 2] + (rand() - 0.5) * 1.5];
  const axes = quaternionToAxes(randomQuaternion(rand));
  const start = Float64Array.from([...centre, ...axes, ...half]);
  // Up to ~180 degrees of turn about a random axis, and up to 1 m of travel.
  const q = randomQuaternion(rand);
  const angle = rand() * Math.PI * 0.999;
  const k = [q[0], q[1], q[2]].map((x) => x / (Math.hypot(q[0], q[1], q[2]) || 1));
  const turn = quaternionToAxes([k[0] * Math.sin(angle / 2), k[1] * Math.sin(angle / 2), k[2] * Math.sin(angle / 2), Math.cos(angle / 2)]);
  const endAxes: number[] = [];
  for (let j = 0; j < 3; j++) {
    for (let i = 0; i < 3; i++) endAxes.push(turn[i] * axes[3 * j] + turn[3 + i] * axes[3 * j + 1] + turn[6 + i] * axes[3 * j + 2]);
  }
  const end = Float64Array.from([...centre.map((x) => x + (rand() - 0.5) * 1), ...endAxes, ...half]);
  return { start, end };
}

const scratch = new Float64Array(SWEEP_HIT_STRIDE);

/** Brute force over every hitbox with the kernel alone: per character the first (t, hitbox), or null. */
function bruteForce(store: ReturnType<typeof createHitboxStore>, motion: ReturnType<typeof createHitboxMotion>, start: Float64Array, end: Float64Array, capsule: boolean, groups: number, ignore: number) {
  const perCharacter: ({ t: number; h: number } | null)[] = [];
  for (let c = 0; c < store.characterCount; c++) {
    let best: { t: number; h: number } | null = null;
    if (motion.seen[c] === 1 && store.characterEntity[c] !== ignore) {
      for (let h = store.firstHitbox[c]; h < store.firstHitbox[c] + store.hitboxCount[c]; h++) {
        if (((groups >>> store.group[h]) & 1) === 0) continue;
        const t = capsule ? capsuleObbSweep(scratch, 0, start, 0, end, 0, motion.start, 15 * h, motion.end, 15 * h) : obbSweep(scratch, 0, start, 0, end, 0, motion.start, 15 * h, motion.end, 15 * h);
        if (t >= 0 && (best === null || t < best.t)) best = { t, h };
      }
    }
    perCharacter.push(best);
  }
  return perCharacter;
}

const hitboxStart = (motion: ReturnType<typeof createHitboxMotion>, h: number) => motion.start.subarray(15 * h, 15 * h + 15);
const hitboxEnd = (motion: ReturnType<typeof createHitboxMotion>, h: number) => Float64Array.from(Array.from(motion.end as Float32Array).slice(15 * h, 15 * h + 15));

describe('sweepHitboxes', () => {
  it('gives the first hit of the brute force over every hitbox, which the sampled reference confirms (animated humanoids)', () => {
    let hits = 0, runs = 0;
    fc.assert(
      fc.property(fc.integer(), fc.boolean(), fc.constantFrom(0xffffffff, 1 << HIT_GROUP_TORSO | 1 << HIT_GROUP_HEAD), fc.boolean(), (seed, capsule, groups, withIgnore) => {
        const { rand, store, motion } = animatedCrowd(seed, 4, 0.05 + rand01(seed) * 0.1, 0.3);
        const { start, end } = swing(rand, store);
        const query = createSweepQuery({ groups, ignore: withIgnore ? 100 + Math.floor(rand() * 4) : -1 });
        let s = start, e = end;
        if (capsule) {
          const seg = (b: Float64Array) => Float64Array.from([b[0] - b[12] * b[3], b[1] - b[12] * b[4], b[2] - b[12] * b[5], b[0] + b[12] * b[3], b[1] + b[12] * b[4], b[2] + b[12] * b[5], 0.02]);
          s = seg(start); e = seg(end);
          setSweepCapsule(query, s, 0, e, 0);
        } else {
          setSweepObb(query, s, 0, e, 0);
        }
        const hit = createHitboxHit();
        const found = sweepHitboxes(hit, store, motion, query);
        const brute = bruteForce(store, motion, s, e, capsule, groups, query.ignore);
        let first: { t: number; h: number } | null = null;
        for (const b of brute) if (b !== null && (first === null || b.t < first.t)) first = b;
        runs++;
        expect(found).toBe(first !== null);
        if (first === null) return;
        hits++;
        expect(hit.hitbox).toBe(first.h);
        expect(hit.t).toBe(first.t);
        expect(hit.character).toBe(store.character[first.h]);
        expect(hit.entity).toBe(store.characterEntity[hit.character]);
        expect(hit.boneName).toBe(store.boneName[first.h]);
        expect(hit.groupName).toBe(HIT_GROUP_NAMES[store.group[first.h]]);
        expect((groups >>> hit.group) & 1).toBe(1);
        expect(hit.entity).not.toBe(query.ignore);
        // The sampled reference: the hitbox hit is within the tolerance of touching at t.
        const gap = capsule
          ? capsuleGapAt(s, e, hitboxStart(motion, first.h), hitboxEnd(motion, first.h), hit.t)
          : boxGapAt(s, e, hitboxStart(motion, first.h), hitboxEnd(motion, first.h), hit.t);
        const size = Math.hypot(s[12] ?? 0, s[13] ?? 0, s[14] ?? 0) + 1;
        expect(gap).toBeLessThanOrEqual(SWEEP_CONTACT_TOLERANCE * size * 3);
      }),
      { numRuns: 60 },
    );
    expect(hits).toBeGreaterThan(runs * 0.2);
  });

  it('never misses a hitbox the sampled reference hits, and no hitbox is hit before the reported t', () => {
    // A smaller, slower check: the reference on every hitbox whose simple bounding spheres meet.
    fc.assert(
      fc.property(fc.integer(), (seed) => {
        const { rand, store, motion } = animatedCrowd(seed, 2, 0.1, 0.2);
        const { start, end } = swing(rand, store);
        const query = setSweepObb(createSweepQuery(), start, 0, end, 0);
        const hit = createHitboxHit();
        const found = sweepHitboxes(hit, store, motion, query);
        const mid = [0, 1, 2].map((k) => 0.5 * (start[k] + end[k]));
        const reachW = Math.hypot(start[12], start[13], start[14]) + 0.5 * Math.hypot(end[0] - start[0], end[1] - start[1], end[2] - start[2]);
        let refFirst = Infinity;
        for (let h = 0; h < store.count; h++) {
          const a = hitboxStart(motion, h), b = hitboxEnd(motion, h);
          const m = [0, 1, 2].map((k) => 0.5 * (a[k] + b[k]));
          const r = Math.hypot(a[12], a[13], a[14]) + 0.5 * Math.hypot(b[0] - a[0], b[1] - a[1], b[2] - a[2]) + 1e-6;
          if (Math.hypot(m[0] - mid[0], m[1] - mid[1], m[2] - mid[2]) > r + reachW) continue;
          const ref = referenceFirstContact((t) => boxGapAt(start, end, a, b, t));
          if (ref.t >= 0) refFirst = Math.min(refFirst, ref.t);
        }
        if (refFirst < Infinity) {
          expect(found).toBe(true);
          expect(hit.t).toBeLessThanOrEqual(refFirst + 1e-9);
        }
      }),
      { numRuns: 8 },
    );
  });

  it('gives the first hit per character in order of time (sweepHitboxesAll), keeping the earliest when full', () => {
    fc.assert(
      fc.property(fc.integer(), (seed) => {
        const { rand, store, motion } = animatedCrowd(seed, 6, 0.1, 0.3);
        // A long, wide swing through the middle of the crowd.
        const { start, end } = swing(rand, store);
        start[12] = end[12] = 2;
        const query = setSweepObb(createSweepQuery(), start, 0, end, 0);
        const brute = bruteForce(store, motion, start, end, false, 0xffffffff, -1)
          .map((b, c) => (b === null ? null : { ...b, c }))
          .filter((b): b is { t: number; h: number; c: number } => b !== null)
          .sort((x, y) => x.t - y.t || x.h - y.h);
        const hits = createHitboxSweepHits(8);
        const n = sweepHitboxesAll(hits, store, motion, query);
        expect(n).toBe(brute.length);
        for (let i = 0; i < n; i++) {
          expect(hits[i].hitbox).toBe(brute[i].h);
          expect(hits[i].t).toBe(brute[i].t);
          expect(hits[i].character).toBe(brute[i].c);
        }
        const few = createHitboxSweepHits(2);
        const m = sweepHitboxesAll(few, store, motion, query);
        expect(m).toBe(Math.min(2, brute.length));
        for (let i = 0; i < m; i++) expect(few[i].hitbox).toBe(brute[i].h);
      }),
      { numRuns: 30 },
    );
  });

  it('finds through the grid and the clusters what the brute force finds, over a wide crowd and weapons reaching past it', () => {
    let hits = 0, runs = 0;
    fc.assert(
      fc.property(fc.integer(), fc.constantFrom(0.3, 2, 8), (seed, length) => {
        // 40 characters over 30 m: the grid has many cells; a long blade spans several, and a
        // swing from outside the crowd looks up cells clamped to the grid's edge.
        const { rand, store, motion } = animatedCrowd(seed, 40, 0.1, 0.3, 30);
        const { start, end } = swing(rand, store);
        start[12] = end[12] = length;
        if (rand() < 0.2) for (const b of [start, end]) b[0] -= 25;
        const query = setSweepObb(createSweepQuery(), start, 0, end, 0);
        const brute = bruteForce(store, motion, start, end, false, 0xffffffff, -1)
          .map((b, c) => (b === null ? null : { ...b, c }))
          .filter((b): b is { t: number; h: number; c: number } => b !== null)
          .sort((x, y) => x.t - y.t || x.h - y.h);
        const hit = createHitboxHit();
        runs++;
        expect(sweepHitboxes(hit, store, motion, query)).toBe(brute.length > 0);
        if (brute.length > 0) {
          hits++;
          expect(hit.hitbox).toBe(brute[0].h);
          expect(hit.t).toBe(brute[0].t);
        }
        const all = createHitboxSweepHits(16);
        const n = sweepHitboxesAll(all, store, motion, query);
        expect(n).toBe(Math.min(16, brute.length));
        for (let i = 0; i < n; i++) {
          expect(all[i].hitbox).toBe(brute[i].h);
          expect(all[i].t).toBe(brute[i].t);
        }
      }),
      { numRuns: 12 },
    );
    expect(hits).toBeGreaterThan(runs * 0.3);
  });

  it('bounds every hitbox over the motion by the swept AABBs of its cluster and its character', () => {
    const { store, motion } = animatedCrowd(11, 3, 0.1, 0.4);
    const posed = new Float64Array(15), corners = new Float64Array(24);
    const end = Float64Array.from(motion.end as Float32Array);
    let checked = 0;
    for (let c = 0; c < store.characterCount; c++) {
      for (let i = 0; i < store.hitboxCount[c]; i++) {
        const h = store.firstHitbox[c] + i, cluster = store.firstCluster[c] + Math.floor(i / HITBOXES_PER_CLUSTER);
        for (let s = 0; s <= 1; s += 1 / 64) {
          interpolateObb(posed, 0, motion.start, 15 * h, end, 15 * h, s);
          obbCorners(corners, posed, 0);
          for (let p = 0; p < 8; p++) {
            for (let k = 0; k < 3; k++) {
              const x = corners[3 * p + k];
              for (const [bounds, o] of [[motion.clusterAabb, 6 * cluster], [motion.characterAabb, 6 * c]] as const) {
                expect(x).toBeGreaterThanOrEqual(bounds[o + k]);
                expect(x).toBeLessThanOrEqual(bounds[o + 3 + k]);
              }
            }
          }
          checked++;
        }
      }
    }
    expect(checked).toBe(65 * store.count);
  });

  it('leaves out characters retired or added after the start, and starts from a hitbox history', () => {
    const { store, motion, skeletons } = animatedCrowd(7, 3, 0.1, 0.2);
    // A big static box over everything hits every character at t = 0.
    const everything = Float64Array.from([1.5, 1, 1.5, 1, 0, 0, 0, 1, 0, 0, 0, 1, 10, 10, 10]);
    const query = setSweepObb(createSweepQuery(), everything, 0, everything, 0);
    const hits = createHitboxSweepHits(8);
    expect(sweepHitboxesAll(hits, store, motion, query)).toBe(3);
    expect(hits[0].t).toBe(0);
    retireCharacter(store, 1);
    beginHitboxMotion(motion, store);
    addCharacter(skeletons, def, 200);
    addCharacterHitboxes(store, skeletons, 3, fitted);
    finishHitboxMotion(motion, store);
    expect(sweepHitboxesAll(hits, store, motion, query)).toBe(2);
    expect(hits.slice(0, 2).map((h) => h.character).sort()).toEqual([0, 2]);
    // From a history: the frame at time 0 to the store now.
    const history = createHitboxHistory(4);
    recordHitboxHistory(history, store, 0);
    beginHitboxMotionAt(motion, history, store, 0);
    finishHitboxMotion(motion, store);
    expect(sweepHitboxesAll(hits, store, motion, query)).toBe(3);
  });

  it('refuses bad queries, naming the field and value', () => {
    const { store, motion } = animatedCrowd(3, 1, 0.1, 0);
    const hit = createHitboxHit();
    const box = Float64Array.from([0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1, 0.1, 0.1, 0.1]);
    const q = setSweepObb(createSweepQuery(), box, 0, box, 0);
    q.start[1] = NaN;
    expect(() => sweepHitboxes(hit, store, motion, q)).toThrow(/query\.start\[1\] is not finite \(NaN\)/);
    q.start[1] = 0;
    q.end[0] = Infinity;
    expect(() => sweepHitboxes(hit, store, motion, q)).toThrow(/query\.end\[0\] is not finite \(Infinity\)/);
    q.end[0] = 0;
    q.end[3] = 2;
    expect(() => sweepHitboxes(hit, store, motion, q)).toThrow(/query\.end axes .* u0·u0 = 4/);
    q.end[3] = 1;
    q.start[13] = -1;
    expect(() => sweepHitboxes(hit, store, motion, q)).toThrow(/query\.start\[13\] \(half-extent\) must be >= 0, got -1/);
    const c = Float64Array.from([0, 0, 0, 1, 0, 0, -0.5]);
    setSweepCapsule(q, c, 0, c, 0);
    expect(() => sweepHitboxes(hit, store, motion, q)).toThrow(/query\.start\[6\] \(radius\) must be >= 0, got -0\.5/);
    expect(() => sweepHitboxes(hit, store, motion, { ...q, kind: 'sphere' as never })).toThrow(CollideInputError);
    expect(() => createSweepQuery({ kind: 'obb', radius: 1 } as never)).toThrow(/unknown option 'radius'/);
    expect(() => createSweepQuery({ groups: -1 })).toThrow(/query\.groups must be a uint32, got -1/);
  });
});

/** A number in [0, 1) from a seed, for parameters drawn before the scene's own generator. */
function rand01(seed: number): number {
  return mulberry32(seed ^ 0x5bd1e995)();
}
