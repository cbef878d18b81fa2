import { CollideInputError, assertFinitePoints, assertNumberList, assertOutput, valueName } from '../errors';
import { assertMadeBy } from '../query/rayQuery';
import type { ReadonlyFloats } from '../layout';
import { assertSkeletonDefinition, type SkeletonDefinition } from './skeleton';

/**
 * A skin: bind-pose vertex positions and, per vertex, a fixed number of (bone, weight) influences
 * (glTF JOINTS_0 / WEIGHTS_0 have 4). Validated once at bind time so the fitting and any per-frame
 * skinning can trust it.
 */
export interface SkinDefinition {
  /** Number of vertices. */
  vertexCount: number;
  /** Influences per vertex. */
  influences: number;
  /** Bind-pose positions, xyz per vertex. */
  positions: Float64Array;
  /** Bone index (into the skeleton definition, parents-first) per influence. */
  bones: Int32Array;
  /** Weight per influence; each vertex's weights sum to 1. */
  weights: Float64Array;
}

/** Input of `defineSkin`; joint indices refer to the skeleton INPUT order (as in the source asset). */
export interface SkinInput {
  /** Bind-pose positions, xyz per vertex. */
  positions: ReadonlyFloats;
  /** Joint (skeleton input bone) index per influence, `influences` per vertex. */
  joints: ArrayLike<number>;
  /** Weight per influence, `influences` per vertex. */
  weights: ReadonlyFloats;
  /** Influences per vertex (default 4). */
  influences?: number;
}

/**
 * Validates a skin against a skeleton: joint indices in range (remapped to parents-first bone
 * order), weights finite and non-negative, positions finite. A vertex whose weights do not sum to
 * 1 is normalised; all-zero weights throw, since such a vertex follows no bone. Zero-weight
 * influences may name any in-range joint (glTF pads unused slots with joint 0).
 * Throws CollideInputError naming the vertex and the field.
 */
export function defineSkin(skeleton: SkeletonDefinition, input: SkinInput): SkinDefinition {
  assertSkeletonDefinition(skeleton, 'defineSkin');
  if (input === null || typeof input !== 'object') throw new CollideInputError(`defineSkin: input must be an object { positions, joints, weights, ... }, got ${valueName(input)}`);
  assertNumberList(input.positions, 'defineSkin: positions');
  const influences = input.influences ?? 4;
  if (!Number.isInteger(influences) || influences < 1) {
    throw new CollideInputError(`skin: influences per vertex must be a positive integer, got ${influences}`);
  }
  if (input.positions.length % 3 !== 0) throw new CollideInputError(`skin: positions length ${input.positions.length} is not a multiple of 3`);
  const vertexCount = input.positions.length / 3;
  assertFinitePoints(input.positions, vertexCount, 'skin positions');
  const size = vertexCount * influences;
  if (input.joints.length !== size) throw new CollideInputError(`skin: joints has ${input.joints.length} entries, expected ${size}`);
  if (input.weights.length !== size) throw new CollideInputError(`skin: weights has ${input.weights.length} entries, expected ${size}`);
  const bones = new Int32Array(size);
  const weights = new Float64Array(size);
  const n = skeleton.boneCount;
  for (let v = 0; v < vertexCount; v++) {
    let sum = 0;
    for (let k = 0; k < influences; k++) {
      const i = v * influences + k;
      const j = input.joints[i];
      const w = input.weights[i];
      if (!Number.isInteger(j) || j < 0 || j >= n) {
        throw new CollideInputError(`skin: vertex ${v} influence ${k} names joint ${j}, outside 0 .. ${n - 1}`);
      }
      if (!Number.isFinite(w) || w < 0) throw new CollideInputError(`skin: vertex ${v} influence ${k} has weight ${w}, not a finite non-negative number`);
      bones[i] = skeleton.boneOfSource[j];
      weights[i] = w;
      sum += w;
    }
    if (sum === 0) throw new CollideInputError(`skin: vertex ${v} has all weights zero, so no bone moves it`);
    for (let k = 0; k < influences; k++) weights[v * influences + k] /= sum;
  }
  return { vertexCount, influences, positions: Float64Array.from(input.positions), bones, weights };
}

/**
 * Weight of `bone` on vertex `v` (sum over influences naming it, since a joint may repeat).
 */
export function skinWeight(skin: SkinDefinition, v: number, bone: number): number {
  assertSkinVertex(skin, v, 'skinWeight');
  let w = 0;
  const base = v * skin.influences;
  for (let k = 0; k < skin.influences; k++) if (skin.bones[base + k] === bone) w += skin.weights[base + k];
  return w;
}

/** Throws CollideInputError unless `skin` comes from defineSkin and `v` is one of its vertices. */
function assertSkinVertex(skin: SkinDefinition, v: number, caller: string): void {
  assertMadeBy(skin, 'weights', caller, 'skin', 'defineSkin');
  if (!(Number.isInteger(v) && v >= 0 && v < skin.vertexCount)) throw new CollideInputError(`${caller}: vertex ${valueName(v)} is not in [0, ${skin.vertexCount})`);
}

/**
 * Linear-blend skinned position of vertex v at out[o]: Σ_k w_k · S[bone_k] · p, with S the 16-per-bone
 * skinning matrices (world · inverse bind, column-major, affine). Allocation-free. Throws
 * CollideInputError unless `out` has room for the point, `skin` comes from defineSkin, `v` is one
 * of its vertices and `skinMatrices` holds a matrix for each bone weighting it.
 */
export function skinVertex(out: Float64Array, o: number, skin: SkinDefinition, v: number, skinMatrices: ReadonlyFloats): Float64Array {
  assertOutput(out, o, 3, 'skinVertex');
  assertSkinVertex(skin, v, 'skinVertex');
  assertNumberList(skinMatrices, 'skinVertex: skinMatrices');
  const base = v * skin.influences;
  for (let k = 0; k < skin.influences; k++) {
    const bone = skin.bones[base + k];
    if (skin.weights[base + k] !== 0 && 16 * bone + 16 > skinMatrices.length) throw new CollideInputError(`skinVertex: vertex ${v} is weighted on bone ${bone}, skinMatrices holds ${Math.floor(skinMatrices.length / 16)} matrices`);
  }
  return skinVertexTrusted(out, o, skin, v, skinMatrices);
}

/** @internal skinVertex without the argument checks, for loops that checked once (the hitbox fit). */
export function skinVertexTrusted(out: Float64Array, o: number, skin: SkinDefinition, v: number, skinMatrices: ReadonlyFloats): Float64Array {
  const p = 3 * v;
  const x = skin.positions[p], y = skin.positions[p + 1], z = skin.positions[p + 2];
  let sx = 0, sy = 0, sz = 0;
  const base = v * skin.influences;
  for (let k = 0; k < skin.influences; k++) {
    const w = skin.weights[base + k];
    if (w === 0) continue;
    const m = 16 * skin.bones[base + k];
    sx += w * (skinMatrices[m] * x + skinMatrices[m + 4] * y + skinMatrices[m + 8] * z + skinMatrices[m + 12]);
    sy += w * (skinMatrices[m + 1] * x + skinMatrices[m + 5] * y + skinMatrices[m + 9] * z + skinMatrices[m + 13]);
    sz += w * (skinMatrices[m + 2] * x + skinMatrices[m + 6] * y + skinMatrices[m + 10] * z + skinMatrices[m + 14]);
  }
  out[o] = sx;
  out[o + 1] = sy;
  out[o + 2] = sz;
  return out;
}
