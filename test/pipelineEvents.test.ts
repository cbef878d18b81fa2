import { addEntity, createWorld, removeEntity, type World } from 'bitecs';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { PairList } from '../src/broadphase/pairList';
import { addCollider, removeCollider, setTransform } from '../systems/colliderApi';
import type { CollisionPipeline } from '../systems/collisionState';
import { createCollisionPipeline } from '../systems/pipeline';
import { touching } from '../systems/touching';
import { advanceScene, randomBody, randomScene, referencePairs, referenceShape, type Body, type RefShape } from './support/pipelineScene';
import { mulberry32 } from './support/random';

function pairsOf(list: PairList): [number, number][] {
  const out: [number, number][] = [];
  for (let i = 0; i < list.count; i++) out.push([list.first[i], list.second[i]]);
  return out;
}

/** Scene-index pairs of a pair list, sorted. */
function mapped(list: PairList, indexOf: Map<number, number>): string[] {
  return pairsOf(list)
    .map(([a, b]) => [indexOf.get(a)!, indexOf.get(b)!].sort((x, y) => x - y).join(','))
    .sort();
}

describe('creation-order independence', () => {
  it('the same scene created in two entity orders gives the same pairs, contacts and events', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 1e6 }), fc.integer({ min: 0, max: 40 }), (seed, padding) => {
        const options = { count: 80, kinds: ['obb', 'sphere', 'capsule', 'aabb'] as const, size: 14 };
        const bodies = randomScene(mulberry32(seed), options);
        const order = bodies.map((_, i) => i);
        // Second world: reversed order, and `padding` unrelated entities first so ids differ too.
        const orders = [order, [...order].reverse()];
        const runs = orders.map((ord, r) => {
          const world = createWorld();
          const p = createCollisionPipeline(world, { broadPhase: r === 0 ? 'sap' : 'dynamicAabbTree' });
          if (r === 1) for (let k = 0; k < padding; k++) addEntity(world);
          const eids = new Array<number>(bodies.length);
          const indexOf = new Map<number, number>();
          for (const i of ord) {
            eids[i] = addEntity(world);
            indexOf.set(eids[i], i);
            addCollider(world, eids[i], { ...bodies[i].desc, sensor: i % 3 === 0 });
          }
          return { world, p, eids, indexOf };
        });
        for (let frame = 0; frame < 15; frame++) {
          for (const run of runs) {
            for (const i of orders[0]) setTransform(run.world, run.eids[i], bodies[i].position, bodies[i].rotation);
            run.p.step(run.world);
          }
          const [x, y] = runs;
          expect(mapped(y.p.touchingPairs, y.indexOf)).toEqual(mapped(x.p.touchingPairs, x.indexOf));
          for (const ev of ['begin', 'stay', 'end'] as const) {
            expect(mapped(y.p.events[ev], y.indexOf)).toEqual(mapped(x.p.events[ev], x.indexOf));
          }
          const contactKeys = (run: typeof x) => {
            const c = run.p.contacts;
            const keys: string[] = [];
            for (let k = 0; k < c.count; k++) keys.push([run.indexOf.get(c.a[k])!, run.indexOf.get(c.b[k])!].sort((u, v) => u - v).join(','));
            return keys.sort();
          };
          expect(contactKeys(y)).toEqual(contactKeys(x));
          advanceScene(bodies, options.size);
        }
      }),
      { numRuns: 12 },
    );
  });
});

interface Live {
  body: Body;
  eid: number;
}

/** Checks one frame of a churned pipeline against the reference and the event bookkeeping. */
function checkFrame(p: CollisionPipeline, live: Live[], model: Set<string>, frame: number): void {
  const byEid = new Map(live.map((l) => [l.eid, l]));
  // No pair, contact or event (other than end) may name an entity without a collider.
  for (const [a, b] of [...pairsOf(p.touchingPairs), ...pairsOf(p.events.begin), ...pairsOf(p.events.stay)]) {
    expect(byEid.has(a) && byEid.has(b), `frame ${frame}: stale pair (${a}, ${b})`).toBe(true);
  }
  for (let k = 0; k < p.contacts.count; k++) expect(byEid.has(p.contacts.a[k]) && byEid.has(p.contacts.b[k])).toBe(true);
  // Exactness against the reference over the live bodies.
  const shapes: (RefShape | null)[] = live.map((l) => referenceShape(l.body.desc, p.transform, l.eid));
  const ref = referencePairs(shapes);
  const got = new Set(pairsOf(p.touchingPairs).map(([a, b]) => {
    const i = live.indexOf(byEid.get(a)!), j = live.indexOf(byEid.get(b)!);
    return i < j ? `${i},${j}` : `${j},${i}`;
  }));
  for (const k of ref.sure) expect(got.has(k), `frame ${frame}: missing ${k}`).toBe(true);
  for (const k of got) expect(ref.sure.has(k) || ref.either.has(k), `frame ${frame}: extra ${k}`).toBe(true);
  // Events: ends leave the model, begins enter it, stays were in it; the result is the touching set.
  for (const [a, b] of pairsOf(p.events.end)) {
    expect(model.delete(`${a},${b}`), `frame ${frame}: end of a pair that was not touching`).toBe(true);
  }
  for (const [a, b] of pairsOf(p.events.stay)) expect(model.has(`${a},${b}`)).toBe(true);
  for (const [a, b] of pairsOf(p.events.begin)) {
    expect(model.has(`${a},${b}`), `frame ${frame}: begin of a pair already touching`).toBe(false);
    model.add(`${a},${b}`);
  }
  expect([...model].sort()).toEqual(pairsOf(p.touchingPairs).map(([a, b]) => `${a},${b}`).sort());
  expect(p.events.begin.count + p.events.stay.count).toBe(p.touchingPairs.count);
}

describe('churn', () => {
  it('10% of colliders removed and re-added per frame for 200 frames: no stale pairs, balanced events', () => {
    const rand = mulberry32(99);
    const options = { count: 150, kinds: ['obb', 'sphere', 'capsule', 'aabb'] as const, size: 18 };
    const world: World = createWorld();
    const p = createCollisionPipeline(world, { broadPhase: 'sap' });
    let live: Live[] = randomScene(rand, options).map((body) => {
      const eid = addEntity(world);
      addCollider(world, eid, body.desc);
      return { body, eid };
    });
    const model = new Set<string>();
    let begins = 0, ends = 0, reused = 0;
    const seen = new Set<number>();
    for (let frame = 0; frame < 200; frame++) {
      // Remove 10%: half through removeEntity, half through removeCollider (then the entity is reused).
      const removed = live.filter(() => rand() < 0.1);
      for (const l of removed) {
        if (rand() < 0.5) removeEntity(world, l.eid);
        else expect(removeCollider(world, l.eid)).toBe(true);
      }
      live = live.filter((l) => !removed.includes(l));
      for (let k = 0; k < removed.length; k++) {
        const body = randomBody(rand, options.kinds[k % 4], options);
        const eid = addEntity(world);
        if (seen.has(eid)) reused++;
        addCollider(world, eid, body.desc);
        live.push({ body, eid });
      }
      for (const l of live) {
        seen.add(l.eid);
        setTransform(world, l.eid, l.body.position, l.body.rotation);
      }
      p.step(world);
      begins += p.events.begin.count;
      ends += p.events.end.count;
      checkFrame(p, live, model, frame);
      advanceScene(live.map((l) => l.body), options.size);
    }
    expect(begins - ends).toBe(p.touchingPairs.count);
    expect(begins).toBeGreaterThan(500);
    expect(reused).toBeGreaterThan(100); // recycled ids were exercised
    expect(p.collider.count).toBe(live.length);
  });

  it('a removed entity whose id is reused at once ends its pairs and begins new ones', () => {
    const world = createWorld();
    const p = createCollisionPipeline(world);
    const a = addEntity(world), b = addEntity(world);
    addCollider(world, a, { shape: 'sphere', radius: 1 });
    addCollider(world, b, { shape: 'sphere', radius: 1 });
    setTransform(world, a, [0, 0, 0]);
    setTransform(world, b, [1, 0, 0]);
    p.step(world);
    expect(pairsOf(p.events.begin)).toEqual([[a, b]]);
    removeEntity(world, b);
    const c = addEntity(world); // bitecs may hand out b's id again
    addCollider(world, c, { shape: 'sphere', radius: 1 });
    setTransform(world, c, [1, 0, 0]);
    p.step(world);
    expect(pairsOf(p.events.end)).toEqual([[a, b]]);
    expect(pairsOf(p.events.begin)).toEqual([[Math.min(a, c), Math.max(a, c)]]);
    expect(p.events.stay.count).toBe(0);
    removeCollider(world, c);
    p.step(world);
    expect(p.touchingPairs.count).toBe(0);
    expect(p.events.end.count).toBe(1);
    expect(touching(p, a, [])).toEqual([]);
  });
});

describe('touching(e)', () => {
  it('lists exactly the partners of e in the touching pairs, ascending', () => {
    const bodies = randomScene(mulberry32(5), { count: 120, kinds: ['obb', 'sphere'], size: 12 });
    const world = createWorld();
    const p = createCollisionPipeline(world);
    const eids = bodies.map((b) => {
      const e = addEntity(world);
      addCollider(world, e, b.desc);
      setTransform(world, e, b.position, b.rotation);
      return e;
    });
    p.step(world);
    expect(p.touchingPairs.count).toBeGreaterThan(50);
    const out: number[] = [];
    for (const e of eids) {
      const expected = pairsOf(p.touchingPairs).flatMap(([a, b]) => (a === e ? [b] : b === e ? [a] : [])).sort((x, y) => x - y);
      expect(touching(p, e, out)).toEqual(expected);
    }
  });
});
