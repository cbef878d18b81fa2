/**
 * Numbers past what the Float32 stores can hold (or that would make a derived world volume
 * overflow) are refused at every API boundary with a CollideInputError naming the argument, and a
 * refused call leaves the stores as they were.
 */
import { addEntity, createWorld } from 'bitecs';
import { describe, expect, it } from 'vitest';
import { buildCharacterRayGrid, createCharacterRayGrid } from '../../src/character/rayGrid';
import { createHitboxRayHit, raycastHitboxes } from '../../src/character/hitboxRaycast';
import { createHitboxStore } from '../../src/character/hitboxStore';
import { buildBoundingTree } from '../../src/tree/build';
import { CollideInputError } from '../../src/errors';
import { MAX_COORDINATE } from '../../src/tolerances';
import { defineSkeleton } from '../../src/character/skeleton';
import { addCollider, markTransformChanged, setTransform } from '../../systems/colliderApi';
import { addKdopCollider } from '../../systems/kdopCollider';
import { createCollisionPipeline } from '../../systems/pipeline';
import { createColliderRayHit, raycastColliders } from '../../systems/raycastColliders';
import { rayQueryOf } from '../support/rays';

const TOO_LARGE = [1e39, -1e39, 1e308, 1e19, Infinity, NaN];

function scene() {
  const world = createWorld();
  const p = createCollisionPipeline(world);
  const a = addEntity(world), b = addEntity(world);
  addCollider(world, a, { shape: 'obb', halfExtents: [1, 1, 1] });
  addCollider(world, b, { shape: 'sphere', radius: 1 });
  setTransform(world, a, [0, 0, 0]);
  setTransform(world, b, [1.5, 0, 0]);
  p.step(world);
  return { world, p, a, b };
}

/** A message naming `what` and showing the value as JavaScript prints it. */
function naming(what: string, v: number): RegExp {
  return new RegExp(`${what}.*${String(v).replace(/[+.]/g, (c) => `\\${c}`)}`);
}

describe('numbers past the Float32 range', () => {
  for (const v of TOO_LARGE) {
    it(`${v}: setTransform position and scale, collider shapes`, () => {
      const { world, a } = scene();
      expect(() => setTransform(world, a, [v, 0, 0])).toThrow(CollideInputError);
      expect(() => setTransform(world, a, [0, 0, v])).toThrow(naming('position', v));
      if (v > 0) expect(() => setTransform(world, a, [0, 0, 0], [0, 0, 0, 1], v)).toThrow(naming('scale', v));
      expect(() => addCollider(world, a, { shape: 'obb', halfExtents: [1, Math.abs(v), 1] })).toThrow(naming('halfExtents', Math.abs(v)));
      expect(() => addCollider(world, a, { shape: 'obb', halfExtents: [1, 1, 1], center: [v, 0, 0] })).toThrow(naming('center', v));
      expect(() => addCollider(world, a, { shape: 'aabb', min: [-1, -1, -1], max: [1, 1, Math.abs(v)] })).toThrow(naming('max', Math.abs(v)));
      if (!Number.isNaN(v)) expect(() => addCollider(world, a, { shape: 'sphere', radius: Math.abs(v) })).toThrow(naming('radius', Math.abs(v)));
      expect(() => addCollider(world, a, { shape: 'capsule', p0: [0, 0, 0], p1: [0, v, 0], radius: 1 })).toThrow(naming('p1', v));
      expect(() => addKdopCollider(world, a, [0, 0, 0, 1, v, 1])).toThrow(naming('points', v));
    });

    it(`${v}: mesh vertices, bone translations and inverse binds, ray origins`, () => {
      const positions = [0, 0, 0, 1, 0, 0, 0, v, 0];
      expect(() => buildBoundingTree(positions, [0, 1, 2])).toThrow(CollideInputError);
      expect(() => buildBoundingTree(positions, [0, 1, 2])).toThrow(naming('vertex 2', v));
      expect(() => defineSkeleton({ parents: [-1], translation: [0, v, 0] })).toThrow(naming('translation', v));
      const inverseBind = [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, v, 0, 0, 1];
      expect(() => defineSkeleton({ parents: [-1], inverseBind })).toThrow(naming('inverseBind', v));
      const { world } = scene();
      expect(() => raycastColliders(world, createColliderRayHit(), rayQueryOf(v, 0, 0, 1, 0, 0, 10))).toThrow(naming('raycastColliders', v));
      const store = createHitboxStore(), grid = createCharacterRayGrid();
      buildCharacterRayGrid(grid, store);
      expect(() => raycastHitboxes(createHitboxRayHit(), store, grid, rayQueryOf(0, v, 0, 1, 0, 0, 10))).toThrow(naming('raycastHitboxes', v));
    });
  }

  it('a refused pose leaves the entity, its volumes and its pairs as they were', () => {
    const { world, p, a, b } = scene();
    const position = p.transform.position.slice(3 * a, 3 * a + 3);
    const aabb = p.collider.aabb.slice(6 * a, 6 * a + 6);
    expect(p.touchingPairs.count).toBe(1);
    for (const v of TOO_LARGE) expect(() => setTransform(world, a, [v, 0, 0])).toThrow(CollideInputError);
    expect(p.transform.position.slice(3 * a, 3 * a + 3)).toEqual(position);
    p.step(world);
    expect(p.collider.aabb.slice(6 * a, 6 * a + 6)).toEqual(aabb);
    expect([p.touchingPairs.count, p.touchingPairs.a[0], p.touchingPairs.b[0]]).toEqual([1, a, b]);
  });

  it('a bad direct store write is refused by markTransformChanged before it reaches the volumes', () => {
    const { world, p, a } = scene();
    const aabb = p.collider.aabb.slice(6 * a, 6 * a + 6);
    p.transform.position[3 * a + 1] = 1e39; // Float32 rounds it to Infinity
    expect(() => markTransformChanged(world, a)).toThrow(/position\[1\] is not finite \(Infinity\)/);
    p.transform.position[3 * a + 1] = 0;
    p.transform.scale[a] = 1e30;
    expect(() => markTransformChanged(world, a)).toThrow(/scale must be at most 1e\+18/);
    p.transform.scale[a] = 1;
    p.step(world);
    expect(p.collider.aabb.slice(6 * a, 6 * a + 6)).toEqual(aabb);
  });

  it('values at the limit are accepted and every derived volume stays finite', () => {
    const { world, p, a, b } = scene();
    const m = MAX_COORDINATE;
    addCollider(world, a, { shape: 'obb', halfExtents: [m, m, m], center: [m, -m, m], rotation: [0.3, 0.1, 0.2, 0.9] });
    setTransform(world, a, [m, m, -m], [0.1, 0.7, 0.2, 0.6], m);
    addCollider(world, b, { shape: 'capsule', p0: [-m, 0, 0], p1: [m, m, m], radius: m });
    setTransform(world, b, [-m, -m, -m], [0, 0, 0, 1], m);
    p.step(world);
    for (const e of [a, b]) {
      for (const v of p.collider.aabb.subarray(6 * e, 6 * e + 6)) expect(Number.isFinite(v)).toBe(true);
    }
    expect(p.touchingPairs.count).toBe(1);
  });
});
