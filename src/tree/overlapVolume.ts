import type { BoundingTree } from './build';
import { grown } from '../broadphase/growable';
import {
  CLOSEST_ON_TRIANGLE_STRIDE,
  CLOSEST_SEGMENTS_STRIDE,
  closestPtPointTriangle,
  closestSegments, SEGMENTS_DISTANCE,
} from '../query/closestPoints';
import {
  CAPSULE_STRIDE,
  OBB_AXES,
  OBB_CENTER,
  OBB_HALF,
  OBB_STRIDE,
  IDENTITY_AXES,
  SPHERE_STRIDE,
  type ReadonlyFloats,
} from '../layout';
import { RAY_HIT_STRIDE, raycastTriangle } from '../query/raycast';
import { SAT_AXIS_SLACK, ROUNDING_ALLOWANCE, TREE_SLACK_RELATIVE } from '../tolerances';
import { toMeshFrame, directionToMeshFrame, POSE_STRIDE } from './pose';
import { type TreeQueryMode, TreeQueryResult, assertTreeQuery } from './queryResult';
import { assertNumberRun } from '../errors';
import { enterNode, boxesDisjoint, spheresDisjoint } from './nodeTests';

/**
 * Tree vs a single volume (OBB, sphere, capsule): the mesh triangles that meet it. Nodes are
 * tested conservatively against the volume (or the box around a capsule); leaves run exact
 * per-triangle tests, so results equal the all-triangles brute force.
 *
 * Nothing here allocates per call once the result and the module stacks have grown to size.
 */

// ---- tree vs a single volume ----

// Descent stacks: grown to the deepest query seen, then kept.
let nodeStack = new Int32Array(32);
let stateStack = new Float64Array(32 * POSE_STRIDE);
// The world frame seen from the mesh frame: the root of every descent.
const rootState = new Float64Array(POSE_STRIDE);

function ensureStack(entries: number): void {
  nodeStack = grown(nodeStack, entries);
  stateStack = grown(stateStack, POSE_STRIDE * entries);
}

const QUERY_OBB = 0;
const QUERY_SPHERE = 1;
const QUERY_CAPSULE = 2;

// The query in the tree's mesh frame (leaf tests) and the half-extents of its node-test volume.
const queryBox = new Float64Array(OBB_STRIDE);
const queryCapsule = new Float64Array(CAPSULE_STRIDE);
const queryHalf = new Float64Array(3);
const closest = new Float64Array(Math.max(CLOSEST_ON_TRIANGLE_STRIDE, CLOSEST_SEGMENTS_STRIDE + 1));
const rayScratch = new Float64Array(RAY_HIT_STRIDE);
const edge = new Float64Array(6);

/**
 * Closed box (queryBox, mesh frame) against triangle tri[to]: separating-axis test on the box
 * faces, the triangle normal and the nine edge-edge axes, with the triangle moved into the box
 * frame. Zero-area triangles make zero axes, which never separate, so the test stays exact for
 * segments and points.
 *
 * An axis ℓ (box frame) separates only past w·|ℓ|₁, w = SAT_AXIS_SLACK × (h0 + h1 + h2) +
 * ROUNDING_ALLOWANCE × (largest box-frame vertex coordinate + h0 + h1 + h2): the box's axes may be
 * orthonormal only to SAT_AXIS_SLACK (a Float32 store), which moves the box's radius along the
 * world direction of ℓ by up to SAT_AXIS_SLACK × (h0 + h1 + h2) × |ℓ|₁, and the coordinates
 * round. So it never reports apart a triangle that touches the box as stored, and reports
 * touching only triangles within √3·w of it in true distance (|ℓ|₁ ≤ √3 |ℓ|), whatever the angle
 * between the edges: the edge axes are exact, unnormalised crosses of a box axis with an edge.
 * contactObbTriangle separates only past a wider band (BOX_TRIANGLE_ROUNDING), so every triangle
 * this reports gets a contact.
 */
function obbTriangleOverlap(tri: ReadonlyFloats, to: number): boolean {
  const b = queryBox, h0 = b[OBB_HALF], h1 = b[OBB_HALF + 1], h2 = b[OBB_HALF + 2];
  const cx = b[OBB_CENTER], cy = b[OBB_CENTER + 1], cz = b[OBB_CENTER + 2];
  const u0x = b[OBB_AXES], u0y = b[OBB_AXES + 1], u0z = b[OBB_AXES + 2];
  const u1x = b[OBB_AXES + 3], u1y = b[OBB_AXES + 4], u1z = b[OBB_AXES + 5];
  const u2x = b[OBB_AXES + 6], u2y = b[OBB_AXES + 7], u2z = b[OBB_AXES + 8];
  // Vertices in box coordinates, relative to the centre.
  let px = tri[to] - cx, py = tri[to + 1] - cy, pz = tri[to + 2] - cz;
  const x0 = u0x * px + u0y * py + u0z * pz, y0 = u1x * px + u1y * py + u1z * pz, z0 = u2x * px + u2y * py + u2z * pz;
  px = tri[to + 3] - cx; py = tri[to + 4] - cy; pz = tri[to + 5] - cz;
  const x1 = u0x * px + u0y * py + u0z * pz, y1 = u1x * px + u1y * py + u1z * pz, z1 = u2x * px + u2y * py + u2z * pz;
  px = tri[to + 6] - cx; py = tri[to + 7] - cy; pz = tri[to + 8] - cz;
  const x2 = u0x * px + u0y * py + u0z * pz, y2 = u1x * px + u1y * py + u1z * pz, z2 = u2x * px + u2y * py + u2z * pz;
  const half = h0 + h1 + h2;
  const maxAbs = Math.max(Math.abs(x0), Math.abs(y0), Math.abs(z0), Math.abs(x1), Math.abs(y1), Math.abs(z1), Math.abs(x2), Math.abs(y2), Math.abs(z2));
  // Widening per unit of an axis' 1-norm (see above).
  const w = SAT_AXIS_SLACK * half + ROUNDING_ALLOWANCE * (maxAbs + half);
  if (Math.min(x0, x1, x2) > h0 + w || Math.max(x0, x1, x2) < -h0 - w) return false;
  if (Math.min(y0, y1, y2) > h1 + w || Math.max(y0, y1, y2) < -h1 - w) return false;
  if (Math.min(z0, z1, z2) > h2 + w || Math.max(z0, z1, z2) < -h2 - w) return false;
  const ax = x1 - x0, ay = y1 - y0, az = z1 - z0;
  const bx = x2 - x0, by = y2 - y0, bz = z2 - z0;
  const nx = ay * bz - az * by, ny = az * bx - ax * bz, nz = ax * by - ay * bx;
  const anx = Math.abs(nx), any = Math.abs(ny), anz = Math.abs(nz);
  if (Math.abs(nx * x0 + ny * y0 + nz * z0) > h0 * anx + h1 * any + h2 * anz + w * (anx + any + anz)) return false;
  for (let e = 0; e < 3; e++) {
    const ex = e === 0 ? ax : e === 1 ? x2 - x1 : -bx;
    const ey = e === 0 ? ay : e === 1 ? y2 - y1 : -by;
    const ez = e === 0 ? az : e === 1 ? z2 - z1 : -bz;
    // Axis (1,0,0) × e = (0, -ez, ey).
    if (edgeAxisSeparates(0, -ez, ey, h0, h1, h2, w, x0, y0, z0, x1, y1, z1, x2, y2, z2)) return false;
    // Axis (0,1,0) × e = (ez, 0, -ex).
    if (edgeAxisSeparates(ez, 0, -ex, h0, h1, h2, w, x0, y0, z0, x1, y1, z1, x2, y2, z2)) return false;
    // Axis (0,0,1) × e = (-ey, ex, 0).
    if (edgeAxisSeparates(-ey, ex, 0, h0, h1, h2, w, x0, y0, z0, x1, y1, z1, x2, y2, z2)) return false;
  }
  return true;
}

/** Does axis ℓ (box frame) separate the box (half-extents h) and the triangle by more than w·|ℓ|₁? */
function edgeAxisSeparates(
  lx: number, ly: number, lz: number, h0: number, h1: number, h2: number, w: number,
  x0: number, y0: number, z0: number, x1: number, y1: number, z1: number, x2: number, y2: number, z2: number,
): boolean {
  const p0 = lx * x0 + ly * y0 + lz * z0, p1 = lx * x1 + ly * y1 + lz * z1, p2 = lx * x2 + ly * y2 + lz * z2;
  const alx = Math.abs(lx), aly = Math.abs(ly), alz = Math.abs(lz);
  const r = h0 * alx + h1 * aly + h2 * alz + w * (alx + aly + alz);
  return Math.min(p0, p1, p2) > r || Math.max(p0, p1, p2) < -r;
}

/**
 * Capsule (queryCapsule, mesh frame) against triangle tri[to]: the segment crosses the triangle,
 * or the distance from an endpoint to the triangle or from the segment to an edge is at most r
 * (the nearest points of a segment and a triangle that do not cross lie on one of those).
 */
function capsuleTriangleOverlap(tri: ReadonlyFloats, to: number): boolean {
  const c = queryCapsule, r2 = c[6] * c[6];
  const ox = c[0], oy = c[1], oz = c[2];
  if (raycastTriangle(rayScratch, ox, oy, oz, c[3] - ox, c[4] - oy, c[5] - oz, 1, tri, to)) return true;
  if (closestPtPointTriangle(closest, 0, ox, oy, oz, tri, to) <= r2) return true;
  if (closestPtPointTriangle(closest, 0, c[3], c[4], c[5], tri, to) <= r2) return true;
  for (let e = 0; e < 3; e++) {
    const p = to + 3 * e, q = to + 3 * ((e + 1) % 3);
    for (let i = 0; i < 3; i++) {
      edge[i] = tri[p + i];
      edge[3 + i] = tri[q + i];
    }
    closestSegments(closest, 0, c, 0, edge, 0);
    if (closest[SEGMENTS_DISTANCE] <= r2) return true;
  }
  return false;
}

function leafOverlap(query: number, tri: ReadonlyFloats, to: number): boolean {
  if (query === QUERY_OBB) return obbTriangleOverlap(tri, to);
  if (query === QUERY_CAPSULE) return capsuleTriangleOverlap(tri, to);
  const c = queryCapsule; // a sphere is the capsule with p0 = p1
  return closestPtPointTriangle(closest, 0, c[0], c[1], c[2], tri, to) <= c[6] * c[6];
}

/**
 * Node `n` (state at stateStack[s]: the query frame in the node frame) versus the query's node
 * volume: a box of half-extents queryHalf (OBB, capsule), or a ball of radius queryHalf[0].
 */
function nodeDisjoint(tree: BoundingTree, n: number, s: number, ball: boolean, slack: number): boolean {
  const nodes = tree.nodes, h = n * OBB_STRIDE + OBB_HALF, st = stateStack;
  const h0 = nodes[h], h1 = nodes[h + 1], h2 = nodes[h + 2];
  if (tree.kind === 'sphere') {
    if (ball) return spheresDisjoint(h0, queryHalf[0], st, s, slack);
    // Distance from the node centre (origin) to the query box, in the box frame. The box's axes
    // may be orthonormal only to SAT_AXIS_SLACK (a Float32 store), which moves that
    // distance by about twice that fraction of (ball radius + the box's half-extents).
    let d2 = 0;
    for (let i = 0; i < 3; i++) {
      const u = s + 3 + 3 * i;
      const p = Math.abs(st[u] * st[s] + st[u + 1] * st[s + 1] + st[u + 2] * st[s + 2]);
      const out = p - queryHalf[i];
      if (out > 0) d2 += out * out;
    }
    const r = h0 + slack + 2 * SAT_AXIS_SLACK * (h0 + queryHalf[0] + queryHalf[1] + queryHalf[2]);
    return d2 > r * r;
  }
  if (ball) {
    let d2 = 0;
    for (let i = 0; i < 3; i++) {
      const out = Math.abs(st[s + i]) - nodes[h + i];
      if (out > 0) d2 += out * out;
    }
    const r = queryHalf[0] + slack;
    return d2 > r * r;
  }
  return boxesDisjoint(h0, h1, h2, queryHalf[0], queryHalf[1], queryHalf[2], st, s, slack, true);
}

/** Shared descent of the volume queries; the query is set up in the module scratch. */
function overlapTreeVolume(result: TreeQueryResult, tree: BoundingTree, query: number, mode: TreeQueryMode, slack: number): number {
  result.clear();
  ensureStack(tree.depth + 2);
  enterNode(stateStack, 0, rootState, 0, tree.nodes, 0);
  nodeStack[0] = 0;
  const ball = query === QUERY_SPHERE;
  let top = 1;
  while (top > 0) {
    const k = --top;
    const n = nodeStack[k], s = POSE_STRIDE * k;
    result.boxTests++;
    if (nodeDisjoint(tree, n, s, ball, slack)) continue;
    const c = tree.children[n];
    if (c < 0) {
      const first = tree.firstTriangle[n], end = first + tree.nodeTriangleCount[n];
      for (let t = first; t < end; t++) {
        result.triangleTests++;
        if (!leafOverlap(query, tree.triangles, 9 * t)) continue;
        result.triangles = grown(result.triangles, result.triangleCount + 1);
        result.triangles[result.triangleCount++] = tree.triangleIds[t];
        if (mode === 'first') return 1;
      }
      continue;
    }
    enterNode(stateStack, s + POSE_STRIDE, stateStack, s, tree.nodes, c);
    enterNode(stateStack, s, stateStack, s, tree.nodes, c + 1);
    nodeStack[k] = c + 1;
    nodeStack[k + 1] = c;
    top = k + 2;
  }
  return result.triangleCount;
}

/** Sets rootState to the world frame (t, axes) seen from the mesh frame of `pose`, axes given by columns at axes[ao]. */
function queryFrame(pose: ReadonlyFloats, po: number, tx: number, ty: number, tz: number, axes: ReadonlyFloats, ao: number): void {
  toMeshFrame(rootState, 0, pose, po, tx, ty, tz);
  for (let j = 0; j < 3; j++) {
    directionToMeshFrame(rootState, 3 + 3 * j, pose, po, axes[ao + 3 * j], axes[ao + 3 * j + 1], axes[ao + 3 * j + 2]);
  }
}

function querySlack(tree: BoundingTree, size: number): number {
  return TREE_SLACK_RELATIVE * (tree.scale + Math.hypot(rootState[0], rootState[1], rootState[2]) + size);
}

/**
 * Tree (at pose[po]) vs an OBB (world frame, OBB layout at box[bo]): the mesh triangles meeting
 * the closed box, into `result.triangles` ('first' stops at one). Returns their number; Nv, Np in
 * the result.
 */
export function overlapTreeObb(
  result: TreeQueryResult, tree: BoundingTree, pose: ReadonlyFloats, po: number,
  box: ReadonlyFloats, bo: number, mode: TreeQueryMode = 'all',
): number {
  assertTreeQuery(result, tree, pose, po, 'overlapTreeObb');
  assertNumberRun(box, bo, OBB_STRIDE, 'overlapTreeObb: box');
  queryFrame(pose, po, box[bo + OBB_CENTER], box[bo + OBB_CENTER + 1], box[bo + OBB_CENTER + 2], box, bo + OBB_AXES);
  for (let i = 0; i < 12; i++) queryBox[i] = rootState[i];
  for (let i = 0; i < 3; i++) queryBox[OBB_HALF + i] = queryHalf[i] = box[bo + OBB_HALF + i];
  result.query.set(queryBox);
  return overlapTreeVolume(result, tree, QUERY_OBB, mode, querySlack(tree, Math.hypot(queryHalf[0], queryHalf[1], queryHalf[2])));
}

/**
 * Tree (at pose[po]) vs a sphere (world frame, [cx, cy, cz, r] at sphere[so]): the mesh triangles
 * within distance r of the centre, into `result.triangles`. Returns their number.
 */
export function overlapTreeSphere(
  result: TreeQueryResult, tree: BoundingTree, pose: ReadonlyFloats, po: number,
  sphere: ReadonlyFloats, so: number, mode: TreeQueryMode = 'all',
): number {
  assertTreeQuery(result, tree, pose, po, 'overlapTreeSphere');
  assertNumberRun(sphere, so, SPHERE_STRIDE, 'overlapTreeSphere: sphere');
  queryFrame(pose, po, sphere[so], sphere[so + 1], sphere[so + 2], IDENTITY_AXES, 0);
  for (let i = 0; i < 3; i++) queryCapsule[i] = queryCapsule[3 + i] = rootState[i];
  queryCapsule[6] = queryHalf[0] = sphere[so + 3];
  for (let i = 0; i < 3; i++) result.query[i] = queryCapsule[i];
  result.query[3] = queryCapsule[6];
  return overlapTreeVolume(result, tree, QUERY_SPHERE, mode, querySlack(tree, sphere[so + 3]));
}

const capsuleAxes = new Float64Array(9);

/**
 * Tree (at pose[po]) vs a capsule (world frame, [p0, p1, r] at capsule[co]): the mesh triangles
 * within distance r of the segment, into `result.triangles`. Nodes are tested against the box
 * around the capsule; leaves exactly. Returns their number.
 */
export function overlapTreeCapsule(
  result: TreeQueryResult, tree: BoundingTree, pose: ReadonlyFloats, po: number,
  capsule: ReadonlyFloats, co: number, mode: TreeQueryMode = 'all',
): number {
  assertTreeQuery(result, tree, pose, po, 'overlapTreeCapsule');
  assertNumberRun(capsule, co, CAPSULE_STRIDE, 'overlapTreeCapsule: capsule');
  const x0 = capsule[co], y0 = capsule[co + 1], z0 = capsule[co + 2];
  const dx = capsule[co + 3] - x0, dy = capsule[co + 4] - y0, dz = capsule[co + 5] - z0, r = capsule[co + 6];
  const len = Math.hypot(dx, dy, dz);
  // Box frame: u0 along the segment, u1 and u2 any completion (x for a zero-length segment).
  let ux = 1, uy = 0, uz = 0;
  if (len > 0) { ux = dx / len; uy = dy / len; uz = dz / len; }
  // u1: the coordinate axis least aligned with u0, made perpendicular.
  const ax = Math.abs(ux), ay = Math.abs(uy), az = Math.abs(uz);
  let vx = ax <= ay && ax <= az ? 1 : 0, vy = vx === 0 && ay <= az ? 1 : 0, vz = vx === 0 && vy === 0 ? 1 : 0;
  const d = vx * ux + vy * uy + vz * uz;
  vx -= d * ux; vy -= d * uy; vz -= d * uz;
  const vl = Math.hypot(vx, vy, vz);
  vx /= vl; vy /= vl; vz /= vl;
  capsuleAxes[0] = ux; capsuleAxes[1] = uy; capsuleAxes[2] = uz;
  capsuleAxes[3] = vx; capsuleAxes[4] = vy; capsuleAxes[5] = vz;
  capsuleAxes[6] = uy * vz - uz * vy; capsuleAxes[7] = uz * vx - ux * vz; capsuleAxes[8] = ux * vy - uy * vx;
  queryFrame(pose, po, x0 + 0.5 * dx, y0 + 0.5 * dy, z0 + 0.5 * dz, capsuleAxes, 0);
  queryHalf[0] = 0.5 * len + r;
  queryHalf[1] = queryHalf[2] = r;
  toMeshFrame(queryCapsule, 0, pose, po, x0, y0, z0);
  toMeshFrame(queryCapsule, 3, pose, po, x0 + dx, y0 + dy, z0 + dz);
  queryCapsule[6] = r;
  result.query.set(queryCapsule);
  return overlapTreeVolume(result, tree, QUERY_CAPSULE, mode, querySlack(tree, queryHalf[0]));
}
