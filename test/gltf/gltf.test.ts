import { Document, NodeIO } from '@gltf-transform/core';
import { quat } from 'gl-matrix';
import { beforeAll, describe, expect, it } from 'vitest';
import { loadGltfCharacter, sampleGltfAnimation, sampleGltfPoses, type GltfCharacter } from '../../gltf/index';
import { addCharacterHitboxes, createHitboxStore } from '../../src/character/hitboxStore';
import { fitBoneHitboxes, type BoneHitboxes } from '../../src/character/hitboxFit';
import { updateHitboxes } from '../../src/character/hitboxUpdate';
import { CollideInputError } from '../../src/errors';
import { addCharacter, computeWorldMatrices, createSkeletonStore } from '../../src/character/skeleton';
import { FOX_PATH } from '../../scenes/meshes';
import { boxContains, measureFrame, referenceSkin, referenceWorldMatrices } from '../../scenes/humanoid';

let fox: GltfCharacter;
beforeAll(async () => {
  fox = loadGltfCharacter(await new NodeIO().read(FOX_PATH));
});

const SAMPLES = 50;

/** Plays every animation at SAMPLES times (offset from the fitting samples) and measures the boxes against CPU skinning. */
function playFox(fitted: BoneHitboxes) {
  const def = fox.skeleton;
  const skeletons = createSkeletonStore();
  const c = addCharacter(skeletons, def, 9);
  skeletons.characterMatrix.set(fox.rootMatrix, 16 * c);
  const store = createHitboxStore();
  addCharacterHitboxes(store, skeletons, c, fitted);
  const boxOfBone = new Int32Array(def.boneCount).fill(-1);
  for (let h = 0; h < fitted.count; h++) boxOfBone[fitted.bone[h]] = h;
  const skinInput = { positions: fox.skin.positions, joints: fox.skin.bones, weights: fox.skin.weights };
  let inside = 0, total = 0, ratio = 0, frames = 0, singleOutside = 0, singles = 0;
  for (const anim of fox.animations) {
    for (let s = 0; s < SAMPLES; s++) {
      sampleGltfAnimation(anim, ((s + 0.37) / SAMPLES) * anim.duration, skeletons.translation, skeletons.rotation, skeletons.scale);
      computeWorldMatrices(skeletons);
      updateHitboxes(store, skeletons);
      const world = referenceWorldMatrices(def.parent, skeletons.translation, skeletons.rotation, skeletons.scale, fox.rootMatrix as never);
      const v = referenceSkin(skinInput, world, def.inverseBind);
      const fit = measureFrame(v, store.world, 0, store.count);
      inside += fit.inside;
      total += fit.total;
      ratio += fit.volumeRatio;
      frames++;
      for (let i = 0; i < fox.skin.vertexCount; i++) {
        let single = -1;
        for (let k = 0; k < 4; k++) if (fox.skin.weights[4 * i + k] === 1) single = fox.skin.bones[4 * i + k];
        if (single < 0 || boxOfBone[single] < 0) continue;
        const h = boxOfBone[single];
        singles++;
        const size = Math.max(store.world[15 * h + 12], store.world[15 * h + 13], store.world[15 * h + 14]);
        if (!boxContains(store.world, 15 * h, v[3 * i], v[3 * i + 1], v[3 * i + 2], 1e-4 * size)) singleOutside++;
      }
    }
  }
  return { coverage: inside / total, ratio: ratio / frames, singleOutside, singles };
}

describe('glTF adapter on the Fox', () => {
  it('reads 24 joints parents-first, the skin and three animations', () => {
    expect(fox.skeleton.boneCount).toBe(24);
    for (let b = 0; b < 24; b++) expect(fox.skeleton.parent[b]).toBeLessThan(b);
    expect(fox.skeleton.names[0]).toBe('_rootJoint');
    expect(fox.skin.vertexCount).toBe(1728);
    expect(fox.animations.map((a) => a.name)).toEqual(['Survey', 'Walk', 'Run']);
    for (const a of fox.animations) expect(a.duration).toBeGreaterThan(0.5);
    expect(fox.hitboxes.count).toBeGreaterThan(15);
    expect(Array.from(fox.rootMatrix)).toEqual([1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1]);
  });

  it('covers >= 99% of the skinned Fox at 50 times of every animation when fitted over sampled poses', () => {
    const poses = sampleGltfPoses(fox.skeleton, fox.animations, 20);
    const rows: string[] = [];
    for (const weightThreshold of [0.1, 0.3, 0.5]) {
      for (const method of ['aabb', 'dito26'] as const) {
        const bind = playFox(fitBoneHitboxes(fox.skeleton, fox.skin, { method, weightThreshold }));
        const posed = playFox(fitBoneHitboxes(fox.skeleton, fox.skin, { method, weightThreshold, poses }));
        rows.push(`${method} ${weightThreshold}: bind pose only ${(100 * bind.coverage).toFixed(2)}% (volume ratio ${bind.ratio.toFixed(3)}), with 20 poses/animation ${(100 * posed.coverage).toFixed(2)}% (${posed.ratio.toFixed(3)})`);
        expect(posed.coverage).toBeGreaterThanOrEqual(0.99);
        expect(bind.coverage).toBeGreaterThanOrEqual(0.85);
        expect(posed.ratio).toBeLessThan(1);
        for (const r of [bind, posed]) {
          expect(r.singles).toBeGreaterThan(1000);
          expect(r.singleOutside).toBe(0);
        }
      }
    }
    console.log(`Fox hitboxes (${SAMPLES} times x 3 animations):\n${rows.join('\n')}`);
  }, 60_000);

  it('samples LINEAR keys exactly, slerps between them, and holds STEP keys', () => {
    const walk = fox.animations[1];
    const ch = walk.channels.find((c) => c.path === 'rotation' && c.times.length > 3);
    expect(ch).toBeDefined();
    if (!ch) return;
    const n = fox.skeleton.boneCount;
    const t = new Float64Array(3 * n), r = new Float64Array(4 * n), s = new Float64Array(3 * n);
    const at = (time: number) => {
      sampleGltfAnimation({ ...walk, channels: [ch] }, time, t, r, s);
      return Array.from(r.subarray(4 * ch.bone, 4 * ch.bone + 4));
    };
    const key = (k: number) => Array.from(ch.values.subarray(4 * k, 4 * k + 4));
    const norm = (q: number[]) => q.map((x) => x / Math.hypot(...q));
    const close = (a: number[], b: number[]) => a.forEach((x, i) => expect(x).toBeCloseTo(b[i], 6));
    close(at(ch.times[2]), norm(key(2)));
    close(at(-1), norm(key(0)));
    close(at(1e9), norm(key(ch.times.length - 1)));
    const mid = 0.5 * (ch.times[2] + ch.times[3]);
    const ref = quat.slerp(quat.create(), key(2) as never, key(3) as never, 0.5);
    close(at(mid), norm(Array.from(ref)));
    const step = { ...ch, interpolation: 'STEP' as const };
    sampleGltfAnimation({ ...walk, channels: [step] }, mid, t, r, s);
    close(Array.from(r.subarray(4 * ch.bone, 4 * ch.bone + 4)), norm(key(2)));
    // Translation channel, LINEAR: halfway is the average.
    const tr = { bone: 1, path: 'translation' as const, interpolation: 'LINEAR' as const, times: Float64Array.of(0, 2), values: Float64Array.of(0, 0, 0, 2, 4, -6) };
    sampleGltfAnimation({ name: 'x', duration: 2, channels: [tr] }, 0.5, t, r, s, 0);
    expect(Array.from(t.subarray(3, 6))).toEqual([0.5, 1, -1.5]);
    sampleGltfAnimation({ name: 'x', duration: 2, channels: [{ ...tr, interpolation: 'STEP' }] }, 1.9, t, r, s, 0);
    expect(Array.from(t.subarray(3, 6))).toEqual([0, 0, 0]);
  });

  it('rejects documents without a skin and bad sample counts', () => {
    expect(() => loadGltfCharacter(new Document())).toThrow(CollideInputError);
    expect(() => sampleGltfPoses(fox.skeleton, fox.animations, 0)).toThrow(/samplesPerAnimation/);
  });

  it('fits the loaded hitboxes over sampled poses by default (>= 99% coverage), the bind pose alone with poseSamples 0', async () => {
    const doc = await new NodeIO().read(FOX_PATH);
    const loaded = playFox(fox.hitboxes);
    const bindOnly = playFox(loadGltfCharacter(doc, { poseSamples: 0 }).hitboxes);
    expect(loaded.coverage).toBeGreaterThanOrEqual(0.99);
    expect(bindOnly.coverage).toBeLessThan(0.99);
    expect(loaded.singleOutside).toBe(0);
    for (const bad of [-1, 2.5, NaN, 2 ** 31]) expect(() => loadGltfCharacter(doc, { poseSamples: bad })).toThrow(/poseSamples must be an integer in \[0, 4096\]/);
  }, 60_000);
});
