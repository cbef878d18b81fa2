import { assertNonEmptyPoints } from '../errors';
import type { ReadonlyFloats } from '../layout';
import { ROUNDING_ALLOWANCE, HULL_RELATIVE_TOLERANCE } from '../tolerances';

/**
 * Convex hull of a 3D point set, in flat arrays. For `dimension` 3 the triangles close a
 * 2-manifold and face outwards (counter-clockwise seen from outside). Lower dimensions keep the
 * same shape: 2 = a convex polygon in its plane (vertices in polygon order, triangles = a fan on
 * one side), 1 = the two endpoints of a segment, 0 = a single point.
 *
 * The file holds one algorithm (Quickhull with its planar and degenerate cases), which shares the
 * face arrays and scratch from the first extreme points to the assembled hull.
 */
export interface ConvexHull {
  /** Number of hull vertices. */
  vertexCount: number;
  /** xyz of each hull vertex, copied from the input. */
  vertices: Float64Array;
  /** Index of each hull vertex in the input point set. */
  sourceIndex: Uint32Array;
  /** Number of hull triangles (see `dimension` for flat hulls). */
  triangleCount: number;
  /** 3 vertex indices (into `vertices`) per triangle, counter-clockwise seen from outside. */
  indices: Uint32Array;
  /** CSR offsets, length vertexCount + 1: neighbours of vertex v are adjacency[offsets[v] .. offsets[v+1]). */
  adjacencyOffsets: Uint32Array;
  /** Neighbour vertex indices along hull edges (polygon edges in 2D, the segment in 1D), ascending per vertex. */
  adjacency: Uint32Array;
  /** Dimension of the hull: 0 a point, 1 a segment, 2 a flat polygon, 3 a solid. */
  dimension: 0 | 1 | 2 | 3;
}

/**
 * When several points are equally far (within tolerance) a secondary linear function picks one;
 * its second in-plane weight is irrational so that lattice-aligned edges rarely tie again. The
 * maximiser of a linear function over a flat set of ties is one of its extreme points, so grid and
 * coplanar points in the middle of a facet never become hull vertices.
 */
const TIE_BREAK_WEIGHT = 0.6180339887498949;

// ---- module scratch, grown on demand and reused across calls (fitting is single-threaded) ----
let faceCapacity = 0;
let faceCount = 0;
let faceVerts = new Int32Array(0); // 3 per face, input point indices, counter-clockwise from outside
let faceNbrs = new Int32Array(0); // 3 per face: the face across edge i (vertex i -> vertex i+1)
let facePlanes = new Float64Array(0); // unit normal xyz, offset d (n·x = d) in centred coordinates
let faceOutside = new Int32Array(0); // head of the face's outside-point list, -1 when empty
let faceVisit = new Int32Array(0); // flood stamp
let faceAlive = new Uint8Array(0);
const stack: number[] = [];
const visible: number[] = [];
const horizon: number[] = []; // pairs (face, edge)
const newFaces: number[] = [];
const orphans: number[] = [];

function ensureFaceCapacity(n: number): void {
  if (n <= faceCapacity) return;
  const cap = Math.max(n, 2 * faceCapacity, 64);
  const verts = new Int32Array(3 * cap), nbrs = new Int32Array(3 * cap), planes = new Float64Array(4 * cap);
  const outside = new Int32Array(cap), visit = new Int32Array(cap), alive = new Uint8Array(cap);
  verts.set(faceVerts.subarray(0, 3 * faceCount));
  nbrs.set(faceNbrs.subarray(0, 3 * faceCount));
  planes.set(facePlanes.subarray(0, 4 * faceCount));
  outside.set(faceOutside.subarray(0, faceCount));
  visit.set(faceVisit.subarray(0, faceCount));
  alive.set(faceAlive.subarray(0, faceCount));
  faceVerts = verts;
  faceNbrs = nbrs;
  facePlanes = planes;
  faceOutside = outside;
  faceVisit = visit;
  faceAlive = alive;
  faceCapacity = cap;
}

/** Appends face (a, b, c) with its plane; neighbours are linked by the caller. */
function addFace(a: number, b: number, c: number, p: Float64Array): number {
  ensureFaceCapacity(faceCount + 1);
  const f = faceCount++;
  faceVerts[3 * f] = a;
  faceVerts[3 * f + 1] = b;
  faceVerts[3 * f + 2] = c;
  const ax = p[3 * a], ay = p[3 * a + 1], az = p[3 * a + 2];
  const ux = p[3 * b] - ax, uy = p[3 * b + 1] - ay, uz = p[3 * b + 2] - az;
  const vx = p[3 * c] - ax, vy = p[3 * c + 1] - ay, vz = p[3 * c + 2] - az;
  let nx = uy * vz - uz * vy, ny = uz * vx - ux * vz, nz = ux * vy - uy * vx;
  const len = Math.hypot(nx, ny, nz);
  nx /= len;
  ny /= len;
  nz /= len;
  facePlanes[4 * f] = nx;
  facePlanes[4 * f + 1] = ny;
  facePlanes[4 * f + 2] = nz;
  facePlanes[4 * f + 3] = nx * ax + ny * ay + nz * az;
  faceOutside[f] = -1;
  faceVisit[f] = 0;
  faceAlive[f] = 1;
  return f;
}

function faceDistance(f: number, p: Float64Array, q: number): number {
  const o = 4 * f;
  return facePlanes[o] * p[3 * q] + facePlanes[o + 1] * p[3 * q + 1] + facePlanes[o + 2] * p[3 * q + 2] - facePlanes[o + 3];
}

/**
 * Index among `cand[0..m)` with the largest `dist`, ties (within `tol`) broken by the largest
 * dot(p, s): a linear tie-break keeps the choice an extreme point of the tied set.
 */
function farthestWithTieBreak(
  cand: Int32Array,
  dist: Float64Array,
  m: number,
  p: Float64Array,
  sx: number,
  sy: number,
  sz: number,
  tol: number,
): number {
  let maxD = -Infinity;
  for (let i = 0; i < m; i++) if (dist[i] > maxD) maxD = dist[i];
  let best = -1, bestS = -Infinity;
  for (let i = 0; i < m; i++) {
    if (dist[i] < maxD - tol) continue;
    const q = cand[i];
    const s = p[3 * q] * sx + p[3 * q + 1] * sy + p[3 * q + 2] * sz;
    if (s > bestS) {
      bestS = s;
      best = q;
    }
  }
  return best;
}

/**
 * Convex hull of `count` points (xyz from `offset`) by QuickHull (Barber, Dobkin & Huhdanpaa
 * 1996), without facet merging: points within a relative tolerance of the current hull are
 * dropped, so coplanar and duplicate points do not become vertices. Degenerate sets give a lower
 * `dimension` (see ConvexHull). Throws CollideInputError on an empty set or non-finite coordinates.
 */
export function quickhull(points: ReadonlyFloats, count: number, offset = 0): ConvexHull {
  assertNonEmptyPoints(points, count, 'quickhull', offset);
  const n = count;

  // Work in coordinates centred on the bounding box, so large offsets do not swamp the extent.
  let minx = Infinity, miny = Infinity, minz = Infinity;
  let maxx = -Infinity, maxy = -Infinity, maxz = -Infinity;
  for (let i = 0; i < n; i++) {
    const x = points[offset + 3 * i], y = points[offset + 3 * i + 1], z = points[offset + 3 * i + 2];
    if (x < minx) minx = x;
    if (x > maxx) maxx = x;
    if (y < miny) miny = y;
    if (y > maxy) maxy = y;
    if (z < minz) minz = z;
    if (z > maxz) maxz = z;
  }
  const cx = 0.5 * (minx + maxx), cy = 0.5 * (miny + maxy), cz = 0.5 * (minz + maxz);
  const p = new Float64Array(3 * n);
  for (let i = 0; i < n; i++) {
    p[3 * i] = points[offset + 3 * i] - cx;
    p[3 * i + 1] = points[offset + 3 * i + 1] - cy;
    p[3 * i + 2] = points[offset + 3 * i + 2] - cz;
  }
  const extent = Math.max(maxx - minx, maxy - miny, maxz - minz);
  const maxAbs = Math.max(Math.abs(minx), Math.abs(maxx), Math.abs(miny), Math.abs(maxy), Math.abs(minz), Math.abs(maxz));
  const tol = HULL_RELATIVE_TOLERANCE * extent + ROUNDING_ALLOWANCE * maxAbs;
  if (extent <= tol) return assembleHull(points, offset, [0], 1, null, 0, [], 0, 0);

  // p0, p1: the farthest pair among lexicographic extremes per axis (each is a true extreme point).
  const extremes: number[] = [];
  for (let axis = 0; axis < 3; axis++) {
    let lo = 0, hi = 0;
    for (let i = 1; i < n; i++) {
      if (lexCompare(p, i, lo, axis) < 0) lo = i;
      if (lexCompare(p, i, hi, axis) > 0) hi = i;
    }
    extremes.push(lo, hi);
  }
  let p0 = 0, p1 = 0, best = -1;
  for (let i = 0; i < 6; i++) {
    for (let j = i + 1; j < 6; j++) {
      const d = dist2(p, extremes[i], extremes[j]);
      if (d > best) {
        best = d;
        p0 = extremes[i];
        p1 = extremes[j];
      }
    }
  }
  const ox = p[3 * p0], oy = p[3 * p0 + 1], oz = p[3 * p0 + 2];
  let ux = p[3 * p1] - ox, uy = p[3 * p1 + 1] - oy, uz = p[3 * p1 + 2] - oz;
  const ulen = Math.hypot(ux, uy, uz);
  ux /= ulen;
  uy /= ulen;
  uz /= ulen;

  const cand = new Int32Array(n);
  const dist = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    cand[i] = i;
    const dx = p[3 * i] - ox, dy = p[3 * i + 1] - oy, dz = p[3 * i + 2] - oz;
    dist[i] = Math.hypot(dy * uz - dz * uy, dz * ux - dx * uz, dx * uy - dy * ux);
  }
  // Farthest from the line; ties lie on a segment parallel to it, broken along the line.
  const p2 = farthestWithTieBreak(cand, dist, n, p, ux, uy, uz, tol);
  if (dist[p2] <= tol) {
    // Collinear: the endpoints are the extremes along the line.
    let lo = 0, hi = 0, loD = Infinity, hiD = -Infinity;
    for (let i = 0; i < n; i++) {
      const d = p[3 * i] * ux + p[3 * i + 1] * uy + p[3 * i + 2] * uz;
      if (d < loD) {
        loD = d;
        lo = i;
      }
      if (d > hiD) {
        hiD = d;
        hi = i;
      }
    }
    return assembleHull(points, offset, [lo, hi], 2, null, 0, [0, 1], 1, 1);
  }

  let nx = uy * (p[3 * p2 + 2] - oz) - uz * (p[3 * p2 + 1] - oy);
  let ny = uz * (p[3 * p2] - ox) - ux * (p[3 * p2 + 2] - oz);
  let nz = ux * (p[3 * p2 + 1] - oy) - uy * (p[3 * p2] - ox);
  const nlen = Math.hypot(nx, ny, nz);
  nx /= nlen;
  ny /= nlen;
  nz /= nlen;
  const vx = ny * uz - nz * uy, vy = nz * ux - nx * uz, vz = nx * uy - ny * ux; // v = n × u
  for (let i = 0; i < n; i++) {
    dist[i] = Math.abs((p[3 * i] - ox) * nx + (p[3 * i + 1] - oy) * ny + (p[3 * i + 2] - oz) * nz);
  }
  const p3 = farthestWithTieBreak(cand, dist, n, p, ux + TIE_BREAK_WEIGHT * vx, uy + TIE_BREAK_WEIGHT * vy, uz + TIE_BREAK_WEIGHT * vz, tol);
  if (dist[p3] <= tol) return planarHull(points, offset, p, n, ox, oy, oz, ux, uy, uz, vx, vy, vz, tol);

  return spatialHull(points, offset, p, n, p0, p1, p2, p3, tol, cand, dist);
}

/** Lexicographic comparison of points i and j with coordinate order (axis, axis+1, axis+2). */
function lexCompare(p: Float64Array, i: number, j: number, axis: number): number {
  for (let k = 0; k < 3; k++) {
    const c = (axis + k) % 3;
    const d = p[3 * i + c] - p[3 * j + c];
    if (d !== 0) return d;
  }
  return 0;
}

function dist2(p: Float64Array, i: number, j: number): number {
  const dx = p[3 * i] - p[3 * j], dy = p[3 * i + 1] - p[3 * j + 1], dz = p[3 * i + 2] - p[3 * j + 2];
  return dx * dx + dy * dy + dz * dz;
}

/** All points in one plane: 2D monotone-chain hull in the (u, v) frame, counter-clockwise about n = u × v. */
function planarHull(
  points: ReadonlyFloats,
  offset: number,
  p: Float64Array,
  n: number,
  ox: number,
  oy: number,
  oz: number,
  ux: number,
  uy: number,
  uz: number,
  vx: number,
  vy: number,
  vz: number,
  tol: number,
): ConvexHull {
  const xs = new Float64Array(n), ys = new Float64Array(n);
  const order: number[] = [];
  for (let i = 0; i < n; i++) {
    const dx = p[3 * i] - ox, dy = p[3 * i + 1] - oy, dz = p[3 * i + 2] - oz;
    xs[i] = dx * ux + dy * uy + dz * uz;
    ys[i] = dx * vx + dy * vy + dz * vz;
    order.push(i);
  }
  order.sort((a, b) => xs[a] - xs[b] || ys[a] - ys[b] || a - b);
  // Keep a chain vertex only if it turns left by more than the tolerance (distance from chord).
  const keepsLeftTurn = (o: number, a: number, b: number): boolean => {
    const cross = (xs[a] - xs[o]) * (ys[b] - ys[o]) - (ys[a] - ys[o]) * (xs[b] - xs[o]);
    return cross > tol * Math.hypot(xs[b] - xs[o], ys[b] - ys[o]);
  };
  const chain: number[] = [];
  const build = (from: number, to: number, step: number): void => {
    const base = chain.length;
    for (let k = from; k !== to; k += step) {
      const b = order[k];
      while (chain.length >= base + 2 && !keepsLeftTurn(chain[chain.length - 2], chain[chain.length - 1], b)) chain.pop();
      chain.push(b);
    }
    chain.pop(); // the last point starts the other chain
  };
  build(0, n, 1);
  build(n - 1, -1, -1);
  const m = chain.length;
  // Only reachable when rounding makes the set thinner than the tolerance after all.
  if (m < 3) return assembleHull(points, offset, chain, m, null, 0, m === 2 ? [0, 1] : [], m - 1, m === 2 ? 1 : 0);
  const tris: number[] = [];
  for (let i = 1; i + 1 < m; i++) tris.push(0, i, i + 1);
  const edges: number[] = [];
  for (let i = 0; i < m; i++) edges.push(i, (i + 1) % m);
  return assembleHull(points, offset, chain, m, tris, m - 2, edges, m, 2);
}

/** Full-dimensional QuickHull from the initial tetrahedron p0..p3. */
function spatialHull(
  points: ReadonlyFloats,
  offset: number,
  p: Float64Array,
  n: number,
  p0: number,
  p1: number,
  p2: number,
  p3: number,
  tol: number,
  cand: Int32Array,
  dist: Float64Array,
): ConvexHull {
  faceCount = 0;
  const next = new Int32Array(n); // outside-list links
  const startFace = new Int32Array(n); // per horizon vertex: the new face whose horizon edge starts there
  const endFace = new Int32Array(n); // ... and ends there

  const tet = [p0, p1, p2, p3];
  for (const [a, b, c, d] of [[0, 1, 2, 3], [0, 3, 1, 2], [1, 3, 2, 0], [2, 3, 0, 1]]) {
    const f = addFace(tet[a], tet[b], tet[c], p);
    if (faceDistance(f, p, tet[d]) > 0) {
      faceCount--;
      addFace(tet[a], tet[c], tet[b], p);
    }
  }
  for (let f = 0; f < 4; f++) {
    for (let i = 0; i < 3; i++) {
      const a = faceVerts[3 * f + i], b = faceVerts[3 * f + ((i + 1) % 3)];
      for (let g = 0; g < 4; g++) {
        for (let j = 0; j < 3; j++) {
          if (faceVerts[3 * g + j] === b && faceVerts[3 * g + ((j + 1) % 3)] === a) faceNbrs[3 * f + i] = g;
        }
      }
    }
  }
  // Each remaining point goes to the face it is farthest outside of, if any.
  for (let q = 0; q < n; q++) {
    if (q === p0 || q === p1 || q === p2 || q === p3) continue;
    let bestF = -1, bestD = tol;
    for (let f = 0; f < 4; f++) {
      const d = faceDistance(f, p, q);
      if (d > bestD) {
        bestD = d;
        bestF = f;
      }
    }
    if (bestF >= 0) {
      next[q] = faceOutside[bestF];
      faceOutside[bestF] = q;
    }
  }

  let stamp = 0;
  for (let f = 0; f < faceCount; f++) {
    if (!faceAlive[f] || faceOutside[f] < 0) continue;
    // The eye: the farthest outside point, ties broken within the face plane.
    let m = 0;
    for (let q = faceOutside[f]; q >= 0; q = next[q]) {
      cand[m] = q;
      dist[m++] = faceDistance(f, p, q);
    }
    const a = faceVerts[3 * f], b = faceVerts[3 * f + 1];
    let ex = p[3 * b] - p[3 * a], ey = p[3 * b + 1] - p[3 * a + 1], ez = p[3 * b + 2] - p[3 * a + 2];
    const elen = Math.hypot(ex, ey, ez);
    ex /= elen;
    ey /= elen;
    ez /= elen;
    const fnx = facePlanes[4 * f], fny = facePlanes[4 * f + 1], fnz = facePlanes[4 * f + 2];
    const wx = fny * ez - fnz * ey, wy = fnz * ex - fnx * ez, wz = fnx * ey - fny * ex;
    const eye = farthestWithTieBreak(cand, dist, m, p, ex + TIE_BREAK_WEIGHT * wx, ey + TIE_BREAK_WEIGHT * wy, ez + TIE_BREAK_WEIGHT * wz, tol);

    // Flood the faces the eye sees. Faces it is (nearly) coplanar with count as seen: their
    // replacement by the cone removes vertices that the eye makes redundant (points on the new
    // edges and facets), and every horizon edge then bends strictly convexly, by the tolerance.
    stamp++;
    stack.length = 0;
    visible.length = 0;
    horizon.length = 0;
    faceVisit[f] = stamp;
    stack.push(f);
    while (stack.length > 0) {
      const g = stack.pop()!;
      visible.push(g);
      for (let i = 0; i < 3; i++) {
        const h = faceNbrs[3 * g + i];
        if (faceVisit[h] === stamp) continue;
        if (faceDistance(h, p, eye) > -tol) {
          faceVisit[h] = stamp;
          stack.push(h);
        } else {
          horizon.push(g, i);
        }
      }
    }
    orphans.length = 0;
    for (const g of visible) {
      for (let q = faceOutside[g]; q >= 0; q = next[q]) if (q !== eye) orphans.push(q);
      faceAlive[g] = 0;
    }

    // Cone of new faces from the horizon to the eye.
    newFaces.length = 0;
    for (let k = 0; k < horizon.length; k += 2) {
      const g = horizon[k], i = horizon[k + 1];
      const ha = faceVerts[3 * g + i], hb = faceVerts[3 * g + ((i + 1) % 3)];
      const h = faceNbrs[3 * g + i];
      const nf = addFace(ha, hb, eye, p);
      faceNbrs[3 * nf] = h;
      for (let j = 0; j < 3; j++) {
        if (faceVerts[3 * h + j] === hb && faceVerts[3 * h + ((j + 1) % 3)] === ha) faceNbrs[3 * h + j] = nf;
      }
      startFace[ha] = nf;
      endFace[hb] = nf;
      newFaces.push(nf);
    }
    for (const nf of newFaces) {
      faceNbrs[3 * nf + 1] = startFace[faceVerts[3 * nf + 1]];
      faceNbrs[3 * nf + 2] = endFace[faceVerts[3 * nf]];
    }
    for (const q of orphans) {
      for (const nf of newFaces) {
        if (faceDistance(nf, p, q) > tol) {
          next[q] = faceOutside[nf];
          faceOutside[nf] = q;
          break;
        }
      }
    }
  }

  // Compact: vertices in ascending input order, triangles in face order.
  const compact = new Int32Array(n).fill(-1);
  let triangleCount = 0;
  for (let f = 0; f < faceCount; f++) {
    if (!faceAlive[f]) continue;
    triangleCount++;
    for (let i = 0; i < 3; i++) compact[faceVerts[3 * f + i]] = 0;
  }
  const source: number[] = [];
  for (let q = 0; q < n; q++) if (compact[q] === 0) compact[q] = source.push(q) - 1;
  const tris: number[] = [];
  const edges: number[] = [];
  for (let f = 0; f < faceCount; f++) {
    if (!faceAlive[f]) continue;
    for (let i = 0; i < 3; i++) {
      const a = compact[faceVerts[3 * f + i]], b = compact[faceVerts[3 * f + ((i + 1) % 3)]];
      tris.push(a);
      if (a < b) edges.push(a, b); // each undirected edge appears once in this direction
    }
  }
  return assembleHull(points, offset, source, source.length, tris, triangleCount, edges, edges.length / 2, 3);
}

/** Builds the output arrays; `edges` are undirected pairs of compact vertex indices. */
function assembleHull(
  points: ReadonlyFloats,
  offset: number,
  source: ArrayLike<number>,
  vertexCount: number,
  tris: ArrayLike<number> | null,
  triangleCount: number,
  edges: ArrayLike<number>,
  edgeCount: number,
  dimension: 0 | 1 | 2 | 3,
): ConvexHull {
  const vertices = new Float64Array(3 * vertexCount);
  const sourceIndex = new Uint32Array(vertexCount);
  for (let v = 0; v < vertexCount; v++) {
    sourceIndex[v] = source[v];
    for (let c = 0; c < 3; c++) vertices[3 * v + c] = points[offset + 3 * source[v] + c];
  }
  const adjacencyOffsets = new Uint32Array(vertexCount + 1);
  for (let e = 0; e < edgeCount; e++) {
    adjacencyOffsets[edges[2 * e] + 1]++;
    adjacencyOffsets[edges[2 * e + 1] + 1]++;
  }
  for (let v = 0; v < vertexCount; v++) adjacencyOffsets[v + 1] += adjacencyOffsets[v];
  const adjacency = new Uint32Array(2 * edgeCount);
  const fill = adjacencyOffsets.slice(0, vertexCount);
  for (let e = 0; e < edgeCount; e++) {
    const a = edges[2 * e], b = edges[2 * e + 1];
    adjacency[fill[a]++] = b;
    adjacency[fill[b]++] = a;
  }
  for (let v = 0; v < vertexCount; v++) adjacency.subarray(adjacencyOffsets[v], adjacencyOffsets[v + 1]).sort();
  return {
    vertexCount,
    vertices,
    sourceIndex,
    triangleCount,
    indices: Uint32Array.from(tris ?? []),
    adjacencyOffsets,
    adjacency,
    dimension,
  };
}
