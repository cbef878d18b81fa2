/**
 * Transform store: where each entity is. Struct of arrays indexed by entity id, Float32 storage:
 * position xyz at `position[eid * 3]`, unit rotation quaternion xyzw at `rotation[eid * 4]`,
 * uniform scale at `scale[eid]`.
 *
 * Change tracking: a dirty flag plus a list of the dirty ids. `setTransform` (or
 * `markTransformChanged` after writing the arrays directly) pushes an entity once; refitVolumes
 * walks only that list and clears it. Of the two options (this, or comparing every entity against
 * last frame's copy) it is the cheaper one: O(moved entities) per frame instead of O(all) reads of
 * 16 numbers, and no second copy of the transforms. The cost is that direct writes must be marked.
 *
 * The arrays are replaced when the store grows: re-read the fields every frame, never cache them.
 */
import { allocate } from '../src/sharedMemory';
import { INITIAL_ENTITY_CAPACITY, capacityFor, resized } from './capacity';

/** Per-world transform store (also the bitecs component that marks entities having a transform). */
export interface TransformStore {
  /** Position x, y, z: stride 3. */
  position: Float32Array;
  /** Unit quaternion x, y, z, w: stride 4. */
  rotation: Float32Array;
  /** Uniform scale (> 0). */
  scale: Float32Array;
  /** 1 while the entity waits in `changedIds` for the next refit. */
  changed: Uint8Array;
  /**
   * 1 while the entity has this store as a bitecs component (cleared by the pipeline's removal
   * observer), so per-frame writes skip bitecs's hasComponent lookup.
   */
  present: Uint8Array;
  /** Ids of entities changed since the last refit; the first `changedCount` are valid. */
  changedIds: Uint32Array;
  /** Number of valid entries of `changedIds`. */
  changedCount: number;
  /** Entities the arrays hold (largest id + 1 at least). */
  capacity: number;
}

/** Creates an empty transform store; with `shared`, on SharedArrayBuffers (see createColliderStore). */
export function createTransformStore(shared = false): TransformStore {
  const n = INITIAL_ENTITY_CAPACITY;
  const store: TransformStore = {
    position: allocate(Float32Array, 3 * n, shared),
    rotation: allocate(Float32Array, 4 * n, shared),
    scale: allocate(Float32Array, n, shared),
    changed: allocate(Uint8Array, n, shared),
    present: allocate(Uint8Array, n, shared),
    changedIds: allocate(Uint32Array, n, shared),
    changedCount: 0,
    capacity: n,
  };
  resetTransform(store, 0, n);
  return store;
}

/** Identity transform for entities [from, to): fresh slots hold a usable transform. */
function resetTransform(store: TransformStore, from: number, to: number): void {
  for (let e = from; e < to; e++) {
    store.rotation[4 * e + 3] = 1;
    store.scale[e] = 1;
  }
}

/** Grows every array of the store (doubling) so that it holds entity `eid`. */
export function growTransformStore(store: TransformStore, eid: number): void {
  if (eid < store.capacity) return;
  const old = store.capacity;
  const n = capacityFor(old, eid);
  store.position = resized(store.position, 3 * n);
  store.rotation = resized(store.rotation, 4 * n);
  store.scale = resized(store.scale, n);
  store.changed = resized(store.changed, n);
  store.present = resized(store.present, n);
  store.changedIds = resized(store.changedIds, n);
  store.capacity = n;
  resetTransform(store, old, n);
}

/** Queues `eid` for refitting (once per frame however often it is marked). The store must hold eid. */
export function markChanged(store: TransformStore, eid: number): void {
  if (store.changed[eid] === 1) return;
  store.changed[eid] = 1;
  store.changedIds[store.changedCount++] = eid;
}
