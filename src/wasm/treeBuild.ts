/**
 * The bounding-tree builder's hottest loops in WebAssembly (treeBuild.wat): the range sums over a
 * node's triangles and the projection of its corners on an OBB node's axes, in 128-bit SIMD, the
 * partitions of a node's triangles, and an AABB or sphere build's measuring of its triangles.
 * They give the numbers of the JavaScript loops (Builder.sumRange, obbFromAxes,
 * Builder.partition, Builder.measure) to the bit; those loops stay the fallback where
 * WebAssembly, its SIMD instructions or its compilation (a page's Content-Security-Policy) are
 * not available.
 */
import { TREE_BUILD_WASM } from './treeBuildBytes';

/** Which record a build's range sums read (see momentStride in src/tree/build.ts). */
export type TreeSumsKind = 'meanBoxes' | 'boxes' | 'covariance';

/** Numbers per triangle record of each kind. */
const RECORD_NUMBERS: Record<TreeSumsKind, number> = { meanBoxes: 10, boxes: 6, covariance: 10 };

/** Doubles of the sums (Builder's sums layout: ten moments, min, max). */
const SUM_NUMBERS = 16;

/**
 * Memory kept between builds, so a build of a large mesh does not hold its size for the life of
 * the page: an arena past it is dropped after its build.
 */
const KEPT_BYTES = 64 << 20;

type SumKernel = (ids: number, first: number, end: number, moments: number, sums: number) => void;
type ProjectKernel = (points: number, count: number, axes: number, extents: number) => void;
type MeasureKernel = (first: number, end: number, positions: number, indices: number, reference: number, centroids: number, records: number, stride: number, moments: number) => number;
type IdPartitionKernel = (first: number, count: number, axis: number, at: number, centroids: number, ids: number) => number;
type PartitionKernel = (first: number, count: number, ax: number, ay: number, az: number, at: number, tris: number, centroids: number, ids: number) => number;

/**
 * One build's arrays inside the module's memory and the kernels over them, which take the arrays
 * as byte offsets (their `byteOffset`). Valid until `releaseTreeBuildArena`; the next arena may
 * grow (and so detach) the memory.
 */
export interface TreeBuildArena {
  readonly ids: Uint32Array;
  readonly moments: Float64Array;
  readonly sums: Float64Array;
  /** Covariance OBB builds: the triangles in tree order, 9 numbers each; else null. */
  readonly tris: Float64Array | null;
  /** The centroids, 3 numbers each: in tree order for covariance OBB builds, else in mesh order. */
  readonly centroids: Float64Array;
  /** An OBB node's axes, one after the other, for `project`. */
  readonly axes: Float64Array;
  /** `project`'s result: the min on each axis, then the max. */
  readonly extents: Float64Array;
  /** The moments' reference point (Builder's), for `measure`. */
  readonly reference: Float64Array;
  /** A one-thread AABB or sphere build's copy of the mesh's vertices, for `measure`; else null. */
  readonly positions: Float64Array | null;
  /** That build's copy of the mesh's corner indices; else null. */
  readonly indices: Uint32Array | null;
  /** Sums triangles ids[first .. end - 1] into `sums`: sum(ids, first, end, moments, sums). */
  readonly sum: SumKernel;
  /** Projects `count` points at byte `points` on `axes` into `extents`: project(points, count, axes, extents). */
  readonly project: ProjectKernel;
  /**
   * Builder.partition of a covariance OBB build, moving triangles, centroids and ids:
   * partition(first, count, ax, ay, az, at, tris, centroids, ids).
   */
  readonly partition: PartitionKernel;
  /**
   * Builder.partition of an AABB or sphere build, moving ids only:
   * partitionIds(first, count, axis, at, centroids, ids).
   */
  readonly partitionIds: IdPartitionKernel;
  /**
   * Builder.measure of triangles from .. to - 1 at the copied vertices, returning their largest
   * |coordinate|: measure(from, to, positions, indices, reference, centroids, moments, record
   * bytes, 1 with the 'mean' moments else 0).
   */
  readonly measure: MeasureKernel;
}

interface Loaded {
  memory: WebAssembly.Memory;
  sums: Record<TreeSumsKind, SumKernel>;
  project: ProjectKernel;
  partition: PartitionKernel;
  partitionIds: IdPartitionKernel;
  measure: MeasureKernel;
}

let loaded: Loaded | null | undefined;
let enabled = true;

function load(): Loaded | null {
  if (loaded !== undefined) return loaded;
  try {
    const bytes = Uint8Array.from(atob(TREE_BUILD_WASM), (c) => c.charCodeAt(0));
    const memory = new WebAssembly.Memory({ initial: 1 });
    const exports = new WebAssembly.Instance(new WebAssembly.Module(bytes), { env: { memory } }).exports;
    loaded = {
      memory,
      sums: { meanBoxes: exports.sumMeanBoxes as SumKernel, boxes: exports.sumBoxes as SumKernel, covariance: exports.sumCovariance as SumKernel },
      project: exports.projectPoints as ProjectKernel,
      partition: exports.partitionTriangles as PartitionKernel,
      partitionIds: exports.partitionIds as IdPartitionKernel,
      measure: exports.measureTriangles as MeasureKernel,
    };
  } catch {
    loaded = null;
  }
  return loaded;
}

/**
 * Whether tree builds use the WebAssembly kernels (default true, where they load); false keeps
 * every build on the JavaScript loops, which give the same trees. A pooled build's threads follow
 * the setting of the thread that calls it.
 */
export function setTreeBuildWasm(use: boolean): void {
  enabled = use;
}

/** Whether the WebAssembly kernels are on and loaded on this platform. */
export function treeBuildWasmAvailable(): boolean {
  return enabled && load() !== null;
}

/**
 * The arena for a build of `triangles` triangles whose range sums are of `kind`, the memory grown
 * to hold it (and the triangles, for covariance OBB builds, or a copy of the mesh's
 * `positionCount` vertex coordinates and its indices, for AABB and sphere builds that measure in
 * it; 0 for none); null when the kernels are off or unavailable, or the memory cannot grow.
 */
export function treeBuildArena(triangles: number, kind: TreeSumsKind, positionCount = 0): TreeBuildArena | null {
  const wasm = enabled ? load() : null;
  if (wasm === null) return null;
  const sumsAt = 0, axesAt = 8 * SUM_NUMBERS, extentsAt = axesAt + 8 * 9, referenceAt = extentsAt + 8 * 6, idsAt = referenceAt + 8 * 3;
  // Records start 16-byte aligned, as the kernels' 128-bit loads prefer.
  const momentsAt = (idsAt + 4 * triangles + 15) & ~15;
  const trisAt = momentsAt + 8 * RECORD_NUMBERS[kind] * triangles;
  // OBB builds move their triangles and centroids as nodes split; the others only the ids.
  const moved = kind === 'covariance' ? triangles : 0;
  const centroidsAt = trisAt + 72 * moved;
  const copied = kind === 'covariance' ? 0 : positionCount;
  const positionsAt = centroidsAt + 24 * triangles;
  const indicesAt = (positionsAt + 8 * copied + 15) & ~15;
  const bytes = indicesAt + (copied > 0 ? 12 * triangles : 0);
  const memory = wasm.memory;
  try {
    const missing = bytes - memory.buffer.byteLength;
    if (missing > 0) memory.grow(Math.ceil(missing / 65536));
  } catch {
    return null;
  }
  const buffer = memory.buffer;
  return {
    ids: new Uint32Array(buffer, idsAt, triangles),
    moments: new Float64Array(buffer, momentsAt, RECORD_NUMBERS[kind] * triangles),
    sums: new Float64Array(buffer, sumsAt, SUM_NUMBERS),
    tris: moved > 0 ? new Float64Array(buffer, trisAt, 9 * moved) : null,
    centroids: new Float64Array(buffer, centroidsAt, 3 * triangles),
    axes: new Float64Array(buffer, axesAt, 9),
    extents: new Float64Array(buffer, extentsAt, 6),
    reference: new Float64Array(buffer, referenceAt, 3),
    positions: copied > 0 ? new Float64Array(buffer, positionsAt, copied) : null,
    indices: copied > 0 ? new Uint32Array(buffer, indicesAt, 3 * triangles) : null,
    sum: wasm.sums[kind],
    project: wasm.project,
    partition: wasm.partition,
    partitionIds: wasm.partitionIds,
    measure: wasm.measure,
  };
}

/** Ends a build's use of its arena: drops the memory when that build grew it past KEPT_BYTES. */
export function releaseTreeBuildArena(): void {
  if (loaded && loaded.memory.buffer.byteLength > KEPT_BYTES) loaded = undefined;
}
