import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { buildBoundingTree, type BoundingTreeOptions } from '../../src/tree/build';
import { POSE_STRIDE, poseFromTranslationQuaternion } from '../../src/tree/pose';
import { TreeQueryResult } from '../../src/tree/queryResult';
import { shapecastTree, type ShapeCastMover } from '../../src/tree/shapecastTree';
import { castSphereTriangle } from '../../src/query/shapeCast';
import { castCapsuleTriangle } from '../../src/query/shapeCastCapsule';
import { castObbTriangle } from '../../src/query/shapeCastBox';
import { SHAPE_CAST_HIT_STRIDE } from '../../src/query/shapeCastHit';
import { mulberry32, quaternionToAxes, randomQuaternion } from '../../scenes/random';
import { torusKnot } from '../../scenes/torusKnot';
import { triangulatedFloor } from '../../scenes/floors';

const VARIANTS: BoundingTreeOptions[] = [{ kind: 'obb' }, { kind: 'aabb' }, { kind: 'sphere' }, { kind: 'obb', maxLeafTriangles: 8 }];
const KINDS: ShapeCastMover[] = ['sphere', 'capsule', 'obb'];

function worldTriangles(positions: ArrayLike<number>, indices: ArrayLike<number>, pose: ArrayLike<number>): Float64Array {
  const n = indices.length / 3, out = new Float64Array(9 * n);
  for (let t = 0; t < n; t++) {
    for (let k = 0; k < 3; k++) {
      const v = 3 * indices[3 * t + k];
      const x = positions[v], y = positions[v + 1], z = positions[v + 2];
      for (let i = 0; i < 3; i++) out[9 * t + 3 * k + i] = pose[i] + pose[3 + i] * x + pose[6 + i] * y + pose[9 + i] * z;
    }
  }
  return out;
}

const hit = new Float64Array(SHAPE_CAST_HIT_STRIDE);

/** The triangle kernel of `kind` in the world frame. */
function castTriangle(kind: ShapeCastMover, mover: Float64Array, d: number[], maxT: number, w: Float64Array, t: number): boolean {
  if (kind === 'sphere') return castSphereTriangle(hit, 0, mover[0], mover[1], mover[2], mover[3], d[0], d[1], d[2], maxT, w, 9 * t);
  if (kind === 'capsule') return castCapsuleTriangle(hit, 0, mover, 0, d[0], d[1], d[2], maxT, w, 9 * t);
  return castObbTriangle(hit, 0, mover, 0, d[0], d[1], d[2], maxT, w, 9 * t);
}

describe('shapecastTree', () => {
  const floor = triangulatedFloor(8, { pattern: 'random-diagonal' }, mulberry32(3));
  const meshes = [torusKnot({ tubularSegments: 48, radialSegments: 8 }), { ...floor, triangleCount: floor.indices.length / 3 }];

  it('equals the first hit over every triangle (brute force), for every mover and node kind', () => {
    const result = new TreeQueryResult();
    let hits = 0, casts = 0, pruned = 0;
    for (const mesh of meshes) {
      const trees = VARIANTS.map((v) => buildBoundingTree(mesh.positions, mesh.indices, v));
      let size = 0;
      for (let i = 0; i < mesh.positions.length; i++) size = Math.max(size, Math.abs(mesh.positions[i]));
      fc.assert(
        fc.property(fc.integer(), fc.constantFrom(...KINDS), fc.constantFrom(0, 1e5), (seed, kind, offset) => {
          const rand = mulberry32(seed);
          const pose = poseFromTranslationQuaternion(new Float64Array(POSE_STRIDE), 0,
            offset + (rand() - 0.5) * size, offset + (rand() - 0.5) * size, offset, randomQuaternion(rand)) as Float64Array;
          const w = worldTriangles(mesh.positions, mesh.indices, pose);
          const c = [0, 1, 2].map((i) => pose[i] + (rand() - 0.5) * 4 * size);
          const v = Math.floor(rand() * mesh.triangleCount * 3);
          const d = [0, 1, 2].map((i) => 1.2 * (w[3 * v + i] - c[i]) + (rand() - 0.5) * 0.1 * size);
          const r = size * (0.01 + 0.1 * rand());
          let mover: Float64Array;
          if (kind === 'sphere') mover = new Float64Array([...c, r]);
          else if (kind === 'capsule') mover = new Float64Array([...c, ...c.map((x) => x + (rand() - 0.5) * 0.3 * size), r]);
          else mover = new Float64Array([...c, ...quaternionToAxes(randomQuaternion(rand)), r, 0.5 * r + rand() * r, 2 * r * rand()]);
          const maxT = rand() < 0.2 ? 0.5 : 1;
          let best = maxT, bestTri = -1;
          const ref = new Float64Array(SHAPE_CAST_HIT_STRIDE);
          for (let t = 0; t < mesh.triangleCount; t++) {
            if (castTriangle(kind, mover, d, best, w, t) && (hit[0] < best || bestTri < 0)) {
              best = hit[0];
              bestTri = t;
              ref.set(hit);
            }
          }
          casts++;
          if (bestTri >= 0) hits++;
          const tol = 1e-9 * (size + Math.hypot(d[0], d[1], d[2])) / Math.max(1e-300, Math.hypot(d[0], d[1], d[2])) + 1e-12 * offset;
          for (const tree of trees) {
            const got = shapecastTree(result, tree, pose, 0, kind, mover, 0, d[0], d[1], d[2], maxT);
            pruned += mesh.triangleCount - result.triangleTests;
            expect(got).toBe(bestTri >= 0);
            if (!got) continue;
            const h = result.shapeHit;
            expect(Math.abs(h[0] - best)).toBeLessThanOrEqual(1e-7 + tol);
            if (result.shapeTriangle !== bestTri) {
              // A tie: the tree's triangle is hit at the same t, and it has the lower index when exactly tied.
              expect(castTriangle(kind, mover, d, 1, w, result.shapeTriangle)).toBe(true);
              expect(Math.abs(hit[0] - best)).toBeLessThanOrEqual(1e-7 + tol);
            }
            expect(Math.hypot(h[1], h[2], h[3])).toBeCloseTo(1, 9);
            if (h[0] > 0) expect(h[1] * d[0] + h[2] * d[1] + h[3] * d[2]).toBeLessThanOrEqual(1e-9 * Math.hypot(...d));
            // The world point matches the brute force's when the same triangle decides.
            if (result.shapeTriangle === bestTri) {
              for (let i = 4; i < 7; i++) expect(Math.abs(h[i] - ref[i])).toBeLessThanOrEqual(1e-6 * size + 1e-12 * offset);
            }
          }
        }),
        { numRuns: 60, endOnFailure: true },
      );
    }
    expect(hits).toBeGreaterThan(casts / 3);
    expect(hits).toBeLessThan(casts);
    // The descent prunes: most triangles are never tested.
    expect(pruned).toBeGreaterThan(0);
  });

  it('ties on t go to the lowest triangle index', () => {
    // Two coincident triangles (indices 0 and 1) and a third behind them.
    const positions = new Float64Array([0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, -1, 1, 0, -1, 0, 1, -1]);
    const indices = new Uint32Array([0, 1, 2, 0, 2, 1, 3, 4, 5]);
    const tree = buildBoundingTree(positions, indices);
    const pose = poseFromTranslationQuaternion(new Float64Array(POSE_STRIDE), 0, 0, 0, 0, [0, 0, 0, 1]) as Float64Array;
    const result = new TreeQueryResult();
    expect(shapecastTree(result, tree, pose, 0, 'sphere', new Float64Array([0.2, 0.2, 2, 0.5]), 0, 0, 0, -4, 1)).toBe(true);
    expect(result.shapeTriangle).toBe(0);
    expect(result.shapeHit[0]).toBeCloseTo(1.5 / 4, 12);
    expect(Array.from(result.shapeHit.subarray(1, 7))).toEqual([0, 0, 1, 0.2, 0.2, 0]);
  });
});
