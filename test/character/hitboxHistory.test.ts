import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { addCharacterHitboxes, createHitboxStore, retireCharacter } from '../../src/character/hitboxStore';
import { buildCharacterRayGrid, createCharacterRayGrid } from '../../src/character/rayGrid';
import { updateHitboxes } from '../../src/character/hitboxUpdate';
import { addCharacter, computeWorldMatrices, createSkeletonStore } from '../../src/character/skeleton';
import {
  createHitboxRayHit, createHitboxRayHits, raycastHitboxes, raycastHitboxesAt, raycastHitboxesBatchAt, type HitboxRayHits,
} from '../../src/character/hitboxRaycast';
import { createHitboxHistory, hitboxesAt, recordHitboxHistory, type HitboxHistory } from '../../src/character/hitboxHistory';
import type { HitboxStore } from '../../src/character/hitboxLayout';
import { refusal } from '../support/refusal';
import { raycastObb } from '../../src/query/raycast';
import { createRayBatch, createRayQuery, setRay, type RayBatch } from '../../src/query/rayQuery';
import { interpolateObb } from '../../src/volumes/obb';
import { mulberry32 } from '../../scenes/random';
import { def, fitted, humanoid, sceneRays } from '../support/hitboxRays';

/** A frame as the test keeps it, apart from the history: its time, boxes and who was seen. */
interface KeptFrame {
  time: number;
  world: Float32Array;
  seen: boolean[];
}

/**
 * A crowd walking, turning and animating for `steps` frames, recorded into a history of `frames`
 * frames at irregular times. Characters are added during the run (at step `addAt`) and one is
 * retired (at `retireAt`), so frames differ in who is there; with `addEvery`, one is also added
 * every that many steps. `atFrame` runs after each record.
 */
function walkingCrowd(
  seed: number, crowd: number, side: number, frames: number, steps: number,
  atFrame: (store: HitboxStore, grid: ReturnType<typeof createCharacterRayGrid>, time: number, kept: KeptFrame[], history: HitboxHistory) => void = () => {},
  addEvery = 0,
) {
  const rand = mulberry32(seed);
  const skeletons = createSkeletonStore();
  const store = createHitboxStore();
  const grid = createCharacterRayGrid();
  const history = createHitboxHistory(frames);
  const motion: number[][] = [];
  const kept: KeptFrame[] = [];
  const add = () => {
    const c = store.characterCount;
    addCharacter(skeletons, def, 100 + c);
    addCharacterHitboxes(store, skeletons, c, fitted);
    // x, z, velocity x, z (m per step), heading, turn per step, animation phase.
    motion.push([rand() * side, rand() * side, (rand() - 0.5) * 0.4, (rand() - 0.5) * 0.4, rand() * 6.3, (rand() - 0.5) * 0.6, rand()]);
  };
  for (let c = 0; c < crowd; c++) add();
  const addAt = Math.floor(steps / 3), retireAt = Math.floor(steps / 2);
  let time = rand() * 100 - 50;
  for (let step = 0; step < steps; step++) {
    if (step === addAt || (addEvery > 0 && step % addEvery === 0)) add();
    if (step === retireAt && store.characterCount > 1) retireCharacter(store, 0);
    for (let c = 0; c < store.characterCount; c++) {
      const [x, z, vx, vz, heading, turn, phase] = motion[c];
      const m = skeletons.characterMatrix, o = 16 * c, a = heading + turn * step;
      m[o] = Math.cos(a); m[o + 2] = -Math.sin(a); m[o + 8] = Math.sin(a); m[o + 10] = Math.cos(a);
      m[o + 12] = x + vx * step; m[o + 14] = z + vz * step;
      const first = skeletons.firstBone[c];
      humanoid.animate(((phase + 0.07 * step) % 1) * humanoid.duration, skeletons.translation.subarray(3 * first), skeletons.rotation.subarray(4 * first), skeletons.scale.subarray(3 * first));
    }
    computeWorldMatrices(skeletons);
    updateHitboxes(store, skeletons);
    buildCharacterRayGrid(grid, store);
    time += 0.005 + rand() * 0.05;
    recordHitboxHistory(history, store, time);
    kept.push({ time, world: store.world.slice(0, 15 * store.count), seen: Array.from({ length: store.characterCount }, (_, c) => store.retired[c] === 0) });
    atFrame(store, grid, time, kept, history);
  }
  return { store, grid, history, kept: kept.slice(-frames), rand };
}

const box = new Float64Array(15);
const cast = new Float64Array(4);

/**
 * The reference: every box of every character seen at both frames around `time` (the one frame
 * at its exact time), at that time in doubles, each cast; the nearest hit, the lower hitbox index
 * on a tie. Returns [hitbox, t] (−1 for a miss) and the normal into `normal`.
 */
function bruteForce(kept: KeptFrame[], store: HitboxStore, rays: RayBatch, i: number, time: number, normal: Float64Array): [number, number] {
  let j = 0;
  while (j + 1 < kept.length && kept[j + 1].time <= time) j++;
  const exact = kept[j].time === time;
  const a = kept[j], b = exact ? a : kept[j + 1];
  const s = exact ? 0 : (time - a.time) / (b.time - a.time);
  const o = 3 * i, d = rays.direction;
  const length = Math.hypot(d[o], d[o + 1], d[o + 2]);
  const maxT = length > 0 ? rays.maxDistance[i] / length : 0;
  const ignored = store.characterOfEntity.get(rays.ignore[i]) ?? -1;
  let best = -1, bestT = Infinity;
  for (let h = 0; h < store.count; h++) {
    const c = store.character[h];
    if (c === ignored || !a.seen[c] || !b.seen[c]) continue;
    if (exact) box.set(a.world.subarray(15 * h, 15 * h + 15));
    else interpolateObb(box, 0, a.world, 15 * h, b.world, 15 * h, s);
    if (!raycastObb(cast, rays.origin[o], rays.origin[o + 1], rays.origin[o + 2], d[o], d[o + 1], d[o + 2], maxT, box, 0)) continue;
    if (cast[0] < bestT) {
      bestT = cast[0];
      best = h;
      // A zero direction has no normal to scale.
      const len = Math.hypot(cast[1], cast[2], cast[3]) || 1;
      for (let k = 0; k < 3; k++) normal[k] = cast[1 + k] / len;
    }
  }
  return [best, bestT];
}

/** A random time of the window: a kept frame's own time one time in three, else between two. */
function windowTime(kept: KeptFrame[], rand: () => number): number {
  const j = Math.floor(rand() * (kept.length - 1));
  if (rand() < 1 / 3) return kept[j + (rand() < 0.5 ? 0 : 1)].time;
  return kept[j].time + rand() * (kept[j + 1].time - kept[j].time);
}

describe('hitbox history: rays at a past time', () => {
  it('hits what the brute-force reference over the interpolated boxes hits, at frames and between them', () => {
    let hitsSeen = 0;
    fc.assert(fc.property(fc.integer({ min: 0, max: 2 ** 31 - 1 }), fc.integer({ min: 1, max: 12 }), fc.double({ min: 2, max: 20, noNaN: true }), fc.integer({ min: 2, max: 8 }), (seed, crowd, side, frames) => {
      const { store, history, kept, rand } = walkingCrowd(seed, crowd, side, frames, frames + 5);
      const rays = sceneRays(store, rand, 120, side);
      const times = Float64Array.from({ length: rays.count }, () => windowTime(kept, rand));
      const hits = createHitboxRayHits(rays.count);
      const count = raycastHitboxesBatchAt(hits, history, store, rays, times);
      const hit = createHitboxRayHit();
      const query = createRayQuery();
      const normal = new Float64Array(3);
      let found = 0;
      for (let i = 0; i < rays.count; i++) {
        const [h, t] = bruteForce(kept, store, rays, i, times[i], normal);
        expect(hits.hitbox[i], `ray ${i} at ${times[i]}`).toBe(h);
        const o = 3 * i;
        setRay(query, rays.origin[o], rays.origin[o + 1], rays.origin[o + 2], rays.direction[o], rays.direction[o + 1], rays.direction[o + 2]);
        query.maxDistance = rays.maxDistance[i];
        query.ignore = rays.ignore[i];
        expect(raycastHitboxesAt(hit, history, store, query, times[i])).toBe(h >= 0);
        if (h < 0) continue;
        found++;
        expect(hits.t[i]).toBe(t);
        expect(hit.t).toBe(t);
        expect(hit.hitbox).toBe(h);
        for (let k = 0; k < 3; k++) {
          expect(hits.normal[o + k]).toBe(normal[k]);
          expect(hit.normal[k]).toBe(normal[k]);
        }
      }
      expect(count).toBe(found);
      hitsSeen += found;
    }), { numRuns: 30 });
    expect(hitsSeen).toBeGreaterThan(300);
  });

  it('casts batches while the ring is rewritten and the crowd grows, each against the frames held then', () => {
    // Two frames, a batch after every second record, times strictly between the frames: each
    // batch reads the ring slots the one before read, both rewritten since (into grown arrays, as
    // characters are added), so a batch must not reuse what the one before pointed at.
    let hitsSeen = 0;
    const normal = new Float64Array(3);
    const rand = mulberry32(12);
    walkingCrowd(11, 6, 10, 2, 16, (store, _grid, time, kept, history) => {
      if (kept.length % 2 === 1) return;
      const held = kept.slice(-2);
      const rays = sceneRays(store, rand, 150, 10);
      const times = Float64Array.from({ length: rays.count }, () => held[0].time + (0.05 + 0.9 * rand()) * (held[1].time - held[0].time));
      const hits = createHitboxRayHits(rays.count);
      raycastHitboxesBatchAt(hits, history, store, rays, times);
      for (let i = 0; i < rays.count; i++) {
        const [h, t] = bruteForce(held, store, rays, i, times[i], normal);
        expect(hits.hitbox[i], `ray ${i} at ${times[i]}, frame time ${time}`).toBe(h);
        if (h >= 0) expect(hits.t[i]).toBe(t);
        if (h >= 0) hitsSeen++;
      }
    }, 2);
    expect(hitsSeen).toBeGreaterThan(100);
  });

  it('holds boxes turning a third of a circle in one frame', () => {
    // The character turned 120 degrees about (1, 1, 1) between two frames (x to y, y to z, z to x):
    // halfway, each box is turned 60 degrees, far from both frames' poses. Rays straight down
    // through points just inside each box's extreme corners along x and z at that time must meet
    // what the reference meets.
    const skeletons = createSkeletonStore();
    const store = createHitboxStore();
    const history = createHitboxHistory(2);
    addCharacter(skeletons, def, 100);
    addCharacterHitboxes(store, skeletons, 0, fitted);
    const first = skeletons.firstBone[0];
    humanoid.animate(0.3 * humanoid.duration, skeletons.translation.subarray(3 * first), skeletons.rotation.subarray(4 * first), skeletons.scale.subarray(3 * first));
    const kept: KeptFrame[] = [];
    for (const turn of [[1, 0, 0, 0, 1, 0, 0, 0, 1], [0, 1, 0, 0, 0, 1, 1, 0, 0]]) {
      for (let k = 0; k < 9; k++) skeletons.characterMatrix[4 * Math.floor(k / 3) + (k % 3)] = turn[k];
      computeWorldMatrices(skeletons);
      updateHitboxes(store, skeletons);
      recordHitboxHistory(history, store, kept.length);
      kept.push({ time: kept.length, world: store.world.slice(0, 15 * store.count), seen: [true] });
    }
    const rays = createRayBatch(4 * store.count);
    rays.count = 4 * store.count;
    const halfway = new Float64Array(15);
    for (let h = 0; h < store.count; h++) {
      interpolateObb(halfway, 0, kept[0].world, 15 * h, kept[1].world, 15 * h, 0.5);
      for (let side = 0; side < 4; side++) {
        // The box's farthest point along ±x or ±z, pulled 1% towards its centre.
        const axis = side < 2 ? 0 : 2, sign = side % 2 === 0 ? 1 : -1;
        const p = [halfway[0], halfway[1], halfway[2]];
        for (let e = 0; e < 3; e++) {
          const u = halfway.subarray(3 + 3 * e, 6 + 3 * e), reach = 0.99 * halfway[12 + e] * Math.sign(u[axis]) * sign;
          for (let k = 0; k < 3; k++) p[k] += reach * u[k];
        }
        const i = 4 * h + side;
        rays.origin.set([p[0], p[1] + 10, p[2]], 3 * i);
        rays.direction.set([0, -1, 0], 3 * i);
        rays.maxDistance[i] = 20;
      }
    }
    const times = new Float64Array(rays.count).fill(0.5);
    const hits = createHitboxRayHits(rays.count);
    raycastHitboxesBatchAt(hits, history, store, rays, times);
    const normal = new Float64Array(3);
    let found = 0;
    for (let i = 0; i < rays.count; i++) {
      const [h, t] = bruteForce(kept, store, rays, i, 0.5, normal);
      expect(hits.hitbox[i], `ray ${i}`).toBe(h);
      if (h < 0) continue;
      found++;
      expect(hits.t[i]).toBe(t);
    }
    expect(found).toBe(rays.count);
  });

  it("at a frame's own time gives the present-time hit of that frame, bit for bit", () => {
    const frames = 6, side = 12;
    const rays = sceneRays(walkingCrowd(7, 10, side, 2, 2).store, mulberry32(8), 300, side);
    const present: { time: number; hits: HitboxRayHits }[] = [];
    const hit = createHitboxRayHit();
    const query = createRayQuery();
    const each = (fn: (i: number) => void) => {
      for (let i = 0; i < rays.count; i++) {
        const o = 3 * i;
        setRay(query, rays.origin[o], rays.origin[o + 1], rays.origin[o + 2], rays.direction[o], rays.direction[o + 1], rays.direction[o + 2]);
        query.maxDistance = rays.maxDistance[i];
        query.ignore = rays.ignore[i];
        fn(i);
      }
    };
    const { store, history } = walkingCrowd(7, 10, side, frames, 14, (s, grid, time) => {
      const hits = createHitboxRayHits(rays.count);
      each((i) => {
        hits.hitbox[i] = raycastHitboxes(hit, s, grid, query) ? hit.hitbox : -1;
        hits.t[i] = hit.t;
        hits.normal.set(hit.normal, 3 * i);
        hits.point.set(hit.point, 3 * i);
      });
      present.push({ time, hits });
    });
    let compared = 0;
    for (const { time, hits } of present.slice(-frames)) {
      each((i) => {
        const found = raycastHitboxesAt(hit, history, store, query, time);
        expect(found ? hit.hitbox : -1).toBe(hits.hitbox[i]);
        if (!found) return;
        compared++;
        expect(Object.is(hit.t, hits.t[i])).toBe(true);
        for (let k = 0; k < 3; k++) {
          expect(Object.is(hit.normal[k], hits.normal[3 * i + k])).toBe(true);
          expect(Object.is(hit.point[k], hits.point[3 * i + k])).toBe(true);
        }
      });
    }
    expect(compared).toBeGreaterThan(80);
  });
});

describe('hitbox history: boxes at a past time', () => {
  it('writes the stored boxes at a frame and the interpolated boxes between, for the characters seen at both frames', () => {
    const { store, history, kept, rand } = walkingCrowd(11, 6, 10, 5, 12);
    const out = new Float64Array(15 * store.count).fill(NaN);
    for (let trial = 0; trial < 20; trial++) {
      const time = windowTime(kept, rand);
      out.fill(NaN);
      let j = 0;
      while (j + 1 < kept.length && kept[j + 1].time <= time) j++;
      const exact = kept[j].time === time;
      const a = kept[j], b = exact ? a : kept[j + 1];
      const seen = Array.from({ length: store.characterCount }, (_, c) => Boolean(a.seen[c] && b.seen[c]));
      expect(hitboxesAt(out, history, store, time)).toBe(seen.filter(Boolean).length);
      for (let h = 0; h < store.count; h++) {
        const c = store.character[h];
        if (!seen[c]) {
          expect(Number.isNaN(out[15 * h])).toBe(true);
          continue;
        }
        if (exact) box.set(a.world.subarray(15 * h, 15 * h + 15));
        else interpolateObb(box, 0, a.world, 15 * h, b.world, 15 * h, (time - a.time) / (b.time - a.time));
        expect(Array.from(out.subarray(15 * h, 15 * h + 15))).toEqual(Array.from(box));
      }
      const one = new Float64Array(15 * store.count).fill(NaN);
      const c = store.characterCount - 1;
      expect(hitboxesAt(one, history, store, time, c)).toBe(seen[c] ? 1 : 0);
      expect(Number.isNaN(one[0])).toBe(true);
    }
  });
});

describe('hitbox history: characters added and removed', () => {
  it('a character added later has no past before its first frame, a retired one is seen until it was retired', () => {
    const steps = 12, frames = 12;
    const { store, history, kept } = walkingCrowd(5, 3, 8, frames, steps);
    const added = store.characterCount - 1;
    const out = new Float64Array(15 * store.count);
    const addedAt = Math.floor(steps / 3), retiredAt = Math.floor(steps / 2);
    // Frame addedAt is its first: seen from there on, not between the frame before and it.
    expect(hitboxesAt(out, history, store, kept[addedAt].time, added)).toBe(1);
    expect(hitboxesAt(out, history, store, (kept[addedAt - 1].time + kept[addedAt].time) / 2, added)).toBe(0);
    expect(hitboxesAt(out, history, store, kept[addedAt - 1].time, added)).toBe(0);
    // Character 0 is retired at frame retiredAt: seen at the frame before, not after.
    expect(hitboxesAt(out, history, store, kept[retiredAt - 1].time, 0)).toBe(1);
    expect(hitboxesAt(out, history, store, (kept[retiredAt - 1].time + kept[retiredAt].time) / 2, 0)).toBe(0);
    expect(hitboxesAt(out, history, store, kept[retiredAt].time, 0)).toBe(0);
  });

  it('keeps recording as the store grows after frames are held', () => {
    const { store, history, kept } = walkingCrowd(9, 2, 6, 3, 9);
    expect(history.count).toBe(3);
    expect(history.oldestTime).toBe(kept[0].time);
    expect(history.newestTime).toBe(kept[2].time);
    expect(hitboxesAt(new Float64Array(15 * store.count), history, store, kept[1].time)).toBe(store.characterCount - 1);
  });
});

describe('hitbox history: bad input', () => {
  it('refuses frames < 2, beyond MAX_HISTORY_FRAMES or not an integer', () => {
    expect(refusal(() => createHitboxHistory(1))).toMatch(/frames must be an integer in \[2, 65536\], got 1/);
    expect(refusal(() => createHitboxHistory(2.5))).toMatch(/got 2\.5/);
    expect(refusal(() => createHitboxHistory(NaN))).toMatch(/got NaN/);
    // Each frame is an object: 2^31 of them would exhaust the heap, which no catch recovers from.
    expect(refusal(() => createHitboxHistory(2 ** 31))).toMatch(/got 2147483648/);
    expect(refusal(() => createHitboxHistory('8' as unknown as number))).toMatch(/got '8'/);
  });

  it('refuses a record time that is not finite or does not increase', () => {
    const history = createHitboxHistory(4);
    const store = createHitboxStore();
    expect(refusal(() => recordHitboxHistory(history, store, NaN))).toMatch(/time must be a finite number, got NaN/);
    expect(refusal(() => recordHitboxHistory(history, store, Infinity))).toMatch(/got Infinity/);
    recordHitboxHistory(history, store, 1);
    expect(refusal(() => recordHitboxHistory(history, store, 1))).toMatch(/time must increase from frame to frame, got 1 after 1/);
    expect(refusal(() => recordHitboxHistory(history, store, 0.5))).toMatch(/got 0\.5 after 1/);
  });

  it('refuses a time outside the window or NaN, naming the time and the window', () => {
    const { store, history, kept } = walkingCrowd(3, 2, 5, 4, 6);
    const query = createRayQuery();
    const hit = createHitboxRayHit();
    const window = `\\[${kept[0].time}, ${kept[3].time}\\] \\(4 frames\\)`;
    expect(refusal(() => raycastHitboxesAt(hit, history, store, query, kept[0].time - 0.001))).toMatch(new RegExp(`raycastHitboxesAt: time ${kept[0].time - 0.001} is outside the kept window ${window}`));
    expect(refusal(() => raycastHitboxesAt(hit, history, store, query, kept[3].time + 1))).toMatch(/is outside the kept window/);
    expect(refusal(() => raycastHitboxesAt(hit, history, store, query, NaN))).toMatch(/time NaN is outside the kept window/);
    expect(refusal(() => hitboxesAt(new Float64Array(15 * store.count), history, store, NaN))).toMatch(/hitboxesAt: time NaN/);
    expect(refusal(() => hitboxesAt(new Float64Array(3), history, store, kept[1].time))).toMatch(/hitboxesAt: out holds 3 numbers/);
    expect(refusal(() => hitboxesAt(undefined as unknown as Float64Array, history, store, kept[1].time))).toMatch(/hitboxesAt: out must be an array of numbers \(typed or plain\), got undefined/);
    expect(refusal(() => hitboxesAt(new Float64Array(15 * store.count), history, store, kept[1].time, 99))).toMatch(/character must be -1 or a character index/);
    const rays = sceneRays(store, mulberry32(1), 4, 5);
    const hits = createHitboxRayHits(4);
    hits.hitbox.fill(7);
    const times = [kept[1].time, kept[2].time, kept[3].time + 5, kept[1].time];
    expect(refusal(() => raycastHitboxesBatchAt(hits, history, store, rays, times))).toMatch(/raycastHitboxesBatchAt: times\[2\] .* is outside the kept window/);
    // A time given as a string is not coerced to a number.
    const texts = [kept[1].time, String(kept[2].time), kept[3].time, kept[1].time] as unknown as number[];
    expect(refusal(() => raycastHitboxesBatchAt(hits, history, store, rays, texts))).toMatch(/raycastHitboxesBatchAt: times\[1\] must be a number, got '/);
    expect(Array.from(hits.hitbox)).toEqual([7, 7, 7, 7]);
    expect(refusal(() => raycastHitboxesBatchAt(hits, history, store, rays, [kept[1].time]))).toMatch(/times holds 1 numbers, 4 needed/);
    expect(refusal(() => raycastHitboxesAt(hit, createHitboxHistory(2), store, query, 0))).toMatch(/holds no frame yet/);
  });
});
