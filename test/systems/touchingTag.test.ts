/**
 * Collision output the bitecs way: with `tags: true` the Touching component is on exactly the
 * entities in a touching pair after every step, through moves, removals and id reuse, and is
 * added or removed only when an entity starts or stops touching anything; contactsOf lists an
 * entity's contacts as a scan of all contacts would.
 */
import { addEntity, createWorld, observe, onAdd, onRemove, query, removeEntity } from 'bitecs';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { addCollider, removeCollider, setTransform } from '../../systems/colliderApi';
import { createCollisionPipeline } from '../../systems/pipeline';
import { contactsOf } from '../../systems/touching';
import { mulberry32 } from '../../scenes/random';
import { advanceScene, randomScene } from '../support/pipelineScene';

function touchingSet(p: ReturnType<typeof createCollisionPipeline>): Set<number> {
  const s = new Set<number>();
  for (let i = 0; i < p.touchingPairs.count; i++) {
    s.add(p.touchingPairs.a[i]);
    s.add(p.touchingPairs.b[i]);
  }
  return s;
}

describe('Touching tag', () => {
  it('is on exactly the touching entities after every step, added and removed only on transitions', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 1e6 }), (seed) => {
        const rand = mulberry32(seed);
        const bodies = randomScene(rand, { count: 50, kinds: ['obb', 'sphere', 'capsule', 'aabb'], size: 14 });
        const world = createWorld();
        const p = createCollisionPipeline(world, { tags: true });
        const Touching = p.Touching!;
        let adds = 0, removes = 0;
        observe(world, onAdd(Touching), () => adds++);
        observe(world, onRemove(Touching), () => removes++);
        const eids = bodies.map((b) => {
          const e = addEntity(world);
          addCollider(world, e, b.desc);
          return e;
        });
        let previous = new Set<number>();
        for (let frame = 0; frame < 20; frame++) {
          // Now and then a collider goes, an entity is removed, or a new one comes (ids get reused).
          if (frame % 5 === 4) {
            const k = Math.floor(rand() * eids.length);
            if (eids[k] >= 0) {
              if (rand() < 0.5) removeCollider(world, eids[k]);
              else removeEntity(world, eids[k]);
              eids[k] = -1;
            }
            const e = addEntity(world);
            addCollider(world, e, bodies[k].desc);
            eids[k] = e;
          }
          bodies.forEach((b, i) => { if (eids[i] >= 0) setTransform(world, eids[i], b.position, b.rotation); });
          const [addsBefore, removesBefore] = [adds, removes];
          p.step(world);
          const now = touchingSet(p);
          const tagged = new Set(Array.from(query(world, [Touching])));
          expect([...tagged].sort((x, y) => x - y)).toEqual([...now].sort((x, y) => x - y));
          // Structural changes exactly for the entities that started or stopped touching (frames
          // with a removal are left out: bitecs drops a removed entity's components itself, and
          // its id may come back as the new entity).
          if (frame % 5 !== 4) {
            const started = [...now].filter((e) => !previous.has(e)).length;
            const stopped = [...previous].filter((e) => !now.has(e)).length;
            expect([adds - addsBefore, removes - removesBefore]).toEqual([started, stopped]);
          }
          previous = now;
          advanceScene(bodies, 14);
        }
        expect(adds).toBeGreaterThan(0);
      }),
      { numRuns: 8, seed: 1125 },
    );
  });

  it('is absent without the option', () => {
    const world = createWorld();
    const p = createCollisionPipeline(world);
    expect(p.Touching).toBeUndefined();
    expect(() => createCollisionPipeline(createWorld(), { tags: 'yes' } as never)).toThrow(/tags must be a boolean/);
  });
});

describe('contactsOf', () => {
  it('lists the contacts of each entity, ascending, as a scan of every contact does', () => {
    const bodies = randomScene(mulberry32(5), { count: 80, kinds: ['obb', 'sphere', 'capsule', 'aabb'], size: 14 });
    const world = createWorld();
    const p = createCollisionPipeline(world);
    const eids = bodies.map((b) => {
      const e = addEntity(world);
      addCollider(world, e, b.desc);
      return e;
    });
    const out: number[] = [];
    let checked = 0;
    for (let frame = 0; frame < 5; frame++) {
      bodies.forEach((b, i) => setTransform(world, eids[i], b.position, b.rotation));
      p.step(world);
      const c = p.contacts;
      for (const e of eids) {
        const scan: number[] = [];
        for (let i = 0; i < c.count; i++) if (c.a[i] === e || c.b[i] === e) scan.push(i);
        expect(contactsOf(world, e, out)).toEqual(scan);
        checked += scan.length;
      }
      advanceScene(bodies, 14);
    }
    expect(checked).toBeGreaterThan(50);
  });
});
