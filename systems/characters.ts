/**
 * Characters on their own entity: one call turns a loaded character (a glTF, or any skeleton
 * definition with fitted hitboxes) into a character collider on an entity, and the pipeline then
 * places it by that entity's transform at every step (characterMatrix = entity transform · the
 * asset's fixed root matrix), so no user code writes matrices.
 */
import type { World } from 'bitecs';
import { CollideInputError, assertFiniteValues, assertKnownKeys } from '../src/errors';
import { quaternionToMat3 } from '../src/rotation';
import type { SkeletonDefinition, SkeletonStore } from '../src/character/skeleton';
import { addCharacter } from '../src/character/skeleton';
import type { BoneHitboxes } from '../src/character/hitboxFit';
import { addCharacterHitboxes } from '../src/character/hitboxStore';
import { SHAPE_CHARACTER } from '../components/collider';
import type { TransformStore } from '../components/transform';
import { addCollider, checkColliderOptions, type ColliderOptions } from './colliderApi';
import { pipelineOf, type CollisionPipeline } from './collisionState';

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

const CHARACTER_KEYS = ['layer', 'mask', 'sensor', 'isStatic', 'dynamic', 'assetScale'];
const IDENTITY = [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1];
// Scratch: the entity's quaternion, and its rotation as a 3x3 matrix (columns).
const quaternion = new Float64Array(4);
const rotation = new Float64Array(9);

/**
 * Makes `entity` an animated character: adds the asset's bones to the pipeline's skeleton store,
 * its hitboxes to the hitbox store, and a character collider to the entity, placed at every step
 * by the entity's transform times the asset's root matrix (and `assetScale`). The pipeline needs
 * the `characters` option. Returns the character index (for the kernels; the world API takes the
 * entity). Throws CollideInputError for a dead entity, an entity that already has a character,
 * an asset without hitboxes, a root matrix that is not 16 finite numbers, or an unknown option.
 */
export function addCharacterCollider(target: World | CollisionPipeline, entity: number, asset: CharacterAsset, options: CharacterColliderOptions = {}): number {
  const p = pipelineOf(target, 'addCharacterCollider');
  const what = `addCharacterCollider(entity ${entity})`;
  const stores = p.characters;
  if (stores === undefined) throw new CollideInputError(`${what}: the pipeline needs the 'characters' option (characters: true)`);
  if (asset === null || typeof asset !== 'object' || !asset.skeleton || !asset.hitboxes) {
    throw new CollideInputError(`${what}: the asset must be { skeleton, hitboxes[, rootMatrix] } (what loadGltfCharacter returns)`);
  }
  if (options === null || typeof options !== 'object') throw new CollideInputError(`${what}: options must be an object`);
  assertKnownKeys(options, CHARACTER_KEYS, what);
  if (asset.hitboxes.count === 0) throw new CollideInputError(`${what}: the asset has no hitboxes`);
  const root = asset.rootMatrix ?? IDENTITY;
  if (root.length !== 16) throw new CollideInputError(`${what}: rootMatrix must hold 16 numbers, got ${root.length}`);
  assertFiniteValues(root, 0, 16, `${what}.rootMatrix`);
  const assetScale = options.assetScale ?? 1;
  if (!(assetScale > 0 && assetScale < Infinity)) throw new CollideInputError(`${what}.assetScale must be a finite number > 0, got ${assetScale}`);
  if (entity < p.collider.capacity && p.collider.kind[entity] === SHAPE_CHARACTER) {
    throw new CollideInputError(`${what}: the entity already has character ${p.collider.character[entity]}`);
  }
  const { assetScale: _, ...colliderOptions } = options;
  // Everything addCollider checks is checked before the stores grow: characters cannot be removed.
  checkColliderOptions(p, entity, { ...colliderOptions, shape: 'character', character: 0 }, 'addCharacterCollider');
  const { skeletons, hitboxes } = stores;
  const character = addCharacter(skeletons, asset.skeleton, entity);
  addCharacterHitboxes(hitboxes, skeletons, character, asset.hitboxes);
  const m = skeletons.rootMatrix, o = 16 * character;
  for (let k = 0; k < 16; k++) m[o + k] = k < 12 ? root[k] * assetScale : root[k];
  skeletons.placedByEntity[character] = 1;
  addCollider(p, entity, { ...colliderOptions, shape: 'character', character });
  return character;
}

/**
 * The character index of `entity`'s character collider. Throws CollideInputError when the
 * entity has none.
 */
export function characterOf(target: World | CollisionPipeline, entity: number): number {
  const p = pipelineOf(target, 'characterOf');
  const c = p.collider;
  if (!(Number.isInteger(entity) && entity >= 0 && entity < c.capacity) || c.kind[entity] !== SHAPE_CHARACTER) {
    throw new CollideInputError(`characterOf: entity ${entity} has no character collider`);
  }
  return c.character[entity];
}

/**
 * Writes characterMatrix = (entity transform: translation, rotation, uniform scale) · rootMatrix
 * for every character the pipeline places. Per frame, allocation-free: one 4x4 product each.
 */
export function placeCharacters(skeletons: SkeletonStore, t: TransformStore): void {
  const { characterMatrix: out, rootMatrix: root, placedByEntity, characterEntity } = skeletons;
  const position = t.position, scale = t.scale;
  for (let c = 0; c < skeletons.characterCount; c++) {
    if (placedByEntity[c] !== 1) continue;
    const e = characterEntity[c], o = 16 * c, s = scale[e];
    for (let k = 0; k < 4; k++) quaternion[k] = t.rotation[4 * e + k];
    const r = quaternionToMat3(rotation, 0, quaternion);
    const tx = position[3 * e], ty = position[3 * e + 1], tz = position[3 * e + 2];
    // Column j of (T · R · s) · root: R's columns scaled by s, translation weighted by root's w.
    for (let j = 0; j < 4; j++) {
      const b0 = root[o + 4 * j] * s, b1 = root[o + 4 * j + 1] * s, b2 = root[o + 4 * j + 2] * s, b3 = root[o + 4 * j + 3];
      out[o + 4 * j] = r[0] * b0 + r[3] * b1 + r[6] * b2 + tx * b3;
      out[o + 4 * j + 1] = r[1] * b0 + r[4] * b1 + r[7] * b2 + ty * b3;
      out[o + 4 * j + 2] = r[2] * b0 + r[5] * b1 + r[8] * b2 + tz * b3;
      out[o + 4 * j + 3] = b3;
    }
  }
}
