import { selectByKey } from './broadphase/sortByKey';
import { ditoObb } from './dito';
import { CollideInputError } from './errors';
import { OBB_AXES, OBB_CENTER, OBB_HALF, OBB_STRIDE, type ReadonlyFloats } from './layout';
import { aabbOfTrustedPoints } from './aabb';
import { obbFromAxes } from './obb';
import { symmetricEigen3 } from './eigen3';
import { fitObbPcaHull, fitObbTriangles } from './obbFit';
import { welzlSphere } from './sphere';

/**
 * Bounding-volume trees over triangle meshes (OBBTree, Gottschalk, Lin and Manocha 1996), built
 * top-down into flat typed arrays. The same builder makes OBB, AABB and sphere nodes, so the three
 * can be compared on equal terms; the queries live in obbTree.ts.
 *
 * Every node stores its volume in its PARENT's frame (the root in the mesh frame), in the OBB
 * layout: centre (3), axes as columns (9), half-extents (3). A tree-vs-tree descent then carries
 * one relative transform and updates it with one small product per step (RAPID / PQP), and a mesh
 * moved rigidly never needs its tree touched. AABB and sphere nodes have identity axes (a sphere
 * has half-extents r, r, r).
 *
 * The triangles are copied into tree order (`triangles`, 9 numbers each, mesh frame), so a node's
 * triangles are one contiguous run and leaves are tested without an index lookup.
 */

/** Volume stored at each node. */
export type BoundingNodeKind = 'obb' | 'aabb' | 'sphere';
/** How an OBB node's axes are chosen: area-weighted triangle covariance, hull PCA, or DiTO-14. */
export type ObbNodeFit = 'covariance' | 'hull' | 'dito';
/** Where a node splits along its axis: area-weighted surface mean, mean of triangle centroids, or median centroid. */
export type TreeSplitRule = 'mean' | 'centroid' | 'median';

/** Build options; every field is optional. */
export interface BoundingTreeOptions {
  /** Node volume (default 'obb'). */
  kind?: BoundingNodeKind;
  /** OBB node fit (default 'covariance'); ignored for AABB and sphere nodes. */
  fit?: ObbNodeFit;
  /** Split rule (default 'mean'). */
  split?: TreeSplitRule;
  /** A node with at most this many triangles is a leaf (default 1). */
  maxLeafTriangles?: number;
}

/** Numbers per node in `BoundingTree.nodes`: the node's volume in its parent's frame, OBB layout. */
export const TREE_NODE_STRIDE = OBB_STRIDE;
/** Numbers per triangle in `BoundingTree.triangles`: three vertices. */
export const TREE_TRIANGLE_STRIDE = 9;

/** A built tree. Arrays are indexed by node (or tree-order triangle); node 0 is the root. */
export interface BoundingTree {
  readonly kind: BoundingNodeKind;
  readonly nodeCount: number;
  readonly triangleCount: number;
  /** Longest root-to-leaf path, in edges (sizes the query stacks). */
  readonly depth: number;
  /** TREE_NODE_STRIDE numbers per node: its volume in its parent's frame. */
  readonly nodes: Float64Array;
  /** Left child per node (the right child is left + 1); -1 for a leaf. */
  readonly children: Int32Array;
  /** First tree-order triangle under each node. */
  readonly firstTriangle: Int32Array;
  /** Number of triangles under each node. */
  readonly nodeTriangleCount: Int32Array;
  /** Half-diagonal of each node's volume: the descent splits the larger of two nodes. */
  readonly sizes: Float64Array;
  /** The triangles in tree order, 9 numbers each, in the mesh frame. */
  readonly triangles: Float64Array;
  /** Mesh triangle index of each tree-order triangle. */
  readonly triangleIds: Uint32Array;
  /** Largest |coordinate| of any vertex plus the root's size: the magnitude rounding scales with. */
  readonly scale: number;
}

const IDENTITY = new Float64Array([1, 0, 0, 0, 1, 0, 0, 0, 1]);

/** Throws unless the mesh is non-empty, its indices in range and its referenced vertices finite. */
function validateMesh(positions: ReadonlyFloats, indices: ReadonlyFloats): void {
  const what = 'buildBoundingTree';
  if (indices.length === 0) throw new CollideInputError(`${what}: the mesh has no triangles`);
  if (indices.length % 3 !== 0) {
    throw new CollideInputError(`${what}: index count ${indices.length} is not a multiple of 3`);
  }
  const vertexCount = Math.floor(positions.length / 3);
  for (let i = 0; i < indices.length; i++) {
    const v = indices[i];
    if (!Number.isInteger(v) || v < 0 || v >= vertexCount) {
      throw new CollideInputError(`${what}: triangle ${Math.floor(i / 3)} has vertex index ${v} outside 0..${vertexCount - 1}`);
    }
    for (let c = 0; c < 3; c++) {
      if (!Number.isFinite(positions[3 * v + c])) {
        throw new CollideInputError(`${what}: vertex ${v} (of triangle ${Math.floor(i / 3)}) has a non-finite coordinate (${positions[3 * v + c]})`);
      }
    }
  }
}

function readOptions(options: BoundingTreeOptions): Required<BoundingTreeOptions> {
  const kind = options.kind ?? 'obb';
  const fit = options.fit ?? 'covariance';
  const split = options.split ?? 'mean';
  const maxLeafTriangles = options.maxLeafTriangles ?? 1;
  if (kind !== 'obb' && kind !== 'aabb' && kind !== 'sphere') throw new CollideInputError(`buildBoundingTree: unknown kind '${String(kind)}'`);
  if (fit !== 'covariance' && fit !== 'hull' && fit !== 'dito') throw new CollideInputError(`buildBoundingTree: unknown fit '${String(fit)}'`);
  if (split !== 'mean' && split !== 'centroid' && split !== 'median') throw new CollideInputError(`buildBoundingTree: unknown split '${String(split)}'`);
  if (!Number.isInteger(maxLeafTriangles) || maxLeafTriangles < 1) {
    throw new CollideInputError(`buildBoundingTree: maxLeafTriangles must be a positive integer, got ${maxLeafTriangles}`);
  }
  return { kind, fit, split, maxLeafTriangles };
}

/**
 * Per-triangle build record: centroid (3), then the triangle's surface moments about the mesh
 * reference point — area, area × mean (3), area × second moment (xx, xy, xz, yy, yz, zz) — then its
 * mesh triangle index. A node's area-weighted covariance and mean are sums of its triangles'
 * records, so no level re-walks the vertices; one contiguous record per triangle keeps a
 * partition swap to two short copies.
 */
const REC_CENTROID = 0;
const REC_MOMENTS = 3;
const MOMENT_COUNT = 10;
const REC_ID = 13;
const REC_STRIDE = 14;
/** Range sums: the 10 moments, then the plain sum of centroids (for the 'centroid' split rule). */
const SUM_CENTROIDS = MOMENT_COUNT;

/**
 * Build scratch kept between builds and grown on demand (it stays as large as the largest mesh
 * built): fresh megabytes cost first-touch page faults (about 1 ms per 2.4 MB on the benchmark
 * machine), so only the arrays the tree keeps are new.
 */
const scratch = {
  records: new Float64Array(0),
  /** Pending nodes and their depths (the explicit build stack). */
  stack: new Int32Array(0),
  stackLevels: new Int32Array(0),
  /** Median split: keys, permutation and copies to apply it through. */
  keys: new Float64Array(0),
  tags: new Int32Array(0),
  tris: new Float64Array(0),
  records2: new Float64Array(0),
  /** Sphere nodes: per mesh vertex, the last node that gathered it, and the gathered points. */
  vertexStamp: new Int32Array(0),
  points: new Float64Array(0),
};

/** `a` if it holds at least n entries, else a new array of that type with n. */
function atLeast<T extends Float64Array | Int32Array>(a: T, n: number): T {
  return (a.length >= n ? a : new (a.constructor as new (n: number) => T)(n));
}

/** Build-time state: triangles and their records, permuted together in place as nodes split. */
class Builder {
  /** Triangles in tree order (9 numbers each), permuted with `records`. */
  readonly tris: Float64Array;
  readonly records: Float64Array;
  /** Absolute (mesh-frame) volume of every node, converted to parent-relative at the end. */
  readonly boxes: Float64Array;
  private readonly sums = new Float64Array(MOMENT_COUNT + 3);
  /** Node whose range `sums` holds (-1: none), so a split reuses its fit's pass. */
  private summedNode = -1;
  private readonly axes = new Float64Array(9);
  private readonly ball = new Float64Array(4);
  private readonly box = new Float64Array(OBB_STRIDE);
  private readonly minMax = new Float64Array(6);
  private readonly order = new Int32Array(3);
  private readonly extents = new Float64Array(3);
  private readonly mean = new Float64Array(3);
  private readonly covariance = new Float64Array(6);
  private readonly eigenValues = new Float64Array(3);
  private readonly reference = new Float64Array(3);

  constructor(
    readonly positions: ReadonlyFloats,
    readonly indices: ReadonlyFloats,
    maxNodes: number,
    readonly options: Required<BoundingTreeOptions>,
  ) {
    const n = indices.length / 3;
    this.tris = new Float64Array(9 * n);
    this.records = scratch.records = atLeast(scratch.records, REC_STRIDE * n);
    for (let t = 0; t < n; t++) {
      for (let k = 0; k < 3; k++) {
        const v = 3 * indices[3 * t + k];
        for (let c = 0; c < 3; c++) this.tris[9 * t + 3 * k + c] = positions[v + c];
      }
    }
    for (let c = 0; c < 3; c++) this.reference[c] = this.tris[c];
    for (let t = 0; t < n; t++) this.measure(t);
    this.boxes = new Float64Array(maxNodes * OBB_STRIDE);
    if (options.split === 'median') {
      scratch.keys = atLeast(scratch.keys, n);
      scratch.tags = atLeast(scratch.tags, n);
      scratch.tris = atLeast(scratch.tris, 9 * n);
      scratch.records2 = atLeast(scratch.records2, REC_STRIDE * n);
    }
    if (options.kind === 'sphere') {
      const vertexCount = Math.floor(positions.length / 3);
      scratch.vertexStamp = atLeast(scratch.vertexStamp, vertexCount);
      scratch.vertexStamp.fill(-1, 0, vertexCount);
      scratch.points = atLeast(scratch.points, 9 * n);
    }
  }

  /**
   * Record of triangle t: centroid, area and moments. The one-triangle closed form of the
   * surface covariance, (1/12) Σ dᵢdᵢᵀ over the corners' offsets dᵢ from the centroid (the
   * 9·m·mᵀ + ppᵀ + qqᵀ + rrᵀ formula of triangleMoments with the mean taken out), in a few
   * multiplications instead of the general accumulator: every triangle of the mesh is measured.
   */
  private measure(t: number): void {
    const p = this.tris, q = 9 * t, r = this.records, o = REC_STRIDE * t, ref = this.reference;
    const px = p[q], py = p[q + 1], pz = p[q + 2];
    const ux = p[q + 3] - px, uy = p[q + 4] - py, uz = p[q + 5] - pz;
    const vx = p[q + 6] - px, vy = p[q + 7] - py, vz = p[q + 8] - pz;
    const nx = uy * vz - uz * vy, ny = uz * vx - ux * vz, nz = ux * vy - uy * vx;
    const area = 0.5 * Math.sqrt(nx * nx + ny * ny + nz * nz);
    // Centroid as p plus a small offset, so large coordinates do not swamp the triangle's size.
    const gx = (ux + vx) / 3, gy = (uy + vy) / 3, gz = (uz + vz) / 3;
    r[o + REC_CENTROID] = px + gx; r[o + REC_CENTROID + 1] = py + gy; r[o + REC_CENTROID + 2] = pz + gz;
    const x = px - ref[0] + gx, y = py - ref[1] + gy, z = pz - ref[2] + gz;
    // Corner offsets from the centroid: −g, u − g, v − g.
    const bx = ux - gx, by = uy - gy, bz = uz - gz, cx = vx - gx, cy = vy - gy, cz = vz - gz;
    const k = area / 12;
    const w = o + REC_MOMENTS;
    r[w] = area;
    r[w + 1] = area * x; r[w + 2] = area * y; r[w + 3] = area * z;
    r[w + 4] = area * x * x + k * (gx * gx + bx * bx + cx * cx);
    r[w + 5] = area * x * y + k * (gx * gy + bx * by + cx * cy);
    r[w + 6] = area * x * z + k * (gx * gz + bx * bz + cx * cz);
    r[w + 7] = area * y * y + k * (gy * gy + by * by + cy * cy);
    r[w + 8] = area * y * z + k * (gy * gz + by * bz + cy * cz);
    r[w + 9] = area * z * z + k * (gz * gz + bz * bz + cz * cz);
    r[o + REC_ID] = t;
  }

  /** Sums the records of node `node`'s triangles first .. first + count - 1 into `sums`. */
  private sumRange(node: number, first: number, count: number): void {
    const r = this.records, s = this.sums;
    let a = 0, x = 0, y = 0, z = 0, xx = 0, xy = 0, xz = 0, yy = 0, yz = 0, zz = 0, cx = 0, cy = 0, cz = 0;
    for (let q = REC_STRIDE * first, end = REC_STRIDE * (first + count); q < end; q += REC_STRIDE) {
      cx += r[q]; cy += r[q + 1]; cz += r[q + 2];
      a += r[q + 3]; x += r[q + 4]; y += r[q + 5]; z += r[q + 6];
      xx += r[q + 7]; xy += r[q + 8]; xz += r[q + 9]; yy += r[q + 10]; yz += r[q + 11]; zz += r[q + 12];
    }
    s[0] = a; s[1] = x; s[2] = y; s[3] = z; s[4] = xx; s[5] = xy; s[6] = xz; s[7] = yy; s[8] = yz; s[9] = zz;
    s[SUM_CENTROIDS] = cx; s[SUM_CENTROIDS + 1] = cy; s[SUM_CENTROIDS + 2] = cz;
    this.summedNode = node;
  }

  /**
   * Area-weighted covariance box of node `node` (triangles first .. first + count - 1) from the
   * summed records; false when their total area is zero (left to fitObbTriangles' point fallback).
   */
  private fitCovariance(node: number, first: number, count: number): boolean {
    this.sumRange(node, first, count);
    const s = this.sums, a = s[0];
    if (!(a > 0)) return false;
    const x = s[1] / a, y = s[2] / a, z = s[3] / a;
    const cov = this.covariance;
    cov[0] = s[4] / a - x * x; cov[1] = s[5] / a - x * y; cov[2] = s[6] / a - x * z;
    cov[3] = s[7] / a - y * y; cov[4] = s[8] / a - y * z; cov[5] = s[9] / a - z * z;
    symmetricEigen3(this.eigenValues, this.axes, cov);
    obbFromAxes(this.boxes, node * OBB_STRIDE, this.axes, 0, this.tris, 3 * count, 9 * first);
    return true;
  }

  /** Fits node `node`'s absolute volume over triangles first .. first + count - 1. */
  fit(node: number, first: number, count: number): void {
    const out = this.boxes, o = node * OBB_STRIDE;
    const pointCount = 3 * count, pointOffset = 9 * first;
    if (this.options.kind === 'aabb') {
      this.aabb(out, o, first, count);
      return;
    }
    if (this.options.kind === 'sphere') {
      const s = welzlSphere(this.ball, 0, scratch.points, this.gatherVertices(node, first, count), 0);
      for (let c = 0; c < 3; c++) {
        out[o + OBB_CENTER + c] = s[c];
        out[o + OBB_HALF + c] = s[3];
      }
      for (let i = 0; i < 9; i++) out[o + OBB_AXES + i] = IDENTITY[i];
      return;
    }
    if (count === 1 && this.fitSingleTriangle(o, first)) return;
    if (this.options.fit === 'covariance') {
      if (!this.fitCovariance(node, first, count)) fitObbTriangles(out, o, this.tris, null, count, first);
    }
    else if (this.options.fit === 'hull') fitObbPcaHull(out, o, this.tris, pointCount, pointOffset);
    else ditoObb(out, o, this.tris, pointCount, 14, pointOffset);
  }

  /**
   * The AABB of triangles first .. first + count - 1 as a box with identity axes at out[o]: the
   * same numbers obbFromAxes gives along the identity, without its projections.
   */
  private aabb(out: Float64Array, o: number, first: number, count: number): void {
    const b = aabbOfTrustedPoints(this.minMax, 0, this.tris, 3 * count, 9 * first);
    for (let c = 0; c < 3; c++) {
      out[o + OBB_CENTER + c] = 0.5 * (b[c] + b[c + 3]);
      out[o + OBB_HALF + c] = 0.5 * (b[c + 3] - b[c]);
    }
    for (let i = 0; i < 9; i++) out[o + OBB_AXES + i] = IDENTITY[i];
  }

  /**
   * Copies the distinct mesh vertices of triangles first .. first + count - 1 into `scratch.points`
   * and returns how many: on a shared-vertex mesh about a sixth of the corners, which is what the
   * minimal-sphere search costs in.
   */
  private gatherVertices(node: number, first: number, count: number): number {
    const stamp = scratch.vertexStamp, out = scratch.points, r = this.records, positions = this.positions, indices = this.indices;
    let n = 0;
    for (let t = first; t < first + count; t++) {
      const id = r[REC_STRIDE * t + REC_ID];
      for (let k = 0; k < 3; k++) {
        const v = indices[3 * id + k];
        if (stamp[v] === node) continue;
        stamp[v] = node;
        out[n++] = positions[3 * v]; out[n++] = positions[3 * v + 1]; out[n++] = positions[3 * v + 2];
      }
    }
    return n / 3;
  }

  /**
   * The smallest box around one triangle: the minimum-area rectangle of a convex polygon has a side
   * on one of its edges, so trying the three edges (with the normal as third axis) is exact and
   * cheaper than the covariance. Returns false for a zero-area triangle (no normal).
   */
  private fitSingleTriangle(o: number, t: number): boolean {
    const p = this.tris, q = 9 * t, axes = this.axes;
    const ux = p[q + 3] - p[q], uy = p[q + 4] - p[q + 1], uz = p[q + 5] - p[q + 2];
    const vx = p[q + 6] - p[q], vy = p[q + 7] - p[q + 1], vz = p[q + 8] - p[q + 2];
    let nx = uy * vz - uz * vy, ny = uz * vx - ux * vz, nz = ux * vy - uy * vx;
    // sqrt of the sum of squares, not Math.hypot (several times slower in V8): squares of mesh
    // coordinates are far from overflow.
    const nLen = Math.sqrt(nx * nx + ny * ny + nz * nz);
    if (!(nLen > 0)) return false;
    nx /= nLen; ny /= nLen; nz /= nLen;
    let bestArea = Infinity;
    for (let e = 0; e < 3; e++) {
      const a = q + 3 * e, b = q + 3 * ((e + 1) % 3);
      let ex = p[b] - p[a], ey = p[b + 1] - p[a + 1], ez = p[b + 2] - p[a + 2];
      const len = Math.sqrt(ex * ex + ey * ey + ez * ez);
      if (!(len > 0)) continue;
      ex /= len; ey /= len; ez /= len;
      // Second axis n × e, so (e, n × e, n) is right-handed.
      const wx = ny * ez - nz * ey, wy = nz * ex - nx * ez, wz = nx * ey - ny * ex;
      let min0 = Infinity, max0 = -Infinity, min1 = Infinity, max1 = -Infinity;
      for (let k = q; k < q + 9; k += 3) {
        const x = p[k], y = p[k + 1], z = p[k + 2];
        const d0 = x * ex + y * ey + z * ez, d1 = x * wx + y * wy + z * wz;
        if (d0 < min0) min0 = d0;
        if (d0 > max0) max0 = d0;
        if (d1 < min1) min1 = d1;
        if (d1 > max1) max1 = d1;
      }
      const area = (max0 - min0) * (max1 - min1);
      if (area < bestArea) {
        bestArea = area;
        axes[0] = ex; axes[1] = ey; axes[2] = ez;
        axes[3] = wx; axes[4] = wy; axes[5] = wz;
        axes[6] = nx; axes[7] = ny; axes[8] = nz;
      }
    }
    obbFromAxes(this.boxes, o, axes, 0, p, 3, q);
    return true;
  }

  /**
   * Splits triangles first .. first + count - 1 (count >= 2) into two non-empty runs and returns
   * the size of the left one. Tries the node's axes by decreasing extent; a rule that would leave
   * a side empty moves on to the next axis, and identical centroids split by position.
   */
  split(node: number, first: number, count: number): number {
    this.sortAxesByExtent(node, first, count);
    if (this.options.split === 'median') return this.splitMedian(node, first, count);
    this.splitPoint(node, first, count);
    const mean = this.mean;
    for (let k = 0; k < 3; k++) {
      const a = this.order[k];
      const ax = this.axisComponent(node, a, 0), ay = this.axisComponent(node, a, 1), az = this.axisComponent(node, a, 2);
      // An empty side leaves the run untouched (the scan finds nothing to swap).
      const left = this.partition(first, count, ax, ay, az, ax * mean[0] + ay * mean[1] + az * mean[2]);
      if (left > 0 && left < count) return left;
    }
    return count >> 1;
  }

  /** Axis `a` component `c` of the node's split frame (its own axes; world axes for spheres). */
  private axisComponent(node: number, a: number, c: number): number {
    return this.boxes[node * OBB_STRIDE + OBB_AXES + 3 * a + c];
  }

  /** Fills `order` with axis numbers by decreasing extent (a sphere node uses its points' AABB extents). */
  private sortAxesByExtent(node: number, first: number, count: number): void {
    const h = this.extents, order = this.order;
    let o = node * OBB_STRIDE;
    let boxes = this.boxes;
    if (this.options.kind === 'sphere') {
      this.aabb(this.box, 0, first, count);
      boxes = this.box;
      o = 0;
    }
    h[0] = boxes[o + OBB_HALF]; h[1] = boxes[o + OBB_HALF + 1]; h[2] = boxes[o + OBB_HALF + 2];
    order[0] = 0; order[1] = 1; order[2] = 2;
    for (let i = 1; i < 3; i++) {
      for (let j = i; j > 0 && h[order[j]] > h[order[j - 1]]; j--) {
        const s = order[j]; order[j] = order[j - 1]; order[j - 1] = s;
      }
    }
  }

  /**
   * The split point of the mean rules into `mean`: area-weighted surface mean ('mean') or plain
   * centroid mean, from the range sums (the OBB fit's when it made them).
   */
  private splitPoint(node: number, first: number, count: number): void {
    if (this.summedNode !== node) this.sumRange(node, first, count);
    const s = this.sums, a = s[0], mean = this.mean;
    if (this.options.split === 'mean' && a > 0) {
      for (let c = 0; c < 3; c++) mean[c] = this.reference[c] + s[1 + c] / a;
    } else {
      // The centroid rule, and the fallback when only zero-area triangles remain.
      for (let c = 0; c < 3; c++) mean[c] = s[SUM_CENTROIDS + c] / count;
    }
  }

  /**
   * Moves triangles whose centroid projects below `at` to the front of the run and returns how
   * many there are.
   */
  private partition(first: number, count: number, ax: number, ay: number, az: number, at: number): number {
    const r = this.records;
    let i = first, j = first + count - 1;
    for (;;) {
      while (i <= j && r[REC_STRIDE * i] * ax + r[REC_STRIDE * i + 1] * ay + r[REC_STRIDE * i + 2] * az < at) i++;
      while (i <= j && !(r[REC_STRIDE * j] * ax + r[REC_STRIDE * j + 1] * ay + r[REC_STRIDE * j + 2] * az < at)) j--;
      if (i >= j) return i - first;
      this.swap(i, j);
    }
  }

  private swap(i: number, j: number): void {
    const p = this.tris;
    for (let a = 9 * i, b = 9 * j, end = a + 9; a < end; a++, b++) { const s = p[a]; p[a] = p[b]; p[b] = s; }
    const r = this.records;
    for (let a = REC_STRIDE * i, b = REC_STRIDE * j, end = a + REC_STRIDE; a < end; a++, b++) { const s = r[a]; r[a] = r[b]; r[b] = s; }
  }

  /** Median split along the longest axis (always balanced, so no fallback is needed). */
  private splitMedian(node: number, first: number, count: number): number {
    const a = this.order[0];
    const ax = this.axisComponent(node, a, 0), ay = this.axisComponent(node, a, 1), az = this.axisComponent(node, a, 2);
    const half = count >> 1;
    const keys = scratch.keys, tags = scratch.tags, r = this.records;
    for (let i = 0; i < count; i++) {
      const q = REC_STRIDE * (first + i);
      keys[i] = r[q] * ax + r[q + 1] * ay + r[q + 2] * az;
      tags[i] = i;
    }
    selectByKey(keys, tags, 0, count, half);
    // Apply the permutation through the scratch copies.
    for (let i = 0; i < count; i++) {
      const s = first + tags[i];
      scratch.tris.set(this.tris.subarray(9 * s, 9 * s + 9), 9 * i);
      scratch.records2.set(r.subarray(REC_STRIDE * s, REC_STRIDE * s + REC_STRIDE), REC_STRIDE * i);
    }
    this.tris.set(scratch.tris.subarray(0, 9 * count), 9 * first);
    r.set(scratch.records2.subarray(0, REC_STRIDE * count), REC_STRIDE * first);
    return half;
  }

  /** Mesh triangle index of each tree-order triangle. */
  triangleIds(): Uint32Array {
    const n = this.tris.length / 9, ids = new Uint32Array(n);
    for (let t = 0; t < n; t++) ids[t] = this.records[REC_STRIDE * t + REC_ID];
    return ids;
  }
}

const relative = new Float64Array(OBB_STRIDE);

/**
 * Rewrites node `child`'s absolute box in `boxes` into the frame of its parent's absolute box.
 */
function toParentFrame(boxes: Float64Array, parent: number, child: number): void {
  const p = parent * OBB_STRIDE, c = child * OBB_STRIDE;
  const dx = boxes[c] - boxes[p], dy = boxes[c + 1] - boxes[p + 1], dz = boxes[c + 2] - boxes[p + 2];
  for (let i = 0; i < 3; i++) {
    const ui = p + OBB_AXES + 3 * i;
    const ux = boxes[ui], uy = boxes[ui + 1], uz = boxes[ui + 2];
    relative[OBB_CENTER + i] = ux * dx + uy * dy + uz * dz;
    for (let j = 0; j < 3; j++) {
      const vj = c + OBB_AXES + 3 * j;
      relative[OBB_AXES + 3 * j + i] = ux * boxes[vj] + uy * boxes[vj + 1] + uz * boxes[vj + 2];
    }
    relative[OBB_HALF + i] = boxes[c + OBB_HALF + i];
  }
  // A plain loop: TypedArray#set is a builtin call, dearer than 15 moves at this size.
  for (let k = 0; k < OBB_STRIDE; k++) boxes[c + k] = relative[k];
}

/** The first n entries of a node array (the array itself when it has exactly n). */
function firstEntries<T extends Float64Array | Int32Array>(a: T, n: number): T {
  return (a.length === n ? a : a.slice(0, n)) as T;
}

/**
 * Builds a bounding-volume tree over the triangles of a mesh: `positions` holds xyz per vertex,
 * `indices` three vertex indices per triangle. Top-down: each node's volume is fitted to its
 * triangles (OBB by `options.fit`, or AABB, or minimal sphere), then the triangles are split by
 * their centroids along the node's longest axis at `options.split`, falling back to the other
 * axes by decreasing extent when a side would be empty; a node with at most
 * `options.maxLeafTriangles` triangles is a leaf. Zero-area triangles are allowed. Work arrays
 * (about 112 bytes per triangle) are kept by the module for the next build.
 * Throws CollideInputError on an empty mesh, an index count not a multiple of 3, indices out of
 * range, non-finite referenced vertices or bad options.
 */
export function buildBoundingTree(positions: ReadonlyFloats, indices: ReadonlyFloats, options: BoundingTreeOptions = {}): BoundingTree {
  const opts = readOptions(options);
  validateMesh(positions, indices);
  const triangleCount = indices.length / 3;
  const maxNodes = 2 * triangleCount - 1;
  const builder = new Builder(positions, indices, maxNodes, opts);
  const children = new Int32Array(maxNodes).fill(-1);
  const firstTriangle = new Int32Array(maxNodes);
  const nodeTriangleCount = new Int32Array(maxNodes);
  // The stack never holds more than one node per level plus one.
  const pending = scratch.stack = atLeast(scratch.stack, triangleCount + 1);
  const levels = scratch.stackLevels = atLeast(scratch.stackLevels, triangleCount + 1);
  nodeTriangleCount[0] = triangleCount;
  pending[0] = 0;
  levels[0] = 0;
  let nodeCount = 1, pendingCount = 1, depth = 0;
  while (pendingCount > 0) {
    const level = levels[--pendingCount];
    const node = pending[pendingCount];
    const first = firstTriangle[node], count = nodeTriangleCount[node];
    builder.fit(node, first, count);
    if (count <= opts.maxLeafTriangles) continue;
    const left = builder.split(node, first, count);
    const l = nodeCount;
    nodeCount += 2;
    children[node] = l;
    firstTriangle[l] = first;
    nodeTriangleCount[l] = left;
    firstTriangle[l + 1] = first + left;
    nodeTriangleCount[l + 1] = count - left;
    depth = Math.max(depth, level + 1);
    // Left on top of the stack, so each subtree is finished before its sibling starts.
    levels[pendingCount] = level + 1;
    pending[pendingCount++] = l + 1;
    levels[pendingCount] = level + 1;
    pending[pendingCount++] = l;
  }

  const boxes = builder.boxes;
  const sizes = new Float64Array(nodeCount);
  for (let i = nodeCount - 1; i >= 0; i--) {
    const h = i * OBB_STRIDE + OBB_HALF;
    sizes[i] = Math.sqrt(boxes[h] * boxes[h] + boxes[h + 1] * boxes[h + 1] + boxes[h + 2] * boxes[h + 2]);
    // Children have larger indices, so theirs are already converted and node i is still absolute.
    const c = children[i];
    if (c >= 0) {
      toParentFrame(boxes, i, c);
      toParentFrame(boxes, i, c + 1);
    }
  }
  let maxAbs = 0;
  for (let i = 0; i < builder.tris.length; i++) maxAbs = Math.max(maxAbs, Math.abs(builder.tris[i]));
  return {
    kind: opts.kind,
    nodeCount,
    triangleCount,
    depth,
    nodes: firstEntries(boxes, nodeCount * TREE_NODE_STRIDE),
    children: firstEntries(children, nodeCount),
    firstTriangle: firstEntries(firstTriangle, nodeCount),
    nodeTriangleCount: firstEntries(nodeTriangleCount, nodeCount),
    sizes,
    triangles: builder.tris,
    triangleIds: builder.triangleIds(),
    scale: maxAbs + sizes[0],
  };
}
