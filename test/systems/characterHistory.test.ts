/**
 * The pipeline's hitbox history: recorded at every step with the step's time; ray casts and
 * hitboxes at a past time through the world API give what the kernels give on the pipeline's
 * stores; the step's time and the option are checked.
 */
import { addEntity, createWorld, removeEntity } from 'bitecs';
import { describe, expect, it } from 'vitest';
import { refusal } from '../support/refusal';
import { createHitboxRayHit, createHitboxRayHits, raycastHitboxes } from '../../src/character/hitboxRaycast';
import { createHitboxHistory } from '../../src/character/hitboxHistory';
import { createRayBatch, createRayQuery } from '../../src/query/rayQuery';
import { setPosition, setRotation } from '../../systems/colliderApi';
import { addCharacterCollider } from '../../systems/characters';
import { createCollisionPipeline } from '../../systems/pipeline';
import { shiftWorldOrigin } from '../../systems/worldOrigin';
import { characterHitboxesAt, raycastCharactersAt, raycastCharactersBatchAt } from '../../systems/characterHistory';
import { def, fitted } from '../support/hitboxRays';

const asset = { skeleton: def, hitboxes: fitted };


/** A character walking along x and turning, stepped at 20 Hz from time 100; a shot along z through its path. */
function walker(frames: number, steps: number) {
  const world = createWorld();
  const p = createCollisionPipeline(world, { characters: { history: { frames } } });
  const e = addEntity(world);
  addCharacterCollider(world, e, asset);
  const times: number[] = [];
  for (let k = 0; k < steps; k++) {
    setPosition(world, e, k * 0.5, 0, 0);
    setRotation(world, e, 0, Math.sin(0.1 * k), 0, Math.cos(0.1 * k));
    times.push(100 + k / 20);
    p.step(world, times[k]);
  }
  return { world, p, e, times };
}

describe('pipeline hitbox history', () => {
  it('records a frame per step at its time; a past shot hits where the character was, and at a step time what the cast gave then', () => {
    const { world, p, times } = walker(8, 12);
    expect(p.hitboxHistory!.count).toBe(8);
    expect(p.hitboxHistory!.oldestTime).toBe(times[4]);
    expect(p.hitboxHistory!.newestTime).toBe(times[11]);
    // Aimed at the chest where the character stood at step 6 (x = 3): hits then, misses now (x = 5.5).
    const shot = createRayQuery({ origin: [3, 1.2, -10], direction: [0, 0, 1] });
    const hit = createHitboxRayHit();
    expect(raycastCharactersAt(world, hit, shot, times[6])).toBe(true);
    expect(hit.t).toBeGreaterThan(9);
    expect(raycastHitboxes(createHitboxRayHit(), p.characters!.hitboxes, p.characters!.rayGrid!, shot)).toBe(false);
    // Between steps 6 and 7 the character is on its way from x = 3 to 3.5: hit near step 6, missed halfway.
    expect(raycastCharactersAt(world, hit, shot, 0.9 * times[6] + 0.1 * times[7])).toBe(true);
    expect(raycastCharactersAt(world, hit, shot, (times[6] + times[7]) / 2)).toBe(false);
    // The batch gives each ray at its own time the single-ray hit.
    const rays = createRayBatch(3);
    rays.count = 3;
    for (let i = 0; i < 3; i++) {
      rays.origin.set([3, 1.2, -10], 3 * i);
      rays.direction.set([0, 0, 1], 3 * i);
    }
    const hits = createHitboxRayHits(3);
    const near6 = 0.9 * times[6] + 0.1 * times[7];
    expect(raycastCharactersBatchAt(world, hits, rays, [times[6], times[11], near6])).toBe(2);
    expect(hits.hitbox[1]).toBe(-1);
    expect(raycastCharactersAt(world, hit, shot, near6)).toBe(true);
    expect(hits.hitbox[2]).toBe(hit.hitbox);
    expect(hits.t[2]).toBe(hit.t);
  });

  it('writes every hitbox of the character at a step time as the step left them', () => {
    const world = createWorld();
    const p = createCollisionPipeline(world, { characters: { history: { frames: 4 } } });
    const e = addEntity(world);
    addCharacterCollider(world, e, asset);
    const stored: Float32Array[] = [];
    for (let k = 0; k < 4; k++) {
      setPosition(world, e, k, 0, 0);
      p.step(world, k);
      stored.push(p.characters!.hitboxes.world.slice(0, 15 * fitted.count));
    }
    const out = new Float64Array(15 * fitted.count);
    for (let k = 0; k < 4; k++) {
      expect(characterHitboxesAt(world, out, k, e)).toBe(1);
      expect(Array.from(out)).toEqual(Array.from(stored[k]));
    }
    expect(characterHitboxesAt(world, out, 2.5)).toBe(1);
    expect(out[0]).toBeCloseTo((stored[2][0] + stored[3][0]) / 2, 5);
  });

  it('a removed character is missed after its removal, and still hit at a time before it', () => {
    const { world, p, e, times } = walker(8, 8);
    removeEntity(world, e);
    p.step(world, 100 + 8 / 20);
    const shot = createRayQuery({ origin: [3, 1.2, -10], direction: [0, 0, 1] });
    const hit = createHitboxRayHit();
    expect(raycastCharactersAt(world, hit, shot, times[6])).toBe(true);
    expect(raycastCharactersAt(world, hit, shot, 100 + 8 / 20)).toBe(false);
    expect(characterHitboxesAt(world, new Float64Array(15 * fitted.count), (times[7] + 100 + 8 / 20) / 2)).toBe(0);
  });

  it('records into a history given with the stores option, and none before the first character', () => {
    const history = createHitboxHistory(3);
    const world = createWorld();
    const p = createCollisionPipeline(world, { characters: { history } });
    p.step(world, 1);
    expect(history.count).toBe(0);
    addCharacterCollider(world, addEntity(world), asset);
    p.step(world, 2);
    expect(p.hitboxHistory).toBe(history);
    expect(history.count).toBe(1);
  });

  it('a history option makes the history with the first character; a world origin shift empties it', () => {
    const world = createWorld();
    const p = createCollisionPipeline(world, { characters: { history: { frames: 4 } } });
    p.step(world, 1);
    expect(p.hitboxHistory).toBeUndefined();
    expect(refusal(() => raycastCharactersAt(world, createHitboxRayHit(), createRayQuery(), 1))).toMatch(/raycastCharactersAt: the hitbox history holds no frame yet/);
    addCharacterCollider(world, addEntity(world), asset);
    p.step(world, 2);
    p.step(world, 3);
    expect(p.hitboxHistory!.count).toBe(2);
    shiftWorldOrigin(world, 10, 0, 0);
    expect(p.hitboxHistory!.count).toBe(0);
    expect(refusal(() => raycastCharactersAt(world, createHitboxRayHit(), createRayQuery(), 3))).toMatch(/holds no frame yet/);
    p.step(world, 4);
    expect([p.hitboxHistory!.count, p.hitboxHistory!.oldestTime]).toEqual([1, 4]);
  });

  it('refuses a bad time, a missing history and a bad option', () => {
    const { world, p } = walker(4, 4);
    expect(refusal(() => p.step(world))).toMatch(/step: the hitbox history records each frame with its time: call step\(world, time\)/);
    expect(refusal(() => p.step(world, NaN))).toMatch(/step: time must be a finite number, got NaN/);
    expect(refusal(() => p.step(world, 100))).toMatch(/step: time must increase from step to step, got 100 after 100.15/);
    const shot = createRayQuery();
    expect(refusal(() => raycastCharactersAt(world, createHitboxRayHit(), shot, 99))).toMatch(/raycastCharactersAt: time 99 is outside the kept window \[100, 100.15\] \(4 frames\)/);
    const plain = createWorld();
    createCollisionPipeline(plain);
    expect(refusal(() => raycastCharactersAt(plain, createHitboxRayHit(), shot, 0))).toMatch(/raycastCharactersAt: the pipeline keeps no hitbox history/);
    expect(refusal(() => characterHitboxesAt(plain, new Float64Array(15), 0))).toMatch(/characterHitboxesAt: the pipeline keeps no hitbox history/);
    expect(refusal(() => characterHitboxesAt(world, new Float64Array(15), 100.1, 999))).toMatch(/^characterHitboxesAt: entity 999 has no character collider/);
    // The first character collider reads the history option (a program without characters does not bundle that code).
    const withCharacter = (characters: object) => () => {
      const w = createWorld();
      createCollisionPipeline(w, { characters: characters as never });
      addCharacterCollider(w, addEntity(w), asset);
    };
    for (const frames of [1, 2.5, NaN, 2 ** 31]) {
      expect(refusal(withCharacter({ history: { frames } }))).toMatch(/characters\.history\.frames must be an integer in \[2, 65536\], got/);
    }
    expect(refusal(withCharacter({ history: { frames: 4, size: 2 } }))).toMatch(/unknown/i);
    expect(refusal(withCharacter({ history: { frames: 4 } }))).toBe('no error');
  });
});
