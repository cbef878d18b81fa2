/**
 * Melee sweeps on a pipeline's characters: the motion over the last step comes from the `sweeps`
 * option or from the hitbox history, with the same results; the options are checked.
 */
import { addEntity, createWorld } from 'bitecs';
import { describe, expect, it } from 'vitest';
import { setPosition } from '../../systems/colliderApi';
import { addCharacterCollider } from '../../systems/characters';
import { createCollisionPipeline } from '../../systems/pipeline';
import { shiftWorldOrigin } from '../../systems/worldOrigin';
import { sweepCharacters, sweepCharactersAll } from '../../systems/characterSweep';
import { createHitboxHit } from '../../src/character/hitboxHit';
import { createHitboxSweepHits, createSweepQuery, setSweepObb } from '../../src/character/hitboxSweep';
import { def, fitted } from '../support/hitboxRays';

const asset = { skeleton: def, hitboxes: fitted };

/** Two characters walking along x by 0.5 m a step (the second 3 m behind in z), stepped `steps` times. */
function walkers(characters: object, steps: number) {
  const world = createWorld();
  const p = createCollisionPipeline(world, { characters });
  const a = addEntity(world), b = addEntity(world);
  addCharacterCollider(world, a, asset);
  addCharacterCollider(world, b, asset);
  for (let k = 0; k < steps; k++) {
    setPosition(world, a, k * 0.5, 0, 0);
    setPosition(world, b, k * 0.5, 0, 3);
    p.step(world, k / 20);
  }
  return { world, p, a, b };
}

/** A static pole 6 m long along z at x = 0.25 + last x, chest height: the walkers reach it during the last step. */
function pole(x: number) {
  const box = Float64Array.from([x, 1.2, 1.5, 1, 0, 0, 0, 1, 0, 0, 0, 1, 0.01, 0.01, 3]);
  return setSweepObb(createSweepQuery(), box, 0, box, 0);
}

describe('sweepCharacters', () => {
  it('sweeps a weapon against the characters\' motion over the last step, the same from the sweeps option and from the history', () => {
    const kept = walkers({ sweeps: true }, 6);
    const past = walkers({ history: { frames: 4 } }, 6);
    // During the last step the walkers go from x = 2 to 2.5; a pole at x = 2.3 meets their front first.
    const query = pole(2.3);
    const h1 = createHitboxHit(), h2 = createHitboxHit();
    expect(sweepCharacters(kept.world, h1, query)).toBe(true);
    expect(sweepCharacters(past.world, h2, query)).toBe(true);
    expect(h1.t).toBeGreaterThan(0);
    expect(h1.t).toBeLessThan(1);
    expect(h2).toEqual(h1);
    expect(h1.entity).toBe(kept.a);
    const hits = createHitboxSweepHits(4);
    expect(sweepCharactersAll(kept.world, hits, query)).toBe(2);
    expect(hits.slice(0, 2).map((h) => h.entity).sort()).toEqual([kept.a, kept.b].sort());
    expect(sweepCharactersAll(past.world, createHitboxSweepHits(4), query)).toBe(2);
    // The wielder's own character is passed through.
    query.ignore = kept.a;
    expect(sweepCharacters(kept.world, h1, query)).toBe(true);
    expect(h1.entity).toBe(kept.b);
    // A pole the walkers passed before the last step: not hit now.
    expect(sweepCharacters(kept.world, h1, pole(0.9))).toBe(false);
  });

  it('sweeps characters at rest before the second step and after shiftWorldOrigin', () => {
    const { world, p } = walkers({ sweeps: true }, 1);
    const hit = createHitboxHit();
    // At rest at x = 0: a pole through the chest touches at t = 0, one beside it never.
    expect(sweepCharacters(world, hit, pole(0))).toBe(true);
    expect(hit.t).toBe(0);
    expect(sweepCharacters(world, hit, pole(0.6))).toBe(false);
    shiftWorldOrigin(world, 100, 0, 0);
    p.step(world, 1);
    expect(sweepCharacters(world, hit, pole(0.6))).toBe(false);
    expect(sweepCharacters(world, hit, pole(-100))).toBe(true);
    expect(hit.t).toBe(0);
  });

  it('sweeps nothing before a character exists, and refuses a pipeline that keeps no earlier hitboxes, naming the options', () => {
    const world = createWorld();
    createCollisionPipeline(world, { characters: { sweeps: true } });
    expect(sweepCharacters(world, createHitboxHit(), pole(0))).toBe(false);
    const plain = createWorld();
    createCollisionPipeline(plain);
    expect(() => sweepCharacters(plain, createHitboxHit(), pole(0))).toThrow(/characters: \{ sweeps: true \}/);
    expect(() => sweepCharactersAll(plain, createHitboxSweepHits(1), pole(0))).toThrow(/sweepCharactersAll: .*history: \{ frames \}/);
    const sweepsOne = createWorld();
    createCollisionPipeline(sweepsOne, { characters: { sweeps: 1 as never } });
    // Read by the first character collider.
    expect(() => addCharacterCollider(sweepsOne, addEntity(sweepsOne), asset)).toThrow(/characters\.sweeps must be a boolean, got 1/);
    expect(() => createCollisionPipeline(createWorld(), { characters: { sweeps: true, sweep: true } as never })).toThrow(/unknown option 'sweep'/);
  });
});
