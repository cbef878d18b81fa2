/**
 * What the calling thread and its workers agree on: the layout of the shared control block, the
 * job kinds, and how a job's items are split. The control block is one SharedArrayBuffer: an
 * Int32 header that Atomics waits and wakes on, Float64 slots (a parameter, the parts' bounds,
 * the parts' durations), and the text of the last error a worker caught.
 */

/** Most worker threads a pool starts. */
export const MAX_WORKERS = 64;
/** Most parts of a job: one per worker and the calling thread's. */
export const MAX_PARTS = MAX_WORKERS + 1;

/** Int32 slots of the control header. */
export const CTRL_SEQUENCE = 0; // bumped by the caller to start a job; workers wait on it
export const CTRL_DONE = 1; // workers that finished the current job
export const CTRL_ERROR = 2; // 1 when a worker caught an error in the current job
export const CTRL_JOB = 3; // JOB_* kind of the current job
export const CTRL_BINDINGS = 4; // version of the arrays the job reads (see Bindings)
export const CTRL_COUNT = 5; // items of the job (candidates, colliders)
export const CTRL_ARG = 6; // a job argument (the narrow phase's current pair set)
export const CTRL_ARG2 = 7; // a second job argument (the narrow phase's previous pair count)
export const CTRL_READY = 8; // workers that have started
export const CTRL_PARTS = 9; // parts of the current job: the caller's and one per worker
export const CTRL_CHUNKS = 10; // chunks of a claimed job (0: the job is split at the bounds instead)
export const CTRL_CLAIM = 11; // the next chunk of a claimed job, taken with Atomics.add
export const CTRL_INTS = 16;
/** Float64 slots, after the header. */
export const CTRL_MARGIN = 0; // the pipeline's aabbMargin
export const CTRL_BOUNDS = 1; // MAX_PARTS + 1 slots: part p of a job covers [bounds[p], bounds[p + 1]) of its items, as fractions
export const CTRL_PART_MS = CTRL_BOUNDS + MAX_PARTS + 1; // MAX_PARTS slots: how long each worker's part of the last job took, ms
export const CTRL_QUIET_UNTIL = CTRL_PART_MS + MAX_PARTS; // the time (epochNow) until which every thread sleeps between jobs instead of polling (see lostCore)
export const CTRL_SLEPT = CTRL_QUIET_UNTIL + 1; // MAX_PARTS slots: per worker, 1 when it slept before taking the current job (its wake-up is in the job's time)
export const CTRL_FLOATS = CTRL_SLEPT + MAX_PARTS;
/** Bytes of error text (UTF-8) after the floats. */
export const CTRL_ERROR_BYTES = 2048;
export const CTRL_BYTES = 4 * CTRL_INTS + 8 * CTRL_FLOATS + CTRL_ERROR_BYTES;

/** Job kinds. */
export const JOB_STOP = 0;
export const JOB_REFIT = 1;
export const JOB_NARROW = 2;
export const JOB_BROAD = 3; // the spatial hash's scans over a run of the buckets and of the boxes
export const JOB_BUCKET_COUNT = 4; // the bucket fill's counting pass over a run of the boxes
export const JOB_BUCKET_FILL = 5; // the bucket fill's placing pass over the same run
export const JOB_CLASSIFY = 6; // the boxes' hash levels over a run of the boxes
export const JOB_HITBOXES = 7; // bone world matrices and hitboxes of a range of characters
export const JOB_HITBOX_RAYS = 8; // a prepared ray batch's range of rays against the hitboxes
export const JOB_SORT_COUNT = 9; // a radix pass's digit counts over a run of the boxes (the pass in CTRL_ARG)
export const JOB_SORT_SCATTER = 10; // the same pass's moves of that run
export const JOB_TREE_PREPARE = 11; // a tree build's copy and measure of a range of triangles
export const JOB_TREE_GROW = 12; // a tree build's subtrees of one part
export const JOB_HITBOX_RAYS_AT = 13; // a prepared batch's range of rays, in frame order, each at its own past time
export const JOB_COLLIDER_RAYS = 14; // a validated batch's range of rays against the colliders (raycastColliders per ray)
export const JOB_COLLIDER_CASTS = 15; // a validated batch's range of shape casts against the colliders (castShapeColliders per cast)
export const JOB_SWEEPS = 17; // a validated melee sweep batch's range of sweeps (sweepRange)
export const JOB_COLLIDER_OVERLAPS = 16; // a validated batch's range of overlap queries (overlapColliders per query; its hits' perQuery in CTRL_ARG2)
/** Any other kind makes a worker throw: the pool sends one when a test asks it to fail. */
export const JOB_FAIL = -1;

/** The control block's views. */
export interface Control {
  ints: Int32Array;
  floats: Float64Array;
  /** The current job's part bounds (see CTRL_BOUNDS). */
  bounds: Float64Array;
  /** Per part, how long it took in the last job, ms (written by the workers; slot 0 unused). */
  partMs: Float64Array;
  /** Per worker, 1 when it slept before taking the current job (see CTRL_SLEPT). */
  slept: Float64Array;
  errorText: Uint8Array;
}

/** The views of a control block's buffer. */
export function controlViews(buffer: SharedArrayBuffer): Control {
  const floats = new Float64Array(buffer, 4 * CTRL_INTS, CTRL_FLOATS);
  return {
    ints: new Int32Array(buffer, 0, CTRL_INTS),
    floats,
    bounds: floats.subarray(CTRL_BOUNDS, CTRL_BOUNDS + MAX_PARTS + 1),
    partMs: floats.subarray(CTRL_PART_MS, CTRL_PART_MS + MAX_PARTS),
    slept: floats.subarray(CTRL_SLEPT, CTRL_SLEPT + MAX_PARTS),
    errorText: new Uint8Array(buffer, 4 * CTRL_INTS + 8 * CTRL_FLOATS, CTRL_ERROR_BYTES),
  };
}

/**
 * First item of part `part` of `count` items split at `bounds` (fractions, see PartSplit; the last
 * part's end is 1, so the parts cover every item).
 */
export function partStart(count: number, bounds: ArrayLike<number>, part: number): number {
  return Math.floor(count * bounds[part]);
}

/**
 * Runs `each` over the chunks of the current claimed job (CTRL_CHUNKS near-equal runs of its
 * `count` items) that this thread claims, one at a time, until none is left: a thread that is
 * slower, or starts later, takes fewer.
 */
export function forClaimedChunks(ints: Int32Array, count: number, each: (from: number, to: number) => void): void {
  const chunks = ints[CTRL_CHUNKS];
  for (let c = Atomics.add(ints, CTRL_CLAIM, 1); c < chunks; c = Atomics.add(ints, CTRL_CLAIM, 1)) {
    each(Math.floor((count * c) / chunks), Math.floor((count * (c + 1)) / chunks));
  }
}

/**
 * The typed arrays a job reads and writes, by name: the stores' arrays and the jobs' own
 * buffers. Workers receive them again (with a new version) whenever one was replaced by a
 * larger array.
 */
export interface Bindings {
  version: number;
  kdopK: number;
  arrays: Record<string, ArrayBufferView>;
}

/** Names of the collider store's arrays the jobs read (and the refit writes). */
export const COLLIDER_ARRAYS = [
  'kind', 'sensor', 'local', 'world', 'aabb', 'centeredBox', 'kdop', 'kdopVertices', 'kdopVertexStart', 'kdopVertexCount', 'slot',
] as const;
/** Names of the transform store's arrays the refit reads and writes. */
export const TRANSFORM_ARRAYS = ['position', 'rotation', 'scale', 'changed', 'changedIds'] as const;
/** Names of the narrow phase's job buffers (see NarrowBuffers). */
export const NARROW_ARRAYS = ['a0', 'b0', 'axis0', 'a1', 'b1', 'axis1', 'flags', 'manifolds'] as const;
/** Names of the hitbox store's arrays the hitbox jobs read (and the update writes). */
export const HITBOX_ARRAYS = [
  'bone', 'character', 'group', 'extent', 'world', 'sphere', 'firstHitbox', 'hitboxCount', 'characterEntity', 'characterAabb', 'firstCluster', 'clusterAabb',
] as const;
/** Names of the skeleton store's arrays the hitbox update reads (and, for the world matrices, writes). */
export const SKELETON_ARRAYS = ['parent', 'character', 'translation', 'rotation', 'scale', 'world', 'firstBone', 'characterBoneCount', 'characterMatrix'] as const;
/** Names of the ray grid's arrays the ray job walks (cellSize travels in HITBOX_JOB_PARAMS). */
export const RAY_GRID_ARRAYS = ['origin', 'dims', 'cellStart', 'cellItems'] as const;
/** Names of a ray batch's arrays the ray job reads (after prepareHitboxRayBatch). */
export const RAY_BATCH_ARRAYS = ['origin', 'direction', 'limit', 'ignoreCharacter'] as const;
/** Binding of the hitbox jobs' numbers: [the ray grid's cellSize]. Their character count travels in CTRL_ARG. */
export const HITBOX_JOB_PARAMS = 'hitboxJob.params';
/** Binding of the hitbox update's first refused bone (the least over the threads' runs; NO_REFUSED_BONE when none). */
export const HITBOX_REFUSED_BONE = 'hitboxJob.refusedBone';
export const NO_REFUSED_BONE = 0x7fffffff;
/** Names of a hitbox history frame's arrays a rewound ray reads, each bound as `history.<slot>.name` (its grid's as `history.<slot>.grid.name`). */
export const HISTORY_FRAME_ARRAYS = ['world', 'sphere', 'absent', 'characterAabb', 'clusterAabb', 'sweptCharacterAabb', 'sweptClusterAabb'] as const;
/** Binding of a hitbox history's numbers: HISTORY_PARAM_* slots, then per ring slot its characters, hitboxes and grid cell size. */
export const HISTORY_PARAMS = 'history.params';
export const HISTORY_PARAM_COUNT = 0;
export const HISTORY_PARAM_NEWEST = 1;
export const HISTORY_PARAM_VERSION = 2;
export const HISTORY_PARAM_SLOTS = 3;
/** Names of a rewound batch's arrays besides the ray batch's: its rays in frame order, each ray's frame, each ray's time. */
export const REWOUND_BATCH_ARRAYS = ['order', 'frameOf', 'times'] as const;
/** Names of the collider store's arrays a world query reads besides COLLIDER_ARRAYS. */
export const QUERY_COLLIDER_ARRAYS = ['layer', 'character'] as const;
/** Names of a ray batch's arrays a collider ray job reads (each ray's fields, and its limit as the calling thread's validation wrote it). */
export const COLLIDER_RAY_BATCH_ARRAYS = ['origin', 'direction', 'mask', 'ignore', 'limit'] as const;
/** Names of a column grid's arrays its box queries read, each bound as `queryGrid<slot>.name` (slot 0: static grid or query grid, 1: dynamic grid). */
export const QUERY_GRID_ARRAYS = [
  'levelInv', 'levelBoxes', 'levelWidthX', 'bucketStart', 'entryId', 'entryColumn', 'entryLevel', 'entryFirst', 'entryLowerX', 'oversize', 'columnN', 'boxLevel',
] as const;
/**
 * Binding of a world query job's numbers: the colliders' ray bounds (6), the mesh trees and the
 * length of the mesh list, then per grid slot QUERY_GRID_PARAMS numbers (present, count, slots,
 * bottom, top, oversizeCount).
 */
export const QUERY_JOB_PARAMS = 'queryJob.params';
export const QUERY_PARAM_BOUNDS = 0;
export const QUERY_PARAM_TREES = 6;
export const QUERY_PARAM_MESH_LENGTH = 7;
export const QUERY_PARAM_GRIDS = 8;
export const QUERY_GRID_PARAMS = 6;
/** Binding of a sweep batch's numbers: SWEEP_PARAM_* slots. */
export const SWEEP_JOB_PARAMS = 'sweepJob.params';
export const SWEEP_PARAM_CHARACTERS = 0; // the motion's characterCount
export const SWEEP_PARAM_START_COUNT = 1; // its startCount
export const SWEEP_PARAM_CELL = 2; // its grid's cellSize
export const SWEEP_PARAM_STORE_CHARACTERS = 3; // the hitbox store's characterCount
export const SWEEP_PARAM_HITBOXES = 4; // the hitbox store's count
export const SWEEP_PARAM_VERSION = 5; // the motion's version: a worker's prepared-motion cache is stale when it changed
export const SWEEP_PARAMS = 6;
/** Names of a mesh tree's arrays a world query reads, each bound as `queryMesh<k>.name` for the k-th tree of the job. */
export const QUERY_TREE_ARRAYS = ['nodes', 'children', 'firstTriangle', 'nodeTriangleCount', 'sizes', 'triangles', 'triangleIds'] as const;
/** Numbers per tree in QUERY_TREE_PARAMS: its kind (index in QUERY_TREE_KINDS), node count, triangle count, depth, scale. */
export const QUERY_TREE_PARAM_STRIDE = 5;
export const QUERY_TREE_KINDS = ['obb', 'aabb', 'sphere'] as const;
/** Binding of the mesh trees' numbers (QUERY_TREE_PARAM_STRIDE per tree). */
export const QUERY_TREE_PARAMS = 'queryJob.trees';
/** Binding of the entities' tree indices (−1: no mesh), as long as the collider store's mesh list. */
export const QUERY_MESH_OF = 'queryJob.meshOf';
/** Names of a pooled tree build's arrays (see TreeBuffers), each bound as `tree.name`. */
export const TREE_ARRAYS = [
  'positions', 'indices', 'tris', 'ids', 'centroids', 'moments', 'boxes', 'children', 'firstTriangle', 'nodeTriangleCount', 'framed', 'sizes',
  'plan', 'claims', 'params',
] as const;

/**
 * A gap this long (ms) between two of a polling loop's clock reads, which come well under a
 * microsecond apart, is time the thread lost its core (to another thread, or to the host of a
 * virtual machine, which takes a few tenths of a millisecond now and then even when idle).
 */
export const DESCHEDULED_GAP_MS = 0.1;
/** Threads that lost more than this share of the time observed hold cores others want (see lostCore). */
export const CONTENDED_SHARE = 0.25;
/** lostCore judges once this much time (ms) was lost, and forgets what it saw after this much time observed. */
export const JUDGE_AFTER_LOST_MS = 20;
export const FORGET_AFTER_POLLED_MS = 500;
/** Jobs a pool runs before its threads' time is judged: the first ones run code the engine has not optimized yet, and the threads start up. */
export const JUDGE_AFTER_JOBS = 1000;
/** How long (ms) the threads sleep between jobs instead of polling once found contended. */
export const QUIET_MS = 2000;

/** Whether the pool's threads may poll between jobs now (none found them contended in the last QUIET_MS). */
export function pollingAllowed(control: Control): boolean {
  return epochNow() >= control.floats[CTRL_QUIET_UNTIL];
}

/** Makes every thread of the pool sleep between jobs for QUIET_MS. */
export function stopPolling(control: Control): void {
  control.floats[CTRL_QUIET_UNTIL] = epochNow() + QUIET_MS;
}

/** Milliseconds since the epoch, comparable between threads (each thread's performance.now() has its own origin). */
export function epochNow(): number {
  return performance.timeOrigin + performance.now();
}

/**
 * A record of [ms observed, ms of them lost] for lostCore: a worker's polling and the time it
 * lost its core in it; the calling thread's polled jobs and its waits for the workers beyond the slack.
 */
export function createPollRecord(): Float64Array {
  return new Float64Array(2);
}

/**
 * Polls ints[index] while it equals `value`, for at most `ms` milliseconds: true once it
 * changed, false when the time ran out (the caller then sleeps in Atomics.wait). Adds the time
 * polled, and the time lost to descheduling, to `record` when given.
 */
export function pollWhileEqual(ints: Int32Array, index: number, value: number, ms: number, record?: Float64Array): boolean {
  const start = performance.now(), until = start + ms;
  let last = start, lost = 0, changed = false;
  for (;;) {
    // The clock costs more than a load: read it once per 64 polls.
    for (let k = 0; k < 64 && !changed; k++) changed = Atomics.load(ints, index) !== value;
    const now = performance.now();
    if (now - last > DESCHEDULED_GAP_MS) lost += now - last;
    last = now;
    if (changed || now > until) break;
  }
  if (record !== undefined) {
    record[0] += last - start;
    record[1] += lost;
  }
  return changed;
}

/**
 * Whether a record (createPollRecord) shows the threads losing their cores: over
 * JUDGE_AFTER_LOST_MS of lost time, more than CONTENDED_SHARE of the time observed. The threads
 * should then sleep between jobs (for QUIET_MS): more threads want the cores than there are, and
 * polling takes a core from them.
 */
export function lostCore(record: Float64Array): boolean {
  if (record[1] >= JUDGE_AFTER_LOST_MS) {
    const contended = record[1] > CONTENDED_SHARE * record[0];
    record[0] = record[1] = 0;
    return contended;
  }
  if (record[0] >= FORGET_AFTER_POLLED_MS) record[0] = record[1] = 0;
  return false;
}
