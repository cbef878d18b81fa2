import { addEntity, createWorld, hasComponent, removeEntity } from 'bitecs';
import { describe, expect, it } from 'vitest';
import { CollideInputError } from '../../src/errors';
import { SHAPE_KDOP, SHAPE_NONE, SHAPE_OBB, SHAPE_STRIDE } from '../../components/collider';
import { addCollider, markTransformChanged, removeCollider, setTransform, type ColliderDescription } from '../../systems/colliderApi';
import { createCollisionPipeline } from '../../systems/pipeline';
import { resolveBroadPhase } from '../../systems/broadPhaseNames';
import { addKdopCollider } from '../../systems/kdopCollider';
import { refitVolumes } from '../../systems/refitVolumes';
import { KDOP_DIRECTIONS } from '../../src/volumes/kdop';
import { mulberry32, quaternionToAxes, randomQuaternion } from '../../scenes/random';

describe('stores', () => {
  it('grow on demand past the initial capacity, keeping earlier data', () => {
    const world = createWorld();
    const p = createCollisionPipeline(world);
    const eids: number[] = [];
    for (let i = 0; i < 3000; i++) eids.push(addEntity(world));
    for (const e of eids) {
      addCollider(world, e, { shape: 'sphere', radius: 1 + (e % 7) });
      setTransform(world, e, [e, 2 * e, -e]);
    }
    p.step(world);
    expect(p.collider.capacity).toBeGreaterThan(Math.max(...eids));
    for (const e of eids) {
      expect(p.transform.position[3 * e + 1]).toBe(2 * e);
      expect(p.collider.world[SHAPE_STRIDE * e + 3]).toBe(1 + (e % 7));
      expect(p.collider.aabb[6 * e]).toBeLessThanOrEqual(e - 1 - (e % 7));
      expect(p.collider.aabb[6 * e + 3]).toBeGreaterThanOrEqual(e + 1 + (e % 7));
    }
  });

  it('a removed entity loses its Transform component, and its recycled id gets it back from setTransform', () => {
    const world = createWorld();
    const p = createCollisionPipeline(world);
    const removed: number[] = [];
    for (let round = 0; round < 3; round++) {
      const e = addEntity(world);
      setTransform(world, e, [round, 0, 0]);
      expect(hasComponent(world, e, p.transform)).toBe(true);
      removeEntity(world, e);
      expect(hasComponent(world, e, p.transform)).toBe(false);
      removed.push(e);
    }
    // bitecs hands removed ids out again: each must get the component anew.
    for (let k = 0; k < 3; k++) {
      const e = addEntity(world);
      setTransform(world, e, [0, k, 0]);
      expect(hasComponent(world, e, p.transform)).toBe(true);
    }
    expect(removed.length).toBe(3);
  });

  it('are per world: two worlds with pipelines do not share colliders', () => {
    const w1 = createWorld(), w2 = createWorld();
    const p1 = createCollisionPipeline(w1), p2 = createCollisionPipeline(w2);
    const a = addEntity(w1), b = addEntity(w1), c = addEntity(w2);
    addCollider(w1, a, { shape: 'sphere', radius: 1 });
    addCollider(w1, b, { shape: 'sphere', radius: 1 });
    addCollider(p2, c, { shape: 'sphere', radius: 1 });
    p1.step(w1);
    p2.step(w2);
    expect(p1.touchingPairs.count).toBe(1);
    expect(p2.touchingPairs.count).toBe(0);
    expect(hasComponent(w1, a, p1.collider)).toBe(true);
    expect(hasComponent(w2, c, p2.collider)).toBe(true);
    expect(() => createCollisionPipeline(w1)).toThrow(CollideInputError);
    p1.destroy();
    expect(() => createCollisionPipeline(w1)).not.toThrow();
  });

  it('only entities marked changed are refitted; direct writes need markTransformChanged', () => {
    const world = createWorld();
    const p = createCollisionPipeline(world);
    const e = addEntity(world);
    addCollider(world, e, { shape: 'obb', halfExtents: [1, 2, 3] });
    setTransform(world, e, [5, 0, 0]);
    refitVolumes(world);
    expect(p.collider.world[SHAPE_STRIDE * e]).toBe(5);
    p.transform.position[3 * e] = 7; // direct write, unmarked: not refitted
    refitVolumes(world);
    expect(p.collider.world[SHAPE_STRIDE * e]).toBe(5);
    markTransformChanged(world, e);
    markTransformChanged(world, e); // marking twice queues once
    expect(p.transform.changedCount).toBe(1);
    refitVolumes(world);
    expect(p.collider.world[SHAPE_STRIDE * e]).toBe(7);
    expect(p.transform.changedCount).toBe(0);
  });

  it('world volumes follow the transform: OBB axes, scale, and boxes containing the Float32 shapes', () => {
    const rand = mulberry32(8);
    const world = createWorld();
    const p = createCollisionPipeline(world);
    for (let n = 0; n < 200; n++) {
      const e = addEntity(world);
      const q = randomQuaternion(rand), lq = randomQuaternion(rand);
      const s = 0.25 + 3 * rand();
      const pos = [1e4 * (rand() - 0.5), 1e4 * (rand() - 0.5), rand()];
      const h = [rand() * 2, rand() * 2, rand() * 2];
      addCollider(world, e, { shape: 'obb', halfExtents: h, center: [1, -2, 0.5], rotation: lq });
      setTransform(world, e, pos, q, s);
      refitVolumes(world);
      expect(p.collider.kind[e]).toBe(SHAPE_OBB);
      const w = p.collider.world, o = SHAPE_STRIDE * e;
      const R = quaternionToAxes(Array.from(p.transform.rotation.subarray(4 * e, 4 * e + 4)));
      const L = quaternionToAxes(lq);
      const sf = p.transform.scale[e];
      for (let k = 0; k < 3; k++) {
        expect(w[o + 12 + k]).toBeCloseTo(sf * h[k], 4);
        // Axis k = R * local axis k.
        for (let i = 0; i < 3; i++) {
          const expected = R[i] * L[3 * k] + R[3 + i] * L[3 * k + 1] + R[6 + i] * L[3 * k + 2];
          expect(Math.abs(w[o + 3 + 3 * k + i] - expected)).toBeLessThan(1e-6);
        }
      }
      // Every corner of the stored box lies inside the stored broad-phase box.
      for (let c = 0; c < 8; c++) {
        for (let i = 0; i < 3; i++) {
          let x = w[o + i];
          for (let k = 0; k < 3; k++) x += (c & (1 << k) ? 1 : -1) * w[o + 12 + k] * w[o + 3 + 3 * k + i];
          expect(x).toBeGreaterThanOrEqual(p.collider.aabb[6 * e + i]);
          expect(x).toBeLessThanOrEqual(p.collider.aabb[6 * e + 3 + i]);
        }
      }
    }
  });

  it('a box collider replaced by an offset or rotated one (and back) refits by its current local box', () => {
    const world = createWorld();
    const p = createCollisionPipeline(world);
    const e = addEntity(world);
    const q = [0, Math.SQRT1_2, 0, Math.SQRT1_2]; // 90 degrees about y: local x maps to world -z
    const descriptions = [
      { shape: 'obb' as const, halfExtents: [1, 2, 3] },
      { shape: 'obb' as const, halfExtents: [1, 2, 3], center: [4, 0, 0] },
      { shape: 'obb' as const, halfExtents: [1, 2, 3], rotation: [0, 0, Math.SQRT1_2, Math.SQRT1_2] },
      { shape: 'obb' as const, halfExtents: [1, 2, 3] },
    ];
    const expectedCentre = [[10, 0, 0], [10, 0, -4], [10, 0, 0], [10, 0, 0]];
    // World axis 0: R * local axis 0, local axis 0 being x, or y under the local 90 degrees about z.
    const expectedAxis0 = [[0, 0, -1], [0, 0, -1], [0, 1, 0], [0, 0, -1]];
    descriptions.forEach((desc, i) => {
      addCollider(world, e, desc);
      setTransform(world, e, [10, 0, 0], q);
      refitVolumes(world);
      const w = p.collider.world, o = SHAPE_STRIDE * e;
      for (let k = 0; k < 3; k++) {
        expect(w[o + k]).toBeCloseTo(expectedCentre[i][k], 5);
        expect(w[o + 3 + k]).toBeCloseTo(expectedAxis0[i][k], 5);
      }
    });
  });

  it('k-DOP pairs: exactly the pairs whose k-DOPs (built independently for every shape) overlap', () => {
    const rand = mulberry32(21);
    const world = createWorld();
    const k = 14;
    const p = createCollisionPipeline(world, { kdopK: k });
    const dirs = KDOP_DIRECTIONS[k];
    const slabs: number[][] = [];
    const eids: number[] = [];
    for (let n = 0; n < 90; n++) {
      const e = addEntity(world);
      const pos = [6 * rand(), 6 * rand(), 6 * rand()];
      const q = randomQuaternion(rand);
      const R = quaternionToAxes(q);
      const rot = (x: number[]) => [0, 1, 2].map((r) => R[r] * x[0] + R[3 + r] * x[1] + R[6 + r] * x[2]);
      // World points (or centre points) and a radius whose slabs widen by r|d|.
      let worldPoints: number[][];
      let r = 0;
      if (n % 3 === 0) {
        const pts = Array.from({ length: 18 }, () => 2 * rand() - 1);
        addKdopCollider(world, e, pts);
        worldPoints = [0, 1, 2, 3, 4, 5].map((v) => rot(pts.slice(3 * v, 3 * v + 3)).map((x, i) => x + pos[i]));
      } else if (n % 3 === 1) {
        r = 0.3 + rand();
        addCollider(world, e, { shape: 'sphere', radius: r });
        worldPoints = [pos];
      } else {
        const h = [0.2 + rand(), 0.2 + rand(), 0.2 + rand()];
        addCollider(world, e, { shape: 'obb', halfExtents: h });
        worldPoints = [];
        for (let c = 0; c < 8; c++) worldPoints.push(rot(h.map((v, i) => (c & (1 << i) ? v : -v))).map((x, i) => x + pos[i]));
      }
      setTransform(world, e, pos, q);
      const slab: number[] = [];
      for (let i = 0; i < k / 2; i++) {
        const d = [dirs[3 * i], dirs[3 * i + 1], dirs[3 * i + 2]];
        const proj = worldPoints.map((x) => x[0] * d[0] + x[1] * d[1] + x[2] * d[2]);
        const w = r * Math.hypot(d[0], d[1], d[2]);
        slab.push(Math.min(...proj) - w, Math.max(...proj) + w);
      }
      slabs.push(slab);
      eids.push(e);
    }
    p.step(world);
    const got = new Set<string>();
    for (let i = 0; i < p.touchingPairs.count; i++) got.add(`${p.touchingPairs.a[i]},${p.touchingPairs.b[i]}`);
    let checked = 0, positives = 0;
    for (let i = 0; i < eids.length; i++) {
      for (let j = i + 1; j < eids.length; j++) {
        if (i % 3 !== 0 && j % 3 !== 0) continue; // pairs without a k-DOP are covered elsewhere
        // Smallest slab overlap (negative: a gap); skip pairs within Float32 rounding of touching.
        let overlap = Infinity;
        for (let s = 0; s < k / 2; s++) {
          overlap = Math.min(overlap, Math.min(slabs[i][2 * s + 1], slabs[j][2 * s + 1]) - Math.max(slabs[i][2 * s], slabs[j][2 * s]));
        }
        if (Math.abs(overlap) < 1e-4) continue;
        checked++;
        if (overlap > 0) positives++;
        expect(got.has(`${eids[i]},${eids[j]}`), `pair ${i},${j}`).toBe(overlap > 0);
      }
    }
    expect(checked).toBeGreaterThan(1000);
    expect(positives).toBeGreaterThan(30);
    expect(p.contacts.count).toBeGreaterThan(0);
    for (let i = 0; i < p.contacts.count; i++) {
      expect(p.collider.kind[p.contacts.a[i]] !== SHAPE_KDOP && p.collider.kind[p.contacts.b[i]] !== SHAPE_KDOP).toBe(true);
    }
  });

  it('k-DOP colliders: world k-DOP of the transformed, scaled points', () => {
    const world = createWorld();
    const p = createCollisionPipeline(world, { kdopK: 26 });
    const points = [0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1];
    const a = addEntity(world), b = addEntity(world), c = addEntity(world);
    addKdopCollider(world, a, points);
    addKdopCollider(world, b, points);
    addCollider(world, c, { shape: 'sphere', radius: 0.5 });
    const q = [0, 0, Math.sin(0.3), Math.cos(0.3)];
    setTransform(world, a, [0, 0, 0], q, 2);
    // b's tetrahedron: corner at the origin side faces a's slanted face across the (1,1,1) slab.
    setTransform(world, b, [1.2, 1.2, 1.2]);
    setTransform(world, c, [-0.5, -0.5, -0.5]);
    p.step(world);
    expect(p.collider.kind[a]).toBe(SHAPE_KDOP);
    // Independent world k-DOP of a: transform the points, project on each direction.
    const R = quaternionToAxes(p.transform.rotation.subarray(4 * a, 4 * a + 4));
    const dirs = KDOP_DIRECTIONS[26];
    for (let i = 0; i < 13; i++) {
      let lo = Infinity, hi = -Infinity;
      for (let v = 0; v < 4; v++) {
        const x = points.slice(3 * v, 3 * v + 3);
        const wx = [0, 1, 2].map((r) => 2 * (R[r] * x[0] + R[3 + r] * x[1] + R[6 + r] * x[2]));
        const d = wx[0] * dirs[3 * i] + wx[1] * dirs[3 * i + 1] + wx[2] * dirs[3 * i + 2];
        lo = Math.min(lo, d);
        hi = Math.max(hi, d);
      }
      expect(p.collider.kdop[26 * a + i]).toBeCloseTo(lo, 5);
      expect(p.collider.kdop[26 * a + 13 + i]).toBeCloseTo(hi, 5);
    }
    void b;
    void c;
    expect(p.contacts.count).toBe(0); // k-DOP pairs carry no manifold
  });
});

describe('bad input', () => {
  const world = createWorld();
  const p = createCollisionPipeline(world);
  const e = addEntity(world);
  addCollider(world, e, { shape: 'sphere', radius: 1 });
  const cases: [string, () => void, RegExp][] = [
    ['NaN position', () => setTransform(world, e, [0, NaN, 0]), new RegExp(`entity ${e}\\)\\.position: value 1 is not finite`)],
    ['infinite position', () => setTransform(world, e, [Infinity, 0, 0]), /position: value 0 is not finite/],
    ['zero quaternion', () => setTransform(world, e, [0, 0, 0], [0, 0, 0, 0]), /rotation must be a non-zero quaternion/],
    ['NaN quaternion', () => setTransform(world, e, [0, 0, 0], [0, NaN, 0, 1]), /rotation: value 1 is not finite/],
    ['zero scale', () => setTransform(world, e, [0, 0, 0], [0, 0, 0, 1], 0), /scale must be a finite number > 0, got 0/],
    ['negative scale', () => setTransform(world, e, [0, 0, 0], [0, 0, 0, 1], -2), /scale must be a finite number > 0/],
    ['short position', () => setTransform(world, e, [0, 0]), /position must hold 3 numbers/],
    ['missing rotation entry', () => setTransform(world, e, [0, 0, 0], [0, 0, 1]), /rotation must hold 4 numbers/],
    ['infinite scale', () => setTransform(world, e, [0, 0, 0], [0, 0, 0, 1], Infinity), /scale must be a finite number > 0, got Infinity/],
    ['quaternion too long to normalise', () => setTransform(world, e, [0, 0, 0], [1.5e308, 1.5e308, 0, 0]), /rotation must be a non-zero quaternion, got length Infinity/],
    ['quaternion too short to normalise', () => setTransform(world, e, [0, 0, 0], [0, 0, 0, 1e-330]), /rotation must be a non-zero quaternion, got length 0/],
    ['negative radius', () => addCollider(world, e, { shape: 'sphere', radius: -1 }), new RegExp(`addCollider\\(entity ${e}\\)\\.radius must be a finite number >= 0`)],
    ['negative half-extent', () => addCollider(world, e, { shape: 'obb', halfExtents: [1, -0.5, 1] }), /halfExtents: extent 1 is negative/],
    ['AABB min > max', () => addCollider(world, e, { shape: 'aabb', min: [0, 2, 0], max: [1, 1, 1] }), /min\[1\] = 2 exceeds max\[1\] = 1/],
    ['NaN capsule end', () => addCollider(world, e, { shape: 'capsule', p0: [0, 0, 0], p1: [0, NaN, 0], radius: 1 }), /p1: value 1 is not finite/],
    ['empty k-DOP', () => addKdopCollider(world, e, []), /points: the point set is empty/],
    ['k-DOP through addCollider', () => addCollider(world, e, { shape: 'kdop', points: [0, 0, 0] } as never), /k-DOP colliders are added with addKdopCollider/],
    ['ragged k-DOP points', () => addKdopCollider(world, e, [1, 2]), /points must be xyz triples/],
    ['unknown shape', () => addCollider(world, e, { shape: 'cone' } as unknown as ColliderDescription), /shape must be 'sphere'/],
    ['layer out of range', () => addCollider(world, e, { shape: 'sphere', radius: 1, layer: 2 ** 32 }), /layer must be a uint32/],
    ['dead entity', () => addCollider(world, 12345, { shape: 'sphere', radius: 1 }), /entity 12345 does not exist/],
    ['id out of range', () => setTransform(world, 2 ** 24, [0, 0, 0]), /not an integer id in \[0, 2\^24\)/],
    ['world without pipeline', () => addCollider(createWorld(), 0, { shape: 'sphere', radius: 1 }), /no collision pipeline/],
    ['broad phase by name', () => createCollisionPipeline(createWorld(), { broadPhase: 'sap' as never }), /broadPhase takes an instance, e\.g\. createSweepAndPrune\(\).*resolveBroadPhase\('sap'\)/],
    ['not a broad phase', () => createCollisionPipeline(createWorld(), { broadPhase: {} as never }), /broadPhase must be a broad-phase instance/],
    ['unknown broad phase name', () => resolveBroadPhase('quadtree' as never), /unknown algorithm 'quadtree'; known: sap, /],
    ['inherited name', () => resolveBroadPhase('toString' as never), /unknown algorithm 'toString'/],
    ['mesh through addCollider', () => addCollider(world, e, { shape: 'mesh' } as never), /mesh colliders are added with addMeshCollider/],
    ['negative margin', () => createCollisionPipeline(createWorld(), { aabbMargin: -1 }), /aabbMargin must be a finite number >= 0/],
  ];
  for (const [name, run, message] of cases) {
    it(`${name} -> CollideInputError`, () => {
      expect(run).toThrow(CollideInputError);
      expect(run).toThrow(message);
    });
  }

  it('quaternions of extreme but representable length are normalised exactly', () => {
    for (const q of [[0, 3e200, 0, 4e200], [0, 3e-200, 0, 4e-200], [0, 0.6, 0, 0.8]]) {
      setTransform(world, e, [1, 2, 3], q);
      expect(Array.from(p.transform.rotation.subarray(4 * e, 4 * e + 4))).toEqual([0, Math.fround(0.6), 0, Math.fround(0.8)]);
    }
  });

  it('a rejected pose leaves the stored transform unchanged', () => {
    setTransform(world, e, [1, 2, 3]);
    const before = [...p.transform.position.subarray(3 * e, 3 * e + 3), ...p.transform.rotation.subarray(4 * e, 4 * e + 4)];
    expect(() => setTransform(world, e, [5, 5, NaN], [0, 1, 0, 0])).toThrow(CollideInputError);
    expect([...p.transform.position.subarray(3 * e, 3 * e + 3), ...p.transform.rotation.subarray(4 * e, 4 * e + 4)]).toEqual(before);
  });

  it('a rejected description leaves the existing collider unchanged', () => {
    const before = p.collider.local.slice(SHAPE_STRIDE * e, SHAPE_STRIDE * (e + 1));
    expect(() => addCollider(world, e, { shape: 'aabb', min: [0, 0, 0], max: [1, -1, 1] })).toThrow(CollideInputError);
    expect(p.collider.local.slice(SHAPE_STRIDE * e, SHAPE_STRIDE * (e + 1))).toEqual(before);
    expect(p.collider.kind[e]).toBe(0);
  });

  it('setTransform on an entity removed after its first pose throws, as for any dead entity', () => {
    const f = addEntity(world);
    addCollider(world, f, { shape: 'obb', halfExtents: [1, 1, 1] });
    setTransform(world, f, [1, 2, 3]);
    removeEntity(world, f);
    const pose = () => setTransform(world, f, [4, 5, 6]);
    expect(pose).toThrow(CollideInputError);
    expect(pose).toThrow(new RegExp(`setTransform: entity ${f} does not exist`));
  });

  it('setTransform rejects a non-number id even for an entity that already holds a pose', () => {
    const f = addEntity(world);
    setTransform(world, f, [1, 2, 3]);
    const pose = () => setTransform(world, String(f) as unknown as number, [4, 5, 6]);
    expect(pose).toThrow(CollideInputError);
    expect(pose).toThrow(/is not an integer id/);
    expect(Array.from(p.transform.position.subarray(3 * f, 3 * f + 3))).toEqual([1, 2, 3]);
  });

  it('removing twice, or removing a removed entity, is a defined no-op', () => {
    const f = addEntity(world);
    addCollider(world, f, { shape: 'sphere', radius: 1 });
    expect(removeCollider(world, f)).toBe(true);
    expect(removeCollider(world, f)).toBe(false);
    expect(p.collider.kind[f]).toBe(SHAPE_NONE);
    removeEntity(world, f);
    expect(removeCollider(world, f)).toBe(false);
  });
});
