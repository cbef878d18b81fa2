/**
 * Independent, deliberately plain references for the OBB tests of src/query/sat.ts. Nothing here shares
 * code or formulation with sat.ts:
 * - `referenceGaps` works in world space from the 8 corners of each box: it builds the 15
 *   candidate axes from scratch (face normals, normalised edge crosses, skipping near-parallel
 *   edges) and compares the corners' projection intervals. By the separating-axis theorem the
 *   largest gap is > 0 exactly when the boxes are apart.
 * - `edgeReferenceOverlap` uses another principle: two convex polytopes meet exactly when an edge
 *   of one meets the other solid (vertices of the intersection lie on edges of one of them),
 *   checked by clipping each of the 24 edges against the other box's slabs.
 *
 * Near touching both references, like sat.ts, are at the mercy of rounding; sat.ts adds its own
 * size-relative slack too. So comparisons are made only outside a band around zero gap
 * (`referenceBand`): |gap| > 1e-5 × (sum of the six half-extents) + 1e-12 × (largest coordinate).
 * The first term covers sat.ts's parallel-edge slack (at most 3e-6 of each box's largest
 * half-extent per axis), the second rounding of world coordinates far from the origin.
 * Exactly touching cases are checked against the truth known by construction instead.
 */
import { obbCorners } from '../src/volumes/obb';
import { OBB_STRIDE } from '../src/layout';

/** Edge crosses shorter than this (sine of the edges' angle) are skipped: the faces decide then. */
export const REFERENCE_CROSS_MIN_SINE = 1e-9;
/** Band half-width per unit of summed half-extents. */
export const REFERENCE_BAND_RELATIVE = 1e-5;
/** Band half-width per unit of the largest absolute coordinate. */
export const REFERENCE_BAND_COORDINATE = 1e-12;

const cornersA = new Float64Array(24);
const cornersB = new Float64Array(24);

function boxAxis(box: ArrayLike<number>, o: number, k: number): number[] {
  const a = o + 3 + 3 * k;
  const v = [box[a], box[a + 1], box[a + 2]];
  const n = Math.hypot(v[0], v[1], v[2]);
  return v.map((x) => x / n);
}

/**
 * World-space candidate axis `index` (0..2 A's face normals, 3..5 B's, 6 + 3i + j the
 * normalised Ai × Bj), or null when Ai and Bj are (nearly) parallel.
 */
export function referenceAxis(a: ArrayLike<number>, ao: number, b: ArrayLike<number>, bo: number, index: number): number[] | null {
  if (index < 3) return boxAxis(a, ao, index);
  if (index < 6) return boxAxis(b, bo, index - 3);
  const u = boxAxis(a, ao, Math.floor((index - 6) / 3));
  const v = boxAxis(b, bo, (index - 6) % 3);
  const c = [u[1] * v[2] - u[2] * v[1], u[2] * v[0] - u[0] * v[2], u[0] * v[1] - u[1] * v[0]];
  const n = Math.hypot(c[0], c[1], c[2]);
  return n < REFERENCE_CROSS_MIN_SINE ? null : c.map((x) => x / n);
}

function interval(corners: Float64Array, axis: number[]): [number, number] {
  let lo = Infinity, hi = -Infinity;
  for (let i = 0; i < 8; i++) {
    const d = corners[3 * i] * axis[0] + corners[3 * i + 1] * axis[1] + corners[3 * i + 2] * axis[2];
    lo = Math.min(lo, d);
    hi = Math.max(hi, d);
  }
  return [lo, hi];
}

/**
 * Length of the unnormalised axis `index` as sat.ts uses it: 1 for a face normal, the sine of the
 * edges' angle for Ai × Bj. sat.ts's parallel-edge slack, measured along the unit axis, is divided
 * by it.
 */
export function referenceAxisSine(a: ArrayLike<number>, ao: number, b: ArrayLike<number>, bo: number, index: number): number {
  if (index < 6) return 1;
  const u = boxAxis(a, ao, Math.floor((index - 6) / 3));
  const v = boxAxis(b, bo, (index - 6) % 3);
  return Math.hypot(u[1] * v[2] - u[2] * v[1], u[2] * v[0] - u[0] * v[2], u[0] * v[1] - u[1] * v[0]);
}

/**
 * Gap between the boxes' projections on candidate axis `index` (> 0: that axis separates them;
 * ≤ 0: the intervals overlap by that much), NaN for a skipped degenerate cross.
 */
export function referenceAxisGap(a: ArrayLike<number>, ao: number, b: ArrayLike<number>, bo: number, index: number): number {
  const axis = referenceAxis(a, ao, b, bo, index);
  if (axis === null) return NaN;
  obbCorners(cornersA, a, ao);
  obbCorners(cornersB, b, bo);
  const [loA, hiA] = interval(cornersA, axis);
  const [loB, hiB] = interval(cornersB, axis);
  return Math.max(loB - hiA, loA - hiB);
}

/** Largest gap over the 15 candidate axes, and the axis achieving it: > 0 ⇔ apart. */
export function referenceSeparation(a: ArrayLike<number>, ao: number, b: ArrayLike<number>, bo: number): { gap: number; axis: number } {
  let gap = -Infinity, axis = -1;
  for (let k = 0; k < 15; k++) {
    const g = referenceAxisGap(a, ao, b, bo, k);
    if (g > gap) {
      gap = g;
      axis = k;
    }
  }
  return { gap, axis };
}

/** Half-width of the ambiguity band around zero gap for this pair (see the file comment). */
export function referenceBand(a: ArrayLike<number>, ao: number, b: ArrayLike<number>, bo: number): number {
  let size = 0, coordinate = 0;
  for (let k = 0; k < 3; k++) {
    size += a[ao + 12 + k] + b[bo + 12 + k];
    coordinate = Math.max(coordinate, Math.abs(a[ao + k]), Math.abs(b[bo + k]));
  }
  return REFERENCE_BAND_RELATIVE * size + REFERENCE_BAND_COORDINATE * coordinate;
}

/**
 * Whether the segment p→q meets the solid box (inflated by `tolerance`), by clipping the segment
 * parameter against the box's three slabs in the box frame.
 */
function segmentHitsBox(p: number[], q: number[], box: ArrayLike<number>, o: number, tolerance: number): boolean {
  let t0 = 0, t1 = 1;
  for (let k = 0; k < 3; k++) {
    const u = boxAxis(box, o, k);
    const h = box[o + 12 + k] + tolerance;
    const sp = (p[0] - box[o]) * u[0] + (p[1] - box[o + 1]) * u[1] + (p[2] - box[o + 2]) * u[2];
    const sq = (q[0] - box[o]) * u[0] + (q[1] - box[o + 1]) * u[1] + (q[2] - box[o + 2]) * u[2];
    const d = sq - sp;
    if (d === 0) {
      if (Math.abs(sp) > h) return false;
      continue;
    }
    let ta = (-h - sp) / d, tb = (h - sp) / d;
    if (ta > tb) [ta, tb] = [tb, ta];
    t0 = Math.max(t0, ta);
    t1 = Math.min(t1, tb);
    if (t0 > t1) return false;
  }
  return true;
}

function edgesHitBox(corners: Float64Array, box: ArrayLike<number>, o: number, tolerance: number): boolean {
  for (let c = 0; c < 8; c++) {
    for (let bit = 1; bit < 8; bit <<= 1) {
      if (c & bit) continue;
      const d = c | bit;
      const p = [corners[3 * c], corners[3 * c + 1], corners[3 * c + 2]];
      const q = [corners[3 * d], corners[3 * d + 1], corners[3 * d + 2]];
      if (segmentHitsBox(p, q, box, o, tolerance)) return true;
    }
  }
  return false;
}

/**
 * Overlap by the edge principle: some edge of A meets solid B or some edge of B meets solid A.
 * Boxes are inflated by 1e-9 of the summed half-extents so that edges lying exactly in a flat
 * box's plane are not lost to rounding (far inside the comparison band).
 */
export function edgeReferenceOverlap(a: ArrayLike<number>, ao: number, b: ArrayLike<number>, bo: number): boolean {
  let size = 0;
  for (let k = 0; k < 3; k++) size += a[ao + 12 + k] + b[bo + 12 + k];
  const tolerance = 1e-9 * size;
  obbCorners(cornersA, a, ao);
  obbCorners(cornersB, b, bo);
  return edgesHitBox(cornersA, b, bo, tolerance) || edgesHitBox(cornersB, a, ao, tolerance);
}

/** A min-max AABB as an OBB with identity axes (a new array; tests only). */
export function obbOfAabb(aabb: ArrayLike<number>, o = 0): Float64Array {
  const box = new Float64Array(OBB_STRIDE);
  for (let k = 0; k < 3; k++) {
    box[k] = 0.5 * (aabb[o + k] + aabb[o + 3 + k]);
    box[12 + k] = 0.5 * (aabb[o + 3 + k] - aabb[o + k]);
    box[3 + 4 * k] = 1;
  }
  return box;
}

/**
 * Distance from point p to the solid box: coordinates in the box frame, each clamped to its
 * half-extent; the distance is the length of what the clamping removed.
 */
export function referencePointBoxDistance(box: ArrayLike<number>, o: number, p: ArrayLike<number>): number {
  let sum = 0;
  for (let k = 0; k < 3; k++) {
    const u = boxAxis(box, o, k);
    const s = (p[0] - box[o]) * u[0] + (p[1] - box[o + 1]) * u[1] + (p[2] - box[o + 2]) * u[2];
    const excess = Math.max(0, Math.abs(s) - box[o + 12 + k]);
    sum += excess * excess;
  }
  return Math.sqrt(sum);
}

/** Points of the solid box on an n×n×n lattice over [-h, h]³ (corners, faces and interior), xyz. */
export function sampleBoxPoints(box: ArrayLike<number>, o: number, n: number): number[] {
  const out: number[] = [];
  const u = [0, 1, 2].map((k) => boxAxis(box, o, k));
  for (let i = 0; i < n; i++) {
    for (let j = 0; j < n; j++) {
      for (let l = 0; l < n; l++) {
        const s = [i, j, l].map((v, k) => (2 * v / (n - 1) - 1) * box[o + 12 + k]);
        for (let c = 0; c < 3; c++) out.push(box[o + c] + s[0] * u[0][c] + s[1] * u[1][c] + s[2] * u[2][c]);
      }
    }
  }
  return out;
}
