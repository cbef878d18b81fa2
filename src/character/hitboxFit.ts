import { grown } from '../broadphase/growable';
import { ditoObb } from '../fit/dito';
import { CollideInputError, assertExtents, assertFiniteValues, isCoordinate } from '../errors';
import {
  MAX_COORDINATE, HITBOX_ROUNDING_MARGIN_RELATIVE, HITBOX_ORTHOGONAL_AXES_RELATIVE,
  HITBOX_PARALLEL_AXES_RELATIVE,
} from '../tolerances';
import { AABB_STRIDE, OBB_HALF, OBB_STRIDE, SPHERE_STRIDE, IDENTITY_AXES, type ReadonlyFloats } from '../layout';
import { obbFromAxes } from '../volumes/obb';
import { fitObbPcaPoints } from '../fit/obbFit';
import { raycastObb } from '../query/raycast';
import type { SkeletonDefinition, SkeletonStore } from './skeleton';
import { skinVertex, type SkinDefinition } from './skin';
import { mat4 } from 'gl-matrix';

/**
 * Bone-attached hitboxes: one OBB per bone, fitted once in the bone's own space from the skin's
 * bind pose, then carried by the bone's world matrix every frame. Refitting to skinned vertices
 * each frame would cost a full CPU skin; a rigid box per bone costs one matrix-box product.
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
  const lower = name.toLowerCase();
  for (const [pattern, group] of GROUP_PATTERNS) if (pattern.test(lower)) return group;
  return HIT_GROUP_OTHER;
}

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
        if (pose >= 0) skinVertex(skinned, 0, skin, v, skinning[pose]);
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

// ---- per-frame store ----

/**
 * Hitboxes per cluster: a character's hitboxes (sorted by bone, so a depth-first skeleton keeps a
 * limb's bones together) are cut into runs of this many, each with its own world AABB. A ray that
 * enters a character's AABB then tests a few cluster boxes instead of every hitbox: the fingers of
 * a hand, for instance, are skipped together. Measured on the 68-bone humanoid (55 hitboxes).
 */
export const HITBOXES_PER_CLUSTER = 8;

/** Numbers per hitbox in `HitboxStore.extent`: local centre (3), then extent vectors h_k·u_k (9). */
const EXTENT_STRIDE = 12;

/**
 * Hitbox and bone indices stay below this (2^24, checked when adding), so `updateHitboxes` can
 * mask them with MAX_INDEX - 1: the JIT then knows every offset (index · 16 + k) fits in an int32
 * and drops the overflow check of each array access (10% of the update, measured).
 */
const MAX_INDEX = 2 ** 24;

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

/** An empty hitbox store. */
export function createHitboxStore(): HitboxStore {
  return {
    count: 0,
    characterCount: 0,
    clusterCount: 0,
    bone: new Int32Array(0),
    character: new Int32Array(0),
    group: new Uint8Array(0),
    local: new Float64Array(0),
    extent: new Float64Array(0),
    world: new Float32Array(0),
    sphere: new Float32Array(0),
    firstHitbox: new Int32Array(0),
    hitboxCount: new Int32Array(0),
    characterEntity: new Int32Array(0),
    characterAabb: new Float32Array(0),
    firstCluster: new Int32Array(0),
    clusterAabb: new Float32Array(0),
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
  store.characterEntity = grown(store.characterEntity, c + 1);
  store.characterAabb = grown(store.characterAabb, AABB_STRIDE * (c + 1));
  store.firstCluster = grown(store.firstCluster, c + 1);
  store.clusterAabb = grown(store.clusterAabb, AABB_STRIDE * clusterEnd);
  for (let h = 0; h < fitted.count; h++) {
    store.bone[first + h] = firstBone + fitted.bone[h];
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
  store.firstCluster[c] = store.clusterCount;
  store.count = end;
  store.characterCount = c + 1;
  store.clusterCount = clusterEnd;
  updateHitboxes(store, skeleton, c, 1);
}

const mapped = new Float64Array(9); // scratch: the mapped extent vectors a_0, a_1, a_2 of an oblique box
const reach = new Float64Array(3); // scratch: an oblique box's world AABB half-size

/**
 * The world box of a box whose mapped extent vectors (`mapped`) are not orthogonal (shear, or a
 * zero extent): axes e_j by Gram-Schmidt on a_0, a_1 (world axes if they are parallel or a_0 is
 * zero), half-extents Σ_k |e_j·a_k|, which contain the parallelepiped. Writes the box at `wo` and
 * its world AABB half-size to `reach`; returns the bounding-sphere radius. The rare path.
 */
function obliqueWorldBox(world: Float32Array, wo: number): number {
  const a = mapped;
  let e0x = 1, e0y = 0, e0z = 0, e1x = 0, e1y = 1, e1z = 0, e2x = 0, e2y = 0, e2z = 1;
  const l0 = a[0] * a[0] + a[1] * a[1] + a[2] * a[2];
  if (l0 > 0) {
    const r0 = 1 / Math.sqrt(l0);
    const f0x = a[0] * r0, f0y = a[1] * r0, f0z = a[2] * r0;
    const d = a[3] * f0x + a[4] * f0y + a[5] * f0z;
    const bx = a[3] - d * f0x, by = a[4] - d * f0y, bz = a[5] - d * f0z;
    const l1 = bx * bx + by * by + bz * bz;
    if (l1 > HITBOX_PARALLEL_AXES_RELATIVE * (a[3] * a[3] + a[4] * a[4] + a[5] * a[5])) {
      const r1 = 1 / Math.sqrt(l1);
      e0x = f0x; e0y = f0y; e0z = f0z;
      e1x = bx * r1; e1y = by * r1; e1z = bz * r1;
      e2x = e0y * e1z - e0z * e1y; e2y = e0z * e1x - e0x * e1z; e2z = e0x * e1y - e0y * e1x;
    }
  }
  let H0 = 0, H1 = 0, H2 = 0;
  for (let k = 0; k < 9; k += 3) {
    H0 += Math.abs(e0x * a[k] + e0y * a[k + 1] + e0z * a[k + 2]);
    H1 += Math.abs(e1x * a[k] + e1y * a[k + 1] + e1z * a[k + 2]);
    H2 += Math.abs(e2x * a[k] + e2y * a[k + 1] + e2z * a[k + 2]);
  }
  world[wo + 3] = e0x; world[wo + 4] = e0y; world[wo + 5] = e0z;
  world[wo + 6] = e1x; world[wo + 7] = e1y; world[wo + 8] = e1z;
  world[wo + 9] = e2x; world[wo + 10] = e2y; world[wo + 11] = e2z;
  world[wo + 12] = H0; world[wo + 13] = H1; world[wo + 14] = H2;
  // Arvo: the AABB of the world box (which may exceed the parallelepiped's).
  reach[0] = H0 * Math.abs(e0x) + H1 * Math.abs(e1x) + H2 * Math.abs(e2x);
  reach[1] = H0 * Math.abs(e0y) + H1 * Math.abs(e1y) + H2 * Math.abs(e2y);
  reach[2] = H0 * Math.abs(e0z) + H1 * Math.abs(e1z) + H2 * Math.abs(e2z);
  return Math.sqrt(H0 * H0 + H1 * H1 + H2 * H2);
}

/**
 * World boxes, radii, cluster and character AABBs of characters [firstCharacter, +count), all by
 * default, from the skeleton's world matrices (run `computeWorldMatrices` first). The local box
 * (centre c, extent vectors h_k·u_k) maps to the parallelepiped M·c ± Σ_k a_k, a_k = M·(h_k·u_k).
 * When the a_k are orthogonal (rigid motion, uniform scale, or non-uniform scale along the box
 * axes: nearly always) that is the world box itself: axes a_0/|a_0|, a_1/|a_1| and their cross
 * product (right-handed even under a mirroring bone), half-extents |a_k|, and
 * its AABB half-size per axis is Σ_k |a_k|. Otherwise (shear) `obliqueWorldBox` gives a
 * containing box. Allocation-free.
 */
export function updateHitboxes(store: HitboxStore, skeleton: SkeletonStore, firstCharacter = 0, count = store.characterCount - firstCharacter): void {
  const { bone, extent: x, world, sphere, characterAabb, clusterAabb, firstHitbox, hitboxCount, firstCluster } = store;
  const m = skeleton.world;
  // Strides are literals (16 per matrix, EXTENT_STRIDE 12, OBB_STRIDE 15, SPHERE_STRIDE 4,
  // AABB_STRIDE 6) and module constants locals: imported bindings are live, so the JIT would
  // reload and check them at every use, and multiply by an unknown factor with an overflow check.
  const orthogonal = HITBOX_ORTHOGONAL_AXES_RELATIVE, rounding = HITBOX_ROUNDING_MARGIN_RELATIVE, radiusScale = 1 + HITBOX_ROUNDING_MARGIN_RELATIVE;
  const perCluster = HITBOXES_PER_CLUSTER, indexMask = MAX_INDEX - 1;
  for (let c = firstCharacter; c < firstCharacter + count; c++) {
    let minX = Infinity, minY = Infinity, minZ = Infinity;
    let maxX = -Infinity, maxY = -Infinity, maxZ = -Infinity;
    const end = firstHitbox[c] + hitboxCount[c];
    for (let h0 = firstHitbox[c], a = 6 * firstCluster[c]; h0 < end; h0 += perCluster, a += 6) {
      let cMinX = Infinity, cMinY = Infinity, cMinZ = Infinity;
      let cMaxX = -Infinity, cMaxY = -Infinity, cMaxZ = -Infinity;
      const clusterEnd = end < h0 + perCluster ? end : h0 + perCluster;
      for (let h = h0; h < clusterEnd; h++) {
        const hm = h & indexMask;
        const mo = 16 * (bone[hm] & indexMask), xo = 12 * hm, wo = 15 * hm, so = 4 * hm;
        const m00 = m[mo], m10 = m[mo + 1], m20 = m[mo + 2];
        const m01 = m[mo + 4], m11 = m[mo + 5], m21 = m[mo + 6];
        const m02 = m[mo + 8], m12 = m[mo + 9], m22 = m[mo + 10];
        let u = x[xo], v = x[xo + 1], w = x[xo + 2];
        const wx = m00 * u + m01 * v + m02 * w + m[mo + 12];
        const wy = m10 * u + m11 * v + m12 * w + m[mo + 13];
        const wz = m20 * u + m21 * v + m22 * w + m[mo + 14];
        u = x[xo + 3]; v = x[xo + 4]; w = x[xo + 5];
        const a0x = m00 * u + m01 * v + m02 * w, a0y = m10 * u + m11 * v + m12 * w, a0z = m20 * u + m21 * v + m22 * w;
        u = x[xo + 6]; v = x[xo + 7]; w = x[xo + 8];
        const a1x = m00 * u + m01 * v + m02 * w, a1y = m10 * u + m11 * v + m12 * w, a1z = m20 * u + m21 * v + m22 * w;
        u = x[xo + 9]; v = x[xo + 10]; w = x[xo + 11];
        const a2x = m00 * u + m01 * v + m02 * w, a2y = m10 * u + m11 * v + m12 * w, a2z = m20 * u + m21 * v + m22 * w;
        world[wo] = wx; world[wo + 1] = wy; world[wo + 2] = wz;
        sphere[so] = wx; sphere[so + 1] = wy; sphere[so + 2] = wz;
        const l0 = a0x * a0x + a0y * a0y + a0z * a0z;
        const l1 = a1x * a1x + a1y * a1y + a1z * a1z;
        const l2 = a2x * a2x + a2y * a2y + a2z * a2z;
        const d01 = a0x * a1x + a0y * a1y + a0z * a1z;
        const d02 = a0x * a2x + a0y * a2y + a0z * a2z;
        const d12 = a1x * a2x + a1y * a2y + a1z * a2z;
        let rx: number, ry: number, rz: number;
        if (l0 > 0 && l1 > 0 && l2 > 0 && d01 * d01 <= orthogonal * l0 * l1
          && d02 * d02 <= orthogonal * l0 * l2 && d12 * d12 <= orthogonal * l1 * l2) {
          const H0 = Math.sqrt(l0), H1 = Math.sqrt(l1), H2 = Math.sqrt(l2);
          const r0 = 1 / H0, r1 = 1 / H1;
          const e0x = a0x * r0, e0y = a0y * r0, e0z = a0z * r0;
          const e1x = a1x * r1, e1y = a1y * r1, e1z = a1z * r1;
          world[wo + 3] = e0x; world[wo + 4] = e0y; world[wo + 5] = e0z;
          world[wo + 6] = e1x; world[wo + 7] = e1y; world[wo + 8] = e1z;
          // e0 × e1 = ±a2/|a2|: the cross product keeps the frame right-handed under a mirroring bone.
          world[wo + 9] = e0y * e1z - e0z * e1y; world[wo + 10] = e0z * e1x - e0x * e1z; world[wo + 11] = e0x * e1y - e0y * e1x;
          world[wo + 12] = H0; world[wo + 13] = H1; world[wo + 14] = H2;
          sphere[so + 3] = Math.sqrt(l0 + l1 + l2) * radiusScale;
          rx = Math.abs(a0x) + Math.abs(a1x) + Math.abs(a2x);
          ry = Math.abs(a0y) + Math.abs(a1y) + Math.abs(a2y);
          rz = Math.abs(a0z) + Math.abs(a1z) + Math.abs(a2z);
        } else {
          mapped[0] = a0x; mapped[1] = a0y; mapped[2] = a0z;
          mapped[3] = a1x; mapped[4] = a1y; mapped[5] = a1z;
          mapped[6] = a2x; mapped[7] = a2y; mapped[8] = a2z;
          sphere[so + 3] = obliqueWorldBox(world, wo) * radiusScale;
          rx = reach[0]; ry = reach[1]; rz = reach[2];
        }
        if (wx - rx < cMinX) cMinX = wx - rx;
        if (wy - ry < cMinY) cMinY = wy - ry;
        if (wz - rz < cMinZ) cMinZ = wz - rz;
        if (wx + rx > cMaxX) cMaxX = wx + rx;
        if (wy + ry > cMaxY) cMaxY = wy + ry;
        if (wz + rz > cMaxZ) cMaxZ = wz + rz;
      }
      // Per axis: a stored corner coordinate moves with that coordinate of the centre and with the box size.
      const size = Math.max(cMaxX - cMinX, cMaxY - cMinY, cMaxZ - cMinZ);
      const mx = rounding * (Math.max(-cMinX, cMaxX) + size);
      const my = rounding * (Math.max(-cMinY, cMaxY) + size);
      const mz = rounding * (Math.max(-cMinZ, cMaxZ) + size);
      cMinX -= mx; cMinY -= my; cMinZ -= mz;
      cMaxX += mx; cMaxY += my; cMaxZ += mz;
      clusterAabb[a] = cMinX; clusterAabb[a + 1] = cMinY; clusterAabb[a + 2] = cMinZ;
      clusterAabb[a + 3] = cMaxX; clusterAabb[a + 4] = cMaxY; clusterAabb[a + 5] = cMaxZ;
      if (cMinX < minX) minX = cMinX;
      if (cMinY < minY) minY = cMinY;
      if (cMinZ < minZ) minZ = cMinZ;
      if (cMaxX > maxX) maxX = cMaxX;
      if (cMaxY > maxY) maxY = cMaxY;
      if (cMaxZ > maxZ) maxZ = cMaxZ;
    }
    const a = 6 * c;
    characterAabb[a] = minX; characterAabb[a + 1] = minY; characterAabb[a + 2] = minZ;
    characterAabb[a + 3] = maxX; characterAabb[a + 4] = maxY; characterAabb[a + 5] = maxZ;
  }
}

// ---- ray casts ----

/**
 * Uniform grid over character AABBs for ray casts: cells in CSR form (`cellStart`, `cellItems`),
 * rebuilt each frame by a counting sort after `updateHitboxes`. `stamp` marks characters already
 * tested by the current ray (a character spans several cells).
 */
export interface CharacterRayGrid {
  /** Edge of a cell, in world units. */
  cellSize: number;
  /** Grid origin (min corner). */
  origin: Float64Array;
  /** Cells per axis. */
  dims: Int32Array;
  /** Per cell: start of its characters in `cellItems` (prefix sums; one more entry than cells). */
  cellStart: Int32Array;
  /** Character indices, cell by cell. */
  cellItems: Int32Array;
  /** Per character: the last ray that tested it, so a ray tests a character once. */
  stamp: Int32Array;
  /** Counter of rays cast, for `stamp`. */
  rayId: number;
  /** Cell size as a multiple of the mean character extent. */
  cellScale: number;
}

/** At most this many cells per character, so a spread-out scene does not allocate a huge grid. */
const MAX_CELLS_PER_CHARACTER = 16;

/** An empty grid; `cellScale` sets the cell edge as a multiple of the mean character AABB's longest edge (default 1). */
export function createCharacterRayGrid(cellScale = 1): CharacterRayGrid {
  if (!(cellScale > 0 && Number.isFinite(cellScale))) throw new CollideInputError(`createCharacterRayGrid: cellScale must be positive, got ${cellScale}`);
  return {
    cellSize: 1,
    origin: new Float64Array(3),
    dims: new Int32Array(3),
    cellStart: new Int32Array(0),
    cellItems: new Int32Array(0),
    stamp: new Int32Array(0),
    rayId: 0,
    cellScale,
  };
}

/** Cell range of one AABB along an axis, clamped to the grid. */
function cellOf(v: number, origin: number, inv: number, dim: number): number {
  const i = Math.floor((v - origin) * inv);
  return i < 0 ? 0 : i >= dim ? dim - 1 : i;
}

/** Rebuilds the grid from the store's character AABBs (characters without hitboxes are left out). Allocation-free once grown. */
export function buildCharacterRayGrid(grid: CharacterRayGrid, store: HitboxStore): void {
  const aabb = store.characterAabb;
  const n = store.characterCount;
  let minX = Infinity, minY = Infinity, minZ = Infinity, maxX = -Infinity, maxY = -Infinity, maxZ = -Infinity;
  let extentSum = 0, used = 0;
  for (let c = 0; c < n; c++) {
    if (store.hitboxCount[c] === 0) continue;
    const a = AABB_STRIDE * c;
    minX = Math.min(minX, aabb[a]); minY = Math.min(minY, aabb[a + 1]); minZ = Math.min(minZ, aabb[a + 2]);
    maxX = Math.max(maxX, aabb[a + 3]); maxY = Math.max(maxY, aabb[a + 4]); maxZ = Math.max(maxZ, aabb[a + 5]);
    extentSum += Math.max(aabb[a + 3] - aabb[a], aabb[a + 4] - aabb[a + 1], aabb[a + 5] - aabb[a + 2]);
    used++;
  }
  const dims = grid.dims;
  if (used === 0) {
    dims[0] = dims[1] = dims[2] = 0;
    return;
  }
  const spanX = maxX - minX, spanY = maxY - minY, spanZ = maxZ - minZ;
  let cell = grid.cellScale * (extentSum / used);
  if (!(cell > 0)) cell = Math.max(spanX, spanY, spanZ, 1);
  const maxCells = MAX_CELLS_PER_CHARACTER * used;
  for (;;) {
    dims[0] = Math.max(1, Math.ceil(spanX / cell));
    dims[1] = Math.max(1, Math.ceil(spanY / cell));
    dims[2] = Math.max(1, Math.ceil(spanZ / cell));
    const cells = dims[0] * dims[1] * dims[2];
    if (cells <= maxCells) break;
    cell *= Math.cbrt(cells / maxCells) * 1.01;
  }
  grid.cellSize = cell;
  grid.origin[0] = minX; grid.origin[1] = minY; grid.origin[2] = minZ;
  const cells = dims[0] * dims[1] * dims[2];
  grid.cellStart = grown(grid.cellStart, cells + 1);
  grid.stamp = grown(grid.stamp, n);
  const start = grid.cellStart;
  start.fill(0, 0, cells + 1);
  const inv = 1 / cell;
  // Counting sort in two passes: count per cell, inclusive prefix sums (cell ends), then place
  // each item at --end, which leaves start[k] at the cell's beginning.
  for (let pass = 0; pass < 2; pass++) {
    for (let c = 0; c < n; c++) {
      if (store.hitboxCount[c] === 0) continue;
      const a = AABB_STRIDE * c;
      const x0 = cellOf(aabb[a], minX, inv, dims[0]), x1 = cellOf(aabb[a + 3], minX, inv, dims[0]);
      const y0 = cellOf(aabb[a + 1], minY, inv, dims[1]), y1 = cellOf(aabb[a + 4], minY, inv, dims[1]);
      const z0 = cellOf(aabb[a + 2], minZ, inv, dims[2]), z1 = cellOf(aabb[a + 5], minZ, inv, dims[2]);
      for (let z = z0; z <= z1; z++) {
        for (let y = y0; y <= y1; y++) {
          for (let x = x0; x <= x1; x++) {
            const k = (z * dims[1] + y) * dims[0] + x;
            if (pass === 0) start[k]++;
            else grid.cellItems[--start[k]] = c;
          }
        }
      }
    }
    if (pass === 0) {
      for (let k = 1; k < cells; k++) start[k] += start[k - 1];
      start[cells] = start[cells - 1];
      grid.cellItems = grown(grid.cellItems, start[cells]);
    }
  }
}

/** Scratch of the grid clip: the ray interval [t0, t1] inside the grid's box. */
const clip = new Float64Array(2);

/** Narrows `clip` to where o + t·d lies in [a, b] on one axis; false once it is empty. */
function clipAxis(o: number, d: number, a: number, b: number): boolean {
  if (d === 0) return o >= a && o <= b;
  let near = (a - o) / d, far = (b - o) / d;
  if (near > far) {
    const s = near;
    near = far;
    far = s;
  }
  if (near > clip[0]) clip[0] = near;
  if (far < clip[1]) clip[1] = far;
  return clip[0] <= clip[1];
}

/** Nearest hit of `raycastHitboxes`, filled in place (create once with `createHitboxRayHit`). */
export interface HitboxRayHit {
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
  /** Ray parameter of the hit (units of |d|). */
  t: number;
  /** t·|d|: the distance along the ray. */
  distance: number;
  /** World point of the hit. */
  point: Float64Array;
  /** Unit outward normal of the box face hit (−d/|d| when the origin is inside the box). */
  normal: Float64Array;
}

/** A reusable hit record. */
export function createHitboxRayHit(): HitboxRayHit {
  return { hitbox: -1, character: -1, entity: -1, bone: -1, group: -1, t: Infinity, distance: Infinity, point: new Float64Array(3), normal: new Float64Array(3) };
}

const castOut = new Float64Array(4); // scratch: one box cast

/**
 * Whether the ray o + t·d, t in [0, maxT], meets the AABB at `bo`, given the inverse direction
 * i = 1/d and, per axis, the offset (0 or 3) of the bound the ray meets first (3 when i < 0, so
 * also for d = −0). A conservative filter before exact box casts: it must never reject a box the
 * AABB contains. On an axis where d is 0, i is infinite and the origin decides (±Infinity bounds);
 * an origin exactly on a face gives 0·Infinity = NaN there, which fails every comparison and so
 * never narrows the interval.
 */
function rayMeetsAabb(box: Float32Array, bo: number, ox: number, oy: number, oz: number, ix: number, iy: number, iz: number, fx: number, fy: number, fz: number, maxT: number): boolean {
  // Early outs after x and y: most boxes tested are missed (a ray enters a third of the character
  // boxes and a fifth of the cluster boxes it tests), and each skipped load may be a cache miss.
  let t0 = 0, t1 = maxT;
  let near = (box[bo + fx] - ox) * ix, far = (box[bo + 3 - fx] - ox) * ix;
  if (near > t0) t0 = near;
  if (far < t1) t1 = far;
  if (t0 > t1) return false;
  near = (box[bo + 1 + fy] - oy) * iy; far = (box[bo + 4 - fy] - oy) * iy;
  if (near > t0) t0 = near;
  if (far < t1) t1 = far;
  if (t0 > t1) return false;
  near = (box[bo + 2 + fz] - oz) * iz; far = (box[bo + 5 - fz] - oz) * iz;
  if (near > t0) t0 = near;
  if (far < t1) t1 = far;
  return t0 <= t1;
}

/**
 * Nearest hitbox hit by the ray o + t·d, t in [0, maxT], among all characters of the store:
 * fills `hit` and returns true, or returns false (leaving `hit` alone). Walks the grid's cells
 * along the ray (3D DDA) in order and stops once the best hit is nearer than the next cell;
 * inside a cell, each new character's AABB, then its cluster AABBs, then each box's bounding
 * sphere, then the box itself (raycastObb; the raycast.ts conventions apply) are tested, each
 * test clipped to the best hit so far. Several boxes hit at the same nearest t (an origin inside
 * overlapping boxes, a ray through a shared face) resolve to the lowest hitbox index, whatever
 * the order the walk meets them in. The grid must have been built from the store's current
 * boxes. `ignoreCharacter` (a character index, e.g. the shooter whose own boxes the shot starts
 * in) is skipped. Allocation-free. Throws CollideInputError for an origin or direction that is not
 * finite or lies outside ±MAX_COORDINATE.
 */
export function raycastHitboxes(
  hit: HitboxRayHit,
  store: HitboxStore,
  grid: CharacterRayGrid,
  ox: number, oy: number, oz: number,
  dx: number, dy: number, dz: number,
  maxT: number,
  ignoreCharacter = -1,
): boolean {
  if (!(isCoordinate(ox) && isCoordinate(oy) && isCoordinate(oz) && isCoordinate(dx) && isCoordinate(dy) && isCoordinate(dz))) {
    throw new CollideInputError(`raycastHitboxes: origin and direction must be finite and within ±${MAX_COORDINATE.toExponential()}, got ${[ox, oy, oz, dx, dy, dz].join(', ')}`);
  }
  const dims = grid.dims;
  const nx = dims[0], ny = dims[1], nz = dims[2];
  if (nx === 0 || !(maxT >= 0)) return false;
  const cell = grid.cellSize;
  const gx = grid.origin[0], gy = grid.origin[1], gz = grid.origin[2];
  // Clip the ray to the grid's box.
  clip[0] = 0;
  clip[1] = maxT;
  if (!clipAxis(ox, dx, gx, gx + nx * cell) || !clipAxis(oy, dy, gy, gy + ny * cell) || !clipAxis(oz, dz, gz, gz + nz * cell)) return false;
  const t0 = clip[0], t1 = clip[1];
  const inv = 1 / cell;
  let ix = cellOf(ox + t0 * dx, gx, inv, nx);
  let iy = cellOf(oy + t0 * dy, gy, inv, ny);
  let iz = cellOf(oz + t0 * dz, gz, inv, nz);
  // Ray parameter at the next cell boundary per axis, and between boundaries.
  let nextX = dx === 0 ? Infinity : (gx + (ix + (dx > 0 ? 1 : 0)) * cell - ox) / dx;
  let nextY = dy === 0 ? Infinity : (gy + (iy + (dy > 0 ? 1 : 0)) * cell - oy) / dy;
  let nextZ = dz === 0 ? Infinity : (gz + (iz + (dz > 0 ? 1 : 0)) * cell - oz) / dz;
  const stepX = dx === 0 ? Infinity : cell / Math.abs(dx);
  const stepY = dy === 0 ? Infinity : cell / Math.abs(dy);
  const stepZ = dz === 0 ? Infinity : cell / Math.abs(dz);
  const sx = dx > 0 ? 1 : -1, sy = dy > 0 ? 1 : -1, sz = dz > 0 ? 1 : -1;
  const dd = dx * dx + dy * dy + dz * dz;
  // Far above the rounding of boundary parameters (relative to the ray's extent in t and to the
  // coordinates' magnitude over the direction's), far below any gap that matters.
  const boundarySlack = 1e-9 * (t1 + (Math.abs(ox) + Math.abs(oy) + Math.abs(oz) + Math.abs(gx) + Math.abs(gy) + Math.abs(gz) + cell) / Math.sqrt(dd));
  const invX = 1 / dx, invY = 1 / dy, invZ = 1 / dz;
  const fx = invX >= 0 ? 0 : 3, fy = invY >= 0 ? 0 : 3, fz = invZ >= 0 ? 0 : 3;
  const { cellStart, cellItems, stamp } = grid;
  // Stamps are Int32: past 2^31 − 1 rays (an hour at 10,000 rays a frame) an id would no longer
  // read back equal, so the ignored character would be hit. Clearing restarts the ids below any
  // stamp left (stamps start at 0, ids at 1).
  if (grid.rayId === 0x7fffffff) {
    stamp.fill(0);
    grid.rayId = 0;
  }
  const ray = ++grid.rayId;
  const { characterAabb, clusterAabb, sphere, world, firstHitbox, hitboxCount, firstCluster } = store;
  if (ignoreCharacter >= 0 && ignoreCharacter < store.characterCount) stamp[ignoreCharacter] = ray;
  const normal = hit.normal;
  let bestT = maxT, bestHitbox = -1;
  // Everything stays in locals of this one function: module-level doubles would be boxed on every write.
  // Strides are literals (AABB_STRIDE 6, SPHERE_STRIDE 4, OBB_STRIDE 15) and the cluster size a
  // local, as in updateHitboxes: imported bindings are live, reloaded and checked at every use (8%).
  const perCluster = HITBOXES_PER_CLUSTER;
  for (let k = (iz * ny + iy) * nx + ix; ;) {
    for (let i = cellStart[k], e = cellStart[k + 1]; i < e; i++) {
      const c = cellItems[i];
      if (stamp[c] === ray) continue;
      stamp[c] = ray;
      if (!rayMeetsAabb(characterAabb, 6 * c, ox, oy, oz, invX, invY, invZ, fx, fy, fz, bestT)) continue;
      const end = firstHitbox[c] + hitboxCount[c];
      for (let h0 = firstHitbox[c], a = 6 * firstCluster[c]; h0 < end; h0 += perCluster, a += 6) {
        if (!rayMeetsAabb(clusterAabb, a, ox, oy, oz, invX, invY, invZ, fx, fy, fz, bestT)) continue;
        const clusterEnd = end < h0 + perCluster ? end : h0 + perCluster;
        for (let h = h0; h < clusterEnd; h++) {
          // Bounding-sphere pre-test: most boxes of a cluster the ray passes are missed here, and
          // boxes behind the best hit too (sphere entry t = (−b − √(b² − dd·c2))/dd > bestT, without
          // the root). The sphere's margin keeps its entry strictly before the box's, far above rounding.
          const so = 4 * h;
          const mx = ox - sphere[so], my = oy - sphere[so + 1], mz = oz - sphere[so + 2];
          const r = sphere[so + 3];
          const b = mx * dx + my * dy + mz * dz;
          const c2 = mx * mx + my * my + mz * mz - r * r;
          if (c2 > 0) {
            const disc = b * b - dd * c2;
            const e = -b - dd * bestT;
            if (b > 0 || disc < 0 || (e > 0 && e * e > disc)) continue;
          }
          if (!raycastObb(castOut, ox, oy, oz, dx, dy, dz, bestT, world, 15 * h)) continue;
          // raycastObb was clipped to bestT, so a hit that is not nearer ties: the lower index wins.
          if (castOut[0] < bestT || bestHitbox < 0 || h < bestHitbox) {
            bestT = castOut[0];
            bestHitbox = h;
            normal[0] = castOut[1]; normal[1] = castOut[2]; normal[2] = castOut[3];
          }
        }
      }
    }
    const exit = nextX < nextY ? (nextX < nextZ ? nextX : nextZ) : (nextY < nextZ ? nextY : nextZ);
    // A character first met in a later cell is entered at or after `exit`: one entered exactly
    // there could tie with the best hit, so the walk goes on while bestT equals exit, and within
    // `boundarySlack` below it, as boundaries summed step by step and characters placed in cells
    // by rounding can each be off by a few ulps.
    if ((bestHitbox >= 0 && bestT < exit - boundarySlack) || exit > t1) break;
    if (nextX === exit) {
      ix += sx;
      if (ix < 0 || ix >= nx) break;
      nextX += stepX;
      k += sx;
    } else if (nextY === exit) {
      iy += sy;
      if (iy < 0 || iy >= ny) break;
      nextY += stepY;
      k += sy * nx;
    } else {
      iz += sz;
      if (iz < 0 || iz >= nz) break;
      nextZ += stepZ;
      k += sz * nx * ny;
    }
  }
  if (bestHitbox < 0) return false;
  const h = bestHitbox;
  const c = store.character[h];
  hit.hitbox = h;
  hit.character = c;
  hit.entity = store.characterEntity[c];
  hit.bone = store.bone[h];
  hit.group = store.group[h];
  hit.t = bestT;
  hit.distance = bestT * Math.sqrt(dd);
  hit.point[0] = ox + bestT * dx;
  hit.point[1] = oy + bestT * dy;
  hit.point[2] = oz + bestT * dz;
  // A face normal is a stored Float32 axis, unit only to ~1e-7: renormalise in doubles.
  const len = Math.hypot(normal[0], normal[1], normal[2]);
  if (len > 0) {
    normal[0] /= len; normal[1] /= len; normal[2] /= len;
  }
  return true;
}
