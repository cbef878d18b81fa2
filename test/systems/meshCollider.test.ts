// Mesh colliders in the pipeline: a static torus knot and a moving copy sharing its tree, among
// moving spheres, boxes and capsules. Every frame, the touching pairs that involve a mesh must
// equal a brute force over the mesh's world triangles with simple per-triangle tests.
import { addEntity, createWorld } from 'bitecs';
import { describe, expect, it } from 'vitest';
import { buildBoundingTree } from '../../src/tree/build';
import { closestPtPointTriangle } from '../../src/query/closestPoints';
import { CollideInputError } from '../../src/errors';
import { obbContainsPoint, obbCorners } from '../../src/volumes/obb';
import { POSE_STRIDE, poseFromTranslationQuaternion } from '../../src/tree/pose';
import { TreeQueryResult } from '../../src/tree/queryResult';
import { overlapTreeSphere } from '../../src/tree/overlapVolume';
import { quaternionToMat3 } from '../../src/rotation';
import { triTriOverlap } from '../../src/query/triTri';
import { SHAPE_STRIDE } from '../../components/collider';
import { addCollider, addMeshCollider, createCollisionPipeline, markTransformChanged, setTransform } from '../../systems/index';
import { mulberry32, randomQuaternion } from '../../scenes/random';
import { triangulatedFloor } from '../../scenes/floors';
import { manifoldOf, type Manifold } from '../support/manifolds';
import { torusKnot } from '../../scenes/torusKnot';

const knot = torusKnot({ radius: 4, tube: 1, tubularSegments: 48, radialSegments: 8 });
const tree = buildBoundingTree(knot.positions, knot.indices);

/** The knot's triangles moved by (position, quaternion), 9 numbers each. */
function worldTriangles(position: number[], q: number[]): Float64Array {
  const m = quaternionToMat3(new Float64Array(9), 0, q) as Float64Array;
  const out = new Float64Array(9 * knot.triangleCount);
  for (let t = 0; t < knot.triangleCount; t++) {
    for (let k = 0; k < 3; k++) {
      const v = 3 * knot.indices[3 * t + k];
      const x = knot.positions[v], y = knot.positions[v + 1], z = knot.positions[v + 2];
      for (let i = 0; i < 3; i++) out[9 * t + 3 * k + i] = position[i] + m[i] * x + m[3 + i] * y + m[6 + i] * z;
    }
  }
  return out;
}

const QUADS = [[0, 1, 3, 2], [4, 5, 7, 6], [0, 1, 5, 4], [2, 3, 7, 6], [0, 2, 6, 4], [1, 3, 7, 5]];

/** A triangle meets a closed box iff a vertex is inside it or it meets one of the 12 face triangles. */
function triangleMeetsBox(w: Float64Array, t: number, box: Float64Array): boolean {
  for (let k = 0; k < 3; k++) if (obbContainsPoint(box, 0, w[9 * t + 3 * k], w[9 * t + 3 * k + 1], w[9 * t + 3 * k + 2])) return true;
  const corners = obbCorners(new Float64Array(24), box, 0) as Float64Array;
  const face = new Float64Array(9);
  for (const q of QUADS) {
    for (const tri of [[q[0], q[1], q[2]], [q[0], q[2], q[3]]]) {
      tri.forEach((c, k) => face.set(corners.subarray(3 * c, 3 * c + 3), 3 * k));
      if (triTriOverlap(w, 9 * t, face, 0)) return true;
    }
  }
  return false;
}

type Body = { eid: number; kind: 'sphere' | 'obb' | 'capsule'; size: number; position: number[]; rotation: number[] };

/** Brute-force reference: does body touch the knot whose world triangles are w? */
function touchesMesh(body: Body, w: Float64Array): boolean {
  const closest = new Float64Array(3);
  const n = w.length / 9;
  if (body.kind === 'sphere') {
    for (let t = 0; t < n; t++) {
      if (closestPtPointTriangle(closest, 0, body.position[0], body.position[1], body.position[2], w, 9 * t) <= body.size ** 2) return true;
    }
    return false;
  }
  const m = quaternionToMat3(new Float64Array(9), 0, body.rotation) as Float64Array;
  if (body.kind === 'obb') {
    const box = new Float64Array(15);
    box.set(body.position, 0);
    box.set(m, 3);
    box.fill(body.size, 12);
    for (let t = 0; t < n; t++) if (triangleMeetsBox(w, t, box)) return true;
    return false;
  }
  // Capsule along local y, half-length = size, radius = size / 2, by sampling the segment; cases
  // within the sampling error of the radius are left out of the comparison (counted below).
  return capsuleDistance(body, m, w) <= body.size / 2;
}

/** Bound on the sampling error of capsuleDistance: half a sample step (size <= 1, 200 steps over 2·size). */
const CAPSULE_SAMPLING_ERROR = 0.006;

/** Distance from the capsule's segment to the triangles w, by sampling the segment finely. */
function capsuleDistance(body: Body, m: Float64Array, w: Float64Array): number {
  const closest = new Float64Array(3);
  const [cx, cy, cz] = body.position;
  let best = Infinity;
  const samples = 200;
  for (let t = 0; t < w.length / 9; t++) {
    // A triangle farther than half-length + radius from the centre is out of reach (exact cull).
    if (closestPtPointTriangle(closest, 0, cx, cy, cz, w, 9 * t) > (1.5 * body.size + 0.1) ** 2) continue;
    for (let s = 0; s <= samples; s++) {
      const u = -body.size + (2 * body.size * s) / samples;
      best = Math.min(best, Math.sqrt(closestPtPointTriangle(closest, 0, cx + m[3] * u, cy + m[4] * u, cz + m[5] * u, w, 9 * t)));
    }
  }
  return best;
}

describe('mesh colliders in the pipeline', () => {
  it('pairs with a static and a moving mesh equal the brute force over their triangles, every frame', () => {
    const rand = mulberry32(11);
    const world = createWorld();
    const collision = createCollisionPipeline(world);
    const level = addEntity(world);
    addMeshCollider(world, level, tree, { isStatic: true });
    setTransform(world, level, [0, 0, 0], [0, 0, 0, 1]);
    const mover = addEntity(world);
    addMeshCollider(world, mover, tree);
    const bodies: Body[] = [];
    for (let i = 0; i < 45; i++) {
      const kind = (['sphere', 'obb', 'capsule'] as const)[i % 3];
      const eid = addEntity(world);
      const size = 0.3 + 0.7 * rand();
      if (kind === 'sphere') addCollider(world, eid, { shape: 'sphere', radius: size });
      else if (kind === 'obb') addCollider(world, eid, { shape: 'obb', halfExtents: [size, size, size] });
      else addCollider(world, eid, { shape: 'capsule', p0: [0, -size, 0], p1: [0, size, 0], radius: size / 2 });
      bodies.push({ eid, kind, size, position: [0, 0, 0], rotation: [0, 0, 0, 1] });
    }
    let meshPairs = 0, moverPairs = 0, ambiguous = 0;
    for (let frame = 0; frame < 12; frame++) {
      const moverPosition = [-20 + 3 * frame, 2 * Math.sin(frame), 0];
      const moverRotation = randomQuaternion(rand);
      setTransform(world, mover, moverPosition, moverRotation);
      for (const body of bodies) {
        body.position = [(rand() - 0.5) * 14, (rand() - 0.5) * 14, (rand() - 0.5) * 4];
        body.rotation = randomQuaternion(rand);
        setTransform(world, body.eid, body.position, body.rotation);
      }
      collision.step(world);
      const got = new Set<string>();
      const pairs = collision.touchingPairs;
      for (let i = 0; i < pairs.count; i++) {
        const a = pairs.a[i], b = pairs.b[i];
        if (a === level || b === level || a === mover || b === mover) got.add(`${a}-${b}`);
      }
      const expected = new Set<string>();
      const levelTriangles = worldTriangles([0, 0, 0], [0, 0, 0, 1]);
      const moverTriangles = worldTriangles(moverPosition, moverRotation);
      const skipped = new Set<string>();
      for (const body of bodies) {
        for (const [mesh, w] of [[level, levelTriangles], [mover, moverTriangles]] as [number, Float64Array][]) {
          const key = `${Math.min(mesh, body.eid)}-${Math.max(mesh, body.eid)}`;
          if (body.kind === 'capsule') {
            const m = quaternionToMat3(new Float64Array(9), 0, body.rotation) as Float64Array;
            if (Math.abs(capsuleDistance(body, m, w) - body.size / 2) < CAPSULE_SAMPLING_ERROR) {
              skipped.add(key);
              continue;
            }
          }
          if (touchesMesh(body, w)) expected.add(key);
        }
      }
      for (const key of skipped) got.delete(key);
      ambiguous += skipped.size;
      let meshMesh = false;
      for (let s = 0; s < knot.triangleCount && !meshMesh; s++) {
        for (let t = 0; t < knot.triangleCount && !meshMesh; t++) meshMesh = triTriOverlap(levelTriangles, 9 * s, moverTriangles, 9 * t);
      }
      if (meshMesh) {
        expected.add(`${level}-${mover}`);
        moverPairs++;
      }
      expect([...got].sort()).toEqual([...expected].sort());
      meshPairs += expected.size;
    }
    expect(ambiguous).toBeLessThan(5); // capsule cases too close to call by sampling
    expect(meshPairs).toBeGreaterThan(20);
    expect(moverPairs).toBeGreaterThan(0);
    // The moving copy starts far from the level and crosses it: both outcomes occur.
    expect(moverPairs).toBeLessThan(12);
  });

  it('rejects a missing tree, a non-OBB tree, unknown options, meshes through addCollider and scaled mesh transforms', () => {
    const world = createWorld();
    const collision = createCollisionPipeline(world);
    const eid = addEntity(world);
    expect(() => addMeshCollider(world, eid, undefined as never)).toThrow(CollideInputError);
    const aabbTree = buildBoundingTree(knot.positions, knot.indices, { kind: 'aabb' });
    expect(() => addMeshCollider(world, eid, aabbTree)).toThrow(/OBB tree/);
    expect(() => addMeshCollider(world, eid, tree, { shape: 'mesh' } as never)).toThrow(/unknown option 'shape'/);
    expect(() => addCollider(world, eid, { shape: 'mesh', tree } as never)).toThrow(/mesh colliders are added with addMeshCollider/);
    expect(collision.meshKind).toBeUndefined(); // refused calls install nothing
    expect(collision.collider.slot[eid]).toBe(-1);
    addMeshCollider(world, eid, tree);
    expect(collision.meshKind).toBeDefined();
    expect(() => setTransform(world, eid, [0, 0, 0], [0, 0, 0, 1], 2)).toThrow(/scale/);
    collision.transform.scale[eid] = 2; // a direct write, then the change notice
    expect(() => markTransformChanged(world, eid)).toThrow(/scale 1/);
    const scaled = addEntity(world);
    setTransform(world, scaled, [0, 0, 0], [0, 0, 0, 1], 2);
    expect(() => addMeshCollider(world, scaled, tree)).toThrow(/scale/);
  });
});

describe('mesh colliders: contact manifolds', () => {
  // Every quad cut along the same diagonal (rand always 1: the (a, b, d), (b, c, d) cut).
  const floor = triangulatedFloor(8, { pattern: 'random-diagonal' }, () => 1);
  const floorTree = buildBoundingTree(floor.positions, floor.indices);
  const FLOOR_AT = [0.3, 1, -0.2]; // the floor entity's position: its surface is y = 1
  const floorWorld = new Float64Array(floor.indices.length * 3);
  for (let k = 0; k < floor.indices.length; k++) {
    for (let i = 0; i < 3; i++) floorWorld[3 * k + i] = floor.positions[3 * floor.indices[k] + i] + FLOOR_AT[i];
  }
  const closest = new Float64Array(6);
  const distanceToFloor = (p: number[]) => {
    let best = Infinity;
    for (let t = 0; t < floor.indices.length / 3; t++) best = Math.min(best, Math.sqrt(closestPtPointTriangle(closest, 0, p[0], p[1], p[2], floorWorld, 9 * t)));
    return best;
  };

  /**
   * Normal within 1e-6 of `n`, depth within 1e-5 of `depth`, `count` points (or a range), each
   * within 1e-4 of the body and the floor.
   */
  function expectContact(m: Manifold | undefined, n: number[], depth: number, count: number | [number, number], bodyDistance: (p: number[]) => number) {
    expect(m).toBeDefined();
    const { normal, points, depths } = m as Manifold;
    for (let k = 0; k < 3; k++) expect(Math.abs(normal[k] - n[k])).toBeLessThan(1e-6);
    expect(Math.abs((m as Manifold).depth - depth)).toBeLessThan(1e-5);
    if (typeof count === 'number') expect(points.length).toBe(count);
    else {
      expect(points.length).toBeGreaterThanOrEqual(count[0]);
      expect(points.length).toBeLessThanOrEqual(count[1]);
    }
    points.forEach((p, i) => {
      expect(bodyDistance(p)).toBeLessThan(1e-4);
      expect(distanceToFloor(p)).toBeLessThan(1e-4);
      expect(depths[i]).toBeLessThanOrEqual((m as Manifold).depth + 1e-7);
    });
  }

  function scene() {
    const world = createWorld();
    const collision = createCollisionPipeline(world);
    const before = addEntity(world); // an id below the floor's: its manifold's normal points down
    const level = addEntity(world);
    addMeshCollider(world, level, floorTree, { isStatic: true });
    setTransform(world, level, FLOOR_AT, [0, 0, 0, 1]);
    return { world, collision, before, level };
  }

  const boxDistance = (centre: number[], q: number[], half: number[]) => (p: number[]) => {
    const m = quaternionToMat3(new Float64Array(9), 0, q) as Float64Array;
    let d2 = 0;
    for (let k = 0; k < 3; k++) {
      const l = (p[0] - centre[0]) * m[3 * k] + (p[1] - centre[1]) * m[3 * k + 1] + (p[2] - centre[2]) * m[3 * k + 2];
      d2 += Math.max(0, Math.abs(l) - half[k]) ** 2;
    }
    return Math.sqrt(d2);
  };
  const sphereDistance = (centre: number[], r: number) => (p: number[]) => Math.max(0, Math.hypot(p[0] - centre[0], p[1] - centre[1], p[2] - centre[2]) - r);

  it('a face-down box, an AABB and a resting sphere get the floor normal, the depth and their points', () => {
    const { world, collision, before, level } = scene();
    const half = [0.5, 0.3, 0.4];
    const boxAt = [0.25, 1 + 0.3 - 1e-4, 0.1]; // straddles four quads: points merged and reduced to 4
    addCollider(world, before, { shape: 'obb', halfExtents: half });
    setTransform(world, before, boxAt, [0, 0, 0, 1]);
    const aabb = addEntity(world);
    addCollider(world, aabb, { shape: 'aabb', halfExtents: half });
    const aabbAt = [-2, 1 + 0.3 - 5e-5, 1.5];
    setTransform(world, aabb, aabbAt, [0, 0, 0, 1]);
    const sphere = addEntity(world);
    addCollider(world, sphere, { shape: 'sphere', radius: 0.5 });
    const sphereAt = [2.1, 1.5 - 3e-5, -1.3];
    setTransform(world, sphere, sphereAt, [0, 0, 0, 1]);
    collision.step(world);
    expectContact(manifoldOf(collision, before, level), [0, -1, 0], 1e-4, 4, boxDistance(boxAt, [0, 0, 0, 1], half));
    expectContact(manifoldOf(collision, level, aabb), [0, 1, 0], 5e-5, 4, boxDistance(aabbAt, [0, 0, 0, 1], half));
    expectContact(manifoldOf(collision, level, sphere), [0, 1, 0], 3e-5, 1, sphereDistance(sphereAt, 0.5));
  });

  // A contact along a line that crosses triangle edges keeps the points where it crosses them (up
  // to 4): the ends are always among them.
  const expectSpan = (m: Manifold | undefined, axis: number, lo: number, hi: number) => {
    const values = (m as Manifold).points.map((p) => p[axis]);
    expect(Math.abs(Math.min(...values) - lo)).toBeLessThan(1e-5);
    expect(Math.abs(Math.max(...values) - hi)).toBeLessThan(1e-5);
  };

  it('a tilted box rests on its lowest edge: points along it, its ends among them', () => {
    const { world, collision, before, level } = scene();
    const half = [0.5, 0.5, 0.5];
    const angle = 0.35, q = [0, 0, Math.sin(angle / 2), Math.cos(angle / 2)];
    // Lowest point of the box rotated about z: half·(sin + cos) below the centre.
    const drop = 0.5 * (Math.sin(angle) + Math.cos(angle));
    const at = [0.2, 1 + drop - 5e-5, 0.35];
    addCollider(world, before, { shape: 'obb', halfExtents: half });
    setTransform(world, before, at, q);
    collision.step(world);
    const m = manifoldOf(collision, before, level);
    expectContact(m, [0, -1, 0], 5e-5, [2, 4], boxDistance(at, q, half));
    expectSpan(m, 2, at[2] - 0.5, at[2] + 0.5);
  });

  it('a sphere on the edge shared by two triangles gets one point and the floor normal', () => {
    const { world, collision, before, level } = scene();
    // Over the diagonal of quad (0, 0): local (0.5, 0.5), where its two triangles meet.
    const at = [0.5 + FLOOR_AT[0], 1 + 0.25 - 1e-5, 0.5 + FLOOR_AT[2]];
    addCollider(world, before, { shape: 'sphere', radius: 0.25 });
    setTransform(world, before, at, [0, 0, 0, 1]);
    collision.step(world);
    expectContact(manifoldOf(collision, before, level), [0, -1, 0], 1e-5, 1, sphereDistance(at, 0.25));
  });

  it('a capsule lying on the floor gets points along it, its ends among them; sensors and mesh pairs get none', () => {
    const { world, collision, before, level } = scene();
    addCollider(world, before, { shape: 'capsule', p0: [-1, 0, 0], p1: [1, 0, 0], radius: 0.2 });
    const at = [0.1, 1.2 - 1e-5, 0.7];
    setTransform(world, before, at, [0, 0, 0, 1]);
    const sensor = addEntity(world);
    addCollider(world, sensor, { shape: 'sphere', radius: 0.5, sensor: true });
    setTransform(world, sensor, [-2, 1.2, -2], [0, 0, 0, 1]);
    const other = addEntity(world);
    addMeshCollider(world, other, floorTree);
    setTransform(world, other, [0.1, 1, 0.1], [0, 0, 0, 1]);
    collision.step(world);
    const capsule = (p: number[]) => {
      const x = Math.max(at[0] - 1, Math.min(at[0] + 1, p[0]));
      return Math.max(0, Math.hypot(p[0] - x, p[1] - at[1], p[2] - at[2]) - 0.2);
    };
    const m = manifoldOf(collision, before, level);
    expectContact(m, [0, -1, 0], 1e-5, [2, 4], capsule);
    expectSpan(m, 0, at[0] - 1, at[0] + 1);
    const pairs = collision.touchingPairs;
    const touching = new Set<string>();
    for (let i = 0; i < pairs.count; i++) touching.add(`${pairs.a[i]}-${pairs.b[i]}`);
    expect(touching).toContain(`${level}-${sensor}`);
    expect(touching).toContain(`${level}-${other}`);
    expect(manifoldOf(collision, level, sensor)).toBeUndefined();
    expect(manifoldOf(collision, level, other)).toBeUndefined();
  });

  it('bodies tumbling through the knot: finite manifolds, points near the body and the mesh, one per touching pair', () => {
    const rand = mulberry32(5);
    const world = createWorld();
    const collision = createCollisionPipeline(world);
    const level = addEntity(world);
    addMeshCollider(world, level, tree, { isStatic: true });
    setTransform(world, level, [0, 0, 0], [0, 0, 0, 1]);
    const w = worldTriangles([0, 0, 0], [0, 0, 0, 1]);
    const bodies: Body[] = [];
    const aabbs = new Set<number>(); // boxes added as AABBs: they ignore the rotation
    for (let i = 0; i < 40; i++) {
      const kind = (['sphere', 'obb', 'capsule'] as const)[i % 3];
      const eid = addEntity(world);
      const size = 0.3 + 0.7 * rand();
      if (kind === 'sphere') addCollider(world, eid, { shape: 'sphere', radius: size });
      else if (kind === 'obb' && i % 2 === 1) addCollider(world, eid, { shape: 'obb', halfExtents: [size, size, size] });
      else if (kind === 'obb') {
        addCollider(world, eid, { shape: 'aabb', halfExtents: [size, size, size] });
        aabbs.add(eid);
      } else addCollider(world, eid, { shape: 'capsule', p0: [0, -size, 0], p1: [0, size, 0], radius: size / 2 });
      bodies.push({ eid, kind, size, position: [0, 0, 0], rotation: [0, 0, 0, 1] });
    }
    let manifolds = 0;
    const near = new Float64Array(6);
    const meshDistance = (p: number[]) => {
      let best = Infinity;
      for (let t = 0; t < w.length / 9; t++) best = Math.min(best, closestPtPointTriangle(near, 0, p[0], p[1], p[2], w, 9 * t));
      return Math.sqrt(best);
    };
    for (let frame = 0; frame < 6; frame++) {
      for (const body of bodies) {
        body.position = [(rand() - 0.5) * 14, (rand() - 0.5) * 14, (rand() - 0.5) * 4];
        body.rotation = randomQuaternion(rand);
        setTransform(world, body.eid, body.position, body.rotation);
      }
      collision.step(world);
      for (const body of bodies) {
        const m = manifoldOf(collision, level, body.eid);
        const pairs = collision.touchingPairs;
        let touching = false;
        for (let i = 0; i < pairs.count; i++) touching ||= pairs.a[i] === level && pairs.b[i] === body.eid;
        expect(m !== undefined).toBe(touching);
        if (!m) continue;
        manifolds++;
        expect(Math.abs(Math.hypot(...m.normal) - 1)).toBeLessThan(1e-6);
        expect(m.points.length).toBeGreaterThan(0);
        expect(m.points.length).toBeLessThanOrEqual(4);
        expect(m.featureB).toBeLessThan(knot.triangleCount);
        // An AABB collider is the world box around its rotated local box: read it from the store.
        const wo = SHAPE_STRIDE * body.eid, ws = collision.collider.world;
        const aabbDistance = (p: number[]) => Math.hypot(...[0, 1, 2].map((k) => Math.max(0, ws[wo + k] - p[k], p[k] - ws[wo + 3 + k])));
        const distance = body.kind === 'sphere' ? sphereDistance(body.position, body.size)
          : aabbs.has(body.eid) ? aabbDistance
          : body.kind === 'obb' ? boxDistance(body.position, body.rotation, [body.size, body.size, body.size])
            : (p: number[]) => {
              const r = quaternionToMat3(new Float64Array(9), 0, body.rotation) as Float64Array;
              const t = Math.max(-body.size, Math.min(body.size, (p[0] - body.position[0]) * r[3] + (p[1] - body.position[1]) * r[4] + (p[2] - body.position[2]) * r[5]));
              return Math.max(0, Math.hypot(p[0] - body.position[0] - t * r[3], p[1] - body.position[1] - t * r[4], p[2] - body.position[2] - t * r[5]) - body.size / 2);
            };
        m.points.forEach((p, i) => {
          expect(m.depths[i]).toBeLessThanOrEqual(m.depth + 1e-6);
          expect(distance(p)).toBeLessThan(m.depths[i] + 1e-4);
          expect(meshDistance(p)).toBeLessThan(m.depths[i] + 1e-4);
        });
      }
    }
    expect(manifolds).toBeGreaterThan(30);
  });
});

describe('mesh colliders: a rigid pose from the Float32 rotation store', () => {
  it('places a vertex 1,000 units from the mesh origin where the rotation puts it, not 1e-4 off as the stored quaternion\'s own matrix does', () => {
    // A quaternion whose Float32 rounding (after normalising) has |q|² = 1 − 9.6e-8: its matrix
    // scales the mesh by about that much.
    const q = [0.06678310975639404, 0.5511271014964885, -0.5064594440208985, -0.659770994974307];
    const positions = [1000, 0, 0, 0, -1, 0, 0, 1, 0];
    const thin = buildBoundingTree(positions, [0, 1, 2]);
    const world = createWorld();
    const collision = createCollisionPipeline(world);
    const mesh = addEntity(world), sensor = addEntity(world);
    addMeshCollider(world, mesh, thin);
    setTransform(world, mesh, [0, 0, 0], q);
    // The rotation the store means: its Float32 quaternion normalised in doubles.
    const stored = Array.from(collision.transform.rotation.subarray(4 * mesh, 4 * mesh + 4));
    const norm = Math.hypot(...stored);
    expect(Math.abs(norm * norm - 1)).toBeGreaterThan(9e-8);
    const m = quaternionToMat3(new Float64Array(9), 0, stored.map((x) => x / norm)) as Float64Array;
    const tip = [m[0] * 1000, m[1] * 1000, m[2] * 1000];
    // A sphere beyond the tip, its centre as Float32 holds it, 5e-5 short of the tip.
    const centre = Array.from(Float32Array.from(tip.map((x, i) => x + 0.9 * m[i])));
    const w = new Float64Array(9);
    for (let k = 0; k < 3; k++) for (let i = 0; i < 3; i++) w[3 * k + i] = m[i] * positions[3 * k] + m[3 + i] * positions[3 * k + 1] + m[6 + i] * positions[3 * k + 2];
    const reference = Math.sqrt(closestPtPointTriangle(new Float64Array(6), 0, centre[0], centre[1], centre[2], w, 0));
    const radius = Math.fround(reference - 5e-5);
    expect(reference - radius).toBeGreaterThan(4e-5);
    addCollider(world, sensor, { shape: 'sphere', radius, sensor: true });
    setTransform(world, sensor, centre, [0, 0, 0, 1]);
    collision.step(world);
    const pairs = collision.touchingPairs;
    let touching = false;
    for (let i = 0; i < pairs.count; i++) touching ||= pairs.a[i] === mesh && pairs.b[i] === sensor;
    expect(touching).toBe(false);
    // The stored quaternion's own matrix (its transpose brings the sphere into the mesh frame)
    // moves the sphere about 1e-4 toward the tip: touching.
    const rawPose = poseFromTranslationQuaternion(new Float64Array(POSE_STRIDE), 0, 0, 0, 0, stored);
    const sphere = Float64Array.from([...centre, radius]);
    expect(overlapTreeSphere(new TreeQueryResult(), thin, rawPose, 0, sphere, 0, 'first')).toBe(1);
    // 2e-4 closer, the sphere touches the tip.
    setTransform(world, sensor, centre.map((x, i) => x - 2e-4 * m[i]), [0, 0, 0, 1]);
    collision.step(world);
    touching = false;
    for (let i = 0; i < pairs.count; i++) touching ||= pairs.a[i] === mesh && pairs.b[i] === sensor;
    expect(touching).toBe(true);
  });
});
