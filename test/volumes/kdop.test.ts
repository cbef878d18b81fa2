import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { kdopContainsPoint, kdopFromAabb, kdopFromPoints, kdopOverlap, kdopRefit } from '../../src/volumes/kdop';
import { CollideInputError } from '../../src/errors';
import type { KdopK } from '../../src/layout';
import { mulberry32, quaternionToAxes, randomQuaternion } from '../../scenes/random';

const KS: KdopK[] = [6, 14, 18, 26];

/** Independent direction table: written out here, in the order the layout documents. */
const REF_DIRS: Record<KdopK, number[][]> = (() => {
  const axes = [[1, 0, 0], [0, 1, 0], [0, 0, 1]];
  const corners = [[1, 1, 1], [1, 1, -1], [1, -1, 1], [1, -1, -1]];
  const edges = [[1, 1, 0], [1, 0, 1], [0, 1, 1], [1, -1, 0], [1, 0, -1], [0, 1, -1]];
  return { 6: axes, 14: [...axes, ...corners], 18: [...axes, ...edges], 26: [...axes, ...corners, ...edges] };
})();

/** Brute-force slabs: [min_i, max_i] of dot(p, d_i) over the points. */
function refSlabs(k: KdopK, pts: number[][]): [number, number][] {
  return REF_DIRS[k].map((d) => {
    const s = pts.map((p) => p[0] * d[0] + p[1] * d[1] + p[2] * d[2]);
    return [Math.min(...s), Math.max(...s)];
  });
}

const flat = (pts: number[][]) => Float64Array.from(pts.flat());

function randomPoints(rand: () => number, n: number, centre: number[], size: number): number[][] {
  return Array.from({ length: n }, () => centre.map((c) => c + (rand() - 0.5) * size));
}

const arbK = fc.constantFrom(...KS);

describe('kdopFromPoints', () => {
  it('equals the brute-force slabs and contains every point', () => {
    fc.assert(
      fc.property(arbK, fc.integer({ min: 1, max: 30 }), fc.integer(), fc.constantFrom(0, 1e6, -3e5), (k, n, seed, off) => {
        const rand = mulberry32(seed);
        const pts = randomPoints(rand, n, [off, -off, off], 10);
        const kd = kdopFromPoints(new Float64Array(k), 0, k, flat(pts), n);
        const ref = refSlabs(k, pts);
        ref.forEach(([lo, hi], i) => {
          expect(kd[i]).toBe(lo);
          expect(kd[k / 2 + i]).toBe(hi);
        });
        for (const p of pts) expect(kdopContainsPoint(kd, 0, k, p[0], p[1], p[2])).toBe(true);
      }),
    );
  });

  it('rejects bad input', () => {
    expect(() => kdopFromPoints(new Float64Array(14), 0, 14, [], 0)).toThrow(CollideInputError);
    expect(() => kdopFromPoints(new Float64Array(14), 0, 14, [0, NaN, 0], 1)).toThrow(CollideInputError);
    expect(() => kdopFromPoints(new Float64Array(14), 0, 10 as KdopK, [0, 0, 0], 1)).toThrow(CollideInputError);
  });
});

describe('kdopContainsPoint', () => {
  it('agrees with the brute-force slabs, and the tolerance widens every slab', () => {
    const rand = mulberry32(21);
    for (let trial = 0; trial < 300; trial++) {
      const k = KS[trial % 4];
      const pts = randomPoints(rand, 8, [0, 0, 0], 4);
      const kd = kdopFromPoints(new Float64Array(k), 0, k, flat(pts), 8);
      const ref = refSlabs(k, pts);
      const q = [(rand() - 0.5) * 6, (rand() - 0.5) * 6, (rand() - 0.5) * 6];
      const margin = Math.min(...REF_DIRS[k].map((d, i) => {
        const s = q[0] * d[0] + q[1] * d[1] + q[2] * d[2];
        return Math.min(s - ref[i][0], ref[i][1] - s);
      }));
      expect(kdopContainsPoint(kd, 0, k, q[0], q[1], q[2])).toBe(margin >= 0);
      expect(kdopContainsPoint(kd, 0, k, q[0], q[1], q[2], Math.max(0, -margin) + 1e-12)).toBe(true);
    }
  });
});

describe('kdopOverlap', () => {
  it('equals the slab-by-slab reference on random pairs, including exact touching', () => {
    fc.assert(
      fc.property(arbK, fc.integer(), fc.integer({ min: 0, max: 12 }), fc.boolean(), (k, seed, slab, touch) => {
        const rand = mulberry32(seed);
        // Integer coordinates keep every dot product exact, so touching is exact.
        const ipts = (c: number[]) => Array.from({ length: 6 }, () => c.map((x) => x + Math.floor((rand() - 0.5) * 8)));
        const a = ipts([0, 0, 0]);
        let b = ipts([Math.floor((rand() - 0.5) * 16), Math.floor((rand() - 0.5) * 16), Math.floor((rand() - 0.5) * 16)]);
        const ra = refSlabs(k, a);
        if (touch) {
          // Slide b along one slab direction until its min meets a's max in that slab exactly.
          const i = slab % (k / 2);
          const d = REF_DIRS[k][i];
          const gap = ra[i][1] - refSlabs(k, b)[i][0];
          const dd = d[0] * d[0] + d[1] * d[1] + d[2] * d[2];
          if (gap % dd === 0) b = b.map((p) => p.map((x, c) => x + (gap / dd) * d[c]));
        }
        const rb = refSlabs(k, b);
        const expected = ra.every(([lo, hi], i) => hi >= rb[i][0] && rb[i][1] >= lo);
        const ka = kdopFromPoints(new Float64Array(k + 2), 2, k, flat(a), 6);
        const kb = kdopFromPoints(new Float64Array(k + 1), 1, k, flat(b), 6);
        expect(kdopOverlap(ka, 2, kb, 1, k)).toBe(expected);
        expect(kdopOverlap(kb, 1, ka, 2, k)).toBe(expected);
      }),
      { numRuns: 400 },
    );
  });

  it('counts exactly touching boxes as overlapping, and a tiny gap as separated', () => {
    for (const k of KS) {
      const a = kdopFromAabb(new Float64Array(k), 0, k, [0, 0, 0, 1, 1, 1]);
      const touching = kdopFromAabb(new Float64Array(k), 0, k, [1, 1, 1, 2, 2, 2]);
      const apart = kdopFromAabb(new Float64Array(k), 0, k, [1 + 1e-9, 0, 0, 2, 1, 1]);
      expect(kdopOverlap(a, 0, touching, 0, k)).toBe(true);
      expect(kdopOverlap(a, 0, apart, 0, k)).toBe(false);
    }
  });

  it('never reports intersecting convex sets as separated (conservative)', () => {
    fc.assert(
      fc.property(arbK, fc.integer(), (k, seed) => {
        const rand = mulberry32(seed);
        const a = randomPoints(rand, 5, [0, 0, 0], 10);
        const b = randomPoints(rand, 5, [(rand() - 0.5) * 20, (rand() - 0.5) * 20, (rand() - 0.5) * 20], 10);
        // A common point of both hulls: a convex combination of a's points, added to b.
        const w = a.map(() => rand());
        const ws = w.reduce((s, x) => s + x, 0);
        b.push([0, 1, 2].map((c) => a.reduce((s, p, i) => s + (w[i] / ws) * p[c], 0)));
        const ka = kdopFromPoints(new Float64Array(k), 0, k, flat(a), a.length);
        const kb = kdopFromPoints(new Float64Array(k), 0, k, flat(b), b.length);
        expect(kdopOverlap(ka, 0, kb, 0, k)).toBe(true);
      }),
      { numRuns: 300 },
    );
  });
});

describe('kdopRefit', () => {
  it('equals kdopFromPoints of the transformed vertices (any scale sign, large translations)', () => {
    fc.assert(
      fc.property(
        arbK,
        fc.integer(),
        fc.integer({ min: 1, max: 20 }),
        fc.double({ min: -3, max: 3, noNaN: true }),
        fc.constantFrom(0, 1e6),
        (k, seed, n, scale, far) => {
          const rand = mulberry32(seed);
          const local = randomPoints(rand, n, [0, 0, 0], 6);
          const q = randomQuaternion(rand);
          const t = [far + (rand() - 0.5) * 50, (rand() - 0.5) * 50, -far];
          const r = quaternionToAxes(q);
          const world = local.map((p) => [0, 1, 2].map((c) => t[c] + scale * (r[c] * p[0] + r[3 + c] * p[1] + r[6 + c] * p[2])));
          const got = kdopRefit(new Float64Array(k + 3), 3, k, flat(local), n, q, t, scale);
          const ref = refSlabs(k, world);
          const tol = 1e-12 * (far + 100);
          ref.forEach(([lo, hi], i) => {
            expect(Math.abs(got[3 + i] - lo)).toBeLessThanOrEqual(tol);
            expect(Math.abs(got[3 + k / 2 + i] - hi)).toBeLessThanOrEqual(tol);
          });
        },
      ),
      { numRuns: 300 },
    );
  });
});

describe('kdopFromAabb', () => {
  it('equals the k-DOP of the 8 corners', () => {
    const rand = mulberry32(8);
    for (let trial = 0; trial < 200; trial++) {
      const k = KS[trial % 4];
      const lo = [0, 1, 2].map(() => (rand() - 0.5) * 1e3);
      const hi = lo.map((x) => x + rand() * 10 * (trial % 7 === 0 ? 0 : 1));
      const corners = Array.from({ length: 8 }, (_, i) => [i & 1 ? hi[0] : lo[0], i & 2 ? hi[1] : lo[1], i & 4 ? hi[2] : lo[2]]);
      const got = kdopFromAabb(new Float64Array(k), 0, k, [...lo, ...hi]);
      refSlabs(k, corners).forEach(([a, b], i) => {
        expect(got[i]).toBeCloseTo(a, 9);
        expect(got[k / 2 + i]).toBeCloseTo(b, 9);
      });
    }
  });
});
