import { CollideInputError, assertNonEmptyPoints, assertOutput } from '../errors';
import { AABB_STRIDE, type Floats, type ReadonlyFloats } from '../layout';
import { quaternionToMat3 } from '../rotation';

/**
 * Axis-aligned boxes in three interchangeable representations (Ericson, RTCD 4.2):
 * - min-max (layout.ts, `AABB_STRIDE`): [minx, miny, minz, maxx, maxy, maxz], the store format;
 * - min-width: [minx, miny, minz, wx, wy, wz], one subtraction less per axis in the overlap test;
 * - centre-radius: [cx, cy, cz, rx, ry, rz], the natural form for transforms and for the integer
 *   overlap test.
 * All boxes are closed: touching faces, edges or corners overlap.
 */

/** Stride of a min-width box: min (3), width (3). */
export const AABB_MIN_WIDTH_STRIDE = 6;
/** Stride of a centre-radius box: centre (3), half-extents (3). */
export const AABB_CENTER_RADIUS_STRIDE = 6;

// ---- conversions ----

/** Min-max → min-width. */
export function aabbMinMaxToMinWidth(out: Floats, oo: number, box: ReadonlyFloats, bo: number): Floats {
  for (let k = 0; k < 3; k++) {
    out[oo + k] = box[bo + k];
    out[oo + 3 + k] = box[bo + 3 + k] - box[bo + k];
  }
  return out;
}

/** Min-width → min-max. */
export function aabbMinWidthToMinMax(out: Floats, oo: number, box: ReadonlyFloats, bo: number): Floats {
  for (let k = 0; k < 3; k++) {
    out[oo + k] = box[bo + k];
    out[oo + 3 + k] = box[bo + k] + box[bo + 3 + k];
  }
  return out;
}

/** Min-max → centre-radius. */
export function aabbMinMaxToCenterRadius(out: Floats, oo: number, box: ReadonlyFloats, bo: number): Floats {
  for (let k = 0; k < 3; k++) {
    const lo = box[bo + k], hi = box[bo + 3 + k];
    out[oo + k] = 0.5 * (lo + hi);
    out[oo + 3 + k] = 0.5 * (hi - lo);
  }
  return out;
}

/** Centre-radius → min-max. */
export function aabbCenterRadiusToMinMax(out: Floats, oo: number, box: ReadonlyFloats, bo: number): Floats {
  for (let k = 0; k < 3; k++) {
    const c = box[bo + k], r = box[bo + 3 + k];
    out[oo + k] = c - r;
    out[oo + 3 + k] = c + r;
  }
  return out;
}

/** Min-width → centre-radius. */
export function aabbMinWidthToCenterRadius(out: Floats, oo: number, box: ReadonlyFloats, bo: number): Floats {
  for (let k = 0; k < 3; k++) {
    const r = 0.5 * box[bo + 3 + k];
    out[oo + k] = box[bo + k] + r;
    out[oo + 3 + k] = r;
  }
  return out;
}

/** Centre-radius → min-width. */
export function aabbCenterRadiusToMinWidth(out: Floats, oo: number, box: ReadonlyFloats, bo: number): Floats {
  for (let k = 0; k < 3; k++) {
    const r = box[bo + 3 + k];
    out[oo + k] = box[bo + k] - r;
    out[oo + 3 + k] = 2 * r;
  }
  return out;
}

// ---- overlap tests (hot: inputs trusted) ----

/** Whether two closed min-max boxes overlap. */
export function aabbOverlap(a: ReadonlyFloats, ao: number, b: ReadonlyFloats, bo: number): boolean {
  return (
    a[ao] <= b[bo + 3] && b[bo] <= a[ao + 3] &&
    a[ao + 1] <= b[bo + 4] && b[bo + 1] <= a[ao + 4] &&
    a[ao + 2] <= b[bo + 5] && b[bo + 2] <= a[ao + 5]
  );
}

/** Whether two closed min-width boxes overlap: on each axis the gap between minima is at most the width of the lower box. */
export function aabbOverlapMinWidth(a: ReadonlyFloats, ao: number, b: ReadonlyFloats, bo: number): boolean {
  for (let k = 0; k < 3; k++) {
    const d = a[ao + k] - b[bo + k];
    if (d > b[bo + 3 + k] || -d > a[ao + 3 + k]) return false;
  }
  return true;
}

/** Whether two closed centre-radius boxes overlap: |ca − cb| ≤ ra + rb on every axis. */
export function aabbOverlapCenterRadius(a: ReadonlyFloats, ao: number, b: ReadonlyFloats, bo: number): boolean {
  return (
    Math.abs(a[ao] - b[bo]) <= a[ao + 3] + b[bo + 3] &&
    Math.abs(a[ao + 1] - b[bo + 1]) <= a[ao + 4] + b[bo + 4] &&
    Math.abs(a[ao + 2] - b[bo + 2]) <= a[ao + 5] + b[bo + 5]
  );
}

/**
 * Integer centre-radius overlap (Int32Array stores, e.g. quantised broad-phase boxes).
 * |d| ≤ r with d = ca − cb, r = ra + rb is one unsigned comparison: d + r lies in [0, 2r] exactly
 * when −r ≤ d ≤ r, and a negative d + r wraps to a huge unsigned value (Ericson, RTCD 4.2.1,
 * `(unsigned)(d + r) > (unsigned)(2r)` ⇒ separated). `>>> 0` is JavaScript's unsigned 32-bit cast.
 * Exact whenever |ca − cb| + 2(ra + rb) < 2^32 on every axis, e.g. centres within ±2^30 and
 * radii up to 2^29; radii must be non-negative.
 */
export function aabbOverlapCenterRadiusInt(a: Int32Array, ao: number, b: Int32Array, bo: number): boolean {
  for (let k = 0; k < 3; k++) {
    const r = a[ao + 3 + k] + b[bo + 3 + k];
    if ((a[ao + k] - b[bo + k] + r) >>> 0 > (2 * r) >>> 0) return false;
  }
  return true;
}

// ---- fitting ----

/** Tightest min-max box around `count` points (xyz at `pointsOffset`). */
export function aabbFromPoints(out: Floats, o: number, points: ReadonlyFloats, count: number, pointsOffset = 0): Floats {
  assertOutput(out, o, AABB_STRIDE, 'aabbFromPoints');
  assertNonEmptyPoints(points, count, 'aabbFromPoints', pointsOffset);
  return aabbOfTrustedPoints(out, o, points, count, pointsOffset);
}

/**
 * `aabbFromPoints` without the input checks (a pass of their own), for callers that validated
 * once up front and fit many subsets, like tree builds.
 */
export function aabbOfTrustedPoints(out: Floats, o: number, points: ReadonlyFloats, count: number, pointsOffset = 0): Floats {
  let minX = Infinity, minY = Infinity, minZ = Infinity;
  let maxX = -Infinity, maxY = -Infinity, maxZ = -Infinity;
  for (let i = 0; i < count; i++) {
    const p = pointsOffset + 3 * i;
    const x = points[p], y = points[p + 1], z = points[p + 2];
    if (x < minX) minX = x;
    if (x > maxX) maxX = x;
    if (y < minY) minY = y;
    if (y > maxY) maxY = y;
    if (z < minZ) minZ = z;
    if (z > maxZ) maxZ = z;
  }
  out[o] = minX;
  out[o + 1] = minY;
  out[o + 2] = minZ;
  out[o + 3] = maxX;
  out[o + 4] = maxY;
  out[o + 5] = maxZ;
  return out;
}

/**
 * Indices of the points with the smallest and largest dot(p, d), written to out[0] (min) and
 * out[1] (max); the first index wins ties, and both are -1 when `count` is 0. With `indices`, only points `indices[0 .. count)` are
 * scanned (e.g. the vertices of a known hull) and the returned values are point indices.
 * Trusts its input (see `aabbFromPointsExtreme` for the validated fit).
 */
export function extremePointAlongDirection(
  out: Floats,
  points: ReadonlyFloats,
  count: number,
  dx: number,
  dy: number,
  dz: number,
  pointsOffset = 0,
  indices?: ArrayLike<number>,
): Floats {
  let minDot = Infinity, maxDot = -Infinity;
  let iMin = -1, iMax = -1;
  for (let n = 0; n < count; n++) {
    const i = indices === undefined ? n : indices[n];
    const p = pointsOffset + 3 * i;
    const d = points[p] * dx + points[p + 1] * dy + points[p + 2] * dz;
    if (d < minDot) { minDot = d; iMin = i; }
    if (d > maxDot) { maxDot = d; iMax = i; }
  }
  out[0] = iMin;
  out[1] = iMax;
  return out;
}

const extremePair = new Float64Array(2);

/**
 * Min-max box from the extreme points along the three axes. Given `hullIndices` (the vertices of
 * the set's convex hull, which hold every extreme), only those are scanned; `count` is still the
 * size of the whole point set, for validation.
 */
export function aabbFromPointsExtreme(
  out: Floats,
  o: number,
  points: ReadonlyFloats,
  count: number,
  pointsOffset = 0,
  hullIndices?: ArrayLike<number>,
): Floats {
  assertNonEmptyPoints(points, count, 'aabbFromPointsExtreme', pointsOffset);
  let scanned = count;
  if (hullIndices !== undefined) {
    scanned = hullIndices.length;
    if (scanned === 0) throw new CollideInputError('aabbFromPointsExtreme: the hull index list is empty');
    for (let n = 0; n < scanned; n++) {
      const i = hullIndices[n];
      if (!Number.isInteger(i) || i < 0 || i >= count) {
        throw new CollideInputError(`aabbFromPointsExtreme: hull index ${n} is ${i}, outside [0, ${count})`);
      }
    }
  }
  for (let k = 0; k < 3; k++) {
    extremePointAlongDirection(extremePair, points, scanned, k === 0 ? 1 : 0, k === 1 ? 1 : 0, k === 2 ? 1 : 0, pointsOffset, hullIndices);
    out[o + k] = points[pointsOffset + 3 * extremePair[0] + k];
    out[o + 3 + k] = points[pointsOffset + 3 * extremePair[1] + k];
  }
  return out;
}

/**
 * Loose min-max box of a sphere ([cx, cy, cz, r]): the cube of half-size r around the centre. It
 * contains the shape under any rotation about the centre, so it never needs refitting for rotation.
 */
export function aabbFromSphere(out: Floats, o: number, sphere: ReadonlyFloats, so: number): Floats {
  const r = sphere[so + 3];
  for (let k = 0; k < 3; k++) {
    out[o + k] = sphere[so + k] - r;
    out[o + 3 + k] = sphere[so + k] + r;
  }
  return out;
}

// ---- transforms (Arvo) ----

const rotation = new Float64Array(9); // scratch for the quaternion variants
const transformed = new Float64Array(6); // centre (3), radius (3) of the last transformed box

/**
 * Arvo's method in centre-radius form, the one shared core: world centre = t + s·R·c, world
 * radius_i = |s|·Σ_j |R_ij|·r_j, the exact AABB of the rotated box. Result in `transformed`.
 */
function arvo(m: ReadonlyFloats, mo: number, cx: number, cy: number, cz: number, rx: number, ry: number, rz: number, t: ReadonlyFloats, scale: number): void {
  const s = Math.abs(scale);
  for (let i = 0; i < 3; i++) {
    // Row i of the column-major matrix.
    const m0 = m[mo + i], m1 = m[mo + 3 + i], m2 = m[mo + 6 + i];
    transformed[i] = t[i] + scale * (m0 * cx + m1 * cy + m2 * cz);
    transformed[3 + i] = s * (Math.abs(m0) * rx + Math.abs(m1) * ry + Math.abs(m2) * rz);
  }
}

/**
 * World min-max box of a LOCAL min-max box under the column-major rotation matrix m[mo .. mo+9)
 * (e.g. an OBB's axes), translation `t` and uniform `scale`. Always transform the local box, never
 * last frame's world box: the result is then tight and does not grow over time.
 */
export function aabbTransformMat3(
  out: Floats,
  oo: number,
  local: ReadonlyFloats,
  lo: number,
  m: ReadonlyFloats,
  t: ReadonlyFloats,
  scale = 1,
  mo = 0,
): Floats {
  arvo(
    m, mo,
    0.5 * (local[lo] + local[lo + 3]), 0.5 * (local[lo + 1] + local[lo + 4]), 0.5 * (local[lo + 2] + local[lo + 5]),
    0.5 * (local[lo + 3] - local[lo]), 0.5 * (local[lo + 4] - local[lo + 1]), 0.5 * (local[lo + 5] - local[lo + 2]),
    t, scale,
  );
  return aabbCenterRadiusToMinMax(out, oo, transformed, 0);
}

/** `aabbTransformMat3` with the rotation given as a unit quaternion (x, y, z, w). */
export function aabbTransform(
  out: Floats,
  oo: number,
  local: ReadonlyFloats,
  lo: number,
  q: ReadonlyFloats,
  t: ReadonlyFloats,
  scale = 1,
): Floats {
  return aabbTransformMat3(out, oo, local, lo, quaternionToMat3(rotation, 0, q), t, scale);
}

/** World centre-radius box of a LOCAL centre-radius box under a column-major rotation matrix (see `aabbTransformMat3`). */
export function aabbTransformCenterRadiusMat3(
  out: Floats,
  oo: number,
  local: ReadonlyFloats,
  lo: number,
  m: ReadonlyFloats,
  t: ReadonlyFloats,
  scale = 1,
  mo = 0,
): Floats {
  arvo(m, mo, local[lo], local[lo + 1], local[lo + 2], local[lo + 3], local[lo + 4], local[lo + 5], t, scale);
  for (let i = 0; i < 6; i++) out[oo + i] = transformed[i];
  return out;
}

/** World centre-radius box of a LOCAL centre-radius box under unit quaternion `q`, translation `t`, uniform `scale`. */
export function aabbTransformCenterRadius(
  out: Floats,
  oo: number,
  local: ReadonlyFloats,
  lo: number,
  q: ReadonlyFloats,
  t: ReadonlyFloats,
  scale = 1,
): Floats {
  return aabbTransformCenterRadiusMat3(out, oo, local, lo, quaternionToMat3(rotation, 0, q), t, scale);
}

