import { assertMadeBy } from '../query/rayQuery';
/**
 * The layout of the hitbox store shared by its builder (hitboxStore.ts) and the per-frame update
 * (hitboxUpdate.ts): the store's fields and the constants that shape them.
 */

/**
 * Hitboxes per cluster: a character's hitboxes (sorted by bone, so a depth-first skeleton keeps a
 * limb's bones together) are cut into runs of this many, each with its own world AABB. A ray that
 * enters a character's AABB then tests a few cluster boxes instead of every hitbox: the fingers of
 * a hand, for instance, are skipped together. Measured on the 68-bone humanoid (55 hitboxes).
 */
export const HITBOXES_PER_CLUSTER = 8;

/** Numbers per hitbox in `HitboxStore.extent`: local centre (3), then extent vectors h_k·u_k (9). */
export const EXTENT_STRIDE = 12;

/**
 * Hitbox and bone indices stay below this (2^24, checked when adding), so `updateHitboxes` can
 * mask them with MAX_INDEX - 1: the JIT then knows every offset (index · 16 + k) fits in an int32
 * and drops the overflow check of each array access (10% of the update, measured).
 */
export const MAX_INDEX = 2 ** 24;

/**
 * Hitboxes of many characters, struct-of-arrays, parallel to a SkeletonStore (same character
 * indices). Per hitbox: global `bone`, `character`, hit `group`, `local` box (bone space),
 * `extent` (the local box as centre and half-extent vectors h_k·u_k, 12 numbers, so the update is
 * one 3x3 product per vector), `world` box and `sphere` (the world box's bounding sphere, sphere
 * layout, a cheap pre-test: 16 bytes per hitbox, so a ray or a pair test reads a few cache lines
 * per cluster instead of one per box). Per character: `firstHitbox`, `hitboxCount`,
 * `characterEntity`, `characterAabb` (min-max union of its world boxes, for broad phases;
 * inverted when it has no hitbox) and `firstCluster`; per cluster (see HITBOXES_PER_CLUSTER)
 * `clusterAabb`. Bind-time data (`local`, `extent`) is Float64; what is rewritten every frame is
 * Float32, every bound widened (HITBOX_ROUNDING_MARGIN_RELATIVE) so it holds for the boxes as stored.
 * Arrays are replaced when the store grows: read them from the store after adding.
 */
export interface HitboxStore {
  /**
   * Per character: 1 once retired (its entity lost its character collider). Its hitboxes stay in
   * the store (characters are never removed from it), but ray casts no longer see it.
   */
  retired: Uint8Array;
  /** The character of each entity that has one (for queries that name entities). */
  characterOfEntity: Map<number, number>;
  /** Per hitbox: the name of its bone (a glance for gameplay code; `bone` is the index). */
  boneName: string[];
  /** Hitboxes of all characters. */
  count: number;
  /** Characters added. */
  characterCount: number;
  /** Clusters of all characters. */
  clusterCount: number;
  /** Per hitbox: global bone index in the skeleton store. */
  bone: Int32Array;
  /** Per hitbox: its character. */
  character: Int32Array;
  /** Per hitbox: hit group tag (HIT_GROUP_*). */
  group: Uint8Array;
  /** Per hitbox: local OBB in bone space (OBB layout, 15 numbers). */
  local: Float64Array;
  /** Per hitbox: the local box as centre and half-extent vectors h_k·u_k (12 numbers). */
  extent: Float64Array;
  /** Per hitbox: world OBB of the last update (OBB layout). */
  world: Float32Array;
  /** Per hitbox: bounding sphere of the world box (sphere layout). */
  sphere: Float32Array;
  /** Per character: index of its first hitbox. */
  firstHitbox: Int32Array;
  /** Per character: its number of hitboxes. */
  hitboxCount: Int32Array;
  /** Per character: the entity that owns it. */
  characterEntity: Int32Array;
  /** Per character: min-max union of its world boxes (6 numbers). */
  characterAabb: Float32Array;
  /** Per character: index of its first cluster. */
  firstCluster: Int32Array;
  /** Per cluster: min-max union of its hitboxes' world boxes (6 numbers). */
  clusterAabb: Float32Array;
}

/** Throws CollideInputError unless `store` is a hitbox store (createHitboxStore); `caller` names the function. */
export function assertHitboxStore(store: unknown, caller: string): void {
  assertMadeBy(store, 'firstHitbox', caller, 'store', 'createHitboxStore');
}
