import { HITBOX_ROUNDING_MARGIN_RELATIVE, RAY_GRID_BOUNDARY_SLACK } from '../tolerances';
import { RAY_INPUT_STRIDE, raycastObbArrays } from '../query/raycast';
import { writeHypot } from '../hypot';
import { assertHitRecord } from '../errors';
import { assertHitboxStore, HITBOXES_PER_CLUSTER, type HitboxStore } from './hitboxLayout';
import { assertRayGrid, cellOf, type CharacterRayGrid } from './rayGrid';
import { nameHitbox, type HitboxHit } from './hitboxHit';
import { allocateBatch, assertBatchArrays, assertBatchLength, hitWidth, rayBatchLimits, rayLimit, type RayBatch, type RayQuery } from '../query/rayQuery';
import { allocate } from '../sharedMemory';
import { grown } from '../broadphase/growable';
import { interpolateObbArrays } from '../volumes/obb';
import { assertHitboxHistory, assertTimeInWindow, createHistoryCursor, frameBefore, locateFrame, locateTime, type HistoryCursor, type HitboxHistory } from './hitboxHistory';

/**
 * Ray casts against character hitboxes: the nearest hit over every character, walking the ray
 * grid, then cluster boxes, bounding spheres and the hitbox OBBs themselves.
 */

/** Scratch of the grid clip: the ray interval [t0, t1] inside the grid's box. */
const clip = new Float64Array(2);

/**
 * Narrows `clip` to where the ray (`hitboxRay`) lies in the grid's box on axis k; false once it is
 * empty. Numbers come from arrays: V8 boxes a double passed to a call it does not inline.
 */
function clipAxis(grid: CharacterRayGrid, k: number): boolean {
  const o = hitboxRay[k], d = hitboxRay[3 + k], a = grid.origin[k], b = a + grid.dims[k] * grid.cellSize;
  if (d === 0) return o >= a && o <= b;
  let near = (a - o) / d, far = (b - o) / d;
  if (near > far) {
    const s = near;
    near = far;
    far = s;
  }
  if (near > clip[0]) clip[0] = near;
  if (far < clip[1]) clip[1] = far;
  return clip[0] <= clip[1];
}

/**
 * Nearest hit of `raycastHitboxes`, filled in place (create once with `createHitboxRayHit`): a
 * HitboxHit (t is the ray parameter, in units of |d|; the normal is the outward normal of the box
 * face hit, −d/|d| when the origin is inside the box) and the distance along the ray.
 */
export interface HitboxRayHit extends HitboxHit {
  /** t·|d|: the distance along the ray. */
  distance: number;
}

/** A reusable hit record. */
export function createHitboxRayHit(): HitboxRayHit {
  return { hitbox: -1, character: -1, entity: -1, bone: -1, group: -1, boneName: '', groupName: '', t: Infinity, distance: Infinity, point: new Float64Array(3), normal: new Float64Array(3) };
}

const castOut = new Float64Array(4); // scratch: one box cast
/** The ray being cast (RAY_INPUT_STRIDE: origin, direction, maxT), what castHitboxes reads; its limit then follows the best hit. */
const hitboxRay = new Float64Array(RAY_INPUT_STRIDE);
/** The grid walk's parameters at the next cell boundary per axis (3), then between boundaries (3). */
const walk = new Float64Array(6);
/** Where the ray enters the grid's box. */
const entryPoint = new Float64Array(3);
/** The length of the best hit's normal. */
const normalLength = new Float64Array(1);

/** Writes the ray o + t·d, t <= limit[lo], into hitboxRay, origin and direction at origin[o], direction[o]. */
function setHitboxRay(origin: Float64Array, direction: Float64Array, o: number, limit: Float64Array, lo: number): void {
  for (let k = 0; k < 3; k++) {
    hitboxRay[k] = origin[o + k];
    hitboxRay[3 + k] = direction[o + k];
  }
  hitboxRay[6] = limit[lo];
}
const nearest = new Float64Array(4); // scratch: t and normal of a ray's nearest hit

/**
 * Nearest hits of a batch of rays (raycastHitboxesBatch), struct of arrays, made once
 * (`createHitboxRayHits`): entry i is ray i's hit, as HitboxRayHit gives it (point and normal at
 * 3i..3i+2). A miss has hitbox, character, entity, bone and group −1 and t, distance Infinity
 * (point and normal then keep old values). Names follow from the indices:
 * `store.boneName[hitbox]`, `HIT_GROUP_NAMES[group]`.
 */
export interface HitboxRayHits {
  /** Per ray: the hitbox hit (index into the HitboxStore), −1 for a miss. */
  readonly hitbox: Int32Array;
  /** Per ray: its character. */
  readonly character: Int32Array;
  /** Per ray: the character's entity. */
  readonly entity: Int32Array;
  /** Per ray: global bone index in the skeleton store. */
  readonly bone: Int32Array;
  /** Per ray: hit group of the hitbox (HIT_GROUP_*). */
  readonly group: Int32Array;
  /** Per ray: ray parameter of the hit (units of |direction|). */
  readonly t: Float64Array;
  /** Per ray: t·|direction|, the distance along the ray. */
  readonly distance: Float64Array;
  /** World points of the hits, 3 numbers per ray. */
  readonly point: Float64Array;
  /** Unit outward normals of the box faces hit, 3 numbers per ray (−direction/|direction| from inside a box). */
  readonly normal: Float64Array;
}

/** Arrays of HitboxRayHits, for their checks and for sharing them with worker threads. */
export const HIT_ARRAYS = ['hitbox', 'character', 'entity', 'bone', 'group', 't', 'distance', 'point', 'normal'] as const;

/** Hit arrays for `capacity` rays, on SharedArrayBuffers when `shared` (worker threads then write them in place). */
export function createHitboxRayHits(capacity: number, shared = false): HitboxRayHits {
  return allocateBatch(capacity, 'createHitboxRayHits', () => ({
    hitbox: allocate(Int32Array, capacity, shared),
    character: allocate(Int32Array, capacity, shared),
    entity: allocate(Int32Array, capacity, shared),
    bone: allocate(Int32Array, capacity, shared),
    group: allocate(Int32Array, capacity, shared),
    t: allocate(Float64Array, capacity, shared),
    distance: allocate(Float64Array, capacity, shared),
    point: allocate(Float64Array, 3 * capacity, shared),
    normal: allocate(Float64Array, 3 * capacity, shared),
  }));
}

/**
 * Whether the ray o + t·d, t in [0, maxT], meets the AABB at `bo`, given the inverse direction
 * i = 1/d and, per axis, the offset (0 or 3) of the bound the ray meets first (3 when i < 0, so
 * also for d = −0). A conservative filter before exact box casts: it must never reject a box the
 * AABB contains. On an axis where d is 0, i is infinite and the origin decides (±Infinity bounds);
 * an origin exactly on a face gives 0·Infinity = NaN there, which fails every comparison and so
 * never narrows the interval.
 */
function rayMeetsAabb(box: Float32Array, bo: number, ox: number, oy: number, oz: number, ix: number, iy: number, iz: number, fx: number, fy: number, fz: number, maxT: number): boolean {
  // All six bounds, then one branch: we measured this 6% faster than leaving after x and after y
  // (interleaved, 10,000 rays over 1,000 characters), the loads being cheaper than the branches.
  const nx = (box[bo + fx] - ox) * ix, xf = (box[bo + 3 - fx] - ox) * ix;
  const ny = (box[bo + 1 + fy] - oy) * iy, yf = (box[bo + 4 - fy] - oy) * iy;
  const nz = (box[bo + 2 + fz] - oz) * iz, zf = (box[bo + 5 - fz] - oz) * iz;
  // Empty when an entry follows an exit, an exit precedes 0 or an entry follows maxT.
  return (+(nx > yf) | +(nx > zf) | +(ny > xf) | +(ny > zf) | +(nz > xf) | +(nz > yf)
    | +(0 > xf) | +(0 > yf) | +(0 > zf) | +(nx > maxT) | +(ny > maxT) | +(nz > maxT)) === 0;
}

/**
 * Nearest hitbox hit by the query's ray o + t·d, t in [0, maxDistance / |d|], among all characters of the store:
 * fills `hit` and returns true, or returns false (leaving `hit` alone). Walks the grid's cells
 * along the ray (3D DDA) in order and stops once the best hit is nearer than the next cell;
 * inside a cell, each new character's AABB, then its cluster AABBs, then each box's bounding
 * sphere, then the box itself (raycastObb; the raycast.ts conventions apply) are tested, each
 * test clipped to the best hit so far. Several boxes hit at the same nearest t (an origin inside
 * overlapping boxes, a ray through a shared face) resolve to the lowest hitbox index, whatever
 * the order the walk meets them in. The grid must have been built from the store's current
 * boxes. The character of `query.ignore` (an entity, e.g. the shooter whose own boxes the shot
 * starts in) is skipped; `query.mask` does not apply (the store has no layers). Allocation-free.
 * Throws CollideInputError for a query field that is not finite, lies outside ±MAX_COORDINATE,
 * or is otherwise invalid (rayLimit), naming it.
 */
export function raycastHitboxes(hit: HitboxRayHit, store: HitboxStore, grid: CharacterRayGrid, query: RayQuery): boolean {
  assertHitRecord(hit, 'raycastHitboxes', 'createHitboxRayHit');
  assertHitboxStore(store, 'raycastHitboxes');
  assertRayGrid(grid, 'raycastHitboxes');
  rayLimit(queryLimit, 0, query, 'raycastHitboxes');
  setHitboxRay(query.origin, query.direction, 0, queryLimit, 0);
  return nearestHit(hit, store, query, castHitboxes(nearest, store, grid, ignoredCharacter(store, query.ignore), undefined));
}

/** A query's limit and its direction's length (rayLimit). */
const queryLimit = new Float64Array(2);

/** A batch ray's direction length, for its hit's distance. */
const directionLength = new Float64Array(1);

/** One cursor for the rewound casts of the calling thread. */
const pastCursor = createHistoryCursor();

/**
 * raycastHitboxes at a past `time` inside the history's window: the nearest hit over the boxes
 * every character had then (the characters seen at both frames around it), each box tested
 * interpolated between those frames (interpolateObb), or as stored at a frame's exact time, where
 * the hit is the one raycastHitboxes gave at that frame, to the bit. `history` records `store`
 * (recordHitboxHistory). Allocation-free. Throws CollideInputError for a bad query field, or a
 * time outside [history.oldestTime, history.newestTime] (naming the time and the window).
 */
export function raycastHitboxesAt(hit: HitboxRayHit, history: HitboxHistory, store: HitboxStore, query: RayQuery, time: number): boolean {
  return castAt(hit, history, store, query, time, 'raycastHitboxesAt');
}

/** @internal raycastHitboxesAt, its errors naming `caller`. */
export function castAt(hit: HitboxRayHit, history: HitboxHistory, store: HitboxStore, query: RayQuery, time: number, caller: string): boolean {
  assertHitRecord(hit, caller, 'createHitboxRayHit');
  assertHitboxHistory(history, caller);
  assertHitboxStore(store, caller);
  rayLimit(queryLimit, 0, query, caller);
  locateTime(pastCursor, history, time, caller);
  setHitboxRay(query.origin, query.direction, 0, queryLimit, 0);
  return nearestHit(hit, store, query, castHitboxes(nearest, store, pastCursor.grid, ignoredCharacter(store, query.ignore), pastCursor));
}

/** Fills `hit` from hitbox h (−1: a miss, `hit` left alone) and `nearest`. */
function nearestHit(hit: HitboxRayHit, store: HitboxStore, query: RayQuery, h: number): boolean {
  if (h < 0) return false;
  const o = query.origin, d = query.direction;
  nameHitbox(hit, store, h);
  const t = nearest[0];
  hit.t = t;
  // |d| as rayLimit measured it (a sum of squares underflows for a tiny direction: distance 0).
  hit.distance = t * queryLimit[1];
  for (let k = 0; k < 3; k++) {
    hit.point[k] = o[k] + t * d[k];
    hit.normal[k] = nearest[1 + k];
  }
  return true;
}

/** The character of entity `ignore` (−1 for none, or an entity without a character). */
function ignoredCharacter(store: HitboxStore, ignore: number): number {
  return ignore >= 0 ? store.characterOfEntity.get(ignore) ?? -1 : -1;
}

/**
 * Nearest hits of many rays: for each ray i of `rays`, what raycastHitboxes gives for that ray
 * (the same numbers), written at index i of `hits` (hitbox −1 for a miss). Returns the number of
 * rays that hit. Allocation-free. Throws CollideInputError, before casting any ray, for a field
 * raycastHitboxes would refuse (naming the field, its index and the ray) or arrays shorter than
 * `rays.count` rays need.
 */
export function raycastHitboxesBatch(hits: HitboxRayHits, store: HitboxStore, grid: CharacterRayGrid, rays: RayBatch): number {
  assertRayGrid(grid, 'raycastHitboxesBatch');
  prepareHitboxRayBatch(hits, store, rays, 'raycastHitboxesBatch');
  return castHitboxRange(hits, store, grid, rays, 0, rays.count);
}

/**
 * Nearest hits of many rays, each at its own past time: ray i is cast as raycastHitboxesAt casts
 * it at `times[i]` (a server casts each client's shots at the time that client saw), written at
 * index i of `hits`. Returns the number of rays that hit. Allocation-free. Throws
 * CollideInputError, before casting any ray, for a bad ray field, short arrays, or a time outside
 * the history's window (naming the ray, the time and the window).
 */
export function raycastHitboxesBatchAt(hits: HitboxRayHits, history: HitboxHistory, store: HitboxStore, rays: RayBatch, times: ArrayLike<number>): number {
  return castBatchAt(hits, history, store, rays, times, 'raycastHitboxesBatchAt');
}

/** @internal raycastHitboxesBatchAt, its errors naming `caller`. */
export function castBatchAt(hits: HitboxRayHits, history: HitboxHistory, store: HitboxStore, rays: RayBatch, times: ArrayLike<number>, caller: string): number {
  const order = prepareHitboxRayBatchAt(hits, history, store, rays, times, caller);
  return castHitboxRange(hits, store, undefined, rays, 0, rays.count, history, times, order, frameOfRay);
}

/**
 * @internal Validates a batch at past times as castBatchAt does (prepareHitboxRayBatch, the times'
 * length and window) and sorts its rays by frame: returns that order of the rays;
 * `preparedRayFrames()` gives each ray's frame before its time.
 */
export function prepareHitboxRayBatchAt(hits: HitboxRayHits, history: HitboxHistory, store: HitboxStore, rays: RayBatch, times: ArrayLike<number>, caller: string): Int32Array {
  assertHitboxHistory(history, caller);
  prepareHitboxRayBatch(hits, store, rays, caller);
  assertBatchLength(times, rays.count, `${caller}: times`);
  for (let i = 0; i < rays.count; i++) assertTimeInWindow(history, times[i], caller, i);
  return orderByFrame(history, times, rays.count);
}

/** @internal Per ray of the last prepareHitboxRayBatchAt: its frame before its time (frameBefore). */
export function preparedRayFrames(): Int32Array {
  return frameOfRay;
}

// Scratch of orderByFrame, grown to the largest batch.
let frameOfRay = new Int32Array(0);
let rayOrder = new Int32Array(0);
let frameStart = new Int32Array(0);

/**
 * The rays [0, n) sorted by the frame before their time (a counting sort, stable): rays at nearby
 * times then read the same frames' memory one after the other. In the order given, we measured
 * random times over 64 frames 1.8x slower, each ray reading frames the one before did not touch.
 */
function orderByFrame(history: HitboxHistory, times: ArrayLike<number>, n: number): Int32Array {
  frameOfRay = grown(frameOfRay, n);
  rayOrder = grown(rayOrder, n);
  frameStart = grown(frameStart, history.frames + 1);
  frameStart.fill(0);
  for (let i = 0; i < n; i++) {
    const f = frameBefore(history, times[i]);
    frameOfRay[i] = f;
    frameStart[f + 1]++;
  }
  for (let f = 1; f <= history.frames; f++) frameStart[f] += frameStart[f - 1];
  for (let i = 0; i < n; i++) rayOrder[frameStart[frameOfRay[i]]++] = i;
  return rayOrder;
}

/**
 * @internal Validates `rays` and `hits` for a batch cast and resolves each ray's ignored
 * character (rays.ignoreCharacter), so ranges of the batch can then be cast on any thread.
 */
export function prepareHitboxRayBatch(hits: HitboxRayHits, store: HitboxStore, rays: RayBatch, caller: string): void {
  assertHitboxStore(store, caller);
  rayBatchLimits(rays, caller);
  const n = rays.count;
  assertBatchArrays(hits, HIT_ARRAYS, n, hitWidth, caller, 'hits');
  const { ignore, ignoreCharacter } = rays;
  for (let i = 0; i < n; i++) ignoreCharacter[i] = ignoredCharacter(store, ignore[i]);
}

/**
 * @internal Casts rays [from, to) of a prepared batch (prepareHitboxRayBatch) into `hits`; returns
 * how many hit. Every ray writes only its own entries, so ranges may run on different threads
 * (each with its own `grid` object over the shared cells: the stamps are per thread). With
 * `history`, ray i is cast at times[i] (validated), whose frame before it is frameOf[i]
 * (frameBefore), the rays taken in `order` (entries [from, to) of it), walking the grids of this
 * thread's history cursor (`grid` is not read and may be undefined).
 */
export function castHitboxRange(
  hits: HitboxRayHits, store: HitboxStore, grid: CharacterRayGrid | undefined, rays: RayBatch, from: number, to: number,
  history?: HitboxHistory, times?: ArrayLike<number>, order?: Int32Array, frameOf?: Int32Array,
): number {
  const { origin, direction, limit, ignoreCharacter } = rays;
  const { character: characterOf, characterEntity, bone, group } = store;
  const past = history === undefined ? undefined : pastCursor;
  const walk = past === undefined ? grid! : past.grid;
  let count = 0;
  for (let j = from; j < to; j++) {
    const i = order === undefined ? j : order[j];
    const o = 3 * i;
    const ox = origin[o], oy = origin[o + 1], oz = origin[o + 2], dx = direction[o], dy = direction[o + 1], dz = direction[o + 2];
    if (past !== undefined) locateFrame(past, history!, frameOf![i], times![i]);
    setHitboxRay(origin, direction, o, limit, i);
    const h = castHitboxes(nearest, store, walk, ignoreCharacter[i], past);
    hits.hitbox[i] = h;
    if (h < 0) {
      hits.character[i] = hits.entity[i] = hits.bone[i] = hits.group[i] = -1;
      hits.t[i] = hits.distance[i] = Infinity;
      continue;
    }
    count++;
    const c = characterOf[h], t = nearest[0];
    hits.character[i] = c;
    hits.entity[i] = characterEntity[c];
    hits.bone[i] = bone[h];
    hits.group[i] = group[h];
    hits.t[i] = t;
    writeHypot(directionLength, 0, direction, o);
    hits.distance[i] = t * directionLength[0];
    hits.point[o] = ox + t * dx; hits.point[o + 1] = oy + t * dy; hits.point[o + 2] = oz + t * dz;
    hits.normal[o] = nearest[1]; hits.normal[o + 1] = nearest[2]; hits.normal[o + 2] = nearest[3];
  }
  return count;
}

const rewound = new Float64Array(15); // scratch: a box at a past time, in doubles

/** A rewound box's tighter ball (centre, radius). */
const pastBall = new Float64Array(4);

/**
 * Whether the ray o + t·d, t <= bestT (`hitboxRay`, bestT its limit), may meet the ball at
 * ball[bo] (centre c, radius r), m = o − c: false when it misses it or enters it after bestT
 * (entry t = (−b − √(b² − dd·c2))/dd > bestT, tested without the root).
 */
function rayMeetsBall(ball: ArrayLike<number>, bo: number): boolean {
  const mx = hitboxRay[0] - ball[bo], my = hitboxRay[1] - ball[bo + 1], mz = hitboxRay[2] - ball[bo + 2], r = ball[bo + 3];
  const dx = hitboxRay[3], dy = hitboxRay[4], dz = hitboxRay[5], dd = dx * dx + dy * dy + dz * dz, bestT = hitboxRay[6];
  const b = mx * dx + my * dy + mz * dz;
  const c2 = mx * mx + my * my + mz * mz - r * r;
  if (c2 <= 0) return true;
  const disc = b * b - dd * c2;
  const e = -b - dd * bestT;
  return !(b > 0 || disc < 0 || (e > 0 && e * e > disc));
}

/**
 * raycastHitboxes on validated numbers: the nearest hitbox on the ray o + t·d, t in [0, maxT]
 * (`hitboxRay`), skipping character `ignoreCharacter`, or −1; its t and unit normal go to out[0],
 * out[1..3]. With `past`, at the cursor's time: its bounds, and each box the ray reaches at that
 * time (the grid is the cursor's).
 */
function castHitboxes(
  out: Float64Array,
  store: HitboxStore,
  grid: CharacterRayGrid,
  ignoreCharacter: number,
  past: HistoryCursor | undefined,
): number {
  const ox = hitboxRay[0], oy = hitboxRay[1], oz = hitboxRay[2], dx = hitboxRay[3], dy = hitboxRay[4], dz = hitboxRay[5], maxT = hitboxRay[6];
  const dims = grid.dims;
  const nx = dims[0], ny = dims[1], nz = dims[2];
  if (nx === 0 || !(maxT >= 0)) return -1;
  const cell = grid.cellSize;
  const gx = grid.origin[0], gy = grid.origin[1], gz = grid.origin[2];
  // Clip the ray to the grid's box.
  clip[0] = 0;
  clip[1] = maxT;
  if (!clipAxis(grid, 0) || !clipAxis(grid, 1) || !clipAxis(grid, 2)) return -1;
  const t1 = clip[1];
  for (let k = 0; k < 3; k++) entryPoint[k] = hitboxRay[k] + clip[0] * hitboxRay[3 + k];
  let ix = cellOf(grid, entryPoint, 0, 0);
  let iy = cellOf(grid, entryPoint, 1, 1);
  let iz = cellOf(grid, entryPoint, 2, 2);
  // Ray parameter at the next cell boundary per axis, and between boundaries.
  for (let k = 0; k < 3; k++) {
    const o = hitboxRay[k], d = hitboxRay[3 + k], i = k === 0 ? ix : k === 1 ? iy : iz;
    walk[k] = (grid.origin[k] + (i + (d > 0 ? 1 : 0)) * cell - o) / d;
    walk[3 + k] = cell / Math.abs(d);
    // Stored apart: `d === 0 ? Infinity : x` made V8 box x (the phi with the constant was tagged).
    if (d === 0) walk[k] = walk[3 + k] = Infinity;
  }
  let nextX = walk[0], nextY = walk[1], nextZ = walk[2];
  const stepX = walk[3], stepY = walk[4], stepZ = walk[5];
  const sx = dx > 0 ? 1 : -1, sy = dy > 0 ? 1 : -1, sz = dz > 0 ? 1 : -1;
  const dd = dx * dx + dy * dy + dz * dz;
  const boundarySlack = RAY_GRID_BOUNDARY_SLACK * (t1 + (Math.abs(ox) + Math.abs(oy) + Math.abs(oz) + Math.abs(gx) + Math.abs(gy) + Math.abs(gz) + cell) / Math.sqrt(dd));
  const invX = 1 / dx, invY = 1 / dy, invZ = 1 / dz;
  const fx = invX >= 0 ? 0 : 3, fy = invY >= 0 ? 0 : 3, fz = invZ >= 0 ? 0 : 3;
  const { cellStart, cellItems, stamp } = grid;
  // Stamps are Int32: past 2^31 − 1 rays (an hour at 10,000 rays a frame) an id would no longer
  // read back equal, so the ignored character would be hit. Clearing restarts the ids below any
  // stamp left (stamps start at 0, ids at 1).
  if (grid.rayId === 0x7fffffff) {
    stamp.fill(0);
    grid.rayId = 0;
  }
  const ray = ++grid.rayId;
  const { world, firstHitbox, hitboxCount, firstCluster } = store;
  const sphere = past === undefined ? store.sphere : past.sphere;
  const characterAabb = past === undefined ? store.characterAabb : past.characterAabb;
  const clusterAabb = past === undefined ? store.clusterAabb : past.clusterAabb;
  if (ignoreCharacter >= 0 && ignoreCharacter < store.characterCount) stamp[ignoreCharacter] = ray;
  const normal = out;
  let bestT = maxT, bestHitbox = -1;
  // Everything stays in locals of this one function: module-level doubles would be boxed on every write.
  // Strides are literals (AABB_STRIDE 6, SPHERE_STRIDE 4, OBB_STRIDE 15) and the cluster size a
  // local, as in updateHitboxes: imported bindings are live, reloaded and checked at every use (8%).
  const perCluster = HITBOXES_PER_CLUSTER, rounding = HITBOX_ROUNDING_MARGIN_RELATIVE;
  for (let k = (iz * ny + iy) * nx + ix; ;) {
    for (let i = cellStart[k], e = cellStart[k + 1]; i < e; i++) {
      const c = cellItems[i];
      if (stamp[c] === ray) continue;
      stamp[c] = ray;
      if (!rayMeetsAabb(characterAabb, 6 * c, ox, oy, oz, invX, invY, invZ, fx, fy, fz, bestT)) continue;
      const end = firstHitbox[c] + hitboxCount[c];
      for (let h0 = firstHitbox[c], a = 6 * firstCluster[c]; h0 < end; h0 += perCluster, a += 6) {
        if (!rayMeetsAabb(clusterAabb, a, ox, oy, oz, invX, invY, invZ, fx, fy, fz, bestT)) continue;
        const clusterEnd = end < h0 + perCluster ? end : h0 + perCluster;
        for (let h = h0; h < clusterEnd; h++) {
          // Bounding-sphere pre-test: most boxes of a cluster the ray passes are missed here, and
          // boxes behind the best hit too. The sphere's margin keeps its entry strictly before the
          // box's, far above rounding.
          const so = 4 * h;
          if (!rayMeetsBall(sphere, so)) continue;
          let box: Float32Array | Float64Array = world, bo = 15 * h;
          if (past !== undefined) {
            // The sphere above holds the box over a whole frame interval; at the cursor's time it
            // lies within |H(s)| of its centre (both linear in s, as interpolateObb makes them):
            // a far tighter ball, tested before paying for the interpolated axes.
            const a = past.a, z = past.b, s = past.s[0];
            const cx = a[bo] + s * (z[bo] - a[bo]), cy = a[bo + 1] + s * (z[bo + 1] - a[bo + 1]), cz = a[bo + 2] + s * (z[bo + 2] - a[bo + 2]);
            const h0 = a[bo + 12] + s * (z[bo + 12] - a[bo + 12]), h1 = a[bo + 13] + s * (z[bo + 13] - a[bo + 13]), h2 = a[bo + 14] + s * (z[bo + 14] - a[bo + 14]);
            pastBall[0] = cx;
            pastBall[1] = cy;
            pastBall[2] = cz;
            pastBall[3] = Math.sqrt(h0 * h0 + h1 * h1 + h2 * h2) * (1 + rounding) + rounding * (Math.abs(cx) + Math.abs(cy) + Math.abs(cz));
            if (!rayMeetsBall(pastBall, 0)) continue;
            // The stored box at a frame's own time (so the numbers are the present-time cast's), else interpolated.
            if (s === 0) {
              box = a;
            } else {
              interpolateObbArrays(rewound, 0, a, bo, z, bo, past.s, 0);
              box = rewound;
              bo = 0;
            }
          }
          if (!raycastObbArrays(castOut, hitboxRay, 0, box, bo)) continue;
          // raycastObb was clipped to bestT, so a hit that is not nearer ties: the lower index wins.
          if (castOut[0] < bestT || bestHitbox < 0 || h < bestHitbox) {
            bestT = hitboxRay[6] = castOut[0];
            bestHitbox = h;
            normal[1] = castOut[1]; normal[2] = castOut[2]; normal[3] = castOut[3];
          }
        }
      }
    }
    const exit = nextX < nextY ? (nextX < nextZ ? nextX : nextZ) : (nextY < nextZ ? nextY : nextZ);
    // A character first met in a later cell is entered at or after `exit`: one entered exactly
    // there could tie with the best hit, so the walk goes on while bestT equals exit, and within
    // `boundarySlack` below it, as boundaries summed step by step and characters placed in cells
    // by rounding can each be off by a few ulps.
    if ((bestHitbox >= 0 && bestT < exit - boundarySlack) || exit > t1) break;
    if (nextX === exit) {
      ix += sx;
      if (ix < 0 || ix >= nx) break;
      nextX += stepX;
      k += sx;
    } else if (nextY === exit) {
      iy += sy;
      if (iy < 0 || iy >= ny) break;
      nextY += stepY;
      k += sy * nx;
    } else {
      iz += sz;
      if (iz < 0 || iz >= nz) break;
      nextZ += stepZ;
      k += sz * nx * ny;
    }
  }
  if (bestHitbox < 0) return -1;
  out[0] = bestT;
  // A face normal is a stored Float32 axis, unit only to ~1e-7: renormalise in doubles.
  writeHypot(normalLength, 0, out, 1);
  const len = normalLength[0];
  if (len > 0) {
    out[1] /= len; out[2] /= len; out[3] /= len;
  }
  return bestHitbox;
}
