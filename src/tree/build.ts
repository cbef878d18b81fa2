import { selectByKey } from '../broadphase/sortByKey';
import { ditoObb } from '../fit/dito';
import { CollideInputError, assertNumberList, assertOptions, coordinateRefusal, isCoordinate } from '../errors';
import { IDENTITY_AXES, OBB_AXES, OBB_CENTER, OBB_HALF, OBB_STRIDE, type ReadonlyFloats } from '../layout';
import { obbFromAxes, obbFromExtents } from '../volumes/obb';
import { symmetricEigen3 } from '../fit/eigen3';
import { fitObbPcaHull, fitObbTriangles } from '../fit/obbFit';
import { welzlSphere } from '../volumes/sphere';
import { MAX_COORDINATE } from '../tolerances';
import { releaseTreeBuildArena, treeBuildArena, type TreeBuildArena, type TreeSumsKind } from '../wasm/treeBuild';

/**
 * Bounding-volume trees over triangle meshes (OBBTree, Gottschalk, Lin and Manocha 1996), built
 * top-down into flat typed arrays. The same builder makes OBB, AABB and sphere nodes, so the three
 * can be compared on equal terms; the queries live beside it (collideTrees.ts, overlapVolume.ts,
 * raycastTree.ts).
 *
 * Every node stores its volume in its PARENT's frame (the root in the mesh frame), in the OBB
 * layout: centre (3), axes as columns (9), half-extents (3). A tree-vs-tree descent then carries
 * one relative transform and updates it with one small product per step (RAPID / PQP), and a mesh
 * moved rigidly never needs its tree touched. AABB and sphere nodes have identity axes (a sphere
 * has half-extents r, r, r).
 *
 * The triangles are copied into tree order (`triangles`, 9 numbers each, mesh frame), so a node's
 * triangles are one contiguous run and leaves are tested without an index lookup.
 *
 * One file, one builder: the options, the build scratch and the Builder class that splits nodes
 * and fits their volumes (the fits themselves live in src/fit/) belong to one top-down pass.
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
  /** Node volume: 'obb', 'aabb' or 'sphere'. */
  readonly kind: BoundingNodeKind;
  /** Number of nodes. */
  readonly nodeCount: number;
  /** Number of triangles of the mesh. */
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

/** Throws unless the mesh is non-empty and its indices whole numbers in range. */
function validateIndices(positions: ReadonlyFloats, indices: ReadonlyFloats): void {
  const what = 'buildBoundingTree';
  assertNumberList(positions, `${what}: positions`);
  assertNumberList(indices, `${what}: indices`);
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
  }
}

/**
 * Throws naming the first referenced vertex coordinate that is not finite or lies outside
 * ±MAX_COORDINATE. Called only when copyTriangles' largest |coordinate| says there is one, so a
 * valid mesh's coordinates are checked by the copy that reads them anyway.
 */
function refuseCoordinates(positions: ReadonlyFloats, indices: ReadonlyFloats): void {
  for (let i = 0; i < indices.length; i++) {
    const v = indices[i];
    for (let c = 0; c < 3; c++) {
      if (!isCoordinate(positions[3 * v + c])) {
        throw new CollideInputError(`buildBoundingTree: vertex ${v} (of triangle ${Math.floor(i / 3)}) coordinate ${c} ${coordinateRefusal(positions[3 * v + c])}`);
      }
    }
  }
}

function readOptions(options: BoundingTreeOptions): Required<BoundingTreeOptions> {
  assertOptions(options, ['kind', 'fit', 'split', 'maxLeafTriangles'], 'buildBoundingTree');
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
 * A triangle's surface moments about the mesh reference point: area, area × centroid (3), area ×
 * second moment (xx, xy, xz, yy, yz, zz). A node's area-weighted mean and covariance are sums of
 * its triangles' moments, so no level re-walks the vertices. The 'mean' split needs only the
 * first four, so other builds keep (and swap) no more than they read.
 */
const COVARIANCE_MOMENTS = 10;
const MEAN_MOMENTS = 4;
/** Range sums: the moments, then the corners' min and max. */
const SUM_MIN = COVARIANCE_MOMENTS;
const SUM_MAX = SUM_MIN + 3;
const SUM_COUNT = SUM_MAX + 3;

/** Triangles of the warm-up fit that runs each kernel's code once before the root's long calls (Builder.warmUp). */
const WARM_UP_TRIANGLES = 64;

/**
 * Build scratch kept between builds and grown on demand (it stays as large as the largest mesh
 * built): fresh megabytes cost first-touch page faults (about 1 ms per 2.4 MB on the benchmark
 * machine), so only the arrays the tree keeps are new, each at its final size.
 */
const scratch = {
  /**
   * Centroids (3 per triangle): for OBB builds per tree-order triangle, permuted with the
   * triangles; for AABB and sphere builds per mesh triangle, read through the tree-order ids. Per
   * mesh triangle, read through the ids and never moved: moments, then for AABB and sphere builds
   * the corners' min and max (smaller swaps; measured 4% off a build).
   */
  centroids: new Float64Array(0),
  moments: new Float64Array(0),
  /** Per node: absolute (mesh-frame) volume, left child, first triangle, triangle count. */
  boxes: new Float64Array(0),
  children: new Int32Array(0),
  firstTriangle: new Int32Array(0),
  nodeTriangleCount: new Int32Array(0),
  /** Pending nodes and their depths (the explicit build stack). */
  stack: new Int32Array(0),
  stackLevels: new Int32Array(0),
  /** Median split: keys, permutation, and a copy of the run's per-triangle data to apply it through. */
  keys: new Float64Array(0),
  tags: new Int32Array(0),
  copy: new Float64Array(0),
  /** Sphere nodes: per mesh vertex, the last gathering that took it (Builder.gathers), and the gathered points. */
  vertexStamp: new Int32Array(0),
  points: new Float64Array(0),
};

/** `a` if it holds at least n entries, else a new array of that type with n. */
function atLeast<T extends Float64Array | Int32Array>(a: T, n: number): T {
  return (a.length >= n ? a : new (a.constructor as new (n: number) => T)(n));
}

/**
 * The per-triangle arrays of a build: the tree's triangles (9 numbers each, tree order) and mesh
 * triangle ids, with the centroids (3 per triangle) and the moments (`momentStride` per mesh
 * triangle, never moved). An OBB build copies the triangles in first and permutes them and the
 * centroids with the ids as nodes split (its fits project a node's triangles as one run). An
 * AABB or sphere build permutes only the ids: it measures the triangles at the mesh's vertices,
 * its nodes read the triangles' boxes and centroids (in mesh order) through the ids, and the
 * tree's triangles are written in tree order once the nodes are built (Builder.placeTriangles).
 * A pooled build shares the arrays between threads, each of which splits its own runs of
 * triangles.
 */
export interface TriangleArrays {
  tris: Float64Array;
  ids: Uint32Array;
  centroids: Float64Array;
  moments: Float64Array;
  /**
   * Set when `ids`, `centroids` and `moments` (and an OBB build's `tris`) live in the WebAssembly
   * kernels' memory: a build on one thread, or a pool thread's copy of the runs it grows.
   */
  wasm?: TreeBuildArena;
}

/** The node arrays a build writes, node 0 first: absolute (mesh-frame) volume, left child, first triangle, triangle count. */
export interface NodeArrays {
  boxes: Float64Array;
  children: Int32Array;
  firstTriangle: Int32Array;
  nodeTriangleCount: Int32Array;
}

/** Moments kept per triangle: all ten for the covariance fit, four for the 'mean' split, else none. */
function momentCountOf(options: Required<BoundingTreeOptions>): number {
  return options.kind === 'obb' && options.fit === 'covariance' ? COVARIANCE_MOMENTS : options.split === 'mean' ? MEAN_MOMENTS : 0;
}

/** The WebAssembly range sums reading this build's records, or null where its sums read none the kernels know. */
function treeSumsKind(options: Required<BoundingTreeOptions>): TreeSumsKind | null {
  const moments = momentCountOf(options);
  if (moments === COVARIANCE_MOMENTS) return 'covariance';
  if (options.kind === 'obb') return null;
  return moments === MEAN_MOMENTS ? 'meanBoxes' : 'boxes';
}

/**
 * The WebAssembly arena for a build of `triangles` triangles with these options (with room for a
 * copy of the mesh's `positionCount` coordinates, which an AABB or sphere build measures in), or null
 * where the build keeps to the JavaScript loops (kernels unavailable, or an OBB fit other than
 * the covariance one). Release it with releaseTreeBuildArena once the build is done.
 */
export function wasmArenaFor(options: Required<BoundingTreeOptions>, triangles: number, positionCount = 0): TreeBuildArena | null {
  const kind = treeSumsKind(options);
  return kind === null ? null : treeBuildArena(triangles, kind, positionCount);
}

/** A build's per-triangle arrays in `arena`; `tris` holds an AABB or sphere build's triangles (an OBB build's are in the arena). */
export function arenaArrays(arena: TreeBuildArena, tris: Float64Array): TriangleArrays {
  return { tris: arena.tris ?? tris, ids: arena.ids, centroids: arena.centroids, moments: arena.moments, wasm: arena };
}

/** Numbers per mesh triangle in TriangleArrays.moments: the moments, then for AABB and sphere builds the corners' min and max. */
export function momentStride(options: Required<BoundingTreeOptions>): number {
  return momentCountOf(options) + (options.kind !== 'obb' ? 6 : 0);
}

/** Build-time state: triangles and their per-triangle data, permuted together in place as nodes split. */
export class Builder {
  /** Triangles in tree order (9 numbers each): the tree's own array. */
  readonly tris: Float64Array;
  /** Mesh triangle index per tree-order triangle: the tree's own array. */
  readonly ids: Uint32Array;
  readonly centroids: Float64Array;
  readonly moments: Float64Array;
  /** Moments kept per triangle: all ten for the covariance fit, four for the 'mean' split, else none. */
  readonly momentCount: number;
  /** Numbers per triangle in `moments`: the moments, then for AABB and sphere builds the corners' min and max. */
  readonly stride: number;
  /**
   * Whether range sums include the corners' AABB (AABB boxes, sphere split axes); such builds
   * permute only the ids as nodes split (TriangleArrays).
   */
  private readonly boxedSums: boolean;
  /** Absolute node volumes the fits write (the nodes of the tree or subtree being grown). */
  boxes: Float64Array;
  /** Longest root-to-leaf path so far. */
  depth = 0;
  private readonly sums: Float64Array;
  /** The WebAssembly kernels' arena holding the per-triangle arrays, or null for the JavaScript loops. */
  private readonly wasm: TreeBuildArena | null;
  /** Node whose range `sums` holds (-1: none), so a split reuses its fit's pass. */
  private summedNode = -1;
  /** Sphere nodes: number of the last vertex gathering, the stamp of the vertices it took. */
  private gathers = 0;
  private readonly axes: Float64Array;
  private readonly ball = new Float64Array(4);
  private readonly order = new Int32Array(3);
  private readonly extents = new Float64Array(3);
  private readonly mean = new Float64Array(3);
  private readonly covariance = new Float64Array(6);
  private readonly eigenValues = new Float64Array(3);
  private readonly reference: Float64Array;

  /**
   * A builder over `arrays` (sized for the mesh) for a checked mesh and options; `prepare` fills
   * them. Several builders (one per thread) may work on the same arrays, on disjoint runs of
   * triangles.
   */
  constructor(
    readonly positions: ReadonlyFloats,
    readonly indices: ReadonlyFloats,
    readonly options: Required<BoundingTreeOptions>,
    arrays: TriangleArrays,
  ) {
    const n = indices.length / 3;
    this.momentCount = momentCountOf(options);
    this.boxedSums = options.kind !== 'obb';
    this.stride = momentStride(options);
    this.tris = arrays.tris;
    this.ids = arrays.ids;
    this.centroids = arrays.centroids;
    this.moments = arrays.moments;
    this.wasm = arrays.wasm ?? null;
    this.sums = this.wasm?.sums ?? new Float64Array(SUM_COUNT);
    this.axes = this.wasm?.axes ?? new Float64Array(9);
    this.reference = this.wasm?.reference ?? new Float64Array(3);
    // The warm-up's node (warmUp).
    this.boxes = scratch.boxes = atLeast(scratch.boxes, OBB_STRIDE);
    // The first corner of the mesh's first triangle: the moments' reference point.
    for (let c = 0; c < 3; c++) this.reference[c] = positions[3 * indices[0] + c];
    if (options.split === 'median') {
      scratch.keys = atLeast(scratch.keys, n);
      scratch.tags = atLeast(scratch.tags, n);
      scratch.copy = atLeast(scratch.copy, 13 * n);
    }
    const vertexCount = options.kind === 'sphere' ? Math.floor(positions.length / 3) : 0;
    scratch.vertexStamp = atLeast(scratch.vertexStamp, vertexCount).fill(0, 0, vertexCount);
    scratch.points = atLeast(scratch.points, options.kind === 'sphere' ? 9 * n : 0);
  }

  /**
   * Measures mesh triangles from .. to - 1 (tree order is still mesh order), an OBB build copying
   * them into its triangles first; returns their largest |coordinate| (NaN when one is not a
   * number).
   */
  prepare(from: number, to: number): number {
    const ids = this.ids;
    for (let t = from; t < to; t++) ids[t] = t;
    if (this.boxedSums) return this.measureVertices(from, to);
    copyTriangles(this.tris, ids, this.positions, this.indices, from, to);
    this.measureRange(from, to);
    return largestMagnitude(this.tris, 9 * from, 9 * to);
  }

  /**
   * AABB and sphere builds: measures triangles from .. to - 1 at the mesh's vertices, with no copy
   * (measured 1.05x to 1.06x faster AABB builds than measuring a copy); returns their largest
   * |coordinate|.
   */
  private measureVertices(from: number, to: number): number {
    const wasm = this.wasm;
    if (wasm !== null && wasm.positions !== null) {
      return wasm.measure(from, to, wasm.positions.byteOffset, wasm.indices!.byteOffset, wasm.reference.byteOffset, wasm.centroids.byteOffset, wasm.moments.byteOffset, 8 * this.stride, this.momentCount === MEAN_MOMENTS ? 1 : 0);
    }
    const positions = this.positions, indices = this.indices;
    let maxAbs = 0;
    for (let t = from; t < to; t++) {
      maxAbs = Math.max(maxAbs, this.measure(t, positions, 3 * indices[3 * t], 3 * indices[3 * t + 1], 3 * indices[3 * t + 2]));
    }
    return maxAbs;
  }

  /**
   * Writes the tree's triangles first .. first + count - 1 in tree order, once their nodes are
   * built: for AABB and sphere builds, whose splits moved only the ids (OBB builds moved the
   * triangles themselves).
   */
  placeTriangles(first: number, count: number): void {
    if (this.boxedSums) copyTriangles(this.tris, this.ids, this.positions, this.indices, first, first + count);
  }

  /**
   * Copies what growing the run first .. first + count - 1 reads from `shared` (a pooled build's
   * arrays, measured by all threads) into this builder's own arrays: the run's ids, their
   * triangles' records and centroids, and for OBB builds the run's triangles. A thread then grows
   * the run in its WebAssembly arena with the numbers of the shared arrays, and `returnRun` gives
   * back what the growing moved.
   */
  borrowRun(shared: TriangleArrays, first: number, count: number): void {
    const ids = this.ids, end = first + count, stride = this.stride;
    const moments = this.moments, centroids = this.centroids;
    for (let t = first; t < end; t++) {
      const id = shared.ids[t];
      ids[t] = id;
      const r = stride * id;
      for (let k = 0; k < stride; k++) moments[r + k] = shared.moments[r + k];
      // AABB and sphere builds read centroids by mesh triangle; OBB builds move them with the triangles.
      const c = 3 * (this.boxedSums ? id : t);
      centroids[c] = shared.centroids[c]; centroids[c + 1] = shared.centroids[c + 1]; centroids[c + 2] = shared.centroids[c + 2];
    }
    if (!this.boxedSums) this.tris.set(shared.tris.subarray(9 * first, 9 * end), 9 * first);
  }

  /** Writes back into `shared` the run's ids and, for OBB builds, its triangles and centroids, as growing it left them. */
  returnRun(shared: TriangleArrays, first: number, count: number): void {
    const end = first + count;
    shared.ids.set(this.ids.subarray(first, end), first);
    if (this.boxedSums) return;
    shared.tris.set(this.tris.subarray(9 * first, 9 * end), 9 * first);
    shared.centroids.set(this.centroids.subarray(3 * first, 3 * end), 3 * first);
  }

  /** Makes `boxes` the node volumes the next grow writes, with no range sums kept and depth 0. */
  begin(boxes: Float64Array): void {
    this.boxes = boxes;
    this.summedNode = -1;
    this.depth = 0;
  }

  /**
   * Fits a scratch node over the first few triangles of the run first .. first + count - 1 and
   * sums them. V8 compiles a long loop while it runs (on-stack replacement); code after the loop
   * that has never run leaves that compiled loop again at every later long call, and a build's
   * first passes (the root's) are the first and longest calls of each kernel. A function records
   * type feedback only after it has run a few times its own size in bytecode, so the warm-up range
   * is long enough for that (WARM_UP_TRIANGLES) and far too short to be compiled mid-run.
   */
  warmUp(first: number, count: number): void {
    const boxes = this.boxes;
    this.boxes = scratch.boxes;
    const n = Math.min(count, WARM_UP_TRIANGLES);
    this.fit(0, first, n);
    this.sumRange(-1, first, n);
    this.splitPoint(first, n);
    this.boxes = boxes;
  }

  /** Measures triangles from .. to - 1 (a loop apart from prepare: see grow). */
  private measureRange(from: number, to: number): void {
    const tris = this.tris;
    for (let t = from; t < to; t++) this.measure(t, tris, 9 * t, 9 * t + 3, 9 * t + 6);
  }

  /**
   * Centroid and moments of triangle t. The one-triangle closed form of the surface covariance,
   * (1/12) Σ dᵢdᵢᵀ over the corners' offsets dᵢ from the centroid (the 9·m·mᵀ + ppᵀ + qqᵀ + rrᵀ
   * formula of triangleMoments with the mean taken out), in a few multiplications instead of the
   * general accumulator: every triangle of the mesh is measured, before any split (tree order is
   * still mesh order, so t indexes both). Its corners are p[c0 ..], p[c1 ..], p[c2 ..] (3 numbers
   * each). Returns, for AABB and sphere builds, its largest |coordinate| (from its box; NaN when
   * one is not a number), else 0.
   */
  private measure(t: number, p: ReadonlyFloats, c0: number, c1: number, c2: number): number {
    const ref = this.reference, m = this.moments, w = this.stride * t;
    const px = p[c0], py = p[c0 + 1], pz = p[c0 + 2];
    const qx = p[c1], qy = p[c1 + 1], qz = p[c1 + 2], rx = p[c2], ry = p[c2 + 1], rz = p[c2 + 2];
    const ux = qx - px, uy = qy - py, uz = qz - pz;
    const vx = rx - px, vy = ry - py, vz = rz - pz;
    // Centroid as p plus a small offset, so large coordinates do not swamp the triangle's size.
    const gx = (ux + vx) / 3, gy = (uy + vy) / 3, gz = (uz + vz) / 3;
    const g = this.centroids;
    g[3 * t] = px + gx; g[3 * t + 1] = py + gy; g[3 * t + 2] = pz + gz;
    let maxAbs = 0;
    if (this.boxedSums) {
      const b = w + this.momentCount;
      const x0 = Math.min(px, qx, rx), y0 = Math.min(py, qy, ry), z0 = Math.min(pz, qz, rz);
      const x1 = Math.max(px, qx, rx), y1 = Math.max(py, qy, ry), z1 = Math.max(pz, qz, rz);
      m[b] = x0; m[b + 1] = y0; m[b + 2] = z0; m[b + 3] = x1; m[b + 4] = y1; m[b + 5] = z1;
      maxAbs = Math.max(-x0, -y0, -z0, x1, y1, z1);
    }
    if (this.momentCount === 0) return maxAbs;
    const nx = uy * vz - uz * vy, ny = uz * vx - ux * vz, nz = ux * vy - uy * vx;
    const area = 0.5 * Math.sqrt(nx * nx + ny * ny + nz * nz);
    const x = px - ref[0] + gx, y = py - ref[1] + gy, z = pz - ref[2] + gz;
    m[w] = area;
    m[w + 1] = area * x; m[w + 2] = area * y; m[w + 3] = area * z;
    if (this.momentCount === MEAN_MOMENTS) return maxAbs;
    // Corner offsets from the centroid: −g, u − g, v − g.
    const bx = ux - gx, by = uy - gy, bz = uz - gz, cx = vx - gx, cy = vy - gy, cz = vz - gz;
    const k = area / 12;
    m[w + 4] = area * x * x + k * (gx * gx + bx * bx + cx * cx);
    m[w + 5] = area * x * y + k * (gx * gy + bx * by + cx * cy);
    m[w + 6] = area * x * z + k * (gx * gz + bx * bz + cx * cz);
    m[w + 7] = area * y * y + k * (gy * gy + by * by + cy * cy);
    m[w + 8] = area * y * z + k * (gy * gz + by * bz + cy * cz);
    m[w + 9] = area * z * z + k * (gz * gz + bz * bz + cz * cz);
    return maxAbs;
  }

  /**
   * Sums over node `node`'s triangles first .. first + count - 1 into `sums`: the kept moments and,
   * for AABB and sphere builds, the corners' min and max. One pass per array, each with its
   * accumulators in locals.
   */
  private sumRange(node: number, first: number, count: number): void {
    const end = first + count;
    this.summedNode = node;
    const wasm = this.wasm;
    if (wasm !== null) {
      wasm.sum(wasm.ids.byteOffset, first, end, wasm.moments.byteOffset, wasm.sums.byteOffset);
      return;
    }
    const s = this.sums;
    const m = this.moments, mc = this.momentCount, ids = this.ids;
    if (mc === COVARIANCE_MOMENTS) {
      let a = 0, x = 0, y = 0, z = 0, xx = 0, xy = 0, xz = 0, yy = 0, yz = 0, zz = 0;
      for (let t = first; t < end; t++) {
        const q = mc * ids[t];
        a += m[q]; x += m[q + 1]; y += m[q + 2]; z += m[q + 3];
        xx += m[q + 4]; xy += m[q + 5]; xz += m[q + 6]; yy += m[q + 7]; yz += m[q + 8]; zz += m[q + 9];
      }
      s[0] = a; s[1] = x; s[2] = y; s[3] = z; s[4] = xx; s[5] = xy; s[6] = xz; s[7] = yy; s[8] = yz; s[9] = zz;
      return;
    }
    const stride = this.stride, mean = mc === MEAN_MOMENTS, boxed = this.boxedSums;
    let a = 0, x = 0, y = 0, z = 0;
    let minX = Infinity, minY = Infinity, minZ = Infinity, maxX = -Infinity, maxY = -Infinity, maxZ = -Infinity;
    for (let t = first; t < end; t++) {
      const q = stride * ids[t];
      if (mean) { a += m[q]; x += m[q + 1]; y += m[q + 2]; z += m[q + 3]; }
      if (!boxed) continue;
      const e = q + mc;
      if (m[e] < minX) minX = m[e];
      if (m[e + 1] < minY) minY = m[e + 1];
      if (m[e + 2] < minZ) minZ = m[e + 2];
      if (m[e + 3] > maxX) maxX = m[e + 3];
      if (m[e + 4] > maxY) maxY = m[e + 4];
      if (m[e + 5] > maxZ) maxZ = m[e + 5];
    }
    s[0] = a; s[1] = x; s[2] = y; s[3] = z;
    s[SUM_MIN] = minX; s[SUM_MIN + 1] = minY; s[SUM_MIN + 2] = minZ;
    s[SUM_MAX] = maxX; s[SUM_MAX + 1] = maxY; s[SUM_MAX + 2] = maxZ;
  }

  /**
   * Area-weighted covariance box of node `node` (triangles first .. first + count - 1) from the
   * summed moments; false when their total area is zero (left to fitObbTriangles' point fallback).
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
    this.boxFromAxes(node * OBB_STRIDE, 3 * count, 9 * first);
    return true;
  }

  /**
   * obbFromAxes of `axes` over `count` corners of the triangles from number `at` of `tris` into
   * the node volume at `o`; projected in WebAssembly when the arena holds the triangles (2.7x
   * faster on the knot's nodes).
   */
  private boxFromAxes(o: number, count: number, at: number): void {
    const wasm = this.wasm;
    if (wasm === null || wasm.tris === null) {
      obbFromAxes(this.boxes, o, this.axes, 0, this.tris, count, at);
      return;
    }
    wasm.project(wasm.tris.byteOffset + 8 * at, count, wasm.axes.byteOffset, wasm.extents.byteOffset);
    const e = wasm.extents;
    obbFromExtents(this.boxes, o, this.axes, 0, e[0], e[3], e[1], e[4], e[2], e[5]);
  }

  /** Fits node `node`'s absolute volume over triangles first .. first + count - 1. */
  fit(node: number, first: number, count: number): void {
    const out = this.boxes, o = node * OBB_STRIDE;
    const pointCount = 3 * count, pointOffset = 9 * first;
    if (this.options.kind === 'aabb') {
      this.sumRange(node, first, count);
      const s = this.sums;
      for (let c = 0; c < 3; c++) {
        out[o + OBB_CENTER + c] = 0.5 * (s[SUM_MIN + c] + s[SUM_MAX + c]);
        out[o + OBB_HALF + c] = 0.5 * (s[SUM_MAX + c] - s[SUM_MIN + c]);
      }
      for (let i = 0; i < 9; i++) out[o + OBB_AXES + i] = IDENTITY_AXES[i];
      return;
    }
    if (this.options.kind === 'sphere') {
      const s = welzlSphere(this.ball, 0, scratch.points, this.gatherVertices(first, count), 0);
      for (let c = 0; c < 3; c++) {
        out[o + OBB_CENTER + c] = s[c];
        out[o + OBB_HALF + c] = s[3];
      }
      for (let i = 0; i < 9; i++) out[o + OBB_AXES + i] = IDENTITY_AXES[i];
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
   * Copies the distinct mesh vertices of triangles first .. first + count - 1 into `scratch.points`
   * and returns how many: on a shared-vertex mesh about a sixth of the corners, which is what the
   * minimal-sphere search costs in.
   */
  private gatherVertices(first: number, count: number): number {
    const stamp = scratch.vertexStamp, out = scratch.points, ids = this.ids, positions = this.positions, indices = this.indices;
    const gathering = ++this.gathers;
    let n = 0;
    for (let t = first; t < first + count; t++) {
      const id = ids[t];
      for (let k = 0; k < 3; k++) {
        const v = indices[3 * id + k];
        if (stamp[v] === gathering) continue;
        stamp[v] = gathering;
        out[n++] = positions[3 * v]; out[n++] = positions[3 * v + 1]; out[n++] = positions[3 * v + 2];
      }
    }
    return n / 3;
  }

  /**
   * The smallest box around one triangle, with its longest edge as first axis and its normal as
   * third: a rectangle holding a triangle has at least twice its area, and the rectangle on the
   * longest edge has exactly that (the opposite corner projects inside that edge, the angles at
   * its ends being acute). Returns false for a zero-area triangle (no normal).
   */
  private fitSingleTriangle(o: number, t: number): boolean {
    const p = this.tris, q = 9 * t, axes = this.axes;
    // Edges 0→1, 1→2, 2→0; the longest (the first on ties) becomes the first axis.
    const e0x = p[q + 3] - p[q], e0y = p[q + 4] - p[q + 1], e0z = p[q + 5] - p[q + 2];
    const e1x = p[q + 6] - p[q + 3], e1y = p[q + 7] - p[q + 4], e1z = p[q + 8] - p[q + 5];
    const e2x = p[q] - p[q + 6], e2y = p[q + 1] - p[q + 7], e2z = p[q + 2] - p[q + 8];
    let nx = e2y * e0z - e2z * e0y, ny = e2z * e0x - e2x * e0z, nz = e2x * e0y - e2y * e0x;
    // sqrt of the sum of squares, not Math.hypot (several times slower in V8): squares of mesh
    // coordinates are far from overflow.
    const nLen = Math.sqrt(nx * nx + ny * ny + nz * nz);
    if (!(nLen > 0)) return false;
    nx /= nLen; ny /= nLen; nz /= nLen;
    const l0 = e0x * e0x + e0y * e0y + e0z * e0z, l1 = e1x * e1x + e1y * e1y + e1z * e1z, l2 = e2x * e2x + e2y * e2y + e2z * e2z;
    let ex = e0x, ey = e0y, ez = e0z, len = l0;
    if (l1 > len) { ex = e1x; ey = e1y; ez = e1z; len = l1; }
    if (l2 > len) { ex = e2x; ey = e2y; ez = e2z; len = l2; }
    len = Math.sqrt(len);
    ex /= len; ey /= len; ez /= len;
    // Second axis n × e, so (e, n × e, n) is right-handed.
    axes[0] = ex; axes[1] = ey; axes[2] = ez;
    axes[3] = ny * ez - nz * ey; axes[4] = nz * ex - nx * ez; axes[5] = nx * ey - ny * ex;
    axes[6] = nx; axes[7] = ny; axes[8] = nz;
    this.boxFromAxes(o, 3, q);
    return true;
  }

  /**
   * Splits triangles first .. first + count - 1 (count >= 2) into two non-empty runs and returns
   * the size of the left one. Tries the node's axes by decreasing extent; a rule that would leave
   * a side empty moves on to the next axis, and identical centroids split by position.
   */
  split(node: number, first: number, count: number): number {
    if (this.options.split !== 'median' || this.boxedSums) {
      if (this.summedNode !== node) this.sumRange(node, first, count);
    }
    this.sortAxesByExtent(node);
    if (this.options.split === 'median') return this.splitMedian(node, first, count);
    this.splitPoint(first, count);
    const mean = this.mean;
    for (let k = 0; k < 3; k++) {
      const a = this.order[k];
      const ax = this.axisComponent(node, a, 0), ay = this.axisComponent(node, a, 1), az = this.axisComponent(node, a, 2);
      // An empty side leaves the run untouched (the scan finds nothing to swap).
      const left = this.partition(first, count, a, ax, ay, az, ax * mean[0] + ay * mean[1] + az * mean[2]) - first;
      if (left > 0 && left < count) return left;
    }
    return count >> 1;
  }

  /** Axis `a` component `c` of the node's split frame (its own axes; world axes for spheres). */
  private axisComponent(node: number, a: number, c: number): number {
    return this.boxes[node * OBB_STRIDE + OBB_AXES + 3 * a + c];
  }

  /**
   * Fills `order` with axis numbers by decreasing extent: the node box's half-extents, or for a
   * sphere node its corners' AABB from the range sums.
   */
  private sortAxesByExtent(node: number): void {
    const h = this.extents, order = this.order, s = this.sums;
    if (this.options.kind === 'sphere') {
      for (let c = 0; c < 3; c++) h[c] = s[SUM_MAX + c] - s[SUM_MIN + c];
    } else {
      const o = node * OBB_STRIDE + OBB_HALF;
      for (let c = 0; c < 3; c++) h[c] = this.boxes[o + c];
    }
    order[0] = 0; order[1] = 1; order[2] = 2;
    for (let i = 1; i < 3; i++) {
      for (let j = i; j > 0 && h[order[j]] > h[order[j - 1]]; j--) {
        const s = order[j]; order[j] = order[j - 1]; order[j - 1] = s;
      }
    }
  }

  /**
   * The split point of the mean rules into `mean`: area-weighted surface mean ('mean', from the
   * range sums) or plain centroid mean.
   */
  private splitPoint(first: number, count: number): void {
    const s = this.sums, a = s[0], mean = this.mean;
    if (this.options.split === 'mean' && a > 0) {
      for (let c = 0; c < 3; c++) mean[c] = this.reference[c] + s[1 + c] / a;
      return;
    }
    // The centroid rule, and the fallback when only zero-area triangles remain.
    const g = this.centroids, ids = this.ids, boxed = this.boxedSums;
    let x = 0, y = 0, z = 0;
    for (let t = first, end = first + count; t < end; t++) {
      const q = 3 * (boxed ? ids[t] : t);
      x += g[q]; y += g[q + 1]; z += g[q + 2];
    }
    mean[0] = x / count; mean[1] = y / count; mean[2] = z / count;
  }

  /**
   * Moves triangles whose centroid projects below `at` on axis `a` (ax, ay, az) to the front of
   * the run and returns where the others start.
   */
  private partition(first: number, count: number, a: number, ax: number, ay: number, az: number, at: number): number {
    const g = this.centroids;
    let i = first, j = first + count - 1;
    const wasm = this.wasm;
    if (this.boxedSums) {
      // AABB and sphere nodes split on world axis a, one coordinate of the centroid, and move
      // only the ids (measured 1.02x to 1.04x faster AABB builds than moving the triangles).
      if (wasm !== null) return wasm.partitionIds(first, count, a, at, wasm.centroids.byteOffset, wasm.ids.byteOffset);
      const ids = this.ids;
      for (;;) {
        while (i <= j && g[3 * ids[i] + a] < at) i++;
        while (i <= j && !(g[3 * ids[j] + a] < at)) j--;
        if (i >= j) return i;
        const s = ids[i]; ids[i] = ids[j]; ids[j] = s;
      }
    }
    if (wasm !== null && wasm.tris !== null) return wasm.partition(first, count, ax, ay, az, at, wasm.tris.byteOffset, wasm.centroids.byteOffset, wasm.ids.byteOffset);
    for (;;) {
      while (i <= j && g[3 * i] * ax + g[3 * i + 1] * ay + g[3 * i + 2] * az < at) i++;
      while (i <= j && !(g[3 * j] * ax + g[3 * j + 1] * ay + g[3 * j + 2] * az < at)) j--;
      if (i >= j) return i;
      this.swap(i, j);
    }
  }

  /** Exchanges tree-order triangles i and j with all their per-triangle data. */
  private swap(i: number, j: number): void {
    swapRuns(this.tris, 9 * i, 9 * j, 9);
    swapRuns(this.centroids, 3 * i, 3 * j, 3);
    const ids = this.ids, s = ids[i];
    ids[i] = ids[j]; ids[j] = s;
  }

  /** Median split along the longest axis (always balanced, so no fallback is needed). */
  private splitMedian(node: number, first: number, count: number): number {
    const a = this.order[0];
    const ax = this.axisComponent(node, a, 0), ay = this.axisComponent(node, a, 1), az = this.axisComponent(node, a, 2);
    const half = count >> 1;
    const keys = scratch.keys, tags = scratch.tags, g = this.centroids, ids = this.ids, boxed = this.boxedSums;
    for (let i = 0; i < count; i++) {
      const q = 3 * (boxed ? ids[first + i] : first + i);
      keys[i] = g[q] * ax + g[q + 1] * ay + g[q + 2] * az;
      tags[i] = i;
    }
    selectByKey(keys, tags, 0, count, half);
    // Apply the permutation through a copy of the run (ids, and for OBB builds triangles and centroids).
    const copy = scratch.copy;
    const cOff = 9 * count, idOff = 12 * count;
    for (let i = 0; i < count; i++) copy[idOff + i] = ids[first + i];
    for (let i = 0; i < count; i++) ids[first + i] = copy[idOff + tags[i]];
    if (boxed) return half;
    copy.set(this.tris.subarray(9 * first, 9 * (first + count)), 0);
    copy.set(g.subarray(3 * first, 3 * (first + count)), cOff);
    for (let i = 0; i < count; i++) {
      const s = tags[i], d = first + i;
      for (let k = 0; k < 9; k++) this.tris[9 * d + k] = copy[9 * s + k];
      for (let k = 0; k < 3; k++) g[3 * d + k] = copy[cOff + 3 * s + k];
    }
    return half;
  }
}

/**
 * Writes tree-order triangles from .. to - 1 into `tris` (9 numbers each), triangle t being mesh
 * triangle ids[t].
 */
function copyTriangles(tris: Float64Array, ids: Uint32Array, positions: ReadonlyFloats, indices: ReadonlyFloats, from: number, to: number): void {
  for (let t = from; t < to; t++) {
    const id = ids[t];
    for (let k = 0; k < 3; k++) {
      const v = 3 * indices[3 * id + k], o = 9 * t + 3 * k;
      tris[o] = positions[v]; tris[o + 1] = positions[v + 1]; tris[o + 2] = positions[v + 2];
    }
  }
}

/**
 * Largest |a[i]| over from <= i < to (to - from a multiple of 3; NaN when one is not a number),
 * with one running maximum per coordinate: a single one chains every maximum on the last
 * (AABB builds measured 1.02x to 1.08x faster when their triangle copy dropped that chain).
 */
function largestMagnitude(a: Float64Array, from: number, to: number): number {
  let x = 0, y = 0, z = 0;
  for (let i = from; i < to; i += 3) {
    x = Math.max(x, Math.abs(a[i])); y = Math.max(y, Math.abs(a[i + 1])); z = Math.max(z, Math.abs(a[i + 2]));
  }
  return Math.max(x, y, z);
}

/** Exchanges a[i .. i + n) and a[j .. j + n). */
function swapRuns(a: Float64Array, i: number, j: number, n: number): void {
  for (let k = 0; k < n; k++) {
    const s = a[i + k]; a[i + k] = a[j + k]; a[j + k] = s;
  }
}

/**
 * Writes at node `at` of `out` the absolute box number `child` of `childBoxes` expressed in the
 * frame of the absolute box number `parent` of `parentBoxes`.
 */
export function toParentFrame(out: Float64Array, at: number, parentBoxes: Float64Array, parent: number, childBoxes: Float64Array, child: number): void {
  const p = parent * OBB_STRIDE, c = child * OBB_STRIDE, o = at * OBB_STRIDE;
  const dx = childBoxes[c] - parentBoxes[p], dy = childBoxes[c + 1] - parentBoxes[p + 1], dz = childBoxes[c + 2] - parentBoxes[p + 2];
  for (let i = 0; i < 3; i++) {
    const ui = p + OBB_AXES + 3 * i;
    const ux = parentBoxes[ui], uy = parentBoxes[ui + 1], uz = parentBoxes[ui + 2];
    out[o + OBB_CENTER + i] = ux * dx + uy * dy + uz * dz;
    for (let j = 0; j < 3; j++) {
      const vj = c + OBB_AXES + 3 * j;
      out[o + OBB_AXES + 3 * j + i] = ux * childBoxes[vj] + uy * childBoxes[vj + 1] + uz * childBoxes[vj + 2];
    }
    out[o + OBB_HALF + i] = childBoxes[c + OBB_HALF + i];
  }
}

/** Half-diagonal of absolute box number `node` of `boxes`. */
export function boxSize(boxes: Float64Array, node: number): number {
  const h = node * OBB_STRIDE + OBB_HALF;
  return Math.sqrt(boxes[h] * boxes[h] + boxes[h + 1] * boxes[h + 1] + boxes[h + 2] * boxes[h + 2]);
}

/**
 * Builds the subtree over triangles first .. first + count - 1 top-down into `out` (its root node
 * 0, then nodes numbered as they are made, each left subtree before its sibling) and returns its
 * node count; its depth is left in `builder.depth`. `pending` and `levels` hold at least count + 1
 * entries. Nothing that needs type feedback follows the long loop here or in the other passes: V8
 * compiles a function's first long loop while it runs, and code past the loop that had never run
 * made that compiled loop bail out again at every later build.
 */
export function grow(builder: Builder, out: NodeArrays, pending: Int32Array, levels: Int32Array, first: number, count: number, maxLeaf: number): number {
  const children = out.children, firstTriangle = out.firstTriangle, nodeTriangleCount = out.nodeTriangleCount;
  builder.begin(out.boxes);
  firstTriangle[0] = first;
  nodeTriangleCount[0] = count;
  pending[0] = 0;
  levels[0] = 0;
  let nodeCount = 1, pendingCount = 1;
  while (pendingCount > 0) {
    const level = levels[--pendingCount];
    const node = pending[pendingCount];
    const first = firstTriangle[node], count = nodeTriangleCount[node];
    builder.fit(node, first, count);
    children[node] = -1;
    if (count <= maxLeaf) continue;
    const left = builder.split(node, first, count);
    const l = nodeCount;
    nodeCount += 2;
    children[node] = l;
    firstTriangle[l] = first;
    nodeTriangleCount[l] = left;
    firstTriangle[l + 1] = first + left;
    nodeTriangleCount[l + 1] = count - left;
    if (level + 1 > builder.depth) builder.depth = level + 1;
    // Left on top of the stack, so each subtree is finished before its sibling starts.
    levels[pendingCount] = level + 1;
    pending[pendingCount++] = l + 1;
    levels[pendingCount] = level + 1;
    pending[pendingCount++] = l;
  }
  return nodeCount;
}

/** Writes every node's volume in its parent's frame (the root's as it is) and its half-diagonal. */
export function writeNodes(nodes: Float64Array, sizes: Float64Array, boxes: Float64Array, children: Int32Array, nodeCount: number): void {
  for (let k = 0; k < OBB_STRIDE; k++) nodes[k] = boxes[k];
  for (let i = 0; i < nodeCount; i++) {
    sizes[i] = boxSize(boxes, i);
    const c = children[i];
    if (c >= 0) {
      toParentFrame(nodes, c, boxes, i, boxes, c);
      toParentFrame(nodes, c + 1, boxes, i, boxes, c + 1);
    }
  }
}

/**
 * Builds a bounding-volume tree over the triangles of a mesh: `positions` holds xyz per vertex,
 * `indices` three vertex indices per triangle. Top-down: each node's volume is fitted to its
 * triangles (OBB by `options.fit`, or AABB, or minimal sphere), then the triangles are split by
 * their centroids along the node's longest axis at `options.split`, falling back to the other
 * axes by decreasing extent when a side would be empty; a node with at most
 * `options.maxLeafTriangles` triangles is a leaf. Zero-area triangles are allowed. Work arrays
 * (about 400 bytes per triangle, 500 with the median split) are kept by the module for the next
 * build.
 * Throws CollideInputError on an empty mesh, an index count not a multiple of 3, indices out of
 * range, non-finite referenced vertices or bad options.
 */
export function buildBoundingTree(positions: ReadonlyFloats, indices: ReadonlyFloats, options: BoundingTreeOptions = {}): BoundingTree {
  const opts = checkTreeInput(positions, indices, options);
  const triangleCount = indices.length / 3;
  const wasm = wasmArenaFor(opts, triangleCount, positions.length);
  // An AABB or sphere build measures its triangles at a copy of the mesh in the arena.
  wasm?.positions?.set(positions);
  wasm?.indices?.set(indices);
  const arrays: TriangleArrays = wasm === null ? {
    tris: new Float64Array(9 * triangleCount),
    ids: new Uint32Array(triangleCount),
    centroids: scratch.centroids = atLeast(scratch.centroids, 3 * triangleCount),
    moments: scratch.moments = atLeast(scratch.moments, momentStride(opts) * triangleCount),
  } : arenaArrays(wasm, wasm.tris ?? new Float64Array(9 * triangleCount));
  try {
    const builder = new Builder(positions, indices, opts, arrays);
    const maxAbs = builder.prepare(0, triangleCount);
    checkCoordinates(maxAbs, positions, indices);
    builder.warmUp(0, triangleCount);
    const out = nodeScratch(2 * triangleCount - 1);
    const stack = buildStack(triangleCount);
    const nodeCount = grow(builder, out, stack.pending, stack.levels, 0, triangleCount, opts.maxLeafTriangles);
    builder.placeTriangles(0, triangleCount);
    // Arrays in the WebAssembly memory are the arena's, reused by the next build: the tree gets copies.
    const ids = wasm === null ? arrays.ids : arrays.ids.slice();
    const tris = wasm?.tris ? wasm.tris.slice() : arrays.tris;
    return finishTree(opts.kind, out, nodeCount, builder.depth, tris, ids, maxAbs);
  } finally {
    if (wasm !== null) releaseTreeBuildArena();
  }
}

/** The checked options of a build; throws CollideInputError for bad options or mesh indices. */
export function checkTreeInput(positions: ReadonlyFloats, indices: ReadonlyFloats, options: BoundingTreeOptions): Required<BoundingTreeOptions> {
  const opts = readOptions(options);
  validateIndices(positions, indices);
  return opts;
}

/**
 * Throws CollideInputError naming the first bad vertex unless `maxAbs`, the largest |coordinate|
 * of the mesh's triangles (NaN propagates through the maximum), is within MAX_COORDINATE.
 */
export function checkCoordinates(maxAbs: number, positions: ReadonlyFloats, indices: ReadonlyFloats): void {
  if (!(maxAbs <= MAX_COORDINATE)) refuseCoordinates(positions, indices);
}

/** The module's node arrays, for at least `maxNodes` nodes. */
function nodeScratch(maxNodes: number): NodeArrays {
  const boxes = scratch.boxes = atLeast(scratch.boxes, OBB_STRIDE * maxNodes);
  const children = scratch.children = atLeast(scratch.children, maxNodes);
  const firstTriangle = scratch.firstTriangle = atLeast(scratch.firstTriangle, maxNodes);
  const nodeTriangleCount = scratch.nodeTriangleCount = atLeast(scratch.nodeTriangleCount, maxNodes);
  return { boxes, children, firstTriangle, nodeTriangleCount };
}

/** The module's build stack (grow's `pending` and `levels`) for subtrees of up to `triangleCount` triangles. */
export function buildStack(triangleCount: number): { pending: Int32Array; levels: Int32Array } {
  // The stack never holds more than one node per level plus one.
  scratch.stack = atLeast(scratch.stack, triangleCount + 1);
  scratch.stackLevels = atLeast(scratch.stackLevels, triangleCount + 1);
  return { pending: scratch.stack, levels: scratch.stackLevels };
}

/** A tree's node arrays (see BoundingTree): volumes in the parent's frame, half-diagonals, left children, triangle runs. */
export interface TreeNodes {
  nodes: Float64Array;
  sizes: Float64Array;
  children: Int32Array;
  firstTriangle: Int32Array;
  nodeTriangleCount: Int32Array;
}

/** Fresh node arrays for `nodeCount` nodes. */
export function createTreeNodes(nodeCount: number): TreeNodes {
  return {
    nodes: new Float64Array(nodeCount * TREE_NODE_STRIDE),
    sizes: new Float64Array(nodeCount),
    children: new Int32Array(nodeCount),
    firstTriangle: new Int32Array(nodeCount),
    nodeTriangleCount: new Int32Array(nodeCount),
  };
}

/**
 * The tree of the `nodeCount` nodes in `built` (absolute volumes, built in grow's numbering), its
 * depth, its triangles and ids in tree order and the largest |coordinate|.
 */
function finishTree(kind: BoundingNodeKind, built: NodeArrays, nodeCount: number, depth: number, tris: Float64Array, ids: Uint32Array, maxAbs: number): BoundingTree {
  const nodes = new Float64Array(nodeCount * TREE_NODE_STRIDE);
  const sizes = new Float64Array(nodeCount);
  writeNodes(nodes, sizes, built.boxes, built.children, nodeCount);
  const tree = {
    nodes,
    sizes,
    children: built.children.slice(0, nodeCount),
    firstTriangle: built.firstTriangle.slice(0, nodeCount),
    nodeTriangleCount: built.nodeTriangleCount.slice(0, nodeCount),
  };
  return treeOf(kind, tree, depth, tris, ids, maxAbs);
}

/** The tree of finished node arrays, its depth, its triangles and ids in tree order and the largest |coordinate|. */
export function treeOf(kind: BoundingNodeKind, t: TreeNodes, depth: number, tris: Float64Array, ids: Uint32Array, maxAbs: number): BoundingTree {
  return {
    kind,
    nodeCount: t.sizes.length,
    triangleCount: ids.length,
    depth,
    nodes: t.nodes,
    children: t.children,
    firstTriangle: t.firstTriangle,
    nodeTriangleCount: t.nodeTriangleCount,
    sizes: t.sizes,
    triangles: tris,
    triangleIds: ids,
    scale: maxAbs + t.sizes[0],
  };
}
