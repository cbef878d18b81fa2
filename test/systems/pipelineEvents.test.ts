import { addEntity, createWorld, removeEntity, type World } from 'bitecs';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { PairList } from '../../src/broadphase/pairList';
import { addCollider, removeCollider, setTransform } from '../../systems/colliderApi';
import type { BroadPhaseName, CollisionPipeline } from '../../systems/collisionState';
import { createCollisionPipeline } from '../../systems/pipeline';
import { resolveBroadPhase } from '../../systems/broadPhaseNames';
import { touching } from '../../systems/touching';
import { advanceScene, randomBody, randomScene, referencePairs, referenceShape, type Body, type RefShape } from '../support/pipelineScene';
import { mulberry32 } from '../../scenes/random';

function pairsOf(list: PairList): [number, number][] {
  const out: [number, number][] = [];
  for (let i = 0; i < list.count; i++) out.push([list.a[i], list.b[i]]);
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
          const p = createCollisionPipeline(world, { broadPhase: resolveBroadPhase(r === 0 ? 'sap' : 'dynamicAabbTree') });
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

/**
 * Checks one frame of a churned pipeline against the event bookkeeping (and the reference when
 * asked). Problems are collected and asserted once: thousands of single expects per frame would
 * dominate the run time.
 */
function checkFrame(p: CollisionPipeline, live: Live[], model: Set<string>, frame: number, withReference: boolean): void {
  const byEid = new Map(live.map((l) => [l.eid, l]));
  const problems: string[] = [];
  // No pair, contact or event (other than end) may name an entity without a collider.
  for (const [a, b] of [...pairsOf(p.touchingPairs), ...pairsOf(p.events.begin), ...pairsOf(p.events.stay)]) {
    if (!byEid.has(a) || !byEid.has(b)) problems.push(`stale pair (${a}, ${b})`);
  }
  for (let k = 0; k < p.contacts.count; k++) {
    if (!byEid.has(p.contacts.a[k]) || !byEid.has(p.contacts.b[k])) problems.push(`stale contact ${k}`);
  }
  // Events: ends leave the model, begins enter it, stays were in it; the result is the touching set.
  for (const [a, b] of pairsOf(p.events.end)) if (!model.delete(`${a},${b}`)) problems.push(`end of ${a},${b} that was not touching`);
  for (const [a, b] of pairsOf(p.events.stay)) if (!model.has(`${a},${b}`)) problems.push(`stay of ${a},${b} that was not touching`);
  for (const [a, b] of pairsOf(p.events.begin)) {
    if (model.has(`${a},${b}`)) problems.push(`begin of ${a},${b} already touching`);
    model.add(`${a},${b}`);
  }
  const touchingKeys = pairsOf(p.touchingPairs).map(([a, b]) => `${a},${b}`);
  if (model.size !== touchingKeys.length || touchingKeys.some((k) => !model.has(k))) problems.push('events do not add up to the touching set');
  if (p.events.begin.count + p.events.stay.count !== p.touchingPairs.count) problems.push('begin + stay != touching');
  expect(problems, `frame ${frame}`).toEqual([]);
  if (withReference) checkAgainstReference(p, live, byEid, frame);
}

function checkAgainstReference(p: CollisionPipeline, live: Live[], byEid: Map<number, Live>, frame: number): void {
  const shapes: (RefShape | null)[] = live.map((l) => referenceShape(l.body.desc, p.transform, l.eid));
  const ref = referencePairs(shapes);
  const got = new Set(pairsOf(p.touchingPairs).map(([a, b]) => {
    const i = live.indexOf(byEid.get(a)!), j = live.indexOf(byEid.get(b)!);
    return i < j ? `${i},${j}` : `${j},${i}`;
  }));
  for (const k of ref.sure) expect(got.has(k), `frame ${frame}: missing ${k}`).toBe(true);
  for (const k of got) expect(ref.sure.has(k) || ref.either.has(k), `frame ${frame}: extra ${k}`).toBe(true);
}

interface ChurnStats {
  begins: number;
  ends: number;
  reused: number;
  /** heapUsed after a full GC at frames 500 and at the end (bytes; 0 without --expose-gc). */
  heapAt500: number;
  heapAtEnd: number;
}

/**
 * 10% of 150 colliders removed (half by removeEntity, half by removeCollider) and re-added every
 * frame; events and stale pairs are checked every frame, the pair set against the reference every
 * `referenceEvery` frames.
 */
function runChurn(frames: number, referenceEvery: number, broadPhase: BroadPhaseName): ChurnStats {
  const rand = mulberry32(99);
  const options = { count: 150, kinds: ['obb', 'sphere', 'capsule', 'aabb'] as const, size: 18 };
  const world: World = createWorld();
  const p = createCollisionPipeline(world, { broadPhase: resolveBroadPhase(broadPhase) });
  let live: Live[] = randomScene(rand, options).map((body) => {
    const eid = addEntity(world);
    addCollider(world, eid, body.desc);
    return { body, eid };
  });
  const model = new Set<string>();
  const stats: ChurnStats = { begins: 0, ends: 0, reused: 0, heapAt500: 0, heapAtEnd: 0 };
  const gc = (globalThis as { gc?: () => void }).gc;
  const heap = (): number => (gc ? (gc(), process.memoryUsage().heapUsed) : 0);
  const seen = new Set<number>();
  for (let frame = 0; frame < frames; frame++) {
    // Remove 10%: half through removeEntity (bitecs recycles the id), half through removeCollider
    // (the entity stays and gets a new collider below).
    const removed = live.filter(() => rand() < 0.1);
    const colliderless: number[] = [];
    for (const l of removed) {
      if (rand() < 0.5) removeEntity(world, l.eid);
      else {
        expect(removeCollider(world, l.eid)).toBe(true);
        colliderless.push(l.eid);
      }
    }
    live = live.filter((l) => !removed.includes(l));
    for (let k = 0; k < removed.length; k++) {
      const body = randomBody(rand, options.kinds[k % 4], options);
      let eid = colliderless.pop();
      if (eid === undefined) {
        eid = addEntity(world);
        if (seen.has(eid)) stats.reused++; // bitecs handed out a removed entity's id again
      }
      addCollider(world, eid, body.desc);
      live.push({ body, eid });
    }
    for (const l of live) {
      seen.add(l.eid);
      setTransform(world, l.eid, l.body.position, l.body.rotation);
    }
    p.step(world);
    stats.begins += p.events.begin.count;
    stats.ends += p.events.end.count;
    checkFrame(p, live, model, frame, frame % referenceEvery === 0);
    advanceScene(live.map((l) => l.body), options.size);
    if (frame === 500) stats.heapAt500 = heap();
  }
  stats.heapAtEnd = heap();
  expect(stats.begins - stats.ends).toBe(p.touchingPairs.count);
  expect(p.collider.count).toBe(live.length);
  return stats;
}

describe('churn', () => {
  it.each(['sap', 'spatialHash'] as const)('%s: a tenth of the colliders removed and re-added per frame for 200 frames: no stale pairs, balanced events, exact every frame', (broadPhase) => {
    const stats = runChurn(200, 1, broadPhase);
    expect(stats.begins).toBeGreaterThan(500);
    expect(stats.reused).toBeGreaterThan(100); // recycled ids were exercised
  });

  it('2,000 frames of churn: events balanced every frame, exact every 25th, heap stable after warm-up', () => {
    const stats = runChurn(2000, 25, 'spatialHash');
    expect(stats.reused).toBeGreaterThan(1000);
    expect(stats.heapAt500, 'run vitest with --expose-gc (vitest.config.ts execArgv)').toBeGreaterThan(0);
    // Pools grow to their working size early; afterwards the heap may only wobble (< 2 MB).
    expect(stats.heapAtEnd - stats.heapAt500).toBeLessThan(2 * 1024 * 1024);
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
