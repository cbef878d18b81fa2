import { quaternionToMat3 } from '../volumes/aabb';
import type { BoundingTree } from './build';
import { grown } from '../broadphase/growable';
import { PairList } from '../broadphase/pairList';
import { CLOSEST_ON_TRIANGLE_STRIDE, CLOSEST_SEGMENTS_STRIDE, closestPtPointTriangle, closestPtSegmentSegment } from '../query/closestPoints';
import { CollideInputError } from '../errors';
import { CAPSULE_STRIDE, OBB_AXES, OBB_CENTER, OBB_HALF, OBB_STRIDE, type Floats, IDENTITY_AXES, type ReadonlyFloats } from '../layout';
import { RAY_HIT_STRIDE, ballEntry, raycastTriangle } from '../query/raycast';
import { TRI_TRI_DISJOINT, TRI_TRI_SEGMENT, triTriIntersectionSegment, triTriOverlap } from '../query/triTri';
import { SAT_AXIS_SLACK, ROUNDING_ALLOWANCE, TREE_SLACK_RELATIVE } from '../tolerances';

/**
 * Queries on bounding trees (boundingTree.ts): tree vs tree, and tree vs OBB, sphere, capsule and
 * ray. Trees sit in the world at a rigid pose; queries never touch the tree, so one tree serves
 * every entity that shares the mesh.
 *
 * Tree vs tree follows RAPID/PQP: the pose of B's current node in A's current node frame (R, T)
 * is carried down, updated by one small product per step (entering A's child C:
 * R' = R_C^T R, T' = R_C^T (T - t_C); entering B's child D: R' = R R_D, T' = R t_D + T), and each
 * node pair is a box test in A's frame, where A is axis-aligned at the origin. Leaves compare
 * triangles exactly with `triTriOverlap`, so culling only saves work: results equal the
 * all-pairs brute force.
 *
 * Counters for the cost model T = Tv·Nv + Tp·Np: every query writes the number of volume tests
 * (`boxTests`, Nv) and triangle tests (`triangleTests`, Np) into its result.
 *
 * Nothing here allocates per call once the result and the module stacks have grown to size.
 */

/** Rigid pose: translation (3), then the rotation as 3 columns (9), like an OBB without half-extents. */
export const POSE_STRIDE = 12;


/** What a query collects: stop at the first hit, collect every hit, or hits with intersection segments. */
export type TreeQueryMode = 'first' | 'all' | 'contacts';
/** Box test per node pair: full 15-axis SAT, or the 6 face axes only (cheaper, culls less). */
export type TreeBoxTest = 'sat' | 'sat-lite';

/** Numbers per contact in `TreeQueryResult.segments`: two endpoints of the intersection segment, world frame. */
export const TREE_CONTACT_STRIDE = 6;
/** `TreeQueryResult.hit` layout: t, world normal (3), mesh triangle index. */
export const TREE_RAY_HIT_STRIDE = 5;

/** Reusable output of the tree queries; create once, pass to every query (each clears it). */
export class TreeQueryResult {
  /** Tree vs tree: (triangle of A, triangle of B), mesh triangle indices. */
  readonly pairs = new PairList();
  /** 'contacts' mode: TREE_CONTACT_STRIDE numbers per pair; meaningful where kinds[i] is TRI_TRI_SEGMENT. */
  segments = new Float64Array(16 * TREE_CONTACT_STRIDE);
  /** 'contacts' mode: TRI_TRI_SEGMENT or TRI_TRI_COPLANAR (an area: no segment is written) per pair. */
  kinds = new Uint8Array(16);
  /** Tree vs volume: mesh triangle indices hit, valid below `triangleCount`. */
  triangles = new Uint32Array(16);
  /** Number of entries in `triangles`. */
  triangleCount = 0;
  /**
   * Tree vs volume: the queried volume in the tree's mesh frame, exactly as the leaf tests saw it
   * (sphere [c, r], capsule [p0, p1, r], or an OBB in the OBB layout), so that exact per-triangle
   * kernels run on the found triangles (tree.triangles, mesh frame) see the very same numbers.
   */
  readonly query = new Float64Array(OBB_STRIDE);
  /** Ray cast: TREE_RAY_HIT_STRIDE numbers of the nearest hit. */
  readonly hit = new Float64Array(TREE_RAY_HIT_STRIDE);
  /** Volume tests of the last query (Nv). */
  boxTests = 0;
  /** Triangle tests of the last query (Np). */
  triangleTests = 0;

  /** Empties every list and zeroes the counters (storage is kept). */
  clear(): void {
    this.pairs.clear();
    this.triangleCount = 0;
    this.boxTests = 0;
    this.triangleTests = 0;
  }
}

/** Writes the pose (translation, quaternion x, y, z, w) as a POSE_STRIDE run at out[o]. Returns out. */
export function poseFromTranslationQuaternion(out: Floats, o: number, tx: number, ty: number, tz: number, q: ReadonlyFloats): Floats {
  out[o] = tx;
  out[o + 1] = ty;
  out[o + 2] = tz;
  return quaternionToMat3(out, o + 3, q);
}

/** Writes `count` points of src (xyz from so) moved by the pose at pose[po] to out[oo..]. */
export function transformByPose(out: Floats, oo: number, pose: ReadonlyFloats, po: number, src: ReadonlyFloats, so: number, count: number): void {
  for (let k = 0; k < 3 * count; k += 3) {
    const x = src[so + k], y = src[so + k + 1], z = src[so + k + 2];
    for (let i = 0; i < 3; i++) out[oo + k + i] = pose[po + i] + pose[po + 3 + i] * x + pose[po + 6 + i] * y + pose[po + 9 + i] * z;
  }
}

// ---- relative transforms (state = T (3), R columns (9), the POSE layout) ----

/** out = pose A^-1 · pose B: B's frame in A's frame. */
function relativePose(out: Floats, o: number, a: ReadonlyFloats, ao: number, b: ReadonlyFloats, bo: number): void {
  const dx = b[bo] - a[ao], dy = b[bo + 1] - a[ao + 1], dz = b[bo + 2] - a[ao + 2];
  for (let i = 0; i < 3; i++) {
    const u = ao + 3 + 3 * i;
    const ux = a[u], uy = a[u + 1], uz = a[u + 2];
    out[o + i] = ux * dx + uy * dy + uz * dz;
    for (let j = 0; j < 3; j++) {
      const v = bo + 3 + 3 * j;
      out[o + 3 + 3 * j + i] = ux * b[v] + uy * b[v + 1] + uz * b[v + 2];
    }
  }
}

/**
 * Re-expresses a state given in a parent frame in the frame of child node `c` (whose box, in the
 * parent frame, is at nodes[c * OBB_STRIDE]): T' = R_c^T (T - t_c), R' = R_c^T R. Reads all of
 * `src` before writing, so dst may alias src.
 */
function enterNode(dst: Float64Array, d: number, src: Float64Array, s: number, nodes: Float64Array, c: number): void {
  const n = c * OBB_STRIDE;
  const tx = src[s] - nodes[n], ty = src[s + 1] - nodes[n + 1], tz = src[s + 2] - nodes[n + 2];
  const r0 = src[s + 3], r1 = src[s + 4], r2 = src[s + 5];
  const r3 = src[s + 6], r4 = src[s + 7], r5 = src[s + 8];
  const r6 = src[s + 9], r7 = src[s + 10], r8 = src[s + 11];
  for (let i = 0; i < 3; i++) {
    const u = n + OBB_AXES + 3 * i;
    const ux = nodes[u], uy = nodes[u + 1], uz = nodes[u + 2];
    dst[d + i] = ux * tx + uy * ty + uz * tz;
    dst[d + 3 + i] = ux * r0 + uy * r1 + uz * r2;
    dst[d + 6 + i] = ux * r3 + uy * r4 + uz * r5;
    dst[d + 9 + i] = ux * r6 + uy * r7 + uz * r8;
  }
}

/**
 * Moves the body side of a state into child node `c` of the body's tree: T' = R t_c + T,
 * R' = R R_c. Reads all of `src` before writing, so dst may alias src.
 */
function enterBodyNode(dst: Float64Array, d: number, src: Float64Array, s: number, nodes: Float64Array, c: number): void {
  const n = c * OBB_STRIDE;
  const tx = src[s], ty = src[s + 1], tz = src[s + 2];
  const r0 = src[s + 3], r1 = src[s + 4], r2 = src[s + 5];
  const r3 = src[s + 6], r4 = src[s + 7], r5 = src[s + 8];
  const r6 = src[s + 9], r7 = src[s + 10], r8 = src[s + 11];
  const cx = nodes[n], cy = nodes[n + 1], cz = nodes[n + 2];
  dst[d] = r0 * cx + r3 * cy + r6 * cz + tx;
  dst[d + 1] = r1 * cx + r4 * cy + r7 * cz + ty;
  dst[d + 2] = r2 * cx + r5 * cy + r8 * cz + tz;
  for (let j = 0; j < 3; j++) {
    const u = n + OBB_AXES + 3 * j;
    const ux = nodes[u], uy = nodes[u + 1], uz = nodes[u + 2];
    dst[d + 3 + 3 * j] = r0 * ux + r3 * uy + r6 * uz;
    dst[d + 4 + 3 * j] = r1 * ux + r4 * uy + r7 * uz;
    dst[d + 5 + 3 * j] = r2 * ux + r5 * uy + r8 * uz;
  }
}

/**
 * Separating-axis test in RELATIVE form: box A axis-aligned at the origin with half-extents
 * (a0, a1, a2); box B with half-extents (b0, b1, b2), centre T and axes R (columns) given by the
 * state at st[s]. True when an axis separates them by more than `slack`. `full` adds the nine
 * edge-edge axes to the six face axes. R_ij below is component i of B's axis j.
 *
 * Conservative for a B whose axes are orthonormal only to SAT_AXIS_SLACK (a query box
 * from a Float32 store), A being orthonormal to rounding: A's face axes measure B's radius
 * Σ b_j |R_ij| exactly for any B; B's face axes add SAT_AXIS_SLACK × (b0 + b1 + b2) for
 * the error of taking b_j as B's radius along Bj; edge axis A_i × B_j, with (i, k, l) and
 * (j, m, n) cyclic, is L = R_kj·A_l − R_lj·A_k, with T·L = t_l R_kj − t_k R_lj, A's radius
 * a_k |R_lj| + a_l |R_kj| and B's radius b_m |R_kj R_lm − R_lj R_km| + b_n |R_kj R_ln − R_lj R_kn|
 * (B_m·L as a 2×2 minor of R, exact for any B). SAT_AXIS_SLACK added to every |R| and
 * minor keeps nearly parallel edges, whose axis is all rounding, from separating. False overlap,
 * in true distance along an axis: `slack` + SAT_AXIS_SLACK × (the six half-extents) per
 * face axis; that divided by sin(angle between the edges) for an edge axis (only costs descents).
 */
function boxesDisjoint(
  a0: number, a1: number, a2: number,
  b0: number, b1: number, b2: number,
  st: Float64Array, s: number, slack: number, full: boolean,
): boolean {
  const t0 = st[s], t1 = st[s + 1], t2 = st[s + 2];
  const r00 = st[s + 3], r10 = st[s + 4], r20 = st[s + 5];
  const r01 = st[s + 6], r11 = st[s + 7], r21 = st[s + 8];
  const r02 = st[s + 9], r12 = st[s + 10], r22 = st[s + 11];
  const e00 = Math.abs(r00) + SAT_AXIS_SLACK, e01 = Math.abs(r01) + SAT_AXIS_SLACK, e02 = Math.abs(r02) + SAT_AXIS_SLACK;
  const e10 = Math.abs(r10) + SAT_AXIS_SLACK, e11 = Math.abs(r11) + SAT_AXIS_SLACK, e12 = Math.abs(r12) + SAT_AXIS_SLACK;
  const e20 = Math.abs(r20) + SAT_AXIS_SLACK, e21 = Math.abs(r21) + SAT_AXIS_SLACK, e22 = Math.abs(r22) + SAT_AXIS_SLACK;
  // A's face axes.
  if (Math.abs(t0) > a0 + b0 * e00 + b1 * e01 + b2 * e02 + slack) return true;
  if (Math.abs(t1) > a1 + b0 * e10 + b1 * e11 + b2 * e12 + slack) return true;
  if (Math.abs(t2) > a2 + b0 * e20 + b1 * e21 + b2 * e22 + slack) return true;
  // B's face axes: B's radius along Bj is b_j up to SAT_AXIS_SLACK × (b0 + b1 + b2).
  const bSlack = slack + SAT_AXIS_SLACK * (b0 + b1 + b2);
  if (Math.abs(t0 * r00 + t1 * r10 + t2 * r20) > b0 + a0 * e00 + a1 * e10 + a2 * e20 + bSlack) return true;
  if (Math.abs(t0 * r01 + t1 * r11 + t2 * r21) > b1 + a0 * e01 + a1 * e11 + a2 * e21 + bSlack) return true;
  if (Math.abs(t0 * r02 + t1 * r12 + t2 * r22) > b2 + a0 * e02 + a1 * e12 + a2 * e22 + bSlack) return true;
  if (!full) return false;
  // A_i × B_j: B's radius from the minors of R without row i (mIcd: columns c and d), as src/sat.ts.
  // A0 × Bj: (k, l) = (1, 2).
  const m001 = Math.abs(r10 * r21 - r20 * r11) + SAT_AXIS_SLACK, m012 = Math.abs(r11 * r22 - r21 * r12) + SAT_AXIS_SLACK;
  const m020 = Math.abs(r12 * r20 - r22 * r10) + SAT_AXIS_SLACK;
  if (Math.abs(t2 * r10 - t1 * r20) > a1 * e20 + a2 * e10 + b1 * m001 + b2 * m020 + slack) return true;
  if (Math.abs(t2 * r11 - t1 * r21) > a1 * e21 + a2 * e11 + b2 * m012 + b0 * m001 + slack) return true;
  if (Math.abs(t2 * r12 - t1 * r22) > a1 * e22 + a2 * e12 + b0 * m020 + b1 * m012 + slack) return true;
  // A1 × Bj: (k, l) = (2, 0).
  const m101 = Math.abs(r20 * r01 - r00 * r21) + SAT_AXIS_SLACK, m112 = Math.abs(r21 * r02 - r01 * r22) + SAT_AXIS_SLACK;
  const m120 = Math.abs(r22 * r00 - r02 * r20) + SAT_AXIS_SLACK;
  if (Math.abs(t0 * r20 - t2 * r00) > a0 * e20 + a2 * e00 + b1 * m101 + b2 * m120 + slack) return true;
  if (Math.abs(t0 * r21 - t2 * r01) > a0 * e21 + a2 * e01 + b2 * m112 + b0 * m101 + slack) return true;
  if (Math.abs(t0 * r22 - t2 * r02) > a0 * e22 + a2 * e02 + b0 * m120 + b1 * m112 + slack) return true;
  // A2 × Bj: (k, l) = (0, 1).
  const m201 = Math.abs(r00 * r11 - r10 * r01) + SAT_AXIS_SLACK, m212 = Math.abs(r01 * r12 - r11 * r02) + SAT_AXIS_SLACK;
  const m220 = Math.abs(r02 * r10 - r12 * r00) + SAT_AXIS_SLACK;
  if (Math.abs(t1 * r00 - t0 * r10) > a0 * e10 + a1 * e00 + b1 * m201 + b2 * m220 + slack) return true;
  if (Math.abs(t1 * r01 - t0 * r11) > a0 * e11 + a1 * e01 + b2 * m212 + b0 * m201 + slack) return true;
  if (Math.abs(t1 * r02 - t0 * r12) > a0 * e12 + a1 * e02 + b0 * m220 + b1 * m212 + slack) return true;
  return false;
}

/** Sphere nodes: centres T apart (state at st[s]) further than the radii plus slack. */
function spheresDisjoint(ra: number, rb: number, st: Float64Array, s: number, slack: number): boolean {
  const t0 = st[s], t1 = st[s + 1], t2 = st[s + 2];
  const r = ra + rb + slack;
  return t0 * t0 + t1 * t1 + t2 * t2 > r * r;
}

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

// ---- tree vs a single volume ----

const QUERY_OBB = 0;
const QUERY_SPHERE = 1;
const QUERY_CAPSULE = 2;

// The query in the tree's mesh frame (leaf tests) and the half-extents of its node-test volume.
const queryBox = new Float64Array(OBB_STRIDE);
const queryCapsule = new Float64Array(CAPSULE_STRIDE);
const queryHalf = new Float64Array(3);
const closest = new Float64Array(Math.max(CLOSEST_ON_TRIANGLE_STRIDE, CLOSEST_SEGMENTS_STRIDE));
const rayScratch = new Float64Array(RAY_HIT_STRIDE);
const edge = new Float64Array(6);

/** Writes (x, y, z) given in world coordinates into the mesh frame of `pose` at out[o]. */
function toMeshFrame(out: Floats, o: number, pose: ReadonlyFloats, po: number, x: number, y: number, z: number): void {
  const dx = x - pose[po], dy = y - pose[po + 1], dz = z - pose[po + 2];
  for (let i = 0; i < 3; i++) {
    const u = po + 3 + 3 * i;
    out[o + i] = pose[u] * dx + pose[u + 1] * dy + pose[u + 2] * dz;
  }
}

/** Writes world direction (x, y, z) in the mesh frame of `pose` at out[o]. */
function directionToMeshFrame(out: Floats, o: number, pose: ReadonlyFloats, po: number, x: number, y: number, z: number): void {
  for (let i = 0; i < 3; i++) {
    const u = po + 3 + 3 * i;
    out[o + i] = pose[u] * x + pose[u + 1] * y + pose[u + 2] * z;
  }
}

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
    if (closestPtSegmentSegment(closest, 0, c, 0, edge, 0) <= r2) return true;
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
  pairStack[0] = 0;
  const ball = query === QUERY_SPHERE;
  let top = 1;
  while (top > 0) {
    const k = --top;
    const n = pairStack[k], s = POSE_STRIDE * k;
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
    pairStack[k] = c + 1;
    pairStack[k + 1] = c;
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

// ---- ray ----

const RAY_STATE = 6; // origin (3), direction (3), in the node frame
let rayStack = new Float64Array(32 * (RAY_STATE + 1));
let rayNodes = new Int32Array(32);
const meshRay = new Float64Array(RAY_STATE);

/** Ray state into child node c's frame: o' = R_c^T (o - t_c), d' = R_c^T d. */
function enterRay(dst: Float64Array, d: number, src: Float64Array, s: number, nodes: Float64Array, c: number): void {
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

/** Parameter where the ray (state at st[s]) enters node n's volume widened by slack; Infinity on a miss, 0 from inside. */
function rayEntry(tree: BoundingTree, n: number, st: Float64Array, s: number, slack: number): number {
  const h = n * OBB_STRIDE + OBB_HALF, nodes = tree.nodes;
  const ox = st[s], oy = st[s + 1], oz = st[s + 2], dx = st[s + 3], dy = st[s + 4], dz = st[s + 5];
  if (tree.kind === 'sphere') {
    const r = nodes[h] + slack;
    if (ox * ox + oy * oy + oz * oz <= r * r) return 0;
    return ballEntry(ox, oy, oz, dx, dy, dz, r);
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
  result.clear();
  toMeshFrame(meshRay, 0, pose, po, ox, oy, oz);
  directionToMeshFrame(meshRay, 3, pose, po, dx, dy, dz);
  const entries = tree.depth + 2;
  rayStack = grown(rayStack, (RAY_STATE + 1) * entries);
  rayNodes = grown(rayNodes, entries);
  const slack = TREE_SLACK_RELATIVE * (tree.scale + Math.hypot(meshRay[0], meshRay[1], meshRay[2]));
  const stride = RAY_STATE + 1; // state, then the entry parameter
  enterRay(rayStack, 0, meshRay, 0, tree.nodes, 0);
  result.boxTests++;
  rayStack[RAY_STATE] = rayEntry(tree, 0, rayStack, 0, slack);
  rayNodes[0] = 0;
  let top = rayStack[RAY_STATE] <= maxT ? 1 : 0;
  let best = maxT, hitTriangle = -1;
  const mx = meshRay[0], my = meshRay[1], mz = meshRay[2], mdx = meshRay[3], mdy = meshRay[4], mdz = meshRay[5];
  while (top > 0) {
    const k = --top, s = stride * k;
    if (rayStack[s + RAY_STATE] > best) continue;
    const n = rayNodes[k], c = tree.children[n];
    if (c < 0) {
      const first = tree.firstTriangle[n], end = first + tree.nodeTriangleCount[n];
      for (let t = first; t < end; t++) {
        result.triangleTests++;
        if (raycastTriangle(rayScratch, mx, my, mz, mdx, mdy, mdz, best, tree.triangles, 9 * t)) {
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
