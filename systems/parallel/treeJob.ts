/**
 * Mesh tree builds on the worker pool (src/tree/splitBuild.ts): the threads copy and measure the
 * triangles by chunks, the calling thread splits the top nodes, the threads grow the subtrees,
 * and the calling thread assembles them. The tree is the one buildBoundingTree makes, to the bit.
 * Chunks and subtrees are claimed one at a time (an atomic counter per job), so the work goes to
 * the threads that run: a worker that wakes late, on a busy machine, finds it done instead of
 * holding the build up with a fixed share.
 */
import {
  Builder, arenaArrays, buildStack, checkCoordinates, checkTreeInput, createTreeNodes, momentStride, treeOf, wasmArenaFor,
  type BoundingNodeKind, type TriangleArrays, type BoundingTree, type BoundingTreeOptions, type ObbNodeFit, type TreeSplitRule,
} from '../../src/tree/build';
import { SplitBuild, growSubtrees, PLAN_STRIDE, SUBTREES_PER_PART } from '../../src/tree/splitBuild';
import { OBB_STRIDE, type ReadonlyFloats } from '../../src/layout';
import { allocate, allocateLike, type SharableArray } from '../../src/sharedMemory';
import { releaseTreeBuildArena, treeBuildWasmAvailable } from '../../src/wasm/treeBuild';
import type { WorkerPool } from './pool';
import { JOB_TREE_GROW, JOB_TREE_PREPARE, TREE_ARRAYS } from './protocol';

/**
 * Triangles from which a pipeline's buildMeshTree runs on the pool. Two threads built the
 * 10,000-triangle knot 1.3x to 1.75x faster than one with the second core free; the pooled
 * build's fixed costs (two wake-ups, the input copy, placing the subtrees: about 0.15 ms) put the
 * break-even near 1,000 to 2,000 triangles, not measured on a quiet machine, so this leaves a
 * margin (docs/design/trees.md).
 */
export const PARALLEL_MIN_TREE_TRIANGLES = 4096;

/** The shared arrays of a pooled build: the mesh, the per-triangle arrays, the grown subtrees' nodes, the plan. */
export interface TreeBuffers {
  positions: Float64Array;
  indices: Uint32Array;
  tris: Float64Array;
  ids: Uint32Array;
  centroids: Float64Array;
  moments: Float64Array;
  boxes: Float64Array;
  children: Int32Array;
  firstTriangle: Int32Array;
  nodeTriangleCount: Int32Array;
  /** The grown nodes in their parents' frames, and their half-diagonals. */
  framed: Float64Array;
  sizes: Float64Array;
  /** Subtrees (splitBuild's PLAN_STRIDE numbers each), largest first. */
  plan: Int32Array;
  /** Next chunk of the triangles to prepare, next subtree to grow: claimed with Atomics.add. */
  claims: Int32Array;
  /** The build's options and sizes (PARAM_*), then per chunk its triangles' largest |coordinate|. */
  params: Float64Array;
}

const PARAM_KIND = 0;
const PARAM_FIT = 1;
const PARAM_SPLIT = 2;
const PARAM_LEAF = 3;
const PARAM_TRIANGLES = 4;
const PARAM_POSITIONS = 5;
const PARAM_SUBTREES = 6;
/** 1 when the calling thread has the WebAssembly kernels on (setTreeBuildWasm), so the workers follow it. */
const PARAM_WASM = 7;
const PARAM_MAX_ABS = 8;
const CLAIM_CHUNK = 0;
const CLAIM_SUBTREE = 1;
/** Chunks of the triangles' preparation per thread: small enough for a late thread to leave its share to the others. */
const CHUNKS_PER_PART = 4;

const KINDS: BoundingNodeKind[] = ['obb', 'aabb', 'sphere'];
const FITS: ObbNodeFit[] = ['covariance', 'hull', 'dito'];
const SPLITS: TreeSplitRule[] = ['mean', 'centroid', 'median'];

/** Empty buffers, on SharedArrayBuffers when `shared` (the calling thread's; a worker's are bound when a build shares them). */
export function createTreeBuffers(shared: boolean): TreeBuffers {
  return {
    positions: allocate(Float64Array, 0, shared), indices: allocate(Uint32Array, 0, shared), tris: allocate(Float64Array, 0, shared),
    ids: allocate(Uint32Array, 0, shared), centroids: allocate(Float64Array, 0, shared), moments: allocate(Float64Array, 0, shared),
    boxes: allocate(Float64Array, 0, shared), children: allocate(Int32Array, 0, shared), firstTriangle: allocate(Int32Array, 0, shared),
    nodeTriangleCount: allocate(Int32Array, 0, shared), framed: allocate(Float64Array, 0, shared), sizes: allocate(Float64Array, 0, shared), plan: allocate(Int32Array, 0, shared), claims: allocate(Int32Array, 0, shared),
    params: allocate(Float64Array, 0, shared),
  };
}

/** The build's options, from the params. */
function optionsOf(b: TreeBuffers): Required<BoundingTreeOptions> {
  const p = b.params;
  return { kind: KINDS[p[PARAM_KIND]], fit: FITS[p[PARAM_FIT]], split: SPLITS[p[PARAM_SPLIT]], maxLeafTriangles: p[PARAM_LEAF] };
}

/** A builder over the buffers' mesh and arrays (or, when given, arrays of its own), with the build's options. */
function builderOf(b: TreeBuffers, arrays: TriangleArrays = b): Builder {
  const p = b.params, n = p[PARAM_TRIANGLES];
  return new Builder(b.positions.subarray(0, p[PARAM_POSITIONS]), b.indices.subarray(0, 3 * n), optionsOf(b), arrays);
}

/** Copies and measures the triangles of the chunks this thread claims, each chunk's largest |coordinate| into the params. */
function prepareChunks(builder: Builder, b: TreeBuffers, chunks: number): void {
  const n = b.params[PARAM_TRIANGLES];
  for (let c = Atomics.add(b.claims, CLAIM_CHUNK, 1); c < chunks; c = Atomics.add(b.claims, CLAIM_CHUNK, 1)) {
    b.params[PARAM_MAX_ABS + c] = builder.prepare(Math.floor((n * c) / chunks), Math.floor((n * (c + 1)) / chunks));
  }
}

/**
 * Grows the subtrees this thread claims: in this thread's WebAssembly arena where the kernels
 * load and the calling thread has them on (each subtree's run borrowed from the shared arrays and
 * returned), else with `builder` on the shared arrays.
 */
function growClaimed(builder: Builder, b: TreeBuffers): void {
  const n = b.params[PARAM_TRIANGLES];
  const stack = buildStack(n);
  const arena = b.params[PARAM_WASM] === 1 ? wasmArenaFor(optionsOf(b), n) : null;
  const grower = arena === null ? builder : builderOf(b, arenaArrays(arena, b.tris));
  try {
    growSubtrees(grower, b, { nodes: b.framed, sizes: b.sizes }, b.plan, b.params[PARAM_SUBTREES], b.claims.subarray(CLAIM_SUBTREE), b.params[PARAM_LEAF], stack.pending, stack.levels, arena === null ? null : b);
  } finally {
    if (arena !== null) releaseTreeBuildArena();
  }
}

/** Runs a worker's part of a tree job. */
export function treeWorkerPart(b: TreeBuffers, job: number, parts: number): void {
  const builder = builderOf(b);
  if (job === JOB_TREE_PREPARE) prepareChunks(builder, b, CHUNKS_PER_PART * parts);
  else growClaimed(builder, b);
}

/** `a` if it holds n entries, else a new array like it (shared as it is) with n and room to grow. */
function sharedAtLeast<T extends SharableArray>(a: T, n: number): T {
  return a.length >= n ? a : allocateLike(a, Math.max(n, Math.ceil(1.25 * a.length)));
}

/** A tree build on the pool: buildBoundingTree's arguments and result. */
export type PooledTreeBuild = (positions: ReadonlyFloats, indices: ReadonlyFloats, options: BoundingTreeOptions) => BoundingTree;

/** Pooled tree builds on `pool`. */
export function createTreeJobs(pool: WorkerPool): PooledTreeBuild {
  const b = createTreeBuffers(true);
  const split = new SplitBuild();
  const parts = pool.workerCount + 1, chunks = CHUNKS_PER_PART * parts;
  return (positions, indices, options) => {
    const opts = checkTreeInput(positions, indices, options);
    const n = indices.length / 3, maxNodes = 2 * n - 1;
    b.positions = sharedAtLeast(b.positions, positions.length);
    b.indices = sharedAtLeast(b.indices, 3 * n);
    b.tris = sharedAtLeast(b.tris, 9 * n);
    b.ids = sharedAtLeast(b.ids, n);
    b.centroids = sharedAtLeast(b.centroids, 3 * n);
    b.moments = sharedAtLeast(b.moments, momentStride(opts) * n);
    b.boxes = sharedAtLeast(b.boxes, OBB_STRIDE * maxNodes);
    b.children = sharedAtLeast(b.children, maxNodes);
    b.firstTriangle = sharedAtLeast(b.firstTriangle, maxNodes);
    b.nodeTriangleCount = sharedAtLeast(b.nodeTriangleCount, maxNodes);
    b.framed = sharedAtLeast(b.framed, OBB_STRIDE * maxNodes);
    b.sizes = sharedAtLeast(b.sizes, maxNodes);
    b.plan = sharedAtLeast(b.plan, PLAN_STRIDE * SUBTREES_PER_PART * parts);
    b.claims = sharedAtLeast(b.claims, 2);
    b.params = sharedAtLeast(b.params, PARAM_MAX_ABS + chunks);
    for (const name of TREE_ARRAYS) pool.share(`tree.${name}`, b[name]);
    b.positions.set(positions);
    b.indices.set(indices);
    const p = b.params;
    p[PARAM_KIND] = KINDS.indexOf(opts.kind);
    p[PARAM_FIT] = FITS.indexOf(opts.fit);
    p[PARAM_SPLIT] = SPLITS.indexOf(opts.split);
    p[PARAM_LEAF] = opts.maxLeafTriangles;
    p[PARAM_TRIANGLES] = n;
    p[PARAM_POSITIONS] = positions.length;
    p[PARAM_WASM] = treeBuildWasmAvailable() ? 1 : 0;
    b.claims.fill(0);
    const builder = builderOf(b);
    pool.run(JOB_TREE_PREPARE, n, 0, 0, 0, () => prepareChunks(builder, b, chunks));
    let maxAbs = 0;
    for (let c = 0; c < chunks; c++) maxAbs = Math.max(maxAbs, p[PARAM_MAX_ABS + c]);
    checkCoordinates(maxAbs, positions, indices);
    builder.warmUp(0, n);
    p[PARAM_SUBTREES] = split.splitTop(builder, n, opts.maxLeafTriangles, parts, b.plan);
    pool.run(JOB_TREE_GROW, parts, 0, 0, 0, () => growClaimed(builder, b));
    const nodes = createTreeNodes(split.nodeCount(b.plan));
    const depth = split.assemble(nodes, b, { nodes: b.framed, sizes: b.sizes }, b.plan);
    // The tree's own arrays, not shared: copies of the shared ones.
    return treeOf(opts.kind, nodes, depth, b.tris.slice(0, 9 * n), b.ids.slice(0, n), maxAbs);
  };
}
