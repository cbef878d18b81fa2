import type { BoundingTree } from './build';
import { grown } from '../broadphase/growable';
import { OBB_AXES, OBB_HALF, OBB_STRIDE, type ReadonlyFloats } from '../layout';
import { BALL_ENTRY, ballEntry, raycastTriangleArrays, RAY_HIT_STRIDE, RAY_INPUT_STRIDE, writeRay } from '../query/raycast';
import { TREE_SLACK_RELATIVE } from '../tolerances';
import { writeHypot } from '../hypot';
import { directionToMeshFrame, toMeshFrame } from './pose';
import { TreeQueryResult, assertTreeQuery } from './queryResult';

/**
 * Ray casts against a bounding tree: nearest hit, nearer child first, pruned by the best hit so far.
 */

// ---- ray ----

const rayScratch = new Float64Array(RAY_HIT_STRIDE);
const RAY_STATE = 6; // origin (3), direction (3), in the node frame
let rayStack = new Float64Array(32 * (RAY_STATE + 1));
let rayNodes = new Int32Array(32);
const originDistance = new Float64Array(1);
const ball = new Float64Array(BALL_ENTRY + 1);
const meshRay = new Float64Array(RAY_INPUT_STRIDE); // the ray in the mesh frame, then a limit

/**
 * Ray state into child node c's frame: o' = R_c^T (o - t_c), d' = R_c^T d. Shared with the shape
 * casts, which descend by the ray of the mover's centre.
 * @internal
 */
export function enterRay(dst: Float64Array, d: number, src: Float64Array, s: number, nodes: Float64Array, c: number): void {
  const n = c * OBB_STRIDE;
  const ox = src[s] - nodes[n], oy = src[s + 1] - nodes[n + 1], oz = src[s + 2] - nodes[n + 2];
  const dx = src[s + 3], dy = src[s + 4], dz = src[s + 5];
  for (let i = 0; i < 3; i++) {
    const u = n + OBB_AXES + 3 * i;
    const ux = nodes[u], uy = nodes[u + 1], uz = nodes[u + 2];
    dst[d + i] = ux * ox + uy * oy + uz * oz;
    dst[d + 3 + i] = ux * dx + uy * dy + uz * dz;
  }
}

/**
 * Parameter where the ray (state at st[s]) enters node n's volume widened by slack; Infinity on a
 * miss, 0 from inside.
 * @internal
 */
export function rayEntry(tree: BoundingTree, n: number, st: Float64Array, s: number, slack: number): number {
  const h = n * OBB_STRIDE + OBB_HALF, nodes = tree.nodes;
  const ox = st[s], oy = st[s + 1], oz = st[s + 2], dx = st[s + 3], dy = st[s + 4], dz = st[s + 5];
  if (tree.kind === 'sphere') {
    const r = nodes[h] + slack;
    if (ox * ox + oy * oy + oz * oz <= r * r) return 0;
    for (let k = 0; k < 6; k++) ball[k] = st[s + k];
    ball[6] = r;
    ballEntry(ball);
    return ball[BALL_ENTRY];
  }
  let enter = 0, exit = Infinity;
  for (let i = 0; i < 3; i++) {
    const o = i === 0 ? ox : i === 1 ? oy : oz, d = i === 0 ? dx : i === 1 ? dy : dz;
    const half = nodes[h + i] + slack;
    if (d === 0) {
      if (o < -half || o > half) return Infinity;
      continue;
    }
    let t0 = (-half - o) / d, t1 = (half - o) / d;
    if (t0 > t1) { const x = t0; t0 = t1; t1 = x; }
    if (t0 > enter) enter = t0;
    if (t1 < exit) exit = t1;
    if (enter > exit) return Infinity;
  }
  return enter;
}

/**
 * Nearest hit of the ray o + t·d, t in [0, maxT] (world frame), on the mesh of `tree` at pose[po]:
 * triangles are two-sided and closed (see raycastTriangle). Children are visited nearest entry
 * first and anything entered beyond the best hit so far is skipped. On a hit returns true and
 * writes `result.hit` (t, world normal facing the ray, mesh triangle index); Nv, Np in the result.
 */
export function raycastTree(
  result: TreeQueryResult, tree: BoundingTree, pose: ReadonlyFloats, po: number,
  ox: number, oy: number, oz: number, dx: number, dy: number, dz: number, maxT: number,
): boolean {
  assertTreeQuery(result, tree, pose, po, 'raycastTree');
  return raycastTreeArrays(result, tree, pose, po, writeRay(treeRay, ox, oy, oz, dx, dy, dz, maxT), 0);
}

const treeRay = new Float64Array(RAY_INPUT_STRIDE);

/** @internal raycastTree, the ray read from ray[ro..ro + RAY_INPUT_STRIDE) (raycast.ts RAY_INPUT_STRIDE). */
export function raycastTreeArrays(result: TreeQueryResult, tree: BoundingTree, pose: ReadonlyFloats, po: number, ray: ReadonlyFloats, ro: number): boolean {
  const ox = ray[ro], oy = ray[ro + 1], oz = ray[ro + 2], dx = ray[ro + 3], dy = ray[ro + 4], dz = ray[ro + 5], maxT = ray[ro + 6];
  result.clear();
  toMeshFrame(meshRay, 0, pose, po, ox, oy, oz);
  directionToMeshFrame(meshRay, 3, pose, po, dx, dy, dz);
  const entries = tree.depth + 2;
  rayStack = grown(rayStack, (RAY_STATE + 1) * entries);
  rayNodes = grown(rayNodes, entries);
  writeHypot(originDistance, 0, meshRay, 0);
  const slack = TREE_SLACK_RELATIVE * (tree.scale + originDistance[0]);
  const stride = RAY_STATE + 1; // state, then the entry parameter
  enterRay(rayStack, 0, meshRay, 0, tree.nodes, 0);
  result.boxTests++;
  rayStack[RAY_STATE] = rayEntry(tree, 0, rayStack, 0, slack);
  rayNodes[0] = 0;
  let top = rayStack[RAY_STATE] <= maxT ? 1 : 0;
  let best = maxT, hitTriangle = -1;
  // The triangle casts read the ray in the mesh frame from meshRay, their limit the best hit so far.
  while (top > 0) {
    const k = --top, s = stride * k;
    if (rayStack[s + RAY_STATE] > best) continue;
    const n = rayNodes[k], c = tree.children[n];
    if (c < 0) {
      const first = tree.firstTriangle[n], end = first + tree.nodeTriangleCount[n];
      for (let t = first; t < end; t++) {
        result.triangleTests++;
        meshRay[RAY_STATE] = best;
        if (raycastTriangleArrays(rayScratch, meshRay, 0, tree.triangles, 9 * t)) {
          best = rayScratch[0];
          hitTriangle = t;
          for (let i = 1; i < 4; i++) result.hit[i] = rayScratch[i];
        }
      }
      continue;
    }
    // Both children into slots k and k + 1 (the farther one below), each with its entry.
    const s1 = s + stride;
    enterRay(rayStack, s1, rayStack, s, tree.nodes, c);
    enterRay(rayStack, s, rayStack, s, tree.nodes, c + 1);
    result.boxTests += 2;
    const e0 = rayEntry(tree, c, rayStack, s1, slack);
    const e1 = rayEntry(tree, c + 1, rayStack, s, slack);
    rayStack[s1 + RAY_STATE] = e0;
    rayStack[s + RAY_STATE] = e1;
    rayNodes[k] = c + 1;
    rayNodes[k + 1] = c;
    if (e1 < e0) {
      // Swap so the nearer child is on top.
      for (let i = 0; i < stride; i++) { const x = rayStack[s + i]; rayStack[s + i] = rayStack[s1 + i]; rayStack[s1 + i] = x; }
      rayNodes[k] = c;
      rayNodes[k + 1] = c + 1;
    }
    // Missed children (entry Infinity) and those entered beyond the best hit are skipped when popped.
    top = k + 2;
  }
  if (hitTriangle < 0) return false;
  result.hit[0] = best;
  // Normal back to the world frame.
  const nx = result.hit[1], ny = result.hit[2], nz = result.hit[3];
  for (let i = 0; i < 3; i++) result.hit[1 + i] = pose[po + 3 + i] * nx + pose[po + 6 + i] * ny + pose[po + 9 + i] * nz;
  result.hit[4] = tree.triangleIds[hitTriangle];
  return true;
}
