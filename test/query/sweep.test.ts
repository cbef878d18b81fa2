import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import '../support/fastCheckSeed';
import { capsuleObbSweep, obbSweep, prepareBoxMotion, prepareCapsuleSweep, prepareObbSweep, preparedStartTime, SWEEP_HIT_STRIDE, SWEEP_LIMIT, SWEEP_MOTION_STRIDE, SWEEP_NEXT, sweepClock } from '../../src/query/sweep';
import { interpolateObb } from '../../src/volumes/obb';
import { SWEEP_CONTACT_TOLERANCE } from '../../src/tolerances';
import { mulberry32, quaternionToAxes, randomQuaternion } from '../../scenes/random';
import { boxGapAt, capsuleAt, capsuleBoxGap, capsuleGapAt, referenceFirstContact } from '../support/sweepReference';
import { referencePointBoxDistance, referenceSeparation } from '../../scenes/satReference';

type Rand = () => number;

/** A box: centre, axes of a random (or given) rotation, half-extents. */
function box(c: number[], axes: number[], h: number[]): Float64Array {
  return Float64Array.from([...c, ...axes, ...h]);
}

/** Axes of `axes` turned by `angle` about unit axis k (Rodrigues), as 9 numbers. */
function turned(axes: ArrayLike<number>, k: number[], angle: number): number[] {
  const out: number[] = [];
  const c = Math.cos(angle), s = Math.sin(angle);
  for (let j = 0; j < 3; j++) {
    const v = [axes[3 * j], axes[3 * j + 1], axes[3 * j + 2]];
    const kv = k[0] * v[0] + k[1] * v[1] + k[2] * v[2];
    const x = [k[1] * v[2] - k[2] * v[1], k[2] * v[0] - k[0] * v[2], k[0] * v[1] - k[1] * v[0]];
    for (let i = 0; i < 3; i++) out.push(v[i] * c + x[i] * s + k[i] * kv * (1 - c));
  }
  return out;
}

function unit(rand: Rand): number[] {
  const q = randomQuaternion(rand);
  const v = [q[0], q[1], q[2]];
  const n = Math.hypot(...v) || 1;
  return v.map((x) => x / n);
}

const KINDS = ['random', 'blade through limb', 'graze', 'parallel faces', 'static weapon', 'far apart'] as const;
type Kind = (typeof KINDS)[number];

/** A weapon motion (a0 → a1) and a limb motion (b0 → b1) of the given kind, around `offset`. */
function scene(rand: Rand, kind: Kind, offset: number) {
  const o = [offset + rand(), offset + rand(), offset + rand()];
  const length = 0.3 + rand();
  const blade = kind === 'blade through limb' || rand() < 0.3;
  const ha = blade ? [length, 1e-3 * length, 0.05 * length] : [0.05 + rand() * 0.5, 0.05 + rand() * 0.5, 0.05 + rand() * 0.5];
  const axesA = quaternionToAxes(randomQuaternion(rand));
  // Up to ~180 degrees of turn in the frame.
  const turnA = kind === 'static weapon' || kind === 'parallel faces' ? 0 : rand() * Math.PI * 0.999;
  const axesA1 = turned(axesA, unit(rand), turnA);
  const moveA = kind === 'static weapon' ? [0, 0, 0] : [(rand() - 0.5) * 3, (rand() - 0.5) * 3, (rand() - 0.5) * 3];
  const a0 = box(o, axesA, ha);
  const a1 = box(o.map((x, k) => x + moveA[k]), axesA1, ha);
  const hb = [0.04 + rand() * 0.2, 0.1 + rand() * 0.3, 0.04 + rand() * 0.2];
  let axesB = quaternionToAxes(randomQuaternion(rand));
  if (kind === 'parallel faces') axesB = [...axesA];
  const turnB = kind === 'parallel faces' ? 0 : rand() * 0.6;
  // The limb sits somewhere along the weapon's path, a little off it.
  const at = new Float64Array(15);
  interpolateObb(at, 0, a0, 0, a1, 0, rand());
  const spread = kind === 'far apart' ? 20 : 0.6;
  const cb = [0, 1, 2].map((k) => at[k] + (rand() - 0.5) * spread);
  if (kind === 'far apart') cb[0] += 10;
  const moveB = [(rand() - 0.5) * 0.4, (rand() - 0.5) * 0.4, (rand() - 0.5) * 0.4];
  let b0 = box(cb, axesB, hb);
  let b1 = box(cb.map((x, k) => x + moveB[k]), turned(axesB, unit(rand), turnB), hb);
  if (kind === 'graze' || kind === 'parallel faces') {
    // B at rest, touching (or just missing, or just overlapping) A's face at a time of its motion.
    const s = rand();
    interpolateObb(at, 0, a0, 0, a1, 0, s);
    const face = Math.floor(rand() * 3);
    const eps = [0, 1e-9, -1e-9, 1e-4, 1e-2][Math.floor(rand() * 5)];
    const axesAt = Array.from(at.subarray(3, 12));
    const d = (ha[face] + hb[0] + eps) * (rand() < 0.5 ? 1 : -1);
    const c = [0, 1, 2].map((k) => at[k] + d * at[3 + 3 * face + k]);
    // B's first axis along A's face normal there, so the faces are parallel at s.
    const bAxes = [...axesAt.slice(3 * face, 3 * face + 3), ...axesAt.slice(3 * ((face + 1) % 3), 3 * ((face + 1) % 3) + 3), ...axesAt.slice(3 * ((face + 2) % 3), 3 * ((face + 2) % 3) + 3)];
    b0 = box(c, bAxes, hb);
    b1 = box(c, bAxes, hb);
  }
  return { a0, a1, b0, b1 };
}

const out = new Float64Array(SWEEP_HIT_STRIDE + 1);

function sizeOf(a: ArrayLike<number>, b: ArrayLike<number>, r = 0): number {
  return Math.hypot(a[12], a[13], a[14]) + Math.hypot(b[12], b[13], b[14]) + r;
}

describe('obbSweep', () => {
  it('never misses a contact the sampled reference finds, is never later, and is within the tolerance when it reports one', () => {
    const counts: Record<string, number> = {};
    fc.assert(
      fc.property(fc.integer(), fc.constantFrom(...KINDS), fc.constantFrom(0, 1e4), (seed, kind, offset) => {
        const rand = mulberry32(seed);
        const { a0, a1, b0, b1 } = scene(rand, kind, offset);
        const t = obbSweep(out, 1, a0, 0, a1, 0, b0, 0, b1, 0);
        const ref = referenceFirstContact((s) => boxGapAt(a0, a1, b0, b1, s));
        const tol = SWEEP_CONTACT_TOLERANCE * sizeOf(a0, b0);
        const rounding = 1e-9 * (1 + offset);
        counts[`${kind} ${ref.t >= 0 ? 'hit' : 'miss'}`] = (counts[`${kind} ${ref.t >= 0 ? 'hit' : 'miss'}`] ?? 0) + 1;
        if (ref.t >= 0) {
          expect(t).toBeGreaterThanOrEqual(0);
          expect(t).toBeLessThanOrEqual(ref.t + 1e-9);
        }
        if (t < 0) {
          expect(t).toBe(-1);
          return;
        }
        expect(out[1]).toBe(t);
        // At the reported time the boxes are within the tolerance along every axis.
        expect(boxGapAt(a0, a1, b0, b1, t)).toBeLessThanOrEqual(tol + rounding);
        // The point lies on B (within the tolerance) and the normal is a unit vector.
        const posed = new Float64Array(15);
        interpolateObb(posed, 0, b0, 0, b1, 0, t);
        expect(referencePointBoxDistance(posed, 0, out.subarray(5, 8))).toBeLessThanOrEqual(rounding);
        expect(Math.hypot(out[2], out[3], out[4])).toBeCloseTo(1, 9);
        if (kind === 'far apart' && ref.minGap > tol) expect.unreachable();
      }),
      { numRuns: 600 },
    );
    // Every kind produced hits and misses where it should.
    for (const kind of KINDS.filter((k) => k !== 'far apart')) expect(counts[`${kind} hit`] ?? 0).toBeGreaterThan(5);
    expect(counts['far apart hit'] ?? 0).toBe(0);
  });

  it('catches a thin blade swung through a limb in one frame, where both end poses miss', () => {
    // Blade 1 m long, 1 mm thick, turning half a circle about its centre; a forearm-sized box
    // sits across its path, clear of the start and end poses.
    const a0 = box([0, 0, 0], [1, 0, 0, 0, 1, 0, 0, 0, 1], [0.5, 0.5e-3, 0.02]);
    const a1 = box([0, 0, 0], turned([1, 0, 0, 0, 1, 0, 0, 0, 1], [0, 0, 1], Math.PI * 0.98), [0.5, 0.5e-3, 0.02]);
    const limb = box([0, 0.35, 0], [1, 0, 0, 0, 1, 0, 0, 0, 1], [0.03, 0.1, 0.03]);
    expect(referenceSeparation(a0, 0, limb, 0).gap).toBeGreaterThan(0.1);
    expect(referenceSeparation(a1, 0, limb, 0).gap).toBeGreaterThan(0.1);
    const t = obbSweep(out, 0, a0, 0, a1, 0, limb, 0, limb, 0);
    const ref = referenceFirstContact((s) => boxGapAt(a0, a1, limb, limb, s));
    expect(ref.t).toBeGreaterThan(0.3);
    expect(t).toBeGreaterThan(0);
    expect(t).toBeLessThanOrEqual(ref.t);
    expect(boxGapAt(a0, a1, limb, limb, t)).toBeLessThanOrEqual(SWEEP_CONTACT_TOLERANCE * sizeOf(a0, limb));
    // The normal points from the limb towards the blade: the blade comes from +x, turning counter-clockwise.
    expect(out[1]).toBeGreaterThan(0.9);
  });

  it('reports t = 0 for boxes touching at the start, moving or not, and −1 for boxes moving apart', () => {
    const a = box([0, 0, 0], [1, 0, 0, 0, 1, 0, 0, 0, 1], [1, 1, 1]);
    const b = box([2, 0, 0], [1, 0, 0, 0, 1, 0, 0, 0, 1], [1, 1, 1]);
    expect(obbSweep(out, 0, a, 0, a, 0, b, 0, b, 0)).toBe(0);
    expect(out[1]).toBeCloseTo(-1, 12);
    const away = box([-5, 0, 0], [1, 0, 0, 0, 1, 0, 0, 0, 1], [1, 1, 1]);
    const apart = box([2.1, 0, 0], [1, 0, 0, 0, 1, 0, 0, 0, 1], [1, 1, 1]);
    expect(obbSweep(out, 0, a, 0, away, 0, apart, 0, apart, 0)).toBe(-1);
    // tMax: a contact at t = 0.5 is not reported before it.
    const moving = box([-2.2, 0, 0], [1, 0, 0, 0, 1, 0, 0, 0, 1], [1, 1, 1]);
    const toward = box([2.2, 0, 0], [1, 0, 0, 0, 1, 0, 0, 0, 1], [1, 1, 1]);
    const t = obbSweep(out, 0, moving, 0, toward, 0, b, 0, b, 0);
    expect(t).toBeGreaterThan(0.5 - 1e-3);
    expect(t).toBeLessThanOrEqual(0.55);
    expect(obbSweep(out, 0, moving, 0, toward, 0, b, 0, b, 0, 0.4)).toBe(-1);
  });
});

describe('capsuleObbSweep', () => {
  it('never misses a contact the sampled reference finds, and is within the tolerance when it reports one', () => {
    let hits = 0;
    fc.assert(
      fc.property(fc.integer(), fc.constantFrom(...KINDS), fc.constantFrom(0, 1e4), (seed, kind, offset) => {
        const rand = mulberry32(seed);
        const { a0, a1, b0, b1 } = scene(rand, kind, offset);
        // The weapon box's long axis as a capsule's segment, radius a fraction of its thickness.
        const capsuleOf = (a: Float64Array, r: number) => {
          const h = a[12];
          return Float64Array.from([a[0] - h * a[3], a[1] - h * a[4], a[2] - h * a[5], a[0] + h * a[3], a[1] + h * a[4], a[2] + h * a[5], r]);
        };
        const r = rand() < 0.2 ? 0 : rand() * 0.1;
        const c0 = capsuleOf(a0, r), c1 = capsuleOf(a1, r);
        const t = capsuleObbSweep(out, 0, c0, 0, c1, 0, b0, 0, b1, 0);
        const ref = referenceFirstContact((s) => capsuleGapAt(c0, c1, b0, b1, s));
        const tol = SWEEP_CONTACT_TOLERANCE * (a0[12] + r + Math.hypot(b0[12], b0[13], b0[14]));
        if (ref.t >= 0) {
          hits++;
          expect(t).toBeGreaterThanOrEqual(0);
          expect(t).toBeLessThanOrEqual(ref.t + 1e-9);
        }
        if (t < 0) return;
        // Within the tolerance of touching (the capsule's distance is searched exactly near contact).
        const posed = new Float64Array(15);
        interpolateObb(posed, 0, b0, 0, b1, 0, t);
        expect(capsuleBoxGap(capsuleAt(c0, c1, t), posed)).toBeLessThanOrEqual(tol + 1e-9 * (1 + offset));
      }),
      { numRuns: 150 },
    );
    expect(hits).toBeGreaterThan(15);
  });

  it('turns a half-circle swing of a capsule about its centre (antiparallel end directions)', () => {
    const c0 = Float64Array.from([-0.5, 0, 0, 0.5, 0, 0, 0.01]);
    const c1 = Float64Array.from([0.5, 0, 0, -0.5, 0, 0, 0.01]);
    const limb = box([0, 0.3, 0], [1, 0, 0, 0, 1, 0, 0, 0, 1], [0.03, 0.1, 0.03]);
    const also = box([0, 0, 0.3], [1, 0, 0, 0, 1, 0, 0, 0, 1], [0.03, 0.03, 0.1]);
    // The half turn goes about some axis across the segment: it sweeps a disc through one of these.
    const t1 = capsuleObbSweep(out, 0, c0, 0, c1, 0, limb, 0, limb, 0);
    const t2 = capsuleObbSweep(out, 0, c0, 0, c1, 0, also, 0, also, 0);
    expect(Math.max(t1, t2)).toBeGreaterThan(0);
  });
});

describe('preparedStartTime', () => {
  it('is never later than the first contact the sampled reference finds, and culls only motions that stay apart', () => {
    const prepared = new Float64Array(SWEEP_MOTION_STRIDE);
    let late = 0, culled = 0, runs = 0;
    fc.assert(
      fc.property(fc.integer(), fc.constantFrom(...KINDS), fc.constantFrom(0, 1e4), fc.boolean(), (seed, kind, offset, capsule) => {
        const rand = mulberry32(seed);
        const { a0, a1, b0, b1 } = scene(rand, kind, offset);
        // The weapon box's long axis as a capsule's segment.
        const segment = (a: Float64Array) => Float64Array.from([a[0] - a[12] * a[3], a[1] - a[12] * a[4], a[2] - a[12] * a[5], a[0] + a[12] * a[3], a[1] + a[12] * a[4], a[2] + a[12] * a[5], 0.02]);
        const c0 = segment(a0), c1 = segment(a1);
        if (capsule) prepareCapsuleSweep(c0, 0, c1, 0);
        else prepareObbSweep(a0, 0, a1, 0);
        prepareBoxMotion(prepared, 0, b0, 0, b1, 0);
        sweepClock[SWEEP_LIMIT] = 1;
        preparedStartTime(prepared, 0);
        const start = sweepClock[SWEEP_NEXT];
        const ref = referenceFirstContact((s) => (capsule ? capsuleGapAt(c0, c1, b0, b1, s) : boxGapAt(a0, a1, b0, b1, s)));
        runs++;
        if (start > 0.25) late++;
        if (start < 0) culled++;
        if (ref.t >= 0) {
          expect(start).toBeGreaterThanOrEqual(0);
          expect(start).toBeLessThanOrEqual(ref.t + 1e-9);
        }
      }),
      { numRuns: 300 },
    );
    // It starts well into the motion, or culls it, often enough to matter.
    expect(late).toBeGreaterThan(runs * 0.1);
    expect(culled).toBeGreaterThan(runs * 0.1);
  });
});
