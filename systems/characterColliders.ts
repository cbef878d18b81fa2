/**
 * Animated characters as colliders. A character entity's collider is its set of bone hitboxes
 * (src/character/): the broad phase sees the character's AABB (the union of its hitboxes,
 * refreshed every frame after the bones move), and the narrow phase tests the other collider
 * against each hitbox, so a pair is reported when any hitbox touches. Which hitboxes touched is
 * written to the pipeline's pooled `hitboxPairs` (entity pair plus hitbox indices, from which the
 * bone and hit group follow), since "the sword hit the head" is what gameplay code asks.
 *
 * Character pairs report touching pairs, events and hitbox pairs; no contact manifold.
 */
import { CollideInputError } from '../src/errors';
import { kdopFromObb, kdopOverlap } from '../src/volumes/kdop';
import { CONTACT_STRIDE } from '../src/contacts/manifold';
import { contactCapsuleObb } from '../src/contacts/capsuleBox';
import { OBB_STRIDE, SPHERE_STRIDE } from '../src/layout';
import { obbAabbOverlap, obbOverlap, obbSphereOverlap } from '../src/query/sat';
import {
  SHAPE_AABB,
  SHAPE_CAPSULE,
  SHAPE_CHARACTER,
  SHAPE_KDOP,
  SHAPE_MESH,
  SHAPE_SPHERE,
  SHAPE_STRIDE,
  storeBroadPhaseBox,
  type ColliderStore,
} from '../components/collider';
import { pushHitboxPair } from '../components/hitboxPairStore';
import type { TransformStore } from '../components/transform';
import { quaternionToMat3, unitStoredQuaternion } from '../src/rotation';
import type { SkeletonStore } from '../src/character/skeleton';
import type { CharacterKind, CollisionPipeline } from './collisionState';
import { updateBoneHitboxesOn } from './updateBoneHitboxes';
import { recordHitboxHistory } from '../src/character/hitboxHistory';
import { beginHitboxMotion, finishHitboxMotion } from '../src/character/hitboxMotion';

/** What addCharacterCollider installs into a pipeline. */
export const CHARACTER_KIND: CharacterKind = { update: updateCharacters, pairOverlap: characterPairOverlap, stepTime };

/** The time of a step: finite and, once a time was given, later than the last one; required with a history. */
function stepTime(p: CollisionPipeline, time: number | undefined): void {
  if (time === undefined && p.historyFrames === 0) return;
  if (time === undefined) throw new CollideInputError('step: the hitbox history records each frame with its time: call step(world, time) (e.g. the server\'s tick time)');
  if (!Number.isFinite(time)) throw new CollideInputError(`step: time must be a finite number, got ${time}`);
  if (!(time > p.time) && !Number.isNaN(p.time)) throw new CollideInputError(`step: time must increase from step to step, got ${time} after ${p.time}`);
  p.time = time;
}

/**
 * The step's character stage: the placement of characters added with addCharacterCollider (from
 * their entity's transform), bone world matrices, hitbox world boxes and character AABBs
 * (updateBoneHitboxes), with the characters' `sweeps` option the hitboxes' motion over the step
 * (the boxes before the update to those after), the hitbox history's frame at the step's time
 * (with the characters' `history` option), then each character collider's broad-phase box from
 * its AABB, like refitVolumes does for other colliders (Float32, outward, margin).
 * Allocation-free.
 */
function updateCharacters(p: CollisionPipeline): void {
  const state = p.characters;
  if (state === undefined) return;
  placeCharacters(state.skeletons, p.transform);
  const motion = p.sweeps ? p.hitboxMotion : undefined;
  if (motion !== undefined && !p.sweepFromRest) beginHitboxMotion(motion, state.hitboxes);
  updateBoneHitboxesOn(state, p.parallel, 'step');
  if (motion !== undefined) {
    // After shiftWorldOrigin the boxes before the update were at the old origin: start at rest.
    if (p.sweepFromRest) beginHitboxMotion(motion, state.hitboxes);
    p.sweepFromRest = false;
    finishHitboxMotion(motion, state.hitboxes);
  }
  if (p.hitboxHistory !== undefined) recordHitboxHistory(p.hitboxHistory, state.hitboxes, p.time);
  const c = p.collider;
  const { characterAabb, characterEntity, characterCount } = state.hitboxes;
  for (let ch = 0; ch < characterCount; ch++) {
    const e = characterEntity[ch];
    if (e >= c.capacity || c.kind[e] !== SHAPE_CHARACTER || c.character[e] !== ch) continue;
    storeBroadPhaseBox(c, e, characterAabb, 6 * ch, p.aabbMargin);
  }
}

// Scratch: an entity's quaternion, and its rotation as a 3x3 matrix (columns).
const quaternion = new Float64Array(4);
const rotation = new Float64Array(9);

/**
 * Writes characterMatrix = (entity transform: translation, rotation, uniform scale) · rootMatrix
 * for every character the pipeline places. Per frame, allocation-free: one 4x4 product each.
 */
function placeCharacters(skeletons: SkeletonStore, t: TransformStore): void {
  const { characterMatrix: out, rootMatrix: root, placedByEntity, characterEntity } = skeletons;
  const position = t.position, scale = t.scale;
  for (let c = 0; c < skeletons.characterCount; c++) {
    if (placedByEntity[c] !== 1) continue;
    const e = characterEntity[c], o = 16 * c, s = scale[e];
    for (let k = 0; k < 4; k++) quaternion[k] = t.rotation[4 * e + k];
    unitStoredQuaternion(quaternion, 0);
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

const manifoldScratch = new Float64Array(CONTACT_STRIDE);
const hitboxKdop = new Float64Array(26);

/** Does the hitbox world box at boxes[bo] meet collider `e` (not a character)? */
function hitboxMeetsCollider(p: CollisionPipeline, boxes: Float32Array, bo: number, e: number): boolean {
  const c: ColliderStore = p.collider;
  const w = c.world;
  const o = SHAPE_STRIDE * e;
  switch (c.kind[e]) {
    case SHAPE_SPHERE:
      return obbSphereOverlap(boxes, bo, w, o);
    case SHAPE_AABB:
      return obbAabbOverlap(boxes, bo, w, o);
    case SHAPE_CAPSULE:
      return contactCapsuleObb(manifoldScratch, 0, w, o, boxes, bo) > 0;
    case SHAPE_KDOP: // like every k-DOP pair: the conservative test of the two k-DOPs
      return kdopOverlap(kdopFromObb(hitboxKdop, 0, c.kdopK, boxes, bo), 0, c.kdop, c.kdopK * e, c.kdopK);
    case SHAPE_MESH: // a mesh collider exists, so addMeshCollider installed its tests
      return p.meshKind!.overlapsObb(c, p.transform, e, boxes, bo);
    default:
      return obbOverlap(boxes, bo, w, o);
  }
}

/**
 * Exact test of a pair in which at least one collider is a character: every touching hitbox
 * pair goes to `p.hitboxPairs`. Returns whether any hitbox touched.
 */
function characterPairOverlap(p: CollisionPipeline, a: number, b: number): boolean {
  const c = p.collider;
  const hit = p.characters!.hitboxes;
  const boxes = hit.world;
  const out = p.hitboxPairs;
  const before = out.count;
  const aIsCharacter = c.kind[a] === SHAPE_CHARACTER;
  const bIsCharacter = c.kind[b] === SHAPE_CHARACTER;
  if (aIsCharacter && bIsCharacter) {
    const fa = hit.firstHitbox[c.character[a]], ea = fa + hit.hitboxCount[c.character[a]];
    const fb = hit.firstHitbox[c.character[b]], eb = fb + hit.hitboxCount[c.character[b]];
    const sphere = hit.sphere;
    for (let ha = fa; ha < ea; ha++) {
      const sa = SPHERE_STRIDE * ha;
      for (let hb = fb; hb < eb; hb++) {
        const sb = SPHERE_STRIDE * hb;
        // Bounding spheres apart: no SAT needed.
        const dx = sphere[sb] - sphere[sa], dy = sphere[sb + 1] - sphere[sa + 1], dz = sphere[sb + 2] - sphere[sa + 2];
        const r = sphere[sa + 3] + sphere[sb + 3];
        if (dx * dx + dy * dy + dz * dz > r * r) continue;
        if (obbOverlap(boxes, OBB_STRIDE * ha, boxes, OBB_STRIDE * hb)) pushHitboxPair(out, a, b, ha, hb);
      }
    }
  } else {
    const character = aIsCharacter ? a : b;
    const other = aIsCharacter ? b : a;
    const first = hit.firstHitbox[c.character[character]];
    const end = first + hit.hitboxCount[c.character[character]];
    for (let h = first; h < end; h++) {
      if (hitboxMeetsCollider(p, boxes, OBB_STRIDE * h, other)) {
        pushHitboxPair(out, a, b, aIsCharacter ? h : -1, aIsCharacter ? -1 : h);
      }
    }
  }
  return out.count > before;
}
