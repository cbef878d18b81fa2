import { closestPtPointObb } from './closestPoints';
import { OBB_AXES, OBB_CENTER, OBB_HALF, OBB_STRIDE, type ReadonlyFloats } from '../layout';
import { SAT_AXIS_SLACK } from '../tolerances';

/**
 * Separating-axis tests for oriented boxes (Gottschalk's 15-axis test, as in RAPID; Ericson,
 * RTCD 4.4.1) over the flat OBB layout of layout.ts, plus the cheaper relatives built on it:
 * face-axes-only "SAT-lite", a cached-axis variant for temporal coherence, a bounding-sphere
 * pre-check, and OBB-sphere / OBB-AABB tests. Boxes are closed: touching counts as overlap.
 *
 * Everything runs in the frame of box A: R[i][j] = Ai·Bj is B's rotation seen from A and
 * t = A-frame coordinates of (cB − cA). All tests are allocation-free and trust their inputs.
 *
 * Axis indices (returned by `obbSeparatingAxis`): 0..2 = A0..A2, 3..5 = B0..B2,
 * 6 + 3i + j = Ai × Bj.
 */

/** Index of the first edge-cross axis (A0 × B0); face axes come before it. */
export const SAT_FIRST_EDGE_AXIS = 6;

/**
 * Core of every box-box test here. With `edges` false only the 6 face axes are tried.
 * The rows of R (R[i][j] = Ai·Bj) are computed as the A-face tests need them, so the many pairs
 * that a face of A separates never pay for the rest.
 *
 * Each box's projected radius along an axis is computed from the stored axes, never taken from
 * identities that hold only for exactly orthonormal axes:
 * - face Ai: t_i = d·Ai against ha_i + Σ hb_j |R[i][j]|;
 * - face Bj: u_j = Σ t_i R[i][j] against Σ ha_i |R[i][j]| + hb_j (u_j is d·Bj up to A's rounding
 *   times |d|, and |d| is bounded by the sizes once no face of A separates);
 * - edge Ai × Bj, with (i, k, l) and (j, m, n) cyclic: the axis L = R[k][j]·Al − R[l][j]·Ak, so
 *   d·L = t_l R[k][j] − t_k R[l][j]; A's radius ha_k |R[l][j]| + ha_l |R[k][j]|; B's radius
 *   hb_m |Bm·L| + hb_n |Bn·L|, where Bm·L = R[k][j] R[l][m] − R[l][j] R[k][m] is a 2×2 minor of R
 *   (Bj·L vanishes). For a rotation that minor is ±R[i][n], but computed as a minor it stays
 *   exact when the edges are nearly parallel and L is tiny, where the identity's Float32 error
 *   would dominate.
 * The slack (SAT_AXIS_SLACK × the six half-extents) is added once per face axis and scaled by
 * |R[l][j]| + |R[k][j]| (at most √2 |L|) per edge axis, so in true distance it stays a fixed
 * fraction of the boxes' size whatever the angle between the edges. A-face tests compute it only
 * when the axis would separate without it: most rejections happen there, and the sum on the
 * common path was measured to cost several percent.
 */
function separatingAxis(a: ReadonlyFloats, ao: number, b: ReadonlyFloats, bo: number, edges: boolean): number {
  const dx = b[bo] - a[ao], dy = b[bo + 1] - a[ao + 1], dz = b[bo + 2] - a[ao + 2];
  const b0x = b[bo + 3], b0y = b[bo + 4], b0z = b[bo + 5];
  const b1x = b[bo + 6], b1y = b[bo + 7], b1z = b[bo + 8];
  const b2x = b[bo + 9], b2y = b[bo + 10], b2z = b[bo + 11];
  const hb0 = b[bo + 12], hb1 = b[bo + 13], hb2 = b[bo + 14];
  const ha0 = a[ao + 12], ha1 = a[ao + 13], ha2 = a[ao + 14];

  const a0x = a[ao + 3], a0y = a[ao + 4], a0z = a[ao + 5];
  const r00 = a0x * b0x + a0y * b0y + a0z * b0z;
  const r01 = a0x * b1x + a0y * b1y + a0z * b1z;
  const r02 = a0x * b2x + a0y * b2y + a0z * b2z;
  const t0 = dx * a0x + dy * a0y + dz * a0z;
  const q00 = Math.abs(r00), q01 = Math.abs(r01), q02 = Math.abs(r02);
  const m0 = Math.abs(t0) - (ha0 + (hb0 * q00 + hb1 * q01 + hb2 * q02));
  if (m0 > 0 && m0 > SAT_AXIS_SLACK * (ha0 + ha1 + ha2 + hb0 + hb1 + hb2)) return 0;

  const a1x = a[ao + 6], a1y = a[ao + 7], a1z = a[ao + 8];
  const r10 = a1x * b0x + a1y * b0y + a1z * b0z;
  const r11 = a1x * b1x + a1y * b1y + a1z * b1z;
  const r12 = a1x * b2x + a1y * b2y + a1z * b2z;
  const t1 = dx * a1x + dy * a1y + dz * a1z;
  const q10 = Math.abs(r10), q11 = Math.abs(r11), q12 = Math.abs(r12);
  const m1 = Math.abs(t1) - (ha1 + (hb0 * q10 + hb1 * q11 + hb2 * q12));
  if (m1 > 0 && m1 > SAT_AXIS_SLACK * (ha0 + ha1 + ha2 + hb0 + hb1 + hb2)) return 1;

  const a2x = a[ao + 9], a2y = a[ao + 10], a2z = a[ao + 11];
  const r20 = a2x * b0x + a2y * b0y + a2z * b0z;
  const r21 = a2x * b1x + a2y * b1y + a2z * b1z;
  const r22 = a2x * b2x + a2y * b2y + a2z * b2z;
  const t2 = dx * a2x + dy * a2y + dz * a2z;
  const q20 = Math.abs(r20), q21 = Math.abs(r21), q22 = Math.abs(r22);
  const m2 = Math.abs(t2) - (ha2 + (hb0 * q20 + hb1 * q21 + hb2 * q22));
  const slack = SAT_AXIS_SLACK * (ha0 + ha1 + ha2 + hb0 + hb1 + hb2);
  if (m2 > 0 && m2 > slack) return 2;

  // B's axes: column j of R is Bj in A's frame.
  const u0 = t0 * r00 + t1 * r10 + t2 * r20;
  if (Math.abs(u0) > ha0 * q00 + ha1 * q10 + ha2 * q20 + hb0 + slack) return 3;
  const u1 = t0 * r01 + t1 * r11 + t2 * r21;
  if (Math.abs(u1) > ha0 * q01 + ha1 * q11 + ha2 * q21 + hb1 + slack) return 4;
  const u2 = t0 * r02 + t1 * r12 + t2 * r22;
  if (Math.abs(u2) > ha0 * q02 + ha1 * q12 + ha2 * q22 + hb2 + slack) return 5;
  if (!edges) return -1;

  // Most pairs that pass the face tests overlap. The point of A nearest B's centre (t clamped to
  // A's half-extents, in A's frame) lying in B proves it and skips the nine edge axes. Its
  // rounding (B coordinates read through A's frame) stays within the slack.
  const c0 = Math.max(-ha0, Math.min(ha0, t0));
  const c1 = Math.max(-ha1, Math.min(ha1, t1));
  const c2 = Math.max(-ha2, Math.min(ha2, t2));
  if (Math.abs(c0 * r00 + c1 * r10 + c2 * r20 - u0) <= hb0 && Math.abs(c0 * r01 + c1 * r11 + c2 * r21 - u1) <= hb1 &&
    Math.abs(c0 * r02 + c1 * r12 + c2 * r22 - u2) <= hb2) return -1;

  // |Bm·L| of the edge axes of row i are the minors of R without row i, one per pair of columns
  // (mIcd: columns c and d); axis Ai × Bj uses the two that contain column j. Written out, not
  // called: this function is past V8's inlining budget, and a call would box each result.
  // A0 × Bj: (k, l) = (1, 2).
  const m001 = Math.abs(r10 * r21 - r20 * r11), m012 = Math.abs(r11 * r22 - r21 * r12), m020 = Math.abs(r12 * r20 - r22 * r10);
  if (Math.abs(t2 * r10 - t1 * r20) > ha1 * q20 + ha2 * q10 + (hb1 * m001 + hb2 * m020) + slack * (q20 + q10)) return 6;
  if (Math.abs(t2 * r11 - t1 * r21) > ha1 * q21 + ha2 * q11 + (hb2 * m012 + hb0 * m001) + slack * (q21 + q11)) return 7;
  if (Math.abs(t2 * r12 - t1 * r22) > ha1 * q22 + ha2 * q12 + (hb0 * m020 + hb1 * m012) + slack * (q22 + q12)) return 8;
  // A1 × Bj: (k, l) = (2, 0).
  const m101 = Math.abs(r20 * r01 - r00 * r21), m112 = Math.abs(r21 * r02 - r01 * r22), m120 = Math.abs(r22 * r00 - r02 * r20);
  if (Math.abs(t0 * r20 - t2 * r00) > ha2 * q00 + ha0 * q20 + (hb1 * m101 + hb2 * m120) + slack * (q00 + q20)) return 9;
  if (Math.abs(t0 * r21 - t2 * r01) > ha2 * q01 + ha0 * q21 + (hb2 * m112 + hb0 * m101) + slack * (q01 + q21)) return 10;
  if (Math.abs(t0 * r22 - t2 * r02) > ha2 * q02 + ha0 * q22 + (hb0 * m120 + hb1 * m112) + slack * (q02 + q22)) return 11;
  // A2 × Bj: (k, l) = (0, 1).
  const m201 = Math.abs(r00 * r11 - r10 * r01), m212 = Math.abs(r01 * r12 - r11 * r02), m220 = Math.abs(r02 * r10 - r12 * r00);
  if (Math.abs(t1 * r00 - t0 * r10) > ha0 * q10 + ha1 * q00 + (hb1 * m201 + hb2 * m220) + slack * (q10 + q00)) return 12;
  if (Math.abs(t1 * r01 - t0 * r11) > ha0 * q11 + ha1 * q01 + (hb2 * m212 + hb0 * m201) + slack * (q11 + q01)) return 13;
  if (Math.abs(t1 * r02 - t0 * r12) > ha0 * q12 + ha1 * q02 + (hb0 * m220 + hb1 * m212) + slack * (q12 + q02)) return 14;
  return -1;
}

/**
 * Full 15-axis separating-axis test of two closed OBBs (`a` at `ao`, `b` at `bo`, layout.ts
 * OBB layout). Returns -1 when no axis separates them (they overlap or touch), else the index of
 * the first separating axis in the order A0..A2, B0..B2, then Ai × Bj = 6 + 3i + j. Boxes closer
 * than SAT_FALSE_OVERLAP_BAND times their summed half-extents may be reported as overlapping.
 */
export function obbSeparatingAxis(a: ReadonlyFloats, ao: number, b: ReadonlyFloats, bo: number): number {
  return separatingAxis(a, ao, b, bo, true);
}

/** Whether two closed OBBs overlap (touching counts): `obbSeparatingAxis(...) < 0`. */
export function obbOverlap(a: ReadonlyFloats, ao: number, b: ReadonlyFloats, bo: number): boolean {
  return separatingAxis(a, ao, b, bo, true) < 0;
}

/**
 * SAT-lite: only the 6 face axes. Conservative: it never reports separated boxes that overlap,
 * but it misses pairs that only an edge-cross axis separates (a few percent of random near pairs),
 * so it suits a cheap filter before an exact test or a tolerant game query, not a final answer.
 */
export function obbOverlapLite(a: ReadonlyFloats, ao: number, b: ReadonlyFloats, bo: number): boolean {
  return separatingAxis(a, ao, b, bo, false) < 0;
}

/** Scratch of `axisSeparates`: R[i][j] = Ai·Bj at 3i + j, then t_i = (cB − cA)·Ai at 9 + i. */
const frame = new Float64Array(12);

/**
 * Whether axis `axis` (0..14) alone separates the boxes. Evaluates the very expression of
 * `separatingAxis` for that axis (same operands, same order, so the same bits), so whenever it says
 * "separates", the full test finds a separating axis too, unless its early overlap answer comes
 * first: that point common to both boxes is off by rounding only, inside the slack an axis needs
 * to separate, so the cached test does not contradict the full one either way.
 * R and t go through a scratch array rather than small helpers: V8 did not inline those here (the
 * narrow phase's inlining budget is spent), and each call boxed its result.
 */
function axisSeparates(a: ReadonlyFloats, ao: number, b: ReadonlyFloats, bo: number, axis: number): boolean {
  const a0 = ao + OBB_AXES, b0 = bo + OBB_AXES;
  const ha = ao + OBB_HALF, hb = bo + OBB_HALF;
  const dx = b[bo] - a[ao], dy = b[bo + 1] - a[ao + 1], dz = b[bo + 2] - a[ao + 2];
  for (let i = 0; i < 3; i++) {
    const ai = a0 + 3 * i;
    for (let j = 0; j < 3; j++) frame[3 * i + j] = a[ai] * b[b0 + 3 * j] + a[ai + 1] * b[b0 + 3 * j + 1] + a[ai + 2] * b[b0 + 3 * j + 2];
    frame[9 + i] = dx * a[ai] + dy * a[ai + 1] + dz * a[ai + 2];
  }
  const slack = SAT_AXIS_SLACK * (a[ha] + a[ha + 1] + a[ha + 2] + b[hb] + b[hb + 1] + b[hb + 2]);
  if (axis < 3) {
    const r = 3 * axis;
    const margin = Math.abs(frame[9 + axis]) - (a[ha + axis] + (b[hb] * Math.abs(frame[r]) + b[hb + 1] * Math.abs(frame[r + 1]) + b[hb + 2] * Math.abs(frame[r + 2])));
    return margin > 0 && margin > slack;
  }
  if (axis < SAT_FIRST_EDGE_AXIS) {
    const j = axis - 3, r0 = frame[j], r1 = frame[3 + j], r2 = frame[6 + j];
    const u = frame[9] * r0 + frame[10] * r1 + frame[11] * r2;
    return Math.abs(u) > a[ha] * Math.abs(r0) + a[ha + 1] * Math.abs(r1) + a[ha + 2] * Math.abs(r2) + b[hb + j] + slack;
  }
  // Ai × Bj with (i, k, l) and (j, m, n) cyclic, as in `separatingAxis`.
  const e = axis - SAT_FIRST_EDGE_AXIS;
  const i = EDGE_I[e], j = EDGE_J[e];
  const k = NEXT[i], l = NEXT[k], m = NEXT[j], n = NEXT[m];
  const rkj = frame[3 * k + j], rlj = frame[3 * l + j];
  const qkj = Math.abs(rkj), qlj = Math.abs(rlj);
  const d = frame[9 + l] * rkj - frame[9 + k] * rlj;
  // |Bm·L| and |Bn·L|: the 2×2 minors of R that `separatingAxis` writes out, in its operand order.
  return Math.abs(d) > a[ha + k] * qlj + a[ha + l] * qkj +
    (b[hb + m] * Math.abs(rkj * frame[3 * l + m] - rlj * frame[3 * k + m]) + b[hb + n] * Math.abs(rkj * frame[3 * l + n] - rlj * frame[3 * k + n])) +
    slack * (qlj + qkj);
}

/** Edge axis e = 3i + j (counted from SAT_FIRST_EDGE_AXIS): its A index i and B index j; NEXT[i] = (i + 1) mod 3. */
const EDGE_I = Int8Array.from([0, 0, 0, 1, 1, 1, 2, 2, 2]);
const EDGE_J = Int8Array.from([0, 1, 2, 0, 1, 2, 0, 1, 2]);
const NEXT = Int8Array.from([1, 2, 0]);

/**
 * Temporal-coherence SAT: tries `lastAxis` (0..14, e.g. the axis this pair returned last frame;
 * -1 = none) first and returns it if it still separates, otherwise runs the full test. Overlap
 * answers are identical to `obbSeparatingAxis`; only which separating axis is reported may differ.
 * Pays when pairs stay apart for several frames with the same witness axis, especially an edge
 * axis, which the full test only reaches after the 6 face tests.
 */
export function obbSeparatingAxisCached(
  a: ReadonlyFloats,
  ao: number,
  b: ReadonlyFloats,
  bo: number,
  lastAxis: number,
): number {
  if (lastAxis >= 0 && axisSeparates(a, ao, b, bo, lastAxis)) return lastAxis;
  return separatingAxis(a, ao, b, bo, true);
}

/**
 * Whether the boxes' circumscribed spheres (centre, radius |half-extents|) overlap. False means
 * the boxes are certainly apart; true decides nothing.
 */
export function obbBoundingSpheresOverlap(a: ReadonlyFloats, ao: number, b: ReadonlyFloats, bo: number): boolean {
  const dx = b[bo] - a[ao], dy = b[bo + 1] - a[ao + 1], dz = b[bo + 2] - a[ao + 2];
  const ha0 = a[ao + OBB_HALF], ha1 = a[ao + OBB_HALF + 1], ha2 = a[ao + OBB_HALF + 2];
  const hb0 = b[bo + OBB_HALF], hb1 = b[bo + OBB_HALF + 1], hb2 = b[bo + OBB_HALF + 2];
  const r = Math.sqrt(ha0 * ha0 + ha1 * ha1 + ha2 * ha2) + Math.sqrt(hb0 * hb0 + hb1 * hb1 + hb2 * hb2);
  return dx * dx + dy * dy + dz * dz <= r * r;
}

/**
 * `obbOverlap` behind the bounding-sphere rejection. Pays when most candidate pairs are far apart
 * compared with their sizes (loose candidate lists, queries against many boxes); after a tight
 * AABB broad phase most pairs pass the sphere test and it is pure overhead (see the overlap
 * benchmark). Same answers as `obbOverlap`, except that pairs within rounding of touching
 * corner-to-corner along the centre line may be reported apart.
 */
export function obbOverlapWithSpherePrecheck(a: ReadonlyFloats, ao: number, b: ReadonlyFloats, bo: number): boolean {
  return obbBoundingSpheresOverlap(a, ao, b, bo) && separatingAxis(a, ao, b, bo, true) < 0;
}

const closestPoint = new Float64Array(3); // scratch: receives the clamped point; only its distance is used

/**
 * Whether a closed OBB and a closed sphere ([cx, cy, cz, r] at `so`) overlap: the sphere centre
 * clamped into the box (in the box frame) lies within r of the centre.
 *
 * No slack, unlike the box-box tests. Its bands, in true distance (test/kernelBands.test.ts):
 * - false overlap: only rounding, a few ulps of the largest coordinate (the clamped point is
 *   rebuilt in world coordinates, c + Σ clamp_k·u_k, and is a point of the stored box);
 * - false separation: the same rounding, which also loses a zero-radius sphere inside the box
 *   (the rebuilt point misses the centre by an ulp); and, for axes orthonormal only to ε (ε ≈
 *   1.2e-7 from a Float32 store), the clamped point is off the true closest point by up to about
 *   ε × (h0 + h1 + h2) across the face, so a sphere overlapping the box by less than that (small
 *   radii) can be reported apart: measured up to 3e-8 × (h0 + h1 + h2 + r).
 * So, unlike obbOverlap, it can falsely separate touching shapes from Float32 stores. Sound
 * alternative: sum the squared excesses max(|l_k| − h_k, 0)² in the box frame (exact for a centre
 * inside the box) and compare with (r + SAT_AXIS_SLACK × (h0 + h1 + h2))²; contactSphereObb
 * would then decide with that same expression.
 */
export function obbSphereOverlap(box: ReadonlyFloats, bo: number, sphere: ReadonlyFloats, so: number): boolean {
  const r = sphere[so + 3];
  return closestPtPointObb(closestPoint, 0, sphere[so], sphere[so + 1], sphere[so + 2], box, bo) <= r * r;
}

/**
 * Whether a closed min-max AABB (`aabb` at `ao`) and a closed sphere ([c, r] at `so`) overlap:
 * the squared distance from the centre to the box, by clamping, against r². Reads both from their
 * arrays (no numbers passed to a call, which V8 would box).
 */
export function aabbSphereOverlap(aabb: ReadonlyFloats, ao: number, sphere: ReadonlyFloats, so: number): boolean {
  let d2 = 0;
  for (let k = 0; k < 3; k++) {
    const c = sphere[so + k], lo = aabb[ao + k], hi = aabb[ao + 3 + k];
    const e = c < lo ? lo - c : c > hi ? c - hi : 0;
    d2 += e * e;
  }
  return d2 <= sphere[so + 3] * sphere[so + 3];
}

/** The AABB of `obbAabbOverlap` as an OBB with identity axes; only centre and half change. */
const aabbAsObb = new Float64Array(OBB_STRIDE);
aabbAsObb[OBB_AXES] = 1;
aabbAsObb[OBB_AXES + 4] = 1;
aabbAsObb[OBB_AXES + 8] = 1;

/**
 * Whether a closed OBB and a closed min-max AABB (`aabb` at `ao`) overlap: the full 15-axis test
 * with the AABB as an identity-axes box (written into module scratch, so nothing is allocated).
 */
export function obbAabbOverlap(box: ReadonlyFloats, bo: number, aabb: ReadonlyFloats, ao: number): boolean {
  for (let k = 0; k < 3; k++) {
    const lo = aabb[ao + k], hi = aabb[ao + 3 + k];
    aabbAsObb[OBB_CENTER + k] = 0.5 * (lo + hi);
    aabbAsObb[OBB_HALF + k] = 0.5 * (hi - lo);
  }
  return separatingAxis(box, bo, aabbAsObb, 0, true) < 0;
}
