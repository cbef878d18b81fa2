import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { CollideInputError } from '../../src/errors';
import { OBB_STRIDE } from '../../src/layout';
import { obbFromAxes, obbSurfaceArea, obbVolume } from '../../src/volumes/obb';
import {
  fitObb,
  fitObbHullTriangles,
  fitObbPcaHull,
  fitObbPcaPoints,
  fitObbRefined,
  fitObbSegments,
  fitObbTriangles,
  refineObb,
  type ObbFitMethod,
} from '../../src/fit/obbFit';
import { pointMoments, segmentMoments, triangleMoments } from '../../src/fit/moments';
import { loadBunny } from '../../scenes/meshes';
import { mulberry32, quaternionToAxes, randomQuaternion } from '../../scenes/random';

const POINT_METHODS: ObbFitMethod[] = ['pca-points', 'pca-hull', 'hull-triangles', 'dito14', 'dito26', 'refined'];
const SHAPES = ['cloud', 'single', 'duplicates', 'collinear', 'coplanar', 'grid', 'box'] as const;
type Shape = (typeof SHAPES)[number];

/** A point set of the given shape, randomly rotated, scaled and offset. */
function makeSet(shape: Shape, n: number, seed: number, scale: number, offset: number): Float64Array {
  const rand = mulberry32(seed);
  const r = quaternionToAxes(randomQuaternion(rand));
  const local: number[] = [];
  const side = Math.max(2, Math.round(Math.sqrt(n)));
  for (let i = 0; i < n; i++) {
    let x = rand() - 0.5, y = rand() - 0.5, z = rand() - 0.5;
    if (shape === 'single') x = y = z = 0.1;
    if (shape === 'duplicates') [x, y, z] = i % 2 ? [0.3, -0.2, 0.1] : [-0.1, 0.4, 0.2];
    if (shape === 'collinear') y = z = 0;
    if (shape === 'coplanar') z = 0;
    if (shape === 'grid') [x, y, z] = [(i % side) / side, Math.floor(i / side) / side, 0];
    if (shape === 'box') {
      // Corners (so the box is the exact minimum) plus points on its faces.
      const axis = i % 3;
      const pick = [x, y, z];
      if (i < 8) for (let k = 0; k < 3; k++) pick[k] = (i >> k) & 1 ? 0.5 : -0.5;
      else pick[axis] = rand() < 0.5 ? -0.5 : 0.5;
      [x, y, z] = [pick[0] * 3, pick[1] * 2, pick[2]];
    }
    local.push(x, y, z);
  }
  const pts = new Float64Array(3 * n);
  for (let i = 0; i < n; i++) {
    const [x, y, z] = [local[3 * i] * scale, local[3 * i + 1] * scale, local[3 * i + 2] * scale];
    for (let c = 0; c < 3; c++) pts[3 * i + c] = offset + r[c] * x + r[3 + c] * y + r[6 + c] * z;
  }
  return pts;
}

function extentOf(pts: ArrayLike<number>, n: number): { extent: number; maxAbs: number } {
  let extent = 0, maxAbs = 0;
  for (let c = 0; c < 3; c++) {
    let lo = Infinity, hi = -Infinity;
    for (let i = 0; i < n; i++) {
      lo = Math.min(lo, pts[3 * i + c]);
      hi = Math.max(hi, pts[3 * i + c]);
      maxAbs = Math.max(maxAbs, Math.abs(pts[3 * i + c]));
    }
    extent = Math.max(extent, hi - lo);
  }
  return { extent, maxAbs };
}

/** Containment tolerance: 1e-5 of the set's extent, plus rounding of far-from-origin coordinates. */
const containTolerance = (pts: ArrayLike<number>, n: number) => {
  const { extent, maxAbs } = extentOf(pts, n);
  return 1e-5 * extent + 1e-12 * maxAbs;
};

/** Asserts a right-handed orthonormal frame, valid half-extents, and that every point is inside. */
function checkBox(box: ArrayLike<number>, pts: ArrayLike<number>, n: number): void {
  const ax = (k: number, c: number) => box[3 + 3 * k + c];
  for (let i = 0; i < 3; i++) {
    for (let j = 0; j < 3; j++) {
      const d = ax(i, 0) * ax(j, 0) + ax(i, 1) * ax(j, 1) + ax(i, 2) * ax(j, 2);
      expect(Math.abs(d - (i === j ? 1 : 0))).toBeLessThanOrEqual(1e-9);
    }
  }
  const cross = [ax(0, 1) * ax(1, 2) - ax(0, 2) * ax(1, 1), ax(0, 2) * ax(1, 0) - ax(0, 0) * ax(1, 2), ax(0, 0) * ax(1, 1) - ax(0, 1) * ax(1, 0)];
  expect(cross[0] * ax(2, 0) + cross[1] * ax(2, 1) + cross[2] * ax(2, 2)).toBeCloseTo(1, 9);
  for (let k = 0; k < 3; k++) {
    expect(Number.isFinite(box[12 + k])).toBe(true);
    expect(box[12 + k]).toBeGreaterThanOrEqual(0);
  }
  const tol = containTolerance(pts, n);
  for (let i = 0; i < n; i++) {
    for (let k = 0; k < 3; k++) {
      let d = 0;
      for (let c = 0; c < 3; c++) d += (pts[3 * i + c] - box[c]) * ax(k, c);
      expect(Math.abs(d)).toBeLessThanOrEqual(box[12 + k] + tol);
    }
  }
}

/** Reference mean and covariance of weighted samples (two-pass). */
function sampleMoments(samples: number[][], weights: number[]): number[] {
  const w = weights.reduce((a, b) => a + b, 0);
  const mean = [0, 1, 2].map((c) => samples.reduce((s, p, i) => s + weights[i] * p[c], 0) / w);
  const pairs = [[0, 0], [0, 1], [0, 2], [1, 1], [1, 2], [2, 2]];
  const cov = pairs.map(([a, b]) => samples.reduce((s, p, i) => s + weights[i] * (p[a] - mean[a]) * (p[b] - mean[b]), 0) / w);
  return [...mean, ...cov];
}

const lerp3 = (p: number[], q: number[], t: number) => p.map((v, c) => v + t * (q[c] - v));
const vertex = (pos: ArrayLike<number>, v: number) => [pos[3 * v], pos[3 * v + 1], pos[3 * v + 2]];
const triArea = (p: number[], q: number[], r: number[]) => {
  const a = q.map((v, c) => v - p[c]), b = r.map((v, c) => v - p[c]);
  return 0.5 * Math.hypot(a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]);
};

/** Dense sampling of triangle surfaces: each split into N² congruent pieces, sampled at their centroids. */
function sampledTriangleMoments(pos: ArrayLike<number>, tris: number[][], N: number): number[] {
  const samples: number[][] = [], weights: number[] = [];
  for (const [a, b, c] of tris) {
    const [p, q, r] = [vertex(pos, a), vertex(pos, b), vertex(pos, c)];
    const w = triArea(p, q, r) / (N * N);
    const at = (i: number, j: number) => p.map((v, k) => v + (i / N) * (q[k] - v) + (j / N) * (r[k] - v));
    for (let i = 0; i < N; i++) {
      for (let j = 0; i + j < N; j++) {
        const up = [at(i, j), at(i + 1, j), at(i, j + 1)];
        samples.push([0, 1, 2].map((k) => (up[0][k] + up[1][k] + up[2][k]) / 3));
        weights.push(w);
        if (i + j + 1 < N) {
          const down = [at(i + 1, j), at(i, j + 1), at(i + 1, j + 1)];
          samples.push([0, 1, 2].map((k) => (down[0][k] + down[1][k] + down[2][k]) / 3));
          weights.push(w);
        }
      }
    }
  }
  return sampleMoments(samples, weights);
}

/** Dense midpoint sampling of segments. */
function sampledSegmentMoments(pos: ArrayLike<number>, segs: number[][], N: number): number[] {
  const samples: number[][] = [], weights: number[] = [];
  for (const [a, b] of segs) {
    const [p, q] = [vertex(pos, a), vertex(pos, b)];
    const w = Math.hypot(q[0] - p[0], q[1] - p[1], q[2] - p[2]) / N;
    for (let i = 0; i < N; i++) {
      samples.push(lerp3(p, q, (i + 0.5) / N));
      weights.push(w);
    }
  }
  return sampleMoments(samples, weights);
}

function expectMomentsClose(got: ArrayLike<number>, want: number[], extent: number, relative: number): void {
  for (let i = 0; i < 3; i++) expect(Math.abs(got[i] - want[i])).toBeLessThanOrEqual(relative * extent);
  for (let i = 3; i < 9; i++) expect(Math.abs(got[i] - want[i])).toBeLessThanOrEqual(relative * extent * extent);
}

const shapeArb = fc.constantFrom(...SHAPES);
const scaleArb = fc.double({ min: 1e-3, max: 1e3, noNaN: true });
const offsetArb = fc.oneof(fc.constant(0), fc.double({ min: -1e6, max: 1e6, noNaN: true }));

describe('fitObb (all point methods)', () => {
  it('gives a right-handed orthonormal box containing every point, degenerate and far sets included', () => {
    const box = new Float64Array(OBB_STRIDE + 2);
    fc.assert(
      fc.property(shapeArb, fc.integer({ min: 1, max: 60 }), fc.integer(), scaleArb, offsetArb, fc.constantFrom(...POINT_METHODS), (shape, n, seed, scale, offset, method) => {
        const pts = makeSet(shape, shape === 'box' ? Math.max(n, 8) : n, seed, scale, offset);
        const count = pts.length / 3;
        // Write at an offset inside a larger array to check the out offset is honoured.
        box.fill(NaN);
        fitObb(box, 2, pts, count, method);
        checkBox(box.subarray(2), pts, count);
      }),
      { numRuns: 400 },
    );
  });

  it('reads points from an offset', () => {
    const pts = makeSet('cloud', 30, 5, 2, 10);
    const padded = new Float64Array(pts.length + 7);
    padded.set(pts, 7);
    for (const method of POINT_METHODS) {
      const a = fitObb(new Float64Array(OBB_STRIDE), 0, pts, 30, method);
      const b = fitObb(new Float64Array(OBB_STRIDE), 0, padded, 30, method, 7);
      expect(Array.from(b)).toEqual(Array.from(a));
    }
  });

  it('gives flat boxes for flat sets and a point box for a single point', () => {
    const box = new Float64Array(OBB_STRIDE);
    for (const method of POINT_METHODS) {
      for (let seed = 0; seed < 20; seed++) {
        for (const offset of [0, 1e6]) {
          const tol = 1e-9 * 10 + 1e-12 * offset;
          const halves = () => [...box.subarray(12)].sort((a, b) => a - b);
          fitObb(box, 0, makeSet('coplanar', 40, seed, 10, offset), 40, method);
          expect(halves()[0]).toBeLessThanOrEqual(tol);
          fitObb(box, 0, makeSet('collinear', 40, seed, 10, offset), 40, method);
          expect(halves()[1]).toBeLessThanOrEqual(tol);
          const one = makeSet('single', 1, seed, 10, offset);
          fitObb(box, 0, one, 1, method);
          expect(halves()[2]).toBeLessThanOrEqual(tol);
          for (let c = 0; c < 3; c++) expect(Math.abs(box[c] - one[c])).toBeLessThanOrEqual(tol);
        }
      }
    }
  });

  it('rejects empty and non-finite input and unknown methods', () => {
    const box = new Float64Array(OBB_STRIDE);
    for (const method of POINT_METHODS) {
      expect(() => fitObb(box, 0, [], 0, method)).toThrow(CollideInputError);
      expect(() => fitObb(box, 0, [0, 0, 0, 1, NaN, 0], 2, method)).toThrow(CollideInputError);
      expect(() => fitObb(box, 0, [0, 0, Infinity], 1, method)).toThrow(CollideInputError);
      expect(() => fitObb(box, 0, [0, 0, 0], 2, method)).toThrow(CollideInputError);
    }
    expect(() => fitObb(box, 0, [0, 0, 0], 1, 'nope' as ObbFitMethod)).toThrow(CollideInputError);
  });
});

describe('PCA fits', () => {
  it('recover the long and short axes of an elongated box from points inside it', () => {
    const rand = mulberry32(21);
    const box = new Float64Array(OBB_STRIDE);
    for (let trial = 0; trial < 20; trial++) {
      const r = quaternionToAxes(randomQuaternion(rand));
      const half = [10, 2, 0.5];
      const n = 2000;
      const pts = new Float64Array(3 * n);
      for (let i = 0; i < n; i++) {
        const l = half.map((h) => (2 * rand() - 1) * h);
        for (let c = 0; c < 3; c++) pts[3 * i + c] = 1e6 + r[c] * l[0] + r[3 + c] * l[1] + r[6 + c] * l[2];
      }
      fitObbPcaPoints(box, 0, pts, n);
      for (const k of [0, 2]) {
        const d = box[3 + 3 * k] * r[3 * k] + box[4 + 3 * k] * r[3 * k + 1] + box[5 + 3 * k] * r[3 * k + 2];
        expect(Math.abs(d)).toBeGreaterThan(0.999);
      }
      // The hull methods see the box's 8 corners and faces: exact axes, exact box.
      for (const fit of [fitObbPcaHull, fitObbHullTriangles]) {
        fit(box, 0, makeSet('box', 200, trial, 1, 0), 200);
        expect(obbVolume(box)).toBeCloseTo(6, 9);
      }
    }
  });
});

describe('triangle and segment moments', () => {
  it('match dense sampling of the triangle surfaces, also far from the origin', () => {
    fc.assert(
      fc.property(fc.integer(), fc.integer({ min: 1, max: 4 }), offsetArb, (seed, m, offset) => {
        const rand = mulberry32(seed);
        const nv = m + 3;
        const pos = Float64Array.from({ length: 3 * nv }, () => offset + (rand() - 0.5) * 4);
        const tris = Array.from({ length: m }, (_, t) => [t, t + 1 + Math.floor(rand() * 2), nv - 1]);
        const got = new Float64Array(9);
        const area = triangleMoments(got, pos, tris.flat(), m);
        const local = Float64Array.from(pos, (v) => v - offset);
        expect(area).toBeCloseTo(tris.reduce((s, [a, b, c]) => s + triArea(vertex(local, a), vertex(local, b), vertex(local, c)), 0), 6);
        const want = sampledTriangleMoments(local, tris, 40);
        want[0] += offset; want[1] += offset; want[2] += offset;
        expectMomentsClose(got, want, 4, 1e-3);
      }),
      { numRuns: 60 },
    );
  });

  it('match dense sampling of segments, also far from the origin', () => {
    fc.assert(
      fc.property(fc.integer(), fc.integer({ min: 1, max: 5 }), offsetArb, (seed, m, offset) => {
        const rand = mulberry32(seed);
        const pos = Float64Array.from({ length: 6 * m }, () => offset + (rand() - 0.5) * 4);
        const got = new Float64Array(9);
        const length = segmentMoments(got, pos, null, m);
        const local = Float64Array.from(pos, (v) => v - offset);
        const segs = Array.from({ length: m }, (_, s) => [2 * s, 2 * s + 1]);
        expect(length).toBeCloseTo(segs.reduce((s, [a, b]) => s + Math.hypot(...vertex(local, a).map((v, c) => v - local[3 * b + c])), 0), 6);
        const want = sampledSegmentMoments(local, segs, 2000);
        want[0] += offset; want[1] += offset; want[2] += offset;
        expectMomentsClose(got, want, 4, 1e-5);
      }),
      { numRuns: 60 },
    );
  });

  it('ignore zero-measure elements and fall back to corner points when all are degenerate', () => {
    const pos = [0, 0, 0, 1, 0, 0, 0, 2, 0, 5, 5, 5];
    const withSliver = new Float64Array(9), alone = new Float64Array(9);
    triangleMoments(withSliver, pos, [0, 1, 2, 3, 3, 3], 2);
    triangleMoments(alone, pos, [0, 1, 2], 1);
    for (let i = 0; i < 9; i++) expect(withSliver[i]).toBeCloseTo(alone[i], 12);
    const degenerate = new Float64Array(9), points = new Float64Array(9);
    expect(triangleMoments(degenerate, pos, [0, 1, 1, 2, 2, 3], 2)).toBe(0);
    pointMoments(points, [0, 0, 0, 1, 0, 0, 1, 0, 0, 0, 2, 0, 0, 2, 0, 5, 5, 5], 6);
    for (let i = 0; i < 9; i++) expect(degenerate[i]).toBeCloseTo(points[i], 12);
    expect(segmentMoments(degenerate, pos, [3, 3], 1)).toBe(0);
    expect([...degenerate]).toEqual([5, 5, 5, 0, 0, 0, 0, 0, 0]);
  });
});

describe('fitObbTriangles / fitObbSegments', () => {
  const bunny = loadBunny();

  it('bound exactly the referenced vertices of an index range, like the same triangles unindexed', () => {
    const rand = mulberry32(9);
    const a = new Float64Array(OBB_STRIDE), b = new Float64Array(OBB_STRIDE);
    for (let trial = 0; trial < 30; trial++) {
      const first = Math.floor(rand() * (bunny.triangleCount - 200));
      const count = 1 + Math.floor(rand() * 200);
      fitObbTriangles(a, 0, bunny.positions, bunny.indices, count, first);
      const soup = new Float64Array(9 * count);
      for (let i = 0; i < 3 * count; i++) soup.set(vertex(bunny.positions, bunny.indices[3 * first + i]), 3 * i);
      fitObbTriangles(b, 0, soup, null, count);
      for (let i = 0; i < OBB_STRIDE; i++) expect(Math.abs(a[i] - b[i])).toBeLessThanOrEqual(1e-12 * (1 + Math.abs(b[i])));
      checkBox(a, soup, 3 * count);
    }
  });

  it('contain their elements, degenerate ones included', () => {
    fc.assert(
      fc.property(shapeArb, fc.integer({ min: 1, max: 10 }), fc.integer(), offsetArb, (shape, m, seed, offset) => {
        const tri = makeSet(shape, 3 * m, seed, 5, offset);
        checkBox(fitObbTriangles(new Float64Array(OBB_STRIDE), 0, tri, null, m), tri, 3 * m);
        const seg = makeSet(shape, 2 * m, seed, 5, offset);
        checkBox(fitObbSegments(new Float64Array(OBB_STRIDE), 0, seg, null, m), seg, 2 * m);
      }),
      { numRuns: 200 },
    );
  });

  it('align with a straight chain of segments', () => {
    const box = new Float64Array(OBB_STRIDE);
    const dir = [1 / 3, 2 / 3, 2 / 3];
    const pos = Array.from({ length: 5 }, (_, i) => dir.map((d) => 100 + d * i * i)).flat();
    fitObbSegments(box, 0, pos, [0, 1, 1, 2, 2, 3, 3, 4], 4);
    expect(Math.abs(box[3] * dir[0] + box[4] * dir[1] + box[5] * dir[2])).toBeCloseTo(1, 12);
    expect(box[12]).toBeCloseTo(8, 9);
    expect(box[13] + box[14]).toBeLessThanOrEqual(1e-12);
  });

  it('reject bad counts, indices and coordinates', () => {
    const box = new Float64Array(OBB_STRIDE);
    const pos = [0, 0, 0, 1, 0, 0, 0, 1, 0];
    expect(() => fitObbTriangles(box, 0, pos, null, 0)).toThrow(CollideInputError);
    expect(() => fitObbTriangles(box, 0, pos, null, 1, 1)).toThrow(CollideInputError);
    expect(() => fitObbTriangles(box, 0, pos, [0, 1, 3], 1)).toThrow(CollideInputError);
    expect(() => fitObbTriangles(box, 0, pos, [0, 1, 1.5], 1)).toThrow(CollideInputError);
    expect(() => fitObbTriangles(box, 0, pos, [0, 1], 1)).toThrow(CollideInputError);
    expect(() => fitObbTriangles(box, 0, [0, 0, 0, 1, 0, NaN, 0, 1, 0], null, 1)).toThrow(CollideInputError);
    expect(() => fitObbSegments(box, 0, pos, [0, -1], 1)).toThrow(CollideInputError);
    expect(() => fitObbSegments(box, 0, pos, null, 2)).toThrow(CollideInputError);
  });
});

describe('fitObbRefined', () => {
  it('is never larger than the PCA, hull, DiTO-26 and axis-aligned boxes it starts from', () => {
    const box = new Float64Array(OBB_STRIDE), other = new Float64Array(OBB_STRIDE);
    fc.assert(
      fc.property(fc.constantFrom<Shape>('cloud', 'box'), fc.integer({ min: 4, max: 80 }), fc.integer(), offsetArb, (shape, n, seed, offset) => {
        const pts = makeSet(shape, Math.max(n, 8), seed, 10, offset);
        const count = pts.length / 3;
        fitObbRefined(box, 0, pts, count);
        // 1e-9: far from the origin the projections themselves round at ~1e-16 of the offset.
        const v = obbVolume(box);
        for (const method of ['pca-points', 'pca-hull', 'hull-triangles', 'dito26'] as const) {
          expect(v).toBeLessThanOrEqual(obbVolume(fitObb(other, 0, pts, count, method)) * (1 + 1e-9));
        }
        const aabb = [0, 1, 2].map((c) => {
          let lo = Infinity, hi = -Infinity;
          for (let i = 0; i < count; i++) [lo, hi] = [Math.min(lo, pts[3 * i + c]), Math.max(hi, pts[3 * i + c])];
          return hi - lo;
        });
        expect(v).toBeLessThanOrEqual(aabb[0] * aabb[1] * aabb[2] * (1 + 1e-9));
      }),
      { numRuns: 100 },
    );
  });

  it('refineObb never grows a box and finds a rotated box from a poor start', () => {
    const rand = mulberry32(4);
    const box = new Float64Array(OBB_STRIDE);
    for (let trial = 0; trial < 20; trial++) {
      const pts = makeSet('box', 300, trial, 1, 0); // true minimum: 3 x 2 x 1
      // Start from the tight box along a random frame.
      obbFromAxes(box, 0, quaternionToAxes(randomQuaternion(rand)), 0, pts, 300);
      const startVolume = obbVolume(box);
      refineObb(box, 0, pts, 300);
      checkBox(box, pts, 300);
      const v = obbVolume(box);
      expect(v).toBeLessThanOrEqual(startVolume);
      expect(v).toBeGreaterThanOrEqual(6 * (1 - 1e-9));
      // The local search converges to the true minimum here (3 x 2 x 1), to its angle resolution.
      expect(v).toBeLessThanOrEqual(6 * (1 + 1e-3));
    }
  });

  it('minimises the area of flat sets, also small and far from the origin', () => {
    const rand = mulberry32(8);
    const box = new Float64Array(OBB_STRIDE);
    for (let trial = 0; trial < 20; trial++) {
      const [scale, offset] = [[1, 0], [1e-3, 1e6], [1, 1e6]][trial % 3];
      const r = quaternionToAxes(randomQuaternion(rand));
      // A unit square: its corners and points on its edges (in-plane covariance is near isotropic,
      // so PCA picks a random frame in the plane and the search has to turn it).
      const n = 40;
      const pts = new Float64Array(3 * n);
      for (let i = 0; i < n; i++) {
        let [x, y] = [rand() - 0.5, rand() - 0.5];
        if (i < 4) [x, y] = [i & 1 ? 0.5 : -0.5, i & 2 ? 0.5 : -0.5];
        else if (i % 2) x = x < 0 ? -0.5 : 0.5;
        else y = y < 0 ? -0.5 : 0.5;
        for (let c = 0; c < 3; c++) pts[3 * i + c] = offset + scale * (r[c] * x + r[3 + c] * y);
      }
      fitObbRefined(box, 0, pts, n);
      checkBox(box, pts, n);
      expect(obbSurfaceArea(box)).toBeLessThanOrEqual(2 * scale * scale * (1 + 1e-3));
    }
  });

  it('shrinks real meshes below every other method', () => {
    const bunny = loadBunny();
    const box = new Float64Array(OBB_STRIDE);
    const refined = obbVolume(fitObb(box, 0, bunny.positions, bunny.vertexCount, 'refined'));
    checkBox(box, bunny.positions, bunny.vertexCount);
    for (const method of ['pca-points', 'pca-hull', 'hull-triangles', 'dito26'] as const) {
      expect(refined).toBeLessThanOrEqual(obbVolume(fitObb(box, 0, bunny.positions, bunny.vertexCount, method)));
    }
  });

  it('rejects bad options', () => {
    const box = new Float64Array(OBB_STRIDE);
    const pts = makeSet('cloud', 10, 1, 1, 0);
    for (const options of [{ initialAngle: 0 }, { minAngle: -1 }, { maxEvaluations: NaN }, { initialAngle: Infinity }]) {
      expect(() => fitObbRefined(box, 0, pts, 10, 0, options)).toThrow(CollideInputError);
    }
    box.fill(0);
    expect(() => refineObb(box, 0, pts, 10)).toThrow(CollideInputError);
    box.set([1, 0, 0, 2, 0, 0, 0, 0, 1], 3);
    expect(() => refineObb(box, 0, pts, 10)).toThrow(CollideInputError);
  });
});
