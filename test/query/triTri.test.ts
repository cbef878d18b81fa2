import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { closestPtPointTriangle, CLOSEST_ON_TRIANGLE_STRIDE } from '../../src/query/closestPoints';
import {
  TRI_TRI_COPLANAR,
  TRI_TRI_DISJOINT,
  TRI_TRI_SEGMENT,
  triTriIntersectionSegment,
  triTriOverlap,
} from '../../src/query/triTri';
import { mulberry32 } from '../../scenes/random';

/*
 * Reference, built differently from the kernel: two triangles in general position meet exactly
 * when one of the six edges crosses the other triangle, and an edge PQ crosses triangle ABC when
 * P and Q lie on opposite sides of ABC's plane and the line PQ passes inside the three edges
 * (the three orientations orient(P, Q, A, B), orient(P, Q, B, C), orient(P, Q, C, A) agree).
 * Only signs of determinants: no plane clipping, no projection. Pairs whose determinants are
 * within a relative band of zero are ambiguous for this reference and are counted, not compared.
 */

type Tri = Float64Array;

function orient(
  ax: number, ay: number, az: number,
  bx: number, by: number, bz: number,
  cx: number, cy: number, cz: number,
  dx: number, dy: number, dz: number,
): number {
  const ux = bx - ax, uy = by - ay, uz = bz - az;
  const vx = cx - ax, vy = cy - ay, vz = cz - az;
  const wx = dx - ax, wy = dy - ay, wz = dz - az;
  return ux * (vy * wz - vz * wy) - uy * (vx * wz - vz * wx) + uz * (vx * wy - vy * wx);
}

function vertex(t: Tri, k: number): [number, number, number] {
  return [t[3 * k], t[3 * k + 1], t[3 * k + 2]];
}

interface Crossing {
  ambiguous: boolean;
  point: [number, number, number] | null;
}

/** Edge (p, q) against triangle t: where it crosses, or null; `ambiguous` when a sign is within `band`. */
function edgeCrossesTriangle(p: number[], q: number[], t: Tri, band: number): Crossing {
  const [a, b, c] = [vertex(t, 0), vertex(t, 1), vertex(t, 2)];
  const sp = orient(...a, ...b, ...c, p[0], p[1], p[2]);
  const sq = orient(...a, ...b, ...c, q[0], q[1], q[2]);
  const e0 = orient(p[0], p[1], p[2], q[0], q[1], q[2], ...a, ...b);
  const e1 = orient(p[0], p[1], p[2], q[0], q[1], q[2], ...b, ...c);
  const e2 = orient(p[0], p[1], p[2], q[0], q[1], q[2], ...c, ...a);
  const ambiguous = [sp, sq, e0, e1, e2].some((s) => Math.abs(s) <= band);
  const crosses = sp * sq < 0 && ((e0 > 0 && e1 > 0 && e2 > 0) || (e0 < 0 && e1 < 0 && e2 < 0));
  if (!crosses) return { ambiguous, point: null };
  const s = sp / (sp - sq);
  return { ambiguous, point: [p[0] + s * (q[0] - p[0]), p[1] + s * (q[1] - p[1]), p[2] + s * (q[2] - p[2])] };
}

/** All edge crossings of a against b and b against a; ambiguous when any determinant is near 0. */
function referenceCrossings(a: Tri, b: Tri, band: number): { ambiguous: boolean; points: number[][] } {
  const points: number[][] = [];
  let ambiguous = false;
  for (const [s, t] of [[a, b], [b, a]] as const) {
    for (let k = 0; k < 3; k++) {
      const r = edgeCrossesTriangle(vertex(s, k), vertex(s, (k + 1) % 3), t, band);
      ambiguous ||= r.ambiguous;
      if (r.point) points.push(r.point);
    }
  }
  return { ambiguous, points };
}

const closest = new Float64Array(CLOSEST_ON_TRIANGLE_STRIDE);
function distanceToTriangle(t: Tri, x: number, y: number, z: number): number {
  closestPtPointTriangle(closest, 0, x, y, z, t, 0);
  return Math.hypot(closest[0] - x, closest[1] - y, closest[2] - z);
}

function distanceToSegment(s: Float64Array, p: number[]): number {
  const dx = s[3] - s[0], dy = s[4] - s[1], dz = s[5] - s[2];
  const l2 = dx * dx + dy * dy + dz * dz;
  const u = l2 === 0 ? 0 : Math.min(1, Math.max(0, ((p[0] - s[0]) * dx + (p[1] - s[1]) * dy + (p[2] - s[2]) * dz) / l2));
  return Math.hypot(s[0] + u * dx - p[0], s[1] + u * dy - p[1], s[2] + u * dz - p[2]);
}

function randomTriangle(rand: () => number, centre: number[], size: number): Tri {
  const t = new Float64Array(9);
  for (let i = 0; i < 9; i++) t[i] = centre[i % 3] + (rand() - 0.5) * size;
  return t;
}

const segment = new Float64Array(6);

/** Compares kernel and reference on one pair; returns false when the reference abstains. */
function checkAgainstReference(a: Tri, b: Tri, scale: number, offset: number): boolean {
  const band = 1e-9 * scale ** 3 + 1e-15 * offset * scale ** 2;
  const ref = referenceCrossings(a, b, band);
  if (ref.ambiguous) return false;
  const kind = triTriIntersectionSegment(segment, a, 0, b, 0);
  // General position: coplanar never happens, so intersecting means a segment.
  expect(kind).toBe(ref.points.length > 0 ? TRI_TRI_SEGMENT : TRI_TRI_DISJOINT);
  expect(triTriOverlap(b, 0, a, 0)).toBe(ref.points.length > 0);
  if (kind === TRI_TRI_SEGMENT) {
    const tol = 1e-9 * scale + 1e-15 * offset;
    for (const e of [0, 3]) {
      expect(distanceToTriangle(a, segment[e], segment[e + 1], segment[e + 2])).toBeLessThanOrEqual(tol);
      expect(distanceToTriangle(b, segment[e], segment[e + 1], segment[e + 2])).toBeLessThanOrEqual(tol);
    }
    // The segment is the whole intersection: every edge crossing lies on it.
    for (const p of ref.points) expect(distanceToSegment(segment, p)).toBeLessThanOrEqual(tol);
  }
  return true;
}

describe('triTriIntersectionSegment against the edge-crossing reference', () => {
  it('agrees on random pairs, near and far from the origin', () => {
    let compared = 0, intersecting = 0, total = 0;
    fc.assert(
      fc.property(fc.integer(), fc.constantFrom(0, 1e6), fc.constantFrom(1e-3, 1, 1e3), (seed, offset, scale) => {
        const rand = mulberry32(seed);
        const centre = [offset, -offset, offset];
        for (let n = 0; n < 100; n++) {
          const a = randomTriangle(rand, centre, scale);
          const shifted = centre.map((c) => c + (rand() - 0.5) * 0.6 * scale);
          const b = randomTriangle(rand, shifted, scale);
          total++;
          if (checkAgainstReference(a, b, scale, offset)) {
            compared++;
            if (triTriOverlap(a, 0, b, 0)) intersecting++;
          }
        }
      }),
      { numRuns: 300 },
    );
    // Both answers are well represented and the reference abstained rarely.
    expect(compared).toBeGreaterThan(0.98 * total);
    expect(intersecting).toBeGreaterThan(0.15 * compared);
    expect(intersecting).toBeLessThan(0.85 * compared);
  });
});

function tri(...v: number[]): Tri {
  return Float64Array.from(v);
}

function translate(t: Tri, dx: number, dy: number, dz: number): Tri {
  return t.map((v, i) => v + [dx, dy, dz][i % 3]);
}

describe('touching, coplanar and degenerate cases', () => {
  const base = tri(0, 0, 0, 1, 0, 0, 0, 1, 0);

  it('report touching at a shared vertex, a shared edge and a vertex on the face', () => {
    for (const offset of [0, 1e6]) {
      const a = translate(base, offset, offset, offset);
      const sharedVertex = translate(tri(0, 0, 0, -1, 0, 1, 0, -1, 1), offset, offset, offset);
      expect(triTriIntersectionSegment(segment, a, 0, sharedVertex, 0)).toBe(TRI_TRI_SEGMENT);
      for (let k = 0; k < 6; k++) expect(segment[k]).toBeCloseTo(offset, 6);

      const sharedEdge = translate(tri(0, 0, 0, 1, 0, 0, 0.3, -0.2, 1), offset, offset, offset);
      expect(triTriIntersectionSegment(segment, a, 0, sharedEdge, 0)).toBe(TRI_TRI_SEGMENT);
      const xs = [segment[0] - offset, segment[3] - offset].sort((p, q) => p - q);
      expect(xs[0]).toBeCloseTo(0, 6);
      expect(xs[1]).toBeCloseTo(1, 6);

      const onFace = translate(tri(0.25, 0.25, 0, 0.5, 0.2, 1, 0.1, 0.6, 1), offset, offset, offset);
      expect(triTriOverlap(a, 0, onFace, 0)).toBe(true);
      // Lifted by a hair above the face: disjoint.
      expect(triTriOverlap(a, 0, translate(onFace, 0, 0, 1e-6), 0)).toBe(false);
    }
  });

  it('classifies coplanar pairs: overlapping, nested, edge-touching and apart', () => {
    const rand = mulberry32(7);
    for (let n = 0; n < 200; n++) {
      // A random plane frame: rotate the z = 0 configurations by a random rotation.
      const [u, v] = randomFrame(rand);
      const place = (t: Tri) => {
        const out = new Float64Array(9);
        for (let k = 0; k < 3; k++) for (let c = 0; c < 3; c++) out[3 * k + c] = 5 + t[3 * k] * u[c] + t[3 * k + 1] * v[c];
        return out;
      };
      const a = place(base);
      expect(triTriIntersectionSegment(segment, a, 0, place(translate(base, 0.3, 0.3, 0)), 0)).toBe(TRI_TRI_COPLANAR);
      const nested = place(tri(0.2, 0.2, 0, 0.4, 0.2, 0, 0.2, 0.4, 0));
      expect(triTriIntersectionSegment(segment, a, 0, nested, 0)).toBe(TRI_TRI_COPLANAR);
      expect(triTriIntersectionSegment(segment, nested, 0, a, 0)).toBe(TRI_TRI_COPLANAR);
      // Mirror image across the hypotenuse touches along it.
      const mirrored = place(tri(1, 0, 0, 0, 1, 0, 1, 1, 0));
      expect(triTriOverlap(a, 0, mirrored, 0)).toBe(true);
      expect(triTriOverlap(a, 0, place(translate(mirrored, 0.01, 0.01, 0)), 0)).toBe(false);
      expect(triTriOverlap(a, 0, place(translate(base, 2, 0, 0)), 0)).toBe(false);
    }
  });

  it('handles zero-area triangles as segments', () => {
    const a = tri(0, 0, 0, 2, 0, 0, 0, 2, 0);
    // Collinear "triangle" piercing the face.
    const needle = tri(0.5, 0.5, -1, 0.5, 0.5, 1, 0.5, 0.5, 0.2);
    expect(triTriIntersectionSegment(segment, a, 0, needle, 0)).toBe(TRI_TRI_SEGMENT);
    for (const e of [0, 3]) {
      expect(segment[e]).toBeCloseTo(0.5, 9);
      expect(segment[e + 1]).toBeCloseTo(0.5, 9);
      expect(segment[e + 2]).toBeCloseTo(0, 9);
    }
    expect(triTriOverlap(needle, 0, a, 0)).toBe(true);
    expect(triTriOverlap(a, 0, translate(needle, 0, 0, 1.5), 0)).toBe(false);
    // A point triangle on the face, and two crossing zero-area triangles.
    expect(triTriOverlap(a, 0, tri(0.3, 0.3, 0, 0.3, 0.3, 0, 0.3, 0.3, 0), 0)).toBe(true);
    const crossX = tri(-1, 0, 0, 1, 0, 0, 0, 0, 0);
    const crossY = tri(0, -1, 0, 0, 1, 0, 0, 0.5, 0);
    expect(triTriOverlap(crossX, 0, crossY, 0)).toBe(true);
    expect(triTriOverlap(crossX, 0, translate(crossY, 0, 0, 1e-3), 0)).toBe(false);
  });

  it('treats near-degenerate slivers against the reference too', () => {
    const rand = mulberry32(99);
    let compared = 0;
    for (let n = 0; n < 5000; n++) {
      const a = randomTriangle(rand, [0, 0, 0], 1);
      // A sliver: third vertex within 1e-4 of the first edge's line.
      const b = randomTriangle(rand, [0.1, 0, 0], 1);
      const s = rand();
      for (let c = 0; c < 3; c++) b[6 + c] = b[c] + s * (b[3 + c] - b[c]) + (rand() - 0.5) * 1e-4;
      if (checkAgainstReference(a, b, 1, 0)) compared++;
    }
    expect(compared).toBeGreaterThan(4000);
  });
});

function randomFrame(rand: () => number): [number[], number[]] {
  const norm = (p: number[]) => {
    const l = Math.hypot(...p);
    return p.map((x) => x / l);
  };
  const u = norm([rand() - 0.5, rand() - 0.5, rand() - 0.5]);
  const w = norm([rand() - 0.5, rand() - 0.5, rand() - 0.5]);
  const v = norm([u[1] * w[2] - u[2] * w[1], u[2] * w[0] - u[0] * w[2], u[0] * w[1] - u[1] * w[0]]);
  return [u, v];
}
