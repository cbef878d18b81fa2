import { assertRayGrid, buildCharacterRayGrid, type CharacterRayGrid } from '../src/character/rayGrid';
import { assertMadeBy } from '../src/query/rayQuery';
import { updateCharacterRun } from '../src/character/hitboxUpdate';
import { assertHitboxStore, type HitboxStore } from '../src/character/hitboxLayout';
import { boneRefusal, type SkeletonStore } from '../src/character/skeleton';
import { CollideInputError, assertRecord } from '../src/errors';
import type { HitboxJobs } from './parallel/hitboxJobs';

/** What `updateBoneHitboxes` reads and writes: the skeleton and hitbox stores, and optionally a ray grid. */
export interface BoneHitboxState {
  /** Bones of the characters (animation writes their local TRS). */
  skeletons: SkeletonStore;
  /** Hitboxes of the same characters, in the same order. */
  hitboxes: HitboxStore;
  /** Rebuilt from the character AABBs when present, for `raycastHitboxes`. */
  rayGrid?: CharacterRayGrid;
}

/**
 * Per-frame system, between refitVolumes and the broad phase: bone world matrices (one
 * parents-first pass over the local TRS that animation wrote), then every hitbox's world OBB and
 * each character's AABB (the union), then the ray grid. Allocation-free in steady state.
 */
export function updateBoneHitboxes(state: BoneHitboxState): void {
  assertRecord(state, 'updateBoneHitboxes', 'state');
  assertHitboxStore(state.hitboxes, 'updateBoneHitboxes');
  assertMadeBy(state.skeletons, 'world', 'updateBoneHitboxes', 'state.skeletons', 'createSkeletonStore');
  if (state.rayGrid !== undefined) assertRayGrid(state.rayGrid, 'updateBoneHitboxes');
  updateBoneHitboxesOn(state, undefined, 'updateBoneHitboxes');
}

/**
 * @internal updateBoneHitboxes with the world matrices and hitboxes split between the pool's
 * threads by runs of characters when there are enough of them (and the stores are shared).
 */
export function updateBoneHitboxesOn(state: BoneHitboxState, parallel: { minHitboxCharacters: number; readonly hitboxes: HitboxJobs } | undefined, caller: string): void {
  const { hitboxes, skeletons } = state;
  let refused = parallel !== undefined && hitboxes.characterCount >= parallel.minHitboxCharacters ? parallel.hitboxes.update(hitboxes, skeletons) : undefined;
  if (refused === undefined) refused = updateCharacterRun(hitboxes, skeletons, 0, hitboxes.characterCount);
  if (refused >= 0) throw new CollideInputError(`${caller}: ${boneRefusal(skeletons, refused)}`);
  if (state.rayGrid) buildCharacterRayGrid(state.rayGrid, hitboxes);
}
