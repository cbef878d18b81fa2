import { type Floats, type ReadonlyFloats } from '../layout';

/**
 * Moments (mean and covariance) of weighted point sets, segment sets and triangle surfaces: the
 * distributions whose principal axes the OBB fits use. Sums run relative to a reference point, so
 * far offsets do not cancel the spread away.
 */

/** Moments layout: mean (3), then covariance xx, xy, xz, yy, yz, zz (6). */
export const MOMENTS_STRIDE = 9;

// Scratch (fitting is single-threaded; nothing here escapes a call).
// Running sums of a weighted distribution, in coordinates relative to a reference point so far
// offsets (1e6) do not cancel away the spread: weight, Σ w·mean (3), Σ w·E[x xᵀ] packed (6).
const sums = new Float64Array(10);
let refX = 0, refY = 0, refZ = 0;
const corners = new Float64Array(9); // up to 3 simplex vertices, relative to the reference point

function addOuter(k: number, x: number, y: number, z: number): void {
  sums[4] += k * x * x;
  sums[5] += k * x * y;
  sums[6] += k * x * z;
  sums[7] += k * y * y;
  sums[8] += k * y * z;
  sums[9] += k * z * z;
}

/**
 * Adds the uniform distribution over the simplex of `n` corners (1 = point, 2 = segment,
 * 3 = triangle) starting at corners[3 * first], with total mass `weight`. For a simplex with
 * vertices v_i and centroid m, E[x xᵀ] = (Σ v_i v_iᵀ + n² m mᵀ) / (n (n + 1)) exactly; this gives
 * the segment formula L/6 (p pᵀ + q qᵀ + 4 m mᵀ) and the triangle one A/12 (Σ v vᵀ + 9 m mᵀ).
 */
function addSimplex(weight: number, n: number, first: number): void {
  let sx = 0, sy = 0, sz = 0;
  for (let i = first; i < first + n; i++) {
    sx += corners[3 * i];
    sy += corners[3 * i + 1];
    sz += corners[3 * i + 2];
  }
  sums[0] += weight;
  sums[1] += (weight * sx) / n;
  sums[2] += (weight * sy) / n;
  sums[3] += (weight * sz) / n;
  const k = weight / (n * (n + 1));
  addOuter(k, sx, sy, sz);
  for (let i = first; i < first + n; i++) addOuter(k, corners[3 * i], corners[3 * i + 1], corners[3 * i + 2]);
}

/** Writes mean and covariance of the accumulated distribution (weight must be positive). */
function finishMoments(out: Floats): Floats {
  const w = sums[0];
  const mx = sums[1] / w, my = sums[2] / w, mz = sums[3] / w;
  out[0] = mx + refX;
  out[1] = my + refY;
  out[2] = mz + refZ;
  out[3] = sums[4] / w - mx * mx;
  out[4] = sums[5] / w - mx * my;
  out[5] = sums[6] / w - mx * mz;
  out[6] = sums[7] / w - my * my;
  out[7] = sums[8] / w - my * mz;
  out[8] = sums[9] / w - mz * mz;
  return out;
}

function beginMoments(x: number, y: number, z: number): void {
  sums.fill(0);
  refX = x;
  refY = y;
  refZ = z;
}

/**
 * Mean and covariance (MOMENTS_STRIDE numbers) of `count` points (xyz from `offset`), each of
 * equal weight. Returns `out`. Inputs are trusted; the public fitters validate.
 */
export function pointMoments(out: Floats, points: ReadonlyFloats, count: number, offset = 0): Floats {
  beginMoments(points[offset], points[offset + 1], points[offset + 2]);
  for (let i = 0; i < count; i++) {
    const p = offset + 3 * i;
    corners[0] = points[p] - refX;
    corners[1] = points[p + 1] - refY;
    corners[2] = points[p + 2] - refZ;
    addSimplex(1, 1, 0);
  }
  return finishMoments(out);
}

/** Index of corner `j` of element `e` (n corners each), indexed or implicit (e * n + j). */
export function cornerIndex(indices: ReadonlyFloats | null, n: number, e: number, j: number): number {
  return indices ? indices[n * e + j] : n * e + j;
}

/** Length (n = 2) or area (n = 3) of the simplex held in corners[0 .. 3n). */
function simplexMeasure(n: number): number {
  const ax = corners[3] - corners[0], ay = corners[4] - corners[1], az = corners[5] - corners[2];
  if (n === 2) return Math.hypot(ax, ay, az);
  const bx = corners[6] - corners[0], by = corners[7] - corners[1], bz = corners[8] - corners[2];
  return 0.5 * Math.hypot(ay * bz - az * by, az * bx - ax * bz, ax * by - ay * bx);
}

/**
 * Moments of the uniform distribution over a set of segments (n = 2) or triangles (n = 3);
 * returns the total length / area. When that is zero (every element degenerate), `out` gets the
 * point moments of all the element corners instead, which still spans the set's directions.
 */
function elementMoments(
  out: Floats,
  positions: ReadonlyFloats,
  indices: ReadonlyFloats | null,
  n: 2 | 3,
  count: number,
  first: number,
): number {
  const r = 3 * cornerIndex(indices, n, first, 0);
  beginMoments(positions[r], positions[r + 1], positions[r + 2]);
  for (let e = first; e < first + count; e++) {
    for (let j = 0; j < n; j++) {
      const v = 3 * cornerIndex(indices, n, e, j);
      corners[3 * j] = positions[v] - refX;
      corners[3 * j + 1] = positions[v + 1] - refY;
      corners[3 * j + 2] = positions[v + 2] - refZ;
    }
    const measure = simplexMeasure(n);
    if (measure > 0) addSimplex(measure, n, 0);
  }
  const total = sums[0];
  if (total > 0) {
    finishMoments(out);
    return total;
  }
  for (let e = first; e < first + count; e++) {
    for (let j = 0; j < n; j++) {
      const v = 3 * cornerIndex(indices, n, e, j);
      corners[0] = positions[v] - refX;
      corners[1] = positions[v + 1] - refY;
      corners[2] = positions[v + 2] - refZ;
      addSimplex(1, 1, 0);
    }
  }
  finishMoments(out);
  return 0;
}

/**
 * Area-weighted mean and covariance of the surface of `triangleCount` triangles, starting at
 * triangle `firstTriangle` (corners from `indices`, 3 per triangle, or consecutive vertices when
 * `indices` is null). Exact for the uniform distribution over the surface. Returns the total area;
 * when it is 0 `out` holds the point moments of the corners. Inputs are trusted.
 */
export function triangleMoments(
  out: Floats,
  positions: ReadonlyFloats,
  indices: ReadonlyFloats | null,
  triangleCount: number,
  firstTriangle = 0,
): number {
  return elementMoments(out, positions, indices, 3, triangleCount, firstTriangle);
}

/**
 * Length-weighted mean and covariance of `segmentCount` line segments from `firstSegment`
 * (endpoints from `indices`, 2 per segment, or consecutive vertices when null). Exact for the
 * uniform distribution along the segments. Returns the total length; when it is 0 `out` holds
 * the point moments of the endpoints. Inputs are trusted.
 */
export function segmentMoments(
  out: Floats,
  positions: ReadonlyFloats,
  indices: ReadonlyFloats | null,
  segmentCount: number,
  firstSegment = 0,
): number {
  return elementMoments(out, positions, indices, 2, segmentCount, firstSegment);
}
