import { ditoObb } from '../fit/dito';
import { CollideInputError, assertFiniteValues, assertRecord, valueName } from '../errors';
import { OBB_HALF, OBB_STRIDE, IDENTITY_AXES, type ReadonlyFloats } from '../layout';
import { obbFromAxes } from '../volumes/obb';
import { fitObbPcaPoints } from '../fit/obbFit';
import { assertSkeletonDefinition, type SkeletonDefinition } from './skeleton';
import { skinVertexTrusted, type SkinDefinition } from './skin';
import { mat4 } from 'gl-matrix';
import { hitGroupFromBoneName } from './hitGroups';

/**
 * Bone-attached hitboxes: one OBB per bone, fitted once in the bone's own space from the skin's
 * bind pose, then carried by the bone's world matrix every frame. Refitting to skinned vertices
 * each frame would cost a full CPU skin; a rigid box per bone costs one matrix-box product.
 */

// ---- fitting ----

/** How a bone's box is oriented: bone axes (the classic method), PCA of its points, or DiTO. */
export type HitboxFitMethod = 'aabb' | 'pca' | 'dito14' | 'dito26';

/**
 * Default weight threshold: a vertex joins a bone's box when its weight for that bone is at least
 * this. Chosen by measurement on the Fox and the 65-bone test humanoid (test/boneHitboxes.test.ts
 * prints the table): coverage stays >= 99% for thresholds up to this value while the union of
 * boxes gets tighter as it rises.
 */
export const DEFAULT_WEIGHT_THRESHOLD = 0.3;

/** Options of `fitBoneHitboxes`. */
export interface HitboxFitOptions {
  /** Minimum weight for a vertex to join a bone's box, in (0, 1]. Default DEFAULT_WEIGHT_THRESHOLD. */
  weightThreshold?: number;
  /** Default 'dito26' (tightest at equal coverage in the measurement, see DEFAULT_WEIGHT_THRESHOLD). */
  method?: HitboxFitMethod;
  /** A box whose longest edge is below this (bone-space units) is too small to matter. Default 0. */
  minSize?: number;
  /** Too-small boxes: 'merge' their vertices into the parent bone's box (default) or 'drop' them. */
  smallBones?: 'merge' | 'drop';
  /** Hit group of a bone; default `hitGroupFromBoneName`. */
  hitGroup?: (name: string, bone: number) => number;
  /**
   * Sampled poses (e.g. from the character's animations): per pose, the world matrices of all
   * bones (16 each, definition order). Each bone's box then also covers where its vertices are
   * skinned to, seen from the bone, in every pose: blended vertices near joints drift off any
   * single bone's rigid box, and this is what catches them.
   */
  poses?: readonly ReadonlyFloats[];
}

/** Hitboxes of one skeleton definition, in bone space, sorted by bone. */
export interface BoneHitboxes {
  /** Number of hitboxes. */
  count: number;
  /** Bone (index into the skeleton definition) carrying each hitbox. */
  bone: Int32Array;
  /** Hit group tag per hitbox; writable, to override the derived tags. */
  group: Uint8Array;
  /** Local OBBs in bone space (OBB layout, 15 per hitbox). */
  local: Float64Array;
}

/** Copy of the 16 numbers of matrix b (bind time only). */
function matrixAt(matrices: ReadonlyFloats, b: number): mat4 {
  return Float64Array.from({ length: 16 }, (_, k) => matrices[16 * b + k]) as unknown as mat4;
}

function fitPoints(out: Float64Array, o: number, points: Float64Array, count: number, method: HitboxFitMethod): void {
  if (method === 'aabb') obbFromAxes(out, o, IDENTITY_AXES, 0, points, count);
  else if (method === 'pca') fitObbPcaPoints(out, o, points, count);
  else if (method === 'dito14') ditoObb(out, o, points, count, 14);
  else if (method === 'dito26') ditoObb(out, o, points, count, 26);
  else throw new CollideInputError(`fitBoneHitboxes: unknown method ${String(method)}`);
}

/**
 * Fits one hitbox per bone at bind time. A bone's points are the bind-pose vertices whose weight
 * for it is at least `weightThreshold`, plus every vertex whose heaviest bone it is (so each
 * vertex lands in some box), taken into bone space by the inverse bind matrix. Bones without
 * points get no hitbox. Boxes whose longest edge is below `minSize` are merged into the nearest
 * ancestor's box (a child's points are refitted in the ancestor's space) or dropped; a root has
 * no ancestor and keeps its box. Throws CollideInputError on a bad threshold, method or minSize,
 * and on short, non-finite or singular pose matrices.
 */
export function fitBoneHitboxes(skeleton: SkeletonDefinition, skin: SkinDefinition, options: HitboxFitOptions = {}): BoneHitboxes {
  assertSkeletonDefinition(skeleton, 'fitBoneHitboxes');
  if (skin === null || typeof skin !== 'object' || !(skin.weights instanceof Float64Array)) throw new CollideInputError(`fitBoneHitboxes: skin must come from defineSkin, got ${valueName(skin)}`);
  assertRecord(options, 'fitBoneHitboxes', 'options');
  const threshold = options.weightThreshold ?? DEFAULT_WEIGHT_THRESHOLD;
  const method = options.method ?? 'dito26';
  const minSize = options.minSize ?? 0;
  const merge = (options.smallBones ?? 'merge') === 'merge';
  const hitGroup = options.hitGroup ?? ((name: string) => hitGroupFromBoneName(name));
  if (!(threshold > 0 && threshold <= 1)) throw new CollideInputError(`fitBoneHitboxes: weightThreshold must be in (0, 1], got ${threshold}`);
  if (!(minSize >= 0 && Number.isFinite(minSize))) throw new CollideInputError(`fitBoneHitboxes: minSize must be finite and >= 0, got ${minSize}`);
  const n = skeleton.boneCount;
  const { influences, bones, weights, positions } = skin;

  // Vertex lists per bone.
  const members: number[][] = Array.from({ length: n }, () => []);
  const total = new Float64Array(n);
  for (let v = 0; v < skin.vertexCount; v++) {
    const base = v * influences;
    for (let k = 0; k < influences; k++) total[bones[base + k]] = 0;
    let heaviest = -1;
    for (let k = 0; k < influences; k++) {
      const b = bones[base + k];
      total[b] += weights[base + k];
      if (heaviest < 0 || total[b] > total[heaviest]) heaviest = b;
    }
    for (let k = 0; k < influences; k++) {
      const b = bones[base + k];
      const list = members[b];
      if ((total[b] >= threshold || b === heaviest) && list[list.length - 1] !== v) list.push(v);
    }
  }

  // Per pose: skinning matrices (world · inverse bind) and each bone's inverse world matrix.
  const poses = options.poses ?? [];
  const skinning = poses.map((world, i) => {
    if (world.length < 16 * n) throw new CollideInputError(`fitBoneHitboxes: pose ${i} has ${world.length} numbers, needs ${16 * n}`);
    assertFiniteValues(world, 0, 16 * n, `fitBoneHitboxes: pose ${i}`);
    const s = new Float64Array(16 * n);
    for (let b = 0; b < n; b++) mat4.multiply(s.subarray(16 * b, 16 * b + 16), matrixAt(world, b), skeleton.inverseBind.subarray(16 * b, 16 * b + 16));
    return s;
  });
  const inverseWorld = poses.map((world) => {
    const inv = new Float64Array(16 * n);
    for (let b = 0; b < n; b++) {
      if (!mat4.invert(inv.subarray(16 * b, 16 * b + 16), matrixAt(world, b))) {
        throw new CollideInputError(`fitBoneHitboxes: bone ${b} has a singular world matrix in a pose`);
      }
    }
    return inv;
  });

  // Children before parents (reverse of parents-first), so a small child's points reach its parent before the parent is fitted.
  const boxes = new Float64Array(OBB_STRIDE * n);
  const has = new Uint8Array(n);
  let points = new Float64Array(0);
  const skinned = new Float64Array(3);
  for (let b = n - 1; b >= 0; b--) {
    const list = members[b];
    if (list.length === 0) continue;
    const count = list.length * (1 + poses.length);
    if (points.length < 3 * count) points = new Float64Array(3 * count);
    let q = 0;
    for (let pose = -1; pose < poses.length; pose++) {
      // The bind pose reads positions through the inverse bind matrix; a sampled pose, skinned positions through the inverse world matrix.
      const m = pose < 0 ? skeleton.inverseBind : inverseWorld[pose];
      const mo = 16 * b;
      for (const v of list) {
        if (pose >= 0) skinVertexTrusted(skinned, 0, skin, v, skinning[pose]);
        const src = pose < 0 ? positions : skinned;
        const p = pose < 0 ? 3 * v : 0;
        const x = src[p], y = src[p + 1], z = src[p + 2];
        points[q++] = m[mo] * x + m[mo + 4] * y + m[mo + 8] * z + m[mo + 12];
        points[q++] = m[mo + 1] * x + m[mo + 5] * y + m[mo + 9] * z + m[mo + 13];
        points[q++] = m[mo + 2] * x + m[mo + 6] * y + m[mo + 10] * z + m[mo + 14];
      }
    }
    const o = OBB_STRIDE * b;
    fitPoints(boxes, o, points, count, method);
    const longest = 2 * Math.max(boxes[o + OBB_HALF], boxes[o + OBB_HALF + 1], boxes[o + OBB_HALF + 2]);
    const parent = skeleton.parent[b];
    if (longest < minSize && (!merge || parent >= 0)) {
      if (merge) for (const v of list) members[parent].push(v);
      continue;
    }
    has[b] = 1;
  }

  let count = 0;
  for (let b = 0; b < n; b++) count += has[b];
  const result: BoneHitboxes = { count, bone: new Int32Array(count), group: new Uint8Array(count), local: new Float64Array(OBB_STRIDE * count) };
  for (let b = 0, h = 0; b < n; b++) {
    if (!has[b]) continue;
    result.bone[h] = b;
    result.group[h] = hitGroup(skeleton.names[b], b);
    result.local.set(boxes.subarray(OBB_STRIDE * b, OBB_STRIDE * b + OBB_STRIDE), OBB_STRIDE * h);
    h++;
  }
  return result;
}
