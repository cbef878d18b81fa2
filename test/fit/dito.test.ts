import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { ditoObb } from '../../src/fit/dito';
import { CollideInputError } from '../../src/errors';
import { OBB_STRIDE } from '../../src/layout';
import { obbContainsPoint, obbVolume } from '../../src/volumes/obb';
import { mulberry32, quaternionToAxes, randomQuaternion } from '../../scenes/random';
import { loadBunny } from '../../scenes/meshes';

const KS = [14, 26] as const;

/** Points uniformly inside a rotated box with the given half-extents, centre and optional corners. */
function boxCloud(rand: () => number, n: number, half: number[], centre: number[], withCorners: boolean) {
  const axes = quaternionToAxes(randomQuaternion(rand));
  const local: number[][] = Array.from({ length: n }, () => half.map((h) => (2 * rand() - 1) * h));
  if (withCorners) for (let i = 0; i < 8; i++) local.push(half.map((h, c) => ((i >> c) & 1 ? h : -h)));
  const pts = new Float64Array(3 * local.length);
  local.forEach((l, i) => {
    for (let c = 0; c < 3; c++) pts[3 * i + c] = centre[c] + l[0] * axes[c] + l[1] * axes[3 + c] + l[2] * axes[6 + c];
  });
  return { pts, n: local.length };
}

function checkBox(box: Float64Array, pts: ArrayLike<number>, n: number): void {
  const a = box.subarray(3, 12);
  const col = (k: number) => [a[3 * k], a[3 * k + 1], a[3 * k + 2]];
  const dot = (u: number[], v: number[]) => u[0] * v[0] + u[1] * v[1] + u[2] * v[2];
  const [u, v, w] = [col(0), col(1), col(2)];
  for (const [x, y, e] of [[u, u, 1], [v, v, 1], [w, w, 1], [u, v, 0], [v, w, 0], [u, w, 0]] as const) {
    expect(Math.abs(dot(x, y) - e)).toBeLessThan(1e-12);
  }
  const det = dot(u, [v[1] * w[2] - v[2] * w[1], v[2] * w[0] - v[0] * w[2], v[0] * w[1] - v[1] * w[0]]);
  expect(det).toBeCloseTo(1, 12);
  let size = 0, far = 0;
  for (let i = 0; i < 3 * n; i++) far = Math.max(far, Math.abs(pts[i]));
  for (let k = 0; k < 3; k++) {
    expect(box[12 + k]).toBeGreaterThanOrEqual(0);
    size = Math.max(size, box[12 + k]);
  }
  const tol = 1e-9 * size + 1e-13 * far;
  for (let i = 0; i < n; i++) expect(obbContainsPoint(box, 0, pts[3 * i], pts[3 * i + 1], pts[3 * i + 2], tol)).toBe(true);
}

describe('ditoObb', () => {
  it('contains every point with an orthonormal right-handed frame, at any offset', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...KS),
        fc.integer(),
        fc.integer({ min: 1, max: 60 }),
        fc.constantFrom(0, 1e6, -2.5e5),
        fc.constantFrom(1e-3, 1, 1e3),
        (k, seed, n, offset, size) => {
          const rand = mulberry32(seed);
          const pts = Float64Array.from({ length: 3 * n }, () => offset + (rand() - 0.5) * size);
          const box = ditoObb(new Float64Array(OBB_STRIDE), 0, pts, n, k);
          checkBox(box as Float64Array, pts, n);
        },
      ),
      { numRuns: 300 },
    );
  });

  it('fits box-shaped clouds (corners plus samples) within 1.5x the generating box volume', () => {
    const rand = mulberry32(2024);
    for (let trial = 0; trial < 200; trial++) {
      const k = KS[trial % 2];
      const half = [1 + 9 * rand(), 0.3 + rand(), 0.1 + 0.5 * rand()];
      const centre = [0, 1, 2].map(() => (rand() - 0.5) * (trial % 3 === 0 ? 2e6 : 20));
      const { pts, n } = boxCloud(rand, 200, half, centre, true);
      const box = ditoObb(new Float64Array(OBB_STRIDE), 0, pts, n, k) as Float64Array;
      checkBox(box, pts, n);
      expect(obbVolume(box) / (8 * half[0] * half[1] * half[2])).toBeLessThanOrEqual(1.5);
    }
  });

  it('stays within 1.5x the generating box volume on typical interior-only box clouds', () => {
    // Without corners the extremal points are random, so only the typical (median) case is bounded.
    const rand = mulberry32(77);
    for (const k of KS) {
      const ratios: number[] = [];
      for (let trial = 0; trial < 100; trial++) {
        const half = [1 + 9 * rand(), 0.3 + rand(), 0.1 + 0.5 * rand()];
        const { pts, n } = boxCloud(rand, 300, half, [0, 0, 0], false);
        const box = ditoObb(new Float64Array(OBB_STRIDE), 0, pts, n, k) as Float64Array;
        ratios.push(obbVolume(box) / (8 * half[0] * half[1] * half[2]));
      }
      ratios.sort((a, b) => a - b);
      expect(ratios[50]).toBeLessThanOrEqual(1.5);
    }
  });

  it('beats or matches the axis-aligned box (its starting candidate) on the bunny', () => {
    const bunny = loadBunny();
    for (const k of KS) {
      const box = ditoObb(new Float64Array(OBB_STRIDE), 0, bunny.positions, bunny.vertexCount, k) as Float64Array;
      checkBox(box, bunny.positions, bunny.vertexCount);
      let lo = [Infinity, Infinity, Infinity], hi = [-Infinity, -Infinity, -Infinity];
      for (let i = 0; i < bunny.vertexCount; i++) {
        lo = lo.map((x, c) => Math.min(x, bunny.positions[3 * i + c]));
        hi = hi.map((x, c) => Math.max(x, bunny.positions[3 * i + c]));
      }
      const aabbArea = 2 * ((hi[0] - lo[0]) * (hi[1] - lo[1]) + (hi[1] - lo[1]) * (hi[2] - lo[2]) + (hi[2] - lo[2]) * (hi[0] - lo[0]));
      const h = box.subarray(12, 15);
      const area = 8 * (h[0] * h[1] + h[1] * h[2] + h[2] * h[0]);
      expect(area).toBeLessThanOrEqual(aabbArea * (1 + 1e-9));
    }
  });

  it('gives a zero box for one point or duplicates', () => {
    for (const k of KS) {
      for (const pts of [[3, -4, 1e6], [2, 2, 2, 2, 2, 2, 2, 2, 2]]) {
        const n = pts.length / 3;
        const box = ditoObb(new Float64Array(OBB_STRIDE), 0, pts, n, k) as Float64Array;
        checkBox(box, pts, n);
        expect(Array.from(box.subarray(0, 3))).toEqual(pts.slice(0, 3));
        expect(Array.from(box.subarray(12, 15))).toEqual([0, 0, 0]);
      }
    }
  });

  it('gives a box along the line for collinear points', () => {
    fc.assert(
      fc.property(fc.constantFrom(...KS), fc.integer(), fc.integer({ min: 2, max: 30 }), fc.constantFrom(0, 1e6), (k, seed, n, offset) => {
        const rand = mulberry32(seed);
        const d = quaternionToAxes(randomQuaternion(rand));
        const ts = Array.from({ length: n }, () => (rand() - 0.5) * 50);
        ts[1] = ts[0] + 3;
        const pts = new Float64Array(3 * n);
        ts.forEach((t, i) => {
          for (let c = 0; c < 3; c++) pts[3 * i + c] = offset + t * d[c];
        });
        const box = ditoObb(new Float64Array(OBB_STRIDE), 0, pts, n, k) as Float64Array;
        checkBox(box, pts, n);
        const h = Array.from(box.subarray(12, 15)).sort((a, b) => a - b);
        const len = Math.max(...ts) - Math.min(...ts);
        const tol = 1e-9 * len + 1e-12 * offset;
        expect(h[0]).toBeLessThanOrEqual(tol);
        expect(h[1]).toBeLessThanOrEqual(tol);
        expect(Math.abs(h[2] - len / 2)).toBeLessThanOrEqual(tol);
      }),
    );
  });

  it('gives a flat box for coplanar points', () => {
    fc.assert(
      fc.property(fc.constantFrom(...KS), fc.integer(), fc.integer({ min: 3, max: 40 }), fc.constantFrom(0, -1e6), (k, seed, n, offset) => {
        const rand = mulberry32(seed);
        const a = quaternionToAxes(randomQuaternion(rand));
        const pts = new Float64Array(3 * n);
        for (let i = 0; i < n; i++) {
          const s = (rand() - 0.5) * 20, t = (rand() - 0.5) * 8;
          for (let c = 0; c < 3; c++) pts[3 * i + c] = offset + s * a[c] + t * a[3 + c];
        }
        const box = ditoObb(new Float64Array(OBB_STRIDE), 0, pts, n, k) as Float64Array;
        checkBox(box, pts, n);
        const h = Array.from(box.subarray(12, 15)).sort((x, y) => x - y);
        expect(h[0]).toBeLessThanOrEqual(1e-9 * h[2] + 1e-12 * Math.abs(offset));
        expect(h[1]).toBeGreaterThan(0);
      }),
    );
  });

  it('reads points at an offset and writes at an output offset', () => {
    const rand = mulberry32(4);
    const { pts, n } = boxCloud(rand, 50, [4, 2, 1], [1, 2, 3], false);
    const padded = new Float64Array(5 + pts.length);
    padded.set(pts, 5);
    const a = ditoObb(new Float64Array(OBB_STRIDE), 0, pts, n, 26);
    const b = ditoObb(new Float64Array(OBB_STRIDE + 2), 2, padded, n, 26, 5);
    expect(Array.from(b).slice(2)).toEqual(Array.from(a));
  });

  it('rejects bad input', () => {
    const out = new Float64Array(OBB_STRIDE);
    expect(() => ditoObb(out, 0, [], 0, 14)).toThrow(CollideInputError);
    expect(() => ditoObb(out, 0, [0, Infinity, 0], 1, 14)).toThrow(CollideInputError);
    expect(() => ditoObb(out, 0, [0, 0, 0], 1, 18 as 14)).toThrow(CollideInputError);
  });
});
