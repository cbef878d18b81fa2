import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import {
  raycastAabb,
  raycastCapsule,
  raycastKdop,
  raycastObb,
  raycastSphere,
  raycastTriangle,
} from '../../src/query/raycast';
import { KDOP_DIRECTIONS } from '../../src/volumes/kdop';
import type { KdopK } from '../../src/layout';
import { mulberry32, quaternionToAxes, randomQuaternion } from '../../scenes/random';

type Vec = [number, number, number];
type Cast = (out: Float64Array, o: Vec, d: Vec, maxT: number) => boolean;

/** A shape under test: the kernel cast plus independent, test-only geometry. */
interface Shape {
  cast: Cast;
  /** Point in the shape grown by `delta` (negative shrinks). Written here, not taken from src. */
  inside(p: Vec, delta: number): boolean;
  /** Whether n is an outward normal of a supporting plane through p (within tol). */
  supports(p: Vec, n: Vec, tol: number): boolean;
  /** A point of the shape, to aim rays at. */
  anchor: Vec;
  size: number;
}

const dot = (a: ArrayLike<number>, b: ArrayLike<number>, bo = 0) => a[0] * b[bo] + a[1] * b[bo + 1] + a[2] * b[bo + 2];
const at = (o: Vec, d: Vec, t: number): Vec => [o[0] + t * d[0], o[1] + t * d[1], o[2] + t * d[2]];
const len = (v: ArrayLike<number>) => Math.sqrt(dot(v, v));
/** Copy with -0 turned into 0, for exact comparisons where the sign of zero is irrelevant. */
const plain = (v: ArrayLike<number>) => Array.from(v, (x) => x + 0);

/** Closest-point distance from p to segment a-b by sampling-free clamping (test's own copy). */
function segmentDistance(p: Vec, a: Vec, b: Vec): number {
  const ab: Vec = [b[0] - a[0], b[1] - a[1], b[2] - a[2]];
  const ap: Vec = [p[0] - a[0], p[1] - a[1], p[2] - a[2]];
  const L = dot(ab, ab);
  const s = L === 0 ? 0 : Math.min(1, Math.max(0, dot(ap, ab) / L));
  return len([ap[0] - s * ab[0], ap[1] - s * ab[1], ap[2] - s * ab[2]]);
}

function makeSphere(rand: () => number, off: number): Shape {
  const c: Vec = [off + (rand() - 0.5) * 4, off + (rand() - 0.5) * 4, off + (rand() - 0.5) * 4];
  const r = 0.2 + rand() * 3;
  const data = new Float64Array([...c, r]);
  return {
    cast: (out, o, d, m) => raycastSphere(out, ...o, ...d, m, data, 0),
    inside: (p, delta) => len([p[0] - c[0], p[1] - c[1], p[2] - c[2]]) <= r + delta,
    supports: (p, n, tol) => Math.abs(dot(c, n) + r - dot(p, n)) <= tol,
    anchor: c,
    size: r,
  };
}

function makeAabb(rand: () => number, off: number): Shape {
  const lo: Vec = [0, 0, 0], hi: Vec = [0, 0, 0];
  for (let i = 0; i < 3; i++) {
    lo[i] = off + (rand() - 0.5) * 4;
    hi[i] = lo[i] + (rand() < 0.1 ? 0 : rand() * 4); // some flat boxes
  }
  const data = new Float64Array([...lo, ...hi]);
  return {
    cast: (out, o, d, m) => raycastAabb(out, ...o, ...d, m, data, 0),
    inside: (p, delta) => [0, 1, 2].every((i) => p[i] >= lo[i] - delta && p[i] <= hi[i] + delta),
    supports: (p, n, tol) =>
      Math.abs([0, 1, 2].reduce((s, i) => s + Math.max(lo[i] * n[i], hi[i] * n[i]), 0) - dot(p, n)) <= tol,
    anchor: [(lo[0] + hi[0]) / 2, (lo[1] + hi[1]) / 2, (lo[2] + hi[2]) / 2],
    size: 4,
  };
}

function makeObb(rand: () => number, off: number): Shape {
  const c: Vec = [off + (rand() - 0.5) * 4, off + (rand() - 0.5) * 4, off + (rand() - 0.5) * 4];
  const axes = quaternionToAxes(randomQuaternion(rand));
  const h: Vec = [rand() * 2, rand() * 2, rand() * 2];
  const data = new Float64Array([...c, ...axes, ...h]);
  return {
    cast: (out, o, d, m) => raycastObb(out, ...o, ...d, m, data, 0),
    inside: (p, delta) => {
      const r = [p[0] - c[0], p[1] - c[1], p[2] - c[2]];
      return [0, 1, 2].every((k) => Math.abs(dot(r, axes, 3 * k)) <= h[k] + delta);
    },
    supports: (p, n, tol) => {
      const support = dot(c, n) + [0, 1, 2].reduce((s, k) => s + h[k] * Math.abs(dot(n, axes, 3 * k)), 0);
      return Math.abs(support - dot(p, n)) <= tol;
    },
    anchor: c,
    size: 4,
  };
}

function makeKdop(rand: () => number, off: number, k: KdopK): Shape {
  const dirs = KDOP_DIRECTIONS[k];
  const half = k / 2;
  const data = new Float64Array(k).fill(0);
  data.fill(Infinity, 0, half);
  data.fill(-Infinity, half);
  const n = 1 + Math.floor(rand() * 8);
  const c: Vec = [off + (rand() - 0.5) * 4, off + (rand() - 0.5) * 4, off + (rand() - 0.5) * 4];
  for (let j = 0; j < n; j++) {
    const p: Vec = [c[0] + (rand() - 0.5) * 4, c[1] + (rand() - 0.5) * 4, c[2] + (rand() - 0.5) * 4];
    for (let i = 0; i < half; i++) {
      const v = dot(p, dirs, 3 * i);
      data[i] = Math.min(data[i], v);
      data[half + i] = Math.max(data[half + i], v);
    }
  }
  const norm = (i: number) => Math.hypot(dirs[3 * i], dirs[3 * i + 1], dirs[3 * i + 2]);
  return {
    cast: (out, o, d, m) => raycastKdop(out, ...o, ...d, m, data, 0, k),
    inside: (p, delta) => {
      for (let i = 0; i < half; i++) {
        const v = dot(p, dirs, 3 * i);
        if (v < data[i] - delta * norm(i) || v > data[half + i] + delta * norm(i)) return false;
      }
      return true;
    },
    supports: (p, nrm, tol) => {
      for (let i = 0; i < half; i++) {
        const u = [dirs[3 * i] / norm(i), dirs[3 * i + 1] / norm(i), dirs[3 * i + 2] / norm(i)];
        for (const s of [-1, 1]) {
          const same = Math.abs(s * u[0] - nrm[0]) + Math.abs(s * u[1] - nrm[1]) + Math.abs(s * u[2] - nrm[2]) < 1e-12;
          const bound = s > 0 ? data[half + i] : -data[i];
          if (same && Math.abs(s * dot(p, dirs, 3 * i) - bound) <= tol * norm(i)) return true;
        }
      }
      return false;
    },
    anchor: c,
    size: 4,
  };
}

function makeCapsule(rand: () => number, off: number): Shape {
  const a: Vec = [off + (rand() - 0.5) * 4, off + (rand() - 0.5) * 4, off + (rand() - 0.5) * 4];
  const zeroLength = rand() < 0.15;
  const b: Vec = zeroLength ? [...a] : [a[0] + (rand() - 0.5) * 6, a[1] + (rand() - 0.5) * 6, a[2] + (rand() - 0.5) * 6];
  const r = 0.1 + rand() * 2;
  const data = new Float64Array([...a, ...b, r]);
  return {
    cast: (out, o, d, m) => raycastCapsule(out, ...o, ...d, m, data, 0),
    inside: (p, delta) => segmentDistance(p, a, b) <= r + delta,
    supports: (p, n, tol) => Math.abs(Math.max(dot(a, n), dot(b, n)) + r - dot(p, n)) <= tol,
    anchor: a,
    size: 6,
  };
}

const MARCH_STEPS = 1000;

/**
 * Random ray near the shape: aimed at it or not, sometimes starting inside, with direction
 * components zeroed or the origin snapped onto a coordinate plane of the anchor (adversarial).
 */
function randomRay(rand: () => number, shape: Shape): { o: Vec; d: Vec; maxT: number } {
  const spread = 3 * shape.size + 4;
  const o: Vec = [0, 0, 0];
  for (let i = 0; i < 3; i++) o[i] = shape.anchor[i] + (rand() - 0.5) * (rand() < 0.2 ? 1 : 2 * spread);
  const target: Vec = [0, 0, 0];
  for (let i = 0; i < 3; i++) target[i] = shape.anchor[i] + (rand() - 0.5) * shape.size;
  const d: Vec = [target[0] - o[0], target[1] - o[1], target[2] - o[2]];
  if (rand() < 0.3) d[Math.floor(rand() * 3)] = 0;
  if (rand() < 0.15) d[Math.floor(rand() * 3)] = 0;
  if (rand() < 0.1) o[Math.floor(rand() * 3)] = target[Math.floor(rand() * 3)];
  const scale = 0.5 + rand() * 4;
  for (let i = 0; i < 3; i++) d[i] *= scale;
  const maxT = (2 * spread) / Math.max(len(d), 1e-9);
  return { o, d, maxT };
}

/**
 * Compares one cast with a march of MARCH_STEPS samples. Returns 'graze' when they disagree but
 * the ray passes within one step of the surface (counted by the caller), 'ok' otherwise; throws
 * through expect on a real disagreement.
 */
function checkAgainstMarch(shape: Shape, o: Vec, d: Vec, maxT: number, tol: number): 'ok' | 'graze' {
  const out = new Float64Array(4);
  const hit = shape.cast(out, o, d, maxT);
  const h = maxT / MARCH_STEPS;
  const stepLength = h * len(d);
  const firstInside = (delta: number) => {
    for (let i = 0; i <= MARCH_STEPS; i++) if (shape.inside(at(o, d, i * h), delta)) return i;
    return -1;
  };
  const first = firstInside(0);
  if (hit) expect(out.every(Number.isFinite)).toBe(true);
  if ((first >= 0) !== hit) {
    // Disagreement is allowed only for a ray that grazes: growing / shrinking the shape by one step
    // must flip the march's verdict.
    if (hit) expect(firstInside(stepLength + tol)).toBeGreaterThanOrEqual(0);
    else expect(firstInside(-stepLength - tol)).toBe(-1);
    return 'graze';
  }
  if (!hit) return 'ok';
  const t = out[0];
  expect(t).toBeGreaterThanOrEqual(0);
  expect(t).toBeLessThanOrEqual(maxT);
  if (first === 0) {
    expect(t).toBe(0);
    return 'ok';
  }
  expect(Math.abs(t - first * h)).toBeLessThanOrEqual(h + tol / len(d));
  const n: Vec = [out[1], out[2], out[3]];
  expect(Math.abs(len(n) - 1)).toBeLessThan(1e-9);
  expect(dot(n, d)).toBeLessThanOrEqual(1e-12 * len(d));
  // Hit point on the surface and n outward there: the plane (p, n) supports the shape.
  expect(shape.supports(at(o, d, t), n, tol)).toBe(true);
  return 'ok';
}

const KINDS: Record<string, (rand: () => number, off: number) => Shape> = {
  sphere: makeSphere,
  aabb: makeAabb,
  obb: makeObb,
  kdop6: (r, o) => makeKdop(r, o, 6),
  kdop14: (r, o) => makeKdop(r, o, 14),
  kdop18: (r, o) => makeKdop(r, o, 18),
  kdop26: (r, o) => makeKdop(r, o, 26),
  capsule: makeCapsule,
};

describe('solid casts against a brute-force march', () => {
  for (const [kind, make] of Object.entries(KINDS)) {
    it(`${kind}: t within one step of the first inside sample, normal supports the shape`, () => {
      let grazes = 0, hits = 0, runs = 0;
      fc.assert(
        fc.property(fc.integer(), fc.constantFrom(0, 0, 1e3, -1e6), (seed, off) => {
          const rand = mulberry32(seed);
          const shape = make(rand, off);
          const tol = 1e-9 * shape.size * 10 + 1e-12 * Math.abs(off);
          for (let j = 0; j < 4; j++) {
            const { o, d, maxT } = randomRay(rand, shape);
            runs++;
            if (checkAgainstMarch(shape, o, d, maxT, tol) === 'graze') grazes++;
            else if (shape.cast(new Float64Array(4), o, d, maxT)) hits++;
          }
        }),
        { numRuns: 150 },
      );
      // Grazes are excluded, but must stay rare, and the suite must actually exercise hits.
      expect(grazes).toBeLessThan(runs * 0.05);
      expect(hits).toBeGreaterThan(runs * 0.1);
    });
  }
});

/**
 * Casts of a ray (o, d, maxT) into `out` against `box` (min-max) and a unit OBB, sphere, capsule
 * and 14-DOP about the origin, and a triangle when `withTriangle`.
 */
function castsOfUnitShapes(out: Float64Array, box: Float64Array, withTriangle: boolean): Array<(o: Vec, d: Vec, maxT: number) => boolean> {
  const obb = new Float64Array([0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1, 1, 1, 1]);
  const sphere = new Float64Array([0, 0, 0, 1]);
  const capsule = new Float64Array([0, 0, 0, 0, 0, 2, 1]);
  const kdop = new Float64Array([-1, -1, -1, -2, -2, -2, -2, 1, 1, 1, 2, 2, 2, 2]);
  const tri = new Float64Array([-1, -1, 0, 1, -1, 0, 0, 1, 0]);
  const casts: Array<(o: Vec, d: Vec, maxT: number) => boolean> = [
    (o, d, maxT) => raycastAabb(out, ...o, ...d, maxT, box, 0),
    (o, d, maxT) => raycastObb(out, ...o, ...d, maxT, obb, 0),
    (o, d, maxT) => raycastSphere(out, ...o, ...d, maxT, sphere, 0),
    (o, d, maxT) => raycastCapsule(out, ...o, ...d, maxT, capsule, 0),
    (o, d, maxT) => raycastKdop(out, ...o, ...d, maxT, kdop, 0, 14),
  ];
  if (withTriangle) casts.push((o, d, maxT) => raycastTriangle(out, ...o, ...d, maxT, tri, 0));
  return casts;
}

describe('adversarial rays', () => {
  const out = new Float64Array(4);
  const box = new Float64Array([0, 0, 0, 1, 1, 1]);

  it('AABB: direction components exactly 0, origins inside, outside and on the slab planes', () => {
    // On the plane z = 0, moving along x: the face is closed, so it hits.
    expect(raycastAabb(out, -1, 0.5, 0, 1, 0, 0, 10, box, 0)).toBe(true);
    expect(plain(out)).toEqual([1, -1, 0, 0]);
    // On the plane z = 1 as well.
    expect(raycastAabb(out, -1, 1, 1, 2, 0, 0, 10, box, 0)).toBe(true);
    expect(out[0]).toBe(0.5);
    // Just above the slab, parallel: miss (no NaN from 0 * Infinity).
    expect(raycastAabb(out, -1, 0.5, 1 + 1e-12, 1, 0, 0, 10, box, 0)).toBe(false);
    expect(raycastAabb(out, 0.5, 0.5, -1e-300, 1, 0, 0, 10, box, 0)).toBe(false);
    // Inside, parallel to two slabs.
    expect(raycastAabb(out, 0.5, 0.5, 0.5, 0, 0, 3, 10, box, 0)).toBe(true);
    expect(plain(out)).toEqual([0, 0, 0, -1]);
    // On a corner, moving out along an axis: the closed box contains the origin.
    expect(raycastAabb(out, 1, 1, 1, 1, 0, 0, 10, box, 0)).toBe(true);
    expect(out[0]).toBe(0);
    // Just short of the box with maxT: miss; exactly reaching: hit.
    expect(raycastAabb(out, -2, 0.5, 0.5, 1, 0, 0, 2 - 1e-12, box, 0)).toBe(false);
    expect(raycastAabb(out, -2, 0.5, 0.5, 1, 0, 0, 2, box, 0)).toBe(true);
    // Pointing away.
    expect(raycastAabb(out, -2, 0.5, 0.5, -1, 0, 0, 100, box, 0)).toBe(false);
    // Negative maxT never hits.
    expect(raycastAabb(out, 0.5, 0.5, 0.5, 1, 0, 0, -1, box, 0)).toBe(false);
  });

  it('zero-length direction: hit (t = 0, normal 0) only from inside, for every shape', () => {
    const obb = new Float64Array([0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1, 1, 1, 1]);
    const sphere = new Float64Array([0, 0, 0, 1]);
    const capsule = new Float64Array([0, 0, 0, 0, 0, 2, 1]);
    const kdop = new Float64Array([-1, -1, -1, -2, -2, -2, -2, 1, 1, 1, 2, 2, 2, 2]);
    const casts: Array<(x: number) => boolean> = [
      (x) => raycastAabb(out, x, 0.5, 0.5, 0, 0, 0, 1, box, 0),
      (x) => raycastObb(out, x, 0.5, 0.5, 0, 0, 0, 1, obb, 0),
      (x) => raycastSphere(out, x, 0.5, 0.5, 0, 0, 0, 1, sphere, 0),
      (x) => raycastCapsule(out, x, 0.5, 0.5, 0, 0, 0, 1, capsule, 0),
      (x) => raycastKdop(out, x, 0.5, 0.5, 0, 0, 0, 1, kdop, 0, 14),
    ];
    for (const cast of casts) {
      expect(cast(5)).toBe(false);
      expect(cast(0.5)).toBe(true);
      expect(plain(out)).toEqual([0, 0, 0, 0]);
    }
    const tri = new Float64Array([0, 0, 0, 1, 0, 0, 0, 1, 0]);
    expect(raycastTriangle(out, 0.2, 0.2, 0, 0, 0, 0, 1, tri, 0)).toBe(false);
  });

  it('an unlimited ray (maxT Infinity) hits what a long finite one hits and misses what it misses, for every shape', () => {
    // A sphere's or capsule's miss is an entry at t = Infinity, which must not count as a hit at
    // an unlimited maxT.
    const casts = castsOfUnitShapes(out, box, true);
    const rand = mulberry32(31);
    let hits = 0, misses = 0;
    for (let i = 0; i < 2000; i++) {
      const o: Vec = [10 * (rand() - 0.5), 10 * (rand() - 0.5), 10 * (rand() - 0.5)];
      // Away from the shapes half the time (a ball entry that is behind the origin), else towards them.
      const sign = i % 2 === 0 ? -1 : 1;
      const d: Vec = [sign * -o[0] + rand() - 0.5, sign * -o[1] + rand() - 0.5, sign * -o[2] + rand() - 0.5];
      for (const cast of casts) {
        const finite = cast(o, d, 1e9);
        const t = out[0];
        expect(cast(o, d, Infinity)).toBe(finite);
        if (finite) {
          expect(out[0]).toBe(t);
          hits++;
        } else {
          misses++;
        }
      }
    }
    expect(hits).toBeGreaterThan(1000);
    expect(misses).toBeGreaterThan(1000);
  });

  it('a tiny direction (its square underflows) hits as the same ray at unit scale, t scaled exactly, for every shape', () => {
    const casts = castsOfUnitShapes(out, box, false);
    const rand = mulberry32(37);
    let hits = 0;
    // 2^-600 and 2^-1000: below the scale where a squared length underflows, and deep in the subnormals.
    for (const shrink of [2 ** -600, 2 ** -1000]) {
      for (let i = 0; i < 500; i++) {
        const o: Vec = [10 * (rand() - 0.5), 10 * (rand() - 0.5), 10 * (rand() - 0.5)];
        const d: Vec = [-o[0] + rand() - 0.5, -o[1] + rand() - 0.5, -o[2] + rand() - 0.5];
        const tiny: Vec = [d[0] * shrink, d[1] * shrink, d[2] * shrink];
        for (const cast of casts) {
          const found = cast(o, d, Infinity);
          const unit = plain(out);
          expect(cast(o, tiny, Infinity)).toBe(found);
          if (!found) continue;
          hits++;
          // Powers of two scale exactly: the same t / shrink and normal, to the bit.
          expect(plain(out)).toEqual([unit[0] / shrink, unit[1], unit[2], unit[3]]);
        }
      }
    }
    expect(hits).toBeGreaterThan(2000);
  });

  it('origin inside: t = 0 and the normal is the negated unit direction', () => {
    const sphere = new Float64Array([0, 0, 0, 2]);
    expect(raycastSphere(out, 0.5, 0, 0, 0, 3, 4, 1, sphere, 0)).toBe(true);
    expect(out[0]).toBe(0);
    expect(out[1]).toBeCloseTo(0, 15);
    expect(out[2]).toBeCloseTo(-0.6, 15);
    expect(out[3]).toBeCloseTo(-0.8, 15);
  });

  it('sphere: grazing tangent rays hit, rays a hair outside miss, at any offset', () => {
    for (const off of [0, 1e6, -3e7]) {
      const sphere = new Float64Array([off, off, off, 2]);
      expect(raycastSphere(out, off - 10, off + 2, off, 1, 0, 0, 100, sphere, 0)).toBe(true);
      expect(out[0]).toBeCloseTo(10, 6);
      expect(out[2]).toBeCloseTo(1, 6);
      expect(raycastSphere(out, off - 10, off + 2 * (1 + 1e-9), off, 1, 0, 0, 100, sphere, 0)).toBe(false);
      // A far start at a huge offset: the entry point is still accurate.
      expect(raycastSphere(out, off - 1e5, off, off, 1, 0, 0, 1e6, sphere, 0)).toBe(true);
      expect(Math.abs(out[0] - (1e5 - 2))).toBeLessThan(1e-9 * (1e5 + Math.abs(off)));
      expect(out[1]).toBeCloseTo(-1, 9);
    }
  });

  it('capsule: rays along the axis enter through the cap; grazing the side touches the cap ball', () => {
    const cap = new Float64Array([0, 0, 0, 0, 0, 2, 1]);
    expect(raycastCapsule(out, 0, 0, 10, 0, 0, -2, 100, cap, 0)).toBe(true);
    expect(plain(out)).toEqual([3.5, 0, 0, 1]);
    expect(raycastCapsule(out, 0, 0, -10, 0, 0, 1, 100, cap, 0)).toBe(true);
    expect(plain(out)).toEqual([9, 0, 0, -1]);
    // Parallel to the axis at exactly the radius: first touch is where the bottom ball begins.
    expect(raycastCapsule(out, 1, 0, -5, 0, 0, 1, 100, cap, 0)).toBe(true);
    expect(out[0]).toBeCloseTo(5, 12);
    expect(out[1]).toBeCloseTo(1, 12);
    expect(raycastCapsule(out, 1 + 1e-9, 0, -5, 0, 0, 1, 100, cap, 0)).toBe(false);
    // Side entry through the cylinder.
    expect(raycastCapsule(out, -5, 0, 1.5, 1, 0, 0, 100, cap, 0)).toBe(true);
    expect(plain(out)).toEqual([4, -1, 0, 0]);
  });

  it('capsule: zero length equals the sphere, zero radius is the segment itself', () => {
    const a = new Float64Array(4), b = new Float64Array(4);
    fc.assert(
      fc.property(fc.integer(), (seed) => {
        const rand = mulberry32(seed);
        const c = [rand() * 4, rand() * 4, rand() * 4];
        const r = rand() * 2;
        const cap = new Float64Array([...c, ...c, r]);
        const sphere = new Float64Array([...c, r]);
        const o = [rand() * 10 - 3, rand() * 10 - 3, rand() * 10 - 3];
        const d = [rand() - 0.5, rand() - 0.5, rand() - 0.5];
        const hc = raycastCapsule(a, o[0], o[1], o[2], d[0], d[1], d[2], 50, cap, 0);
        const hs = raycastSphere(b, o[0], o[1], o[2], d[0], d[1], d[2], 50, sphere, 0);
        expect(hc).toBe(hs);
        if (hc) for (let i = 0; i < 4; i++) expect(a[i]).toBeCloseTo(b[i], 9);
      }),
      { numRuns: 300 },
    );
    const seg = new Float64Array([0, 0, 0, 0, 0, 2, 0]);
    expect(raycastCapsule(out, -1, 0, 1, 1, 0, 0, 10, seg, 0)).toBe(true);
    expect(out[0]).toBe(1);
    expect(out.every(Number.isFinite)).toBe(true);
    expect(Math.hypot(out[1], out[2], out[3])).toBeCloseTo(1, 12);
    expect(raycastCapsule(out, -1, 0.001, 1, 1, 0, 0, 10, seg, 0)).toBe(false);
  });

  it('OBB and k-DOP at 1e6 offsets agree with the equivalent AABB', () => {
    const off = 1e6;
    const aabb = new Float64Array([off, off, off, off + 2, off + 1, off + 3]);
    const obb = new Float64Array([off + 1, off + 0.5, off + 1.5, 1, 0, 0, 0, 1, 0, 0, 0, 1, 1, 0.5, 1.5]);
    const kdop = new Float64Array([off, off, off, off + 2, off + 1, off + 3]);
    const a = new Float64Array(4), b = new Float64Array(4), c = new Float64Array(4);
    const rand = mulberry32(7);
    for (let i = 0; i < 500; i++) {
      const o = [off - 3 + rand() * 8, off - 3 + rand() * 8, off - 3 + rand() * 8];
      const d = [rand() - 0.5, rand() < 0.3 ? 0 : rand() - 0.5, rand() - 0.5];
      const ha = raycastAabb(a, o[0], o[1], o[2], d[0], d[1], d[2], 40, aabb, 0);
      expect(raycastObb(b, o[0], o[1], o[2], d[0], d[1], d[2], 40, obb, 0)).toBe(ha);
      expect(raycastKdop(c, o[0], o[1], o[2], d[0], d[1], d[2], 40, kdop, 0, 6)).toBe(ha);
      if (ha) {
        for (let k = 0; k < 4; k++) {
          expect(b[k]).toBeCloseTo(a[k], 6);
          expect(c[k]).toBeCloseTo(a[k], 6);
        }
      }
    }
  });
});

describe('raycastTriangle', () => {
  /** Test-only reference: plane crossing, then same-side tests against each edge. */
  function reference(tri: number[], o: Vec, d: Vec, maxT: number): { t: number; margin: number } | null {
    const A = tri.slice(0, 3), B = tri.slice(3, 6), C = tri.slice(6, 9);
    const sub = (p: ArrayLike<number>, q: ArrayLike<number>): Vec => [p[0] - q[0], p[1] - q[1], p[2] - q[2]];
    const cross = (p: Vec, q: Vec): Vec => [p[1] * q[2] - p[2] * q[1], p[2] * q[0] - p[0] * q[2], p[0] * q[1] - p[1] * q[0]];
    const n = cross(sub(B, A), sub(C, A));
    const t = dot(sub(A, o), n) / dot(d, n);
    if (!(t >= 0 && t <= maxT)) return null;
    const p = at(o, d, t);
    const nn = len(n);
    // Signed distances of p from each edge line, within the plane; min must be >= 0.
    const margins = [[A, B], [B, C], [C, A]].map(([u, v]) => dot(cross(sub(v, u), sub(p, u)), n) / nn / len(sub(v, u)));
    const margin = Math.min(...margins);
    return margin >= 0 ? { t, margin } : { t: NaN, margin };
  }

  it('matches a plane-and-edges reference; normal faces the ray; two-sided', () => {
    const out = new Float64Array(4);
    let edgeCases = 0;
    fc.assert(
      fc.property(fc.integer(), fc.constantFrom(0, 1e6), (seed, off) => {
        const rand = mulberry32(seed);
        const tri = Array.from({ length: 9 }, () => off + (rand() - 0.5) * 6);
        const o: Vec = [off + (rand() - 0.5) * 20, off + (rand() - 0.5) * 20, off + (rand() - 0.5) * 20];
        const target = [0, 1, 2].map((i) => (tri[i] + tri[3 + i] + tri[6 + i]) / 3 + (rand() - 0.5) * 6);
        const d: Vec = [target[0] - o[0], target[1] - o[1], target[2] - o[2]];
        const hit = raycastTriangle(out, ...o, ...d, 3, new Float64Array(tri), 0);
        const ref = reference(tri, o, d, 3);
        const tol = 1e-9 * (6 + Math.abs(off) * 1e-3);
        if (ref && Math.abs(ref.margin) <= tol) {
          edgeCases++;
          return;
        }
        expect(hit).toBe(ref !== null && !Number.isNaN(ref.t));
        if (!hit || !ref) return;
        expect(out[0]).toBeCloseTo(ref.t, 6);
        expect(Math.hypot(out[1], out[2], out[3])).toBeCloseTo(1, 12);
        expect(dot([out[1], out[2], out[3]], d)).toBeLessThanOrEqual(0);
        // Normal is perpendicular to both edges.
        const e1 = [tri[3] - tri[0], tri[4] - tri[1], tri[5] - tri[2]];
        const e2 = [tri[6] - tri[0], tri[7] - tri[1], tri[8] - tri[2]];
        expect(Math.abs(dot([out[1], out[2], out[3]], e1))).toBeLessThan(1e-9 * len(e1));
        expect(Math.abs(dot([out[1], out[2], out[3]], e2))).toBeLessThan(1e-9 * len(e2));
      }),
      { numRuns: 2000 },
    );
    expect(edgeCases).toBeLessThan(20);
  });

  it('hits edges and corners, both sides, and never hits a zero-area triangle', () => {
    const out = new Float64Array(4);
    const tri = new Float64Array([0, 0, 0, 2, 0, 0, 0, 2, 0]);
    expect(raycastTriangle(out, 1, 0, 5, 0, 0, -1, 10, tri, 0)).toBe(true);
    expect(plain(out)).toEqual([5, 0, 0, 1]);
    expect(raycastTriangle(out, 0, 0, -5, 0, 0, 1, 10, tri, 0)).toBe(true);
    expect(plain(out)).toEqual([5, 0, 0, -1]);
    expect(raycastTriangle(out, 1, 1, -5, 0, 0, 1, 10, tri, 0)).toBe(true);
    expect(raycastTriangle(out, 1, 1.000001, -5, 0, 0, 1, 10, tri, 0)).toBe(false);
    // Segment form: p0 = (0.5, 0.5, 1), p1 = (0.5, 0.5, -1) crosses at t = 0.5.
    expect(raycastTriangle(out, 0.5, 0.5, 1, 0, 0, -2, 1, tri, 0)).toBe(true);
    expect(out[0]).toBe(0.5);
    expect(raycastTriangle(out, 0.5, 0.5, 1, 0, 0, -0.4, 1, tri, 0)).toBe(false);
    const collinear = new Float64Array([0, 0, 0, 1, 1, 1, 2, 2, 2]);
    const point = new Float64Array([1, 1, 1, 1, 1, 1, 1, 1, 1]);
    const nearlyCollinear = new Float64Array([0, 0, 0, 1e6, 1e6, 1e6, 2e6, 2e6, 2e6 * (1 + 1e-16)]);
    for (const degenerate of [collinear, point, nearlyCollinear]) {
      for (const d of [[1, 0, 0], [0, 1, 0], [0, 0, 1], [1, -1, 0.3]]) {
        expect(raycastTriangle(out, 1 - d[0], 1 - d[1], 1 - d[2], d[0], d[1], d[2], 10, degenerate, 0)).toBe(false);
      }
    }
    // A ray in the triangle's plane: a triangle has no thickness, so it is not hit.
    expect(raycastTriangle(out, -1, 0.5, 0, 1, 0, 0, 10, tri, 0)).toBe(false);
  });
});
