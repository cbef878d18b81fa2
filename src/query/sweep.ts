import { OBB_AXES, OBB_CENTER, OBB_HALF, OBB_STRIDE, type Floats, type ReadonlyFloats } from '../layout';
import { obbQuaternion } from '../volumes/obb';
import { quaternionToMat3 } from '../rotation';
import { closestPtPointObbArrays } from './closestPoints';
import {
  SLERP_LINEAR_GAP,
  SWEEP_ANTIPARALLEL_GAP,
  SWEEP_CONTACT_TOLERANCE,
  SWEEP_MAX_STEPS,
  TOI_PARALLEL_SINE,
} from '../tolerances';

/**
 * Swept contact of shapes that move AND turn during a frame (a sword swung through a limb that
 * also moves): the first time t in [0, 1] at which they touch, by conservative advancement.
 *
 * Motion model: each shape moves rigidly from its start pose to its end pose as interpolateObb
 * moves a box (centre and half-extents linear in t, axes by shortest-path quaternion slerp at a
 * constant angular speed). A capsule moves the same way: its centre linearly, its direction along
 * the great circle from the start direction to the end one, its half-length and radius linearly
 * (not its endpoints linearly, which would shrink a swung blade through its own hilt).
 *
 * Conservative advancement starts at a time before which cheap bounds keep the shapes farther
 * apart than the contact tolerance (preparedStartTime: their bounding spheres, then A's capsule
 * over sub-intervals of the frame); a pair the bounds never bring that close is apart throughout.
 * From there, at time t, d is a lower bound of the distance, the largest gap of the shapes'
 * projections over the 15 box-box separating axes and, near contact, over the direction between
 * approximate closest points (alternating projections), each gap computed exactly from the
 * shapes' supports. Along that fixed world direction n the gap cannot shrink faster than
 *   (Δc_A − Δc_B)·n + Σ θ·|H|max·|n × ω| + |ΔH| + Δr
 * (centre motion along n, each shape's turn θ about its world axis ω moving a point at most
 * θ·|H| and only across n, and the growth of its half-extents and radius), so the shapes stay
 * apart for d / rate longer. The sweep advances by that, and stops when d falls below
 * SWEEP_CONTACT_TOLERANCE × (the shapes' half-diagonals plus radius): that t is never later than
 * the true first contact, and the shapes are then within that tolerance of touching along every
 * axis tested (their distance within √6 times it: the 15 axes span the normal cone of the
 * closest features). A rate <= 0 means the gap along n never shrinks again: no contact.
 *
 * Allocation-free (module scratch); not re-entrant.
 */

/** Result of a sweep: t, the unit normal (3), the contact point (3): the layout of SHAPE_CAST_HIT_STRIDE. */
export const SWEEP_HIT_STRIDE = 7;

// One shape's motion, prepared once per sweep: start centre (3), centre displacement (3), start
// half-extents (3), their change (3), start and end quaternions (4 + 4, same hemisphere), the
// slerp half-angle φ (0: linear path) and 1/sin φ, the turn θ = 2φ, its world axis ω (3), the
// largest half-diagonal, |ΔH|, start radius and its change.
const M_C = 0, M_DC = 3, M_H = 6, M_DH = 9, M_Q0 = 12, M_Q1 = 16, M_PHI = 20, M_INV_SIN = 21, M_THETA = 22,
  M_AXIS = 23, M_HMAX = 26, M_DH_LENGTH = 27, M_R = 28, M_DR = 29;
const MOTION_STRIDE = 30;
/** Numbers of one prepared box motion (prepareBoxMotion). */
export const SWEEP_MOTION_STRIDE = MOTION_STRIDE;

const motions = new Float64Array(2 * MOTION_STRIDE); // shape A at 0, B at MOTION_STRIDE
const quaternion = new Float64Array(4);
const boxes = new Float64Array(2 * OBB_STRIDE); // both shapes at the current time: A at 0, B at 15
const capsuleBoxes = new Float64Array(2 * OBB_STRIDE); // a capsule's segment as boxes, start and end
const direction = new Float64Array(4); // the deciding axis n (A towards B)
const closest = new Float64Array(6); // alternating projections: point on A (3), point on B (3)
const onBox = new Float64Array(4); // a point's closest point on a box (3), their squared distance
/**
 * The sweep's times, for the callers stepping it (hitboxSweep.ts): the time of the step at hand
 * (SWEEP_T), the answer of sweepStep and preparedStartTime (SWEEP_NEXT), and the latest time
 * that counts (SWEEP_LIMIT). Numbers pass through arrays here: V8 boxes a double passed to or
 * returned from a call it does not inline.
 * @internal
 */
export const sweepClock = new Float64Array(3);
/** @internal See sweepClock. */
export const SWEEP_T = 0;
/** @internal See sweepClock. */
export const SWEEP_NEXT = 1;
/** @internal See sweepClock. */
export const SWEEP_LIMIT = 2;
// The helpers' numbers: the shapes' radii at the posed time (A, B), satGap's `near` and its
// answer, the closest points' distance, a segment parameter and the distance there, and the
// closing rate.
const scalars = new Float64Array(9);
const RADIUS_A = 0, RADIUS_B = 1, NEAR = 2, GAP = 3, DISTANCE = 4, PARAMETER = 5, PARAMETER_DISTANCE = 6, RATE = 7;
/** Time 0, for posing shape A at its start. */
const startTime = new Float64Array(1);

/** Whether the prepared shape A is a capsule's segment (a box with one non-zero half-extent). */
let segmentA = false;

/**
 * Below this gap (as a fraction of the shapes' sizes) a capsule's sweep also tries the direction
 * between its closest points: there the SAT axes understate its distance (its radius comes on top
 * of their √6), which slows the advance; farther away they decide quickly.
 */
const NEAR_FRACTION = 0.25;
/** Alternating projections per step near contact, and for the contact point. */
const PROJECTIONS_PER_STEP = 3;
const PROJECTIONS_FOR_POINT = 16;

/**
 * Writes the motion from box0 (at o0) to box1 (at o1), radius radii[ri0] to radii[ri1], at
 * M[m..m + SWEEP_MOTION_STRIDE).
 */
function prepareMotion(
  M: Float64Array, m: number, box0: ReadonlyFloats, o0: number, box1: ReadonlyFloats, o1: number,
  radii: ReadonlyFloats, ri0: number, ri1: number,
): void {
  const r0 = radii[ri0], r1 = radii[ri1];
  let h0 = 0, h1 = 0, dh = 0;
  for (let k = 0; k < 3; k++) {
    const c = box0[o0 + OBB_CENTER + k], a = box0[o0 + OBB_HALF + k], b = box1[o1 + OBB_HALF + k];
    M[m + M_C + k] = c;
    M[m + M_DC + k] = box1[o1 + OBB_CENTER + k] - c;
    M[m + M_H + k] = a;
    M[m + M_DH + k] = b - a;
    h0 += a * a;
    h1 += b * b;
    dh += (b - a) * (b - a);
  }
  obbQuaternion(M, m + M_Q0, box0, o0);
  obbQuaternion(M, m + M_Q1, box1, o1);
  let cos = 0;
  for (let k = 0; k < 4; k++) cos += M[m + M_Q0 + k] * M[m + M_Q1 + k];
  // q and −q are the same rotation: slerp takes the nearer one, as slerpQuaternion does.
  if (cos < 0) {
    cos = -cos;
    for (let k = 0; k < 4; k++) M[m + M_Q1 + k] = -M[m + M_Q1 + k];
  }
  let chord = 0;
  for (let k = 0; k < 4; k++) chord += (M[m + M_Q1 + k] - M[m + M_Q0 + k]) ** 2;
  // The half-angle from the chord |q1 − q0| = 2 sin(φ/2): accurate for small turns, where acos is not.
  const phi = 2 * Math.asin(Math.min(1, 0.5 * Math.sqrt(chord)));
  const linear = !(cos < 1 - SLERP_LINEAR_GAP);
  const angle = linear ? 0 : Math.acos(cos);
  M[m + M_PHI] = angle;
  M[m + M_INV_SIN] = linear ? 0 : 1 / Math.sin(angle);
  M[m + M_THETA] = 2 * phi;
  // World axis of the turn: the vector part of q1·q0⁻¹ (R(s) = Rot(ω, sθ)·R0).
  const x0 = M[m + M_Q0], y0 = M[m + M_Q0 + 1], z0 = M[m + M_Q0 + 2], w0 = M[m + M_Q0 + 3];
  const x1 = M[m + M_Q1], y1 = M[m + M_Q1 + 1], z1 = M[m + M_Q1 + 2], w1 = M[m + M_Q1 + 3];
  let ax = w0 * x1 - w1 * x0 - (y1 * z0 - z1 * y0);
  let ay = w0 * y1 - w1 * y0 - (z1 * x0 - x1 * z0);
  let az = w0 * z1 - w1 * z0 - (x1 * y0 - y1 * x0);
  const len = Math.sqrt(ax * ax + ay * ay + az * az);
  if (len > 0) {
    ax /= len; ay /= len; az /= len;
  }
  M[m + M_AXIS] = ax; M[m + M_AXIS + 1] = ay; M[m + M_AXIS + 2] = az;
  M[m + M_HMAX] = Math.sqrt(Math.max(h0, h1));
  M[m + M_DH_LENGTH] = Math.sqrt(dh);
  M[m + M_R] = r0;
  M[m + M_DR] = r1 - r0;
}

/** Writes shape `slot`'s box at time s = times[ti] into out[oo..oo+14], its radius then into scalars[RADIUS_A + slot]. */
function poseAt(slot: number, times: Float64Array, ti: number, out: Floats, oo: number): void {
  const m = slot * MOTION_STRIDE, M = motions, s = times[ti];
  const angle = M[m + M_PHI];
  let sa = 1 - s, sb = s;
  if (angle > 0) {
    sa = Math.sin((1 - s) * angle) * M[m + M_INV_SIN];
    sb = Math.sin(s * angle) * M[m + M_INV_SIN];
  }
  // All of M read into locals before the first store (a store to a typed array reloads them).
  const x = sa * M[m + M_Q0] + sb * M[m + M_Q1], y = sa * M[m + M_Q0 + 1] + sb * M[m + M_Q1 + 1];
  const z = sa * M[m + M_Q0 + 2] + sb * M[m + M_Q1 + 2], w = sa * M[m + M_Q0 + 3] + sb * M[m + M_Q1 + 3];
  const cx = M[m + M_C] + s * M[m + M_DC], cy = M[m + M_C + 1] + s * M[m + M_DC + 1], cz = M[m + M_C + 2] + s * M[m + M_DC + 2];
  const h0 = M[m + M_H] + s * M[m + M_DH], h1 = M[m + M_H + 1] + s * M[m + M_DH + 1], h2 = M[m + M_H + 2] + s * M[m + M_DH + 2];
  const r = M[m + M_R] + s * M[m + M_DR];
  const n = Math.sqrt(x * x + y * y + z * z + w * w);
  quaternion[0] = x / n; quaternion[1] = y / n; quaternion[2] = z / n; quaternion[3] = w / n;
  quaternionToMat3(out, oo + OBB_AXES, quaternion);
  out[oo + OBB_CENTER] = cx; out[oo + OBB_CENTER + 1] = cy; out[oo + OBB_CENTER + 2] = cz;
  out[oo + OBB_HALF] = h0; out[oo + OBB_HALF + 1] = h1; out[oo + OBB_HALF + 2] = h2;
  scalars[RADIUS_A + slot] = r;
}

/**
 * Gap of the current boxes' projections on the unit n at v[vo..vo + 2] (A towards B), less each
 * box's projection radius: > 0 apart along n. Into scalars[GAP].
 */
function gapAlong(v: Float64Array, vo: number): void {
  const b = boxes, nx = v[vo], ny = v[vo + 1], nz = v[vo + 2];
  let gap = (b[15] - b[0]) * nx + (b[16] - b[1]) * ny + (b[17] - b[2]) * nz;
  for (let o = 0; o <= 15; o += 15) {
    gap -= b[o + 12] * Math.abs(b[o + 3] * nx + b[o + 4] * ny + b[o + 5] * nz) +
      b[o + 13] * Math.abs(b[o + 6] * nx + b[o + 7] * ny + b[o + 8] * nz) +
      b[o + 14] * Math.abs(b[o + 9] * nx + b[o + 10] * ny + b[o + 11] * nz);
  }
  scalars[GAP] = gap;
}

/**
 * Largest projection gap of the current boxes over the 15 separating axes (edge axes normalised,
 * near-parallel ones skipped, which only lowers the bound; all nine skipped once a face axis
 * shows a gap of `near`, read at scalars[NEAR]), into scalars[GAP]; its unit axis, oriented from A
 * towards B, goes to `direction`.
 * The axes are written out over locals, as `separatingAxis` (sat.ts) writes them: a loop over
 * index tables reading a scratch rotation measured about 10% slower per melee swing.
 */
function satGap(): void {
  const b = boxes, near = scalars[NEAR];
  const dx = b[15] - b[0], dy = b[16] - b[1], dz = b[17] - b[2];
  const ha0 = b[12], ha1 = b[13], ha2 = b[14], hb0 = b[27], hb1 = b[28], hb2 = b[29];
  // r_ij = Ai·Bj, t_i = d·Ai: B and d in A's frame (both frames are rotations: they come from
  // quaternions), so every axis below is a few products of these. Unrolled into locals: loops
  // over scratch arrays, reloaded after every store to them, cost a tenth more of a melee swing.
  const a0x = b[3], a0y = b[4], a0z = b[5];
  const a1x = b[6], a1y = b[7], a1z = b[8];
  const a2x = b[9], a2y = b[10], a2z = b[11];
  const b0x = b[18], b0y = b[19], b0z = b[20];
  const b1x = b[21], b1y = b[22], b1z = b[23];
  const b2x = b[24], b2y = b[25], b2z = b[26];
  const r00 = a0x * b0x + a0y * b0y + a0z * b0z, r01 = a0x * b1x + a0y * b1y + a0z * b1z, r02 = a0x * b2x + a0y * b2y + a0z * b2z;
  const q00 = Math.abs(r00), q01 = Math.abs(r01), q02 = Math.abs(r02);
  const r10 = a1x * b0x + a1y * b0y + a1z * b0z, r11 = a1x * b1x + a1y * b1y + a1z * b1z, r12 = a1x * b2x + a1y * b2y + a1z * b2z;
  const q10 = Math.abs(r10), q11 = Math.abs(r11), q12 = Math.abs(r12);
  const r20 = a2x * b0x + a2y * b0y + a2z * b0z, r21 = a2x * b1x + a2y * b1y + a2z * b1z, r22 = a2x * b2x + a2y * b2y + a2z * b2z;
  const q20 = Math.abs(r20), q21 = Math.abs(r21), q22 = Math.abs(r22);
  const t0 = dx * a0x + dy * a0y + dz * a0z, t1 = dx * a1x + dy * a1y + dz * a1z, t2 = dx * a2x + dy * a2y + dz * a2z;
  // axis: 0..2 A's faces, 3..5 B's, 6 + 3i + j the edge axis Ai × Bj.
  let best = Math.abs(t0) - (ha0 + hb0 * q00 + hb1 * q01 + hb2 * q02), axis = 0, g: number;
  g = Math.abs(t1) - (ha1 + hb0 * q10 + hb1 * q11 + hb2 * q12);
  if (g > best) { best = g; axis = 1; }
  g = Math.abs(t2) - (ha2 + hb0 * q20 + hb1 * q21 + hb2 * q22);
  if (g > best) { best = g; axis = 2; }
  g = Math.abs(t0 * r00 + t1 * r10 + t2 * r20) - (ha0 * q00 + ha1 * q10 + ha2 * q20 + hb0);
  if (g > best) { best = g; axis = 3; }
  g = Math.abs(t0 * r01 + t1 * r11 + t2 * r21) - (ha0 * q01 + ha1 * q11 + ha2 * q21 + hb1);
  if (g > best) { best = g; axis = 4; }
  g = Math.abs(t0 * r02 + t1 * r12 + t2 * r22) - (ha0 * q02 + ha1 * q12 + ha2 * q22 + hb2);
  if (g > best) { best = g; axis = 5; }
  // Far apart, a face axis already gives a long safe step; the edge axes matter near contact.
  // Ai × Bj with (i, k, l) and (j, m, n) cyclic: its length √(r_kj² + r_lj²), d·L = t_l r_kj −
  // t_k r_lj, A's radius ha_k |r_lj| + ha_l |r_kj|, B's hb_m |r_in| + hb_n |r_im|.
  let len: number;
  if (best < near) {
    len = Math.sqrt(r10 * r10 + r20 * r20);
    if (len > TOI_PARALLEL_SINE) {
      g = (Math.abs(t2 * r10 - t1 * r20) - (ha1 * q20 + ha2 * q10 + hb1 * q02 + hb2 * q01)) / len;
      if (g > best) { best = g; axis = 6; }
    }
    len = Math.sqrt(r11 * r11 + r21 * r21);
    if (len > TOI_PARALLEL_SINE) {
      g = (Math.abs(t2 * r11 - t1 * r21) - (ha1 * q21 + ha2 * q11 + hb2 * q00 + hb0 * q02)) / len;
      if (g > best) { best = g; axis = 7; }
    }
    len = Math.sqrt(r12 * r12 + r22 * r22);
    if (len > TOI_PARALLEL_SINE) {
      g = (Math.abs(t2 * r12 - t1 * r22) - (ha1 * q22 + ha2 * q12 + hb0 * q01 + hb1 * q00)) / len;
      if (g > best) { best = g; axis = 8; }
    }
  }
  if (best < near) {
    len = Math.sqrt(r20 * r20 + r00 * r00);
    if (len > TOI_PARALLEL_SINE) {
      g = (Math.abs(t0 * r20 - t2 * r00) - (ha2 * q00 + ha0 * q20 + hb1 * q12 + hb2 * q11)) / len;
      if (g > best) { best = g; axis = 9; }
    }
    len = Math.sqrt(r21 * r21 + r01 * r01);
    if (len > TOI_PARALLEL_SINE) {
      g = (Math.abs(t0 * r21 - t2 * r01) - (ha2 * q01 + ha0 * q21 + hb2 * q10 + hb0 * q12)) / len;
      if (g > best) { best = g; axis = 10; }
    }
    len = Math.sqrt(r22 * r22 + r02 * r02);
    if (len > TOI_PARALLEL_SINE) {
      g = (Math.abs(t0 * r22 - t2 * r02) - (ha2 * q02 + ha0 * q22 + hb0 * q11 + hb1 * q10)) / len;
      if (g > best) { best = g; axis = 11; }
    }
  }
  if (best < near) {
    len = Math.sqrt(r00 * r00 + r10 * r10);
    if (len > TOI_PARALLEL_SINE) {
      g = (Math.abs(t1 * r00 - t0 * r10) - (ha0 * q10 + ha1 * q00 + hb1 * q22 + hb2 * q21)) / len;
      if (g > best) { best = g; axis = 12; }
    }
    len = Math.sqrt(r01 * r01 + r11 * r11);
    if (len > TOI_PARALLEL_SINE) {
      g = (Math.abs(t1 * r01 - t0 * r11) - (ha0 * q11 + ha1 * q01 + hb2 * q20 + hb0 * q22)) / len;
      if (g > best) { best = g; axis = 13; }
    }
    len = Math.sqrt(r02 * r02 + r12 * r12);
    if (len > TOI_PARALLEL_SINE) {
      g = (Math.abs(t1 * r02 - t0 * r12) - (ha0 * q12 + ha1 * q02 + hb0 * q21 + hb1 * q20)) / len;
      if (g > best) { best = g; axis = 14; }
    }
  }
  let nx: number, ny: number, nz: number;
  if (axis < 6) {
    const o = axis < 3 ? 3 + 3 * axis : 18 + 3 * (axis - 3);
    nx = b[o]; ny = b[o + 1]; nz = b[o + 2];
  } else {
    const ai = 3 + 3 * Math.floor((axis - 6) / 3), bj = 18 + 3 * ((axis - 6) % 3);
    nx = b[ai + 1] * b[bj + 2] - b[ai + 2] * b[bj + 1];
    ny = b[ai + 2] * b[bj] - b[ai] * b[bj + 2];
    nz = b[ai] * b[bj + 1] - b[ai + 1] * b[bj];
    const len = Math.sqrt(nx * nx + ny * ny + nz * nz);
    nx /= len; ny /= len; nz /= len;
  }
  const sign = dx * nx + dy * ny + dz * nz < 0 ? -1 : 1;
  direction[0] = sign * nx; direction[1] = sign * ny; direction[2] = sign * nz;
  scalars[GAP] = best;
}

/**
 * Alternating projections between the current boxes, `rounds` times from A's centre: `closest`
 * gets a point of A and the point of B nearest it (converging to closest points, or to a common
 * point when the boxes meet). Their distance goes to scalars[DISTANCE].
 */
function project(rounds: number): void {
  const c = closest;
  c[0] = boxes[0]; c[1] = boxes[1]; c[2] = boxes[2];
  for (let r = 0; r < rounds; r++) {
    const x = c[0], y = c[1], z = c[2];
    closestPtPointObbArrays(onBox, 0, c, 0, boxes, 15);
    for (let k = 0; k < 3; k++) c[3 + k] = onBox[k];
    closestPtPointObbArrays(onBox, 0, c, 3, boxes, 0);
    for (let k = 0; k < 3; k++) c[k] = onBox[k];
    // Back where it was: a fixed point, every further round the same (often at once, the boxes overlapping).
    if (c[0] === x && c[1] === y && c[2] === z) break;
  }
  pointOnB();
  scalars[DISTANCE] = Math.sqrt(onBox[3]);
}

/** The point of box B closest to closest[0..2] into closest[3..5], their squared distance into onBox[3]. */
function pointOnB(): void {
  closestPtPointObbArrays(onBox, 0, closest, 0, boxes, 15);
  for (let k = 0; k < 3; k++) closest[3 + k] = onBox[k];
}

/** Golden-section steps of `projectSegment`: the parameter to 0.618^40 ≈ 4e-9 of the segment. */
const GOLDEN_STEPS = 40;
const GOLDEN = (Math.sqrt(5) - 1) / 2;

/**
 * Distance from the point at parameter u = scalars[PARAMETER] of A's segment (its first axis) to
 * box B, into scalars[PARAMETER_DISTANCE]; the points go to `closest`.
 */
function segmentPointDistance(): void {
  const b = boxes, u = scalars[PARAMETER];
  const w = (2 * u - 1) * b[12];
  closest[0] = b[0] + w * b[3]; closest[1] = b[1] + w * b[4]; closest[2] = b[2] + w * b[5];
  pointOnB();
  scalars[PARAMETER_DISTANCE] = Math.sqrt(onBox[3]);
}

/**
 * For a capsule's segment (A): its closest points to box B, by golden-section search of the
 * point-box distance along it (a convex function of the parameter), into `closest`; their
 * distance into scalars[DISTANCE]. Alternating projections converge slowly for a segment nearly
 * parallel to a face, and a capsule needs the true distance: its radius is subtracted from it.
 */
function projectSegment(): void {
  const S = scalars;
  let lo = 0, hi = 1;
  let u1 = hi - GOLDEN * (hi - lo), u2 = lo + GOLDEN * (hi - lo);
  S[PARAMETER] = u1;
  segmentPointDistance();
  let f1 = S[PARAMETER_DISTANCE];
  S[PARAMETER] = u2;
  segmentPointDistance();
  let f2 = S[PARAMETER_DISTANCE];
  for (let i = 0; i < GOLDEN_STEPS; i++) {
    if (f1 <= f2) {
      hi = u2; u2 = u1; f2 = f1;
      u1 = hi - GOLDEN * (hi - lo);
      S[PARAMETER] = u1;
      segmentPointDistance();
      f1 = S[PARAMETER_DISTANCE];
    } else {
      lo = u1; u1 = u2; f1 = f2;
      u2 = lo + GOLDEN * (hi - lo);
      S[PARAMETER] = u2;
      segmentPointDistance();
      f2 = S[PARAMETER_DISTANCE];
    }
  }
  // The ends are where the minimum often is (a point-box distance along a segment is flat there).
  let best = 0.5 * (lo + hi);
  S[PARAMETER] = best;
  segmentPointDistance();
  let f = S[PARAMETER_DISTANCE];
  for (let u = 0; u <= 1; u++) {
    S[PARAMETER] = u;
    segmentPointDistance();
    if (S[PARAMETER_DISTANCE] < f) { f = S[PARAMETER_DISTANCE]; best = u; }
  }
  S[PARAMETER] = best;
  segmentPointDistance();
  S[DISTANCE] = S[PARAMETER_DISTANCE];
}

/** Closest points of the current shapes into `closest` (`rounds` alternating projections for two boxes); their distance into scalars[DISTANCE]. */
function closestPoints(rounds: number): void {
  if (segmentA) projectSegment();
  else project(rounds);
}

/** Upper bound of how fast the gap along the fixed unit `direction` can shrink over the motion, into scalars[RATE]. */
function closingRate(): void {
  const M = motions, B = MOTION_STRIDE;
  const nx = direction[0], ny = direction[1], nz = direction[2];
  let rate = (M[M_DC] - M[B + M_DC]) * nx + (M[M_DC + 1] - M[B + M_DC + 1]) * ny + (M[M_DC + 2] - M[B + M_DC + 2]) * nz;
  for (let m = 0; m <= B; m += B) {
    const w = M[m + M_AXIS] * nx + M[m + M_AXIS + 1] * ny + M[m + M_AXIS + 2] * nz;
    rate += M[m + M_THETA] * M[m + M_HMAX] * Math.sqrt(Math.max(0, 1 - w * w)) + M[m + M_DH_LENGTH] + M[m + M_DR];
  }
  scalars[RATE] = rate;
}

/** Largest half-diagonal plus largest radius of the shape whose motion is at M[m]: its bounding sphere's radius about its centre at any time. */
function motionSize(M: Float64Array, m: number): number {
  return M[m + M_HMAX] + Math.max(M[m + M_R], M[m + M_R] + M[m + M_DR]);
}

/** @internal sweepStep's answer when the shapes are within the contact tolerance at the time given. */
export const SWEEP_STEP_CONTACT = -2;

/**
 * @internal One step of conservative advancement of the prepared motions (A at slot 0, B at slot
 * 1, sweepSelect) at time t = sweepClock[SWEEP_T], the `step`th of their sweep: SWEEP_STEP_CONTACT
 * when they are within the contact tolerance at t (or the step is the last allowed), the shapes
 * left posed there for sweepContact; −1 when the gap along the deciding axis never shrinks again;
 * else 0, the next time, t + d / rate, at sweepClock[SWEEP_NEXT] (past tMax, or NaN, ends the
 * sweep: the caller checks). A sweep's times depend on nothing but its two motions and its start,
 * so sweeps stepped in any interleaving give the times each gives alone.
 */
export function sweepStep(step: number): number {
  const M = motions, B = MOTION_STRIDE, S = scalars;
  const scale = motionSize(M, 0) + motionSize(M, B);
  const tolerance = SWEEP_CONTACT_TOLERANCE * scale;
  const near = NEAR_FRACTION * scale;
  poseAt(0, sweepClock, SWEEP_T, boxes, 0);
  poseAt(1, sweepClock, SWEEP_T, boxes, 15);
  const radii = S[RADIUS_A] + S[RADIUS_B];
  S[NEAR] = near + radii;
  satGap();
  let d = S[GAP] - radii;
  // Before reporting contact, the closest points' direction, which the 15 axes can understate
  // (corner against corner, by up to √6); for a capsule, whose radius comes on top of that, at
  // every step near contact. (For two boxes at every step near contact too, it saved no steps
  // in the melee benchmark and cost a third of the time.)
  if (d > -radii && d < (segmentA ? near : tolerance)) {
    closestPoints(PROJECTIONS_PER_STEP);
    const gap = S[DISTANCE];
    if (gap === 0) {
      d = -radii;
    } else {
      const c = closest;
      for (let k = 0; k < 3; k++) candidateAxis[k] = (c[3 + k] - c[k]) / gap;
      gapAlong(candidateAxis, 0);
      const g = S[GAP] - radii;
      if (g > d) {
        d = g;
        for (let k = 0; k < 3; k++) direction[k] = candidateAxis[k];
      }
    }
  }
  if (d <= tolerance || step === SWEEP_MAX_STEPS) return SWEEP_STEP_CONTACT;
  closingRate();
  const rate = S[RATE];
  if (!(rate > 0)) return -1;
  sweepClock[SWEEP_NEXT] = sweepClock[SWEEP_T] + d / rate;
  return 0;
}
/** The direction between the closest points, tried against the SAT's axis. */
const candidateAxis = new Float64Array(3);

/**
 * The sweep of the two prepared motions (A at slot 0, B at slot 1) from tStart (sweepClock[SWEEP_NEXT],
 * preparedStartTime's answer; −1: the shapes stay apart) up to tMax (sweepClock[SWEEP_LIMIT]):
 * first contact time in [tStart, tMax], or −1. On contact, out[0] = t, out[1..3] the unit normal
 * from B towards A, out[4..6] a point of B nearest A then (or common to both).
 */
function sweepFrom(out: Floats, oo: number): number {
  const clock = sweepClock;
  if (clock[SWEEP_NEXT] < 0) return -1;
  clock[SWEEP_T] = clock[SWEEP_NEXT];
  for (let step = 0; ; step++) {
    const next = sweepStep(step);
    if (next === SWEEP_STEP_CONTACT) {
      sweepContact(out, oo);
      return clock[SWEEP_T];
    }
    if (next < 0 || !(clock[SWEEP_NEXT] >= 0 && clock[SWEEP_NEXT] <= clock[SWEEP_LIMIT])) return -1;
    clock[SWEEP_T] = clock[SWEEP_NEXT];
  }
}

/** @internal Fills the hit at time t = sweepClock[SWEEP_T], right after sweepStep gave contact there (the shapes are posed at t, `direction` is the deciding axis). */
export function sweepContact(out: Floats, oo: number): void {
  closestPoints(PROJECTIONS_FOR_POINT);
  out[oo] = sweepClock[SWEEP_T];
  for (let k = 0; k < 3; k++) {
    out[oo + 1 + k] = -direction[k];
    out[oo + 4 + k] = closest[3 + k];
  }
}

/**
 * First time of contact, in [0, tMax] (tMax <= 1, default 1), of box A moving rigidly from a0 (at
 * ao0) to a1 (at ao1) and box B from b0 to b1 (OBB layout; each box's axes orthonormal), by the
 * motion of interpolateObb; −1 if they stay apart until tMax. 0 when they touch at the start.
 * On contact writes out[oo] = t, out[oo+1..3] the unit normal from B towards A (the axis that
 * decided: B's outward face normal for a face contact), out[oo+4..6] a point of B nearest A at t.
 * Never later than the true first contact; see the module comment for the tolerance.
 */
export function obbSweep(
  out: Floats, oo: number,
  a0: ReadonlyFloats, ao0: number, a1: ReadonlyFloats, ao1: number,
  b0: ReadonlyFloats, bo0: number, b1: ReadonlyFloats, bo1: number,
  tMax = 1,
): number {
  prepareObbSweep(a0, ao0, a1, ao1);
  prepareMotion(motions, MOTION_STRIDE, b0, bo0, b1, bo1, noRadius, 0, 0);
  sweepClock[SWEEP_LIMIT] = tMax;
  preparedStartTime(motions, MOTION_STRIDE);
  return sweepFrom(out, oo);
}

/**
 * obbSweep of a capsule (layout.ts capsule layout: p0, p1, radius) moving from c0 (at co0) to
 * c1 (at co1) against box B moving from b0 to b1: the capsule moves rigidly (centre linear,
 * direction along the great circle, length and radius linear). Same results layout.
 */
export function capsuleObbSweep(
  out: Floats, oo: number,
  c0: ReadonlyFloats, co0: number, c1: ReadonlyFloats, co1: number,
  b0: ReadonlyFloats, bo0: number, b1: ReadonlyFloats, bo1: number,
  tMax = 1,
): number {
  prepareCapsuleSweep(c0, co0, c1, co1);
  prepareMotion(motions, MOTION_STRIDE, b0, bo0, b1, bo1, noRadius, 0, 0);
  sweepClock[SWEEP_LIMIT] = tMax;
  preparedStartTime(motions, MOTION_STRIDE);
  return sweepFrom(out, oo);
}

/** @internal Prepares the moving shape A of later `sweepPrepared` calls: a box from a0 to a1. */
export function prepareObbSweep(a0: ReadonlyFloats, ao0: number, a1: ReadonlyFloats, ao1: number): void {
  segmentA = false;
  prepareMotion(motions, 0, a0, ao0, a1, ao1, noRadius, 0, 0);
  prepareIntervals();
}

/**
 * @internal Prepares shape A as a capsule from c0 to c1: its segment as a box of half-extents
 * (half-length, 0, 0), the end frame the start frame turned by the shortest arc from the start
 * direction to the end one (so the slerp of the frames moves the direction along the great circle).
 */
export function prepareCapsuleSweep(c0: ReadonlyFloats, co0: number, c1: ReadonlyFloats, co1: number): void {
  const s = capsuleBoxes;
  segmentBox(s, 0, c0, co0, 0);
  segmentBox(s, OBB_STRIDE, c1, co1, 1);
  const l0 = segmentLengths[0], l1 = segmentLengths[1];
  const ux = s[3], uy = s[4], uz = s[5];
  const dx = s[18], dy = s[19], dz = s[20];
  if (l0 === 0 || l1 === 0) {
    // A point at one end has no direction to turn from or to: both ends take the other's frame.
    if (l0 === 0) for (let k = 3; k < 12; k++) s[k] = s[OBB_STRIDE + k];
    else for (let k = 3; k < 12; k++) s[OBB_STRIDE + k] = s[k];
  } else {
    const cos = ux * dx + uy * dy + uz * dz;
    // Shortest-arc rotation from u to d applied to the start frame's second axis v:
    // R v = cos·v + w × v + w (w·v) / (1 + cos), w = u × d.
    const vx = s[6], vy = s[7], vz = s[8];
    let rx: number, ry: number, rz: number;
    if (1 + cos < SWEEP_ANTIPARALLEL_GAP) {
      // Half a turn about v itself: v stays, u goes to −u = d.
      rx = vx; ry = vy; rz = vz;
    } else {
      const wx = uy * dz - uz * dy, wy = uz * dx - ux * dz, wz = ux * dy - uy * dx;
      const f = (wx * vx + wy * vy + wz * vz) / (1 + cos);
      rx = cos * vx + (wy * vz - wz * vy) + f * wx;
      ry = cos * vy + (wz * vx - wx * vz) + f * wy;
      rz = cos * vz + (wx * vy - wy * vx) + f * wz;
      // Back to unit length and exactly orthogonal to d, against rounding.
      const along = rx * dx + ry * dy + rz * dz;
      rx -= along * dx; ry -= along * dy; rz -= along * dz;
      const len = Math.sqrt(rx * rx + ry * ry + rz * rz);
      rx /= len; ry /= len; rz /= len;
    }
    s[21] = rx; s[22] = ry; s[23] = rz;
    s[24] = dy * rz - dz * ry; s[25] = dz * rx - dx * rz; s[26] = dx * ry - dy * rx;
  }
  segmentA = true;
  segmentLengths[0] = c0[co0 + 6];
  segmentLengths[1] = c1[co1 + 6];
  prepareMotion(motions, 0, s, 0, s, OBB_STRIDE, segmentLengths, 0, 1);
  prepareIntervals();
}

/**
 * The segment p0→p1 of the capsule at c[co] as a box at s[so]: centre the midpoint, first axis
 * along the segment (+x for a point), the other two completing a right-handed frame, half-extents
 * (half-length, 0, 0). Writes the length into segmentLengths[slot].
 */
function segmentBox(s: Float64Array, so: number, c: ReadonlyFloats, co: number, slot: number): void {
  let ux = c[co + 3] - c[co], uy = c[co + 4] - c[co + 1], uz = c[co + 5] - c[co + 2];
  const length = Math.sqrt(ux * ux + uy * uy + uz * uz);
  for (let k = 0; k < 3; k++) s[so + k] = 0.5 * (c[co + k] + c[co + 3 + k]);
  if (length > 0) {
    ux /= length; uy /= length; uz /= length;
  } else {
    ux = 1; uy = 0; uz = 0;
  }
  // A second axis across the segment, from the world axis least aligned with it.
  const ax = Math.abs(ux), ay = Math.abs(uy), az = Math.abs(uz);
  let vx: number, vy: number, vz: number;
  if (ax <= ay && ax <= az) {
    vx = 0; vy = uz; vz = -uy;
  } else if (ay <= az) {
    vx = -uz; vy = 0; vz = ux;
  } else {
    vx = uy; vy = -ux; vz = 0;
  }
  const vl = Math.sqrt(vx * vx + vy * vy + vz * vz);
  vx /= vl; vy /= vl; vz /= vl;
  s[so + 3] = ux; s[so + 4] = uy; s[so + 5] = uz;
  s[so + 6] = vx; s[so + 7] = vy; s[so + 8] = vz;
  s[so + 9] = uy * vz - uz * vy; s[so + 10] = uz * vx - ux * vz; s[so + 11] = ux * vy - uy * vx;
  s[so + 12] = 0.5 * length; s[so + 13] = 0; s[so + 14] = 0;
  segmentLengths[slot] = length;
}
/** segmentBox's lengths, then prepareCapsuleSweep's radii (start, end). */
const segmentLengths = new Float64Array(2);
/** No radius, for the boxes' motions. */
const noRadius = new Float64Array(1);

/**
 * @internal Writes the motion of a box from b0 (at bo0) to b1 (at bo1) at out[oo..oo +
 * SWEEP_MOTION_STRIDE), for `sweepPrepared`: a box swept by many weapons is prepared once.
 */
export function prepareBoxMotion(out: Float64Array, oo: number, b0: ReadonlyFloats, bo0: number, b1: ReadonlyFloats, bo1: number): void {
  prepareMotion(out, oo, b0, bo0, b1, bo1, noRadius, 0, 0);
}

/**
 * @internal Makes the box motion at prepared[po] (prepareBoxMotion) shape B of the next sweepStep
 * calls: stepped from its preparedStartTime, it gives obbSweep's times on the pair, to the last bit.
 */
export function sweepSelect(prepared: Float64Array, po: number): void {
  for (let k = 0; k < MOTION_STRIDE; k++) motions[MOTION_STRIDE + k] = prepared[po + k];
}

/**
 * Sub-intervals of [0, 1] over which shape A is bounded by a capsule, for the start of a sweep:
 * a turning blade's bounding sphere is as wide as it is long, a capsule about its long axis is as
 * thin as the blade plus how far its points move within half a sub-interval.
 */
const INTERVALS = 32;
/** Per sub-interval: the capsule's centre (3), half its segment (3), its radius. */
const INTERVAL_STRIDE = 7;
const intervals = new Float64Array(INTERVALS * INTERVAL_STRIDE);

/**
 * Bounds the prepared shape A over each sub-interval: its pose at the middle as a capsule about
 * its longest axis (radius the other half-extents' diagonal plus its radius), widened by how far
 * a point can move in half a sub-interval: (|Δc| + θ|H|max + |ΔH| + |Δr|) / 2N. The axis at the
 * middles by turning the start axis about ω (R(s) = Rot(ω, sθ)·R0, the slerp), a step of θ/N from
 * one to the next: no slerp per sub-interval. Prepares what they come from; the capsules are
 * computed as far as the start times read them (extendIntervals).
 */
function prepareIntervals(): void {
  const M = motions;
  let k = 0, longest = -1;
  for (let j = 0; j < 3; j++) {
    const h = Math.max(M[M_H + j], M[M_H + j] + M[M_DH + j]);
    if (h > longest) { longest = h; k = j; }
  }
  poseAt(0, startTime, 0, boxes, 0);
  const ux = boxes[3 + 3 * k], uy = boxes[4 + 3 * k], uz = boxes[5 + 3 * k];
  const wx = M[M_AXIS], wy = M[M_AXIS + 1], wz = M[M_AXIS + 2];
  // Rodrigues: u(α) = u cos α + (ω × u) sin α + ω (ω·u)(1 − cos α).
  const vx = wy * uz - wz * uy, vy = wz * ux - wx * uz, vz = wx * uy - wy * ux;
  const wu = wx * ux + wy * uy + wz * uz;
  const theta = M[M_THETA];
  const stepCos = Math.cos(theta / INTERVALS), stepSin = Math.sin(theta / INTERVALS);
  const cos = Math.cos(0.5 * theta / INTERVALS), sin = Math.sin(0.5 * theta / INTERVALS);
  const travel = Math.sqrt(M[M_DC] * M[M_DC] + M[M_DC + 1] * M[M_DC + 1] + M[M_DC + 2] * M[M_DC + 2]);
  const reach = (travel + theta * M[M_HMAX] + M[M_DH_LENGTH] + Math.abs(M[M_DR])) / (2 * INTERVALS);
  // The other two half-extents, in axis order.
  const i1 = k === 0 ? 1 : 0, i2 = k === 2 ? 1 : 2;
  const S = intervalSteps;
  S[0] = ux; S[1] = uy; S[2] = uz; S[3] = vx; S[4] = vy; S[5] = vz; S[6] = wx; S[7] = wy; S[8] = wz; S[9] = wu;
  S[10] = stepCos; S[11] = stepSin; S[12] = cos; S[13] = sin; S[14] = reach;
  S[15] = M[M_C]; S[16] = M[M_C + 1]; S[17] = M[M_C + 2]; S[18] = M[M_DC]; S[19] = M[M_DC + 1]; S[20] = M[M_DC + 2];
  S[21] = M[M_H + k]; S[22] = M[M_DH + k]; S[23] = M[M_R]; S[24] = M[M_DR];
  S[25] = M[M_H + i1]; S[26] = M[M_DH + i1]; S[27] = M[M_H + i2]; S[28] = M[M_DH + i2];
  intervalsReady = 0;
}

// What the sub-intervals' capsules are computed from (prepareIntervals), and the turn's cos and
// sin at the middle of the next one to compute.
const intervalSteps = new Float64Array(29);
/** Sub-intervals whose capsules are computed: a sweep's start times read a few of the first ones. */
let intervalsReady = 0;

/** Computes the sub-intervals' capsules up to `end` (exclusive), in order (each turn a step from the one before). */
function extendIntervals(end: number): void {
  const S = intervalSteps;
  // In locals: each store to `intervals` would otherwise reload them.
  const ux = S[0], uy = S[1], uz = S[2], vx = S[3], vy = S[4], vz = S[5], wx = S[6], wy = S[7], wz = S[8], wu = S[9];
  const stepCos = S[10], stepSin = S[11], reach = S[14];
  const cx = S[15], cy = S[16], cz = S[17], dx = S[18], dy = S[19], dz = S[20];
  const hk = S[21], dhk = S[22], r = S[23], dr = S[24], h1 = S[25], dh1 = S[26], h2 = S[27], dh2 = S[28];
  let cos = S[12], sin = S[13];
  for (let i = intervalsReady, o = INTERVAL_STRIDE * i; i < end; i++, o += INTERVAL_STRIDE) {
    const s = (i + 0.5) / INTERVALS;
    intervals[o] = cx + s * dx;
    intervals[o + 1] = cy + s * dy;
    intervals[o + 2] = cz + s * dz;
    const a1 = h1 + s * dh1, a2 = h2 + s * dh2;
    const h = hk + s * dhk, f = wu * (1 - cos);
    intervals[o + 3] = h * (ux * cos + vx * sin + wx * f);
    intervals[o + 4] = h * (uy * cos + vy * sin + wy * f);
    intervals[o + 5] = h * (uz * cos + vz * sin + wz * f);
    intervals[o + 6] = Math.sqrt(a1 * a1 + a2 * a2) + r + s * dr + reach;
    const next = cos * stepCos - sin * stepSin;
    sin = sin * stepCos + cos * stepSin;
    cos = next;
  }
  S[12] = cos;
  S[13] = sin;
  intervalsReady = end;
}

/**
 * @internal A time before which the prepared shape A and the box motion at prepared[po] stay
 * farther apart than the sweep's contact tolerance, or −1 if they do until tMax
 * (sweepClock[SWEEP_LIMIT]), into sweepClock[SWEEP_NEXT]; returns whether there is one: where their
 * bounding spheres (about their centres, radius their sizes: no turn moves them) first come that
 * close, exactly (their centres' distance is a quadratic in t), or later, the start of the first
 * sub-interval, before the spheres part again, where A's capsule meets B's sphere over it. Every
 * sweep starts there, and a weapon's candidates are taken in its order.
 */
export function preparedStartTime(prepared: Float64Array, po: number): boolean {
  const M = motions, tMax = sweepClock[SWEEP_LIMIT];
  sweepClock[SWEEP_NEXT] = -1;
  const sizeB = motionSize(prepared, po);
  const margin = SWEEP_CONTACT_TOLERANCE * (motionSize(M, 0) + sizeB);
  const reach = motionSize(M, 0) + sizeB + margin;
  let pp = 0, pv = 0, vv = 0;
  for (let k = 0; k < 3; k++) {
    const p = prepared[po + M_C + k] - M[M_C + k], v = prepared[po + M_DC + k] - M[M_DC + k];
    pp += p * p;
    pv += p * v;
    vv += v * v;
  }
  const c = pp - reach * reach, disc = pv * pv - vv * c;
  let t = 0, tEnd = tMax;
  if (c > 0) {
    // Apart and not closing, or closest approach still apart: no contact.
    if (pv >= 0 || disc < 0) return false;
    // The smaller root of vv t² + 2 pv t + c, in the form without cancellation (pv < 0).
    t = c / (Math.sqrt(disc) - pv);
    if (!(t <= tMax)) return false;
  }
  // After the larger root the spheres are apart for good: no sub-interval past it can meet.
  if (vv > 0) {
    const root = Math.sqrt(disc);
    tEnd = Math.min(tMax, pv < 0 ? (root - pv) / vv : pv + root > 0 ? -c / (pv + root) : 0);
  }
  // B's sphere over a sub-interval: about its centre at the middle, widened by half its travel.
  const dcx = prepared[po + M_DC], dcy = prepared[po + M_DC + 1], dcz = prepared[po + M_DC + 2];
  const radiusB = sizeB + margin + Math.sqrt(dcx * dcx + dcy * dcy + dcz * dcz) / (2 * INTERVALS);
  const cx = prepared[po + M_C], cy = prepared[po + M_C + 1], cz = prepared[po + M_C + 2];
  const first = Math.min(INTERVALS - 1, Math.floor(t * INTERVALS)), end = Math.min(INTERVALS, Math.floor(tEnd * INTERVALS) + 1);
  if (end > intervalsReady) extendIntervals(end);
  for (let i = first; i < end; i++) {
    const o = INTERVAL_STRIDE * i, s = (i + 0.5) / INTERVALS;
    const px = cx + s * dcx - intervals[o];
    const py = cy + s * dcy - intervals[o + 1];
    const pz = cz + s * dcz - intervals[o + 2];
    const ex = intervals[o + 3], ey = intervals[o + 4], ez = intervals[o + 5];
    const ee = ex * ex + ey * ey + ez * ez;
    let u = ee > 0 ? (px * ex + py * ey + pz * ez) / ee : 0;
    u = u < -1 ? -1 : u > 1 ? 1 : u;
    const dx = px - u * ex, dy = py - u * ey, dz = pz - u * ez;
    const r = radiusB + intervals[o + 6];
    if (dx * dx + dy * dy + dz * dz <= r * r) {
      sweepClock[SWEEP_NEXT] = Math.max(t, i / INTERVALS);
      return true;
    }
  }
  return false;
}

/** Numbers `preparedSweptBounds` writes: an AABB (6), a capsule (p0, p1, radius: 7), then A's size. */
export const SWEPT_BOUNDS_STRIDE = 14;

/**
 * @internal Bounds of the prepared shape A over its whole motion, widened by `margin`, at
 * out[oo..oo + SWEPT_BOUNDS_STRIDE): a min-max AABB, the union of its start and end boxes' AABBs
 * widened by the chord bound of interpolateObb's motion (interpolationReach: |H|max (1 − cos(θ/2))
 * + |ΔH|/2, the first term only across the turn's axis) and its largest radius; then a capsule
 * (its centre's path, radius its largest half-diagonal plus radius); then A's size (largest
 * half-diagonal plus largest radius), for the caller's tolerance.
 */
export function preparedSweptBounds(out: Floats, oo: number, margin: number): void {
  const M = motions;
  const r = Math.max(M[M_R], M[M_R] + M[M_DR]);
  // The turn moves points only across its axis ω: along world axis k the arc's stray from its
  // chord counts with |e_k × ω| = √(1 − ω_k²) (a blade swung flat gains no height).
  const arc = M[M_HMAX] * (1 - Math.cos(0.5 * M[M_THETA]));
  const e = 0.5 * M[M_DH_LENGTH] + r + margin;
  for (let k = 0; k < 3; k++) {
    out[oo + k] = Infinity;
    out[oo + 3 + k] = -Infinity;
  }
  // The end poses from their quaternions, without the slerp's trigonometry.
  const b = boxes;
  for (let s = 0; s <= 1; s++) {
    for (let k = 0; k < 4; k++) quaternion[k] = M[(s === 0 ? M_Q0 : M_Q1) + k];
    quaternionToMat3(b, OBB_AXES, quaternion);
    for (let k = 0; k < 3; k++) {
      const w = M[M_AXIS + k], c = M[M_C + k] + s * M[M_DC + k];
      const h = (M[M_H] + s * M[M_DH]) * Math.abs(b[3 + k]) + (M[M_H + 1] + s * M[M_DH + 1]) * Math.abs(b[6 + k]) +
        (M[M_H + 2] + s * M[M_DH + 2]) * Math.abs(b[9 + k]) + e + arc * Math.sqrt(Math.max(0, 1 - w * w));
      out[oo + k] = Math.min(out[oo + k], c - h);
      out[oo + 3 + k] = Math.max(out[oo + 3 + k], c + h);
    }
  }
  for (let k = 0; k < 3; k++) {
    out[oo + 6 + k] = M[M_C + k];
    out[oo + 9 + k] = M[M_C + k] + M[M_DC + k];
  }
  out[oo + 12] = M[M_HMAX] + r + margin;
  out[oo + 13] = M[M_HMAX] + r;
}
