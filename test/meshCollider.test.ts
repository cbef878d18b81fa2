// Mesh colliders in the pipeline: a static torus knot and a moving copy sharing its tree, among
// moving spheres, boxes and capsules. Every frame, the touching pairs that involve a mesh must
// equal a brute force over the mesh's world triangles with simple per-triangle tests.
import { addEntity, createWorld } from 'bitecs';
import { describe, expect, it } from 'vitest';
import { buildBoundingTree } from '../src/boundingTree';
import { closestPtPointTriangle } from '../src/closestPoints';
import { CollideInputError } from '../src/errors';
import { obbContainsPoint, obbCorners } from '../src/obb';
import { quaternionToMat3 } from '../src/aabb';
import { triTriOverlap } from '../src/triTri';
import { addCollider, createCollisionPipeline, markTransformChanged, setTransform } from '../systems/index';
import { mulberry32, randomQuaternion } from './support/random';
import { torusKnot } from './support/torusKnot';

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
    addCollider(world, level, { shape: 'mesh', tree, isStatic: true });
    setTransform(world, level, [0, 0, 0], [0, 0, 0, 1]);
    const mover = addEntity(world);
    addCollider(world, mover, { shape: 'mesh', tree });
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
        const a = pairs.first[i], b = pairs.second[i];
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

  it('rejects a missing tree, a non-OBB tree and scaled mesh transforms', () => {
    const world = createWorld();
    const collision = createCollisionPipeline(world);
    const eid = addEntity(world);
    expect(() => addCollider(world, eid, { shape: 'mesh', tree: undefined as never })).toThrow(CollideInputError);
    const aabbTree = buildBoundingTree(knot.positions, knot.indices, { kind: 'aabb' });
    expect(() => addCollider(world, eid, { shape: 'mesh', tree: aabbTree })).toThrow(/OBB tree/);
    addCollider(world, eid, { shape: 'mesh', tree });
    expect(() => setTransform(world, eid, [0, 0, 0], [0, 0, 0, 1], 2)).toThrow(/scale/);
    collision.transform.scale[eid] = 2; // a direct write, then the change notice
    expect(() => markTransformChanged(world, eid)).toThrow(/scale 1/);
    const scaled = addEntity(world);
    setTransform(world, scaled, [0, 0, 0], [0, 0, 0, 1], 2);
    expect(() => addCollider(world, scaled, { shape: 'mesh', tree })).toThrow(/scale/);
  });
});
