import { grown } from '../broadphase/growable';
import { allocate } from '../sharedMemory';
import { CollideInputError, assertExtents, assertFiniteValues, valueName } from '../errors';
import { AABB_STRIDE, OBB_HALF, OBB_STRIDE, SPHERE_STRIDE } from '../layout';
import type { SkeletonStore } from './skeleton';
import { updateHitboxes } from './hitboxUpdate';
import { type BoneHitboxes } from './hitboxFit';
import { assertHitboxStore, EXTENT_STRIDE, MAX_INDEX, type HitboxStore, HITBOXES_PER_CLUSTER } from './hitboxLayout';
import { assertMadeBy } from '../query/rayQuery';

/**
 * The per-frame store of every character's hitboxes (struct of arrays) and adding a character's
 * fitted hitboxes to it.
 */

// ---- per-frame store ----

/** An empty hitbox store; with `shared`, its arrays (and those it grows into) live on SharedArrayBuffers, for worker threads. */
export function createHitboxStore(shared = false): HitboxStore {
  return {
    count: 0,
    characterCount: 0,
    clusterCount: 0,
    bone: allocate(Int32Array, 0, shared),
    boneName: [],
    characterOfEntity: new Map(),
    character: allocate(Int32Array, 0, shared),
    group: allocate(Uint8Array, 0, shared),
    local: allocate(Float64Array, 0, shared),
    extent: allocate(Float64Array, 0, shared),
    world: allocate(Float32Array, 0, shared),
    sphere: allocate(Float32Array, 0, shared),
    firstHitbox: allocate(Int32Array, 0, shared),
    hitboxCount: allocate(Int32Array, 0, shared),
    retired: allocate(Uint8Array, 0, shared),
    characterEntity: allocate(Int32Array, 0, shared),
    characterAabb: allocate(Float32Array, 0, shared),
    firstCluster: allocate(Int32Array, 0, shared),
    clusterAabb: allocate(Float32Array, 0, shared),
  };
}

/** Clusters of a character with `hitboxes` hitboxes. */
function clustersOf(hitboxes: number): number {
  return Math.ceil(hitboxes / HITBOXES_PER_CLUSTER);
}

/**
 * Adds the hitboxes of skeleton character `character` (which must be the next one: characters are
 * added to both stores in the same order) and computes their world boxes from its current world
 * matrices. Throws CollideInputError when the order or the bone count disagree, or on a local box
 * with non-finite numbers or negative half-extents.
 */
export function addCharacterHitboxes(store: HitboxStore, skeleton: SkeletonStore, character: number, fitted: BoneHitboxes): void {
  assertHitboxStore(store, 'addCharacterHitboxes');
  assertMadeBy(skeleton, 'world', 'addCharacterHitboxes', 'skeleton', 'createSkeletonStore');
  assertMadeBy(fitted, 'local', 'addCharacterHitboxes', 'fitted', 'fitBoneHitboxes');
  const c = store.characterCount;
  if (character !== c || character >= skeleton.characterCount) {
    throw new CollideInputError(`addCharacterHitboxes: expected skeleton character ${c} next, got ${character}`);
  }
  const firstBone = skeleton.firstBone[c];
  const boneCount = skeleton.characterBoneCount[c];
  for (let h = 0; h < fitted.count; h++) {
    if (!(fitted.bone[h] >= 0 && fitted.bone[h] < boneCount)) {
      throw new CollideInputError(`addCharacterHitboxes: hitbox ${h} names bone ${fitted.bone[h]}, character ${c} has ${boneCount}`);
    }
    assertFiniteValues(fitted.local, OBB_STRIDE * h, OBB_STRIDE, `addCharacterHitboxes: local box of hitbox ${h}`);
    assertExtents(fitted.local, OBB_STRIDE * h + OBB_HALF, 3, `addCharacterHitboxes: half-extents of hitbox ${h}`);
  }
  const first = store.count;
  const end = first + fitted.count;
  if (end > MAX_INDEX || skeleton.boneCount > MAX_INDEX) {
    throw new CollideInputError(`addCharacterHitboxes: at most ${MAX_INDEX} hitboxes and bones per store, character ${c} would make ${end} hitboxes of ${skeleton.boneCount} bones`);
  }
  const clusterEnd = store.clusterCount + clustersOf(fitted.count);
  store.bone = grown(store.bone, end);
  store.character = grown(store.character, end);
  store.group = grown(store.group, end);
  store.local = grown(store.local, OBB_STRIDE * end);
  store.extent = grown(store.extent, EXTENT_STRIDE * end);
  store.world = grown(store.world, OBB_STRIDE * end);
  store.sphere = grown(store.sphere, SPHERE_STRIDE * end);
  store.firstHitbox = grown(store.firstHitbox, c + 1);
  store.hitboxCount = grown(store.hitboxCount, c + 1);
  store.retired = grown(store.retired, c + 1);
  store.retired[c] = 0;
  store.characterEntity = grown(store.characterEntity, c + 1);
  store.characterAabb = grown(store.characterAabb, AABB_STRIDE * (c + 1));
  store.firstCluster = grown(store.firstCluster, c + 1);
  store.clusterAabb = grown(store.clusterAabb, AABB_STRIDE * clusterEnd);
  for (let h = 0; h < fitted.count; h++) {
    store.bone[first + h] = firstBone + fitted.bone[h];
    store.boneName[first + h] = skeleton.boneName[firstBone + fitted.bone[h]];
    store.character[first + h] = c;
    store.group[first + h] = fitted.group[h];
    const lo = OBB_STRIDE * h, eo = EXTENT_STRIDE * (first + h);
    for (let k = 0; k < 3; k++) {
      store.extent[eo + k] = fitted.local[lo + k];
      const half = fitted.local[lo + OBB_HALF + k];
      for (let i = 0; i < 3; i++) store.extent[eo + 3 + 3 * k + i] = half * fitted.local[lo + 3 + 3 * k + i];
    }
  }
  store.local.set(fitted.local.subarray(0, OBB_STRIDE * fitted.count), OBB_STRIDE * first);
  store.firstHitbox[c] = first;
  store.hitboxCount[c] = fitted.count;
  store.characterEntity[c] = skeleton.characterEntity[c];
  store.characterOfEntity.set(skeleton.characterEntity[c], c);
  store.firstCluster[c] = store.clusterCount;
  store.count = end;
  store.characterCount = c + 1;
  store.clusterCount = clusterEnd;
  updateHitboxes(store, skeleton, c, 1);
}

/**
 * Retires character `character`: ray casts stop seeing it and its entity no longer names it.
 * Its hitboxes keep their place in the store (indices of the others do not move).
 */
export function retireCharacter(store: HitboxStore, character: number): void {
  assertHitboxStore(store, 'retireCharacter');
  if (!Number.isInteger(character)) throw new CollideInputError(`retireCharacter: character must be an integer, got ${valueName(character)}`);
  if (character < 0 || character >= store.characterCount || store.retired[character] === 1) return;
  store.retired[character] = 1;
  const entity = store.characterEntity[character];
  if (store.characterOfEntity.get(entity) === character) store.characterOfEntity.delete(entity);
}
