import { OBB_AXES, OBB_CENTER, OBB_HALF, type Floats, type ReadonlyFloats } from '../layout';
import { SEGMENTS_PARALLEL_SINE_SQUARED, POINT_SEGMENT_RATIO, ZERO_AREA_TRIANGLE_RATIO } from '../tolerances';

/**
 * Closest points between a point and the basic primitives, and between two segments.
 *
 * Every function writes its result at `out[o...]` and returns the squared distance. Points come
 * as scalars (x, y, z); primitives as runs of numbers at an offset: a segment is p0 (3), p1 (3)
 * (so a capsule's first six numbers are its segment), a triangle is a (3), b (3), c (3). Derived
 * queries (point to capsule or sphere, capsule to capsule) subtract radii from these distances.
 * Nothing here allocates; math is in doubles.
 */

/** Result of `closestPtPointSegment`: the point (3), then its parameter t in [0, 1]. */
export const CLOSEST_ON_SEGMENT_STRIDE = 4;

/** Result of `closestPtPointTriangle`: the point (3), then barycentric weights u, v, w of a, b, c. */
export const CLOSEST_ON_TRIANGLE_STRIDE = 6;

/**
 * Result of `closestPtSegmentSegment`: point on the first segment (3), point on the second (3),
 * then their parameters s and t in [0, 1].
 */
export const CLOSEST_SEGMENTS_STRIDE = 8;

/**
 * Rectangle (a bounded planar face): centre (3), two orthogonal unit axes (3 + 3), the two
 * half-extents along them (2).
 */
export const RECT_STRIDE = 11;
/** Offset of a rectangle's centre (3 numbers). */
export const RECT_CENTER = 0;
/** Offset of a rectangle's two axes (6 numbers). */
export const RECT_AXES = 3;
/** Offset of a rectangle's two half-extents. */
export const RECT_HALF = 9;

function clamp01(x: number): number {
  return x < 0 ? 0 : x > 1 ? 1 : x;
}

/** Parameter in [0, 1] of the point of segment a→b closest to p; 0 for a zero-length segment. */
function segmentParameter(
  px: number, py: number, pz: number,
  ax: number, ay: number, az: number,
  bx: number, by: number, bz: number,
): number {
  const dx = bx - ax, dy = by - ay, dz = bz - az;
  const len2 = dx * dx + dy * dy + dz * dz;
  if (len2 === 0) return 0;
  return clamp01(((px - ax) * dx + (py - ay) * dy + (pz - az) * dz) / len2);
}

/** Writes point (x, y, z) at out[o..o+2] and returns its squared distance to p. */
function writePoint(out: Floats, o: number, x: number, y: number, z: number, px: number, py: number, pz: number): number {
  out[o] = x;
  out[o + 1] = y;
  out[o + 2] = z;
  const dx = px - x, dy = py - y, dz = pz - z;
  return dx * dx + dy * dy + dz * dz;
}

/**
 * Closest point to p on the segment p0→p1 stored at `seg[so..so+5]`. Writes the point and its
 * parameter t (point = p0 + t·(p1 − p0)); a zero-length segment gives p0 and t = 0.
 * Returns the squared distance.
 */
export function closestPtPointSegment(
  out: Floats, o: number,
  px: number, py: number, pz: number,
  seg: ReadonlyFloats, so: number,
): number {
  const ax = seg[so], ay = seg[so + 1], az = seg[so + 2];
  const bx = seg[so + 3], by = seg[so + 4], bz = seg[so + 5];
  const t = segmentParameter(px, py, pz, ax, ay, az, bx, by, bz);
  out[o + 3] = t;
  return writePoint(out, o, ax + t * (bx - ax), ay + t * (by - ay), az + t * (bz - az), px, py, pz);
}

/** Writes the barycentric weights (u, v, w) at out[o+3..o+5]. */
function writeWeights(out: Floats, o: number, u: number, v: number, w: number): void {
  out[o + 3] = u;
  out[o + 4] = v;
  out[o + 5] = w;
}

/**
 * Closest point to p on the closed triangle a, b, c stored at `tri[to..to+8]`, by Voronoi
 * regions (vertex, then edge, then face), as in Ericson, Real-Time Collision Detection 5.1.5.
 * Writes the point and barycentric weights (u, v, w), point = u·a + v·b + w·c.
 * A zero-area triangle (see ZERO_AREA_TRIANGLE_RATIO: collinear or coincident vertices) is
 * handled as its longest edge, or as its single point. Returns the squared distance.
 */
export function closestPtPointTriangle(
  out: Floats, o: number,
  px: number, py: number, pz: number,
  tri: ReadonlyFloats, to: number,
): number {
  const ax = tri[to], ay = tri[to + 1], az = tri[to + 2];
  const bx = tri[to + 3], by = tri[to + 4], bz = tri[to + 5];
  const cx = tri[to + 6], cy = tri[to + 7], cz = tri[to + 8];
  const abx = bx - ax, aby = by - ay, abz = bz - az;
  const acx = cx - ax, acy = cy - ay, acz = cz - az;
  const nx = aby * acz - abz * acy, ny = abz * acx - abx * acz, nz = abx * acy - aby * acx;
  const n2 = nx * nx + ny * ny + nz * nz;
  const ab2 = abx * abx + aby * aby + abz * abz;
  const ac2 = acx * acx + acy * acy + acz * acz;
  const bc2 = (cx - bx) * (cx - bx) + (cy - by) * (cy - by) + (cz - bz) * (cz - bz);
  const longest2 = Math.max(ab2, ac2, bc2);
  if (n2 <= ZERO_AREA_TRIANGLE_RATIO * ZERO_AREA_TRIANGLE_RATIO * longest2 * longest2) {
    // Zero-area: the triangle is its longest edge (which spans the other vertex).
    if (longest2 === ab2) {
      const t = segmentParameter(px, py, pz, ax, ay, az, bx, by, bz);
      writeWeights(out, o, 1 - t, t, 0);
      return writePoint(out, o, ax + t * abx, ay + t * aby, az + t * abz, px, py, pz);
    }
    if (longest2 === ac2) {
      const t = segmentParameter(px, py, pz, ax, ay, az, cx, cy, cz);
      writeWeights(out, o, 1 - t, 0, t);
      return writePoint(out, o, ax + t * acx, ay + t * acy, az + t * acz, px, py, pz);
    }
    const t = segmentParameter(px, py, pz, bx, by, bz, cx, cy, cz);
    writeWeights(out, o, 0, 1 - t, t);
    return writePoint(out, o, bx + t * (cx - bx), by + t * (cy - by), bz + t * (cz - bz), px, py, pz);
  }

  const apx = px - ax, apy = py - ay, apz = pz - az;
  const d1 = abx * apx + aby * apy + abz * apz;
  const d2 = acx * apx + acy * apy + acz * apz;
  if (d1 <= 0 && d2 <= 0) {
    writeWeights(out, o, 1, 0, 0);
    return writePoint(out, o, ax, ay, az, px, py, pz);
  }
  const bpx = px - bx, bpy = py - by, bpz = pz - bz;
  const d3 = abx * bpx + aby * bpy + abz * bpz;
  const d4 = acx * bpx + acy * bpy + acz * bpz;
  if (d3 >= 0 && d4 <= d3) {
    writeWeights(out, o, 0, 1, 0);
    return writePoint(out, o, bx, by, bz, px, py, pz);
  }
  const vc = d1 * d4 - d3 * d2;
  if (vc <= 0 && d1 >= 0 && d3 <= 0) {
    const t = d1 / (d1 - d3);
    writeWeights(out, o, 1 - t, t, 0);
    return writePoint(out, o, ax + t * abx, ay + t * aby, az + t * abz, px, py, pz);
  }
  const cpx = px - cx, cpy = py - cy, cpz = pz - cz;
  const d5 = abx * cpx + aby * cpy + abz * cpz;
  const d6 = acx * cpx + acy * cpy + acz * cpz;
  if (d6 >= 0 && d5 <= d6) {
    writeWeights(out, o, 0, 0, 1);
    return writePoint(out, o, cx, cy, cz, px, py, pz);
  }
  const vb = d5 * d2 - d1 * d6;
  if (vb <= 0 && d2 >= 0 && d6 <= 0) {
    const t = d2 / (d2 - d6);
    writeWeights(out, o, 1 - t, 0, t);
    return writePoint(out, o, ax + t * acx, ay + t * acy, az + t * acz, px, py, pz);
  }
  const va = d3 * d6 - d5 * d4;
  const fromB = d4 - d3, fromC = d5 - d6;
  if (va <= 0 && fromB >= 0 && fromC >= 0) {
    const t = fromB / (fromB + fromC);
    writeWeights(out, o, 0, 1 - t, t);
    return writePoint(out, o, bx + t * (cx - bx), by + t * (cy - by), bz + t * (cz - bz), px, py, pz);
  }
  // Face region. The point is the projection along the normal, which stays accurate on thin
  // triangles where the weights (ratios of cancelling products) lose digits.
  const sum = va + vb + vc;
  const v = vb / sum, w = vc / sum;
  writeWeights(out, o, 1 - v - w, v, w);
  const h = (apx * nx + apy * ny + apz * nz) / n2;
  return writePoint(out, o, px - h * nx, py - h * ny, pz - h * nz, px, py, pz);
}

/**
 * Clamps p into a box-like run: centre at `box[centre]`, `axisCount` unit axes from `box[axes]`,
 * half-extents from `box[half]`. Shared by the OBB (3 axes) and the rectangle (2 axes).
 */
function closestPtPointBoxLike(
  out: Floats, o: number,
  px: number, py: number, pz: number,
  box: ReadonlyFloats, centre: number, axes: number, half: number, axisCount: number,
): number {
  const dx = px - box[centre], dy = py - box[centre + 1], dz = pz - box[centre + 2];
  let x = box[centre], y = box[centre + 1], z = box[centre + 2];
  for (let k = 0; k < axisCount; k++) {
    const a = axes + 3 * k;
    const h = box[half + k];
    let d = dx * box[a] + dy * box[a + 1] + dz * box[a + 2];
    if (d > h) d = h;
    else if (d < -h) d = -h;
    x += d * box[a];
    y += d * box[a + 1];
    z += d * box[a + 2];
  }
  return writePoint(out, o, x, y, z, px, py, pz);
}

/**
 * Closest point to p in the solid OBB at `box[bo..]` (layout.ts OBB layout); p itself when inside.
 * Writes the point (3) and returns the squared distance.
 */
export function closestPtPointObb(
  out: Floats, o: number,
  px: number, py: number, pz: number,
  box: ReadonlyFloats, bo: number,
): number {
  return closestPtPointBoxLike(out, o, px, py, pz, box, bo + OBB_CENTER, bo + OBB_AXES, bo + OBB_HALF, 3);
}

/**
 * closestPtPointObb with p read at point[po..po + 2], the squared distance written at out[o + 3]
 * (V8 boxes a double passed to or returned from a call it does not inline).
 * @internal
 */
export function closestPtPointObbArrays(out: Float64Array, o: number, point: ReadonlyFloats, po: number, box: ReadonlyFloats, bo: number): void {
  out[o + 3] = closestPtPointBoxLike(out, o, point[po], point[po + 1], point[po + 2], box, bo + OBB_CENTER, bo + OBB_AXES, bo + OBB_HALF, 3);
}

/**
 * Closest point to p on the solid rectangle at `rect[ro..]` (RECT_* layout). Writes the point
 * (3) and returns the squared distance.
 */
export function closestPtPointRect(
  out: Floats, o: number,
  px: number, py: number, pz: number,
  rect: ReadonlyFloats, ro: number,
): number {
  return closestPtPointBoxLike(out, o, px, py, pz, rect, ro + RECT_CENTER, ro + RECT_AXES, ro + RECT_HALF, 2);
}

/**
 * Closest point to p in the solid min-max AABB at `box[bo..bo+5]`; p itself when inside.
 * Writes the point (3) and returns the squared distance.
 */
export function closestPtPointAabb(
  out: Floats, o: number,
  px: number, py: number, pz: number,
  box: ReadonlyFloats, bo: number,
): number {
  const x = px < box[bo] ? box[bo] : px > box[bo + 3] ? box[bo + 3] : px;
  const y = py < box[bo + 1] ? box[bo + 1] : py > box[bo + 4] ? box[bo + 4] : py;
  const z = pz < box[bo + 2] ? box[bo + 2] : pz > box[bo + 5] ? box[bo + 5] : pz;
  return writePoint(out, o, x, y, z, px, py, pz);
}

/**
 * Closest points between segment S1 (p1→q1 at `s1[o1..o1+5]`) and segment S2 (p2→q2 at
 * `s2[o2..o2+5]`), by clamping the line-line parameters region by region (Ericson, RTCD 5.1.9).
 * Writes both points and their parameters s, t (CLOSEST_SEGMENTS_STRIDE layout) and returns the
 * squared distance. Zero-length segments act as points; for parallel segments, among the many
 * closest pairs, one with an endpoint of a segment is returned.
 *
 * Band, in true distance (test/kernelBands.test.ts): never shorter than the true distance beyond a
 * few ulps of the coordinates (the pair returned lies on the segments); longer by at most 5e-8 of
 * the longer segment's length for nearly parallel segments (SEGMENTS_PARALLEL_SINE_SQUARED), and by at
 * most the length of a segment shorter than POINT_SEGMENT_RATIO of the sizes (taken as a point).
 * So the capsule booleans built on it (distance² against (ra + rb)²) never report touching
 * capsules that are apart beyond rounding, and may report apart nearly parallel capsules that
 * overlap by less than that.
 */
export function closestPtSegmentSegment(
  out: Floats, o: number,
  s1: ReadonlyFloats, o1: number,
  s2: ReadonlyFloats, o2: number,
): number {
  closestSegments(segments, 0, s1, o1, s2, o2);
  for (let k = 0; k < CLOSEST_SEGMENTS_STRIDE; k++) out[o + k] = segments[k];
  return segments[SEGMENTS_DISTANCE];
}
const segments = new Float64Array(CLOSEST_SEGMENTS_STRIDE + 1);

/**
 * Offset of closestSegments' squared distance, after the CLOSEST_SEGMENTS_STRIDE numbers of
 * closestPtSegmentSegment.
 * @internal
 */
export const SEGMENTS_DISTANCE = CLOSEST_SEGMENTS_STRIDE;

/**
 * closestPtSegmentSegment with the squared distance written at out[o + SEGMENTS_DISTANCE] instead
 * of returned: V8 boxes a double returned from a call it does not inline.
 * @internal
 */
export function closestSegments(
  out: Float64Array, o: number,
  s1: ReadonlyFloats, o1: number,
  s2: ReadonlyFloats, o2: number,
): void {
  const p1x = s1[o1], p1y = s1[o1 + 1], p1z = s1[o1 + 2];
  const d1x = s1[o1 + 3] - p1x, d1y = s1[o1 + 4] - p1y, d1z = s1[o1 + 5] - p1z;
  const p2x = s2[o2], p2y = s2[o2 + 1], p2z = s2[o2 + 2];
  const d2x = s2[o2 + 3] - p2x, d2y = s2[o2 + 4] - p2y, d2z = s2[o2 + 5] - p2z;
  const rx = p1x - p2x, ry = p1y - p2y, rz = p1z - p2z;
  const a = d1x * d1x + d1y * d1y + d1z * d1z;
  const e = d2x * d2x + d2y * d2y + d2z * d2z;
  const b = d1x * d2x + d1y * d2y + d1z * d2z;
  const c = d1x * rx + d1y * ry + d1z * rz;
  const f = d2x * rx + d2y * ry + d2z * rz;
  const pointLength2 = POINT_SEGMENT_RATIO * POINT_SEGMENT_RATIO * (a + e + rx * rx + ry * ry + rz * rz);
  let s: number, t: number;
  if (a <= pointLength2 && e <= pointLength2) {
    s = 0;
    t = 0;
  } else if (a <= pointLength2) {
    s = 0;
    t = clamp01(f / e);
  } else if (e <= pointLength2) {
    t = 0;
    s = clamp01(-c / a);
  } else {
    const denom = a * e - b * b;
    // Closest point of line 1 to line 2, clamped; any start works for parallel segments.
    s = denom > SEGMENTS_PARALLEL_SINE_SQUARED * a * e ? clamp01((b * f - c * e) / denom) : 0;
    t = (b * s + f) / e;
    // When t leaves [0, 1], clamp it and move s to the closest point of S1 to that end of S2.
    if (t < 0) {
      t = 0;
      s = clamp01(-c / a);
    } else if (t > 1) {
      t = 1;
      s = clamp01((b - c) / a);
    }
  }
  const x1 = p1x + s * d1x, y1 = p1y + s * d1y, z1 = p1z + s * d1z;
  const x2 = p2x + t * d2x, y2 = p2y + t * d2y, z2 = p2z + t * d2z;
  out[o + 3] = x2;
  out[o + 4] = y2;
  out[o + 5] = z2;
  out[o + 6] = s;
  out[o + 7] = t;
  out[o + SEGMENTS_DISTANCE] = writePoint(out, o, x1, y1, z1, x2, y2, z2);
}
