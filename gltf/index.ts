/**
 * bitecs-collide/gltf: skinned glTF characters without a renderer. Reads a skin (joints, parents,
 * inverse bind matrices, rest pose), its skinned mesh (POSITION, JOINTS_0, WEIGHTS_0), fits bone
 * hitboxes, and samples animations into bone local TRS, using @gltf-transform/core documents:
 *
 *   const doc = await new NodeIO().read('Fox.glb');   // or WebIO in a browser
 *   const fox = loadGltfCharacter(doc);
 *   addCharacterCollider(world, entity, fox);           // placed by the entity's transform
 *   // each frame, before the step:
 *   animateCharacter(world, entity, fox.animations[0], t % fox.animations[0].duration);
 */
import type { Accessor, Document, Node, Skin } from '@gltf-transform/core';
import { fitBoneHitboxes, type BoneHitboxes, type HitboxFitOptions } from '../src/character/hitboxFit';
import { CollideInputError, assertNumberList, assertNumberRun, assertOutput, assertRecord, valueName } from '../src/errors';
import { addCharacter, assertSkeletonDefinition, boneRefusal, computeWorldMatrices, createSkeletonStore, defineSkeleton, type SkeletonDefinition } from '../src/character/skeleton';
import { defineSkin, type SkinDefinition } from '../src/character/skin';
import { slerpQuaternion } from '../src/rotation';
import { ROOT_PLACEMENT_TOLERANCE } from '../src/tolerances';
import type { World } from 'bitecs';
import { characterOf } from '../systems/characters';
import { pipelineOf, type CollisionPipeline } from '../systems/collisionState';

/** Which local TRS component a channel drives. */
export type GltfChannelPath = 'translation' | 'rotation' | 'scale';

/** One animation channel, its keys read out of the accessors once. */
export interface GltfChannel {
  /** Bone (parents-first index of the skeleton definition). */
  bone: number;
  /** The local TRS component it drives. */
  path: GltfChannelPath;
  /** Key interpolation, as in the glTF sampler. */
  interpolation: 'LINEAR' | 'STEP' | 'CUBICSPLINE';
  /** Key times, increasing. */
  times: Float64Array;
  /** Key values, 3 (translation, scale) or 4 (rotation x, y, z, w) per key; for CUBICSPLINE only the values, tangents dropped. */
  values: Float64Array;
}

/** An animation: its channels that drive bones of the skin. */
export interface GltfAnimation {
  /** Its name in the document ('' when it had none). */
  name: string;
  /** Last key time over all channels. */
  duration: number;
  /** Its channels that drive bones of the skin. */
  channels: GltfChannel[];
}

/** A skinned character read from a glTF document. */
export interface GltfCharacter {
  /** The skin's joints as a skeleton definition (parents-first). */
  skeleton: SkeletonDefinition;
  /** The skinned mesh: bind-pose positions, joints and weights. */
  skin: SkinDefinition;
  /** One box per bone, fitted over the bind pose and sampled animation poses (`poseSamples`). */
  hitboxes: BoneHitboxes;
  /**
   * World matrix (column-major) of the nodes above the root joints: glTF joint matrices include
   * them, so put `placement · rootMatrix` in the character's `characterMatrix`.
   */
  rootMatrix: Float64Array;
  /** The document's animations, each with its channels that drive bones of the skin. */
  animations: GltfAnimation[];
}

/**
 * Most poses sampled per animation (`poseSamples`, `sampleGltfPoses`): far more than a fit needs,
 * and each pose is an array of 16 numbers per bone.
 */
export const MAX_POSE_SAMPLES = 4096;

/** Default `poseSamples` of `loadGltfCharacter`. */
export const DEFAULT_POSE_SAMPLES = 20;

/** Options of `loadGltfCharacter`. */
export interface GltfCharacterOptions {
  /** Index of the skin in the document (default 0). */
  skin?: number;
  /** Passed to `fitBoneHitboxes`. */
  hitboxes?: HitboxFitOptions;
  /**
   * Poses sampled per animation to fit the hitboxes over (default 20; 0 fits the bind pose only;
   * at most MAX_POSE_SAMPLES).
   * Skins stretch away from their bind pose when animated: the Fox's bind-pose boxes hold about
   * 93% of its animated vertices, boxes fitted over 20 poses per animation over 99.9%. Ignored
   * when `hitboxes.poses` is given or the document has no animations.
   */
  poseSamples?: number;
}

function accessorValues(accessor: Accessor, width: number): Float64Array {
  const count = accessor.getCount();
  const out = new Float64Array(count * width);
  const element: number[] = [];
  // getElement denormalises quantised (normalised integer) accessors.
  for (let i = 0; i < count; i++) {
    accessor.getElement(i, element);
    for (let k = 0; k < width; k++) out[width * i + k] = element[k] ?? 0;
  }
  return out;
}

function readPrimitiveSkin(skinNode: Skin, doc: Document): { positions: number[]; joints: number[]; weights: number[] } {
  const positions: number[] = [];
  const joints: number[] = [];
  const weights: number[] = [];
  for (const node of doc.getRoot().listNodes()) {
    if (node.getSkin() !== skinNode) continue;
    const mesh = node.getMesh();
    if (!mesh) continue;
    for (const prim of mesh.listPrimitives()) {
      const pos = prim.getAttribute('POSITION');
      const j = prim.getAttribute('JOINTS_0');
      const w = prim.getAttribute('WEIGHTS_0');
      if (!pos || !j || !w) throw new CollideInputError(`gltf: a primitive of mesh "${mesh.getName()}" lacks POSITION, JOINTS_0 or WEIGHTS_0`);
      positions.push(...accessorValues(pos, 3));
      joints.push(...accessorValues(j, 4));
      weights.push(...accessorValues(w, 4));
    }
  }
  if (positions.length === 0) throw new CollideInputError('gltf: no mesh uses the skin');
  return { positions, joints, weights };
}

/** Parent joint per joint; non-joint nodes between two joints are not supported. */
function jointParents(joints: Node[]): { parents: number[]; rootMatrix: Float64Array } {
  const index = new Map(joints.map((j, i) => [j, i]));
  let rootMatrix: Float64Array | undefined;
  const parents = joints.map((joint) => {
    const parent = joint.getParentNode();
    if (parent && index.has(parent)) return index.get(parent) as number;
    // A root joint: everything above it is a fixed placement, the same for all roots.
    for (let up = parent; up; up = up.getParentNode()) {
      if (index.has(up)) throw new CollideInputError(`gltf: non-joint node "${parent?.getName()}" sits between joints; unsupported`);
    }
    const m = Float64Array.from(parent ? parent.getWorldMatrix() : [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1]);
    if (rootMatrix && rootMatrix.some((v, k) => Math.abs(v - m[k]) > ROOT_PLACEMENT_TOLERANCE * (1 + Math.abs(v)))) {
      throw new CollideInputError('gltf: root joints under differently placed nodes are unsupported');
    }
    rootMatrix = m;
    return -1;
  });
  return { parents, rootMatrix: rootMatrix as Float64Array };
}

/**
 * Reads skin `options.skin` (default 0) of a glTF document into a skeleton definition, a
 * validated skin, fitted hitboxes and the animations that drive its joints. Joints are put
 * parents-first (skin joint indices remapped). Missing inverse bind matrices are identities (glTF
 * default). Hitboxes are fitted over `poseSamples` poses of every animation (see the option).
 * Throws CollideInputError on a document without that skin or a mesh using it, on a negative or
 * fractional `poseSamples`, and on everything `defineSkeleton`, `defineSkin` and
 * `fitBoneHitboxes` reject.
 */
export function loadGltfCharacter(doc: Document, options: GltfCharacterOptions = {}): GltfCharacter {
  if (doc === null || typeof doc !== 'object' || typeof (doc as { getRoot?: unknown }).getRoot !== 'function') {
    throw new CollideInputError(`loadGltfCharacter: doc must be a glTF-Transform Document (e.g. from NodeIO.read), got ${valueName(doc)}`);
  }
  assertRecord(options, 'loadGltfCharacter', 'options');
  const skinIndex = options.skin ?? 0;
  const poseSamples = options.poseSamples ?? DEFAULT_POSE_SAMPLES;
  if (!Number.isInteger(poseSamples) || poseSamples < 0 || poseSamples > MAX_POSE_SAMPLES) {
    throw new CollideInputError(`gltf: poseSamples must be an integer in [0, ${MAX_POSE_SAMPLES}], got ${valueName(poseSamples)}`);
  }
  const gltfSkin = doc.getRoot().listSkins()[skinIndex];
  if (!gltfSkin) throw new CollideInputError(`gltf: the document has no skin ${skinIndex}`);
  const joints = gltfSkin.listJoints();
  const n = joints.length;
  if (n === 0) throw new CollideInputError(`gltf: skin ${skinIndex} has no joints`);
  const { parents, rootMatrix } = jointParents(joints);
  const translation = new Float64Array(3 * n);
  const rotation = new Float64Array(4 * n);
  const scale = new Float64Array(3 * n);
  joints.forEach((j, i) => {
    translation.set(j.getTranslation(), 3 * i);
    rotation.set(j.getRotation(), 4 * i);
    scale.set(j.getScale(), 3 * i);
  });
  const ibm = gltfSkin.getInverseBindMatrices();
  const inverseBind = ibm ? accessorValues(ibm, 16) : new Float64Array(16 * n).map((_, k) => (k % 16 % 5 === 0 ? 1 : 0));
  if (inverseBind.length !== 16 * n) throw new CollideInputError(`gltf: ${inverseBind.length / 16} inverse bind matrices for ${n} joints`);
  const skeleton = defineSkeleton({ parents, names: joints.map((j) => j.getName()), translation, rotation, scale, inverseBind });
  const skin = defineSkin(skeleton, { ...readPrimitiveSkin(gltfSkin, doc), influences: 4 });

  const jointIndex = new Map(joints.map((j, i) => [j, i]));
  const animations = doc.getRoot().listAnimations().map((anim): GltfAnimation => {
    const channels: GltfChannel[] = [];
    let duration = 0;
    for (const ch of anim.listChannels()) {
      const target = ch.getTargetNode();
      const path = ch.getTargetPath();
      const sampler = ch.getSampler();
      const source = target ? jointIndex.get(target) : undefined;
      if (source === undefined || !sampler || (path !== 'translation' && path !== 'rotation' && path !== 'scale')) continue;
      const input = sampler.getInput();
      const output = sampler.getOutput();
      if (!input || !output) continue;
      const interpolation = sampler.getInterpolation();
      const width = path === 'rotation' ? 4 : 3;
      const times = accessorValues(input, 1);
      let values = accessorValues(output, width);
      if (interpolation === 'CUBICSPLINE') {
        // Keys are (in-tangent, value, out-tangent): keep the values.
        values = Float64Array.from({ length: times.length * width }, (_, k) => values[(3 * Math.floor(k / width) + 1) * width + (k % width)]);
      }
      if (values.length !== times.length * width) throw new CollideInputError(`gltf: animation "${anim.getName()}" channel has ${times.length} times but ${values.length / width} values`);
      for (let k = 1; k < times.length; k++) {
        if (!(times[k] >= times[k - 1])) throw new CollideInputError(`gltf: animation "${anim.getName()}" key times decrease at key ${k}`);
      }
      if (times.length > 0) duration = Math.max(duration, times[times.length - 1]);
      channels.push({ bone: skeleton.boneOfSource[source], path, interpolation, times, values });
    }
    return { name: anim.getName(), duration, channels };
  });
  const hitboxOptions = { ...options.hitboxes };
  if (hitboxOptions.poses === undefined && poseSamples > 0 && animations.length > 0) {
    hitboxOptions.poses = sampleGltfPoses(skeleton, animations, poseSamples);
  }
  const hitboxes = fitBoneHitboxes(skeleton, skin, hitboxOptions);
  return { skeleton, skin, hitboxes, rootMatrix, animations };
}

/** Largest k with times[k] <= t (0 when t is before the first key), by binary search. */
function keyBefore(times: Float64Array, t: number): number {
  let lo = 0, hi = times.length - 1;
  if (t >= times[hi]) return hi;
  while (hi - lo > 1) {
    const mid = (lo + hi) >> 1;
    if (times[mid] <= t) lo = mid;
    else hi = mid;
  }
  return lo;
}

/**
 * Writes rotation x, y, z, w at out[o]: the shortest-path spherical interpolation from key a to
 * key b of `values` at fraction u. Allocation-free. Throws CollideInputError unless `out` has room
 * for the rotation, both keys are within `values` and u is finite.
 */
export function slerpKeys(out: Float64Array, o: number, values: Float64Array, a: number, b: number, u: number): void {
  assertOutput(out, o, 4, 'slerpKeys');
  assertNumberRun(values, a, 4, 'slerpKeys: values at key a');
  assertNumberRun(values, b, 4, 'slerpKeys: values at key b');
  if (!Number.isFinite(u)) throw new CollideInputError(`slerpKeys: u must be finite, got ${valueName(u)}`);
  slerpQuaternion(out, o, values, a, values, b, u);
}

/** Throws CollideInputError unless `animation` looks made by loadGltfCharacter (its channels an array). */
function assertAnimation(animation: unknown, caller: string): void {
  if (animation === null || typeof animation !== 'object' || !Array.isArray((animation as GltfAnimation).channels)) {
    throw new CollideInputError(`${caller}: animation must come from loadGltfCharacter, got ${valueName(animation)}`);
  }
}

/**
 * Samples `animation` at time t (clamped to the keys; pass t modulo `duration` to loop) into the
 * local TRS arrays of a skeleton store, for the character whose bones start at `firstBone`.
 * LINEAR: lerp (slerp for rotations); STEP: the key at or before t; CUBICSPLINE: its key values,
 * lerped (tangents ignored). Bones without a channel keep their values. Throws CollideInputError
 * for a time that is not finite, TRS arguments that are not arrays, a negative or fractional
 * `firstBone`, or a channel's bone beyond its array. Allocation-free.
 */
export function sampleGltfAnimation(
  animation: GltfAnimation,
  t: number,
  translation: Float64Array,
  rotation: Float64Array,
  scale: Float64Array,
  firstBone = 0,
): void {
  assertAnimation(animation, 'sampleGltfAnimation');
  if (!Number.isFinite(t)) throw new CollideInputError(`sampleGltfAnimation: time ${valueName(t)} is not finite`);
  assertNumberList(translation, 'sampleGltfAnimation: translation');
  assertNumberList(rotation, 'sampleGltfAnimation: rotation');
  assertNumberList(scale, 'sampleGltfAnimation: scale');
  if (!Number.isInteger(firstBone) || firstBone < 0) throw new CollideInputError(`sampleGltfAnimation: firstBone must be a non-negative integer, got ${valueName(firstBone)}`);
  for (const ch of animation.channels) {
    const { times, values } = ch;
    if (times.length === 0) continue;
    const width = ch.path === 'rotation' ? 4 : 3;
    const out = ch.path === 'translation' ? translation : ch.path === 'rotation' ? rotation : scale;
    const o = width * (firstBone + ch.bone);
    // A typed array drops what is written past its end: a bone beyond the arrays is an error.
    if (o + width > out.length) throw new CollideInputError(`sampleGltfAnimation: the animation drives bone ${firstBone + ch.bone}, its ${ch.path} array holds ${out.length / width} bones`);
    const k = keyBefore(times, t);
    const last = k === times.length - 1;
    const span = last ? 0 : times[k + 1] - times[k];
    const u = ch.interpolation === 'STEP' || last || span <= 0 ? 0 : Math.min(1, Math.max(0, (t - times[k]) / span));
    const a = width * k, b = width * (last ? k : k + 1);
    if (width === 4) slerpQuaternion(out, o, values, a, values, b, u);
    else for (let i = 0; i < 3; i++) out[o + i] = values[a + i] + u * (values[b + i] - values[a + i]);
  }
}

/**
 * Poses the bones of `entity`'s character (added with addCharacterCollider) at time `t` of
 * `animation`, in the pipeline's skeleton store; the next step places and updates its hitboxes.
 * Throws CollideInputError when the entity has no character collider, the animation drives a bone the
 * character does not have, or `t` is not finite. Allocation-free.
 */
export function animateCharacter(target: World | CollisionPipeline, entity: number, animation: GltfAnimation, t: number): void {
  const p = pipelineOf(target, 'animateCharacter');
  const character = characterOf(p, entity);
  if (!Number.isFinite(t)) throw new CollideInputError(`animateCharacter(entity ${entity}): time ${t} is not finite`);
  assertAnimation(animation, 'animateCharacter');
  const skeletons = p.characters!.skeletons;
  const bones = skeletons.characterBoneCount[character];
  for (const ch of animation.channels) {
    if (ch.bone >= bones) throw new CollideInputError(`animateCharacter(entity ${entity}): the animation drives bone ${ch.bone}, the character has ${bones} bones`);
  }
  sampleGltfAnimation(animation, t, skeletons.translation, skeletons.rotation, skeletons.scale, skeletons.firstBone[character]);
}

/**
 * Bone world matrices (16 per bone, definition order, character at the identity) at
 * `samplesPerAnimation` evenly spaced times of each animation, including both ends: the `poses`
 * option of `fitBoneHitboxes`, so the boxes cover the blended vertices in these animations.
 * Throws CollideInputError unless `samplesPerAnimation` is an integer in [1, MAX_POSE_SAMPLES],
 * `skeleton` comes from defineSkeleton and `animations` is an array of animations.
 */
export function sampleGltfPoses(skeleton: SkeletonDefinition, animations: readonly GltfAnimation[], samplesPerAnimation: number): Float64Array[] {
  if (!Number.isInteger(samplesPerAnimation) || samplesPerAnimation < 1 || samplesPerAnimation > MAX_POSE_SAMPLES) {
    throw new CollideInputError(`sampleGltfPoses: samplesPerAnimation must be an integer in [1, ${MAX_POSE_SAMPLES}], got ${valueName(samplesPerAnimation)}`);
  }
  assertSkeletonDefinition(skeleton, 'sampleGltfPoses');
  if (!Array.isArray(animations)) throw new CollideInputError(`sampleGltfPoses: animations must be an array (loadGltfCharacter's animations), got ${valueName(animations)}`);
  for (const animation of animations) assertAnimation(animation, 'sampleGltfPoses');
  const store = createSkeletonStore();
  addCharacter(store, skeleton, 0);
  const poses: Float64Array[] = [];
  for (const animation of animations) {
    for (let s = 0; s < samplesPerAnimation; s++) {
      const t = samplesPerAnimation === 1 ? 0 : (s / (samplesPerAnimation - 1)) * animation.duration;
      sampleGltfAnimation(animation, t, store.translation, store.rotation, store.scale);
      const bad = computeWorldMatrices(store);
      if (bad >= 0) throw new CollideInputError(`sampleGltfPoses: animation '${animation.name}' at ${t}: ${boneRefusal(store, bad)}`);
      poses.push(store.world.slice(0, 16 * skeleton.boneCount));
    }
  }
  return poses;
}
