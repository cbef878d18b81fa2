import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  HIT_GROUP_ARMS,
  HIT_GROUP_HEAD,
  HIT_GROUP_LEGS,
  HIT_GROUP_OTHER,
  HIT_GROUP_TAIL,
  HIT_GROUP_TORSO,
  hitGroupFromBoneName,
} from '../../src/character/hitGroups';
import { addCharacterHitboxes, createHitboxStore } from '../../src/character/hitboxStore';
import { buildCharacterRayGrid, createCharacterRayGrid } from '../../src/character/rayGrid';
import { createHitboxRayHit, raycastHitboxes } from '../../src/character/hitboxRaycast';
import { fitBoneHitboxes, type HitboxFitMethod } from '../../src/character/hitboxFit';
import { updateHitboxes } from '../../src/character/hitboxUpdate';
import { CollideInputError } from '../../src/errors';
import { raycastObb } from '../../src/query/raycast';
import { addCharacter, computeWorldMatrices, createSkeletonStore, defineSkeleton } from '../../src/character/skeleton';
import { defineSkin } from '../../src/character/skin';
import { boxContains, buildHumanoid, measureFrame, referenceSkin, referenceWorldMatrices } from '../../scenes/humanoid';
import { mulberry32, quaternionToAxes, randomQuaternion } from '../../scenes/random';
import { rayQueryOf } from '../support/rays';

const humanoid = buildHumanoid();
const def = defineSkeleton(humanoid.skeleton);
const skin = defineSkin(def, humanoid.skin);
const SAMPLES = 50;

/** Animates one humanoid through SAMPLES times and reports coverage, tightness and single-bone containment. */
function runHumanoid(options: Parameters<typeof fitBoneHitboxes>[2]) {
  const fitted = fitBoneHitboxes(def, skin, options);
  const skeletons = createSkeletonStore();
  const c = addCharacter(skeletons, def, 42);
  const boxes = createHitboxStore();
  addCharacterHitboxes(boxes, skeletons, c, fitted);
  const boxOfBone = new Int32Array(def.boneCount).fill(-1);
  for (let h = 0; h < fitted.count; h++) boxOfBone[fitted.bone[h]] = h;
  let inside = 0, total = 0, ratio = 0, worstSingle = 0;
  for (let s = 0; s < SAMPLES; s++) {
    humanoid.animate((s / SAMPLES) * humanoid.duration, skeletons.translation, skeletons.rotation, skeletons.scale);
    computeWorldMatrices(skeletons);
    updateHitboxes(boxes, skeletons);
    const world = referenceWorldMatrices(humanoid.skeleton.parents, skeletons.translation, skeletons.rotation, skeletons.scale);
    const v = referenceSkin(humanoid.skin, world, def.inverseBind);
    const fit = measureFrame(v, boxes.world, 0, boxes.count);
    inside += fit.inside;
    total += fit.total;
    ratio += fit.volumeRatio / SAMPLES;
    for (let i = 0; i < skin.vertexCount; i++) {
      if (skin.weights[4 * i] !== 1) continue;
      const h = boxOfBone[skin.bones[4 * i]];
      if (h < 0) continue;
      // Distance outside the box, relative to the box size.
      const size = Math.max(boxes.world[15 * h + 12], boxes.world[15 * h + 13], boxes.world[15 * h + 14]);
      let lo = 0, hi = size;
      while (!boxContains(boxes.world, 15 * h, v[3 * i], v[3 * i + 1], v[3 * i + 2], hi)) hi *= 2;
      if (!boxContains(boxes.world, 15 * h, v[3 * i], v[3 * i + 1], v[3 * i + 2], 0)) {
        for (let k = 0; k < 40; k++) {
          const mid = 0.5 * (lo + hi);
          if (boxContains(boxes.world, 15 * h, v[3 * i], v[3 * i + 1], v[3 * i + 2], mid)) hi = mid;
          else lo = mid;
        }
        worstSingle = Math.max(worstSingle, hi / size);
      }
    }
  }
  return { count: fitted.count, coverage: inside / total, ratio, worstSingle };
}

describe('bone hitboxes on the 68-bone humanoid', () => {
  it('has 60+ bones; end bones without vertices get no hitbox', () => {
    expect(def.boneCount).toBe(68);
    const fitted = fitBoneHitboxes(def, skin);
    const ends = def.names.filter((n) => /_End$|4$/.test(n)).length;
    expect(fitted.count).toBe(def.boneCount - ends);
    for (let h = 0; h < fitted.count; h++) expect(def.names[fitted.bone[h]]).not.toMatch(/_End$/);
  });

  it('covers >= 99% of skinned vertices at 50 sampled times, with single-bone vertices inside their box (1e-4)', () => {
    const rows: string[] = [];
    for (const method of ['aabb', 'pca', 'dito26'] as HitboxFitMethod[]) {
      for (const weightThreshold of [0.1, 0.2, 0.3, 0.4, 0.5]) {
        const r = runHumanoid({ method, weightThreshold });
        rows.push(`${method} ${weightThreshold}: coverage ${(100 * r.coverage).toFixed(2)}%, box volume / mesh AABB ${r.ratio.toFixed(3)}`);
        expect(r.worstSingle).toBeLessThanOrEqual(1e-4);
        if (weightThreshold <= 0.3) expect(r.coverage).toBeGreaterThanOrEqual(0.99);
        // The boxes hug the limbs: far less volume than the whole-mesh box, yet not empty.
        expect(r.ratio).toBeGreaterThan(0.02);
        expect(r.ratio).toBeLessThan(0.3);
      }
    }
    console.log(`humanoid hitboxes (${SAMPLES} times):\n${rows.join('\n')}`);
  }, 60_000);

  it('merges or drops boxes below minSize; merge keeps every bind-pose vertex covered, drop loses the fingers', () => {
    const base = fitBoneHitboxes(def, skin, { method: 'aabb' });
    const merged = fitBoneHitboxes(def, skin, { method: 'aabb', minSize: 0.06 });
    const dropped = fitBoneHitboxes(def, skin, { method: 'aabb', minSize: 0.06, smallBones: 'drop' });
    expect(merged.count).toBeLessThan(base.count);
    // Merging can lift a parent above minSize with its children's points, so it keeps at least as many boxes.
    expect(dropped.count).toBeLessThanOrEqual(merged.count);
    expect(merged.bone.some((b) => /Hand(Thumb|Index|Middle|Ring|Pinky)[23]$/.test(def.names[b]))).toBe(false);
    const covered = (f: typeof base) => {
      const skeletons = createSkeletonStore();
      addCharacter(skeletons, def, 0);
      const store = createHitboxStore();
      addCharacterHitboxes(store, skeletons, 0, f);
      return measureFrame(referenceSkin(humanoid.skin, referenceWorldMatrices(humanoid.skeleton.parents, def.translation, def.rotation, def.scale), def.inverseBind), store.world, 0, store.count).inside;
    };
    expect(covered(merged)).toBe(skin.vertexCount);
    expect(covered(dropped)).toBeLessThan(skin.vertexCount);
  });

  it('derives hit groups from bone names, with a user override', () => {
    expect(hitGroupFromBoneName('Head')).toBe(HIT_GROUP_HEAD);
    expect(hitGroupFromBoneName('b_Neck_04')).toBe(HIT_GROUP_HEAD);
    expect(hitGroupFromBoneName('Spine2')).toBe(HIT_GROUP_TORSO);
    expect(hitGroupFromBoneName('b_Hip_01')).toBe(HIT_GROUP_TORSO);
    expect(hitGroupFromBoneName('LeftForeArm')).toBe(HIT_GROUP_ARMS);
    expect(hitGroupFromBoneName('RightHandIndex2')).toBe(HIT_GROUP_ARMS);
    expect(hitGroupFromBoneName('b_LeftLeg01_015')).toBe(HIT_GROUP_LEGS);
    expect(hitGroupFromBoneName('RightToeBase')).toBe(HIT_GROUP_LEGS);
    expect(hitGroupFromBoneName('b_Tail02_013')).toBe(HIT_GROUP_TAIL);
    expect(hitGroupFromBoneName('_rootJoint')).toBe(HIT_GROUP_OTHER);
    const custom = fitBoneHitboxes(def, skin, { hitGroup: (name) => (name === 'Head' ? 7 : 1) });
    for (let h = 0; h < custom.count; h++) expect(custom.group[h]).toBe(def.names[custom.bone[h]] === 'Head' ? 7 : 1);
  });

  it('rejects bad options', () => {
    expect(() => fitBoneHitboxes(def, skin, { weightThreshold: 0 })).toThrow(CollideInputError);
    expect(() => fitBoneHitboxes(def, skin, { weightThreshold: 1.5 })).toThrow(/weightThreshold/);
    expect(() => fitBoneHitboxes(def, skin, { minSize: -1 })).toThrow(/minSize/);
    expect(() => fitBoneHitboxes(def, skin, { method: 'nope' as never })).toThrow(/unknown method/);
    expect(() => fitBoneHitboxes(def, skin, { poses: [new Float64Array(16)] })).toThrow(/pose 0/);
    const skeletons = createSkeletonStore();
    addCharacter(skeletons, def, 0);
    expect(() => addCharacterHitboxes(createHitboxStore(), skeletons, 1, fitBoneHitboxes(def, skin))).toThrow(/expected skeleton character 0/);
  });
});

describe('updateHitboxes', () => {
  it('the world box contains the bone-mapped local box (any scale) and is exact for uniform scale', () => {
    fc.assert(
      fc.property(fc.integer(), fc.boolean(), fc.double({ min: -1e6, max: 1e6, noNaN: true }), (seed, uniform, offset) => {
        const rand = mulberry32(seed);
        const scale = uniform ? Array(3).fill(0.2 + 3 * rand()) : [0.2 + 3 * rand(), 0.2 + 3 * rand(), 0.2 + 3 * rand()];
        if (rand() < 0.2) scale[0] = -scale[0]; // mirrored bone
        const single = defineSkeleton({ parents: [-1], translation: [offset, 1, -offset], rotation: randomQuaternion(rand), scale, inverseBind: [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1] });
        const skeletons = createSkeletonStore();
        addCharacter(skeletons, single, 0);
        const local = new Float64Array(15);
        local.set([rand() - 0.5, rand() - 0.5, rand() - 0.5], 0);
        local.set(quaternionToAxes(randomQuaternion(rand)), 3);
        local.set([rand(), rand(), rand() < 0.2 ? 0 : rand()], 12);
        const store = createHitboxStore();
        addCharacterHitboxes(store, skeletons, 0, { count: 1, bone: Int32Array.of(0), group: Uint8Array.of(0), local });
        const m = skeletons.world;
        const w = store.world;
        const size = Math.abs(offset) + 10;
        // The world box is stored in Float32: a few steps of 2^-23 of its scale.
        const stored = 8 * 2 ** -23;
        // Axes orthonormal and right-handed.
        const a = (k: number) => [w[3 + 3 * k], w[4 + 3 * k], w[5 + 3 * k]];
        for (let i = 0; i < 3; i++) for (let j = 0; j < 3; j++) expect(a(i)[0] * a(j)[0] + a(i)[1] * a(j)[1] + a(i)[2] * a(j)[2]).toBeCloseTo(i === j ? 1 : 0, 6);
        const [u, v, z] = [a(0), a(1), a(2)];
        expect(u[1] * v[2] - u[2] * v[1]).toBeCloseTo(z[0], 6);
        for (let corner = 0; corner < 8; corner++) {
          const p = [0, 1, 2].map((i) => local[i] + [0, 1, 2].reduce((s, k) => s + ((corner >> k) & 1 ? 1 : -1) * local[12 + k] * local[3 + 3 * k + i], 0));
          const q = [0, 1, 2].map((i) => m[i] * p[0] + m[4 + i] * p[1] + m[8 + i] * p[2] + m[12 + i]);
          expect(boxContains(w, 0, q[0], q[1], q[2], stored * size)).toBe(true);
          const aabb = store.characterAabb;
          for (let i = 0; i < 3; i++) {
            expect(q[i]).toBeGreaterThanOrEqual(aabb[i] - 1e-9 * size);
            expect(q[i]).toBeLessThanOrEqual(aabb[3 + i] + 1e-9 * size);
          }
        }
        const localVolume = local[12] * local[13] * local[14];
        const det = Math.abs(scale[0] * scale[1] * scale[2]);
        const worldVolume = w[12] * w[13] * w[14];
        if (uniform) expect(Math.abs(worldVolume - localVolume * det)).toBeLessThanOrEqual(stored * (localVolume * det + 1e-6)); // a zero extent leaves rounding noise
        else expect(worldVolume).toBeGreaterThanOrEqual(localVolume * det * (1 - stored));
      }),
      { numRuns: 300 },
    );
  });
});

describe('raycastHitboxes', () => {
  it('finds the same nearest hit as a brute-force cast over every box of an animated crowd', () => {
    const fitted = fitBoneHitboxes(def, skin);
    const rand = mulberry32(77);
    const skeletons = createSkeletonStore();
    const store = createHitboxStore();
    const crowd = 40;
    for (let c = 0; c < crowd; c++) {
      addCharacter(skeletons, def, 1000 + c);
      addCharacterHitboxes(store, skeletons, c, fitted);
    }
    const grid = createCharacterRayGrid();
    const hit = createHitboxRayHit();
    const out = new Float64Array(4);
    let hits = 0;
    for (let frame = 0; frame < 4; frame++) {
      for (let c = 0; c < crowd; c++) {
        const first = skeletons.firstBone[c];
        humanoid.animate(rand() * humanoid.duration, skeletons.translation.subarray(3 * first), skeletons.rotation.subarray(4 * first), skeletons.scale.subarray(3 * first));
        const cm = skeletons.characterMatrix;
        cm[16 * c + 12] = (rand() - 0.5) * 12 + 1e3 * frame;
        cm[16 * c + 14] = (rand() - 0.5) * 12;
      }
      computeWorldMatrices(skeletons);
      updateHitboxes(store, skeletons);
      buildCharacterRayGrid(grid, store);
      for (let r = 0; r < 300; r++) {
        const ox = (rand() - 0.5) * 20 + 1e3 * frame, oy = rand() * 2, oz = (rand() - 0.5) * 20;
        const tx = (rand() - 0.5) * 12 + 1e3 * frame, ty = rand() * 2, tz = (rand() - 0.5) * 12;
        const dx = tx - ox, dy = r % 10 === 0 ? 0 : ty - oy, dz = tz - oz;
        const maxT = r % 3 === 0 ? 0.5 : 2;
        let best = Infinity, bestBox = -1;
        for (let h = 0; h < store.count; h++) {
          if (raycastObb(out, ox, oy, oz, dx, dy, dz, maxT, store.world, 15 * h) && out[0] < best) {
            best = out[0];
            bestBox = h;
          }
        }
        const found = raycastHitboxes(hit, store, grid, rayQueryOf(ox, oy, oz, dx, dy, dz, maxT));
        expect(found).toBe(bestBox >= 0);
        if (!found) continue;
        hits++;
        // Same t to the bit, and ties (equal t) resolved to the lowest hitbox index, as here.
        expect(hit.t).toBe(best);
        expect(hit.hitbox).toBe(bestBox);
        expect(hit.character).toBe(store.character[hit.hitbox]);
        expect(hit.entity).toBe(1000 + hit.character);
        expect(hit.bone).toBe(store.bone[hit.hitbox]);
        expect(hit.group).toBe(store.group[hit.hitbox]);
        expect(hit.distance).toBeCloseTo(best * Math.hypot(dx, dy, dz), 9);
        expect(Math.hypot(hit.normal[0], hit.normal[1], hit.normal[2])).toBeCloseTo(1, 9);
        for (let i = 0; i < 3; i++) expect(hit.point[i]).toBeCloseTo([ox, oy, oz][i] + best * [dx, dy, dz][i], 6);
      }
    }
    expect(hits).toBeGreaterThan(200);
  });

  it('misses on an empty store and for rays that end before the crowd', () => {
    const grid = createCharacterRayGrid();
    const store = createHitboxStore();
    buildCharacterRayGrid(grid, store);
    expect(raycastHitboxes(createHitboxRayHit(), store, grid, rayQueryOf(0, 0, 0, 1, 0, 0, 10))).toBe(false);
    const skeletons = createSkeletonStore();
    addCharacter(skeletons, def, 0);
    addCharacterHitboxes(store, skeletons, 0, fitBoneHitboxes(def, skin));
    buildCharacterRayGrid(grid, store);
    const hit = createHitboxRayHit();
    expect(raycastHitboxes(hit, store, grid, rayQueryOf(-5, 1, 0, 1, 0, 0, 4))).toBe(false);
    expect(raycastHitboxes(hit, store, grid, rayQueryOf(-5, 1, 0, 1, 0, 0, 6))).toBe(true);
    expect(hit.normal[0]).toBeLessThan(0);
    expect(() => createCharacterRayGrid(0)).toThrow(CollideInputError);
  });

  it('keeps ignoring the shooter after 2^31 rays (Int32 ray stamps wrap)', () => {
    const skeletons = createSkeletonStore();
    const store = createHitboxStore();
    const fitted = fitBoneHitboxes(def, skin);
    for (let c = 0; c < 2; c++) {
      addCharacter(skeletons, def, c);
      addCharacterHitboxes(store, skeletons, c, fitted);
      skeletons.characterMatrix[16 * c + 12] = 2 * c;
    }
    computeWorldMatrices(skeletons);
    updateHitboxes(store, skeletons);
    const grid = createCharacterRayGrid();
    buildCharacterRayGrid(grid, store);
    const hit = createHitboxRayHit();
    // From inside character 0's chest towards character 1, 2 m away along x.
    const chest = store.world.subarray(0, 3);
    for (const id of [0, 2 ** 31 - 2, 2 ** 31 - 1]) {
      grid.rayId = id;
      for (let r = 0; r < 3; r++) {
        expect(raycastHitboxes(hit, store, grid, rayQueryOf(chest[0], chest[1], chest[2], 1, 0, 0, 10, 0xffffffff, store.characterEntity[0]))).toBe(true);
        expect(hit.character).toBe(1);
      }
    }
  });
});
