import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import {
  aabbCenterRadiusToMinMax,
  aabbCenterRadiusToMinWidth,
  aabbFromPoints,
  aabbFromPointsExtreme,
  aabbFromSphere,
  aabbMinMaxToCenterRadius,
  aabbMinMaxToMinWidth,
  aabbMinWidthToCenterRadius,
  aabbMinWidthToMinMax,
  aabbOverlap,
  aabbOverlapCenterRadius,
  aabbOverlapCenterRadiusInt,
  aabbOverlapMinWidth,
  aabbTransform,
  aabbTransformCenterRadius,
  aabbTransformCenterRadiusMat3,
  aabbTransformMat3,
  extremePointAlongDirection,
} from '../../src/volumes/aabb';
import { quaternionToMat3 } from '../../src/rotation';
import { CollideInputError } from '../../src/errors';
import { AABB_STRIDE } from '../../src/layout';
import { mulberry32, quaternionToAxes, randomQuaternion } from '../../scenes/random';

/** Independent reference: closed intervals [lo, hi] intersect on every axis. */
function intervalsOverlap(a: number[], b: number[]): boolean {
  for (let k = 0; k < 3; k++) if (Math.max(a[k], b[k]) > Math.min(a[3 + k], b[3 + k])) return false;
  return true;
}

/**
 * Min-max box on a coarse grid (so touching faces, edges and corners are frequent), with even
 * integer coordinates times a power of two plus a large offset: every conversion is exact.
 */
const gridBox = (scale: number, offset: number) =>
  fc
    .tuple(fc.array(fc.integer({ min: -2, max: 2 }), { minLength: 3, maxLength: 3 }), fc.array(fc.integer({ min: 0, max: 4 }), { minLength: 3, maxLength: 3 }))
    .map(([lo, w]) => [...lo.map((v) => offset + 2 * v * scale), ...lo.map((v, k) => offset + 2 * (v + w[k]) * scale)]);

describe('AABB overlap tests', () => {
  it('all representations agree with an independent interval check, touching included', () => {
    let touching = 0, overlapping = 0, separated = 0;
    fc.assert(
      fc.property(
        fc.constantFrom(1, 0.25, 1024).chain((s) => fc.constantFrom(0, 2 ** 20, -(2 ** 24)).chain((o) => fc.tuple(gridBox(s, o), gridBox(s, o)))),
        ([a, b]) => {
          const expected = intervalsOverlap(a, b);
          const store = new Float64Array(2 + 2 * AABB_STRIDE);
          store.set(a, 2);
          store.set(b, 2 + AABB_STRIDE);
          expect(aabbOverlap(store, 2, store, 2 + AABB_STRIDE)).toBe(expected);
          expect(aabbOverlap(b, 0, a, 0)).toBe(expected);
          const mwA = aabbMinMaxToMinWidth([], 0, a, 0) as number[], mwB = aabbMinMaxToMinWidth([], 0, b, 0) as number[];
          expect(aabbOverlapMinWidth(mwA, 0, mwB, 0)).toBe(expected);
          expect(aabbOverlapMinWidth(mwB, 0, mwA, 0)).toBe(expected);
          const crA = aabbMinMaxToCenterRadius([], 0, a, 0) as number[], crB = aabbMinMaxToCenterRadius([], 0, b, 0) as number[];
          expect(aabbOverlapCenterRadius(crA, 0, crB, 0)).toBe(expected);
          expect(aabbOverlapCenterRadius(crB, 0, crA, 0)).toBe(expected);
          if (crA.every(Number.isInteger) && crB.every(Number.isInteger)) {
            const ints = Int32Array.from([...crA, ...crB]);
            expect(aabbOverlapCenterRadiusInt(ints, 0, ints, 6)).toBe(expected);
          }
          const touches = expected && [0, 1, 2].some((k) => a[k] === b[3 + k] || b[k] === a[3 + k]);
          if (touches) touching++;
          else if (expected) overlapping++;
          else separated++;
        },
      ),
      { numRuns: 3000 },
    );
    // The grid is coarse enough that every kind of case was exercised many times.
    expect(Math.min(touching, overlapping, separated)).toBeGreaterThan(100);
  });

  it('touching faces, edges and corners overlap; a gap of one ulp-scale step does not', () => {
    const a = [0, 0, 0, 1, 1, 1];
    const cases: [number[], boolean][] = [
      [[1, 0, 0, 2, 1, 1], true], // face
      [[1, 1, 0, 2, 2, 1], true], // edge
      [[1, 1, 1, 2, 2, 2], true], // corner
      [[-1, -1, -1, 0, 0, 0], true], // opposite corner
      [[0.25, 0.25, 0.25, 0.5, 0.5, 0.5], true], // contained
      [[1 + 2 ** -40, 0, 0, 2, 1, 1], false],
      [[1, 1, 1 + 2 ** -40, 2, 2, 2], false],
      [[-2, -2, -2, -(2 ** -40), 3, 3], false],
    ];
    for (const [b, expected] of cases) {
      expect(intervalsOverlap(a, b)).toBe(expected);
      expect(aabbOverlap(a, 0, b, 0)).toBe(expected);
      expect(aabbOverlapMinWidth(aabbMinMaxToMinWidth([], 0, a, 0), 0, aabbMinMaxToMinWidth([], 0, b, 0), 0)).toBe(expected);
      expect(aabbOverlapCenterRadius(aabbMinMaxToCenterRadius([], 0, a, 0), 0, aabbMinMaxToCenterRadius([], 0, b, 0), 0)).toBe(expected);
    }
  });

  it('the integer test matches the float test, for negative and large values up to its documented range', () => {
    const C = 2 ** 30, R = 2 ** 29;
    const coord = fc.oneof(fc.integer({ min: -C, max: C - 1 }), fc.integer({ min: -20, max: 20 }), fc.constantFrom(-C, C - 1, 0, -1));
    const rad = fc.oneof(fc.integer({ min: 0, max: R }), fc.integer({ min: 0, max: 20 }), fc.constantFrom(0, R));
    const box = fc.tuple(coord, coord, coord, rad, rad, rad);
    fc.assert(
      fc.property(box, box, fc.integer({ min: 0, max: 2 }), fc.integer({ min: -2, max: 2 }), (a, b, axis, nudge) => {
        // Half the runs put b's centre right at the touching distance (±nudge) on one axis.
        if (nudge !== 0 || axis === 0) {
          const r = a[3 + axis] + b[3 + axis];
          const c = a[axis] + Math.sign(nudge || 1) * (r + (Math.abs(nudge) - 1));
          if (c >= -C && c < C) b[axis] = c;
        }
        const ints = Int32Array.from([...a, ...b]);
        expect(Array.from(ints)).toEqual([...a, ...b]);
        expect(aabbOverlapCenterRadiusInt(ints, 0, ints, 6)).toBe(aabbOverlapCenterRadius(a, 0, b, 0));
        expect(aabbOverlapCenterRadiusInt(ints, 6, ints, 0)).toBe(aabbOverlapCenterRadius(a, 0, b, 0));
      }),
      { numRuns: 5000 },
    );
    // Explicit extremes: opposite ends of the range, just touching and one apart.
    const far = Int32Array.from([-C, 0, 0, R, 0, 0, C - 1, 0, 0, R, 0, 0]);
    expect(aabbOverlapCenterRadiusInt(far, 0, far, 6)).toBe(false);
    const touch = Int32Array.from([-5, -5, -5, 3, 3, 3, 1, 1, 1, 3, 3, 3]);
    expect(aabbOverlapCenterRadiusInt(touch, 0, touch, 6)).toBe(true);
    touch[6] = 2;
    expect(aabbOverlapCenterRadiusInt(touch, 0, touch, 6)).toBe(false);
  });
});

describe('AABB conversions', () => {
  it('round-trip exactly between all three representations on dyadic boxes', () => {
    fc.assert(
      fc.property(fc.constantFrom(1, 0.5, 8).chain((s) => fc.constantFrom(0, -(2 ** 22)).chain((o) => gridBox(s, o))), (mm) => {
        const mw = new Float64Array(8), cr = new Float64Array(8);
        aabbMinMaxToMinWidth(mw, 1, mm, 0);
        aabbMinMaxToCenterRadius(cr, 2, mm, 0);
        expect(Array.from((aabbMinWidthToMinMax([], 0, mw, 1) as number[]))).toEqual(mm);
        expect(Array.from((aabbCenterRadiusToMinMax([], 0, cr, 2) as number[]))).toEqual(mm);
        expect(Array.from((aabbMinWidthToCenterRadius([], 0, mw, 1) as number[]))).toEqual(Array.from(cr.subarray(2, 8)));
        expect(Array.from((aabbCenterRadiusToMinWidth([], 0, cr, 2) as number[]))).toEqual(Array.from(mw.subarray(1, 7)));
        for (let k = 0; k < 3; k++) {
          expect(mw[1 + 3 + k]).toBe(mm[3 + k] - mm[k]);
          expect(cr[2 + k]).toBe((mm[k] + mm[3 + k]) / 2);
          expect(cr[2 + 3 + k]).toBe((mm[3 + k] - mm[k]) / 2);
        }
      }),
      { numRuns: 500 },
    );
  });
});

describe('AABB fitting', () => {
  it('aabbFromPoints and aabbFromPointsExtreme equal the brute-force min/max, with and without hull indices', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 50 }), fc.integer(), fc.constantFrom(0, 1e6, -3e4), fc.integer({ min: 0, max: 5 }), (n, seed, offset, po) => {
        const rand = mulberry32(seed);
        const pts = new Float64Array(po + 3 * n);
        for (let i = po; i < pts.length; i++) pts[i] = offset + Math.round((rand() - 0.5) * 8) * (rand() < 0.5 ? 1 : rand());
        const ref = [Infinity, Infinity, Infinity, -Infinity, -Infinity, -Infinity];
        for (let i = 0; i < n; i++)
          for (let k = 0; k < 3; k++) {
            ref[k] = Math.min(ref[k], pts[po + 3 * i + k]);
            ref[3 + k] = Math.max(ref[3 + k], pts[po + 3 * i + k]);
          }
        expect(Array.from(aabbFromPoints(new Float64Array(6), 0, pts, n, po))).toEqual(ref);
        expect(Array.from(aabbFromPointsExtreme(new Float64Array(6), 0, pts, n, po))).toEqual(ref);
        // Any index subset holding the extreme points (as a hull's vertex list does) gives the same box.
        const pair = new Float64Array(2);
        const subset = new Set<number>();
        for (let k = 0; k < 3; k++) {
          extremePointAlongDirection(pair, pts, n, +(k === 0), +(k === 1), +(k === 2), po);
          subset.add(pair[0]).add(pair[1]);
        }
        for (let i = 0; i < n; i++) if (rand() < 0.3) subset.add(i);
        const hull = Uint32Array.from([...subset].sort(() => rand() - 0.5));
        const padded = new Float64Array(8);
        aabbFromPointsExtreme(padded, 2, pts, n, po, hull);
        expect(Array.from(padded.subarray(2))).toEqual(ref);
      }),
      { numRuns: 500 },
    );
  });

  it('extremePointAlongDirection returns the first minimising and maximising indices', () => {
    const rand = mulberry32(21);
    const out = [0, 0];
    for (let trial = 0; trial < 300; trial++) {
      const n = 1 + Math.floor(rand() * 40);
      const pts = Array.from({ length: 3 * n }, () => Math.round(rand() * 6));
      const d = [rand() - 0.5, rand() - 0.5, Math.round(rand() * 2 - 1)];
      const dots = Array.from({ length: n }, (_, i) => pts[3 * i] * d[0] + pts[3 * i + 1] * d[1] + pts[3 * i + 2] * d[2]);
      extremePointAlongDirection(out, pts, n, d[0], d[1], d[2]);
      expect(out[0]).toBe(dots.indexOf(Math.min(...dots)));
      expect(out[1]).toBe(dots.indexOf(Math.max(...dots)));
      const idx = [n - 1, 0, Math.floor(n / 2)];
      extremePointAlongDirection(out, pts, 3, d[0], d[1], d[2], 0, idx);
      const sub = idx.map((i) => dots[i]);
      expect(out[0]).toBe(idx[sub.indexOf(Math.min(...sub))]);
      expect(out[1]).toBe(idx[sub.indexOf(Math.max(...sub))]);
    }
  });

  it('rejects empty and non-finite input and bad hull indices with CollideInputError', () => {
    for (const f of [aabbFromPoints, aabbFromPointsExtreme]) {
      const out = new Float64Array(6);
      expect(() => f(out, 0, [], 0)).toThrow(CollideInputError);
      expect(() => f(out, 0, [1, NaN, 2], 1)).toThrow(CollideInputError);
      expect(() => f(out, 0, [1, 2, 3, -Infinity, 0, 0], 2)).toThrow(/non-finite/);
      expect(() => f(out, 0, [1, 2, 3], 2)).toThrow(CollideInputError);
    }
    const pts = [0, 0, 0, 1, 1, 1];
    expect(() => aabbFromPointsExtreme(new Float64Array(6), 0, pts, 2, 0, [])).toThrow(/empty/);
    expect(() => aabbFromPointsExtreme(new Float64Array(6), 0, pts, 2, 0, [0, 2])).toThrow(/outside/);
    expect(() => aabbFromPointsExtreme(new Float64Array(6), 0, pts, 2, 0, [0.5])).toThrow(CollideInputError);
  });

  it('aabbFromSphere is the cube around the sphere and contains it under any rotation', () => {
    const rand = mulberry32(8);
    const box = new Float64Array(7);
    for (let trial = 0; trial < 200; trial++) {
      const s = [rand() * 100 - 50, rand() * 100 - 50, rand() * 100 - 50, rand() * 5];
      aabbFromSphere(box, 1, [0, ...s], 1);
      expect(Array.from(box.subarray(1))).toEqual([s[0] - s[3], s[1] - s[3], s[2] - s[3], s[0] + s[3], s[1] + s[3], s[2] + s[3]]);
      for (let i = 0; i < 20; i++) {
        const m = quaternionToAxes(randomQuaternion(rand));
        const e = [rand() - 0.5, rand() - 0.5, rand() - 0.5];
        const l = Math.hypot(...e);
        for (let k = 0; k < 3; k++) {
          const p = s[k] + (s[3] * (m[k] * e[0] + m[3 + k] * e[1] + m[6 + k] * e[2])) / l;
          expect(p).toBeGreaterThanOrEqual(box[1 + k] - 1e-12);
          expect(p).toBeLessThanOrEqual(box[4 + k] + 1e-12);
        }
      }
    }
  });
});

describe('Arvo transforms', () => {
  const corners = (b: number[]) =>
    Array.from({ length: 8 }, (_, i) => [i & 1 ? b[3] : b[0], i & 2 ? b[4] : b[1], i & 4 ? b[5] : b[2]]);

  it('quaternionToMat3 is the column-major matrix of the quaternion', () => {
    const rand = mulberry32(2);
    for (let trial = 0; trial < 100; trial++) {
      const q = randomQuaternion(rand);
      const m = new Float64Array(11);
      quaternionToMat3(m, 2, q);
      expect(Array.from(m.subarray(2))).toEqual(quaternionToAxes(q));
    }
  });

  it('is the tight box of the 8 transformed corners, in every variant and representation', () => {
    fc.assert(
      fc.property(fc.integer(), fc.constantFrom(1, -1, 0.25, 3, -2.5), fc.constantFrom(0, 1e5), (seed, scale, offset) => {
        const rand = mulberry32(seed);
        const lo = [rand() * 10 - 5, rand() * 10 - 5, rand() * 10 - 5];
        const local = [...lo, lo[0] + rand() * 4, lo[1] + rand() * 4, lo[2] + (rand() < 0.2 ? 0 : rand() * 4)];
        const q = randomQuaternion(rand);
        const t = [offset + rand() * 100, rand() * 100 - offset, rand() * 100];
        const m = quaternionToAxes(q);
        const ref = [Infinity, Infinity, Infinity, -Infinity, -Infinity, -Infinity];
        const world = corners(local).map((c) => [0, 1, 2].map((i) => t[i] + scale * (m[i] * c[0] + m[3 + i] * c[1] + m[6 + i] * c[2])));
        for (const w of world)
          for (let k = 0; k < 3; k++) {
            ref[k] = Math.min(ref[k], w[k]);
            ref[3 + k] = Math.max(ref[3 + k], w[k]);
          }
        const tol = 1e-12 * (Math.abs(offset) + 200);
        const viaQ = aabbTransform(new Float64Array(6), 0, local, 0, q, t, scale) as Float64Array;
        const viaM = aabbTransformMat3(new Float64Array(7), 1, [0, ...local], 1, [9, 9, ...m], t, scale, 2) as Float64Array;
        const crLocal = aabbMinMaxToCenterRadius([], 0, local, 0);
        const viaCr = aabbCenterRadiusToMinMax([], 0, aabbTransformCenterRadius(new Float64Array(6), 0, crLocal, 0, q, t, scale), 0);
        const viaCrM = aabbCenterRadiusToMinMax([], 0, aabbTransformCenterRadiusMat3(new Float64Array(6), 0, crLocal, 0, m, t, scale), 0);
        for (const box of [viaQ, viaM.subarray(1), viaCr, viaCrM]) {
          for (let k = 0; k < 6; k++) expect(Math.abs(box[k] - ref[k])).toBeLessThanOrEqual(tol);
          for (const w of world)
            for (let k = 0; k < 3; k++) {
              expect(w[k]).toBeGreaterThanOrEqual(box[k] - tol);
              expect(w[k]).toBeLessThanOrEqual(box[3 + k] + tol);
            }
        }
      }),
      { numRuns: 1000 },
    );
  });

  it('does not grow over many frames when always transformed from the local box', () => {
    const rand = mulberry32(4);
    const local = [-1, -2, -0.5, 3, 1, 0.5];
    const halfDiagonal = Math.hypot(2, 1.5, 0.5);
    const world = new Float64Array(6);
    const q = [0, 0, 0, 1];
    const t = [10, 20, 30];
    let drifting = local.slice();
    for (let frame = 0; frame < 2000; frame++) {
      // Random walk of the orientation: compose a small rotation each frame.
      const a = 0.05 * (rand() - 0.5), ax = [rand() - 0.5, rand() - 0.5, rand() - 0.5];
      const l = Math.hypot(...ax);
      const d = [(Math.sin(a) * ax[0]) / l, (Math.sin(a) * ax[1]) / l, (Math.sin(a) * ax[2]) / l, Math.cos(a)];
      const [x, y, z, w] = q;
      q[0] = w * d[0] + x * d[3] + y * d[2] - z * d[1];
      q[1] = w * d[1] - x * d[2] + y * d[3] + z * d[0];
      q[2] = w * d[2] + x * d[1] - y * d[0] + z * d[3];
      q[3] = w * d[3] - x * d[0] - y * d[1] - z * d[2];
      const n = Math.hypot(...q);
      for (let i = 0; i < 4; i++) q[i] /= n;
      aabbTransform(world, 0, local, 0, q, t);
      for (let k = 0; k < 3; k++) expect(world[3 + k] - world[k]).toBeLessThanOrEqual(2 * halfDiagonal + 1e-12);
      // The anti-pattern for contrast: re-boxing last frame's world box under the frame's delta.
      drifting = Array.from(aabbTransform(new Float64Array(6), 0, drifting, 0, d, [0, 0, 0]));
    }
    // Back at the identity, the box is the local box (shifted), exactly up to rounding.
    aabbTransform(world, 0, local, 0, [0, 0, 0, 1], t);
    for (let k = 0; k < 6; k++) expect(world[k]).toBeCloseTo(local[k] + t[k % 3], 12);
    // Accumulating world boxes would have blown up far beyond the shape's diagonal.
    expect(drifting[3] - drifting[0]).toBeGreaterThan(4 * halfDiagonal);
  });
});
