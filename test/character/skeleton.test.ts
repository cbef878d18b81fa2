import fc from 'fast-check';
import { mat4 } from 'gl-matrix';
import { describe, expect, it } from 'vitest';
import { CollideInputError } from '../../src/errors';
import { addCharacter, computeWorldMatrices, createSkeletonStore, defineSkeleton, orderBonesParentsFirst, type SkeletonInput } from '../../src/character/skeleton';
import { defineSkin, skinVertex } from '../../src/character/skin';
import { buildHumanoid, referenceSkin, referenceWorldMatrices } from '../../scenes/humanoid';
import { mulberry32, randomQuaternion } from '../../scenes/random';

/** A random tree of n bones (parent < own index), with random TRS (non-uniform, sometimes negative scale). */
function randomSkeleton(seed: number, n: number): SkeletonInput & { translation: Float64Array; rotation: Float64Array; scale: Float64Array; parents: number[] } {
  const rand = mulberry32(seed);
  const parents = Array.from({ length: n }, (_, i) => (i === 0 || rand() < 0.1 ? -1 : Math.floor(rand() * i)));
  const translation = Float64Array.from({ length: 3 * n }, () => (rand() - 0.5) * 4);
  const rotation = new Float64Array(4 * n);
  for (let i = 0; i < n; i++) rotation.set(randomQuaternion(rand), 4 * i);
  const scale = Float64Array.from({ length: 3 * n }, () => (rand() < 0.1 ? -1 : 1) * (0.5 + rand()));
  return { parents, translation, rotation, scale };
}

function maxAbs(m: ArrayLike<number>, o = 0, n = 16): number {
  let r = 0;
  for (let i = 0; i < n; i++) r = Math.max(r, Math.abs(m[o + i]));
  return r;
}

describe('computeWorldMatrices', () => {
  it('matches recursive gl-matrix composition for many characters packed in one store', () => {
    fc.assert(
      fc.property(fc.integer(), fc.integer({ min: 1, max: 4 }), fc.double({ min: -1e6, max: 1e6, noNaN: true }), (seed, characters, offset) => {
        const store = createSkeletonStore();
        const inputs = Array.from({ length: characters }, (_, c) => randomSkeleton(seed + c, 1 + ((seed >>> 0) + 7 * c) % 40));
        const roots: mat4[] = [];
        inputs.forEach((input, c) => {
          const def = defineSkeleton(input);
          const index = addCharacter(store, def, 100 + c);
          expect(index).toBe(c);
          const root = mat4.fromRotationTranslationScale(new Float64Array(16) as unknown as mat4, randomQuaternion(mulberry32(seed ^ c)) as never, [offset, -offset, 0.5 * offset], [2, 0.5, 1.5]);
          store.characterMatrix.set(root, 16 * c);
          roots.push(root);
        });
        computeWorldMatrices(store);
        inputs.forEach((input, c) => {
          const ref = referenceWorldMatrices(input.parents, input.translation, input.rotation, input.scale, roots[c]);
          const first = store.firstBone[c];
          for (let b = 0; b < input.parents.length; b++) {
            const scaleOf = Math.max(1, maxAbs(ref[b]));
            for (let k = 0; k < 16; k++) expect(Math.abs(store.world[16 * (first + b) + k] - ref[b][k])).toBeLessThanOrEqual(1e-12 * scaleOf * 64);
          }
        });
      }),
      { numRuns: 60 },
    );
  });

  it('recomputes one character without touching the others', () => {
    const input = randomSkeleton(3, 12);
    const def = defineSkeleton(input);
    const store = createSkeletonStore();
    addCharacter(store, def, 1);
    addCharacter(store, def, 2);
    const before = store.world.slice(0, 16 * 12);
    store.translation[3 * 12] += 5; // root of character 1
    computeWorldMatrices(store, 1, 1);
    expect(Array.from(store.world.subarray(0, 16 * 12))).toEqual(Array.from(before));
    expect(store.world[16 * 12 + 12]).toBeCloseTo(before[12] + 5, 9);
  });
});

describe('defineSkeleton ordering and validation', () => {
  it('puts shuffled bones parents-first and keeps the same world matrices', () => {
    fc.assert(
      fc.property(fc.integer(), fc.integer({ min: 2, max: 50 }), (seed, n) => {
        const base = randomSkeleton(seed, n);
        // Shuffle: input index j holds base bone perm[j].
        const rand = mulberry32(seed ^ 0x9e37);
        const perm = Array.from({ length: n }, (_, i) => i).sort(() => rand() - 0.5);
        const inv = new Array<number>(n);
        perm.forEach((b, j) => (inv[b] = j));
        const shuffled = {
          parents: perm.map((b) => (base.parents[b] < 0 ? -1 : inv[base.parents[b]])),
          translation: Float64Array.from(perm.flatMap((b) => Array.from(base.translation.subarray(3 * b, 3 * b + 3)))),
          rotation: Float64Array.from(perm.flatMap((b) => Array.from(base.rotation.subarray(4 * b, 4 * b + 4)))),
          scale: Float64Array.from(perm.flatMap((b) => Array.from(base.scale.subarray(3 * b, 3 * b + 3)))),
          names: perm.map((b) => `bone${b}`),
        };
        const def = defineSkeleton(shuffled);
        for (let i = 0; i < n; i++) expect(def.parent[i]).toBeLessThan(i);
        const store = createSkeletonStore();
        addCharacter(store, def, 0);
        const ref = referenceWorldMatrices(base.parents, base.translation, base.rotation, base.scale);
        for (let i = 0; i < n; i++) {
          const b = perm[def.sourceIndex[i]];
          expect(def.names[i]).toBe(`bone${b}`);
          expect(def.boneOfSource[def.sourceIndex[i]]).toBe(i);
          for (let k = 0; k < 16; k++) expect(store.world[16 * i + k]).toBeCloseTo(ref[b][k], 8);
        }
      }),
      { numRuns: 60 },
    );
  });

  it('keeps an already parents-first order as it is', () => {
    expect(Array.from(orderBonesParentsFirst([-1, 0, 1, 0, 3, -1, 5]))).toEqual([0, 1, 2, 3, 4, 5, 6]);
  });

  it('default inverse bind matrices invert the rest pose', () => {
    const def = defineSkeleton(randomSkeleton(11, 20));
    const store = createSkeletonStore();
    addCharacter(store, def, 0);
    const product = mat4.create();
    for (let b = 0; b < 20; b++) {
      mat4.multiply(product, store.world.subarray(16 * b, 16 * b + 16) as unknown as mat4, def.inverseBind.subarray(16 * b, 16 * b + 16) as unknown as mat4);
      for (let k = 0; k < 16; k++) expect(product[k]).toBeCloseTo(k % 5 === 0 ? 1 : 0, 5);
    }
  });

  it('rejects cycles, self-parents, out-of-range parents and bad arrays with clear errors', () => {
    expect(() => defineSkeleton({ parents: [-1, 2, 1] })).toThrow(/cycle/);
    expect(() => defineSkeleton({ parents: [1, 0] })).toThrow(/cycle/);
    expect(() => defineSkeleton({ parents: [-1, 1] })).toThrow(/cycle/);
    expect(() => defineSkeleton({ parents: [-1, 5] })).toThrow(/bone 1 has parent 5/);
    expect(() => defineSkeleton({ parents: [-1, -2] })).toThrow(CollideInputError);
    expect(() => defineSkeleton({ parents: [-1, 0.5] })).toThrow(CollideInputError);
    expect(() => defineSkeleton({ parents: [] })).toThrow(/no bones/);
    expect(() => defineSkeleton({ parents: [-1], rotation: [0, 0, 0, 0] })).toThrow(/zero rotation/);
    expect(() => defineSkeleton({ parents: [-1], translation: [0, NaN, 0] })).toThrow(/not finite/);
    expect(() => defineSkeleton({ parents: [-1, 0], translation: [0, 0, 0] })).toThrow(/needs 6/);
    expect(() => defineSkeleton({ parents: [-1], scale: [0, 1, 1] })).toThrow(/singular/);
  });
});

describe('defineSkin', () => {
  const def = defineSkeleton({ parents: [-1, 0, 1] });
  const positions = [0, 0, 0, 1, 0, 0];

  it('normalises weights that do not sum to 1 and remaps joints to parents-first order', () => {
    const skin = defineSkin(def, { positions, joints: [0, 1, 0, 2], weights: [2, 2, 0.25, 0.75 * 1.0], influences: 2 });
    const scaled = defineSkin(def, { positions, joints: [0, 1, 0, 2], weights: [3, 1, 1, 1], influences: 2 });
    expect(Array.from(scaled.weights)).toEqual([0.75, 0.25, 0.5, 0.5]);
    expect(Array.from(skin.weights)).toEqual([0.5, 0.5, 0.25, 0.75]);
    const shuffled = defineSkeleton({ parents: [1, -1] }); // bone order becomes [input 1, input 0]
    const s2 = defineSkin(shuffled, { positions: [0, 0, 0], joints: [0, 1], weights: [1, 0], influences: 2 });
    expect(Array.from(s2.bones)).toEqual([1, 0]);
  });

  it('rejects joints out of range, all-zero, negative or non-finite weights and mismatched lengths', () => {
    expect(() => defineSkin(def, { positions, joints: [0, 3, 0, 0], weights: [1, 0, 1, 0], influences: 2 })).toThrow(/vertex 0 influence 1 names joint 3/);
    expect(() => defineSkin(def, { positions, joints: [0, -1, 0, 0], weights: [1, 0, 1, 0], influences: 2 })).toThrow(CollideInputError);
    expect(() => defineSkin(def, { positions, joints: [0, 1, 0, 1], weights: [1, 0, 0, 0], influences: 2 })).toThrow(/vertex 1 has all weights zero/);
    expect(() => defineSkin(def, { positions, joints: [0, 1, 0, 1], weights: [1, -0.5, 1, 0], influences: 2 })).toThrow(/weight -0.5/);
    expect(() => defineSkin(def, { positions, joints: [0, 1, 0, 1], weights: [1, NaN, 1, 0], influences: 2 })).toThrow(CollideInputError);
    expect(() => defineSkin(def, { positions, joints: [0, 1, 0], weights: [1, 0, 1, 0], influences: 2 })).toThrow(/joints has 3/);
    expect(() => defineSkin(def, { positions: [0, 0, NaN], joints: [0], weights: [1], influences: 1 })).toThrow(/non-finite/);
  });

  it('skinVertex matches the gl-matrix reference skinning on the animated humanoid', () => {
    const h = buildHumanoid();
    const hdef = defineSkeleton(h.skeleton);
    const skin = defineSkin(hdef, h.skin);
    const store = createSkeletonStore();
    addCharacter(store, hdef, 0);
    h.animate(0.37, store.translation, store.rotation, store.scale);
    computeWorldMatrices(store);
    const skinning = new Float64Array(16 * hdef.boneCount);
    for (let b = 0; b < hdef.boneCount; b++) {
      mat4.multiply(skinning.subarray(16 * b, 16 * b + 16) as unknown as mat4, store.world.subarray(16 * b, 16 * b + 16) as unknown as mat4, hdef.inverseBind.subarray(16 * b, 16 * b + 16) as unknown as mat4);
    }
    const ref = referenceSkin(h.skin, referenceWorldMatrices(h.skeleton.parents, store.translation, store.rotation, store.scale), hdef.inverseBind);
    const out = new Float64Array(3);
    for (let v = 0; v < skin.vertexCount; v += 7) {
      skinVertex(out, 0, skin, v, skinning);
      for (let a = 0; a < 3; a++) expect(out[a]).toBeCloseTo(ref[3 * v + a], 9);
    }
  });
});
