/**
 * Collider store: what each entity's collision shape is, and its world-space volumes, as typed
 * arrays indexed by entity id (Float32 storage for geometry).
 *
 * Shape data lives in two union arrays of stride `SHAPE_STRIDE` (15, the largest layout: an OBB),
 * read at `eid * SHAPE_STRIDE` with the layout of layout.ts for the entity's kind:
 * - `local`: the shape in the entity's frame (sphere [c, r], AABB min-max, OBB stride 15,
 *   capsule [p0, p1, r], mesh: its tree's root box, OBB layout); k-DOP colliders keep their local
 *   points in `kdopVertices` instead, characters have no local shape (their hitboxes are theirs);
 * - `world`: the same shape after the transform, written by refitVolumes (an AABB collider's
 *   world shape is the AABB of its local box under the full transform; unused for characters).
 * `aabb` (stride 6) is every collider's world box, the broad phase's input: it contains the
 * stored world shape (rounded outward to Float32) and is widened by the pipeline's margin, if any.
 * `kdop` (stride k, one k per world) is the world k-DOP of k-DOP colliders.
 *
 * One store per world: the pipeline registers it (it is also the bitecs component of colliders).
 * Arrays are replaced when the store grows: re-read fields every frame, never cache them.
 */
import type { BoundingTree } from '../src/tree/build';
import { float32Above, float32Below } from '../src/float32';
import type { KdopK } from '../src/layout';
import { allocate, allocateLike } from '../src/sharedMemory';
import { INITIAL_ENTITY_CAPACITY, capacityFor, resized } from './capacity';

/** Shape kinds (`Collider.kind`): a sphere (sphere layout). */
export const SHAPE_SPHERE = 0;
/** Shape kind: an axis-aligned box (min-max layout), which stays axis-aligned under rotation (its world box is the rotated box's AABB). */
export const SHAPE_AABB = 1;
/** Shape kind: an oriented box (OBB layout). */
export const SHAPE_OBB = 2;
/** Shape kind: a capsule (capsule layout). */
export const SHAPE_CAPSULE = 3;
/** Shape kind: a k-DOP refit from local points (`kdopVertices`). */
export const SHAPE_KDOP = 4;
/** A triangle mesh in a bounding tree (`mesh[eid]`); its local shape is the tree's root box. */
export const SHAPE_MESH = 5;
/** An animated character: its bone hitboxes (character index `character[eid]` of the pipeline's hitbox store). */
export const SHAPE_CHARACTER = 6;
/** Kind of an entity id that has no collider. */
export const SHAPE_NONE = 255;

/** Numbers per entity in the `local` and `world` shape arrays (an OBB's 15 is the largest layout). */
export const SHAPE_STRIDE = 15;

/** Default collision layer bits. */
export const DEFAULT_LAYER = 1;
/** Default mask bits: collides with every layer. */
export const DEFAULT_MASK = 0xffffffff;

/** Per-world collider store. */
export interface ColliderStore {
  /** SHAPE_* by entity; SHAPE_NONE for ids without a collider. */
  kind: Uint8Array;
  /** Layer bits (a pair collides when each one's layer is in the other's mask). */
  layer: Uint32Array;
  /** Mask bits: the layers this collider collides with. */
  mask: Uint32Array;
  /** 1 = sensor: reported by events, no contact manifold. */
  sensor: Uint8Array;
  /** 1 = static: never paired with another static collider. */
  isStatic: Uint8Array;
  /** 1 = dynamic: refit at every step, whether or not its transform was marked changed. */
  dynamic: Uint8Array;
  /** Number of dynamic colliders (the refit skips its scan for them when 0). */
  dynamicCount: number;
  /** Incremented whenever the entity gains or loses its collider, so a recycled id is a new pair partner. */
  generation: Uint32Array;
  /** Local shape, stride SHAPE_STRIDE. */
  local: Float32Array;
  /** 1 = an OBB collider whose local box is centred on the entity with its axes: the refit reads only the half-extents. */
  centeredBox: Uint8Array;
  /** World shape, stride SHAPE_STRIDE. */
  world: Float32Array;
  /** World AABB (broad-phase box), stride 6. */
  aabb: Float32Array;
  /** The k of every k-DOP in this store. */
  readonly kdopK: KdopK;
  /** World k-DOP, stride kdopK (k-DOP colliders only). */
  kdop: Float32Array;
  /** Local points of k-DOP colliders: entity e's are kdopVertexCount[e] xyz triples from kdopVertexStart[e] * 3. */
  kdopVertices: Float32Array;
  /** Per entity: first vertex of its k-DOP points in `kdopVertices`. */
  kdopVertexStart: Uint32Array;
  /** Per entity: number of its k-DOP points. */
  kdopVertexCount: Uint32Array;
  /** Vertices used in `kdopVertices`, including holes left by removed colliders. */
  kdopVertexEnd: number;
  /** Vertices alive in `kdopVertices` (compaction runs when holes dominate). */
  kdopVertexLive: number;
  /** Character index (into the pipeline's skeleton and hitbox stores) of each character collider. */
  character: Int32Array;
  /** Tree of each mesh collider (shared by every entity using the mesh), undefined for other kinds. */
  mesh: (BoundingTree | undefined)[];
  /** Dense list of the entities that have a collider (any order), first `count` valid. */
  ids: Uint32Array;
  /** Number of colliders (valid entries of `ids`). */
  count: number;
  /** Position of each entity in `ids`, -1 when it has no collider. */
  slot: Int32Array;
  /** Entities the by-id arrays hold. */
  capacity: number;
}

/**
 * Creates an empty collider store whose k-DOP colliders use `kdopK` directions; with `shared`, its
 * arrays live on SharedArrayBuffers (and stay there as they grow), for worker threads.
 */
export function createColliderStore(kdopK: KdopK, shared = false): ColliderStore {
  const n = INITIAL_ENTITY_CAPACITY;
  return {
    kind: allocate(Uint8Array, n, shared).fill(SHAPE_NONE),
    layer: allocate(Uint32Array, n, shared),
    mask: allocate(Uint32Array, n, shared),
    sensor: allocate(Uint8Array, n, shared),
    isStatic: allocate(Uint8Array, n, shared),
    dynamic: allocate(Uint8Array, n, shared),
    dynamicCount: 0,
    generation: allocate(Uint32Array, n, shared),
    local: allocate(Float32Array, SHAPE_STRIDE * n, shared),
    centeredBox: allocate(Uint8Array, n, shared),
    world: allocate(Float32Array, SHAPE_STRIDE * n, shared),
    aabb: allocate(Float32Array, 6 * n, shared),
    kdopK,
    kdop: allocate(Float32Array, kdopK * n, shared),
    kdopVertices: allocate(Float32Array, 0, shared),
    kdopVertexStart: allocate(Uint32Array, n, shared),
    kdopVertexCount: allocate(Uint32Array, n, shared),
    kdopVertexEnd: 0,
    kdopVertexLive: 0,
    mesh: [],
    character: allocate(Int32Array, n, shared),
    ids: allocate(Uint32Array, n, shared),
    count: 0,
    slot: allocate(Int32Array, n, shared).fill(-1),
    capacity: n,
  };
}

/** Grows every by-id array (doubling) so that the store holds entity `eid`. */
export function growColliderStore(store: ColliderStore, eid: number): void {
  if (eid < store.capacity) return;
  const n = capacityFor(store.capacity, eid);
  store.kind = resized(store.kind, n, SHAPE_NONE);
  store.layer = resized(store.layer, n);
  store.mask = resized(store.mask, n);
  store.sensor = resized(store.sensor, n);
  store.isStatic = resized(store.isStatic, n);
  store.dynamic = resized(store.dynamic, n);
  store.generation = resized(store.generation, n);
  store.local = resized(store.local, SHAPE_STRIDE * n);
  store.centeredBox = resized(store.centeredBox, n);
  store.world = resized(store.world, SHAPE_STRIDE * n);
  store.aabb = resized(store.aabb, 6 * n);
  store.kdop = resized(store.kdop, store.kdopK * n);
  store.kdopVertexStart = resized(store.kdopVertexStart, n);
  store.kdopVertexCount = resized(store.kdopVertexCount, n);
  store.character = resized(store.character, n);
  store.ids = resized(store.ids, n);
  store.slot = resized(store.slot, n, -1);
  store.capacity = n;
}

/**
 * Writes the broad-phase box of `eid` from its tight world box (min-max at tight[to..to+5]): rounded
 * outward to Float32, and widened by `margin`; with a margin, a stored box that still contains the
 * tight one is kept, so slow movers leave the broad phase's box alone for several frames.
 */
export function storeBroadPhaseBox(store: ColliderStore, eid: number, tight: ArrayLike<number>, to: number, margin: number): void {
  const box = store.aabb;
  const o = 6 * eid;
  if (margin > 0 &&
    box[o] <= tight[to] && box[o + 1] <= tight[to + 1] && box[o + 2] <= tight[to + 2] &&
    box[o + 3] >= tight[to + 3] && box[o + 4] >= tight[to + 4] && box[o + 5] >= tight[to + 5]) return;
  for (let k = 0; k < 3; k++) {
    box[o + k] = float32Below(tight[to + k] - margin);
    box[o + 3 + k] = float32Above(tight[to + 3 + k] + margin);
  }
}

/** Adds `eid` to the dense collider list (no-op when present). The store must hold eid. */
export function insertColliderId(store: ColliderStore, eid: number): void {
  if (store.slot[eid] >= 0) return;
  store.slot[eid] = store.count;
  store.ids[store.count++] = eid;
}

/** Removes `eid` from the dense collider list (swap with the last), marks it SHAPE_NONE and frees its k-DOP points. */
export function deleteColliderId(store: ColliderStore, eid: number): void {
  const s = store.slot[eid];
  if (s < 0) return;
  const last = store.ids[--store.count];
  store.ids[s] = last;
  store.slot[last] = s;
  store.slot[eid] = -1;
  store.kind[eid] = SHAPE_NONE;
  setDynamic(store, eid, false);
  store.generation[eid]++;
  store.mesh[eid] = undefined;
  store.character[eid] = 0;
  releaseKdopVertices(store, eid);
}

/** Sets whether collider `eid` is refit at every step, keeping `dynamicCount`. */
export function setDynamic(store: ColliderStore, eid: number, dynamic: boolean): void {
  const v = dynamic ? 1 : 0;
  if (store.dynamic[eid] === v) return;
  store.dynamic[eid] = v;
  store.dynamicCount += dynamic ? 1 : -1;
}

/** Frees `eid`'s k-DOP points (their space is reclaimed by the next compaction). */
export function releaseKdopVertices(store: ColliderStore, eid: number): void {
  store.kdopVertexLive -= store.kdopVertexCount[eid];
  store.kdopVertexCount[eid] = 0;
}

/**
 * Stores `count` local points (xyz from `points`) for k-DOP collider `eid`. Points are appended;
 * when holes left by removed colliders outnumber the live points, the pool is compacted first,
 * so it stays within about twice the live size.
 */
export function setKdopVertices(store: ColliderStore, eid: number, points: ArrayLike<number>, count: number): void {
  releaseKdopVertices(store, eid);
  if (store.kdopVertexEnd - store.kdopVertexLive > store.kdopVertexLive) compactKdopVertices(store);
  const start = store.kdopVertexEnd;
  const needed = 3 * (start + count);
  if (store.kdopVertices.length < needed) {
    store.kdopVertices = resized(store.kdopVertices, Math.max(needed, 2 * store.kdopVertices.length));
  }
  for (let i = 0; i < 3 * count; i++) store.kdopVertices[3 * start + i] = points[i];
  store.kdopVertexStart[eid] = start;
  store.kdopVertexCount[eid] = count;
  store.kdopVertexEnd = start + count;
  store.kdopVertexLive += count;
}

/** Moves the live k-DOP points to the front of the pool, in collider-list order. */
function compactKdopVertices(store: ColliderStore): void {
  const v = store.kdopVertices;
  const next = allocateLike(v, Math.max(3 * store.kdopVertexLive, 3));
  let end = 0;
  for (let i = 0; i < store.count; i++) {
    const e = store.ids[i];
    const c = store.kdopVertexCount[e];
    if (c === 0) continue;
    next.set(v.subarray(3 * store.kdopVertexStart[e], 3 * (store.kdopVertexStart[e] + c)), 3 * end);
    store.kdopVertexStart[e] = end;
    end += c;
  }
  store.kdopVertices = next;
  store.kdopVertexEnd = end;
}
