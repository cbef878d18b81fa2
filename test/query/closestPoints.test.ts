import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import {
  CLOSEST_ON_SEGMENT_STRIDE,
  CLOSEST_ON_TRIANGLE_STRIDE,
  CLOSEST_SEGMENTS_STRIDE,
  RECT_STRIDE,
  closestPtPointAabb,
  closestPtPointObb,
  closestPtPointRect,
  closestPtPointSegment,
  closestPtPointTriangle,
  closestPtSegmentSegment,
} from '../../src/query/closestPoints';
import { OBB_STRIDE } from '../../src/layout';
import { obbContainsPoint, obbCorners } from '../../src/volumes/obb';
import { mulberry32, quaternionToAxes, randomQuaternion } from '../../scenes/random';

type V = [number, number, number];
const sub = (a: V, b: V): V => [a[0] - b[0], a[1] - b[1], a[2] - b[2]];
const dot = (a: V, b: V) => a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
const len = (a: V) => Math.sqrt(dot(a, a));
const lerp = (a: V, b: V, t: number): V => [a[0] + t * (b[0] - a[0]), a[1] + t * (b[1] - a[1]), a[2] + t * (b[2] - a[2])];
const at = (arr: ArrayLike<number>, i: number): V => [arr[i], arr[i + 1], arr[i + 2]];
const dist2 = (a: V, b: V) => dot(sub(a, b), sub(a, b));

/** Minimum of a convex function on [lo, hi] by ternary search (independent of the kernels). */
function ternaryMin(f: (x: number) => number, lo: number, hi: number, iterations = 90): number {
  for (let i = 0; i < iterations; i++) {
    const m1 = lo + (hi - lo) / 3, m2 = hi - (hi - lo) / 3;
    if (f(m1) <= f(m2)) hi = m2;
    else lo = m1;
  }
  return Math.min(f(lo), f(hi), f(0.5 * (lo + hi)));
}

/** Random point near the origin shifted by `offset`, coordinates of size `scale`. */
const randomPoint = (rand: () => number, offset: number, scale = 10): V => [
  offset + (rand() - 0.5) * scale,
  offset + (rand() - 0.5) * scale,
  offset + (rand() - 0.5) * scale,
];

/** Length unit of rounding error: coordinates near `offset` with features of size `size`. */
const lengthTolerance = (offset: number, size: number) => 1e-11 * (Math.abs(offset) + size + 1);

const OFFSETS = [0, 1e6, -3.5e5];

describe('closestPtPointSegment', () => {
  const kinds = ['general', 'zeroLength', 'onSegment', 'atEndpoint'] as const;
  it('returns the true minimum: on the segment, optimal (vertex certificate) and matches dense sampling', () => {
    const out = new Float64Array(CLOSEST_ON_SEGMENT_STRIDE + 1);
    fc.assert(
      fc.property(fc.integer(), fc.constantFrom(...kinds), fc.constantFrom(...OFFSETS), (seed, kind, offset) => {
        const rand = mulberry32(seed);
        const a = randomPoint(rand, offset);
        const b = kind === 'zeroLength' ? a : randomPoint(rand, offset);
        let p = randomPoint(rand, offset, 30);
        if (kind === 'onSegment') p = lerp(a, b, rand());
        if (kind === 'atEndpoint') p = rand() < 0.5 ? a : b;
        const seg = Float64Array.from([...a, ...b]);
        const d2 = closestPtPointSegment(out, 1, p[0], p[1], p[2], seg, 0);
        const q = at(out, 1), t = out[4];
        const tol = lengthTolerance(offset, 30);
        expect(t).toBeGreaterThanOrEqual(0);
        expect(t).toBeLessThanOrEqual(1);
        expect(len(sub(q, lerp(a, b, t)))).toBeLessThanOrEqual(tol);
        expect(Math.abs(d2 - dist2(p, q))).toBeLessThanOrEqual(tol * (Math.sqrt(d2) + tol));
        // Optimality over a convex set: no vertex lies beyond the plane through q normal to p − q.
        for (const x of [a, b]) expect(dot(sub(p, q), sub(x, q))).toBeLessThanOrEqual(tol * 60);
        let sampled = Infinity;
        const n = 2000;
        for (let i = 0; i <= n; i++) sampled = Math.min(sampled, Math.sqrt(dist2(p, lerp(a, b, i / n))));
        const d = Math.sqrt(d2);
        expect(d).toBeLessThanOrEqual(sampled + tol);
        expect(d).toBeGreaterThanOrEqual(sampled - len(sub(b, a)) / n - tol);
        if (kind === 'onSegment' || kind === 'atEndpoint') expect(d).toBeLessThanOrEqual(tol * 10);
      }),
      { numRuns: 400 },
    );
  });
});

describe('closestPtPointTriangle', () => {
  const kinds = ['general', 'thinButValid', 'collinear', 'coincidentPair', 'allCoincident', 'onEdge', 'onVertex', 'inFace'] as const;
  it('returns the true minimum: barycentrics in range, optimal, and matches sampling and a ternary reference', () => {
    const out = new Float64Array(CLOSEST_ON_TRIANGLE_STRIDE);
    fc.assert(
      fc.property(fc.integer(), fc.constantFrom(...kinds), fc.constantFrom(...OFFSETS), (seed, kind, offset) => {
        const rand = mulberry32(seed);
        const a = randomPoint(rand, offset);
        let b = randomPoint(rand, offset);
        let c = randomPoint(rand, offset);
        if (kind === 'collinear') c = lerp(a, b, rand() * 3 - 1);
        if (kind === 'thinButValid') c = lerp(a, b, 0.5).map((v, i) => v + (i === 2 ? 1e-3 : 0)) as V;
        if (kind === 'coincidentPair') b = [...a];
        if (kind === 'allCoincident') b = c = [...a];
        let p = randomPoint(rand, offset, 30);
        if (kind === 'onEdge') p = lerp(b, c, rand());
        if (kind === 'onVertex') p = [...c];
        if (kind === 'inFace') p = lerp(lerp(a, b, rand()), c, rand() * 0.9);
        const tri = Float64Array.from([...a, ...b, ...c]);
        const d2 = closestPtPointTriangle(out, 0, p[0], p[1], p[2], tri, 0);
        const q = at(out, 0);
        const [u, v, w] = [out[3], out[4], out[5]];
        const tol = lengthTolerance(offset, 30);
        for (const x of [u, v, w]) {
          expect(x).toBeGreaterThanOrEqual(-1e-9);
          expect(x).toBeLessThanOrEqual(1 + 1e-9);
        }
        expect(Math.abs(u + v + w - 1)).toBeLessThanOrEqual(1e-9);
        const fromWeights: V = [0, 1, 2].map((i) => u * a[i] + v * b[i] + w * c[i]) as V;
        expect(len(sub(q, fromWeights))).toBeLessThanOrEqual(tol * 1e3);
        for (const x of [a, b, c]) expect(dot(sub(p, q), sub(x, q))).toBeLessThanOrEqual(tol * 60);

        const ab = sub(b, a), ac = sub(c, a);
        const at2 = (s: number, r: number) => dist2(p, [a[0] + s * ab[0] + r * ac[0], a[1] + s * ab[1] + r * ac[1], a[2] + s * ab[2] + r * ac[2]]);
        const reference = Math.sqrt(ternaryMin((s) => ternaryMin((r) => at2(s, r), 0, 1 - s, 60), 0, 1, 60));
        const n = 80;
        let sampled = Infinity;
        for (let i = 0; i <= n; i++) for (let j = 0; i + j <= n; j++) sampled = Math.min(sampled, at2(i / n, j / n));
        sampled = Math.sqrt(sampled);
        const d = Math.sqrt(d2);
        const longest = Math.max(len(ab), len(ac), len(sub(c, b)));
        expect(d).toBeLessThanOrEqual(sampled + tol);
        expect(d).toBeGreaterThanOrEqual(sampled - (2 * longest) / n - tol);
        expect(Math.abs(d - reference)).toBeLessThanOrEqual(1e-6 * (longest + 1) + tol);
        if (kind === 'onEdge' || kind === 'onVertex' || kind === 'inFace') expect(d).toBeLessThanOrEqual(tol * 100);
      }),
      { numRuns: 400 },
    );
  });

  it('handles exact vertex, edge and face regions of a simple triangle', () => {
    const out = new Float64Array(CLOSEST_ON_TRIANGLE_STRIDE);
    const tri = [0, 0, 0, 2, 0, 0, 0, 2, 0];
    expect(closestPtPointTriangle(out, 0, -1, -1, 0, tri, 0)).toBe(2);
    expect([...out]).toEqual([0, 0, 0, 1, 0, 0]);
    expect(closestPtPointTriangle(out, 0, 1, -3, 4, tri, 0)).toBe(25);
    expect([...out]).toEqual([1, 0, 0, 0.5, 0.5, 0]);
    expect(closestPtPointTriangle(out, 0, 2, 2, 0, tri, 0)).toBe(2);
    expect([...out.slice(0, 3)]).toEqual([1, 1, 0]);
    expect(closestPtPointTriangle(out, 0, 0.5, 0.5, -3, tri, 0)).toBe(9);
    expect([...out]).toEqual([0.5, 0.5, 0, 0.5, 0.25, 0.25]);
  });
});

function randomObb(rand: () => number, offset: number): Float64Array {
  const box = new Float64Array(OBB_STRIDE);
  box.set(randomPoint(rand, offset), 0);
  box.set(quaternionToAxes(randomQuaternion(rand)), 3);
  for (let i = 0; i < 3; i++) box[12 + i] = rand() < 0.15 ? 0 : rand() * 4;
  return box;
}

describe('closestPtPointObb / closestPtPointAabb / closestPtPointRect', () => {
  it('OBB: the point is in the box, optimal against all corners, and no sampled box point is closer', () => {
    const out = new Float64Array(3);
    const corners = new Float64Array(24);
    fc.assert(
      fc.property(fc.integer(), fc.constantFrom(...OFFSETS), fc.boolean(), (seed, offset, inside) => {
        const rand = mulberry32(seed);
        const box = randomObb(rand, offset);
        const p: V = inside ? [0, 1, 2].map((i) => box[i] + (rand() - 0.5) * box[12 + ((i + 1) % 3)]) as V : randomPoint(rand, offset, 30);
        const d2 = closestPtPointObb(out, 0, p[0], p[1], p[2], box, 0);
        const q = at(out, 0);
        const tol = lengthTolerance(offset, 30);
        expect(obbContainsPoint(box, 0, q[0], q[1], q[2], tol)).toBe(true);
        expect(Math.abs(d2 - dist2(p, q))).toBeLessThanOrEqual(tol * (Math.sqrt(d2) + tol));
        obbCorners(corners, box, 0);
        for (let k = 0; k < 8; k++) expect(dot(sub(p, q), sub(at(corners, 3 * k), q))).toBeLessThanOrEqual(tol * 60);
        if (obbContainsPoint(box, 0, p[0], p[1], p[2])) expect(d2).toBeLessThanOrEqual(tol * tol);
        // Dense sampling of the solid box: nothing beats the answer.
        let sampled = Infinity;
        for (let i = 0; i < 1000; i++) {
          const x: V = [box[0], box[1], box[2]];
          for (let k = 0; k < 3; k++) {
            const s = (2 * rand() - 1) * box[12 + k];
            for (let j = 0; j < 3; j++) x[j] += s * box[3 + 3 * k + j];
          }
          sampled = Math.min(sampled, dist2(p, x));
        }
        expect(Math.sqrt(d2)).toBeLessThanOrEqual(Math.sqrt(sampled) + tol);
      }),
      { numRuns: 300 },
    );
  });

  it('AABB: agrees with the box as an axis-aligned OBB and with per-axis clamping', () => {
    const out = new Float64Array(3);
    const viaObb = new Float64Array(3);
    fc.assert(
      fc.property(fc.integer(), fc.constantFrom(...OFFSETS), (seed, offset) => {
        const rand = mulberry32(seed);
        const lo = randomPoint(rand, offset);
        const size = [rand() * 5, rand() < 0.2 ? 0 : rand() * 5, rand() * 5];
        const box = [...lo, lo[0] + size[0], lo[1] + size[1], lo[2] + size[2]];
        const p = randomPoint(rand, offset, 30);
        const d2 = closestPtPointAabb(out, 0, p[0], p[1], p[2], box, 0);
        const obb = [0, 1, 2].map((i) => 0.5 * (box[i] + box[i + 3]));
        obb.push(1, 0, 0, 0, 1, 0, 0, 0, 1, ...size.map((s) => s / 2));
        const d2Obb = closestPtPointObb(viaObb, 0, p[0], p[1], p[2], obb, 0);
        const tol = lengthTolerance(offset, 30);
        let expected = 0;
        for (let i = 0; i < 3; i++) {
          const gap = Math.max(box[i] - p[i], 0, p[i] - box[i + 3]);
          expected += gap * gap;
          expect(Math.abs(out[i] - viaObb[i])).toBeLessThanOrEqual(tol);
        }
        expect(d2).toBe(expected);
        expect(Math.abs(Math.sqrt(d2) - Math.sqrt(d2Obb))).toBeLessThanOrEqual(tol);
      }),
      { numRuns: 300 },
    );
  });

  it('rectangle: in the rectangle, optimal against its corners, and flat (equals an OBB with zero third extent)', () => {
    const out = new Float64Array(3);
    const viaObb = new Float64Array(3);
    fc.assert(
      fc.property(fc.integer(), fc.constantFrom(...OFFSETS), (seed, offset) => {
        const rand = mulberry32(seed);
        const obb = randomObb(rand, offset);
        obb[14] = 0;
        const rect = new Float64Array(RECT_STRIDE);
        rect.set(obb.subarray(0, 9), 0);
        rect[9] = obb[12];
        rect[10] = obb[13];
        const p = randomPoint(rand, offset, 30);
        const d2 = closestPtPointRect(out, 0, p[0], p[1], p[2], rect, 0);
        closestPtPointObb(viaObb, 0, p[0], p[1], p[2], obb, 0);
        const q = at(out, 0);
        const tol = lengthTolerance(offset, 30);
        expect(len(sub(q, at(viaObb, 0)))).toBeLessThanOrEqual(tol);
        const c = at(rect, 0), u0 = at(rect, 3), u1 = at(rect, 6);
        for (const [s0, s1] of [[-1, -1], [-1, 1], [1, -1], [1, 1]]) {
          const corner: V = [0, 1, 2].map((i) => c[i] + s0 * rect[9] * u0[i] + s1 * rect[10] * u1[i]) as V;
          expect(dot(sub(p, q), sub(corner, q))).toBeLessThanOrEqual(tol * 60);
        }
        expect(Math.abs(dot(sub(q, c), [u0[1] * u1[2] - u0[2] * u1[1], u0[2] * u1[0] - u0[0] * u1[2], u0[0] * u1[1] - u0[1] * u1[0]]))).toBeLessThanOrEqual(tol);
        expect(Math.abs(d2 - dist2(p, q))).toBeLessThanOrEqual(tol * (Math.sqrt(d2) + tol));
      }),
      { numRuns: 300 },
    );
  });
});

describe('closestPtSegmentSegment', () => {
  const kinds = ['general', 'crossing', 'parallel', 'collinearOverlap', 'collinearApart', 'firstPoint', 'secondPoint', 'bothPoints', 'samePoint', 'shared endpoint', 'identical'] as const;
  it('returns the true minimum: parameters in range, optimal pair, matches sampling and a ternary reference', () => {
    const out = new Float64Array(CLOSEST_SEGMENTS_STRIDE);
    fc.assert(
      fc.property(fc.integer(), fc.constantFrom(...kinds), fc.constantFrom(...OFFSETS), (seed, kind, offset) => {
        const rand = mulberry32(seed);
        let p1 = randomPoint(rand, offset), q1 = randomPoint(rand, offset);
        let p2 = randomPoint(rand, offset), q2 = randomPoint(rand, offset);
        const d = sub(q1, p1);
        if (kind === 'crossing') {
          const x = lerp(p1, q1, rand());
          q2 = lerp(p2, x, 1 / (0.1 + 0.8 * rand()));
        }
        if (kind === 'parallel') q2 = [p2[0] + 0.7 * d[0], p2[1] + 0.7 * d[1], p2[2] + 0.7 * d[2]];
        if (kind === 'collinearOverlap' || kind === 'collinearApart') {
          const shift = kind === 'collinearOverlap' ? 0.5 : 1.5;
          p2 = lerp(p1, q1, shift);
          q2 = lerp(p1, q1, shift + (rand() < 0.5 ? 1 : -0.3));
        }
        if (kind === 'firstPoint' || kind === 'bothPoints' || kind === 'samePoint') q1 = [...p1];
        if (kind === 'secondPoint' || kind === 'bothPoints') q2 = [...p2];
        if (kind === 'samePoint') p2 = q2 = [...p1];
        if (kind === 'shared endpoint') p2 = [...q1];
        if (kind === 'identical') [p2, q2] = rand() < 0.5 ? [p1, q1] : [q1, p1];
        const s1 = Float64Array.from([...p1, ...q1]), s2 = Float64Array.from([...p2, ...q2]);
        const d2 = closestPtSegmentSegment(out, 0, s1, 0, s2, 0);
        const a = at(out, 0), b = at(out, 3), s = out[6], t = out[7];
        const tol = lengthTolerance(offset, 30);
        for (const x of [s, t]) {
          expect(x).toBeGreaterThanOrEqual(0);
          expect(x).toBeLessThanOrEqual(1);
        }
        expect(len(sub(a, lerp(p1, q1, s)))).toBeLessThanOrEqual(tol);
        expect(len(sub(b, lerp(p2, q2, t)))).toBeLessThanOrEqual(tol);
        expect(Math.abs(d2 - dist2(a, b))).toBeLessThanOrEqual(tol * (Math.sqrt(d2) + tol));
        // Optimal pair of two convex sets: each point is closest on its set to the other.
        const w = sub(a, b);
        for (const x of [p1, q1]) expect(dot(w, sub(x, a))).toBeGreaterThanOrEqual(-tol * 60);
        for (const y of [p2, q2]) expect(dot(w, sub(y, b))).toBeLessThanOrEqual(tol * 60);

        const f = (u: number, v: number) => dist2(lerp(p1, q1, u), lerp(p2, q2, v));
        const reference = Math.sqrt(ternaryMin((u) => ternaryMin((v) => f(u, v), 0, 1, 60), 0, 1, 60));
        const n = 150;
        let sampled = Infinity;
        for (let i = 0; i <= n; i++) for (let j = 0; j <= n; j++) sampled = Math.min(sampled, f(i / n, j / n));
        sampled = Math.sqrt(sampled);
        const dist = Math.sqrt(d2);
        const l1 = len(sub(q1, p1)), l2 = len(sub(q2, p2));
        expect(dist).toBeLessThanOrEqual(sampled + tol);
        expect(dist).toBeGreaterThanOrEqual(sampled - (l1 + l2) / n - tol);
        expect(Math.abs(dist - reference)).toBeLessThanOrEqual(1e-6 * (l1 + l2 + 1) + tol);
        if (['crossing', 'collinearOverlap', 'samePoint', 'shared endpoint', 'identical'].includes(kind)) {
          expect(dist).toBeLessThanOrEqual(tol * 100);
        }
      }),
      { numRuns: 400 },
    );
  });

  it('exact small cases: skew, parallel overlapping, both degenerate', () => {
    const out = new Float64Array(CLOSEST_SEGMENTS_STRIDE);
    expect(closestPtSegmentSegment(out, 0, [-1, 0, 0, 1, 0, 0], 0, [0, -1, 2, 0, 1, 2], 0)).toBe(4);
    expect([...out]).toEqual([0, 0, 0, 0, 0, 2, 0.5, 0.5]);
    expect(closestPtSegmentSegment(out, 0, [0, 0, 0, 4, 0, 0], 0, [1, 3, 0, 6, 3, 0], 0)).toBe(9);
    expect(closestPtSegmentSegment(out, 0, [1, 1, 1, 1, 1, 1], 0, [1, 1, 4, 1, 1, 4], 0)).toBe(9);
    expect([...out]).toEqual([1, 1, 1, 1, 1, 4, 0, 0]);
  });
});
