// Animated characters in the pipeline: four walking humanoids (68 bones each) among moving
// spheres, boxes and AABBs. Every frame, the touching pairs that involve a character and the
// hitbox pairs must equal a brute force over every hitbox with the reference separation test.
import { addEntity, createWorld } from 'bitecs';
import { describe, expect, it } from 'vitest';
import { addCharacterHitboxes, createHitboxStore } from '../../src/character/hitboxStore';
import { fitBoneHitboxes } from '../../src/character/hitboxFit';
import { CollideInputError } from '../../src/errors';
import { addCharacter, createSkeletonStore, defineSkeleton } from '../../src/character/skeleton';
import { defineSkin } from '../../src/character/skin';
import { OBB_STRIDE } from '../../src/layout';
import { SHAPE_STRIDE } from '../../components/collider';
import { addCharacterCollider, addCollider, createCollisionPipeline, setTransform } from '../../systems/index';
import { buildHumanoid } from '../../scenes/humanoid';
import { mulberry32, randomQuaternion } from '../../scenes/random';
import { obbOfAabb, referenceBand, referencePointBoxDistance, referenceSeparation } from '../../scenes/satReference';

const humanoid = buildHumanoid();
const definition = defineSkeleton(humanoid.skeleton);
const fitted = fitBoneHitboxes(definition, defineSkin(definition, humanoid.skin));

/** Reference: 1 touching, 0 apart, -1 too close to call (within the reference's rounding band). */
function referenceBoxes(a: ArrayLike<number>, ao: number, b: ArrayLike<number>, bo: number): number {
  // Circumscribed spheres apart: certainly apart (keeps the brute force affordable).
  const r = Math.hypot(a[ao + 12], a[ao + 13], a[ao + 14]) + Math.hypot(b[bo + 12], b[bo + 13], b[bo + 14]);
  if (Math.hypot(a[ao] - b[bo], a[ao + 1] - b[bo + 1], a[ao + 2] - b[bo + 2]) > 1.01 * r) return 0;
  const gap = referenceSeparation(a, ao, b, bo).gap;
  if (Math.abs(gap) <= referenceBand(a, ao, b, bo)) return -1;
  return gap < 0 ? 1 : 0;
}

function referenceSphereBox(sphere: ArrayLike<number>, so: number, box: ArrayLike<number>, bo: number): number {
  const d = referencePointBoxDistance(box, bo, [sphere[so], sphere[so + 1], sphere[so + 2]]) - sphere[so + 3];
  if (Math.abs(d) <= 1e-6 * sphere[so + 3]) return -1;
  return d <= 0 ? 1 : 0;
}

describe('character colliders in the pipeline', () => {
  it('pairs and hitbox pairs equal the brute force over all hitboxes while the characters walk', () => {
    const rand = mulberry32(21);
    const world = createWorld();
    const skeletons = createSkeletonStore();
    const hitboxes = createHitboxStore();
    const collision = createCollisionPipeline(world, { characters: { skeletons, hitboxes } });
    const characters: number[] = [];
    for (let i = 0; i < 4; i++) {
      const eid = addEntity(world);
      const c = addCharacter(skeletons, definition, eid);
      addCharacterHitboxes(hitboxes, skeletons, c, fitted);
      addCharacterCollider(world, eid, c);
      characters.push(eid);
    }
    const kinds = ['sphere', 'obb', 'aabb'] as const;
    const bodies = Array.from({ length: 30 }, (_, i) => {
      const eid = addEntity(world);
      const kind = kinds[i % 3];
      const size = 0.05 + 0.25 * rand();
      if (kind === 'sphere') addCollider(world, eid, { shape: 'sphere', radius: size });
      else if (kind === 'obb') addCollider(world, eid, { shape: 'obb', halfExtents: [size, 2 * size, size] });
      else addCollider(world, eid, { shape: 'aabb', halfExtents: [size, size, 2 * size] });
      return { eid, kind };
    });
    const kindOf = new Map(bodies.map((b) => [b.eid, b.kind]));
    let characterPairs = 0, characterCharacter = 0, skipped = 0;
    for (let frame = 0; frame < 40; frame++) {
      for (let c = 0; c < 4; c++) {
        const first = skeletons.firstBone[c];
        humanoid.animate(frame / 30 + c, skeletons.translation.subarray(3 * first), skeletons.rotation.subarray(4 * first), skeletons.scale.subarray(3 * first));
        // Two pairs of characters walking into each other along x.
        const m = skeletons.characterMatrix;
        m[16 * c + 12] = (c % 2 === 0 ? -1 : 1) * (1.2 - frame * 0.03);
        m[16 * c + 14] = c < 2 ? 0 : 3;
      }
      for (const body of bodies) setTransform(world, body.eid, [(rand() - 0.5) * 4, rand() * 2, (rand() - 0.2) * 4], randomQuaternion(rand));
      collision.step(world);

      const w = collision.collider.world;
      const expected: string[] = [];
      const ambiguous = new Set<string>();
      // Keys: character entity, other entity, hitbox of the character, hitbox of the other (-1 for a
      // body); character pairs in ascending entity order.
      const record = (key: string, verdict: number): void => {
        if (verdict === 1) expected.push(key);
        if (verdict === -1) ambiguous.add(key);
      };
      for (let ca = 0; ca < 4; ca++) {
        const ea = characters[ca];
        const fa = hitboxes.firstHitbox[ca];
        for (let ha = fa; ha < fa + hitboxes.hitboxCount[ca]; ha++) {
          for (const body of bodies) {
            const o = SHAPE_STRIDE * body.eid;
            const verdict = body.kind === 'sphere' ? referenceSphereBox(w, o, hitboxes.world, OBB_STRIDE * ha)
              : body.kind === 'obb' ? referenceBoxes(hitboxes.world, OBB_STRIDE * ha, w, o)
                : referenceBoxes(hitboxes.world, OBB_STRIDE * ha, obbOfAabb(w, o), 0);
            record(`${ea},${body.eid},${ha},-1`, verdict);
          }
          for (let cb = ca + 1; cb < 4; cb++) {
            const fb = hitboxes.firstHitbox[cb];
            for (let hb = fb; hb < fb + hitboxes.hitboxCount[cb]; hb++) {
              record(`${ea},${characters[cb]},${ha},${hb}`, referenceBoxes(hitboxes.world, OBB_STRIDE * ha, hitboxes.world, OBB_STRIDE * hb));
            }
          }
        }
      }
      const got: string[] = [];
      const hp = collision.hitboxPairs;
      for (let i = 0; i < hp.count; i++) {
        const a = hp.a[i], b = hp.b[i];
        const key = kindOf.has(a) ? `${b},${a},${hp.hitboxB[i]},-1` : `${a},${b},${hp.hitboxA[i]},${hp.hitboxB[i]}`;
        if (!ambiguous.has(key)) got.push(key);
      }
      skipped += ambiguous.size;
      expect(got.sort()).toEqual(expected.sort());
      // Entity-level pairs: exactly the pairs with at least one touching hitbox pair.
      const entityPairs = new Set(expected.map((k) => k.split(',').slice(0, 2).map(Number).sort((x, y) => x - y).join(',')));
      const touching = new Set<string>();
      const tp = collision.touchingPairs;
      for (let i = 0; i < tp.count; i++) {
        if (characters.includes(tp.a[i]) || characters.includes(tp.b[i])) touching.add(`${tp.a[i]},${tp.b[i]}`);
      }
      if (ambiguous.size === 0) expect([...touching].sort()).toEqual([...entityPairs].sort());
      characterPairs += entityPairs.size;
      for (const k of entityPairs) if (k.split(',').every((e) => characters.includes(Number(e)))) characterCharacter++;
    }
    expect(characterPairs).toBeGreaterThan(40);
    expect(characterCharacter).toBeGreaterThan(3);
    expect(skipped).toBeLessThan(5);
  });

  it('rejects character colliders without the characters option, bad indices and the wrong entity', () => {
    const world = createWorld();
    createCollisionPipeline(world);
    const eid = addEntity(world);
    expect(() => addCharacterCollider(world, eid, 0)).toThrow(/'characters' option/);
    const world2 = createWorld();
    const skeletons = createSkeletonStore();
    const hitboxes = createHitboxStore();
    createCollisionPipeline(world2, { characters: { skeletons, hitboxes } });
    const owner = addEntity(world2), other = addEntity(world2);
    addCharacterHitboxes(hitboxes, skeletons, addCharacter(skeletons, definition, owner), fitted);
    expect(() => addCharacterCollider(world2, owner, 1)).toThrow(CollideInputError);
    expect(() => addCharacterCollider(world2, owner, 0.5)).toThrow(/character index/);
    expect(() => addCharacterCollider(world2, other, 0)).toThrow(/belongs to entity/);
    addCharacterHitboxes(hitboxes, skeletons, addCharacter(skeletons, definition, other), { ...fitted, count: 0 });
    expect(() => addCharacterCollider(world2, other, 1)).toThrow(/has no hitboxes/);
    expect(() => createCollisionPipeline(createWorld(), { characters: {} as never })).toThrow(/characters must be/);
  });
});
