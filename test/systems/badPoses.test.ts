/**
 * Poses written straight into stores, which no setter checks: bone local poses (and character
 * matrices) that would make a world matrix hold NaN, an infinity or a number beyond
 * ±MAX_COORDINATE, and dynamic colliders' poses in the transform store. The step refuses them with
 * a CollideInputError naming the entity, and no store receives a number that is not finite.
 */
import { addEntity, createWorld } from 'bitecs';
import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import { addCharacter, computeWorldMatrices, createSkeletonStore, type SkeletonStore } from '../../src/character/skeleton';
import { CollideInputError } from '../../src/errors';
import { MAX_COORDINATE } from '../../src/tolerances';
import { addCollider, markTransformChanged, setTransform } from '../../systems/colliderApi';
import { addCharacterCollider } from '../../systems/characters';
import type { CollisionPipeline } from '../../systems/collisionState';
import { createCollisionPipeline } from '../../systems/pipeline';
import { createWorkerPool } from '../../systems/parallel/workerPool';
import { mulberry32 } from '../../scenes/random';
import { SHAPE_STRIDE } from '../../components/collider';
import { def, fitted, humanoid } from '../support/hitboxRays';

const asset = { skeleton: def, hitboxes: fitted };
const running: CollisionPipeline[] = [];
afterEach(() => {
  for (const p of running.splice(0)) p.destroy();
});

/** Values no bone may end up with: NaN, infinities, and finite numbers whose matrix leaves ±MAX_COORDINATE. */
const poison = fc.constantFrom(NaN, Infinity, -Infinity, 1e19, -3e25, 1e300);
const field = fc.constantFrom('translation', 'rotation', 'scale', 'characterMatrix');

/** Writes `value` into one number of bone `bone`'s local pose, or of its character's matrix. */
function poisonBone(s: SkeletonStore, bone: number, what: string, k: number, value: number): void {
  if (what === 'translation') s.translation[3 * bone + (k % 3)] = value;
  else if (what === 'rotation') s.rotation[4 * bone + (k % 4)] = value;
  else if (what === 'scale') s.scale[3 * bone + (k % 3)] = value;
  else s.characterMatrix[16 * s.character[bone] + 12 + (k % 3)] = value;
}

/** 4x4 column-major product a·b. */
function multiply(a: ArrayLike<number>, b: ArrayLike<number>): number[] {
  const out = new Array<number>(16).fill(0);
  for (let c = 0; c < 4; c++) for (let r = 0; r < 4; r++) for (let k = 0; k < 4; k++) out[4 * c + r] += a[4 * k + r] * b[4 * c + k];
  return out;
}

/**
 * Reference: the first bone whose world matrix (parent · T·R·S, by plain 4x4 products) has a
 * number that is not finite or beyond ±MAX_COORDINATE, or -1; `near` when some number is within
 * 1e-9 of the limit, where rounding may decide.
 */
function referenceRefusal(s: SkeletonStore): { bone: number; near: boolean } {
  const world: number[][] = [];
  let near = false;
  for (let i = 0; i < s.boneCount; i++) {
    const [x, y, z, w] = Array.from(s.rotation.subarray(4 * i, 4 * i + 4));
    const [sx, sy, sz] = Array.from(s.scale.subarray(3 * i, 3 * i + 3));
    const [tx, ty, tz] = Array.from(s.translation.subarray(3 * i, 3 * i + 3));
    const local = [
      (1 - 2 * (y * y + z * z)) * sx, 2 * (x * y + z * w) * sx, 2 * (x * z - y * w) * sx, 0,
      2 * (x * y - z * w) * sy, (1 - 2 * (x * x + z * z)) * sy, 2 * (y * z + x * w) * sy, 0,
      2 * (x * z + y * w) * sz, 2 * (y * z - x * w) * sz, (1 - 2 * (x * x + y * y)) * sz, 0,
      tx, ty, tz, 1,
    ];
    const p = s.parent[i];
    const parent = p < 0 ? s.characterMatrix.subarray(16 * s.character[i], 16 * s.character[i] + 16) : world[p];
    world[i] = multiply(parent, local);
    for (const v of world[i]) if (Math.abs(Math.abs(v) / MAX_COORDINATE - 1) < 1e-9) near = true;
    if (!world[i].every((v) => Math.abs(v) <= MAX_COORDINATE)) return { bone: i, near };
  }
  return { bone: -1, near };
}

/** Every number of `a` is finite. */
function allFinite(a: ArrayLike<number>): boolean {
  for (let i = 0; i < a.length; i++) if (!Number.isFinite(a[i])) return false;
  return true;
}

/** A pipeline with `crowd` animated characters and some boxes, stepped once; `workers` 0 for one thread. */
function crowdPipeline(seed: number, crowd: number, workers: number): { p: CollisionPipeline; world: ReturnType<typeof createWorld> } {
  const world = createWorld();
  const p = createCollisionPipeline(world, workers > 0 ? { workers: createWorkerPool(workers) } : {});
  running.push(p);
  if (p.parallel !== undefined) p.parallel.minHitboxCharacters = 1;
  const rand = mulberry32(seed);
  const side = 2 * Math.sqrt(crowd);
  for (let c = 0; c < crowd; c++) {
    const e = addEntity(world);
    addCharacterCollider(world, e, asset);
    setTransform(world, e, [rand() * side, 0, rand() * side]);
    const s = p.characters!.skeletons, first = s.firstBone[c];
    humanoid.animate(rand() * humanoid.duration, s.translation.subarray(3 * first), s.rotation.subarray(4 * first), s.scale.subarray(3 * first));
  }
  for (let i = 0; i < 10; i++) {
    const e = addEntity(world);
    addCollider(world, e, { shape: 'obb', halfExtents: [0.3, 0.3, 0.3] });
    setTransform(world, e, [rand() * side, rand() * 2, rand() * side]);
  }
  p.step(world);
  return { p, world };
}

describe('bone poses that would leave the coordinate range', () => {
  it('computeWorldMatrices stops at the first refused bone and leaves every matrix finite', () => {
    fc.assert(fc.property(fc.integer({ min: 1, max: 4 }), fc.nat(), field, fc.nat(), poison, fc.double({ min: 0, max: 1, noNaN: true }), (crowd, at, what, k, value, phase) => {
      const s = createSkeletonStore(), clean = createSkeletonStore();
      for (const store of [s, clean]) {
        for (let c = 0; c < crowd; c++) {
          addCharacter(store, def, c);
          const first = store.firstBone[c];
          humanoid.animate(phase * humanoid.duration, store.translation.subarray(3 * first), store.rotation.subarray(4 * first), store.scale.subarray(3 * first));
        }
      }
      expect(computeWorldMatrices(clean)).toBe(-1);
      const before = s.world.slice();
      poisonBone(s, at % s.boneCount, what, k, value);
      const expected = referenceRefusal(s);
      fc.pre(!expected.near);
      const bad = computeWorldMatrices(s);
      expect(bad).toBe(expected.bone);
      if (bad < 0) return;
      expect(allFinite(s.world)).toBe(true);
      // Bones before it are this pass's; those after it keep their last matrices.
      expect(Array.from(s.world.subarray(0, 16 * bad))).toEqual(Array.from(clean.world.subarray(0, 16 * bad)));
      expect(Array.from(s.world.subarray(16 * bad + 16))).toEqual(Array.from(before.subarray(16 * bad + 16)));
    }), { numRuns: 200 });
  });

  it('a world matrix exactly at ±MAX_COORDINATE is kept; just beyond it is refused', () => {
    const s = createSkeletonStore();
    addCharacter(s, def, 0);
    s.characterMatrix[12] = MAX_COORDINATE;
    s.translation.fill(0);
    expect(computeWorldMatrices(s)).toBe(-1);
    s.characterMatrix[12] = MAX_COORDINATE * (1 + 2 ** -50);
    expect(computeWorldMatrices(s)).toBe(0);
  });

  it('with a hitbox history, the time of a refused step can be stepped again once the pose is fixed', () => {
    const world = createWorld();
    const p = createCollisionPipeline(world, { characters: { history: { frames: 4 } } });
    running.push(p);
    const e = addEntity(world);
    addCharacterCollider(world, e, asset);
    p.step(world, 1);
    const s = p.characters!.skeletons;
    const saved = s.rotation[4 * 3];
    s.rotation[4 * 3] = NaN;
    expect(() => p.step(world, 2)).toThrow(/step: character of entity \d+, bone 3/);
    s.rotation[4 * 3] = saved;
    p.step(world, 2);
    expect(p.hitboxHistory!.count).toBe(2);
  });

  it('addCharacter refuses a rest pose that leaves the range and adds nothing', () => {
    const s = createSkeletonStore();
    addCharacter(s, def, 7);
    const bad = { ...def, translation: def.translation.slice() };
    bad.translation[3 * 4] = 2e18;
    expect(() => addCharacter(s, bad, 8)).toThrow(/addCharacter: the rest pose of character of entity 8, bone 4/);
    expect([s.characterCount, s.boneCount]).toEqual([1, def.boneCount]);
    expect(addCharacter(s, def, 9)).toBe(1);
  });

  it('step refuses them naming the entity and bone, on one thread and on 1-3 workers alike; the stores stay finite and the next step recovers', () => {
    fc.assert(fc.property(fc.integer({ min: 0, max: 3 }), fc.integer({ min: 0, max: 2 ** 31 - 1 }), fc.integer({ min: 1, max: 12 }), fc.nat(), field, fc.nat(), poison,
      (workers, seed, crowd, at, what, k, value) => {
        const { p, world } = crowdPipeline(seed, crowd, workers);
        const twin = crowdPipeline(seed, crowd, 0);
        const s = p.characters!.skeletons, h = p.characters!.hitboxes;
        const bone = at % s.boneCount;
        const before = { world: h.world.slice(), characterAabb: h.characterAabb.slice() };
        // A new pose for every character (in both pipelines), then one number of it poisoned.
        for (const q of [s, twin.p.characters!.skeletons]) {
          for (let ch = 0; ch < q.characterCount; ch++) {
            const first = q.firstBone[ch];
            humanoid.animate((0.37 * (ch + 1)) % humanoid.duration, q.translation.subarray(3 * first), q.rotation.subarray(4 * first), q.scale.subarray(3 * first));
          }
        }
        const saved = { t: s.translation.slice(), q: s.rotation.slice(), sc: s.scale.slice(), m: s.characterMatrix.slice() };
        // A character matrix the pipeline writes from the entity's transform cannot be poisoned that way.
        if (what === 'characterMatrix') s.placedByEntity[s.character[bone]] = 0;
        poisonBone(s, bone, what, k, value);
        const expected = referenceRefusal(s);
        fc.pre(!expected.near && expected.bone >= 0);
        const refused = expected.bone, c = s.character[refused];
        let error: unknown;
        try {
          p.step(world);
        } catch (e) {
          error = e;
        }
        expect(error).toBeInstanceOf(CollideInputError);
        expect((error as Error).message).toContain(`step: character of entity ${s.characterEntity[c]}, bone ${refused - s.firstBone[c]} ('${s.boneName[refused]}')`);
        for (const name of ['world', 'sphere', 'characterAabb', 'clusterAabb'] as const) expect(allFinite(h[name]), name).toBe(true);
        expect(allFinite(s.world)).toBe(true);
        // The refused character's hitboxes are those of the last step (its thread's run stopped).
        const from = h.firstHitbox[c], to = from + h.hitboxCount[c];
        expect(Array.from(h.world.subarray(15 * from, 15 * to))).toEqual(Array.from(before.world.subarray(15 * from, 15 * to)));
        expect(Array.from(h.characterAabb.subarray(6 * c, 6 * c + 6))).toEqual(Array.from(before.characterAabb.subarray(6 * c, 6 * c + 6)));
        // Fixed, the next step gives what a pipeline that never saw the bad pose gives.
        s.translation.set(saved.t);
        s.rotation.set(saved.q);
        s.scale.set(saved.sc);
        s.characterMatrix.set(saved.m);
        s.placedByEntity[s.character[bone]] = 1;
        p.step(world);
        twin.p.step(twin.world);
        const t = twin.p.characters!.hitboxes;
        for (const name of ['world', 'sphere', 'characterAabb', 'clusterAabb'] as const) expect(Array.from(h[name]), name).toEqual(Array.from(t[name]));
        expect(Array.from(p.touchingPairs.a.subarray(0, p.touchingPairs.count))).toEqual(Array.from(twin.p.touchingPairs.a.subarray(0, twin.p.touchingPairs.count)));
        expect(Array.from(p.touchingPairs.b.subarray(0, p.touchingPairs.count))).toEqual(Array.from(twin.p.touchingPairs.b.subarray(0, twin.p.touchingPairs.count)));
        p.destroy();
        twin.p.destroy();
      }), { numRuns: 25 });
  });
});

describe('dynamic colliders posed by writes into the transform store', () => {
  it('a rotation written without unit length is normalised when read: boxes stay rigid, as setTransform would place them', () => {
    fc.assert(fc.property(fc.double({ min: -2, max: 2, noNaN: true }), fc.double({ min: -2, max: 2, noNaN: true }), fc.double({ min: -2, max: 2, noNaN: true }), fc.double({ min: -2, max: 2, noNaN: true }), fc.boolean(), (x, y, z, w, dynamic) => {
      const n = Math.hypot(x, y, z, w);
      fc.pre(n > 1e-3);
      const world = createWorld();
      const p = createCollisionPipeline(world);
      running.push(p);
      const stored = addEntity(world), set = addEntity(world);
      for (const e of [stored, set]) addCollider(world, e, { shape: 'obb', halfExtents: [1, 2, 3], dynamic: dynamic && e === stored });
      p.transform.rotation.set([x, y, z, w], 4 * stored);
      if (!dynamic) markTransformChanged(world, stored);
      setTransform(world, set, [0, 0, 0], [x / n, y / n, z / n, w / n]);
      p.step(world);
      const a = p.collider.world.subarray(SHAPE_STRIDE * stored, SHAPE_STRIDE * stored + 15);
      const b = p.collider.world.subarray(SHAPE_STRIDE * set, SHAPE_STRIDE * set + 15);
      for (let k = 3; k < 12; k += 3) expect(Math.hypot(a[k], a[k + 1], a[k + 2])).toBeCloseTo(1, 5);
      for (let k = 0; k < 15; k++) expect(a[k]).toBeCloseTo(b[k], 5);
      p.destroy();
    }), { numRuns: 100 });
  });

  /** Five dynamic boxes in a row, stepped once. */
  function row() {
    const world = createWorld();
    const p = createCollisionPipeline(world);
    running.push(p);
    const ids: number[] = [];
    for (let i = 0; i < 5; i++) {
      const e = addEntity(world);
      addCollider(world, e, { shape: 'obb', halfExtents: [1, 1, 1], dynamic: true });
      setTransform(world, e, [1.5 * i, 0, 0]);
      ids.push(e);
    }
    p.step(world);
    return { p, world, ids };
  }

  it('a character placed by its entity is placed rigidly from a rotation written without unit length', () => {
    const world = createWorld();
    const p = createCollisionPipeline(world);
    running.push(p);
    const stored = addEntity(world), set = addEntity(world);
    addCharacterCollider(world, stored, asset);
    addCharacterCollider(world, set, asset);
    p.transform.rotation.set([0, 1.5, 0, 1.5], 4 * stored);
    markTransformChanged(world, stored);
    setTransform(world, set, [0, 0, 0], [0, Math.SQRT1_2, 0, Math.SQRT1_2]);
    p.step(world);
    const m = p.characters!.skeletons.characterMatrix;
    for (let k = 0; k < 16; k++) expect(m[k]).toBeCloseTo(m[16 + k], 6);
  });

  it.each([
    ['position[1]', (t: CollisionPipeline['transform'], e: number) => { t.position[3 * e + 1] = NaN; }, /position\[1\] is not finite \(NaN\)/],
    ['position[0] out of range', (t: CollisionPipeline['transform'], e: number) => { t.position[3 * e] = -2e18; }, /position\[0\] is -\d+, outside ±1e\+18/],
    ['rotation', (t: CollisionPipeline['transform'], e: number) => { t.rotation[4 * e + 2] = Infinity; }, /rotation \(0, 0, Infinity, 1\) is not finite/],
    ['scale', (t: CollisionPipeline['transform'], e: number) => { t.scale[e] = 0; }, /scale must be a finite number > 0, got 0/],
    ['zero rotation', (t: CollisionPipeline['transform'], e: number) => { t.rotation.fill(0, 4 * e, 4 * e + 4); }, /rotation \(0, 0, 0, 0\) is zero, not a rotation/],
  ])('%s: step throws naming the entity before refitting anything, then recovers', (_, write, message) => {
    const { p, world, ids } = row();
    const boxes = p.collider.world.slice(), aabbs = p.collider.aabb.slice();
    const pairs = p.touchingPairs.count;
    p.transform.position[3 * ids[0]] += 0.25; // a good move of another dynamic collider, not refit either
    write(p.transform, ids[2]);
    expect(() => p.step(world)).toThrow(CollideInputError);
    expect(() => p.step(world)).toThrow(new RegExp(`step: entity ${ids[2]}: ${message.source}.*the collider is dynamic`));
    expect(Array.from(p.collider.world)).toEqual(Array.from(boxes));
    expect(Array.from(p.collider.aabb)).toEqual(Array.from(aabbs));
    expect(p.touchingPairs.count).toBe(pairs);
    setTransform(world, ids[2], [3, 0, 0]);
    p.step(world);
    expect(allFinite(p.collider.world) && allFinite(p.collider.aabb)).toBe(true);
    expect(p.collider.world[SHAPE_STRIDE * ids[0]]).toBeCloseTo(0.25, 6);
  });
});
