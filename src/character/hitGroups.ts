import { CollideInputError, valueName } from '../errors';

/**
 * Hit groups: a per-hitbox tag for damage rules (head, torso, arms, legs, tail, other), guessed
 * from the bone's name.
 */

// ---- hit groups ----

/** Hit group tags (a per-hitbox Uint8), e.g. for damage multipliers: head, neck, jaw, eyes. */
export const HIT_GROUP_HEAD = 0;
/** Hit group: spine, chest, hips, pelvis. */
export const HIT_GROUP_TORSO = 1;
/** Hit group: shoulders, arms, hands. */
export const HIT_GROUP_ARMS = 2;
/** Hit group: legs and feet. */
export const HIT_GROUP_LEGS = 3;
/** Hit group: tails. */
export const HIT_GROUP_TAIL = 4;
/** Hit group of bones whose names match none of the others. */
export const HIT_GROUP_OTHER = 5;
/** Names of the hit groups, by tag. */
export const HIT_GROUP_NAMES: readonly string[] = ['head', 'torso', 'arms', 'legs', 'tail', 'other'];

// Checked in order: limb words first, so "LeftUpperArm" is an arm although it mentions "upper".
const GROUP_PATTERNS: readonly [RegExp, number][] = [
  [/tail/, HIT_GROUP_TAIL],
  [/arm|hand|finger|thumb|index|middle|ring|pinky|wrist|elbow|shoulder|clavicle/, HIT_GROUP_ARMS],
  [/leg|thigh|knee|calf|shin|foot|toe|ankle/, HIT_GROUP_LEGS],
  [/head|neck|jaw|eye|skull|ear/, HIT_GROUP_HEAD],
  [/spine|chest|hip|pelvis|torso|belly|abdomen|body/, HIT_GROUP_TORSO],
];

/** Hit group guessed from a bone name (case-insensitive keywords); HIT_GROUP_OTHER when nothing matches. */
export function hitGroupFromBoneName(name: string): number {
  if (typeof name !== 'string') throw new CollideInputError(`hitGroupFromBoneName: name must be a string, got ${valueName(name)}`);
  const lower = name.toLowerCase();
  for (const [pattern, group] of GROUP_PATTERNS) if (pattern.test(lower)) return group;
  return HIT_GROUP_OTHER;
}
