/**
 * Large worlds: Float32 stores decide far from the origin, as docs/precision.md states, and a
 * shifted world origin makes the same scene exact; shifts keep pairs and events.
 */
import { addEntity, createWorld } from 'bitecs';
import { describe, expect, it } from 'vitest';
import { CollideInputError } from '../../src/errors';
import { addCollider, setTransform } from '../../systems/colliderApi';
import { createCollisionPipeline } from '../../systems/pipeline';
import { shiftWorldOrigin, worldOrigin } from '../../systems/worldOrigin';
import { mulberry32 } from '../../scenes/random';

/** Two boxes of half-extent 0.5 whose facing sides are `gap` apart, centred at absolute x = `at`. */
function twoBoxes(at: number, gap: number, origin: number) {
  const world = createWorld();
  const p = createCollisionPipeline(world);
  if (origin !== 0) shiftWorldOrigin(world, origin, 0, 0);
  const a = addEntity(world), b = addEntity(world);
  for (const e of [a, b]) addCollider(world, e, { shape: 'obb', halfExtents: [0.5, 0.5, 0.5] });
  // Absolute coordinates in doubles, written relative to the origin.
  setTransform(world, a, [at - 0.5 - gap / 2 - worldOrigin(world)[0], 0, 0]);
  setTransform(world, b, [at + 0.5 + gap / 2 - worldOrigin(world)[0], 0, 0]);
  p.step(world);
  return p.touchingPairs.count === 1;
}

describe('world origin', () => {
  it('at x = 1e7 the default origin cannot tell a 5 cm gap (Float32 spacing there is 1), a shifted origin can', () => {
    // The documented bound: each coordinate within 2^-24 |x| of its value, here 0.6 > 0.05.
    expect(Math.abs(Math.fround(1e7 + 0.525) - (1e7 + 0.525))).toBeLessThanOrEqual(2 ** -24 * 1e7);
    // Centres at 1e7 − 0.025 and 1e7 + 1.025 are stored as 1e7 and 1e7 + 1: the boxes touch.
    const at = 1e7 + 0.5;
    expect(twoBoxes(at, 0.05, 0)).toBe(true);
    expect(twoBoxes(at, 0.05, 1e7)).toBe(false);
    expect(twoBoxes(at, -0.05, 1e7)).toBe(true);
    expect(twoBoxes(at, 1e-4, 1e7)).toBe(false);
    // Near the origin the default is exact to the same gaps.
    expect(twoBoxes(0, 0.05, 0)).toBe(false);
    expect(twoBoxes(0, 1e-4, 0)).toBe(false);
  });

  it('a shift in the middle of a moving scene keeps every pair and event of the same scene unshifted', () => {
    const rand = mulberry32(3);
    // Boxes on a 1/8 grid, moving by whole 1/8 steps, sizes such that every pair is clearly apart
    // or clearly touching: Float32 holds every coordinate exactly at both origins.
    const n = 120;
    const start = Array.from({ length: n }, () => [0, 1, 2].map(() => Math.floor(rand() * 160) / 8));
    const step = Array.from({ length: n }, () => [0, 1, 2].map(() => Math.floor(rand() * 5 - 2) / 8));
    const runs = [0, 1].map(() => {
      const world = createWorld();
      const p = createCollisionPipeline(world);
      const eids = start.map((_, i) => {
        const e = addEntity(world);
        addCollider(world, e, i % 3 === 0 ? { shape: 'sphere', radius: 0.95 } : { shape: 'aabb', halfExtents: [0.95, 0.95, 0.95], isStatic: i % 5 === 0 });
        return e;
      });
      return { world, p, eids };
    });
    const shift = [1024, -512, 256];
    let stays = 0;
    for (let frame = 0; frame < 30; frame++) {
      if (frame === 10) shiftWorldOrigin(runs[1].world, shift[0], shift[1], shift[2]);
      for (const [r, run] of runs.entries()) {
        const o = r === 1 && frame >= 10 ? shift : [0, 0, 0];
        run.eids.forEach((e, i) => {
          const moves = i % 5 !== 0 || i % 3 === 0;
          const x = start[i].map((v, k) => v + (moves ? frame * step[i][k] : 0) - o[k]);
          if (moves || frame === 0) setTransform(run.world, e, x);
        });
        run.p.step(run.world);
      }
      const [a, b] = runs.map((r) => r.p);
      for (const key of ['touchingPairs'] as const) {
        expect(Array.from(b[key].a.subarray(0, b[key].count))).toEqual(Array.from(a[key].a.subarray(0, a[key].count)));
        expect(Array.from(b[key].b.subarray(0, b[key].count))).toEqual(Array.from(a[key].b.subarray(0, a[key].count)));
      }
      for (const kind of ['begin', 'stay', 'end'] as const) expect(b.events[kind].count).toBe(a.events[kind].count);
      if (frame === 10) stays = b.events.stay.count;
    }
    expect(runs[0].p.touchingPairs.count).toBeGreaterThan(5);
    expect(stays).toBeGreaterThan(5);
    expect(Array.from(worldOrigin(runs[1].world))).toEqual(shift);
  });

  it('a static box touching a dynamic one stays touching across a shift', () => {
    const world = createWorld();
    const p = createCollisionPipeline(world);
    const ground = addEntity(world), box = addEntity(world);
    addCollider(world, ground, { shape: 'aabb', halfExtents: [10, 0.5, 10], isStatic: true });
    addCollider(world, box, { shape: 'obb', halfExtents: [0.5, 0.5, 0.5] });
    setTransform(world, ground, [5e6, -0.5, 0]);
    setTransform(world, box, [5e6, 0.5, 0]);
    p.step(world);
    expect(p.events.begin.count).toBe(1);
    shiftWorldOrigin(world, 5e6, 0, 0);
    setTransform(world, box, [0, 0.5, 0]);
    p.step(world);
    expect([p.touchingPairs.count, p.events.stay.count, p.events.begin.count, p.events.end.count]).toEqual([1, 1, 0, 0]);
    expect(Array.from(p.transform.position.subarray(3 * ground, 3 * ground + 3))).toEqual([0, -0.5, 0]);
  });

  it('refuses a shift that is not finite, or would move a position past MAX_COORDINATE, changing nothing', () => {
    const world = createWorld();
    const p = createCollisionPipeline(world);
    const e = addEntity(world);
    addCollider(world, e, { shape: 'sphere', radius: 1 });
    setTransform(world, e, [1, 2, 3]);
    for (const v of [NaN, Infinity, -Infinity, 1e39]) {
      expect(() => shiftWorldOrigin(world, 0, v, 0)).toThrow(CollideInputError);
      expect(() => shiftWorldOrigin(world, 0, v, 0)).toThrow(/shiftWorldOrigin: dy/);
    }
    shiftWorldOrigin(world, -9e17, 0, 0);
    expect(() => shiftWorldOrigin(world, -2e17, 0, 0)).toThrow(/would move entity/);
    expect(Array.from(worldOrigin(world))).toEqual([-9e17, 0, 0]);
    expect(p.transform.position[3 * e]).toBe(Math.fround(1 + 9e17));
  });
});
