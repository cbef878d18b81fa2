import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { quickhull, type ConvexHull } from '../../src/fit/quickhull';
import { CollideInputError } from '../../src/errors';
import { HULL_RELATIVE_TOLERANCE, ROUNDING_ALLOWANCE } from '../../src/tolerances';
import { mulberry32, quaternionToAxes, randomQuaternion } from '../../scenes/random';
import { loadBunny } from '../../scenes/meshes';

type Pts = Float64Array;

const sub = (p: Pts, i: number, q: Pts, j: number) => [p[3 * i] - q[3 * j], p[3 * i + 1] - q[3 * j + 1], p[3 * i + 2] - q[3 * j + 2]];
const cross = (a: number[], b: number[]) => [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]];
const dot = (a: number[], b: number[]) => a[0] * b[0] + a[1] * b[1] + a[2] * b[2];

/** Size of the set: largest |coordinate| plus extent, for relative tolerances in the checks. */
function scaleOf(p: Pts, n: number): number {
  let s = 0;
  for (let i = 0; i < 3 * n; i++) s = Math.max(s, Math.abs(p[i]));
  return s;
}

function extentOf(p: Pts, n: number): number {
  let e = 0;
  for (let c = 0; c < 3; c++) {
    let lo = Infinity, hi = -Infinity;
    for (let i = 0; i < n; i++) {
      lo = Math.min(lo, p[3 * i + c]);
      hi = Math.max(hi, p[3 * i + c]);
    }
    e = Math.max(e, hi - lo);
  }
  return e;
}

/** Brute force: triples whose plane has every other point strictly on one side (general position). */
function bruteFacets(p: Pts, n: number): { vertices: Set<number>; facets: Set<string> } {
  const vertices = new Set<number>();
  const facets = new Set<string>();
  for (let i = 0; i < n; i++) {
    for (let j = i + 1; j < n; j++) {
      for (let k = j + 1; k < n; k++) {
        const nrm = cross(sub(p, j, p, i), sub(p, k, p, i));
        let pos = 0, neg = 0;
        for (let q = 0; q < n; q++) {
          if (q === i || q === j || q === k) continue;
          const d = dot(nrm, sub(p, q, p, i));
          if (d > 0) pos++;
          else if (d < 0) neg++;
        }
        if (pos === 0 || neg === 0) {
          vertices.add(i).add(j).add(k);
          facets.add([i, j, k].join(','));
        }
      }
    }
  }
  return { vertices, facets };
}

/**
 * Whether every point lies farther than the hull's documented tolerance (HULL_RELATIVE_TOLERANCE
 * × extent + ROUNDING_ALLOWANCE × largest |coordinate|) from the plane of every triple of other
 * points: general position as the kernel sees it, where its facets must equal the exact ones.
 * Closer points are "on the plane" to the kernel and may go either way.
 */
function inGeneralPosition(p: Pts, n: number): boolean {
  const tol = HULL_RELATIVE_TOLERANCE * extentOf(p, n) + ROUNDING_ALLOWANCE * scaleOf(p, n);
  for (let i = 0; i < n; i++) {
    for (let j = i + 1; j < n; j++) {
      for (let k = j + 1; k < n; k++) {
        const nrm = cross(sub(p, j, p, i), sub(p, k, p, i));
        const length = Math.hypot(nrm[0], nrm[1], nrm[2]);
        for (let q = 0; q < n; q++) {
          if (q !== i && q !== j && q !== k && Math.abs(dot(nrm, sub(p, q, p, i))) <= tol * length) return false;
        }
      }
    }
  }
  return true;
}

/** Structural and geometric checks every 3D hull must pass. */
function check3d(p: Pts, n: number, hull: ConvexHull): void {
  expect(hull.dimension).toBe(3);
  const V = hull.vertexCount, F = hull.triangleCount, E = hull.adjacency.length / 2;
  expect(V - E + F).toBe(2);
  // Vertices are the indexed input points.
  for (let v = 0; v < V; v++) {
    for (let c = 0; c < 3; c++) expect(hull.vertices[3 * v + c]).toBe(p[3 * hull.sourceIndex[v] + c]);
  }
  // Closed 2-manifold: every directed edge once, its reverse once; adjacency = triangle edges.
  const directed = new Set<string>();
  for (let t = 0; t < F; t++) {
    for (let i = 0; i < 3; i++) {
      const key = `${hull.indices[3 * t + i]}>${hull.indices[3 * t + ((i + 1) % 3)]}`;
      expect(directed.has(key)).toBe(false);
      directed.add(key);
    }
  }
  for (const key of directed) {
    const [a, b] = key.split('>');
    expect(directed.has(`${b}>${a}`)).toBe(true);
  }
  for (let v = 0; v < V; v++) {
    const nb = Array.from(hull.adjacency.subarray(hull.adjacencyOffsets[v], hull.adjacencyOffsets[v + 1]));
    for (const w of nb) expect(directed.has(`${v}>${w}`)).toBe(true);
    expect(new Set(nb).size).toBe(nb.length);
  }
  const scale = scaleOf(p, n), ext = extentOf(p, n);
  const tol = 1e-9 * ext + 1e-13 * scale;
  // Centroid of hull vertices, inside the hull; used for the orientation check.
  const c = new Float64Array(3);
  for (let v = 0; v < V; v++) for (let k = 0; k < 3; k++) c[k] += hull.vertices[3 * v + k] / V;
  const normalSum = new Float64Array(3 * V);
  const vx = hull.vertices;
  for (let t = 0; t < F; t++) {
    const [a, b, d] = [hull.indices[3 * t], hull.indices[3 * t + 1], hull.indices[3 * t + 2]];
    const nrm = cross(sub(vx, b, vx, a), sub(vx, d, vx, a));
    const len = Math.hypot(nrm[0], nrm[1], nrm[2]);
    expect(len).toBeGreaterThan(0);
    const [nx, ny, nz] = nrm.map((x) => x / len);
    // Outward: the centroid is behind every face (signed volume of (c, a, b, d) positive).
    expect(dot([nx, ny, nz], sub(vx, a, c, 0))).toBeGreaterThan(0);
    // Every input point on or behind every face plane.
    const ax = vx[3 * a], ay = vx[3 * a + 1], az = vx[3 * a + 2];
    let worst = -Infinity;
    for (let q = 0; q < n; q++) worst = Math.max(worst, nx * (p[3 * q] - ax) + ny * (p[3 * q + 1] - ay) + nz * (p[3 * q + 2] - az));
    expect(worst).toBeLessThanOrEqual(tol);
    for (const v of [a, b, d]) {
      normalSum[3 * v] += nx;
      normalSum[3 * v + 1] += ny;
      normalSum[3 * v + 2] += nz;
    }
  }
  // Every hull vertex is extreme: unique maximiser of the sum of its face normals.
  for (let v = 0; v < V; v++) {
    const dx = normalSum[3 * v], dy = normalSum[3 * v + 1], dz = normalSum[3 * v + 2];
    const x = vx[3 * v], y = vx[3 * v + 1], z = vx[3 * v + 2];
    let smallestGap = Infinity;
    for (let q = 0; q < n; q++) {
      const ex = x - p[3 * q], ey = y - p[3 * q + 1], ez = z - p[3 * q + 2];
      if (Math.hypot(ex, ey, ez) <= tol) continue; // the vertex itself or a duplicate
      smallestGap = Math.min(smallestGap, dx * ex + dy * ey + dz * ez);
    }
    expect(smallestGap).toBeGreaterThan(0);
  }
}

function hullVolume(hull: ConvexHull): number {
  let vol = 0;
  const o = hull.vertices;
  for (let t = 0; t < hull.triangleCount; t++) {
    const [a, b, d] = [hull.indices[3 * t], hull.indices[3 * t + 1], hull.indices[3 * t + 2]];
    vol += dot(sub(o, a, o, 0), cross(sub(o, b, o, 0), sub(o, d, o, 0))) / 6;
  }
  return vol;
}

function randomCloud(seed: number, n: number, offset: number, size: number): Pts {
  const rand = mulberry32(seed);
  return Float64Array.from({ length: 3 * n }, () => offset + (rand() - 0.5) * size);
}

describe('quickhull in 3D', () => {
  it('matches the brute-force facet enumeration on small random sets', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 4, max: 24 }),
        fc.integer(),
        fc.constantFrom(0, 1e3, -1e6),
        fc.constantFrom(1e-3, 1, 1e3),
        (n, seed, offset, size) => {
          const p = randomCloud(seed, n, offset, size);
          fc.pre(inGeneralPosition(p, n));
          const hull = quickhull(p, n);
          check3d(p, n, hull);
          const ref = bruteFacets(p, n);
          expect(new Set(hull.sourceIndex)).toEqual(ref.vertices);
          const facets = new Set<string>();
          for (let t = 0; t < hull.triangleCount; t++) {
            const tri = Array.from(hull.indices.subarray(3 * t, 3 * t + 3), (v) => hull.sourceIndex[v]).sort((a, b) => a - b);
            facets.add(tri.join(','));
          }
          expect(facets).toEqual(ref.facets);
        },
      ),
      { numRuns: 150 },
    );
  });

  it('keeps every point of a sphere sample', () => {
    const rand = mulberry32(11);
    for (const offset of [0, 1e6]) {
      const n = 300;
      const p = new Float64Array(3 * n);
      for (let i = 0; i < n; i++) {
        const z = 2 * rand() - 1, a = 2 * Math.PI * rand(), r = Math.sqrt(1 - z * z);
        p.set([offset + 5 * r * Math.cos(a), offset + 5 * r * Math.sin(a), offset + 5 * z], 3 * i);
      }
      const hull = quickhull(p, n);
      expect(hull.vertexCount).toBe(n);
      check3d(p, n, hull);
    }
  });

  it('gives only the 8 corners of a rotated, offset cube grid, with the cube volume', () => {
    const rand = mulberry32(3);
    for (const g of [2, 3, 4, 5, 8]) {
      for (const offset of [0, 1e6]) {
        const axes = quaternionToAxes(randomQuaternion(rand));
        const n = g * g * g;
        const p = new Float64Array(3 * n);
        let i = 0;
        for (let a = 0; a < g; a++) for (let b = 0; b < g; b++) for (let c = 0; c < g; c++, i++) {
          for (let k = 0; k < 3; k++) p[3 * i + k] = offset + 2 * (a * axes[k] + b * axes[3 + k] + c * axes[6 + k]);
        }
        const hull = quickhull(p, n);
        expect(hull.vertexCount).toBe(8);
        check3d(p, n, hull);
        const side = 2 * (g - 1);
        expect(hullVolume(hull)).toBeCloseTo(side ** 3, 6);
        for (const s of hull.sourceIndex) {
          const a = Math.floor(s / (g * g)), b = Math.floor(s / g) % g, c = s % g;
          for (const x of [a, b, c]) expect(x === 0 || x === g - 1).toBe(true);
        }
      }
    }
  });

  it('ignores duplicates and points on faces and edges', () => {
    fc.assert(
      fc.property(fc.integer(), fc.integer({ min: 4, max: 12 }), (seed, m) => {
        const base = randomCloud(seed, m, 0, 10);
        const rand = mulberry32(seed ^ 0x5bd1e995);
        const baseHull = quickhull(base, m);
        // Three copies of each point, plus midpoints of hull edges, centroids and edge points of hull triangles.
        const extra: number[] = [];
        for (let r = 0; r < 3; r++) extra.push(...base);
        const v = baseHull.vertices;
        for (let t = 0; t < baseHull.triangleCount; t++) {
          const [a, b, c] = baseHull.indices.subarray(3 * t, 3 * t + 3);
          const w = rand();
          for (let k = 0; k < 3; k++) extra.push(0.5 * (v[3 * a + k] + v[3 * b + k]));
          for (let k = 0; k < 3; k++) extra.push((v[3 * a + k] + v[3 * b + k] + v[3 * c + k]) / 3);
          for (let k = 0; k < 3; k++) extra.push(w * v[3 * b + k] + (1 - w) * v[3 * c + k]);
        }
        const pts = Float64Array.from(extra);
        const n = pts.length / 3;
        const hull = quickhull(pts, n);
        check3d(pts, n, hull);
        expect(hull.vertexCount).toBe(baseHull.vertexCount);
        expect(Math.abs(hullVolume(hull) - hullVolume(baseHull))).toBeLessThanOrEqual(1e-9 * hullVolume(baseHull));
      }),
      { numRuns: 100 },
    );
  });

  it('reads points at an offset in a larger array', () => {
    const p = randomCloud(5, 30, 0, 4);
    const padded = new Float64Array(7 + p.length);
    padded.set(p, 7);
    const a = quickhull(p, 30), b = quickhull(padded, 30, 7);
    expect(b.sourceIndex).toEqual(a.sourceIndex);
    expect(b.indices).toEqual(a.indices);
  });

  it('handles a large cloud and a real mesh', () => {
    const rand = mulberry32(99);
    const n = 20000;
    const p = new Float64Array(3 * n);
    for (let i = 0; i < n; i++) {
      const x = rand() - 0.5, y = rand() - 0.5, z = rand() - 0.5;
      const s = Math.cbrt(rand()) / Math.hypot(x, y, z);
      p.set([x * s, y * s * 3, z * s], 3 * i);
    }
    const hull = quickhull(p, n);
    check3d(p, n, hull);
    const bunny = loadBunny();
    const bh = quickhull(bunny.positions, bunny.vertexCount);
    check3d(bunny.positions, bunny.vertexCount, bh);
  });
});

describe('quickhull in lower dimensions', () => {
  it('gives the convex polygon of coplanar points, counter-clockwise about a fan normal', () => {
    fc.assert(
      fc.property(fc.integer(), fc.integer({ min: 3, max: 30 }), fc.constantFrom(0, 1e6), (seed, n, offset) => {
        const rand = mulberry32(seed);
        const axes = quaternionToAxes(randomQuaternion(rand));
        const uv = Float64Array.from({ length: 2 * n }, () => (rand() - 0.5) * 10);
        const p = new Float64Array(3 * n);
        for (let i = 0; i < n; i++) for (let k = 0; k < 3; k++) p[3 * i + k] = offset + uv[2 * i] * axes[k] + uv[2 * i + 1] * axes[3 + k];
        const hull = quickhull(p, n);
        expect(hull.dimension).toBe(2);
        // 2D brute force: i is a vertex iff some edge (i, j) has all other points strictly left or right.
        const ref = new Set<number>();
        for (let i = 0; i < n; i++) {
          for (let j = i + 1; j < n; j++) {
            let pos = 0, neg = 0;
            for (let q = 0; q < n; q++) {
              if (q === i || q === j) continue;
              const c = (uv[2 * j] - uv[2 * i]) * (uv[2 * q + 1] - uv[2 * i + 1]) - (uv[2 * j + 1] - uv[2 * i + 1]) * (uv[2 * q] - uv[2 * i]);
              if (c > 0) pos++;
              else if (c < 0) neg++;
            }
            if (pos === 0 || neg === 0) ref.add(i).add(j);
          }
        }
        expect(new Set(hull.sourceIndex)).toEqual(ref);
        const m = hull.vertexCount;
        expect(hull.triangleCount).toBe(m - 2);
        // Polygon order: every consecutive turn has the same sign as the plane normal of the fan.
        const v = hull.vertices;
        const fanN = cross(sub(v, 1, v, 0), sub(v, 2, v, 0));
        for (let t = 0; t < hull.triangleCount; t++) {
          const [a, b, c] = hull.indices.subarray(3 * t, 3 * t + 3);
          expect([a, b, c]).toEqual([0, t + 1, t + 2]);
        }
        for (let i = 0; i < m; i++) {
          const a = i, b = (i + 1) % m, c = (i + 2) % m;
          expect(dot(fanN, cross(sub(v, b, v, a), sub(v, c, v, b)))).toBeGreaterThan(0);
          const nb = Array.from(hull.adjacency.subarray(hull.adjacencyOffsets[b], hull.adjacencyOffsets[b + 1]));
          expect(nb).toEqual([a, c].sort((x, y) => x - y));
        }
      }),
      { numRuns: 150 },
    );
  });

  it('gives 4 corners for a planar grid', () => {
    const p: number[] = [];
    for (let a = 0; a < 6; a++) for (let b = 0; b < 6; b++) p.push(a + b, a - b, 1e6 + 3 * a);
    const hull = quickhull(p, 36);
    expect(hull.dimension).toBe(2);
    expect(Array.from(hull.sourceIndex).sort((x, y) => x - y)).toEqual([0, 5, 30, 35]);
  });

  it('gives the two endpoints of collinear points', () => {
    fc.assert(
      fc.property(fc.integer(), fc.integer({ min: 2, max: 30 }), fc.constantFrom(0, -1e6), (seed, n, offset) => {
        const rand = mulberry32(seed);
        const d = quaternionToAxes(randomQuaternion(rand));
        const ts = Array.from({ length: n }, () => (rand() - 0.5) * 100);
        ts[n - 1] = ts[0] + 1; // at least two distinct points
        const p = new Float64Array(3 * n);
        for (let i = 0; i < n; i++) for (let k = 0; k < 3; k++) p[3 * i + k] = offset + ts[i] * d[k];
        const hull = quickhull(p, n);
        expect(hull.dimension).toBe(1);
        expect(hull.triangleCount).toBe(0);
        const lo = ts.indexOf(Math.min(...ts)), hi = ts.indexOf(Math.max(...ts));
        const ends = [ts[hull.sourceIndex[0]], ts[hull.sourceIndex[1]]].sort((a, b) => a - b);
        expect(ends).toEqual([ts[lo], ts[hi]]);
        expect(Array.from(hull.adjacencyOffsets)).toEqual([0, 1, 2]);
        expect(Array.from(hull.adjacency)).toEqual([1, 0]);
      }),
    );
  });

  it('gives one vertex for a single point or all duplicates', () => {
    for (const [pts, n] of [[[1e6, 2, -3], 1], [[4, 5, 6, 4, 5, 6, 4, 5, 6], 3]] as const) {
      const hull = quickhull(pts, n);
      expect(hull.dimension).toBe(0);
      expect(hull.vertexCount).toBe(1);
      expect(Array.from(hull.vertices)).toEqual(pts.slice(0, 3));
      expect(Array.from(hull.adjacencyOffsets)).toEqual([0, 0]);
      expect(hull.triangleCount).toBe(0);
    }
  });

  it('rejects empty and non-finite input', () => {
    expect(() => quickhull([], 0)).toThrow(CollideInputError);
    expect(() => quickhull([0, 0, NaN], 1)).toThrow(CollideInputError);
    expect(() => quickhull([0, 0, 0, Infinity, 1, 1], 2)).toThrow(CollideInputError);
    expect(() => quickhull([0, 0, 0], 2)).toThrow(CollideInputError);
  });
});
