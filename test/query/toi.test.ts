import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { obbSweptOverlap, obbToi, sphereSphereToi } from '../../src/query/toi';
import { obbCorners } from '../../src/volumes/obb';
import { OBB_STRIDE } from '../../src/layout';
import { mulberry32, quaternionToAxes, randomQuaternion } from '../../scenes/random';

type Vec = [number, number, number];
const dot = (a: ArrayLike<number>, ai: number, b: ArrayLike<number>, bi: number) =>
  a[ai] * b[bi] + a[ai + 1] * b[bi + 1] + a[ai + 2] * b[bi + 2];
const norm = (v: ArrayLike<number>) => Math.sqrt(dot(v, 0, v, 0));

describe('sphereSphereToi', () => {
  const STEPS = 10_000;

  /** First march step (of STEPS) at which the spheres, grown by `delta`, touch; −1 if none. */
  function marchFirstContact(ca: Vec, va: Vec, cb: Vec, vb: Vec, r: number, delta: number): number {
    for (let i = 0; i <= STEPS; i++) {
      const t = i / STEPS;
      const gap = Math.hypot(ca[0] + t * va[0] - cb[0] - t * vb[0], ca[1] + t * va[1] - cb[1] - t * vb[1], ca[2] + t * va[2] - cb[2] - t * vb[2]);
      if (gap <= r + delta) return i;
    }
    return -1;
  }

  const kinds = ['random', 'grazing', 'overlapped', 'zero velocity', 'equal velocity'] as const;

  it('matches a 10^4-step time march (random, grazing, overlapped, zero and equal velocity)', () => {
    let grazes = 0, hits = 0, runs = 0;
    fc.assert(
      fc.property(fc.integer(), fc.constantFrom(...kinds), fc.constantFrom(0, 1e6), (seed, kind, off) => {
        const rand = mulberry32(seed);
        const rnd = (s: number): Vec => [(rand() - 0.5) * s, (rand() - 0.5) * s, (rand() - 0.5) * s];
        const ra = 0.1 + rand() * 2, rb = 0.1 + rand() * 2, r = ra + rb;
        const cb: Vec = [off + rand(), off + rand(), off + rand()];
        let ca = rnd(20).map((x, i) => x + cb[i]) as Vec;
        let va = rnd(30), vb = rnd(10);
        if (kind === 'overlapped') ca = rnd(r).map((x, i) => x * 0.5 + cb[i]) as Vec;
        if (kind === 'zero velocity') va = vb = [0, 0, 0];
        if (kind === 'equal velocity') vb = [...va];
        if (kind === 'grazing') {
          // Relative motion passes B's centre at exactly distance r, halfway through the frame.
          const v = rnd(30);
          let side: Vec = [v[1], -v[0], 0];
          if (norm(side) === 0) side = [1, 0, 0];
          const k = r / norm(side);
          vb = [0, 0, 0];
          va = v;
          ca = [cb[0] + k * side[0] - 0.5 * v[0], cb[1] + k * side[1] - 0.5 * v[1], cb[2] + k * side[2] - 0.5 * v[2]];
        }
        // Pass the vectors at non-zero offsets in a shared array.
        const store = Float64Array.from([9, ...ca, ...va, ...cb, ...vb]);
        const t = sphereSphereToi(store, 1, ra, store, 4, store, 7, rb, store, 10);
        runs++;
        const first = marchFirstContact(ca, va, cb, vb, r, 0);
        const stepLength = Math.hypot(va[0] - vb[0], va[1] - vb[1], va[2] - vb[2]) / STEPS;
        const tol = 1e-12 * (Math.abs(off) + 40);
        if ((first >= 0) !== (t >= 0)) {
          // Only a graze may disagree: one step of growth / shrinkage flips the march.
          if (t >= 0) expect(marchFirstContact(ca, va, cb, vb, r, stepLength + tol)).toBeGreaterThanOrEqual(0);
          else expect(marchFirstContact(ca, va, cb, vb, r, -stepLength - tol)).toBe(-1);
          grazes++;
          return;
        }
        if (t < 0) {
          expect(t).toBe(-1);
          return;
        }
        hits++;
        expect(t).toBeLessThanOrEqual(1);
        if (first === 0) expect(t).toBe(0);
        else expect(Math.abs(t - first / STEPS)).toBeLessThanOrEqual(1 / STEPS + 1e-12);
        if (kind === 'overlapped') expect(t).toBe(0);
        // A tangency is ill-conditioned: rounding ε in the set-up moves the touch by ~√ε.
        if (kind === 'grazing') expect(Math.abs(t - 0.5)).toBeLessThan(1e-3);
      }),
      { numRuns: 400 },
    );
    expect(grazes).toBeLessThan(runs * 0.05);
    expect(hits).toBeGreaterThan(runs * 0.25);
  });

  it('zero or equal velocity while apart never touches; touching at the start is 0', () => {
    const a = [0, 0, 0], b = [3, 0, 0], zero = [0, 0, 0], v = [5, 5, 5];
    expect(sphereSphereToi(a, 0, 1, zero, 0, b, 0, 1, zero, 0)).toBe(-1);
    expect(sphereSphereToi(a, 0, 1, v, 0, b, 0, 1, v, 0)).toBe(-1);
    expect(sphereSphereToi(a, 0, 1, zero, 0, b, 0, 2, zero, 0)).toBe(0);
    // Head-on at closing speed 4 over a gap of 1: touch at t = 0.25; moving apart: never.
    expect(sphereSphereToi(a, 0, 1, [2, 0, 0], 0, b, 0, 1, [-2, 0, 0], 0)).toBe(0.25);
    expect(sphereSphereToi(a, 0, 1, [-2, 0, 0], 0, b, 0, 1, [2, 0, 0], 0)).toBe(-1);
    // Reaching contact exactly at the end of the frame counts; one ulp short does not.
    expect(sphereSphereToi(a, 0, 1, [1, 0, 0], 0, b, 0, 1, zero, 0)).toBe(1);
    expect(sphereSphereToi(a, 0, 1, [1 - 1e-12, 0, 0], 0, b, 0, 1, zero, 0)).toBe(-1);
  });
});

/**
 * Test-only exact overlap of two boxes given by their corners: closed intervals of the corner
 * projections on the 15 SAT axes (face normals from the corners, edge axes by cross products).
 * `tol` widens each interval, relative to the axis length.
 */
function cornersOverlap(ca: ArrayLike<number>, cb: ArrayLike<number>, tol: number): boolean {
  // Edge directions from corner 0 to corners 1, 2, 4 (sign bits of the corner order).
  const edges = (c: ArrayLike<number>): Vec[] => [1, 2, 4].map((k) => [c[3 * k] - c[0], c[3 * k + 1] - c[1], c[3 * k + 2] - c[2]]);
  const unit = (v: Vec): Vec => {
    const l = norm(v);
    return l > 0 ? [v[0] / l, v[1] / l, v[2] / l] : [0, 0, 0];
  };
  const cross = (p: Vec, q: Vec): Vec => [p[1] * q[2] - p[2] * q[1], p[2] * q[0] - p[0] * q[2], p[0] * q[1] - p[1] * q[0]];
  const ea = edges(ca).map(unit), eb = edges(cb).map(unit);
  // A flat box has a zero edge; its face axis is then the cross of the other two.
  const faces = (e: Vec[]): Vec[] => [cross(e[1], e[2]), cross(e[2], e[0]), cross(e[0], e[1]), ...e];
  const axes: Vec[] = [...faces(ea), ...faces(eb)];
  for (const p of ea) for (const q of eb) axes.push(cross(p, q));
  for (const L of axes) {
    const l = norm(L);
    if (l < 1e-9) continue;
    let minA = Infinity, maxA = -Infinity, minB = Infinity, maxB = -Infinity;
    for (let i = 0; i < 8; i++) {
      const pa = dot(ca, 3 * i, L, 0), pb = dot(cb, 3 * i, L, 0);
      minA = Math.min(minA, pa);
      maxA = Math.max(maxA, pa);
      minB = Math.min(minB, pb);
      maxB = Math.max(maxB, pb);
    }
    if (minA > maxB + tol * l || minB > maxA + tol * l) return false;
  }
  return true;
}

function boxAt(box: Float64Array, v: ArrayLike<number>, t: number, out: Float64Array): Float64Array {
  out.set(box);
  for (let i = 0; i < 3; i++) out[i] += t * v[i];
  return out;
}

function randomBox(rand: () => number, centre: Vec, maxHalf: number): Float64Array {
  const box = new Float64Array(OBB_STRIDE);
  box.set(centre, 0);
  box.set(quaternionToAxes(randomQuaternion(rand)), 3);
  for (let i = 0; i < 3; i++) box[12 + i] = rand() < 0.2 ? 0.02 * rand() : rand() * maxHalf;
  return box;
}

describe('obbSweptOverlap / obbToi', () => {
  const SAMPLES = 200;
  const ca = new Float64Array(24), cb = new Float64Array(24);
  const movedA = new Float64Array(OBB_STRIDE), movedB = new Float64Array(OBB_STRIDE);

  function overlapAt(a: Float64Array, va: Vec, b: Float64Array, vb: Vec, t: number, tol: number): boolean {
    obbCorners(ca, boxAt(a, va, t, movedA));
    obbCorners(cb, boxAt(b, vb, t, movedB));
    return cornersOverlap(ca, cb, tol);
  }

  it('never misses a contact seen at any of 200 sampled times, and the time is tight', () => {
    let contacts = 0, runs = 0;
    fc.assert(
      fc.property(fc.integer(), fc.constantFrom(0, 0, 1e6), (seed, off) => {
        const rand = mulberry32(seed);
        const rnd = (s: number): Vec => [(rand() - 0.5) * s, (rand() - 0.5) * s, (rand() - 0.5) * s];
        const a = randomBox(rand, rnd(4).map((x) => x + off) as Vec, 2);
        const va = rnd(40), vb = rand() < 0.3 ? [0, 0, 0] as Vec : rnd(10);
        // Put B somewhere near A's relative path so that contacts are common.
        const s = rand();
        const bc = [0, 1, 2].map((i) => a[i] + s * (va[i] - vb[i]) + (rand() - 0.5) * 6) as Vec;
        const b = randomBox(rand, bc, 2);
        const t = obbToi(a, 0, va, 0, b, 0, vb, 0);
        runs++;
        expect(obbSweptOverlap(a, 0, va, 0, b, 0, vb, 0)).toBe(t >= 0);
        let first = -1;
        for (let k = 0; k <= SAMPLES && first < 0; k++) if (overlapAt(a, va, b, vb, k / SAMPLES, 0)) first = k;
        if (first >= 0) {
          contacts++;
          expect(t).toBeGreaterThanOrEqual(0);
          expect(t).toBeLessThanOrEqual(first / SAMPLES);
        }
        if (t < 0) return;
        expect(t).toBeLessThanOrEqual(1);
        // Tight: touching at t (within rounding), clearly apart a little before.
        const scale = 1e-9 * (Math.abs(off) + 60);
        expect(overlapAt(a, va, b, vb, t, scale)).toBe(true);
        if (t > 1e-4) expect(overlapAt(a, va, b, vb, t - 1e-4, 0)).toBe(false);
      }),
      { numRuns: 400 },
    );
    expect(contacts).toBeGreaterThan(runs * 0.2);
  });

  it('catches a fast thin box tunnelling through a thin wall that the end-of-frame test misses', () => {
    const rand = mulberry32(42);
    for (const off of [0, 1e6]) {
      for (let trial = 0; trial < 20; trial++) {
        // Rotate the whole scene so the wall is not axis-aligned (except in the first trial).
        const axes = trial === 0 ? [1, 0, 0, 0, 1, 0, 0, 0, 1] : quaternionToAxes(randomQuaternion(rand));
        const world = (x: number, y: number, z: number): Vec =>
          [0, 1, 2].map((i) => x * axes[i] + y * axes[3 + i] + z * axes[6 + i]) as Vec;
        const wall = new Float64Array([...world(0, 0, 0).map((x) => x + off), ...axes, 0.05, 5, 5]);
        const bullet = new Float64Array([...world(-3, 0.3, -0.2).map((x) => x + off), ...axes, 0.05, 0.2, 0.2]);
        const v = world(6, 0, 0), still: Vec = [0, 0, 0];
        expect(overlapAt(bullet, v, wall, still, 0, 0)).toBe(false);
        expect(overlapAt(bullet, v, wall, still, 1, 0)).toBe(false);
        expect(obbSweptOverlap(bullet, 0, v, 0, wall, 0, still, 0)).toBe(true);
        // Faces meet when the bullet has travelled 3 − 0.1 of its 6.
        expect(obbToi(bullet, 0, v, 0, wall, 0, still, 0)).toBeCloseTo(2.9 / 6, 8);
        // Same motion seen from the bullet: the wall moves instead.
        const back = world(-6, 0, 0);
        expect(obbToi(bullet, 0, still, 0, wall, 0, back, 0)).toBeCloseTo(2.9 / 6, 8);
        // Stopping short of the wall is a miss.
        expect(obbSweptOverlap(bullet, 0, world(2.8, 0, 0), 0, wall, 0, still, 0)).toBe(false);
      }
    }
  });

  it('start overlap is 0; no relative motion keeps the static answer; face contact exactly at t = 1', () => {
    const I = [1, 0, 0, 0, 1, 0, 0, 0, 1];
    const a = new Float64Array([0, 0, 0, ...I, 1, 1, 1]);
    const b = new Float64Array([1.5, 0.5, 0, ...I, 1, 1, 1]);
    const far = new Float64Array([5, 0, 0, ...I, 1, 1, 1]);
    const touching = new Float64Array([2, 2, 2, ...I, 1, 1, 1]);
    const zero = [0, 0, 0], v = [3, -1, 2];
    expect(obbToi(a, 0, v, 0, b, 0, zero, 0)).toBe(0);
    expect(obbToi(a, 0, zero, 0, far, 0, zero, 0)).toBe(-1);
    expect(obbToi(a, 0, v, 0, far, 0, v, 0)).toBe(-1);
    expect(obbToi(a, 0, zero, 0, touching, 0, zero, 0)).toBe(0);
    expect(obbToi(a, 0, [3, 0, 0], 0, far, 0, zero, 0)).toBeCloseTo(1, 9);
    expect(obbToi(a, 0, [2.99, 0, 0], 0, far, 0, zero, 0)).toBe(-1);
  });
});
