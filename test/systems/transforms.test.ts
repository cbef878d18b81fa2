/**
 * Ways to give the pipeline its poses: setTransform, the scalar setters, direct writes to the
 * transform store with dynamic colliders, and the user's own components read in place (per-field
 * arrays or interleaved, typed or plain). Every way must give the very same pairs, events and
 * contacts on the same moving scene; bad components and values get a CollideInputError naming
 * the field and never reach the stores.
 */
import { addEntity, createWorld, type World } from 'bitecs';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CollideInputError } from '../../src/errors';
import {
  addCollider, markTransformChanged, setPosition, setRotation, setScale, setTransform, type ColliderDescription,
} from '../../systems/colliderApi';
import type { CollisionPipeline } from '../../systems/collisionState';
import { createCollisionPipeline } from '../../systems/pipeline';
import type { TransformComponents } from '../../systems/poseSource';
import { shiftWorldOrigin } from '../../systems/worldOrigin';
import { mulberry32 } from '../../scenes/random';
import { advanceScene, randomScene, type Body } from '../support/pipelineScene';

type Way = 'setTransform' | 'setters' | 'direct' | 'fields' | 'interleaved' | 'plainFields';
const WAYS: readonly Way[] = ['setTransform', 'setters', 'direct', 'fields', 'interleaved', 'plainFields'];

interface Run {
  world: World;
  p: CollisionPipeline;
  eids: number[];
  write(bodies: Body[]): void;
}

/** Components sized for `n` entities in the layout of `way`. */
function componentsFor(way: Way, n: number): TransformComponents {
  if (way === 'interleaved') return { position: new Float64Array(3 * n), rotation: new Float32Array(4 * n), scale: new Float32Array(n).fill(1) };
  if (way === 'plainFields') {
    const plain = () => new Array<number>(n).fill(0);
    return { position: { x: plain(), y: plain(), z: plain() }, rotation: { x: plain(), y: plain(), z: plain(), w: new Array<number>(n).fill(1) } };
  }
  const f = () => new Float32Array(n);
  return { position: { x: f(), y: f(), z: f() }, rotation: { x: f(), y: f(), z: f(), w: new Float32Array(n).fill(1) }, scale: new Float32Array(n).fill(1) };
}

function start(way: Way, bodies: Body[]): Run {
  const world = createWorld();
  const components = way === 'fields' || way === 'interleaved' || way === 'plainFields' ? componentsFor(way, bodies.length + 1) : undefined;
  const p = createCollisionPipeline(world, components ? { transform: components } : {});
  const eids = bodies.map((b) => {
    const e = addEntity(world);
    addCollider(world, e, way === 'direct' ? { ...b.desc, dynamic: true } : b.desc);
    return e;
  });
  const write = (scene: Body[]): void => {
    scene.forEach((b, i) => {
      const e = eids[i], [x, y, z] = b.position, [qx, qy, qz, qw] = b.rotation;
      if (way === 'setTransform') setTransform(world, e, b.position, b.rotation);
      else if (way === 'setters') {
        setPosition(world, e, x, y, z);
        setRotation(world, e, qx, qy, qz, qw);
      } else if (way === 'direct') {
        // A unit quaternion, as Float32: what setTransform stores after normalising in doubles.
        const n = Math.hypot(qx, qy, qz, qw);
        p.transform.position.set([x, y, z], 3 * e);
        p.transform.rotation.set([qx / n, qy / n, qz / n, qw / n], 4 * e);
      } else if (way === 'interleaved') {
        (components!.position as Float64Array).set([x, y, z], 3 * e);
        (components!.rotation as Float32Array).set([qx, qy, qz, qw], 4 * e);
      } else {
        const pos = components!.position as { x: number[]; y: number[]; z: number[] };
        const rot = components!.rotation as { x: number[]; y: number[]; z: number[]; w: number[] };
        pos.x[e] = x; pos.y[e] = y; pos.z[e] = z;
        rot.x[e] = qx; rot.y[e] = qy; rot.z[e] = qz; rot.w[e] = qw;
      }
    });
  };
  return { world, p, eids, write };
}

/** What one step reports, as plain data. */
function outcome(p: CollisionPipeline): unknown {
  const list = (l: { count: number; a: Uint32Array; b: Uint32Array }) => Array.from({ length: l.count }, (_, i) => [l.a[i], l.b[i]]);
  return {
    touching: list(p.touchingPairs),
    begin: list(p.events.begin),
    end: list(p.events.end),
    contacts: Array.from(p.contacts.manifold.subarray(0, p.contacts.count * 23)),
  };
}

describe('poses from every source', () => {
  it('setTransform, setters, direct writes and the user components (fields, interleaved, plain arrays) give identical frames', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 1e6 }), (seed) => {
        // Poses exact in Float32 (what a Float32 component holds), rotations of length about 1.5:
        // every way must normalise the very same numbers the same way.
        const bodies = randomScene(mulberry32(seed), { count: 60, kinds: ['obb', 'aabb', 'sphere', 'capsule'], size: 12 });
        const asStored = () => {
          for (const b of bodies) {
            b.rotation = b.rotation.map((v) => Math.fround(v * 1.5));
            b.position = b.position.map(Math.fround) as typeof b.position;
          }
        };
        asStored();
        const runs = WAYS.map((way) => start(way, bodies));
        for (let frame = 0; frame < 8; frame++) {
          const results = runs.map((r) => {
            r.write(bodies);
            r.p.step(r.world);
            return outcome(r.p);
          });
          results.slice(1).forEach((r, k) => expect([WAYS[k + 1], frame, r]).toEqual([WAYS[k + 1], frame, results[0]]));
          advanceScene(bodies, 12);
          asStored();
        }
      }),
      { numRuns: 12, seed: 20261125 },
    );
  });

  it('the scene touches: the comparison above is not between empty frames', () => {
    const bodies = randomScene(mulberry32(7), { count: 60, kinds: ['obb', 'aabb', 'sphere', 'capsule'], size: 12 });
    const r = start('fields', bodies);
    r.write(bodies);
    r.p.step(r.world);
    expect(r.p.touchingPairs.count).toBeGreaterThan(10);
    expect(r.p.contacts.count).toBeGreaterThan(5);
  });
});

describe('user components', () => {
  function twoSpheres(components: TransformComponents, secondStatic = false) {
    const world = createWorld();
    const p = createCollisionPipeline(world, { transform: components });
    const a = addEntity(world), b = addEntity(world);
    addCollider(world, a, { shape: 'sphere', radius: 1 });
    addCollider(world, b, { shape: 'sphere', radius: 1, isStatic: secondStatic });
    return { world, p, a, b };
  }

  it('dynamic colliders follow the components with no marking; statics only when marked', () => {
    const position = { x: new Float32Array(8), y: new Float32Array(8), z: new Float32Array(8) };
    const { world, p, a, b } = twoSpheres({ position }, true);
    position.x[b] = 5;
    p.step(world);
    expect(p.touchingPairs.count).toBe(0);
    position.x[a] = 3.5; // the dynamic sphere moves into the static one
    p.step(world);
    expect(p.touchingPairs.count).toBe(1);
    position.x[b] = 50; // the static one moves away, unmarked: still where it was
    p.step(world);
    expect(p.touchingPairs.count).toBe(1);
    markTransformChanged(world, b);
    p.step(world);
    expect(p.touchingPairs.count).toBe(0);
  });

  it('scale components scale the shapes; a scale on a mesh collider other than 1 is refused at the step', () => {
    const position = new Float32Array(24), scale = new Float32Array(8).fill(1);
    const { world, p, a, b } = twoSpheres({ position, scale });
    position[3 * b] = 3;
    p.step(world);
    expect(p.touchingPairs.count).toBe(0);
    scale[a] = 2; // radius 2 + 1 reaches 3
    p.step(world);
    expect(p.touchingPairs.count).toBe(1);
  });

  it('a NaN, an infinity, an out-of-range coordinate, a zero quaternion or a bad scale throws at the step, naming entity and field; nothing reaches the stores', () => {
    const position = { x: new Float64Array(8), y: new Float64Array(8), z: new Float64Array(8) };
    const rotation = new Float64Array(32);
    const scale = new Float64Array(8).fill(1);
    for (let e = 0; e < 8; e++) rotation[4 * e + 3] = 1;
    const { world, p, a, b } = twoSpheres({ position, rotation, scale });
    position.x[b] = 1.5;
    p.step(world);
    expect(p.touchingPairs.count).toBe(1);
    const before = Array.from(p.collider.world);
    const cases: [() => void, RegExp, () => void][] = [
      [() => { position.y[a] = NaN; }, new RegExp(`entity ${a}: position.y is not finite \\(NaN\\)`), () => { position.y[a] = 0; }],
      [() => { position.z[b] = Infinity; }, new RegExp(`entity ${b}: position.z is not finite`), () => { position.z[b] = 0; }],
      [() => { position.x[a] = 1e19; }, new RegExp(`entity ${a}: position.x is 10000000000000000000, outside`), () => { position.x[a] = 0; }],
      [() => { rotation.fill(0, 4 * b, 4 * b + 4); }, new RegExp(`entity ${b}: rotation \\(0, 0, 0, 0\\) is not a finite non-zero quaternion`), () => { rotation[4 * b + 3] = 1; }],
      [() => { scale[a] = -1; }, new RegExp(`entity ${a}: scale -1 is not in`), () => { scale[a] = 1; }],
      [() => { scale[a] = NaN; }, new RegExp(`entity ${a}: scale NaN is not in`), () => { scale[a] = 1; }],
    ];
    for (const [spoil, message, repair] of cases) {
      spoil();
      expect(() => p.step(world)).toThrow(CollideInputError);
      expect(() => p.step(world)).toThrow(message);
      expect(Array.from(p.collider.world)).toEqual(before);
      for (const v of p.transform.position) expect(Number.isFinite(v)).toBe(true);
      repair();
      p.step(world);
      expect(p.touchingPairs.count).toBe(1);
    }
  });

  it('components of the wrong shape are refused when the pipeline is created, naming the field', () => {
    const world = () => createWorld();
    const f = () => new Float32Array(8);
    const bad: [unknown, RegExp][] = [
      [{}, /transform.position must be \{ x, y, z \} arrays or one interleaved array/],
      [{ position: { x: f(), y: f() } }, /transform.position.z must be an array of numbers/],
      [{ position: new Float32Array(10) }, /transform.position: an interleaved array needs 3 numbers per entity, got length 10/],
      [{ position: f().subarray(0, 6), rotation: { x: f(), y: f(), z: f(), w: 'w' } }, /transform.rotation.w must be an array of numbers/],
      [{ position: new Float32Array(6), rotation: new Float32Array(6) }, /transform.rotation: an interleaved array needs 4 numbers per entity, got length 6/],
      [{ position: new Float32Array(6), scale: 2 }, /transform.scale must be an array of numbers/],
      [{ position: new Float32Array(6), rotaton: new Float32Array(8) }, /transform: unknown option 'rotaton'/],
      [null, /transform must be an object/],
    ];
    for (const [transform, message] of bad) {
      expect(() => createCollisionPipeline(world(), { transform } as never)).toThrow(CollideInputError);
      expect(() => createCollisionPipeline(world(), { transform } as never)).toThrow(message);
    }
  });

  it('an entity outside the components is refused when its collider is added', () => {
    const w = createWorld();
    createCollisionPipeline(w, { transform: { position: { x: [0], y: [0], z: [0] } } });
    addEntity(w);
    const e = addEntity(w);
    expect(() => addCollider(w, e, { shape: 'sphere', radius: 1 })).toThrow(new RegExp(`entity ${e} has no position.x in the pipeline's transform components \\(index ${e}, array length 1\\)`));
    const w2 = createWorld();
    createCollisionPipeline(w2, { transform: { position: new Float32Array(3) } });
    addEntity(w2);
    const e2 = addEntity(w2);
    expect(() => addCollider(w2, e2, { shape: 'sphere', radius: 1 })).toThrow(/has no position in the pipeline's transform components/);
  });

  it('setTransform and the setters are refused: the components are the transform', () => {
    const { world, a } = twoSpheres({ position: new Float32Array(24) });
    for (const call of [() => setTransform(world, a, [0, 0, 0]), () => setPosition(world, a, 0, 0, 0), () => setRotation(world, a, 0, 0, 0, 1), () => setScale(world, a, 1)]) {
      expect(call).toThrow(/reads poses from your transform components/);
    }
  });

  it('shiftWorldOrigin refits from the components the caller shifted', () => {
    const position = new Float64Array(24);
    const { world, p, a, b } = twoSpheres({ position });
    position[3 * a] = 1e7;
    position[3 * b] = 1e7 + 2.05; // 0.05 apart: Float32 at 1e7 cannot tell
    p.step(world);
    expect(p.touchingPairs.count).toBe(1);
    position[3 * a] -= 1e7;
    position[3 * b] -= 1e7;
    shiftWorldOrigin(world, 1e7, 0, 0);
    p.step(world);
    expect(p.touchingPairs.count).toBe(0);
    expect(Array.from(p.origin)).toEqual([1e7, 0, 0]);
  });
});

describe('scalar setters', () => {
  it('write what setTransform writes and queue the refit', () => {
    const w1 = createWorld(), w2 = createWorld();
    const p1 = createCollisionPipeline(w1), p2 = createCollisionPipeline(w2);
    const e1 = addEntity(w1), e2 = addEntity(w2);
    const desc: ColliderDescription = { shape: 'obb', halfExtents: [1, 2, 3] };
    addCollider(w1, e1, desc);
    addCollider(w2, e2, desc);
    setTransform(w1, e1, [1, -2, 3], [0.1, 0.2, 0.3, 0.9], 2);
    setPosition(w2, e2, 1, -2, 3);
    setRotation(w2, e2, 0.1, 0.2, 0.3, 0.9);
    setScale(w2, e2, 2);
    p1.step(w1);
    p2.step(w2);
    expect(Array.from(p2.transform.rotation.subarray(4 * e2, 4 * e2 + 4))).toEqual(Array.from(p1.transform.rotation.subarray(4 * e1, 4 * e1 + 4)));
    expect(Array.from(p2.collider.world.subarray(15 * e2, 15 * e2 + 15))).toEqual(Array.from(p1.collider.world.subarray(15 * e1, 15 * e1 + 15)));
    expect(Array.from(p2.collider.aabb.subarray(6 * e2, 6 * e2 + 6))).toEqual(Array.from(p1.collider.aabb.subarray(6 * e1, 6 * e1 + 6)));
  });

  it('refuse bad values by name and leave the transform as it was', () => {
    const w = createWorld();
    const p = createCollisionPipeline(w);
    const e = addEntity(w);
    addCollider(w, e, { shape: 'sphere', radius: 1 });
    setPosition(w, e, 1, 2, 3);
    const bad: [() => void, RegExp][] = [
      [() => setPosition(w, e, 1, NaN, 3), /setPosition\(entity \d+\): y is not finite \(NaN\)/],
      [() => setPosition(w, e, 1, 2, -1e19), /setPosition\(entity \d+\): z is -10000000000000000000, outside/],
      [() => setRotation(w, e, 0, 0, 0, 0), /setRotation\(entity \d+\): \(0, 0, 0, 0\) is not a finite non-zero quaternion/],
      [() => setRotation(w, e, Infinity, 0, 0, 1), /setRotation.*is not a finite non-zero quaternion/],
      [() => setScale(w, e, 0), /setScale\(entity \d+\) must be a finite number > 0, got 0/],
      // Positive, but 0 in the Float32 store.
      [() => setScale(w, e, 1e-50), /setScale\(entity \d+\) must be a finite number > 0 \(Float32 storage rounds it to 0\), got 1e-50/],
      [() => setTransform(w, e, [1, 2, 3], [0, 0, 0, 1], 1e-46), /setTransform\(entity \d+\)\.scale must be a finite number > 0 \(Float32 storage rounds it to 0\), got 1e-46/],
      [() => setPosition(w, 99, 0, 0, 0), /setPosition: entity 99 does not exist/],
      // Strings are not coerced (JavaScript would turn '5' into 5 and 'a' into NaN).
      [() => setPosition(w, e, '5' as unknown as number, 2, 3), /setPosition\(entity \d+\): x is not a number \('5'\)/],
      [() => setTransform(w, e, [1, '2' as unknown as number, 3]), /setTransform\(entity \d+\)\.position: value 1 is not a number \('2'\)/],
      [() => setRotation(w, e, 0, 0, 0, '1' as unknown as number), /setRotation\(entity \d+\).*is not a finite non-zero quaternion/],
      [() => setScale(w, e, '2' as unknown as number), /setScale\(entity \d+\) must be a finite number > 0, got '2'/],
    ];
    for (const [call, message] of bad) expect(call).toThrow(message);
    expect(Array.from(p.transform.position.subarray(3 * e, 3 * e + 3))).toEqual([1, 2, 3]);
    expect(Array.from(p.transform.rotation.subarray(4 * e, 4 * e + 4))).toEqual([0, 0, 0, 1]);
    expect(p.transform.scale[e]).toBe(1);
  });
});

describe('dynamic colliders with direct writes', () => {
  it('follow direct writes to the transform store without marking; others need markTransformChanged', () => {
    const w = createWorld();
    const p = createCollisionPipeline(w);
    const a = addEntity(w), b = addEntity(w);
    addCollider(w, a, { shape: 'sphere', radius: 1, dynamic: true });
    addCollider(w, b, { shape: 'sphere', radius: 1 });
    setPosition(w, b, 5, 0, 0);
    p.step(w);
    expect(p.touchingPairs.count).toBe(0);
    p.transform.position[3 * a] = 3.5;
    p.step(w);
    expect(p.touchingPairs.count).toBe(1);
    p.transform.position[3 * b] = 50; // not dynamic, not marked: stays where it was refit
    p.step(w);
    expect(p.touchingPairs.count).toBe(1);
    markTransformChanged(w, b);
    p.step(w);
    expect(p.touchingPairs.count).toBe(0);
    expect(p.collider.dynamicCount).toBe(1);
    addCollider(w, a, { shape: 'sphere', radius: 1 }); // re-described without the flag
    expect(p.collider.dynamicCount).toBe(0);
  });

  it('markTransformChanged refuses a direct rotation write that is not finite, so no NaN reaches the volumes', () => {
    const w = createWorld();
    const p = createCollisionPipeline(w);
    const e = addEntity(w);
    addCollider(w, e, { shape: 'obb', halfExtents: [1, 1, 1] });
    p.step(w);
    const box = Array.from(p.collider.aabb.subarray(6 * e, 6 * e + 6));
    for (const v of [NaN, Infinity]) {
      p.transform.rotation[4 * e + 1] = v;
      expect(() => markTransformChanged(w, e)).toThrow(CollideInputError);
      expect(() => markTransformChanged(w, e)).toThrow(new RegExp(`markTransformChanged\\(entity ${e}\\): rotation \\(0, ${v}, 0, 1\\) is not finite`));
      p.step(w);
      expect(Array.from(p.collider.aabb.subarray(6 * e, 6 * e + 6))).toEqual(box);
    }
  });
});

describe('unknown options', () => {
  it('are refused with the name of the option, wherever they are given', () => {
    const w = createWorld();
    expect(() => createCollisionPipeline(w, { workers: 2 } as never)).toThrow(/createCollisionPipeline: workers takes a pool, createWorkerPool\(n\)/);
    expect(() => createCollisionPipeline(w, { worker: 2 } as never)).toThrow(/createCollisionPipeline: unknown option 'worker' \(accepted: broadPhase/);
    expect(() => createCollisionPipeline(w, { broadphase: 'sap' } as never)).toThrow(/unknown option 'broadphase'/);
    const p = createCollisionPipeline(w);
    const e = addEntity(w);
    expect(() => addCollider(w, e, { shape: 'sphere', radus: 1 } as never)).toThrow(/addCollider\(entity \d+\): unknown option 'radus'/);
    expect(() => addCollider(w, e, { shape: 'obb', halfExtents: [1, 1, 1], static: true } as never)).toThrow(/unknown option 'static'/);
    expect(() => addCollider(w, e, { shape: 'sphere', radius: 1, dynamic: 1 } as never)).toThrow(/dynamic must be a boolean/);
    expect(() => addCollider(w, e, { shape: 'sphere', radius: 1, sensor: 'yes' } as never)).toThrow(/addCollider\(entity \d+\)\.sensor must be a boolean, got yes/);
    expect(() => addCollider(w, e, { shape: 'sphere', radius: 1, isStatic: 1 } as never)).toThrow(/addCollider\(entity \d+\)\.isStatic must be a boolean, got 1/);
    expect(() => createCollisionPipeline(createWorld(), { timings: 'yes' } as never)).toThrow(/createCollisionPipeline: timings must be a boolean, got yes/);
    // A margin beyond the coordinate range would widen the broad-phase boxes to infinity.
    expect(() => createCollisionPipeline(createWorld(), { aabbMargin: 1e300 })).toThrow(/createCollisionPipeline: aabbMargin must be a finite number >= 0 and <= 1e\+18, got 1e\+300/);
    expect(() => createCollisionPipeline(createWorld(), { aabbMargin: '1' } as never)).toThrow(/aabbMargin must be a finite number >= 0/);
    expect(p.collider.count).toBe(0);
  });
});
