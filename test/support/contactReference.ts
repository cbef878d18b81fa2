/**
 * Independent, deliberately simple references for contact tests: corner lists, support
 * functions, brute-force SAT over axes built from scratch, distances by clamping and by ternary
 * search. Written for clarity, not speed; tests may allocate freely.
 */
import { quaternionToAxes, randomQuaternion } from '../../scenes/random';

export type V = [number, number, number];
export const add = (a: V, b: V): V => [a[0] + b[0], a[1] + b[1], a[2] + b[2]];
export const sub = (a: V, b: V): V => [a[0] - b[0], a[1] - b[1], a[2] - b[2]];
export const scale = (a: V, s: number): V => [a[0] * s, a[1] * s, a[2] * s];
export const dot = (a: V, b: V): number => a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
export const cross = (a: V, b: V): V => [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]];
export const norm = (a: V): number => Math.sqrt(dot(a, a));
export const unit = (a: V): V => scale(a, 1 / norm(a));
export const at = (arr: ArrayLike<number>, i: number): V => [arr[i], arr[i + 1], arr[i + 2]];

/** A box as centre, three unit axes and half-extents (what an OBB store row holds). */
export interface RefBox {
  c: V;
  u: [V, V, V];
  h: V;
}

export function boxFromStore(arr: ArrayLike<number>, o = 0): RefBox {
  return { c: at(arr, o), u: [at(arr, o + 3), at(arr, o + 6), at(arr, o + 9)], h: at(arr, o + 12) };
}

export function boxToStore(b: RefBox): number[] {
  return [...b.c, ...b.u[0], ...b.u[1], ...b.u[2], ...b.h];
}

export function aabbAsBox(arr: ArrayLike<number>, o = 0): RefBox {
  const lo = at(arr, o), hi = at(arr, o + 3);
  return { c: scale(add(lo, hi), 0.5), u: [[1, 0, 0], [0, 1, 0], [0, 0, 1]], h: scale(sub(hi, lo), 0.5) };
}

/** Random box: rotation uniform, half-extents in [lo, hi]. */
export function randomBox(rand: () => number, c: V, lo = 0.1, hi = 2): RefBox {
  const ax = quaternionToAxes(randomQuaternion(rand));
  return {
    c,
    u: [[ax[0], ax[1], ax[2]], [ax[3], ax[4], ax[5]], [ax[6], ax[7], ax[8]]],
    h: [lo + (hi - lo) * rand(), lo + (hi - lo) * rand(), lo + (hi - lo) * rand()],
  };
}

export function boxCorners(b: RefBox): V[] {
  const out: V[] = [];
  for (const s0 of [-1, 1]) for (const s1 of [-1, 1]) for (const s2 of [-1, 1]) {
    out.push(add(b.c, add(scale(b.u[0], s0 * b.h[0]), add(scale(b.u[1], s1 * b.h[1]), scale(b.u[2], s2 * b.h[2])))));
  }
  return out;
}

export const translateBox = (b: RefBox, t: V): RefBox => ({ c: add(b.c, t), u: b.u, h: b.h });

/** Distance from p to the solid box (0 inside), by clamping in the box frame. */
export function distanceToBox(b: RefBox, p: V): number {
  const r = sub(p, b.c);
  let d2 = 0;
  for (let k = 0; k < 3; k++) {
    const l = dot(r, b.u[k]);
    const e = Math.abs(l) - b.h[k];
    if (e > 0) d2 += e * e;
  }
  return Math.sqrt(d2);
}

/** Projection interval [min, max] of a point set on direction n. */
export function interval(points: V[], n: V): [number, number] {
  let lo = Infinity, hi = -Infinity;
  for (const p of points) {
    const d = dot(p, n);
    lo = Math.min(lo, d);
    hi = Math.max(hi, d);
  }
  return [lo, hi];
}

/** The 15 candidate axes of two boxes, built from their axes (near-zero crosses dropped). */
export function satAxes(a: RefBox, b: RefBox): V[] {
  const axes: V[] = [...a.u, ...b.u];
  for (const u of a.u) for (const v of b.u) {
    const c = cross(u, v);
    if (norm(c) > 1e-9) axes.push(unit(c));
  }
  return axes;
}

/** Boxes separated: some SAT axis shows disjoint corner projections (by more than `tol`). */
export function boxesSeparated(a: RefBox, b: RefBox, tol = 0): boolean {
  const ca = boxCorners(a), cb = boxCorners(b);
  for (const n of satAxes(a, b)) {
    const [a0, a1] = interval(ca, n), [b0, b1] = interval(cb, n);
    if (b0 - a1 > tol || a0 - b1 > tol) return true;
  }
  return false;
}

/** Least penetration depth of two boxes (min over the 15 axes of the cheaper push); < 0 when separated. */
export function boxPenetration(a: RefBox, b: RefBox): number {
  const ca = boxCorners(a), cb = boxCorners(b);
  let best = Infinity;
  for (const n of satAxes(a, b)) {
    const [a0, a1] = interval(ca, n), [b0, b1] = interval(cb, n);
    best = Math.min(best, a1 - b0, b1 - a0);
  }
  return best;
}

/** Uniform random unit vectors. */
export function randomDirections(rand: () => number, count: number): V[] {
  const out: V[] = [];
  while (out.length < count) {
    const v: V = [2 * rand() - 1, 2 * rand() - 1, 2 * rand() - 1];
    const l = norm(v);
    if (l > 0.1 && l <= 1) out.push(scale(v, 1 / l));
  }
  return out;
}

/** Support value (max of n·x) of a capsule (segment p0 p1 grown by r); a sphere is p0 = p1. */
export function capsuleSupport(p0: V, p1: V, r: number, n: V): number {
  return Math.max(dot(p0, n), dot(p1, n)) + r;
}

/** Support value of a box. */
export function boxSupport(b: RefBox, n: V): number {
  return interval(boxCorners(b), n)[1];
}

/** Minimum of a convex function on [0, 1] by ternary search. */
export function ternaryMin(f: (x: number) => number, iterations = 80): number {
  let lo = 0, hi = 1;
  for (let i = 0; i < iterations; i++) {
    const m1 = lo + (hi - lo) / 3, m2 = hi - (hi - lo) / 3;
    if (f(m1) <= f(m2)) hi = m2;
    else lo = m1;
  }
  return Math.min(f(0), f(1), f(0.5 * (lo + hi)));
}

export const lerp = (a: V, b: V, t: number): V => add(a, scale(sub(b, a), t));

/** Distance from p to segment ab by projection (zero-length segment: distance to a). */
export function distanceToSegment(p: V, a: V, b: V): number {
  const d = sub(b, a);
  const dd = dot(d, d);
  const t = dd === 0 ? 0 : Math.min(1, Math.max(0, dot(sub(p, a), d) / dd));
  return norm(sub(p, lerp(a, b, t)));
}

/** Distance between two segments: ternary search along the first of the distance to the second (convex). */
export function segmentSegmentDistance(a0: V, a1: V, b0: V, b1: V): number {
  return ternaryMin((s) => distanceToSegment(lerp(a0, a1, s), b0, b1));
}

/** Distance between a segment and a solid box: ternary search along the segment (convex). */
export function segmentBoxDistance(p0: V, p1: V, b: RefBox): number {
  return ternaryMin((t) => distanceToBox(b, lerp(p0, p1, t)));
}
