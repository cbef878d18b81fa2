import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import {
  ritterSphere,
  sphereContainsPoint,
  sphereFromAabb,
  sphereOverlap,
  sphereTransform,
  welzlSphere,
} from '../../src/volumes/sphere';
import { CollideInputError } from '../../src/errors';
import { SPHERE_STRIDE } from '../../src/layout';
import { mulberry32, quaternionToAxes, randomQuaternion } from '../../scenes/random';

type Fitter = typeof welzlSphere;
const FITTERS: [string, Fitter][] = [
  ['sphereFromAabb', sphereFromAabb],
  ['ritterSphere', ritterSphere],
  ['welzlSphere', welzlSphere],
];

const fit = (f: Fitter, pts: ArrayLike<number>, n = pts.length / 3) => f(new Float64Array(SPHERE_STRIDE), 0, pts, n) as Float64Array;

/** Unit vector uniformly on the sphere. */
function unit(rand: () => number): [number, number, number] {
  const z = 2 * rand() - 1;
  const a = 2 * Math.PI * rand();
  const s = Math.sqrt(1 - z * z);
  return [s * Math.cos(a), s * Math.sin(a), z];
}

type Kind = 'cloud' | 'cospherical' | 'collinear' | 'coplanar' | 'duplicates' | 'single' | 'cocircular';
const KINDS: Kind[] = ['cloud', 'cospherical', 'collinear', 'coplanar', 'duplicates', 'single', 'cocircular'];

/** Adversarial and random point sets of one kind, around `offset`, of size about `size`. */
function makeSet(kind: Kind, n: number, rand: () => number, offset: number, size: number): Float64Array {
  const pts: number[] = [];
  const o = [offset, -0.5 * offset, 0.25 * offset];
  const push = (x: number, y: number, z: number) => pts.push(o[0] + x, o[1] + y, o[2] + z);
  const dir = unit(rand);
  const u = unit(rand);
  // second in-plane direction, orthogonal to u
  const w = [dir[1] * u[2] - dir[2] * u[1], dir[2] * u[0] - dir[0] * u[2], dir[0] * u[1] - dir[1] * u[0]];
  const wl = Math.hypot(w[0], w[1], w[2]) || 1;
  const v = [w[0] / wl, w[1] / wl, w[2] / wl];
  const uu = [dir[1] * v[2] - dir[2] * v[1], dir[2] * v[0] - dir[0] * v[2], dir[0] * v[1] - dir[1] * v[0]];
  for (let i = 0; i < n; i++) {
    switch (kind) {
      case 'cloud':
        push((rand() - 0.5) * size, (rand() - 0.5) * size, (rand() - 0.5) * size);
        break;
      case 'cospherical': {
        const e = unit(rand);
        push(e[0] * size, e[1] * size, e[2] * size);
        break;
      }
      case 'collinear': {
        const t = (rand() - 0.5) * size;
        push(t * dir[0], t * dir[1], t * dir[2]);
        break;
      }
      case 'coplanar': {
        const a = (rand() - 0.5) * size, b = (rand() - 0.5) * size;
        push(a * uu[0] + b * v[0], a * uu[1] + b * v[1], a * uu[2] + b * v[2]);
        break;
      }
      case 'cocircular': {
        const t = 2 * Math.PI * rand();
        const a = Math.cos(t) * size, b = Math.sin(t) * size;
        push(a * uu[0] + b * v[0], a * uu[1] + b * v[1], a * uu[2] + b * v[2]);
        break;
      }
      case 'duplicates': {
        if (i < 3 || rand() < 0.3) push((rand() - 0.5) * size, (rand() - 0.5) * size, (rand() - 0.5) * size);
        else {
          const j = Math.floor(rand() * (pts.length / 3));
          pts.push(pts[3 * j], pts[3 * j + 1], pts[3 * j + 2]);
        }
        break;
      }
      case 'single':
        push(size, -size, 0.5 * size);
        break;
    }
  }
  return Float64Array.from(pts);
}

const setArb = fc.record({
  kind: fc.constantFrom(...KINDS),
  n: fc.integer({ min: 1, max: 60 }),
  seed: fc.integer(),
  offset: fc.constantFrom(0, 1e6, -3.5e5, 17),
  size: fc.constantFrom(1e-3, 1, 50, 1e3),
});

// ---- independent reference: smallest sphere among all 2-, 3-, 4-point boundary spheres ----

/** Solves the 3x3 system M x = b by Gaussian elimination with partial pivoting; null if singular. */
function solve3(m: number[][], b: number[]): number[] | null {
  const a = m.map((row, i) => [...row, b[i]]);
  const scale = Math.max(...a.flat().map(Math.abs)) || 1;
  for (let c = 0; c < 3; c++) {
    let p = c;
    for (let r = c + 1; r < 3; r++) if (Math.abs(a[r][c]) > Math.abs(a[p][c])) p = r;
    if (Math.abs(a[p][c]) < 1e-9 * scale) return null;
    [a[c], a[p]] = [a[p], a[c]];
    for (let r = 0; r < 3; r++) {
      if (r === c) continue;
      const f = a[r][c] / a[c][c];
      for (let k = c; k < 4; k++) a[r][k] -= f * a[c][k];
    }
  }
  return [a[0][3] / a[0][0], a[1][3] / a[1][1], a[2][3] / a[2][2]];
}

const sub = (p: number[], q: number[]) => [p[0] - q[0], p[1] - q[1], p[2] - q[2]];
const dot3 = (p: number[], q: number[]) => p[0] * q[0] + p[1] * q[1] + p[2] * q[2];
const cross = (p: number[], q: number[]) => [p[1] * q[2] - p[2] * q[1], p[2] * q[0] - p[0] * q[2], p[0] * q[1] - p[1] * q[0]];

/** Centre (relative to `a`) of the sphere with all given points on its boundary and centre in their affine hull. */
function boundaryCentre(set: number[][]): number[] | null {
  const a = set[0];
  const e = set.slice(1).map((p) => sub(p, a));
  if (e.length === 1) return [e[0][0] / 2, e[0][1] / 2, e[0][2] / 2];
  if (e.length === 2) {
    // centre = s e0 + t e1 with 2 (e_i · c) = |e_i|²; a third equation pins c to the plane.
    const n = cross(e[0], e[1]);
    return solve3([e[0], e[1], n], [dot3(e[0], e[0]) / 2, dot3(e[1], e[1]) / 2, 0]);
  }
  return solve3(e, e.map((v) => dot3(v, v) / 2));
}

function bruteMinimalRadius(pts: Float64Array): number {
  const n = pts.length / 3;
  const P = Array.from({ length: n }, (_, i) => [pts[3 * i], pts[3 * i + 1], pts[3 * i + 2]]);
  let extent = 0;
  for (const p of P) for (const q of P) extent = Math.max(extent, Math.hypot(...sub(p, q)));
  const tol = 1e-9 * extent + 1e-15 * Math.max(...pts.map(Math.abs));
  let best = n === 1 ? 0 : Infinity;
  const consider = (idx: number[]) => {
    const set = idx.map((i) => P[i]);
    const c = boundaryCentre(set);
    if (!c) return;
    const r = Math.hypot(...c);
    if (r >= best) return;
    const centre = [set[0][0] + c[0], set[0][1] + c[1], set[0][2] + c[2]];
    if (P.every((p) => Math.hypot(...sub(p, centre)) <= r + tol)) best = r;
  };
  for (let i = 0; i < n; i++)
    for (let j = i + 1; j < n; j++) {
      consider([i, j]);
      for (let k = j + 1; k < n; k++) {
        consider([i, j, k]);
        for (let l = k + 1; l < n; l++) consider([i, j, k, l]);
      }
    }
  return best;
}

function setExtent(pts: Float64Array): number {
  let e = 0;
  for (let k = 0; k < 3; k++) {
    let lo = Infinity, hi = -Infinity;
    for (let i = k; i < pts.length; i += 3) {
      lo = Math.min(lo, pts[i]);
      hi = Math.max(hi, pts[i]);
    }
    e = Math.max(e, hi - lo);
  }
  return e;
}

describe('sphere fitting', () => {
  it('every fitted sphere contains every point (exactly, no tolerance)', () => {
    fc.assert(
      fc.property(setArb, ({ kind, n, seed, offset, size }) => {
        const pts = makeSet(kind, n, mulberry32(seed), offset, size);
        for (const [, f] of FITTERS) {
          const s = fit(f, pts);
          for (let i = 0; i < n; i++) expect(sphereContainsPoint(s, 0, pts[3 * i], pts[3 * i + 1], pts[3 * i + 2])).toBe(true);
        }
      }),
      { numRuns: 400 },
    );
  });

  it('Welzl is never larger than Ritter or the AABB sphere', () => {
    fc.assert(
      fc.property(setArb, ({ kind, n, seed, offset, size }) => {
        const pts = makeSet(kind, n, mulberry32(seed), offset, size);
        const w = fit(welzlSphere, pts)[3];
        const tol = 1e-9 * setExtent(pts) + 1e-14 * Math.abs(offset);
        expect(w).toBeLessThanOrEqual(fit(ritterSphere, pts)[3] + tol);
        expect(w).toBeLessThanOrEqual(fit(sphereFromAabb, pts)[3] + tol);
      }),
      { numRuns: 400 },
    );
  });

  it('Welzl is minimal: matches a brute force over all 2-, 3- and 4-point boundary spheres', () => {
    fc.assert(
      fc.property(
        fc.record({
          kind: fc.constantFrom(...KINDS),
          n: fc.integer({ min: 1, max: 9 }),
          seed: fc.integer(),
          offset: fc.constantFrom(0, 1e6, -250),
          size: fc.constantFrom(1, 30),
        }),
        ({ kind, n, seed, offset, size }) => {
          const pts = makeSet(kind, n, mulberry32(seed), offset, size);
          const ref = bruteMinimalRadius(pts);
          const w = fit(welzlSphere, pts)[3];
          expect(Math.abs(w - ref)).toBeLessThanOrEqual(1e-8 * size + 1e-14 * Math.abs(offset));
        },
      ),
      { numRuns: 500 },
    );
  });

  it('finds the known sphere of exactly co-spherical, co-circular and collinear sets', () => {
    const rand = mulberry32(11);
    for (let trial = 0; trial < 50; trial++) {
      const c = [(rand() - 0.5) * 2e6, (rand() - 0.5) * 2e6, (rand() - 0.5) * 2e6];
      const R = 0.5 + 10 * rand();
      // Co-spherical: include the six axis points, so the minimal sphere is exactly (c, R).
      const pts: number[] = [];
      for (let k = 0; k < 3; k++)
        for (const sgn of [-1, 1]) {
          const p = [...c];
          p[k] += sgn * R;
          pts.push(...p);
        }
      for (let i = 0; i < 200; i++) {
        const e = unit(rand);
        pts.push(c[0] + R * e[0], c[1] + R * e[1], c[2] + R * e[2]);
      }
      const s = fit(welzlSphere, pts);
      const tol = 1e-9 * R + 1e-15 * 2e6;
      expect(Math.abs(s[3] - R)).toBeLessThanOrEqual(tol);
      for (let k = 0; k < 3; k++) expect(Math.abs(s[k] - c[k])).toBeLessThanOrEqual(tol);

      // Co-circular in the z = c.z plane: regular 12-gon (opposite vertices make the circle minimal).
      const ring: number[] = [];
      for (let i = 0; i < 12; i++) ring.push(c[0] + R * Math.cos((i * Math.PI) / 6), c[1] + R * Math.sin((i * Math.PI) / 6), c[2]);
      expect(Math.abs(fit(welzlSphere, ring)[3] - R)).toBeLessThanOrEqual(tol);

      // Collinear: the sphere is the segment's diametral sphere.
      const line: number[] = [];
      const d = unit(rand);
      for (let i = 0; i <= 20; i++) {
        const t = i === 0 ? -R : i === 20 ? R : (2 * rand() - 1) * R;
        line.push(c[0] + t * d[0], c[1] + t * d[1], c[2] + t * d[2]);
      }
      expect(Math.abs(fit(welzlSphere, line)[3] - R)).toBeLessThanOrEqual(tol);
    }
  });

  it('single points and all-duplicate sets give a zero-radius sphere at the point', () => {
    for (const [, f] of FITTERS) {
      const one = fit(f, [3, -4, 1e6]);
      expect(Array.from(one)).toEqual([3, -4, 1e6, 0]);
      const same = fit(f, [1.5, 2, -7, 1.5, 2, -7, 1.5, 2, -7, 1.5, 2, -7, 1.5, 2, -7]);
      expect(Array.from(same)).toEqual([1.5, 2, -7, 0]);
    }
  });

  it('reads at the given offsets and is deterministic and order-insensitive', () => {
    const rand = mulberry32(5);
    const n = 300;
    const pts = Float64Array.from({ length: 3 * n }, () => rand() * 10);
    const padded = new Float64Array(3 * n + 7);
    padded.set(pts, 7);
    const store = new Float64Array(3 * SPHERE_STRIDE);
    for (const [, f] of FITTERS) {
      f(store, SPHERE_STRIDE, padded, n, 7);
      expect(Array.from(store.subarray(SPHERE_STRIDE, 2 * SPHERE_STRIDE))).toEqual(Array.from(fit(f, pts)));
      expect(store[0]).toBe(0);
      expect(store[2 * SPHERE_STRIDE]).toBe(0);
    }
    const a = fit(welzlSphere, pts);
    expect(Array.from(fit(welzlSphere, pts))).toEqual(Array.from(a));
    const reversed = new Float64Array(3 * n);
    for (let i = 0; i < n; i++) reversed.set(pts.subarray(3 * (n - 1 - i), 3 * (n - i)), 3 * i);
    expect(Math.abs(fit(welzlSphere, reversed)[3] - a[3])).toBeLessThanOrEqual(1e-9 * 10);
  });

  it('handles large sets quickly (expected linear time), including many co-spherical points', () => {
    const rand = mulberry32(99);
    for (const kind of ['cloud', 'cospherical'] as const) {
      const n = 100_000;
      const pts = makeSet(kind, n, rand, 1e5, 5);
      const t0 = performance.now();
      const w = fit(welzlSphere, pts);
      const elapsed = performance.now() - t0;
      expect(elapsed).toBeLessThan(2000);
      expect(w[3]).toBeLessThanOrEqual(fit(ritterSphere, pts)[3] + 1e-8);
      for (let i = 0; i < n; i++) expect(sphereContainsPoint(w, 0, pts[3 * i], pts[3 * i + 1], pts[3 * i + 2])).toBe(true);
    }
  });

  it('rejects empty, non-finite and short input with CollideInputError', () => {
    for (const [, f] of FITTERS) {
      const out = new Float64Array(4);
      expect(() => f(out, 0, [], 0)).toThrow(CollideInputError);
      expect(() => f(out, 0, [0, 0, NaN], 1)).toThrow(CollideInputError);
      expect(() => f(out, 0, [0, 0, 0, Infinity, 0, 0], 2)).toThrow(CollideInputError);
      expect(() => f(out, 0, [0, 0, 0], 2)).toThrow(CollideInputError);
      expect(() => f(out, 0, [0, 0, 0], 1, 1)).toThrow(CollideInputError);
      expect(() => f(out, 0, [0, 0, 0], -1)).toThrow(/non-negative/);
    }
  });
});

describe('sphereOverlap', () => {
  it('touching spheres overlap, a hair apart they do not (Pythagorean quadruples, exact)', () => {
    const quads = [[1, 2, 2, 3], [2, 3, 6, 7], [1, 4, 8, 9], [4, 4, 7, 9], [2, 6, 9, 11]];
    const store = new Float32Array(2 * SPHERE_STRIDE + 3);
    for (const [x, y, z, d] of quads) {
      for (const ra of [0, 1, 2.5]) {
        const rb = d - ra;
        const b = [x + 100, -y - 50, z + 1024, rb];
        store.set([100, -50, 1024, ra], 3);
        store.set(b, 3 + SPHERE_STRIDE);
        expect(sphereOverlap(store, 3, store, 3 + SPHERE_STRIDE)).toBe(true);
        expect(sphereOverlap(store, 3 + SPHERE_STRIDE, store, 3)).toBe(true);
        store[3 + SPHERE_STRIDE + 3] = rb - 1 / 64;
        expect(sphereOverlap(store, 3, store, 3 + SPHERE_STRIDE)).toBe(false);
      }
    }
  });

  it('agrees with the distance between centres away from the touching boundary', () => {
    fc.assert(
      fc.property(fc.integer(), (seed) => {
        const rand = mulberry32(seed);
        const a = [rand() * 10, rand() * 10, rand() * 10, rand() * 4];
        const b = [rand() * 10, rand() * 10, rand() * 10, rand() * 4];
        const gap = Math.hypot(a[0] - b[0], a[1] - b[1], a[2] - b[2]) - a[3] - b[3];
        fc.pre(Math.abs(gap) > 1e-9);
        expect(sphereOverlap(a, 0, b, 0)).toBe(gap < 0);
      }),
      { numRuns: 2000 },
    );
  });
});

describe('sphereTransform', () => {
  it('maps the local centre like the rotation matrix, scales the radius by |s|, and keeps points inside', () => {
    const rand = mulberry32(3);
    const world = new Float64Array(SPHERE_STRIDE + 2);
    for (let trial = 0; trial < 500; trial++) {
      const local = [(rand() - 0.5) * 20, (rand() - 0.5) * 20, (rand() - 0.5) * 20, rand() * 5];
      const q = randomQuaternion(rand);
      const t = [(rand() - 0.5) * 1e4, (rand() - 0.5) * 1e4, (rand() - 0.5) * 1e4];
      const s = trial % 4 === 0 ? -(0.1 + rand() * 3) : 0.1 + rand() * 3;
      sphereTransform(world, 2, local, 0, q, t, s);
      const m = quaternionToAxes(q);
      const map = (p: number[]) => [0, 1, 2].map((i) => t[i] + s * (m[i] * p[0] + m[3 + i] * p[1] + m[6 + i] * p[2]));
      const c = map(local);
      for (let k = 0; k < 3; k++) expect(world[2 + k]).toBeCloseTo(c[k], 8);
      expect(world[5]).toBeCloseTo(Math.abs(s) * local[3], 12);
      // A point on the local sphere lands on the world sphere.
      const e = unit(rand);
      const p = map([local[0] + local[3] * e[0], local[1] + local[3] * e[1], local[2] + local[3] * e[2]]);
      expect(sphereContainsPoint(world, 2, p[0], p[1], p[2], 1e-9 * (1 + Math.abs(world[5])))).toBe(true);
      expect(Math.hypot(p[0] - world[2], p[1] - world[3], p[2] - world[4])).toBeCloseTo(world[5], 8);
    }
  });
});

describe('sphereContainsPoint', () => {
  it('is the closed ball, widened by the tolerance', () => {
    const s = [1, 2, 3, 2];
    expect(sphereContainsPoint(s, 0, 3, 2, 3)).toBe(true);
    expect(sphereContainsPoint(s, 0, 1, 2, 3)).toBe(true);
    expect(sphereContainsPoint(s, 0, 3.001, 2, 3)).toBe(false);
    expect(sphereContainsPoint(s, 0, 3.001, 2, 3, 0.01)).toBe(true);
    expect(sphereContainsPoint([9, 1, 2, 3, 2], 1, 1, 2, 5)).toBe(true);
  });
});
