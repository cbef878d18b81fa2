/**
 * Independent references for the shape casts: static distances between shapes written from
 * scratch (clamping, ternary search, brute-force active sets, SAT over corners), and the first
 * contact along a motion found by dense sampling refined by bisection. Tests only: allocates
 * freely, favours plainness over speed.
 */
import { KDOP_DIRECTIONS } from '../../src/volumes/kdop';
import type { KdopK } from '../../src/layout';
import {
  add, at, boxCorners, cross, distanceToBox, distanceToSegment, dot, interval, lerp, norm, scale, sub, ternaryMin,
  type RefBox, type V,
} from './contactReference';

/** A static target as the reference sees it. */
export type RefTarget =
  | { kind: 'sphere'; c: V; r: number }
  | { kind: 'capsule'; p0: V; p1: V; r: number }
  | { kind: 'box'; box: RefBox }
  | { kind: 'triangle'; a: V; b: V; c: V }
  | { kind: 'kdop'; k: KdopK; values: number[] };

/** Distance from p to the closed triangle abc: the plane when p projects inside, else the nearest edge. */
export function distanceToTriangle(p: V, a: V, b: V, c: V): number {
  const n = cross(sub(b, a), sub(c, a));
  const nn = dot(n, n);
  const edges = Math.min(distanceToSegment(p, a, b), distanceToSegment(p, b, c), distanceToSegment(p, c, a));
  // Degenerate (sine below 1e-10): its normal is noise, the edges are the whole triangle.
  if (nn <= 1e-20 * dot(sub(b, a), sub(b, a)) * dot(sub(c, a), sub(c, a))) return edges;
  const h = dot(sub(p, a), n) / nn;
  const q = sub(p, scale(n, h));
  // q inside iff it lies on the inner side of all three edges.
  const inside = [[a, b], [b, c], [c, a]].every(([u, v]) => dot(cross(sub(v, u), sub(q, u)), n) >= 0);
  return inside ? Math.min(edges, Math.abs(h) * Math.sqrt(nn)) : edges;
}

/** Unit directions (with their k-DOP offsets divided by |n|) of a k-DOP's 2·(k/2) half-spaces n·x <= b. */
export function kdopHalfSpaces(k: KdopK, values: ArrayLike<number>): { n: V; b: number }[] {
  const dirs = KDOP_DIRECTIONS[k], half = k / 2, out: { n: V; b: number }[] = [];
  for (let i = 0; i < half; i++) {
    const d: V = [dirs[3 * i], dirs[3 * i + 1], dirs[3 * i + 2]];
    const l = norm(d);
    out.push({ n: scale(d, 1 / l), b: values[half + i] / l });
    out.push({ n: scale(d, -1 / l), b: -values[i] / l });
  }
  return out;
}

function solve3(m: V[], r: number[]): V | null {
  const det = dot(m[0], cross(m[1], m[2]));
  if (Math.abs(det) < 1e-12) return null;
  // Cramer's rule with rows m[i].
  const c0 = cross(m[1], m[2]), c1 = cross(m[2], m[0]), c2 = cross(m[0], m[1]);
  return scale(add(add(scale(c0, r[0]), scale(c1, r[1])), scale(c2, r[2])), 1 / det);
}

/** The k-DOP's vertices: feasible intersections of three of its planes (brute force over triples). */
export function kdopVertices(k: KdopK, values: ArrayLike<number>): V[] {
  const hs = kdopHalfSpaces(k, values), out: V[] = [];
  const size = Math.max(...Array.from(values, Math.abs), Number.MIN_VALUE);
  for (let i = 0; i < hs.length; i++) for (let j = i + 1; j < hs.length; j++) for (let l = j + 1; l < hs.length; l++) {
    const v = solve3([hs[i].n, hs[j].n, hs[l].n], [hs[i].b, hs[j].b, hs[l].b]);
    if (v && hs.every((h) => dot(h.n, v) <= h.b + 1e-9 * size)) out.push(v);
  }
  return out;
}

/**
 * Distance from p to the k-DOP given by its vertices and half-spaces: the smallest distance to a
 * feasible projection of p onto a vertex, onto an edge line (two planes) or onto a face plane, or
 * 0 inside. The true projection is one of those; any other feasible candidate is farther.
 */
export function distanceToKdop(p: V, hs: { n: V; b: number }[], vertices: V[]): number {
  const size = Math.max(norm(p), ...vertices.map(norm), Number.MIN_VALUE);
  const feasible = (q: V) => hs.every((h) => dot(h.n, q) <= h.b + 1e-9 * size);
  if (feasible(p)) return 0;
  let best = Infinity;
  for (const v of vertices) best = Math.min(best, norm(sub(p, v)));
  for (let i = 0; i < hs.length; i++) {
    const q = sub(p, scale(hs[i].n, dot(hs[i].n, p) - hs[i].b));
    if (feasible(q)) best = Math.min(best, norm(sub(p, q)));
    for (let j = i + 1; j < hs.length; j++) {
      const e = cross(hs[i].n, hs[j].n);
      if (norm(e) < 1e-9) continue;
      // Projection onto the line of both planes: a point of the line, then along e.
      const x0 = solve3([hs[i].n, hs[j].n, e], [hs[i].b, hs[j].b, dot(e, p)]);
      if (x0 && feasible(x0)) best = Math.min(best, norm(sub(p, x0)));
    }
  }
  return best;
}

/** Distance from point p to the solid target. */
export function distanceToTarget(t: RefTarget, p: V, kdopCache?: { hs: { n: V; b: number }[]; vertices: V[] }): number {
  switch (t.kind) {
    case 'sphere': return Math.max(0, norm(sub(p, t.c)) - t.r);
    case 'capsule': return Math.max(0, distanceToSegment(p, t.p0, t.p1) - t.r);
    case 'box': return distanceToBox(t.box, p);
    case 'triangle': return distanceToTriangle(p, t.a, t.b, t.c);
    case 'kdop': {
      const cache = kdopCache ?? { hs: kdopHalfSpaces(t.k, t.values), vertices: kdopVertices(t.k, t.values) };
      return distanceToKdop(p, cache.hs, cache.vertices);
    }
  }
}

/** Gap between a capsule p0 p1 (radius r; a sphere when p0 = p1) and a target: ternary search along the core. */
export function capsuleGap(t: RefTarget, p0: V, p1: V, r: number, kdopCache?: { hs: { n: V; b: number }[]; vertices: V[] }): number {
  if (norm(sub(p1, p0)) === 0) return distanceToTarget(t, p0, kdopCache) - r;
  return ternaryMin((s) => distanceToTarget(t, lerp(p0, p1, s), kdopCache), 60) - r;
}

/** A polytope target's vertices, edge directions and face normals (computed once). */
export interface RefPolytope { points: V[]; edges: V[]; faces: V[] }

/** The polytope of a box, triangle or k-DOP target. */
export function polytopeOf(t: RefTarget): RefPolytope {
  if (t.kind === 'box') return { points: boxCorners(t.box), edges: t.box.u, faces: t.box.u };
  if (t.kind === 'triangle') {
    return { points: [t.a, t.b, t.c], edges: [sub(t.b, t.a), sub(t.c, t.b), sub(t.a, t.c)], faces: [cross(sub(t.b, t.a), sub(t.c, t.a))] };
  }
  if (t.kind === 'kdop') {
    const hs = kdopHalfSpaces(t.k, t.values), edges: V[] = [];
    for (let i = 0; i < hs.length; i += 2) for (let j = i + 2; j < hs.length; j += 2) edges.push(cross(hs[i].n, hs[j].n));
    return { points: kdopVertices(t.k, t.values), edges, faces: hs.filter((_, i) => i % 2 === 0).map((h) => h.n) };
  }
  throw new Error(`no polytope for ${t.kind}`);
}

/**
 * Largest gap between a box and a polytope over the complete SAT axis set built from scratch
 * (both sets of face normals, all crosses of edge directions), projecting corners; > 0 iff apart,
 * and then a lower bound on their distance.
 */
export function boxPolytopeGap(b: RefBox, target: RefTarget | RefPolytope): number {
  const poly = 'points' in target ? target : polytopeOf(target);
  const ca = boxCorners(b), cb = poly.points;
  const axes: V[] = [...b.u, ...poly.faces];
  for (const u of b.u) for (const e of poly.edges) axes.push(cross(u, e));
  let gap = -Infinity;
  for (const a of axes) {
    const l = norm(a);
    if (!(l > 0)) continue;
    const n = scale(a, 1 / l);
    const [a0, a1] = interval(ca, n), [b0, b1] = interval(cb, n);
    gap = Math.max(gap, b0 - a1, a0 - b1);
  }
  return gap;
}

/**
 * First contact of a motion whose gap at time t is gap(t) (<= 0: touching): 4096 samples over
 * [0, maxT], the first sign change refined by 60 bisections. Returns the first contact (or null)
 * and the smallest gap seen.
 */
export function firstContact(gap: (t: number) => number, maxT: number, steps = 4096): { t: number | null; minGap: number } {
  let minGap = Infinity, prev = 0;
  for (let i = 0; i <= steps; i++) {
    const t = (maxT * i) / steps, g = gap(t);
    minGap = Math.min(minGap, g);
    if (g <= 0) {
      if (i === 0) return { t: 0, minGap };
      let lo = prev, hi = t;
      for (let k = 0; k < 60; k++) {
        const m = 0.5 * (lo + hi);
        if (gap(m) <= 0) hi = m;
        else lo = m;
      }
      return { t: hi, minGap };
    }
    prev = t;
  }
  return { t: null, minGap };
}

export { add, at, sub, scale, norm, dot };
