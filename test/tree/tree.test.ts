import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { buildBoundingTree, type BoundingTree, type BoundingTreeOptions } from '../../src/tree/build';
import { closestPtPointTriangle } from '../../src/query/closestPoints';
import { CollideInputError } from '../../src/errors';
import { MAX_COORDINATE } from '../../src/tolerances';
import { obbContainsPoint, obbCorners } from '../../src/volumes/obb';
import { POSE_STRIDE, poseFromTranslationQuaternion } from '../../src/tree/pose';
import { TreeQueryResult, type TreeBoxTest } from '../../src/tree/queryResult';
import { collideTrees } from '../../src/tree/collideTrees';
import { overlapTreeCapsule, overlapTreeObb, overlapTreeSphere } from '../../src/tree/overlapVolume';
import { raycastTree } from '../../src/tree/raycastTree';
import { raycastTriangle } from '../../src/query/raycast';
import { TRI_TRI_SEGMENT, triTriOverlap } from '../../src/query/triTri';
import { loadBunny, loadFox, type TestMesh } from '../../scenes/meshes';
import { nearParallelPair } from '../../scenes/nearParallelPairs';
import { mulberry32, quaternionToAxes, randomQuaternion } from '../../scenes/random';
import { torusKnot } from '../../scenes/torusKnot';
import { BAD_TREE_INPUTS } from '../support/badMeshes';

// ---- references and helpers (independent of the tree code) ----

/**
 * Vertex-clustering decimation: merges the vertices in each grid cell (`cells` per longest side)
 * into their mean and drops triangles collapsed to a point; triangles collapsed to a segment stay,
 * as zero-area triangles the tree must handle.
 */
function decimate(mesh: TestMesh, cells: number): TestMesh {
  const min = [Infinity, Infinity, Infinity], max = [-Infinity, -Infinity, -Infinity];
  for (let i = 0; i < mesh.vertexCount; i++) {
    for (let c = 0; c < 3; c++) {
      min[c] = Math.min(min[c], mesh.positions[3 * i + c]);
      max[c] = Math.max(max[c], mesh.positions[3 * i + c]);
    }
  }
  const cell = Math.max(max[0] - min[0], max[1] - min[1], max[2] - min[2]) / cells;
  const ids = new Map<string, number>();
  const sums: number[][] = [];
  const remap = new Int32Array(mesh.vertexCount);
  for (let i = 0; i < mesh.vertexCount; i++) {
    const key = [0, 1, 2].map((c) => Math.floor((mesh.positions[3 * i + c] - min[c]) / cell)).join(',');
    let id = ids.get(key);
    if (id === undefined) {
      id = sums.length;
      ids.set(key, id);
      sums.push([0, 0, 0, 0]);
    }
    for (let c = 0; c < 3; c++) sums[id][c] += mesh.positions[3 * i + c];
    sums[id][3]++;
    remap[i] = id;
  }
  const cellsOut: number[] = [];
  for (let t = 0; t < mesh.triangleCount; t++) {
    const a = remap[mesh.indices[3 * t]], b = remap[mesh.indices[3 * t + 1]], c = remap[mesh.indices[3 * t + 2]];
    const distinct = new Set([a, b, c]).size;
    if (distinct >= 2) cellsOut.push(a, b, c);
  }
  const positions = Float64Array.from(sums.flatMap((s) => [s[0] / s[3], s[1] / s[3], s[2] / s[3]]));
  return { name: `${mesh.name}/decimated`, positions, vertexCount: sums.length, indices: Uint32Array.from(cellsOut), triangleCount: cellsOut.length / 3 };
}

function makePose(rand: () => number, spread: number, offset = 0): Float64Array {
  const pose = new Float64Array(POSE_STRIDE);
  return poseFromTranslationQuaternion(
    pose, 0,
    offset + (rand() - 0.5) * spread, offset + (rand() - 0.5) * spread, offset + (rand() - 0.5) * spread,
    randomQuaternion(rand),
  ) as Float64Array;
}

/** Triangles of the mesh moved to the world by `pose`, 9 numbers each, in mesh order. */
function worldTriangles(mesh: TestMesh, pose: ArrayLike<number>): Float64Array {
  const out = new Float64Array(9 * mesh.triangleCount);
  for (let t = 0; t < mesh.triangleCount; t++) {
    for (let k = 0; k < 3; k++) {
      const v = 3 * mesh.indices[3 * t + k];
      const x = mesh.positions[v], y = mesh.positions[v + 1], z = mesh.positions[v + 2];
      for (let i = 0; i < 3; i++) out[9 * t + 3 * k + i] = pose[i] + pose[3 + i] * x + pose[6 + i] * y + pose[9 + i] * z;
    }
  }
  return out;
}

const IDENTITY_POSE = Float64Array.from([0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1]);

/**
 * B's pose seen from A's mesh frame, A^-1 B, in the operation order of the tree queries. Nearly
 * coincident triangles make the triangle test ill-conditioned (its answer hangs on the last bit),
 * so the reference compares the same numbers the tree does: A's triangles as given, B's moved by
 * this pose. Culling is what is under test, not the frame.
 */
function relativePose(a: Float64Array, b: Float64Array): Float64Array {
  const out = new Float64Array(POSE_STRIDE);
  const dx = b[0] - a[0], dy = b[1] - a[1], dz = b[2] - a[2];
  for (let i = 0; i < 3; i++) {
    const ux = a[3 + 3 * i], uy = a[4 + 3 * i], uz = a[5 + 3 * i];
    out[i] = ux * dx + uy * dy + uz * dz;
    for (let j = 0; j < 3; j++) out[3 + 3 * j + i] = ux * b[3 + 3 * j] + uy * b[4 + 3 * j] + uz * b[5 + 3 * j];
  }
  return out;
}

/** All-pairs reference: keys i * nB + j of intersecting pairs, ascending. */
function bruteForcePairs(wa: Float64Array, wb: Float64Array): number[] {
  const na = wa.length / 9, nb = wb.length / 9, out: number[] = [];
  for (let i = 0; i < na; i++) for (let j = 0; j < nb; j++) if (triTriOverlap(wa, 9 * i, wb, 9 * j)) out.push(i * nb + j);
  return out;
}

function pairKeys(result: TreeQueryResult, nb: number): number[] {
  const out: number[] = [];
  for (let i = 0; i < result.pairs.count; i++) out.push(result.pairs.a[i] * nb + result.pairs.b[i]);
  return out.sort((x, y) => x - y);
}

function sortedTriangles(result: TreeQueryResult): number[] {
  return Array.from(result.triangles.subarray(0, result.triangleCount)).sort((x, y) => x - y);
}

function meshSize(mesh: TestMesh): number {
  let r = 0;
  for (let i = 0; i < mesh.positions.length; i++) r = Math.max(r, Math.abs(mesh.positions[i]));
  return r;
}

/** Translation along `dir` (from B's start pose) that just touches A, found by bisection on the first-hit query. */
function grazingPose(treeA: BoundingTree, poseA: Float64Array, treeB: BoundingTree, poseB: Float64Array, dir: number[], far: number): Float64Array | null {
  const result = new TreeQueryResult();
  const at = (s: number) => {
    const p = Float64Array.from(poseB);
    for (let i = 0; i < 3; i++) p[i] += s * dir[i];
    return p;
  };
  if (collideTrees(result, treeA, poseA, 0, treeB, at(0), 0, 'first') === 0) return null;
  let lo = 0, hi = far;
  for (let it = 0; it < 40; it++) {
    const mid = 0.5 * (lo + hi);
    if (collideTrees(result, treeA, poseA, 0, treeB, at(mid), 0, 'first') > 0) lo = mid;
    else hi = mid;
  }
  return at(lo);
}

const VARIANTS: { name: string; options: BoundingTreeOptions; boxTest: TreeBoxTest }[] = [
  { name: 'obb', options: { kind: 'obb' }, boxTest: 'sat' },
  { name: 'obb sat-lite', options: { kind: 'obb' }, boxTest: 'sat-lite' },
  // three-mesh-bvh's leaf size: covariance fits of several triangles at every leaf.
  { name: 'obb leaf10', options: { kind: 'obb', maxLeafTriangles: 10 }, boxTest: 'sat' },
  { name: 'obb dito median leaf4', options: { kind: 'obb', fit: 'dito', split: 'median', maxLeafTriangles: 4 }, boxTest: 'sat' },
  { name: 'obb hull centroid', options: { kind: 'obb', fit: 'hull', split: 'centroid' }, boxTest: 'sat' },
  { name: 'aabb', options: { kind: 'aabb' }, boxTest: 'sat' },
  // Median splits sum both halves apart from the partition; AABB boxes are those sums.
  { name: 'aabb median leaf3', options: { kind: 'aabb', split: 'median', maxLeafTriangles: 3 }, boxTest: 'sat' },
  { name: 'sphere leaf2', options: { kind: 'sphere', maxLeafTriangles: 2 }, boxTest: 'sat' },
];

// ---- meshes ----

let meshes: TestMesh[] = [];
beforeAll(async () => {
  meshes = [decimate(loadBunny(), 20), torusKnot({ tubularSegments: 60, radialSegments: 8 }), await loadFox()];
});

describe('build', () => {
  it('nodes partition the triangles, leaves respect the size limit, and every node volume holds its triangles', () => {
    for (const mesh of meshes) {
      for (const v of VARIANTS) {
        const tree = buildBoundingTree(mesh.positions, mesh.indices, v.options);
        const maxLeaf = v.options.maxLeafTriangles ?? 1;
        expect(Array.from(tree.triangleIds).sort((a, b) => a - b)).toEqual(Array.from({ length: mesh.triangleCount }, (_, i) => i));
        // Tree-order triangle t holds mesh triangle triangleIds[t]'s corners, in the mesh's corner order.
        let misplaced = 0;
        for (let t = 0; t < tree.triangleCount; t++) {
          for (let k = 0; k < 9; k++) {
            const v = mesh.indices[3 * tree.triangleIds[t] + Math.floor(k / 3)];
            if (tree.triangles[9 * t + k] !== mesh.positions[3 * v + (k % 3)]) misplaced++;
          }
        }
        expect(misplaced, `${mesh.name} ${v.name}: triangles not matching their ids`).toBe(0);
        // Absolute frames by composing the parent-relative ones, root first (parents have smaller indices).
        const abs = new Float64Array(tree.nodeCount * 15);
        abs.set(tree.nodes.subarray(0, 15));
        let leaves = 0, outside = 0, badStructure = 0;
        for (let n = 0; n < tree.nodeCount; n++) {
          const c = tree.children[n];
          const first = tree.firstTriangle[n], count = tree.nodeTriangleCount[n];
          if (c < 0) {
            leaves++;
            if (count < 1 || count > maxLeaf) badStructure++;
          } else {
            const l = tree.nodeTriangleCount[c], r = tree.nodeTriangleCount[c + 1];
            if (tree.firstTriangle[c] !== first || l < 1 || r < 1 || tree.firstTriangle[c + 1] !== first + l || l + r !== count) badStructure++;
            for (const ch of [c, c + 1]) {
              const p = 15 * n, r = 15 * ch, o = 15 * ch;
              for (let i = 0; i < 3; i++) {
                abs[o + i] = abs[p + i] + abs[p + 3 + i] * tree.nodes[r] + abs[p + 6 + i] * tree.nodes[r + 1] + abs[p + 9 + i] * tree.nodes[r + 2];
                for (let j = 0; j < 3; j++) {
                  abs[o + 3 + 3 * j + i] = abs[p + 3 + i] * tree.nodes[r + 3 + 3 * j] + abs[p + 6 + i] * tree.nodes[r + 4 + 3 * j] + abs[p + 9 + i] * tree.nodes[r + 5 + 3 * j];
                }
                abs[o + 12 + i] = tree.nodes[r + 12 + i];
              }
            }
          }
          const tol = 1e-9 * tree.scale;
          for (let t = first; t < first + count; t++) {
            for (let k = 0; k < 3; k++) {
              const q = 9 * t + 3 * k;
              const x = tree.triangles[q], y = tree.triangles[q + 1], z = tree.triangles[q + 2];
              const inside = tree.kind === 'sphere'
                ? Math.hypot(x - abs[15 * n], y - abs[15 * n + 1], z - abs[15 * n + 2]) <= abs[15 * n + 12] + tol
                : obbContainsPoint(abs, 15 * n, x, y, z, tol);
              if (!inside) outside++;
            }
          }
        }
        // A NaN volume would pass the containment test above (its comparisons are all false).
        const badVolume = Array.from({ length: tree.nodeCount }, (_, n) => n).filter((n) =>
          !tree.nodes.subarray(15 * n, 15 * n + 15).every(Number.isFinite) || !tree.nodes.subarray(15 * n + 12, 15 * n + 15).every((h) => h >= 0));
        expect(badVolume, `${mesh.name} ${v.name}: non-finite or negative node volumes`).toEqual([]);
        expect(outside, `${mesh.name} ${v.name}: vertices outside their node volumes`).toBe(0);
        expect(badStructure, `${mesh.name} ${v.name}: bad ranges or leaf sizes`).toBe(0);
        expect(leaves * 2 - 1).toBe(tree.nodeCount);
        if (v.options.kind === 'aabb') for (let n = 0; n < tree.nodeCount; n++) expect(Array.from(tree.nodes.subarray(15 * n + 3, 15 * n + 12))).toEqual([1, 0, 0, 0, 1, 0, 0, 0, 1]);
      }
    }
  });

  it('rejects bad meshes and options with CollideInputError', () => {
    const pos = new Float64Array([0, 0, 0, 1, 0, 0, 0, 1, 0]);
    const bad = BAD_TREE_INPUTS;
    for (const [p, i, o] of bad) expect(() => buildBoundingTree(p, i, o)).toThrow(CollideInputError);
    expect(() => buildBoundingTree(pos, [0, 1, 2])).not.toThrow();
    // Only referenced vertices are checked: a bad unreferenced vertex is accepted, and the
    // coordinate limit itself is inside the range.
    const spare = new Float64Array([0, 0, 0, 1, 0, 0, 0, 1, 0, NaN, Infinity, 1e300]);
    expect(buildBoundingTree(spare, [0, 1, 2]).triangleCount).toBe(1);
    const edge = new Float64Array([-MAX_COORDINATE, 0, 0, MAX_COORDINATE, 0, 0, 0, MAX_COORDINATE, 0]);
    expect(buildBoundingTree(edge, [0, 1, 2]).triangles[0]).toBe(-MAX_COORDINATE);
    expect(() => buildBoundingTree(spare, [0, 1, 3])).toThrow('vertex 3 (of triangle 0) coordinate 0 is not finite (NaN)');
    const a = buildBoundingTree(pos, [0, 1, 2], { kind: 'obb' }), b = buildBoundingTree(pos, [0, 1, 2], { kind: 'aabb' });
    const pose = poseFromTranslationQuaternion(new Float64Array(12), 0, 0, 0, 0, [0, 0, 0, 1]);
    expect(() => collideTrees(new TreeQueryResult(), a, pose, 0, b, pose, 0)).toThrow(CollideInputError);
  });

  it('handles zero-area triangles (collinear, repeated vertices) and all-degenerate meshes', () => {
    // A fan of real triangles plus slivers and points on top of them.
    const positions = new Float64Array([0, 0, 0, 1, 0, 0, 0, 1, 0, 1, 1, 0, 0.5, 0, 0, 2, 0, 0]);
    const indices = [0, 1, 2, 1, 3, 2, 0, 4, 1, 0, 1, 5, 2, 2, 2, 3, 3, 0];
    const tree = buildBoundingTree(positions, indices);
    expect(tree.triangleCount).toBe(6);
    const flat = buildBoundingTree(new Float64Array([0, 0, 0, 1, 1, 1, 2, 2, 2]), [0, 1, 2, 0, 0, 0]);
    const result = new TreeQueryResult();
    const pose = poseFromTranslationQuaternion(new Float64Array(12), 0, 0, 0, 0, [0, 0, 0, 1]);
    // The segment (0,0,0)-(2,2,2) touches the fan's triangle 0 at the origin.
    expect(collideTrees(result, tree, pose, 0, flat, pose, 0, 'all')).toBeGreaterThan(0);
    const wa = worldTriangles({ name: '', positions, vertexCount: 6, indices: Uint32Array.from(indices), triangleCount: 6 }, pose);
    const wb = worldTriangles({ name: '', positions: new Float64Array([0, 0, 0, 1, 1, 1, 2, 2, 2]), vertexCount: 3, indices: Uint32Array.from([0, 1, 2, 0, 0, 0]), triangleCount: 2 }, pose);
    expect(pairKeys(result, 2)).toEqual(bruteForcePairs(wa, wb));
  });
});

describe('tree vs tree equals the all-pairs brute force', () => {
  function checkPose(mesh: TestMesh, trees: BoundingTree[], poseA: Float64Array, poseB: Float64Array, label: string): number {
    const ref = bruteForcePairs(worldTriangles(mesh, IDENTITY_POSE), worldTriangles(mesh, relativePose(poseA, poseB)));
    const result = new TreeQueryResult();
    trees.forEach((tree, v) => {
      const boxTest = VARIANTS[v].boxTest;
      expect(collideTrees(result, tree, poseA, 0, tree, poseB, 0, 'all', boxTest), `${label} ${VARIANTS[v].name}`).toBe(ref.length);
      expect(pairKeys(result, mesh.triangleCount), `${label} ${VARIANTS[v].name}`).toEqual(ref);
      expect(result.triangleTests).toBeGreaterThanOrEqual(ref.length);
      expect(result.triangleTests).toBeLessThanOrEqual(mesh.triangleCount * mesh.triangleCount);
      const first = collideTrees(result, tree, poseA, 0, tree, poseB, 0, 'first', boxTest);
      expect(first).toBe(ref.length > 0 ? 1 : 0);
      if (first) expect(ref).toContain(result.pairs.a[0] * mesh.triangleCount + result.pairs.b[0]);
    });
    return ref.length;
  }

  it('random, grazing, near-coincident and far-offset poses of the bunny, a torus knot and the Fox', () => {
    let total = 0, poses = 0, grazing = 0;
    for (const mesh of meshes) {
      const trees = VARIANTS.map((v) => buildBoundingTree(mesh.positions, mesh.indices, v.options));
      const size = meshSize(mesh);
      fc.assert(
        fc.property(fc.integer({ min: 1, max: 2 ** 30 }), (seed) => {
          const rand = mulberry32(seed);
          // Overlapping-range random poses, around the origin and 1e6 away.
          const offset = rand() < 0.3 ? 1e6 : 0;
          const poseA = makePose(rand, 0.6 * size, offset), poseB = makePose(rand, 0.6 * size, offset);
          total += checkPose(mesh, trees, poseA, poseB, `${mesh.name} random seed ${seed}`);
          poses++;
          // Grazing: slide B along a random direction until it just touches A.
          const dir = randomQuaternion(rand).slice(0, 3);
          const len = Math.hypot(dir[0], dir[1], dir[2]);
          const g = grazingPose(trees[0], poseA, trees[0], poseB, dir.map((x) => x / len), 4 * size);
          if (g) {
            const n = checkPose(mesh, trees, poseA, g, `${mesh.name} grazing seed ${seed}`);
            expect(n).toBeGreaterThan(0);
            grazing++;
            poses++;
          }
          // Nearly coincident: B = A moved by a tiny rotation and translation.
          const near = Float64Array.from(poseA);
          const eps = 1e-7 * (rand() + 0.1);
          const q = [eps * (rand() - 0.5), eps * (rand() - 0.5), eps * (rand() - 0.5), 1];
          const ql = Math.hypot(...q);
          const dq = quaternionToAxes(q.map((x) => x / ql));
          for (let j = 0; j < 3; j++) {
            for (let i = 0; i < 3; i++) near[3 + 3 * j + i] = poseA[3 + i] * dq[3 * j] + poseA[6 + i] * dq[3 * j + 1] + poseA[9 + i] * dq[3 * j + 2];
            near[j] += eps * size * (rand() - 0.5);
          }
          total += checkPose(mesh, trees, poseA, near, `${mesh.name} near-coincident seed ${seed}`);
          poses++;
        }),
        { numRuns: 2, seed: 7, endOnFailure: true },
      );
      // Exactly coincident: every triangle touches itself and its neighbours.
      const pose = makePose(mulberry32(3), size);
      expect(checkPose(mesh, trees, pose, pose, `${mesh.name} coincident`)).toBeGreaterThanOrEqual(mesh.triangleCount);
      // Far apart: the root test alone decides.
      const far = Float64Array.from(pose);
      far[0] += 10 * size;
      const result = new TreeQueryResult();
      expect(collideTrees(result, trees[0], pose, 0, trees[0], far, 0)).toBe(0);
      expect(result.boxTests).toBe(1);
      expect(result.triangleTests).toBe(0);
    }
    expect(poses).toBeGreaterThanOrEqual(12);
    expect(grazing).toBeGreaterThan(0);
    expect(total).toBeGreaterThan(0);
  });

  it('contacts mode: same pairs, and each segment lies on both triangles', () => {
    const mesh = meshes[1];
    const tree = buildBoundingTree(mesh.positions, mesh.indices);
    const rand = mulberry32(11);
    const result = new TreeQueryResult();
    for (let trial = 0; trial < 4; trial++) {
      const size = meshSize(mesh);
      const poseA = makePose(rand, 0.5 * size), poseB = makePose(rand, 0.5 * size);
      const wa = worldTriangles(mesh, poseA), wb = worldTriangles(mesh, poseB);
      collideTrees(result, tree, poseA, 0, tree, poseB, 0, 'all');
      const allPairs = pairKeys(result, mesh.triangleCount);
      expect(collideTrees(result, tree, poseA, 0, tree, poseB, 0, 'contacts')).toBe(allPairs.length);
      expect(pairKeys(result, mesh.triangleCount)).toEqual(allPairs);
      const scratch = new Float64Array(6);
      let segments = 0;
      for (let i = 0; i < result.pairs.count; i++) {
        if (result.kinds[i] !== TRI_TRI_SEGMENT) continue;
        segments++;
        for (let e = 0; e < 2; e++) {
          const o = 6 * i + 3 * e;
          const [x, y, z] = [result.segments[o], result.segments[o + 1], result.segments[o + 2]];
          expect(closestPtPointTriangle(scratch, 0, x, y, z, wa, 9 * result.pairs.a[i])).toBeLessThan(1e-18 * size * size);
          expect(closestPtPointTriangle(scratch, 0, x, y, z, wb, 9 * result.pairs.b[i])).toBeLessThan(1e-18 * size * size);
        }
      }
      expect(segments).toBeGreaterThan(0);
    }
  });
});

describe('tree vs volumes and rays equal brute force', () => {
  it('OBB: triangle meets the box iff a vertex is inside or it meets one of the 12 face triangles', () => {
    const result = new TreeQueryResult();
    const corners = new Float64Array(24), faces = new Float64Array(12 * 9);
    // Box faces as triangles, corner order of obbCorners: index bits (x, y, z) of the signs.
    const quads = [[0, 1, 3, 2], [4, 5, 7, 6], [0, 1, 5, 4], [2, 3, 7, 6], [0, 2, 6, 4], [1, 3, 7, 5]];
    let hits = 0;
    for (const mesh of meshes) {
      const trees = VARIANTS.map((v) => buildBoundingTree(mesh.positions, mesh.indices, v.options));
      const size = meshSize(mesh);
      fc.assert(
        fc.property(fc.integer({ min: 1, max: 2 ** 30 }), (seed) => {
          const rand = mulberry32(seed);
          const pose = makePose(rand, 0.3 * size);
          const box = new Float64Array(15);
          box.set(makePose(rand, size).subarray(0, 12));
          for (let i = 0; i < 3; i++) box[12 + i] = size * (0.02 + 0.3 * rand());
          obbCorners(corners, box, 0);
          quads.forEach((q, f) => {
            for (const [t, tri] of [[0, [q[0], q[1], q[2]]], [1, [q[0], q[2], q[3]]]] as [number, number[]][]) {
              tri.forEach((c, k) => faces.set(corners.subarray(3 * c, 3 * c + 3), 9 * (2 * f + t) + 3 * k));
            }
          });
          const w = worldTriangles(mesh, pose);
          const ref: number[] = [];
          for (let t = 0; t < mesh.triangleCount; t++) {
            let inside = false;
            for (let k = 0; k < 3 && !inside; k++) inside = obbContainsPoint(box, 0, w[9 * t + 3 * k], w[9 * t + 3 * k + 1], w[9 * t + 3 * k + 2]);
            let cross = false;
            for (let f = 0; f < 12 && !inside && !cross; f++) cross = triTriOverlap(w, 9 * t, faces, 9 * f);
            if (inside || cross) ref.push(t);
          }
          hits += ref.length;
          for (const tree of trees) {
            expect(overlapTreeObb(result, tree, pose, 0, box, 0)).toBe(ref.length);
            expect(sortedTriangles(result)).toEqual(ref);
            expect(overlapTreeObb(result, tree, pose, 0, box, 0, 'first')).toBe(ref.length > 0 ? 1 : 0);
          }
        }),
        { numRuns: 12, seed: 5, endOnFailure: true },
      );
    }
    expect(hits).toBeGreaterThan(0);
  });

  it('sphere: triangles within r of the centre; capsule: bracketed by sampling the segment', () => {
    const result = new TreeQueryResult();
    const scratch = new Float64Array(6);
    let sphereHits = 0, capsuleHits = 0;
    for (const mesh of meshes) {
      const trees = VARIANTS.map((v) => buildBoundingTree(mesh.positions, mesh.indices, v.options));
      const size = meshSize(mesh);
      fc.assert(
        fc.property(fc.integer({ min: 1, max: 2 ** 30 }), (seed) => {
          const rand = mulberry32(seed);
          const pose = makePose(rand, 0.3 * size);
          const w = worldTriangles(mesh, pose);
          const sphere = [(rand() - 0.5) * size, (rand() - 0.5) * size, (rand() - 0.5) * size, size * (0.02 + 0.3 * rand())];
          const sref: number[] = [];
          for (let t = 0; t < mesh.triangleCount; t++) {
            if (closestPtPointTriangle(scratch, 0, sphere[0], sphere[1], sphere[2], w, 9 * t) <= sphere[3] ** 2) sref.push(t);
          }
          sphereHits += sref.length;
          const capsule = [...sphere.slice(0, 3), (rand() - 0.5) * size, (rand() - 0.5) * size, (rand() - 0.5) * size, size * (0.01 + 0.1 * rand())];
          const samples = 400;
          const len = Math.hypot(capsule[3] - capsule[0], capsule[4] - capsule[1], capsule[5] - capsule[2]);
          const spacing = len / samples;
          const must: number[] = [], may = new Set<number>();
          for (let t = 0; t < mesh.triangleCount; t++) {
            let d = Infinity;
            for (let s = 0; s <= samples; s++) {
              const u = s / samples;
              const x = capsule[0] + u * (capsule[3] - capsule[0]), y = capsule[1] + u * (capsule[4] - capsule[1]), z = capsule[2] + u * (capsule[5] - capsule[2]);
              d = Math.min(d, Math.sqrt(closestPtPointTriangle(scratch, 0, x, y, z, w, 9 * t)));
            }
            // dist(segment, T) is within spacing/2 below the sampled minimum.
            if (d <= capsule[6]) must.push(t);
            if (d - spacing / 2 <= capsule[6]) may.add(t);
          }
          capsuleHits += must.length;
          for (const tree of trees) {
            expect(overlapTreeSphere(result, tree, pose, 0, sphere, 0)).toBe(sref.length);
            expect(sortedTriangles(result)).toEqual(sref);
            overlapTreeCapsule(result, tree, pose, 0, capsule, 0);
            const got = sortedTriangles(result);
            for (const t of must) expect(got).toContain(t);
            for (const t of got) expect(may.has(t)).toBe(true);
          }
        }),
        { numRuns: 8, seed: 9, endOnFailure: true },
      );
    }
    expect(sphereHits).toBeGreaterThan(0);
    expect(capsuleHits).toBeGreaterThan(0);
  });

  it('ray: nearest hit equals the nearest over all triangles', () => {
    const result = new TreeQueryResult();
    const hit = new Float64Array(4);
    let hits = 0, rays = 0;
    for (const mesh of meshes) {
      const trees = VARIANTS.map((v) => buildBoundingTree(mesh.positions, mesh.indices, v.options));
      const size = meshSize(mesh);
      fc.assert(
        fc.property(fc.integer({ min: 1, max: 2 ** 30 }), fc.boolean(), (seed, farOffset) => {
          const rand = mulberry32(seed);
          const offset = farOffset ? 1e6 : 0;
          const pose = makePose(rand, 0.3 * size, offset);
          const w = worldTriangles(mesh, pose);
          for (let r = 0; r < 10; r++) {
            const o = [offset + (rand() - 0.5) * 3 * size, offset + (rand() - 0.5) * 3 * size, offset + (rand() - 0.5) * 3 * size];
            // Aim at a random vertex (plus noise) so most rays hit.
            const v = Math.floor(rand() * mesh.triangleCount * 3);
            const target = [0, 1, 2].map((c) => w[3 * v + c] + (rand() - 0.5) * 0.05 * size);
            const d = target.map((x, c) => x - o[c]);
            const maxT = rand() < 0.2 ? 0.5 : 10;
            let best = maxT, bestTri = -1;
            for (let t = 0; t < mesh.triangleCount; t++) {
              if (raycastTriangle(hit, o[0], o[1], o[2], d[0], d[1], d[2], best, w, 9 * t)) {
                best = hit[0];
                bestTri = t;
              }
            }
            rays++;
            if (bestTri >= 0) hits++;
            for (const tree of trees) {
              const got = raycastTree(result, tree, pose, 0, o[0], o[1], o[2], d[0], d[1], d[2], maxT);
              expect(got).toBe(bestTri >= 0);
              if (!got) continue;
              expect(Math.abs(result.hit[0] - best)).toBeLessThanOrEqual(1e-9 * (1 + best));
              if (result.hit[4] !== bestTri) {
                // A tie (shared edge or vertex): the tree's triangle must be hit at the same t.
                expect(raycastTriangle(hit, o[0], o[1], o[2], d[0], d[1], d[2], 10, w, 9 * result.hit[4])).toBe(true);
                expect(Math.abs(hit[0] - best)).toBeLessThanOrEqual(1e-9 * (1 + best));
              }
              expect(Math.hypot(result.hit[1], result.hit[2], result.hit[3])).toBeCloseTo(1, 9);
              expect(result.hit[1] * d[0] + result.hit[2] * d[1] + result.hit[3] * d[2]).toBeLessThanOrEqual(0);
            }
          }
        }),
        { numRuns: 6, seed: 13, endOnFailure: true },
      );
    }
    expect(hits).toBeGreaterThan(rays / 4);
  });
});

describe('node tests with nearly parallel edges', () => {
  it('never cull a Float32 query box that passes through the mesh along a nearly parallel edge', () => {
    const rand = mulberry32(29);
    const result = new TreeQueryResult();
    const pose = new Float64Array(POSE_STRIDE);
    poseFromTranslationQuaternion(pose, 0, 0, 0, 0, [0, 0, 0, 1]);
    const corners = new Float64Array(24);
    let found = 0;
    for (let p = 0; p < 300; p++) {
      const angle = 10 ** (-7 + 6 * rand());
      // Edges crossing through each other by 1e-5..1e-2 of the size: the surfaces intersect.
      const pair = nearParallelPair(rand, angle, -(10 ** (-5 + 3 * rand())), 1, 0);
      // Box A as a closed triangle mesh (its 12 faces), box B as a query box from a Float32 store.
      obbCorners(corners, pair.a, 0);
      const faces = [[0, 1, 3, 2], [4, 6, 7, 5], [0, 4, 5, 1], [2, 3, 7, 6], [0, 2, 6, 4], [1, 5, 7, 3]];
      const indices = faces.flatMap(([a, b, c, d]) => [a, b, c, a, c, d]);
      const tree = buildBoundingTree(corners, indices, { maxLeafTriangles: 1 });
      const box = Float32Array.from(pair.b);
      const count = overlapTreeObb(result, tree, pose, 0, box, 0, 'first');
      expect(count, `angle ${angle}`).toBe(1);
      found += count;
    }
    expect(found).toBe(300);
  });
});
