/**
 * Independent references for the swept-contact tests: the motion sampled finely, an exact static
 * test at each sample (the corner-based separation of scenes/satReference.ts for two boxes, a
 * convex minimisation of point-box distances along the segment for a capsule), and the first
 * sample in contact refined by bisection, all in doubles. Boxes are posed with interpolateObb (the
 * motion model the sweep promises); a capsule's pose is rebuilt here from its own formula
 * (centre, half-length and radius linear, direction along the great circle).
 */
import { interpolateObb } from '../../src/volumes/obb';
import { referencePointBoxDistance, referenceSeparation } from '../../scenes/satReference';

/** Samples of the motion before bisection. */
export const REFERENCE_SAMPLES = 2048;
const BISECTIONS = 60;

const poseA = new Float64Array(15);
const poseB = new Float64Array(15);
const capsule = new Float64Array(7);

/** Reference gap of the two boxes at time s (> 0 apart, <= 0 touching): the largest gap over the 15 axes. */
export function boxGapAt(a0: ArrayLike<number>, a1: ArrayLike<number>, b0: ArrayLike<number>, b1: ArrayLike<number>, s: number): number {
  interpolateObb(poseA, 0, a0, 0, a1, 0, s);
  interpolateObb(poseB, 0, b0, 0, b1, 0, s);
  return referenceSeparation(poseA, 0, poseB, 0).gap;
}

/** The capsule (p0, p1, r) at time s of the rigid motion from c0 to c1. */
export function capsuleAt(c0: ArrayLike<number>, c1: ArrayLike<number>, s: number): Float64Array {
  const u = [0, 1, 2].map((k) => c0[3 + k] - c0[k]);
  const v = [0, 1, 2].map((k) => c1[3 + k] - c1[k]);
  const lu = Math.hypot(...u), lv = Math.hypot(...v);
  const un = u.map((x) => x / (lu || 1)), vn = v.map((x) => x / (lv || 1));
  const cos = Math.max(-1, Math.min(1, un[0] * vn[0] + un[1] * vn[1] + un[2] * vn[2]));
  const angle = Math.acos(cos);
  let d: number[];
  if (lu === 0) d = vn;
  else if (lv === 0 || angle < 1e-9) d = un;
  else d = un.map((x, k) => (Math.sin((1 - s) * angle) * x + Math.sin(s * angle) * vn[k]) / Math.sin(angle));
  const half = 0.5 * (lu + s * (lv - lu));
  for (let k = 0; k < 3; k++) {
    const c = 0.5 * (c0[k] + c0[3 + k]) * (1 - s) + 0.5 * (c1[k] + c1[3 + k]) * s;
    capsule[k] = c - half * d[k];
    capsule[3 + k] = c + half * d[k];
  }
  capsule[6] = c0[6] + s * (c1[6] - c0[6]);
  return capsule;
}

/** Distance from a capsule to a solid box minus nothing: min over the segment of the point-box distance, minus the radius. */
export function capsuleBoxGap(c: ArrayLike<number>, box: ArrayLike<number>): number {
  const at = (u: number) => referencePointBoxDistance(box, 0, [c[0] + u * (c[3] - c[0]), c[1] + u * (c[4] - c[1]), c[2] + u * (c[5] - c[2])]);
  let lo = 0, hi = 1;
  for (let i = 0; i < 70; i++) {
    const m1 = lo + (hi - lo) / 3, m2 = hi - (hi - lo) / 3;
    if (at(m1) <= at(m2)) hi = m2;
    else lo = m1;
  }
  return Math.min(at(0), at(1), at(0.5 * (lo + hi))) - c[6];
}

/** Reference gap of a moving capsule and a moving box at time s. */
export function capsuleGapAt(c0: ArrayLike<number>, c1: ArrayLike<number>, b0: ArrayLike<number>, b1: ArrayLike<number>, s: number): number {
  interpolateObb(poseB, 0, b0, 0, b1, 0, s);
  return capsuleBoxGap(capsuleAt(c0, c1, s), poseB);
}

/**
 * First contact of a gap function over [0, 1]: REFERENCE_SAMPLES samples, then bisection between
 * the last apart sample and the first touching one. Returns the time (−1 if no sample touches)
 * and the smallest gap sampled.
 */
export function referenceFirstContact(gapAt: (s: number) => number): { t: number; minGap: number } {
  let minGap = Infinity;
  for (let i = 0; i <= REFERENCE_SAMPLES; i++) {
    const s = i / REFERENCE_SAMPLES;
    const g = gapAt(s);
    minGap = Math.min(minGap, g);
    if (g > 0) continue;
    if (i === 0) return { t: 0, minGap };
    let lo = (i - 1) / REFERENCE_SAMPLES, hi = s;
    for (let k = 0; k < BISECTIONS; k++) {
      const m = 0.5 * (lo + hi);
      if (gapAt(m) > 0) lo = m;
      else hi = m;
    }
    return { t: hi, minGap };
  }
  return { t: -1, minGap };
}
