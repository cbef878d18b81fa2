import { mat4 } from 'gl-matrix';
import { grown } from '../broadphase/growable';
import { allocate } from '../sharedMemory';
import { CollideInputError, assertFiniteValues, assertNumberList, valueName } from '../errors';
import type { ReadonlyFloats } from '../layout';
import { MAX_COORDINATE } from '../tolerances';
import { assertMadeBy } from '../query/rayQuery';

/**
 * Skeletons as struct-of-arrays. A bone's pose is its local translation, rotation (unit quaternion
 * x, y, z, w) and scale relative to its parent; its world matrix is parent world · local. Bones of
 * all characters live in one store, each character's bones contiguous and ordered parents-first,
 * so world matrices come from one linear pass (a parent is always computed before its children)
 * with no recursion and no per-bone objects.
 *
 * Matrices are 4x4 column-major (gl-matrix `mat4` layout): element (row r, column c) at 4c + r.
 */

/** Numbers per matrix (4x4 column-major). */
export const MAT4_STRIDE = 16;

/**
 * A validated bone hierarchy with its rest pose, in parents-first order: what one character of a
 * kind shares with every other. Built by `defineSkeleton`.
 */
export interface SkeletonDefinition {
  /** Number of bones. */
  boneCount: number;
  /** Bone names (for hit groups and lookups); empty strings when the source had none. */
  names: string[];
  /** Parent bone (index into this definition) per bone, -1 for a root; always < the bone's own index. */
  parent: Int32Array;
  /** Rest-pose local translation (3 per bone). */
  translation: Float64Array;
  /** Rest-pose local rotation, unit quaternion x, y, z, w (4 per bone). */
  rotation: Float64Array;
  /** Rest-pose local scale (3 per bone). */
  scale: Float64Array;
  /** Inverse bind matrix per bone (16 each): takes a bind-pose mesh point into the bone's space. */
  inverseBind: Float64Array;
  /** Input index of each bone: `sourceIndex[bone]` (identity when the input was already parents-first). */
  sourceIndex: Int32Array;
  /** Bone of each input index: the inverse of `sourceIndex`, used to remap skin joint indices. */
  boneOfSource: Int32Array;
}

/** Input of `defineSkeleton`, in any order. Arrays of TRS default to the identity. */
export interface SkeletonInput {
  /** Parent index per bone (into this input), -1 for a root. Its length is the bone count. */
  parents: ArrayLike<number>;
  /** Bone names, for hit groups and lookups (default empty). */
  names?: readonly string[];
  /** Rest-pose local translation, xyz per bone (default 0). */
  translation?: ReadonlyFloats;
  /** Rest-pose local rotation, unit quaternion xyzw per bone (default identity). */
  rotation?: ReadonlyFloats;
  /** Rest-pose local scale, xyz per bone (default 1). */
  scale?: ReadonlyFloats;
  /** 16 per bone; defaults to the inverse of each bone's rest world matrix. */
  inverseBind?: ReadonlyFloats;
}

/**
 * Depth of every bone (roots 0), iteratively, with memoisation. Throws on out-of-range parents
 * and on cycles (a walk up that is longer than the bone count must have looped).
 */
function boneDepths(parents: ArrayLike<number>): Int32Array {
  const n = parents.length;
  const depth = new Int32Array(n).fill(-1);
  for (let i = 0; i < n; i++) {
    const p = parents[i];
    if (!Number.isInteger(p) || p < -1 || p >= n) {
      throw new CollideInputError(`skeleton: bone ${i} has parent ${p}, outside -1 .. ${n - 1}`);
    }
  }
  for (let i = 0; i < n; i++) {
    // Walk up until a bone of known depth (or a root), then fill the depths back down the walk.
    let steps = 0;
    let b = i;
    while (b >= 0 && depth[b] < 0) {
      b = parents[b];
      if (++steps > n) throw new CollideInputError(`skeleton: the parent chain from bone ${i} has a cycle`);
    }
    let d = b >= 0 ? depth[b] + steps : steps - 1;
    for (let c = i; c >= 0 && depth[c] < 0; c = parents[c]) depth[c] = d--;
  }
  return depth;
}

/**
 * Throws CollideInputError unless `store` looks made by `maker` (its `array` is a typed array) and
 * characters [first, first + count) are among its `characterCount`: the check of the per-frame
 * passes over a range of characters.
 */
export function assertCharacterRange(store: unknown, array: string, first: number, count: number, characterCount: number, caller: string, maker: string): void {
  assertMadeBy(store, array, caller, 'store', maker);
  if (!(Number.isInteger(first) && Number.isInteger(count) && first >= 0 && count >= 0 && first + count <= characterCount)) {
    throw new CollideInputError(`${caller}: characters ${valueName(first)} + ${valueName(count)} are not within the store's ${characterCount}`);
  }
}

/** Throws CollideInputError unless `skeleton` was made by defineSkeleton (it has its parent array). */
export function assertSkeletonDefinition(skeleton: unknown, caller: string): void {
  if (skeleton === null || typeof skeleton !== 'object' || !((skeleton as SkeletonDefinition).parent instanceof Int32Array)) {
    throw new CollideInputError(`${caller}: skeleton must come from defineSkeleton, got ${valueName(skeleton)}`);
  }
}

/**
 * Bone order with every parent before its children: the identity when the input already is (so
 * indices stay as the user wrote them), else a stable sort by depth. Throws CollideInputError on
 * out-of-range parents and on cycles.
 */
export function orderBonesParentsFirst(parents: ArrayLike<number>): Int32Array {
  assertNumberList(parents, 'orderBonesParentsFirst: parents');
  const depth = boneDepths(parents);
  const n = parents.length;
  const order = Int32Array.from({ length: n }, (_, i) => i);
  let ordered = true;
  for (let i = 0; i < n; i++) if (parents[i] >= i) ordered = false;
  if (!ordered) order.sort((a, b) => depth[a] - depth[b] || a - b);
  return order;
}

const m2 = new Float64Array(16); // scratch: an inverse at bind time
const IDENTITY_TRS = { t: [0, 0, 0], q: [0, 0, 0, 1], s: [1, 1, 1] };

/** Copies `width` numbers per bone from `src` (input order) to `dst` (parents-first order), or repeats `fallback`. */
function gather(dst: Float64Array, src: ReadonlyFloats | undefined, width: number, order: Int32Array, fallback: readonly number[], what: string): void {
  const n = order.length;
  if (src !== undefined) {
    if (src.length < width * n) throw new CollideInputError(`skeleton: ${what} needs ${width * n} numbers, has ${src.length}`);
    assertFiniteValues(src, 0, width * n, `skeleton ${what}`);
  }
  for (let i = 0; i < n; i++) {
    for (let k = 0; k < width; k++) dst[width * i + k] = src !== undefined ? src[width * order[i] + k] : fallback[k];
  }
}

/**
 * Validates a bone hierarchy and its rest pose and puts it parents-first (see
 * `orderBonesParentsFirst`). Rest rotations are normalised. Without inverse bind matrices, the
 * rest pose is taken as the bind pose. Throws CollideInputError on an empty skeleton, parents out
 * of range, cycles, non-finite or short arrays, zero quaternions and singular rest matrices.
 */
export function defineSkeleton(input: SkeletonInput): SkeletonDefinition {
  if (input === null || typeof input !== 'object') throw new CollideInputError(`defineSkeleton: input must be an object { parents, translation, rotation, ... }, got ${valueName(input)}`);
  assertNumberList(input.parents, 'defineSkeleton: parents');
  const n = input.parents.length;
  if (n === 0) throw new CollideInputError('skeleton: no bones');
  const order = orderBonesParentsFirst(input.parents);
  const boneOfSource = new Int32Array(n);
  for (let i = 0; i < n; i++) boneOfSource[order[i]] = i;
  const parent = new Int32Array(n);
  for (let i = 0; i < n; i++) {
    const p = input.parents[order[i]];
    parent[i] = p < 0 ? -1 : boneOfSource[p];
  }
  const translation = new Float64Array(3 * n);
  const rotation = new Float64Array(4 * n);
  const scale = new Float64Array(3 * n);
  const inverseBind = new Float64Array(16 * n);
  gather(translation, input.translation, 3, order, IDENTITY_TRS.t, 'translation');
  gather(rotation, input.rotation, 4, order, IDENTITY_TRS.q, 'rotation');
  gather(scale, input.scale, 3, order, IDENTITY_TRS.s, 'scale');
  for (let i = 0; i < n; i++) {
    const q = 4 * i;
    const len = Math.hypot(rotation[q], rotation[q + 1], rotation[q + 2], rotation[q + 3]);
    if (len === 0) throw new CollideInputError(`skeleton: bone ${order[i]} has a zero rotation quaternion`);
    for (let k = 0; k < 4; k++) rotation[q + k] /= len;
  }
  if (input.inverseBind !== undefined) {
    gather(inverseBind, input.inverseBind, 16, order, [], 'inverseBind');
  } else {
    // Bind pose = rest pose: invert each rest world matrix (gl-matrix, bind time only).
    const world = Array.from({ length: n }, () => new Float64Array(16));
    for (let i = 0; i < n; i++) {
      const m = world[i];
      mat4.fromRotationTranslationScale(m, rotation.subarray(4 * i, 4 * i + 4), translation.subarray(3 * i, 3 * i + 3), scale.subarray(3 * i, 3 * i + 3));
      if (parent[i] >= 0) mat4.multiply(m, world[parent[i]], m);
      if (!mat4.invert(m2, m)) throw new CollideInputError(`skeleton: the rest matrix of bone ${order[i]} is singular`);
      inverseBind.set(m2, 16 * i);
    }
  }
  const names = Array.from({ length: n }, (_, i) => input.names?.[order[i]] ?? '');
  return { boneCount: n, names, parent, translation, rotation, scale, inverseBind, sourceIndex: order, boneOfSource };
}

/**
 * Bones of many characters, struct-of-arrays. Per bone: `parent` (global bone index, -1 for a
 * character root), owning `character`, local `translation`/`rotation`/`scale` (written by
 * animation), `world` matrix (written by `computeWorldMatrices`) and `inverseBind`. Per
 * character: `characterEntity`, `firstBone`, `characterBoneCount` and `characterMatrix`, the
 * character's placement in the world (root bones are children of it).
 *
 * Arrays are replaced when the store grows: read them from the store after `addCharacter`.
 */
export interface SkeletonStore {
  /** Bones of all characters. */
  boneCount: number;
  /** Characters added. */
  characterCount: number;
  /** Per bone: parent bone (global index), -1 for a character root. */
  parent: Int32Array;
  /** Per bone: its character. */
  character: Int32Array;
  /** Per bone: its name (from the skeleton definition; '' when it had none). */
  boneName: string[];
  /** Per bone: local translation, xyz (written by animation). */
  translation: Float64Array;
  /** Per bone: local rotation, unit quaternion xyzw (written by animation). */
  rotation: Float64Array;
  /** Per bone: local scale, xyz (written by animation). */
  scale: Float64Array;
  /** Per bone: world matrix, 16 numbers column-major (written by `computeWorldMatrices`). */
  world: Float64Array;
  /** Per bone: inverse bind matrix, 16 numbers column-major. */
  inverseBind: Float64Array;
  /** Per character: the entity that owns it. */
  characterEntity: Int32Array;
  /** Per character: global index of its first bone. */
  firstBone: Int32Array;
  /** Per character: its number of bones. */
  characterBoneCount: Int32Array;
  /** Per character: its placement in the world, 16 numbers column-major; its root bones are children of it. */
  characterMatrix: Float64Array;
  /**
   * Per character: the asset's fixed placement under its entity (e.g. a glTF root matrix times
   * a unit scale), 16 numbers column-major; identity by default. Read where `placedByEntity` is 1.
   */
  rootMatrix: Float64Array;
  /**
   * Per character: 1 when the collision pipeline places it (characterMatrix = the entity's
   * transform · rootMatrix at every step), 0 when the caller writes characterMatrix.
   */
  placedByEntity: Uint8Array;
}

/** An empty skeleton store; it grows as characters are added; with `shared`, its arrays (and those it grows into) live on SharedArrayBuffers, for worker threads. */
export function createSkeletonStore(shared = false): SkeletonStore {
  return {
    boneCount: 0,
    characterCount: 0,
    parent: allocate(Int32Array, 0, shared),
    character: allocate(Int32Array, 0, shared),
    boneName: [],
    translation: allocate(Float64Array, 0, shared),
    rotation: allocate(Float64Array, 0, shared),
    scale: allocate(Float64Array, 0, shared),
    world: allocate(Float64Array, 0, shared),
    inverseBind: allocate(Float64Array, 0, shared),
    characterEntity: allocate(Int32Array, 0, shared),
    firstBone: allocate(Int32Array, 0, shared),
    characterBoneCount: allocate(Int32Array, 0, shared),
    characterMatrix: allocate(Float64Array, 0, shared),
    rootMatrix: allocate(Float64Array, 0, shared),
    placedByEntity: allocate(Uint8Array, 0, shared),
  };
}

/**
 * Appends a character with the bones of `definition` in its rest pose, placed at the identity
 * (set `characterMatrix` to move it), owned by `entity`. Returns the character index.
 */
export function addCharacter(store: SkeletonStore, definition: SkeletonDefinition, entity: number): number {
  assertMadeBy(store, 'world', 'addCharacter', 'store', 'createSkeletonStore');
  assertSkeletonDefinition(definition, 'addCharacter');
  if (!Number.isInteger(entity)) throw new CollideInputError(`addCharacter: entity must be an integer, got ${valueName(entity)}`);
  const first = store.boneCount;
  const n = definition.boneCount;
  const end = first + n;
  const c = store.characterCount;
  store.parent = grown(store.parent, end);
  store.character = grown(store.character, end);
  store.translation = grown(store.translation, 3 * end);
  store.rotation = grown(store.rotation, 4 * end);
  store.scale = grown(store.scale, 3 * end);
  store.world = grown(store.world, 16 * end);
  store.inverseBind = grown(store.inverseBind, 16 * end);
  store.characterEntity = grown(store.characterEntity, c + 1);
  store.firstBone = grown(store.firstBone, c + 1);
  store.characterBoneCount = grown(store.characterBoneCount, c + 1);
  store.characterMatrix = grown(store.characterMatrix, 16 * (c + 1));
  store.rootMatrix = grown(store.rootMatrix, 16 * (c + 1));
  store.placedByEntity = grown(store.placedByEntity, c + 1);
  for (let i = 0; i < n; i++) {
    const p = definition.parent[i];
    store.parent[first + i] = p < 0 ? -1 : first + p;
    store.character[first + i] = c;
    store.boneName[first + i] = definition.names[i];
  }
  store.translation.set(definition.translation, 3 * first);
  store.rotation.set(definition.rotation, 4 * first);
  store.scale.set(definition.scale, 3 * first);
  store.inverseBind.set(definition.inverseBind, 16 * first);
  store.characterEntity[c] = entity;
  store.firstBone[c] = first;
  store.characterBoneCount[c] = n;
  store.characterMatrix.fill(0, 16 * c, 16 * c + 16);
  store.rootMatrix.fill(0, 16 * c, 16 * c + 16);
  for (let k = 0; k < 4; k++) store.characterMatrix[16 * c + 5 * k] = store.rootMatrix[16 * c + 5 * k] = 1;
  store.placedByEntity[c] = 0;
  store.boneCount = end;
  store.characterCount = c + 1;
  const bad = computeWorldMatrices(store, c, 1);
  if (bad >= 0) {
    const why = boneRefusal(store, bad);
    store.boneCount = first;
    store.characterCount = c;
    throw new CollideInputError(`addCharacter: the rest pose of ${why}`);
  }
  return c;
}

/**
 * World matrix of every bone of characters [firstCharacter, firstCharacter + count) (all by
 * default): world = (parent's world, or the character matrix for a root) · T·R·S. One linear pass
 * in storage order, allocation-free; rotations are trusted to be unit quaternions.
 *
 * Returns -1, or the first bone whose world matrix would hold a NaN, an infinity or a number
 * beyond ±MAX_COORDINATE (a bad local pose, or a bad character matrix for a root): the pass stops
 * there. Each column is checked before it is written, so the store holds only numbers within
 * range (the refused bone may keep a column of its last matrix); `boneRefusal` says why.
 * Checking column by column keeps few numbers live (docs/design/hitboxes.md, "Bad bone poses").
 */
export function computeWorldMatrices(store: SkeletonStore, firstCharacter = 0, count = store?.characterCount - firstCharacter): number {
  assertCharacterRange(store, 'world', firstCharacter, count, store?.characterCount, 'computeWorldMatrices', 'createSkeletonStore');
  if (count <= 0) return -1;
  const { parent, character, translation: t, rotation: q, scale: s, world: m, characterMatrix } = store;
  const begin = store.firstBone[firstCharacter];
  const last = firstCharacter + count - 1;
  const end = store.firstBone[last] + store.characterBoneCount[last];
  const limit = MAX_COORDINATE; // a local: imported bindings are reloaded and checked at every use
  for (let i = begin; i < end; i++) {
    const p = parent[i];
    const pm = p < 0 ? characterMatrix : m;
    const po = p < 0 ? 16 * character[i] : 16 * p;
    const a00 = pm[po], a10 = pm[po + 1], a20 = pm[po + 2];
    const a01 = pm[po + 4], a11 = pm[po + 5], a21 = pm[po + 6];
    const a02 = pm[po + 8], a12 = pm[po + 9], a22 = pm[po + 10];
    const qi = 4 * i, ti = 3 * i;
    const x = q[qi], y = q[qi + 1], z = q[qi + 2], w = q[qi + 3];
    const sx = s[ti], sy = s[ti + 1], sz = s[ti + 2];
    const tx = t[ti], ty = t[ti + 1], tz = t[ti + 2];
    // Local rotation·scale columns.
    const l00 = (1 - 2 * (y * y + z * z)) * sx, l10 = 2 * (x * y + z * w) * sx, l20 = 2 * (x * z - y * w) * sx;
    const l01 = 2 * (x * y - z * w) * sy, l11 = (1 - 2 * (x * x + z * z)) * sy, l21 = 2 * (y * z + x * w) * sy;
    const l02 = 2 * (x * z + y * w) * sz, l12 = 2 * (y * z - x * w) * sz, l22 = (1 - 2 * (x * x + y * y)) * sz;
    const o = 16 * i;
    // Column by column, each checked before it is written: NaN fails every comparison.
    const m00 = a00 * l00 + a01 * l10 + a02 * l20, m10 = a10 * l00 + a11 * l10 + a12 * l20, m20 = a20 * l00 + a21 * l10 + a22 * l20;
    if (!(Math.abs(m00) <= limit && Math.abs(m10) <= limit && Math.abs(m20) <= limit)) return i;
    m[o] = m00; m[o + 1] = m10; m[o + 2] = m20; m[o + 3] = 0;
    const m01 = a00 * l01 + a01 * l11 + a02 * l21, m11 = a10 * l01 + a11 * l11 + a12 * l21, m21 = a20 * l01 + a21 * l11 + a22 * l21;
    if (!(Math.abs(m01) <= limit && Math.abs(m11) <= limit && Math.abs(m21) <= limit)) return i;
    m[o + 4] = m01; m[o + 5] = m11; m[o + 6] = m21; m[o + 7] = 0;
    const m02 = a00 * l02 + a01 * l12 + a02 * l22, m12 = a10 * l02 + a11 * l12 + a12 * l22, m22 = a20 * l02 + a21 * l12 + a22 * l22;
    if (!(Math.abs(m02) <= limit && Math.abs(m12) <= limit && Math.abs(m22) <= limit)) return i;
    m[o + 8] = m02; m[o + 9] = m12; m[o + 10] = m22; m[o + 11] = 0;
    const m03 = a00 * tx + a01 * ty + a02 * tz + pm[po + 12];
    const m13 = a10 * tx + a11 * ty + a12 * tz + pm[po + 13];
    const m23 = a20 * tx + a21 * ty + a22 * tz + pm[po + 14];
    if (!(Math.abs(m03) <= limit && Math.abs(m13) <= limit && Math.abs(m23) <= limit)) return i;
    m[o + 12] = m03; m[o + 13] = m13; m[o + 14] = m23; m[o + 15] = 1;
  }
  return -1;
}

/**
 * Why bone `bone`'s world matrix was refused by `computeWorldMatrices`: its character's entity,
 * the bone's name, and its local pose (or, for a root whose pose is finite, its character matrix).
 */
export function boneRefusal(store: SkeletonStore, bone: number): string {
  assertMadeBy(store, 'world', 'boneRefusal', 'store', 'createSkeletonStore');
  if (!(Number.isInteger(bone) && bone >= 0 && bone < store.boneCount)) throw new CollideInputError(`boneRefusal: bone ${valueName(bone)} is not in [0, ${store.boneCount})`);
  const c = store.character[bone], t = store.translation, q = store.rotation, s = store.scale;
  const name = store.boneName[bone] ? ` ('${store.boneName[bone]}')` : '';
  const local = `translation (${t[3 * bone]}, ${t[3 * bone + 1]}, ${t[3 * bone + 2]}), rotation (${q[4 * bone]}, ${q[4 * bone + 1]}, ${q[4 * bone + 2]}, ${q[4 * bone + 3]}), scale (${s[3 * bone]}, ${s[3 * bone + 1]}, ${s[3 * bone + 2]})`;
  const root = store.parent[bone] < 0 ? `; it is a root, placed by the character matrix (${Array.from(store.characterMatrix.subarray(16 * c, 16 * c + 16)).join(', ')})` : '';
  return `character of entity ${store.characterEntity[c]}, bone ${bone - store.firstBone[c]}${name}: its world matrix would hold a number that is not finite or beyond ±${MAX_COORDINATE.toExponential()} (local ${local})${root}`;
}
