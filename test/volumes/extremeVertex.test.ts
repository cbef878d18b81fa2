import { describe, expect, it } from 'vitest';
import { EXTREME_VERTEX_RELATIVE_TOLERANCE } from '../../src/tolerances';
import { aabbFromHullTracking, createExtremeVertexTracker, extremeVertex } from '../../src/volumes/extremeVertex';
import { mulberry32, quaternionToAxes, randomQuaternion } from '../../scenes/random';

// ---- convex polyhedra with known triangulations, built analytically ----

interface Mesh {
  name: string;
  points: Float64Array;
  offsets: Uint32Array;
  adjacency: Uint32Array;
  /** Vertices strictly inside a flat face, with that face's outward normal (the trap starts). */
  faceInterior: { vertex: number; normal: number[] }[];
}

/** CSR adjacency (sorted, unique neighbours) from a triangle list. */
function csr(vertexCount: number, triangles: number[]): { offsets: Uint32Array; adjacency: Uint32Array } {
  const nbrs = Array.from({ length: vertexCount }, () => new Set<number>());
  for (let t = 0; t < triangles.length; t += 3)
    for (let e = 0; e < 3; e++) {
      const a = triangles[t + e], b = triangles[t + ((e + 1) % 3)];
      nbrs[a].add(b);
      nbrs[b].add(a);
    }
  const offsets = new Uint32Array(vertexCount + 1);
  const adjacency: number[] = [];
  nbrs.forEach((s, v) => {
    adjacency.push(...[...s].sort((x, y) => x - y));
    offsets[v + 1] = adjacency.length;
  });
  return { offsets, adjacency: Uint32Array.from(adjacency) };
}

/** Cube [-h, h]³ whose faces are n×n grids of coplanar triangle pairs. */
function gridCube(n: number, h = 1): Mesh {
  const index = new Map<string, number>();
  const pts: number[] = [];
  const vertex = (g: number[]) => {
    const key = g.join(',');
    let v = index.get(key);
    if (v === undefined) {
      v = pts.length / 3;
      index.set(key, v);
      pts.push(...g.map((c) => -h + (2 * h * c) / n));
    }
    return v;
  };
  const tris: number[] = [];
  const faceInterior: Mesh['faceInterior'] = [];
  for (let axis = 0; axis < 3; axis++)
    for (const side of [0, n]) {
      const u = (axis + 1) % 3, w = (axis + 2) % 3;
      const at = (i: number, j: number) => {
        const g = [0, 0, 0];
        g[axis] = side;
        g[u] = i;
        g[w] = j;
        return vertex(g);
      };
      for (let i = 0; i < n; i++)
        for (let j = 0; j < n; j++) {
          const a = at(i, j), b = at(i + 1, j), c = at(i + 1, j + 1), d = at(i, j + 1);
          // Alternate the diagonal so the grid is not one uniform pattern.
          if ((i + j) % 2) tris.push(a, b, c, a, c, d);
          else tris.push(a, b, d, b, c, d);
        }
      const normal = [0, 0, 0];
      normal[axis] = side === 0 ? -1 : 1;
      for (let i = 1; i < n; i++) for (let j = 1; j < n; j++) faceInterior.push({ vertex: at(i, j), normal });
    }
  const { offsets, adjacency } = csr(pts.length / 3, tris);
  return { name: `grid cube ${n}`, points: Float64Array.from(pts), offsets, adjacency, faceInterior };
}

/** UV sphere: two poles and `rings` latitude rings of `segs` vertices. */
function uvSphere(rings: number, segs: number, r = 2): Mesh {
  const pts: number[] = [0, 0, r];
  for (let i = 1; i <= rings; i++) {
    const th = (Math.PI * i) / (rings + 1);
    for (let j = 0; j < segs; j++) {
      const ph = (2 * Math.PI * j) / segs;
      pts.push(r * Math.sin(th) * Math.cos(ph), r * Math.sin(th) * Math.sin(ph), r * Math.cos(th));
    }
  }
  pts.push(0, 0, -r);
  const south = pts.length / 3 - 1;
  const ring = (i: number, j: number) => 1 + (i - 1) * segs + (j % segs);
  const tris: number[] = [];
  for (let j = 0; j < segs; j++) {
    tris.push(0, ring(1, j), ring(1, j + 1));
    tris.push(south, ring(rings, j + 1), ring(rings, j));
    for (let i = 1; i < rings; i++) tris.push(ring(i, j), ring(i + 1, j), ring(i + 1, j + 1), ring(i, j), ring(i + 1, j + 1), ring(i, j + 1));
  }
  const { offsets, adjacency } = csr(pts.length / 3, tris);
  return { name: `uv sphere ${rings}x${segs}`, points: Float64Array.from(pts), offsets, adjacency, faceInterior: [] };
}

/**
 * Cylinder of radius r, height 2h, `segs` sides; each flat cap is triangulated with `inner`
 * concentric coplanar rings and a centre vertex, all of them inside the cap face.
 */
function cylinder(segs: number, inner: number, r = 1.5, h = 0.75): Mesh {
  const pts: number[] = [];
  const tris: number[] = [];
  const faceInterior: Mesh['faceInterior'] = [];
  const rings: number[][][] = []; // per cap: ring arrays from outer (side) to innermost
  for (const z of [-h, h]) {
    const capRings: number[][] = [];
    for (let k = 0; k <= inner; k++) {
      const rr = (r * (inner + 1 - k)) / (inner + 1);
      const ring: number[] = [];
      for (let j = 0; j < segs; j++) {
        ring.push(pts.length / 3);
        pts.push(rr * Math.cos((2 * Math.PI * j) / segs), rr * Math.sin((2 * Math.PI * j) / segs), z);
        if (k > 0) faceInterior.push({ vertex: ring[j], normal: [0, 0, Math.sign(z)] });
      }
      capRings.push(ring);
    }
    const centre = pts.length / 3;
    pts.push(0, 0, z);
    faceInterior.push({ vertex: centre, normal: [0, 0, Math.sign(z)] });
    for (let k = 0; k < inner; k++)
      for (let j = 0; j < segs; j++) {
        const a = capRings[k][j], b = capRings[k][(j + 1) % segs], c = capRings[k + 1][(j + 1) % segs], d = capRings[k + 1][j];
        tris.push(a, b, c, a, c, d);
      }
    const last = capRings[inner];
    for (let j = 0; j < segs; j++) tris.push(centre, last[j], last[(j + 1) % segs]);
    rings.push(capRings);
  }
  const [bottom, top] = [rings[0][0], rings[1][0]];
  for (let j = 0; j < segs; j++) {
    const a = bottom[j], b = bottom[(j + 1) % segs], c = top[(j + 1) % segs], d = top[j];
    tris.push(a, b, c, a, c, d);
  }
  const { offsets, adjacency } = csr(pts.length / 3, tris);
  return { name: `cylinder ${segs}/${inner}`, points: Float64Array.from(pts), offsets, adjacency, faceInterior };
}

/** The mesh rotated by q and moved by t (faces stay flat up to rounding). */
function moved(mesh: Mesh, q: number[], t: number[]): Mesh {
  const m = quaternionToAxes(q);
  const rot = (p: ArrayLike<number>, i: number) => [0, 1, 2].map((k) => m[k] * p[i] + m[3 + k] * p[i + 1] + m[6 + k] * p[i + 2]);
  const points = new Float64Array(mesh.points.length);
  for (let i = 0; i < points.length; i += 3) points.set(rot(mesh.points, i).map((c, k) => c + t[k]), i);
  const faceInterior = mesh.faceInterior.map(({ vertex, normal }) => ({ vertex, normal: rot(normal, 0) }));
  return { ...mesh, name: `${mesh.name} moved`, points, faceInterior };
}

const dotAt = (p: ArrayLike<number>, v: number, d: number[]) => p[3 * v] * d[0] + p[3 * v + 1] * d[1] + p[3 * v + 2] * d[2];

function bruteMax(p: ArrayLike<number>, d: number[]): number {
  let best = -Infinity;
  for (let v = 0; v < p.length / 3; v++) best = Math.max(best, dotAt(p, v, d));
  return best;
}

/** Allowed shortfall: a little above the walk's own tie tolerance. */
function slack(p: ArrayLike<number>, d: number[]): number {
  let m = 0;
  for (let i = 0; i < p.length; i++) m = Math.max(m, Math.abs(p[i]));
  return 4 * EXTREME_VERTEX_RELATIVE_TOLERANCE * (Math.abs(d[0]) + Math.abs(d[1]) + Math.abs(d[2])) * m;
}

function expectExtreme(mesh: Mesh, start: number, d: number[]): number {
  const v = extremeVertex(mesh.points, mesh.offsets, mesh.adjacency, start, d[0], d[1], d[2]);
  expect(Number.isInteger(v) && v >= 0 && v < mesh.points.length / 3).toBe(true);
  expect(dotAt(mesh.points, v, d)).toBeGreaterThanOrEqual(bruteMax(mesh.points, d) - slack(mesh.points, d));
  return v;
}

/** Plain steepest ascent with no plateau handling, to prove the trap cases really trap it. */
function naiveClimb(mesh: Mesh, start: number, d: number[]): number {
  let v = start;
  for (;;) {
    let best = v;
    for (let e = mesh.offsets[v]; e < mesh.offsets[v + 1]; e++) {
      const w = mesh.adjacency[e];
      if (dotAt(mesh.points, w, d) > dotAt(mesh.points, best, d)) best = w;
    }
    if (best === v) return v;
    v = best;
  }
}

function unit(rand: () => number): number[] {
  const z = 2 * rand() - 1, a = 2 * Math.PI * rand(), s = Math.sqrt(1 - z * z);
  return [s * Math.cos(a), s * Math.sin(a), z];
}

const rand0 = mulberry32(1234);
const MESHES: Mesh[] = [
  gridCube(1),
  gridCube(6),
  uvSphere(12, 20),
  cylinder(16, 2),
  cylinder(5, 0),
  moved(gridCube(5), randomQuaternion(rand0), [1e6, -2e6, 5e5]),
  moved(cylinder(12, 3), randomQuaternion(rand0), [-3e5, 0, 7]),
];

describe('extremeVertex', () => {
  it('finds a true maximum for thousands of random directions from random starts', () => {
    const rand = mulberry32(42);
    for (const mesh of MESHES) {
      const n = mesh.points.length / 3;
      for (let trial = 0; trial < 1500; trial++) {
        const d = unit(rand).map((c) => c * (0.01 + 100 * rand()));
        expectExtreme(mesh, Math.floor(rand() * n), d);
      }
    }
  });

  it('escapes the coplanar trap: direction exactly opposite a face normal, start inside that face', () => {
    let naiveStalls = 0;
    for (const mesh of MESHES) {
      for (const { vertex, normal } of mesh.faceInterior) {
        const away = normal.map((c) => -c);
        const v = expectExtreme(mesh, vertex, away);
        if (dotAt(mesh.points, naiveClimb(mesh, vertex, away), away) < bruteMax(mesh.points, away) - slack(mesh.points, away)) naiveStalls++;
        // Along the normal itself the start is already a maximum, on a plateau of ties.
        expectExtreme(mesh, vertex, normal);
        // And slightly tilted, the walk must still leave the face's plateau the right way.
        expectExtreme(mesh, vertex, [away[0] + 1e-9, away[1] - 1e-9, away[2]]);
        expect(v).toBeGreaterThanOrEqual(0);
      }
    }
    // Plain hill climbing really does stall on these cases, so the test has teeth.
    expect(naiveStalls).toBeGreaterThan(50);
  });

  it('ends on the right plateau for directions along axes, edges and corners of the grid cube', () => {
    const mesh = gridCube(6);
    const n = mesh.points.length / 3;
    const dirs: number[][] = [];
    for (let x = -1; x <= 1; x++) for (let y = -1; y <= 1; y++) for (let z = -1; z <= 1; z++) if (x || y || z) dirs.push([x, y, z]);
    for (const d of dirs)
      for (let start = 0; start < n; start++) {
        const v = expectExtreme(mesh, start, d);
        for (let k = 0; k < 3; k++) if (d[k] !== 0) expect(mesh.points[3 * v + k]).toBe(d[k]);
      }
  });

  it('works on degenerate hull graphs: a point, a segment, a polygon', () => {
    const point = extremeVertex([3, 4, 5], new Uint32Array([0, 0]), new Uint32Array(0), 0, 1, 0, 0);
    expect(point).toBe(0);
    const seg = { points: [0, 0, 0, 1, 2, 3], offsets: new Uint32Array([0, 1, 2]), adjacency: new Uint32Array([1, 0]) };
    expect(extremeVertex(seg.points, seg.offsets, seg.adjacency, 0, 1, 1, 1)).toBe(1);
    expect(extremeVertex(seg.points, seg.offsets, seg.adjacency, 1, -1, 0, 0)).toBe(0);
    // Perpendicular direction: both ends tie, either is a maximum.
    expect([0, 1]).toContain(extremeVertex(seg.points, seg.offsets, seg.adjacency, 1, 3, 0, -1));
    const k = 9;
    const poly = Array.from({ length: k }, (_, i) => [Math.cos((2 * Math.PI * i) / k), Math.sin((2 * Math.PI * i) / k), 0]).flat();
    const offsets = Uint32Array.from({ length: k + 1 }, (_, i) => 2 * i);
    const adjacency = Uint32Array.from(Array.from({ length: k }, (_, i) => [(i + k - 1) % k, (i + 1) % k]).flat());
    const rand = mulberry32(3);
    for (let trial = 0; trial < 300; trial++) {
      const d = unit(rand);
      const v = extremeVertex(poly, offsets, adjacency, Math.floor(rand() * k), d[0], d[1], d[2]);
      expect(dotAt(poly, v, d)).toBeGreaterThanOrEqual(bruteMax(poly, d) - 1e-12);
    }
    // Direction normal to the polygon: every vertex ties; the walk terminates on one of them.
    expect(extremeVertex(poly, offsets, adjacency, 4, 0, 0, 1)).toBeLessThan(k);
  });

  it('uses an explicit tracker, grows it for larger hulls, and survives epoch wrap-around', () => {
    const tracker = createExtremeVertexTracker(4);
    const mesh = gridCube(4);
    const rand = mulberry32(77);
    tracker.epoch = 0xffffffff - 3;
    for (let trial = 0; trial < 40; trial++) {
      const { vertex, normal } = mesh.faceInterior[Math.floor(rand() * mesh.faceInterior.length)];
      const d = normal.map((c) => -c);
      const v = extremeVertex(mesh.points, mesh.offsets, mesh.adjacency, vertex, d[0], d[1], d[2], tracker);
      expect(dotAt(mesh.points, v, d)).toBe(bruteMax(mesh.points, d));
    }
    expect(tracker.stamp.length).toBeGreaterThanOrEqual(mesh.points.length / 3);
    expect(tracker.epoch).toBeLessThan(100);
  });
});

describe('aabbFromHullTracking', () => {
  function bruteAabb(points: Float64Array, q: number[], t: number[], s: number): number[] {
    const m = quaternionToAxes(q);
    const box = [Infinity, Infinity, Infinity, -Infinity, -Infinity, -Infinity];
    for (let i = 0; i < points.length; i += 3)
      for (let k = 0; k < 3; k++) {
        const w = t[k] + s * (m[k] * points[i] + m[3 + k] * points[i + 1] + m[6 + k] * points[i + 2]);
        box[k] = Math.min(box[k], w);
        box[3 + k] = Math.max(box[3 + k], w);
      }
    return box;
  }

  it('tracks the exact world AABB of a rotating hull frame after frame', () => {
    const rand = mulberry32(9);
    for (const mesh of MESHES.slice(0, 5)) {
      const cache = new Uint32Array(6);
      const out = new Float64Array(8);
      const q = [0, 0, 0, 1];
      let extent = 0;
      for (const c of mesh.points) extent = Math.max(extent, Math.abs(c));
      for (let frame = 0; frame < 400; frame++) {
        if (frame % 50 === 0) {
          // Exactly axis-aligned orientations (identity, quarter turns): flat faces face the axes.
          const a = Math.floor(rand() * 3);
          q.fill(0);
          q[3] = Math.SQRT1_2;
          q[a] = rand() < 0.5 ? Math.SQRT1_2 : 0;
          if (q[a] === 0) q[3] = 1;
        } else if (frame % 97 === 0) {
          randomQuaternion(rand, q); // teleport: no coherence to exploit
        } else {
          // Small incremental rotation about a random axis.
          const ax = unit(rand), h = 0.02 * rand();
          const d = [Math.sin(h) * ax[0], Math.sin(h) * ax[1], Math.sin(h) * ax[2], Math.cos(h)];
          const [x, y, z, w] = q;
          q[0] = w * d[0] + x * d[3] + y * d[2] - z * d[1];
          q[1] = w * d[1] - x * d[2] + y * d[3] + z * d[0];
          q[2] = w * d[2] + x * d[1] - y * d[0] + z * d[3];
          q[3] = w * d[3] - x * d[0] - y * d[1] - z * d[2];
          const l = Math.hypot(...q);
          for (let i = 0; i < 4; i++) q[i] /= l;
        }
        const t = [rand() * 10 - 5, rand() * 1e4, -7];
        const s = frame % 7 === 3 ? -(0.5 + rand()) : 0.5 + rand();
        aabbFromHullTracking(out, 2, mesh.points, mesh.offsets, mesh.adjacency, cache, q, t, s);
        const ref = bruteAabb(mesh.points, q, t, s);
        const tol = 1e-9 * (extent * Math.abs(s) + 1e4);
        for (let k = 0; k < 6; k++) expect(Math.abs(out[2 + k] - ref[k])).toBeLessThanOrEqual(tol);
        expect(out[0]).toBe(0);
        for (const v of cache) expect(v).toBeLessThan(mesh.points.length / 3);
      }
    }
  });
});
