import { OBB_AXES, OBB_STRIDE } from '../layout';
import { SAT_AXIS_SLACK } from '../tolerances';

/**
 * Node steps and node tests shared by the tree descents. A descent carries the pose of the
 * query (or of the other tree's node) in the current node's frame, the POSE layout, and updates
 * it with one small product per step (RAPID / PQP); each node test then runs in the node's frame,
 * where the node box is axis-aligned at the origin.
 */

/**
 * Re-expresses a state given in a parent frame in the frame of child node `c` (whose box, in the
 * parent frame, is at nodes[c * OBB_STRIDE]): T' = R_c^T (T - t_c), R' = R_c^T R. Reads all of
 * `src` before writing, so dst may alias src.
 */
export function enterNode(dst: Float64Array, d: number, src: Float64Array, s: number, nodes: Float64Array, c: number): void {
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
export function enterBodyNode(dst: Float64Array, d: number, src: Float64Array, s: number, nodes: Float64Array, c: number): void {
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
export function boxesDisjoint(
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
  // A_i × B_j: B's radius from the minors of R without row i (mIcd: columns c and d), as src/query/sat.ts.
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
export function spheresDisjoint(ra: number, rb: number, st: Float64Array, s: number, slack: number): boolean {
  const t0 = st[s], t1 = st[s + 1], t2 = st[s + 2];
  const r = ra + rb + slack;
  return t0 * t0 + t1 * t1 + t2 * t2 > r * r;
}
