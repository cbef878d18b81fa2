import { aabbFromPoints } from './aabb';
import { selectByKey } from './broadphase/sortByKey';
import { ditoObb } from './dito';
import { CollideInputError } from './errors';
import { OBB_AXES, OBB_CENTER, OBB_HALF, OBB_STRIDE, type ReadonlyFloats } from './layout';
import { obbFromAxes } from './obb';
import { symmetricEigen3 } from './eigen3';
import { MOMENTS_STRIDE, fitObbPcaHull, fitObbTriangles, triangleMoments } from './obbFit';
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
 * Per-triangle surface moments about the mesh reference point: area, area × mean (3), area × second
 * moment (xx, xy, xz, yy, yz, zz). A node's area-weighted covariance is then a sum over its
 * triangles instead of a fresh pass over their vertices at every level.
 */
const TRIANGLE_MOMENTS = 10;

/** Build-time state: triangles with their centroids, areas and moments, permuted together as nodes split. */
class Builder {
  readonly tris: Float64Array;
  readonly centroids: Float64Array;
  readonly areas: Float64Array;
  readonly ids: Uint32Array;
  readonly moments: Float64Array;
  /** Absolute (mesh-frame) volume of every node, converted to parent-relative at the end. */
  readonly boxes: Float64Array;
  private readonly axes = new Float64Array(9);
  private readonly bounds = new Float64Array(6);
  private readonly ball = new Float64Array(4);
  private readonly order = new Int32Array(3);
  private readonly mean = new Float64Array(3);
  private readonly single = new Float64Array(MOMENTS_STRIDE);
  private readonly covariance = new Float64Array(6);
  private readonly eigenValues = new Float64Array(3);
  private readonly reference = new Float64Array(3);
  private keys: Float64Array;
  private tags: Int32Array;
  private readonly scratchTris: Float64Array;
  private readonly scratchCentroids: Float64Array;
  private readonly scratchAreas: Float64Array;
  private readonly scratchIds: Uint32Array;
  private readonly scratchMoments: Float64Array;

  constructor(positions: ReadonlyFloats, indices: ReadonlyFloats, maxNodes: number, readonly options: Required<BoundingTreeOptions>) {
    const n = indices.length / 3;
    this.tris = new Float64Array(9 * n);
    this.centroids = new Float64Array(3 * n);
    this.areas = new Float64Array(n);
    this.ids = new Uint32Array(n);
    this.moments = new Float64Array(TRIANGLE_MOMENTS * n);
    for (let t = 0; t < n; t++) {
      for (let k = 0; k < 3; k++) {
        const v = 3 * indices[3 * t + k];
        for (let c = 0; c < 3; c++) this.tris[9 * t + 3 * k + c] = positions[v + c];
      }
      this.ids[t] = t;
    }
    for (let c = 0; c < 3; c++) this.reference[c] = this.tris[c];
    for (let t = 0; t < n; t++) this.measure(t);
    this.boxes = new Float64Array(maxNodes * OBB_STRIDE);
    const needsScratch = options.split === 'median';
    this.keys = new Float64Array(needsScratch ? n : 0);
    this.tags = new Int32Array(needsScratch ? n : 0);
    this.scratchTris = new Float64Array(needsScratch ? 9 * n : 0);
    this.scratchCentroids = new Float64Array(needsScratch ? 3 * n : 0);
    this.scratchAreas = new Float64Array(needsScratch ? n : 0);
    this.scratchIds = new Uint32Array(needsScratch ? n : 0);
    this.scratchMoments = new Float64Array(needsScratch ? TRIANGLE_MOMENTS * n : 0);
  }

  /** Area, centroid (the mean of a triangle's surface) and moments of triangle t. */
  private measure(t: number): void {
    const m = this.single;
    const area = triangleMoments(m, this.tris, null, 1, t);
    this.areas[t] = area;
    for (let c = 0; c < 3; c++) this.centroids[3 * t + c] = m[c];
    const x = m[0] - this.reference[0], y = m[1] - this.reference[1], z = m[2] - this.reference[2];
    const o = TRIANGLE_MOMENTS * t, w = this.moments;
    w[o] = area;
    w[o + 1] = area * x; w[o + 2] = area * y; w[o + 3] = area * z;
    w[o + 4] = area * (m[3] + x * x); w[o + 5] = area * (m[4] + x * y); w[o + 6] = area * (m[5] + x * z);
    w[o + 7] = area * (m[6] + y * y); w[o + 8] = area * (m[7] + y * z); w[o + 9] = area * (m[8] + z * z);
  }

  /**
   * Area-weighted covariance box of triangles first .. first + count - 1 from the summed
   * per-triangle moments; false when their total area is zero (left to fitObbTriangles' point
   * fallback).
   */
  private fitCovariance(o: number, first: number, count: number): boolean {
    const w = this.moments;
    let a = 0, x = 0, y = 0, z = 0, xx = 0, xy = 0, xz = 0, yy = 0, yz = 0, zz = 0;
    for (let t = first; t < first + count; t++) {
      const q = TRIANGLE_MOMENTS * t;
      a += w[q]; x += w[q + 1]; y += w[q + 2]; z += w[q + 3];
      xx += w[q + 4]; xy += w[q + 5]; xz += w[q + 6]; yy += w[q + 7]; yz += w[q + 8]; zz += w[q + 9];
    }
    if (!(a > 0)) return false;
    x /= a; y /= a; z /= a;
    const cov = this.covariance;
    cov[0] = xx / a - x * x; cov[1] = xy / a - x * y; cov[2] = xz / a - x * z;
    cov[3] = yy / a - y * y; cov[4] = yz / a - y * z; cov[5] = zz / a - z * z;
    symmetricEigen3(this.eigenValues, this.axes, cov);
    obbFromAxes(this.boxes, o, this.axes, 0, this.tris, 3 * count, 9 * first);
    return true;
  }

  /** Fits node `node`'s absolute volume over triangles first .. first + count - 1. */
  fit(node: number, first: number, count: number): void {
    const out = this.boxes, o = node * OBB_STRIDE;
    const pointCount = 3 * count, pointOffset = 9 * first;
    if (this.options.kind === 'aabb' || this.options.kind === 'sphere') {
      if (this.options.kind === 'aabb') {
        const b = aabbFromPoints(this.bounds, 0, this.tris, pointCount, pointOffset);
        for (let c = 0; c < 3; c++) {
          out[o + OBB_CENTER + c] = 0.5 * (b[c] + b[c + 3]);
          out[o + OBB_HALF + c] = 0.5 * (b[c + 3] - b[c]);
        }
      } else {
        const s = welzlSphere(this.ball, 0, this.tris, pointCount, pointOffset);
        for (let c = 0; c < 3; c++) {
          out[o + OBB_CENTER + c] = s[c];
          out[o + OBB_HALF + c] = s[3];
        }
      }
      for (let i = 0; i < 9; i++) out[o + OBB_AXES + i] = IDENTITY[i];
      return;
    }
    if (count === 1 && this.fitSingleTriangle(o, first)) return;
    if (this.options.fit === 'covariance') {
      if (!this.fitCovariance(o, first, count)) fitObbTriangles(out, o, this.tris, null, count, first);
    }
    else if (this.options.fit === 'hull') fitObbPcaHull(out, o, this.tris, pointCount, pointOffset);
    else ditoObb(out, o, this.tris, pointCount, 14, pointOffset);
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
    const nLen = Math.hypot(nx, ny, nz);
    if (!(nLen > 0)) return false;
    nx /= nLen; ny /= nLen; nz /= nLen;
    let bestArea = Infinity;
    for (let e = 0; e < 3; e++) {
      const a = q + 3 * e, b = q + 3 * ((e + 1) % 3);
      let ex = p[b] - p[a], ey = p[b + 1] - p[a + 1], ez = p[b + 2] - p[a + 2];
      const len = Math.hypot(ex, ey, ez);
      if (!(len > 0)) continue;
      ex /= len; ey /= len; ez /= len;
      // Second axis n × e, so (e, n × e, n) is right-handed.
      const wx = ny * ez - nz * ey, wy = nz * ex - nx * ez, wz = nx * ey - ny * ex;
      let min0 = Infinity, max0 = -Infinity, min1 = Infinity, max1 = -Infinity;
      for (let k = 0; k < 3; k++) {
        const x = p[q + 3 * k], y = p[q + 3 * k + 1], z = p[q + 3 * k + 2];
        const d0 = x * ex + y * ey + z * ez, d1 = x * wx + y * wy + z * wz;
        min0 = Math.min(min0, d0); max0 = Math.max(max0, d0);
        min1 = Math.min(min1, d1); max1 = Math.max(max1, d1);
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
    this.splitPoint(first, count);
    for (let k = 0; k < 3; k++) {
      const a = this.order[k];
      const ax = this.axisComponent(node, a, 0), ay = this.axisComponent(node, a, 1), az = this.axisComponent(node, a, 2);
      const at = ax * this.mean[0] + ay * this.mean[1] + az * this.mean[2];
      let left = 0;
      for (let t = first; t < first + count; t++) if (this.project(t, ax, ay, az) < at) left++;
      if (left > 0 && left < count) {
        this.partition(first, count, ax, ay, az, at);
        return left;
      }
    }
    return count >> 1;
  }

  /** Axis `a` component `c` of the node's split frame (its own axes; world axes for spheres). */
  private axisComponent(node: number, a: number, c: number): number {
    return this.boxes[node * OBB_STRIDE + OBB_AXES + 3 * a + c];
  }

  private project(t: number, ax: number, ay: number, az: number): number {
    const c = this.centroids;
    return c[3 * t] * ax + c[3 * t + 1] * ay + c[3 * t + 2] * az;
  }

  /** Fills `order` with axis numbers by decreasing extent (a sphere node uses its points' AABB extents). */
  private sortAxesByExtent(node: number, first: number, count: number): void {
    const o = node * OBB_STRIDE;
    let h0 = this.boxes[o + OBB_HALF], h1 = this.boxes[o + OBB_HALF + 1], h2 = this.boxes[o + OBB_HALF + 2];
    if (this.options.kind === 'sphere') {
      const b = aabbFromPoints(this.bounds, 0, this.tris, 3 * count, 9 * first);
      h0 = b[3] - b[0]; h1 = b[4] - b[1]; h2 = b[5] - b[2];
    }
    const order = this.order, h = this.eigenValues; // free scratch between fits
    h[0] = h0; h[1] = h1; h[2] = h2;
    order[0] = 0; order[1] = 1; order[2] = 2;
    for (let i = 1; i < 3; i++) {
      for (let j = i; j > 0 && h[order[j]] > h[order[j - 1]]; j--) {
        const s = order[j]; order[j] = order[j - 1]; order[j - 1] = s;
      }
    }
  }

  /** The split point of the mean rules into `mean`: area-weighted ('mean') or plain centroid mean. */
  private splitPoint(first: number, count: number): void {
    const weighted = this.options.split === 'mean';
    let w = 0, x = 0, y = 0, z = 0;
    for (let t = first; t < first + count; t++) {
      const k = weighted ? this.areas[t] : 1;
      w += k;
      x += k * this.centroids[3 * t];
      y += k * this.centroids[3 * t + 1];
      z += k * this.centroids[3 * t + 2];
    }
    if (!(w > 0)) {
      // Only zero-area triangles: fall back to the plain centroid mean.
      w = count; x = y = z = 0;
      for (let t = first; t < first + count; t++) {
        x += this.centroids[3 * t]; y += this.centroids[3 * t + 1]; z += this.centroids[3 * t + 2];
      }
    }
    this.mean[0] = x / w; this.mean[1] = y / w; this.mean[2] = z / w;
  }

  /** Moves triangles whose centroid projects below `at` to the front of the run. */
  private partition(first: number, count: number, ax: number, ay: number, az: number, at: number): void {
    let i = first, j = first + count - 1;
    for (;;) {
      while (i <= j && this.project(i, ax, ay, az) < at) i++;
      while (i <= j && !(this.project(j, ax, ay, az) < at)) j--;
      if (i >= j) return;
      this.swap(i, j);
    }
  }

  private swap(i: number, j: number): void {
    const p = this.tris;
    for (let c = 0; c < 9; c++) { const s = p[9 * i + c]; p[9 * i + c] = p[9 * j + c]; p[9 * j + c] = s; }
    const m = this.centroids;
    for (let c = 0; c < 3; c++) { const s = m[3 * i + c]; m[3 * i + c] = m[3 * j + c]; m[3 * j + c] = s; }
    const a = this.areas[i]; this.areas[i] = this.areas[j]; this.areas[j] = a;
    const d = this.ids[i]; this.ids[i] = this.ids[j]; this.ids[j] = d;
    const w = this.moments;
    for (let c = 0; c < TRIANGLE_MOMENTS; c++) {
      const x = w[TRIANGLE_MOMENTS * i + c]; w[TRIANGLE_MOMENTS * i + c] = w[TRIANGLE_MOMENTS * j + c]; w[TRIANGLE_MOMENTS * j + c] = x;
    }
  }

  /** Median split along the longest axis (always balanced, so no fallback is needed). */
  private splitMedian(node: number, first: number, count: number): number {
    const a = this.order[0];
    const ax = this.axisComponent(node, a, 0), ay = this.axisComponent(node, a, 1), az = this.axisComponent(node, a, 2);
    const half = count >> 1;
    const keys = this.keys, tags = this.tags;
    for (let i = 0; i < count; i++) {
      keys[i] = this.project(first + i, ax, ay, az);
      tags[i] = i;
    }
    selectByKey(keys, tags, 0, count, half);
    // Apply the permutation through the scratch copies.
    for (let i = 0; i < count; i++) {
      const s = first + tags[i];
      this.scratchTris.set(this.tris.subarray(9 * s, 9 * s + 9), 9 * i);
      this.scratchCentroids.set(this.centroids.subarray(3 * s, 3 * s + 3), 3 * i);
      this.scratchAreas[i] = this.areas[s];
      this.scratchIds[i] = this.ids[s];
      this.scratchMoments.set(this.moments.subarray(TRIANGLE_MOMENTS * s, TRIANGLE_MOMENTS * s + TRIANGLE_MOMENTS), TRIANGLE_MOMENTS * i);
    }
    this.tris.set(this.scratchTris.subarray(0, 9 * count), 9 * first);
    this.centroids.set(this.scratchCentroids.subarray(0, 3 * count), 3 * first);
    this.areas.set(this.scratchAreas.subarray(0, count), first);
    this.ids.set(this.scratchIds.subarray(0, count), first);
    this.moments.set(this.scratchMoments.subarray(0, TRIANGLE_MOMENTS * count), TRIANGLE_MOMENTS * first);
    return half;
  }
}

/** Writes node `child`'s absolute box into the frame of absolute box `parent` (both in `boxes`). */
function toParentFrame(out: Float64Array, o: number, boxes: Float64Array, parent: number, child: number): void {
  const p = parent * OBB_STRIDE, c = child * OBB_STRIDE;
  const dx = boxes[c] - boxes[p], dy = boxes[c + 1] - boxes[p + 1], dz = boxes[c + 2] - boxes[p + 2];
  for (let i = 0; i < 3; i++) {
    const ui = p + OBB_AXES + 3 * i;
    const ux = boxes[ui], uy = boxes[ui + 1], uz = boxes[ui + 2];
    out[o + OBB_CENTER + i] = ux * dx + uy * dy + uz * dz;
    for (let j = 0; j < 3; j++) {
      const vj = c + OBB_AXES + 3 * j;
      out[o + OBB_AXES + 3 * j + i] = ux * boxes[vj] + uy * boxes[vj + 1] + uz * boxes[vj + 2];
    }
    out[o + OBB_HALF + i] = boxes[c + OBB_HALF + i];
  }
}

/**
 * Builds a bounding-volume tree over the triangles of a mesh: `positions` holds xyz per vertex,
 * `indices` three vertex indices per triangle. Top-down: each node's volume is fitted to its
 * triangles (OBB by `options.fit`, or AABB, or minimal sphere), then the triangles are split by
 * their centroids along the node's longest axis at `options.split`, falling back to the other
 * axes by decreasing extent when a side would be empty; a node with at most
 * `options.maxLeafTriangles` triangles is a leaf. Zero-area triangles are allowed.
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
  const parents = new Int32Array(maxNodes).fill(-1);
  const firstTriangle = new Int32Array(maxNodes);
  const nodeTriangleCount = new Int32Array(maxNodes);
  const levels = new Int32Array(maxNodes);
  const pending = new Int32Array(maxNodes);
  nodeTriangleCount[0] = triangleCount;
  let nodeCount = 1, pendingCount = 1, depth = 0;
  while (pendingCount > 0) {
    const node = pending[--pendingCount];
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
    parents[l] = parents[l + 1] = node;
    levels[l] = levels[l + 1] = levels[node] + 1;
    depth = Math.max(depth, levels[l]);
    // Left on top of the stack, so each subtree is finished before its sibling starts.
    pending[pendingCount++] = l + 1;
    pending[pendingCount++] = l;
  }

  const boxes = builder.boxes;
  const nodes = new Float64Array(nodeCount * TREE_NODE_STRIDE);
  const sizes = new Float64Array(nodeCount);
  for (let i = 0; i < nodeCount; i++) {
    if (i === 0) nodes.set(boxes.subarray(0, OBB_STRIDE), 0);
    else toParentFrame(nodes, i * TREE_NODE_STRIDE, boxes, parents[i], i);
    const h = i * OBB_STRIDE + OBB_HALF;
    sizes[i] = Math.hypot(boxes[h], boxes[h + 1], boxes[h + 2]);
  }
  let maxAbs = 0;
  for (let i = 0; i < builder.tris.length; i++) maxAbs = Math.max(maxAbs, Math.abs(builder.tris[i]));
  return {
    kind: opts.kind,
    nodeCount,
    triangleCount,
    depth,
    nodes,
    children: children.slice(0, nodeCount),
    firstTriangle: firstTriangle.slice(0, nodeCount),
    nodeTriangleCount: nodeTriangleCount.slice(0, nodeCount),
    sizes,
    triangles: builder.tris,
    triangleIds: builder.ids,
    scale: maxAbs + sizes[0],
  };
}
