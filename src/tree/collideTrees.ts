import type { BoundingTree } from './build';
import { grown } from '../broadphase/growable';
import { CollideInputError } from '../errors';
import { OBB_HALF, OBB_STRIDE, type ReadonlyFloats } from '../layout';
import { TRI_TRI_DISJOINT, TRI_TRI_SEGMENT, triTriIntersectionSegment, triTriOverlap } from '../query/triTri';
import { TREE_SLACK_RELATIVE } from '../tolerances';
import { enterBodyNode, enterNode, boxesDisjoint, spheresDisjoint } from './nodeTests';
import { POSE_STRIDE, relativePose, transformByPose } from './pose';
import { type TreeBoxTest, type TreeQueryMode, TreeQueryResult, TREE_CONTACT_STRIDE, assertTreeQuery } from './queryResult';

/**
 * Tree vs tree (RAPID / PQP): the pose of B's current node in A's current node frame (R, T) is
 * carried down, updated by one small product per step (entering A's child C: R' = R_C^T R,
 * T' = R_C^T (T - t_C); entering B's child D: R' = R R_D, T' = R t_D + T), and each node pair is a
 * box test in A's frame, where A is axis-aligned at the origin. Leaves compare triangles exactly
 * with `triTriOverlap`, so culling only saves work: results equal the all-pairs brute force.
 *
 * Nothing here allocates per call once the result and the module stacks have grown to size.
 */

// ---- module scratch: stacks grow to the deepest query seen, then stay ----

let pairStack = new Int32Array(64);
let stateStack = new Float64Array(32 * POSE_STRIDE);
let bodyTriangles = new Float64Array(0);
let bodyStamps = new Uint32Array(0);
let stamp = 0;
const rootState = new Float64Array(POSE_STRIDE);
const segment = new Float64Array(6);

function ensureStack(entries: number): void {
  pairStack = grown(pairStack, 2 * entries);
  stateStack = grown(stateStack, POSE_STRIDE * entries);
}

/** Starts a new body-triangle cache generation (body triangles moved into the frame tree's mesh frame on first use). */
function beginBodyCache(triangleCount: number): void {
  bodyTriangles = grown(bodyTriangles, 9 * triangleCount);
  if (bodyStamps.length < triangleCount) {
    bodyStamps = grown(bodyStamps, triangleCount);
    bodyStamps.fill(0);
    stamp = 0;
  }
  stamp++;
  if (stamp === 0xffffffff) {
    bodyStamps.fill(0);
    stamp = 1;
  }
}

/** Offset of body triangle `t` in `bodyTriangles`, moved by `rootState` if not yet this query. */
function bodyTriangle(tree: BoundingTree, t: number): number {
  const o = 9 * t;
  if (bodyStamps[t] === stamp) return o;
  bodyStamps[t] = stamp;
  transformByPose(bodyTriangles, o, rootState, 0, tree.triangles, o, 3);
  return o;
}

function pushSegment(result: TreeQueryResult, index: number, kind: number, pose: ReadonlyFloats, po: number): void {
  result.segments = grown(result.segments, TREE_CONTACT_STRIDE * (index + 1));
  result.kinds = grown(result.kinds, index + 1);
  result.kinds[index] = kind;
  const out = result.segments, o = TREE_CONTACT_STRIDE * index;
  if (kind !== TRI_TRI_SEGMENT) return;
  transformByPose(out, o, pose, po, segment, 0, 2);
}

/**
 * Tests the triangles of two leaves; returns true when `mode` is 'first' and a pair was found
 * (the query can stop).
 */
function leafPairs(
  result: TreeQueryResult, a: BoundingTree, na: number, b: BoundingTree, nb: number,
  mode: TreeQueryMode, poseA: ReadonlyFloats, pao: number,
): boolean {
  const fa = a.firstTriangle[na], ea = fa + a.nodeTriangleCount[na];
  const fb = b.firstTriangle[nb], eb = fb + b.nodeTriangleCount[nb];
  for (let i = fa; i < ea; i++) {
    for (let j = fb; j < eb; j++) {
      result.triangleTests++;
      const bo = bodyTriangle(b, j);
      if (mode === 'contacts') {
        const kind = triTriIntersectionSegment(segment, a.triangles, 9 * i, bodyTriangles, bo);
        if (kind === TRI_TRI_DISJOINT) continue;
        pushSegment(result, result.pairs.count, kind, poseA, pao);
        result.pairs.push(a.triangleIds[i], b.triangleIds[j]);
      } else if (triTriOverlap(a.triangles, 9 * i, bodyTriangles, bo)) {
        result.pairs.push(a.triangleIds[i], b.triangleIds[j]);
        if (mode === 'first') return true;
      }
    }
  }
  return false;
}

/**
 * Tree vs tree: the triangle pairs of mesh A (tree `a` at pose poseA[pao]) and mesh B (tree `b`
 * at poseB[pbo]) that intersect (touching counts). 'first' stops at the first pair, 'all' collects
 * every pair into `result.pairs` (A's triangle, B's triangle), 'contacts' also writes each pair's
 * intersection segment (world frame) to `result.segments`. Nodes of the larger volume are split
 * first; `boxTest` picks the full or face-only SAT per node pair (sphere trees compare spheres).
 * Returns the number of pairs found; Nv, Np in `result.boxTests` / `result.triangleTests`.
 * Throws CollideInputError when the trees have different node kinds.
 */
export function collideTrees(
  result: TreeQueryResult,
  a: BoundingTree, poseA: ReadonlyFloats, pao: number,
  b: BoundingTree, poseB: ReadonlyFloats, pbo: number,
  mode: TreeQueryMode = 'all',
  boxTest: TreeBoxTest = 'sat',
): number {
  assertTreeQuery(result, a, poseA, pao, 'collideTrees');
  assertTreeQuery(result, b, poseB, pbo, 'collideTrees');
  if (a.kind !== b.kind) throw new CollideInputError(`collideTrees: trees have different node kinds (${a.kind}, ${b.kind})`);
  result.clear();
  relativePose(rootState, 0, poseA, pao, poseB, pbo);
  const slack = TREE_SLACK_RELATIVE * (a.scale + b.scale + Math.hypot(rootState[0], rootState[1], rootState[2]));
  const spheres = a.kind === 'sphere', full = boxTest === 'sat';
  beginBodyCache(b.triangleCount);
  ensureStack(a.depth + b.depth + 2);
  const an = a.nodes, bn = b.nodes, ac = a.children, bc = b.children;
  enterNode(stateStack, 0, rootState, 0, an, 0);
  enterBodyNode(stateStack, 0, stateStack, 0, bn, 0);
  pairStack[0] = 0;
  pairStack[1] = 0;
  let top = 1;
  while (top > 0) {
    const k = --top;
    const na = pairStack[2 * k], nb = pairStack[2 * k + 1], s = POSE_STRIDE * k;
    result.boxTests++;
    const ha = na * OBB_STRIDE + OBB_HALF, hb = nb * OBB_STRIDE + OBB_HALF;
    const disjoint = spheres
      ? spheresDisjoint(an[ha], bn[hb], stateStack, s, slack)
      : boxesDisjoint(an[ha], an[ha + 1], an[ha + 2], bn[hb], bn[hb + 1], bn[hb + 2], stateStack, s, slack, full);
    if (disjoint) continue;
    const ca = ac[na], cb = bc[nb];
    if (ca < 0 && cb < 0) {
      if (leafPairs(result, a, na, b, nb, mode, poseA, pao) && mode === 'first') return 1;
      continue;
    }
    // Split the larger node; the first child goes on top (slot k + 1), the second replaces the parent.
    const s1 = s + POSE_STRIDE;
    if (cb < 0 || (ca >= 0 && a.sizes[na] >= b.sizes[nb])) {
      enterNode(stateStack, s1, stateStack, s, an, ca);
      enterNode(stateStack, s, stateStack, s, an, ca + 1);
      pairStack[2 * k] = ca + 1;
      pairStack[2 * k + 2] = ca;
      pairStack[2 * k + 3] = nb;
    } else {
      enterBodyNode(stateStack, s1, stateStack, s, bn, cb);
      enterBodyNode(stateStack, s, stateStack, s, bn, cb + 1);
      pairStack[2 * k + 1] = cb + 1;
      pairStack[2 * k + 2] = na;
      pairStack[2 * k + 3] = cb;
    }
    top = k + 2;
  }
  return result.pairs.count;
}
