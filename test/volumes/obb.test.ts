import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { obbContainsPoint, obbCorners, obbFromAxes, obbSurfaceArea, obbTransform, obbTransformCentered, obbVolume } from '../../src/volumes/obb';
import { OBB_STRIDE } from '../../src/layout';
import { mulberry32, quaternionToAxes, randomQuaternion } from '../../scenes/random';

const dot = (a: ArrayLike<number>, ai: number, b: ArrayLike<number>, bi: number) =>
  a[ai] * b[bi] + a[ai + 1] * b[bi + 1] + a[ai + 2] * b[bi + 2];

function randomBox(rand: () => number, scale = 10): Float64Array {
  const box = new Float64Array(OBB_STRIDE);
  for (let i = 0; i < 3; i++) box[i] = (rand() - 0.5) * scale;
  box.set(quaternionToAxes(randomQuaternion(rand)), 3);
  for (let i = 0; i < 3; i++) box[12 + i] = rand() * 3;
  return box;
}

describe('obbFromAxes', () => {
  it('is the tightest box along the axes: contains every point, and each face touches one', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 40 }), fc.integer(), fc.double({ min: -1e6, max: 1e6, noNaN: true }), (n, seed, offset) => {
        const rand = mulberry32(seed);
        const pts = Float64Array.from({ length: 3 * n }, () => offset + (rand() - 0.5) * 20);
        const axes = quaternionToAxes(randomQuaternion(rand));
        const box = obbFromAxes(new Float64Array(OBB_STRIDE), 0, axes, 0, pts, n) as Float64Array;
        const tol = 1e-9 * (Math.abs(offset) + 20);
        for (let k = 0; k < 3; k++) {
          const c = dot(box, 0, axes, 3 * k);
          let lo = Infinity, hi = -Infinity;
          for (let i = 0; i < n; i++) {
            const d = dot(pts, 3 * i, axes, 3 * k);
            lo = Math.min(lo, d);
            hi = Math.max(hi, d);
          }
          expect(Math.abs(c - box[12 + k] - lo)).toBeLessThanOrEqual(tol);
          expect(Math.abs(c + box[12 + k] - hi)).toBeLessThanOrEqual(tol);
        }
        for (let i = 0; i < n; i++) expect(obbContainsPoint(box, 0, pts[3 * i], pts[3 * i + 1], pts[3 * i + 2], tol)).toBe(true);
      }),
    );
  });
});

describe('obbTransform', () => {
  it('maps the corners of the local box onto the corners of the world box', () => {
    const rand = mulberry32(7);
    const local = new Float64Array(OBB_STRIDE);
    const world = new Float64Array(OBB_STRIDE);
    const lc = new Float64Array(24);
    const wc = new Float64Array(24);
    for (let trial = 0; trial < 500; trial++) {
      local.set(randomBox(rand));
      const q = randomQuaternion(rand);
      const t = [rand() * 100 - 50, rand() * 100 - 50, rand() * 100 - 50];
      const s = trial % 5 === 0 ? -(0.5 + rand()) : 0.5 + rand();
      obbTransform(world, 0, local, 0, q, t, s);
      obbCorners(lc, local);
      obbCorners(wc, world);
      const r = quaternionToAxes(q);
      // Every transformed local corner is some world corner (the set is the same, order may differ).
      for (let i = 0; i < 8; i++) {
        const p = [0, 1, 2].map((c) => t[c] + s * (r[c] * lc[3 * i] + r[3 + c] * lc[3 * i + 1] + r[6 + c] * lc[3 * i + 2]));
        let best = Infinity;
        for (let j = 0; j < 8; j++) best = Math.min(best, Math.hypot(p[0] - wc[3 * j], p[1] - wc[3 * j + 1], p[2] - wc[3 * j + 2]));
        expect(best).toBeLessThan(1e-9);
      }
      expect(obbVolume(world)).toBeCloseTo(Math.abs(s) ** 3 * obbVolume(local), 9);
      expect(obbSurfaceArea(world)).toBeCloseTo(s * s * obbSurfaceArea(local), 9);
    }
  });
});

describe('obbTransformCentered', () => {
  it('writes exactly what obbTransform writes for a local box centred at the origin with identity axes', () => {
    const rand = mulberry32(8);
    for (const Store of [Float64Array, Float32Array]) {
      const local = new Store(OBB_STRIDE);
      const general = new Store(OBB_STRIDE), centered = new Store(OBB_STRIDE);
      for (let trial = 0; trial < 1000; trial++) {
        local.fill(0);
        local[3] = local[7] = local[11] = 1;
        for (let k = 0; k < 3; k++) local[12 + k] = rand() * 3;
        const q = randomQuaternion(rand);
        const t = [rand() * 2e4 - 1e4, rand() * 2e4 - 1e4, rand() * 2e4 - 1e4];
        const s = trial % 5 === 0 ? -(0.5 + rand()) : 0.5 + rand();
        obbTransform(general, 0, local, 0, q, t, s);
        obbTransformCentered(centered, 0, local, 0, q, t, s);
        expect(Array.from(centered)).toEqual(Array.from(general));
      }
    }
  });
});

describe('obbContainsPoint', () => {
  it('agrees with a reference built from the box corners (inside iff inside all 6 face planes)', () => {
    const rand = mulberry32(11);
    const corners = new Float64Array(24);
    let inside = 0;
    for (let trial = 0; trial < 2000; trial++) {
      const box = randomBox(rand);
      obbCorners(corners, box);
      const p = [box[0] + (rand() - 0.5) * 6, box[1] + (rand() - 0.5) * 6, box[2] + (rand() - 0.5) * 6];
      // Reference: for each axis, p's projection lies between the min and max corner projections.
      let ref = true;
      for (let k = 0; k < 3; k++) {
        let lo = Infinity, hi = -Infinity;
        for (let i = 0; i < 8; i++) {
          const d = dot(corners, 3 * i, box, 3 + 3 * k);
          lo = Math.min(lo, d);
          hi = Math.max(hi, d);
        }
        const d = p[0] * box[3 + 3 * k] + p[1] * box[4 + 3 * k] + p[2] * box[5 + 3 * k];
        if (d < lo - 1e-12 || d > hi + 1e-12) ref = false;
      }
      if (ref) inside++;
      expect(obbContainsPoint(box, 0, p[0], p[1], p[2])).toBe(ref);
    }
    expect(inside).toBeGreaterThan(100);
  });
});
