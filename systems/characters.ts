/**
 * Characters on their own entity: one call turns a loaded character (a glTF, or any skeleton
 * definition with fitted hitboxes) into a character collider on an entity, and the pipeline then
 * places it by that entity's transform at every step (characterMatrix = entity transform · the
 * asset's fixed root matrix), so no user code writes matrices.
 */
import type { World } from 'bitecs';
import { CollideInputError, assertFiniteValues, assertKnownKeys } from '../src/errors';
import type { SkeletonDefinition } from '../src/character/skeleton';
import { addCharacter, createSkeletonStore } from '../src/character/skeleton';
import type { BoneHitboxes } from '../src/character/hitboxFit';
import { addCharacterHitboxes, createHitboxStore } from '../src/character/hitboxStore';
import { createCharacterRayGrid } from '../src/character/rayGrid';
import { assertHistoryFrames, createHitboxHistory, type HitboxHistory } from '../src/character/hitboxHistory';
import { createHitboxMotion } from '../src/character/hitboxMotion';
import { SHAPE_CHARACTER } from '../components/collider';
import { COLLIDER_OPTION_KEYS, attachCollider, checkColliderOptions, type ColliderBits, type ColliderOptions } from './colliderApi';
import { pipelineOf, type CollisionPipeline, type CollisionPipelineOptions } from './collisionState';
import type { BoneHitboxState } from './updateBoneHitboxes';
import { CHARACTER_KIND } from './characterColliders';

/** What a character collider is made from: what `loadGltfCharacter` returns has all of it. */
export interface CharacterAsset {
  /** The bone hierarchy and rest pose. */
  skeleton: SkeletonDefinition;
  /** One fitted box per bone (fitBoneHitboxes). */
  hitboxes: BoneHitboxes;
  /**
   * The asset's fixed placement under the entity, 16 numbers column-major (a glTF's root matrix);
   * default identity.
   */
  rootMatrix?: ArrayLike<number>;
}

/** Options of `addCharacterCollider`: the collider options, and a scale of the asset. */
export interface CharacterColliderOptions extends ColliderOptions {
  /** Uniform scale applied to the asset under its entity (e.g. 0.01 for a model in centimetres); default 1. */
  assetScale?: number;
}

const IDENTITY = [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1];

/**
 * The characters' `history` (a history given, or `{ frames }`) and `sweeps` options, read when the
 * first character collider installs the characters' code: a program without characters bundles
 * none of it (createCollisionPipeline checks only the option's keys).
 */
function resolveCharacterOptions(option: CollisionPipelineOptions['characters'], p: CollisionPipeline): void {
  if (option === null || typeof option !== 'object') return;
  const { history, sweeps } = option as { history?: HitboxHistory | { frames?: unknown } | null; sweeps?: unknown };
  if (sweeps !== undefined && typeof sweeps !== 'boolean') throw new CollideInputError(`createCollisionPipeline: characters.sweeps must be a boolean, got ${String(sweeps)}`);
  p.sweeps = sweeps === true;
  if (history === undefined) return;
  if (history !== null && typeof history === 'object' && 'slots' in history) {
    p.hitboxHistory = history;
    p.historyFrames = history.frames;
    return;
  }
  if (history !== null && typeof history === 'object') assertKnownKeys(history, ['frames'], 'createCollisionPipeline: characters.history');
  const frames = (history as { frames?: unknown } | null)?.frames;
  assertHistoryFrames(frames, 'createCollisionPipeline: characters.history.frames');
  p.historyFrames = frames as number;
}

/** The pipeline's character stores, made on first use, with the character kind installed. */
function characterStores(p: CollisionPipeline): BoneHitboxState {
  // Shared with the pipeline's worker threads, which split the hitbox update and ray batches.
  const shared = p.parallel !== undefined;
  if (p.characterKind === undefined) resolveCharacterOptions(p.charactersOption, p);
  p.characters ??= { skeletons: createSkeletonStore(shared), hitboxes: createHitboxStore(shared), rayGrid: createCharacterRayGrid(1, shared) };
  if (p.historyFrames > 0) p.hitboxHistory ??= createHitboxHistory(p.historyFrames, shared);
  if (p.sweeps) p.hitboxMotion ??= createHitboxMotion(shared);
  p.characterKind = CHARACTER_KIND;
  return p.characters;
}

/**
 * Makes `entity` an animated character. Given an asset (what loadGltfCharacter returns, or any
 * `{ skeleton, hitboxes, rootMatrix }`), it adds the asset's bones to the pipeline's skeleton
 * store, its hitboxes to the hitbox store, and a character collider to the entity, placed at
 * every step by the entity's transform times the asset's root matrix (and `assetScale`). Given a
 * character index instead, it gives the entity the collider of that character, which you added
 * to the stores of the `characters` option yourself (for that character's entity; you place it).
 * The first call makes the pipeline's character stores unless the option gave them. Returns the
 * character index (for the kernels; the world API takes the entity). Throws CollideInputError for
 * a dead entity, an entity that already has a character, an asset without hitboxes, a root matrix
 * that is not 16 finite numbers, a character index that is not the entity's, or an unknown option.
 */
export function addCharacterCollider(
  target: World | CollisionPipeline,
  entity: number,
  asset: CharacterAsset | number,
  options: CharacterColliderOptions = {},
): number {
  const p = pipelineOf(target, 'addCharacterCollider');
  const what = `addCharacterCollider(entity ${entity})`;
  if (typeof asset === 'number') return attachExistingCharacter(p, entity, asset, options, what);
  if (asset === null || typeof asset !== 'object' || !asset.skeleton || !asset.hitboxes) {
    throw new CollideInputError(`${what}: the asset must be { skeleton, hitboxes[, rootMatrix] } (what loadGltfCharacter returns) or a character index`);
  }
  if (asset.hitboxes.count === 0) throw new CollideInputError(`${what}: the asset has no hitboxes`);
  const root = asset.rootMatrix ?? IDENTITY;
  if (root.length !== 16) throw new CollideInputError(`${what}: rootMatrix must hold 16 numbers, got ${root.length}`);
  assertFiniteValues(root, 0, 16, `${what}.rootMatrix`);
  const assetScale = options?.assetScale ?? 1;
  if (!(assetScale > 0 && assetScale < Infinity)) throw new CollideInputError(`${what}.assetScale must be a finite number > 0, got ${assetScale}`);
  assertNoCharacter(p, entity, what);
  // Everything a collider needs is checked before the stores grow: characters cannot be removed.
  const bits = checkColliderOptions(p, entity, options, [...COLLIDER_OPTION_KEYS, 'assetScale'], 'addCharacterCollider');
  const { skeletons, hitboxes } = characterStores(p);
  const character = addCharacter(skeletons, asset.skeleton, entity);
  addCharacterHitboxes(hitboxes, skeletons, character, asset.hitboxes);
  const m = skeletons.rootMatrix, o = 16 * character;
  for (let k = 0; k < 16; k++) m[o + k] = k < 12 ? root[k] * assetScale : root[k];
  skeletons.placedByEntity[character] = 1;
  attachCharacter(p, entity, character, options, bits);
  return character;
}

function assertNoCharacter(p: CollisionPipeline, entity: number, what: string): void {
  if (entity < p.collider.capacity && p.collider.kind[entity] === SHAPE_CHARACTER) {
    throw new CollideInputError(`${what}: the entity already has character ${p.collider.character[entity]}`);
  }
}

/** addCharacterCollider with the index of a character already in the `characters` option's stores. */
function attachExistingCharacter(p: CollisionPipeline, entity: number, character: number, options: CharacterColliderOptions, what: string): number {
  const bits = checkColliderOptions(p, entity, options, COLLIDER_OPTION_KEYS, 'addCharacterCollider');
  const hitboxes = p.characters?.hitboxes;
  if (hitboxes === undefined) throw new CollideInputError(`${what}: a character index needs character stores: the pipeline's 'characters' option or an earlier character`);
  if (!Number.isInteger(character) || character < 0 || character >= hitboxes.characterCount) {
    throw new CollideInputError(`${what}: character must be a character index in [0, ${hitboxes.characterCount}), got ${character}`);
  }
  if (hitboxes.characterEntity[character] !== entity) {
    throw new CollideInputError(`${what}: character ${character} belongs to entity ${hitboxes.characterEntity[character]}`);
  }
  if (hitboxes.hitboxCount[character] === 0) throw new CollideInputError(`${what}: character ${character} has no hitboxes`);
  if (!(entity < p.collider.capacity && p.collider.kind[entity] === SHAPE_CHARACTER && p.collider.character[entity] === character)) {
    assertNoCharacter(p, entity, what);
  }
  characterStores(p);
  attachCharacter(p, entity, character, options, bits);
  return character;
}

/** The collider of `character` on `entity`, back in the ray casts if it was retired. */
function attachCharacter(p: CollisionPipeline, entity: number, character: number, options: ColliderOptions, bits: ColliderBits): void {
  const hitboxes = p.characters!.hitboxes;
  attachCollider(p, entity, options, bits, () => {
    p.collider.character[entity] = character;
    return SHAPE_CHARACTER;
  });
  hitboxes.retired[character] = 0;
  hitboxes.characterOfEntity.set(entity, character);
}

/**
 * The character index of `entity`'s character collider. Throws CollideInputError when the
 * entity has none.
 */
export function characterOf(target: World | CollisionPipeline, entity: number): number {
  return characterIndexOf(target, entity, 'characterOf');
}

/** @internal characterOf for `caller`, whose name the error carries. */
export function characterIndexOf(target: World | CollisionPipeline, entity: number, caller: string): number {
  const p = pipelineOf(target, caller);
  const c = p.collider;
  if (!(Number.isInteger(entity) && entity >= 0 && entity < c.capacity) || c.kind[entity] !== SHAPE_CHARACTER) {
    throw new CollideInputError(`${caller}: entity ${entity} has no character collider`);
  }
  return c.character[entity];
}
