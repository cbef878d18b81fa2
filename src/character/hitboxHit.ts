import { HIT_GROUP_NAMES } from './hitGroups';
import type { HitboxStore } from './hitboxLayout';

/**
 * What a hit on a character hitbox names, shared by ray casts and melee sweeps: the hitbox, its
 * character and entity, bone and hit group (with their names), when (t) and where.
 */
export interface HitboxHit {
  /** Hitbox hit (index into the HitboxStore). */
  hitbox: number;
  /** Its character. */
  character: number;
  /** The character's entity. */
  entity: number;
  /** Global bone index in the skeleton store. */
  bone: number;
  /** Hit group of the hitbox (HIT_GROUP_*). */
  group: number;
  /** The bone's name ('' when the skeleton had none). */
  boneName: string;
  /** The hit group's name (HIT_GROUP_NAMES[group]: 'head', 'torso', ...). */
  groupName: string;
  /** When: the ray parameter of a ray hit; the fraction of the frame of a sweep's first contact. */
  t: number;
  /** World point of the hit. */
  point: Float64Array;
  /** Unit normal at the hit, pointing out of the hitbox. */
  normal: Float64Array;
}

/** A reusable hitbox hit (hitbox −1, t Infinity). */
export function createHitboxHit(): HitboxHit {
  return { hitbox: -1, character: -1, entity: -1, bone: -1, group: -1, boneName: '', groupName: '', t: Infinity, point: new Float64Array(3), normal: new Float64Array(3) };
}

/** Writes what hitbox h of `store` is (hitbox, character, entity, bone and group with their names) into `hit`. */
export function nameHitbox(hit: HitboxHit, store: HitboxStore, h: number): void {
  const c = store.character[h];
  hit.hitbox = h;
  hit.character = c;
  hit.entity = store.characterEntity[c];
  hit.bone = store.bone[h];
  hit.group = store.group[h];
  hit.boneName = store.boneName[h];
  hit.groupName = HIT_GROUP_NAMES[hit.group];
}
