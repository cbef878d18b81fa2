import { ZERO_AREA_TRIANGLE_RATIO, TRI_TRI_TOUCH_TOLERANCE } from '../tolerances';
import { closestSegments, SEGMENTS_DISTANCE, CLOSEST_SEGMENTS_STRIDE } from './closestPoints';
import type { Floats, ReadonlyFloats } from '../layout';

/**
 * Triangle-triangle intersection for closed triangles (touching counts as intersecting). A
 * triangle is 9 numbers at an offset: vertices p, q, r.
 *
 * Method (in the spirit of Möller's interval test): reject when all vertices of one triangle lie
 * strictly on one side of the other's plane; otherwise cut triangle C by the plane of triangle P,
 * which leaves a segment lying in that plane, and clip that segment against P in 2D (the plane
 * projected along its dominant normal axis). What survives is exactly C ∩ P, i.e. the
 * intersection segment. Coplanar triangles are tested in the same 2D projection: an edge of one
 * meeting the other, or one containing the other.
 *
 * Zero-area triangles (ZERO_AREA_TRIANGLE_RATIO) have no plane of their own: they are always the
 * cut triangle C, against the other's plane; two zero-area triangles are compared as their longest
 * edges (segment-segment distance).
 *
 * Nothing allocates: scratch lives in module arrays.
 */

/** `triTriIntersectionSegment` result: the triangles do not meet. */
export const TRI_TRI_DISJOINT = 0;
/** `triTriIntersectionSegment` result: they meet in a segment (possibly a point), written to out. */
export const TRI_TRI_SEGMENT = 1;
/** `triTriIntersectionSegment` result: coplanar and overlapping (an area, not a segment); out untouched. */
export const TRI_TRI_COPLANAR = 2;

const cut = new Float64Array(6);
const tri2 = new Float64Array(6);
const edgeA = new Float64Array(6);
const edgeB = new Float64Array(6);
const closest = new Float64Array(CLOSEST_SEGMENTS_STRIDE + 1);
const unusedSegment = new Float64Array(6);

// Results of `measure` (unnormalised normal xyz, longest squared edge) and `clipSegment2D` (the
// kept parameter range), in typed arrays: doubles written to module-level `let`s are boxed, one
// allocation per write.
const measured = new Float64Array(4);
const NORMAL_X = 0;
const NORMAL_Y = 1;
const NORMAL_Z = 2;
const LONGEST_EDGE2 = 3;
const clipRange = new Float64Array(2);

/** Sets the (unnormalised) normal and longest squared edge of a triangle; returns whether it is zero-area. */
function measure(t: ReadonlyFloats, o: number): boolean {
  const ux = t[o + 3] - t[o], uy = t[o + 4] - t[o + 1], uz = t[o + 5] - t[o + 2];
  const vx = t[o + 6] - t[o], vy = t[o + 7] - t[o + 1], vz = t[o + 8] - t[o + 2];
  const wx = vx - ux, wy = vy - uy, wz = vz - uz;
  const nx = uy * vz - uz * vy, ny = uz * vx - ux * vz, nz = ux * vy - uy * vx;
  const longest2 = Math.max(ux * ux + uy * uy + uz * uz, vx * vx + vy * vy + vz * vz, wx * wx + wy * wy + wz * wz);
  measured[NORMAL_X] = nx;
  measured[NORMAL_Y] = ny;
  measured[NORMAL_Z] = nz;
  measured[LONGEST_EDGE2] = longest2;
  return nx * nx + ny * ny + nz * nz <= ZERO_AREA_TRIANGLE_RATIO * ZERO_AREA_TRIANGLE_RATIO * longest2 * longest2;
}

/** Signed distance (times |n|) of vertex k of `t` to the plane through (x, y, z) with normal n, snapped to 0 within `snap`. */
function planeSide(t: ReadonlyFloats, o: number, k: number, x: number, y: number, z: number, nx: number, ny: number, nz: number, snap: number): number {
  const i = o + 3 * k;
  const d = (t[i] - x) * nx + (t[i + 1] - y) * ny + (t[i + 2] - z) * nz;
  return Math.abs(d) <= snap ? 0 : d;
}

/** Component `axis` (0, 1, 2) of (x, y, z). */
function pick(axis: number, x: number, y: number, z: number): number {
  return axis === 0 ? x : axis === 1 ? y : z;
}

/** Whether all three values are strictly positive or all strictly negative. */
function strictlyOneSide(d0: number, d1: number, d2: number): boolean {
  return (d0 > 0 && d1 > 0 && d2 > 0) || (d0 < 0 && d1 < 0 && d2 < 0);
}

/**
 * Fills `tri2` with the vertices of `t` projected on coordinates (i, j), relative to (ox, oy, oz)
 * (kept small for precision far from the origin); returns twice the signed projected area.
 */
function project(t: ReadonlyFloats, o: number, ox: number, oy: number, oz: number, i: number, j: number): number {
  for (let k = 0; k < 3; k++) {
    const base = o + 3 * k;
    tri2[2 * k] = t[base + i] - pick(i, ox, oy, oz);
    tri2[2 * k + 1] = t[base + j] - pick(j, ox, oy, oz);
  }
  return (tri2[2] - tri2[0]) * (tri2[5] - tri2[1]) - (tri2[3] - tri2[1]) * (tri2[4] - tri2[0]);
}

/**
 * Clips the 2D segment (x0, y0)→(x1, y1) against the closed triangle in `tri2` (orientation
 * `sign` = ±1) grown by `grow`; sets `clipRange` and returns whether anything is left.
 */
function clipSegment2D(x0: number, y0: number, x1: number, y1: number, sign: number, grow: number): boolean {
  let lo = 0, hi = 1;
  for (let k = 0; k < 3; k++) {
    const sx = tri2[2 * k], sy = tri2[2 * k + 1];
    const n = (k + 1) % 3;
    const ex = tri2[2 * n] - sx, ey = tri2[2 * n + 1] - sy;
    const slack = grow * Math.sqrt(ex * ex + ey * ey);
    const f0 = sign * (ex * (y0 - sy) - ey * (x0 - sx)) + slack;
    const f1 = sign * (ex * (y1 - sy) - ey * (x1 - sx)) + slack;
    if (f0 < 0 && f1 < 0) return false;
    if (f0 < 0) lo = Math.max(lo, f0 / (f0 - f1));
    else if (f1 < 0) hi = Math.min(hi, f0 / (f0 - f1));
  }
  clipRange[0] = lo;
  clipRange[1] = hi;
  return lo <= hi;
}

/** Copies the longest edge of a zero-area triangle (which spans it) into `dst` as p0, p1. */
function copyLongestEdge(dst: Float64Array, t: ReadonlyFloats, o: number): void {
  let best = -1, from = 0;
  for (let k = 0; k < 3; k++) {
    const a = o + 3 * k, b = o + 3 * ((k + 1) % 3);
    const dx = t[b] - t[a], dy = t[b + 1] - t[a + 1], dz = t[b + 2] - t[a + 2];
    const l2 = dx * dx + dy * dy + dz * dz;
    if (l2 > best) {
      best = l2;
      from = k;
    }
  }
  const a = o + 3 * from, b = o + 3 * ((from + 1) % 3);
  for (let i = 0; i < 3; i++) {
    dst[i] = t[a + i];
    dst[3 + i] = t[b + i];
  }
}

/** Appends point `count` (0 or 1) of the cut segment; returns the new count. */
function pushCut(count: number, x: number, y: number, z: number): number {
  cut[3 * count] = x;
  cut[3 * count + 1] = y;
  cut[3 * count + 2] = z;
  return count + 1;
}

/**
 * Writes into `cut` the segment where triangle `t` (snapped plane distances d0, d1, d2, not all
 * zero and not all on one side) meets the plane: its on-plane vertices and its sign-changing edge
 * crossings, at most two points (a single point is repeated). Coordinates are relative to
 * (ox, oy, oz), a point of the plane, so that interpolation far from the origin keeps its digits.
 */
function cutByPlane(t: ReadonlyFloats, o: number, d0: number, d1: number, d2: number, ox: number, oy: number, oz: number): void {
  let count = 0;
  for (let k = 0; k < 3; k++) {
    const dk = k === 0 ? d0 : k === 1 ? d1 : d2;
    const n = (k + 1) % 3;
    const dn = n === 0 ? d0 : n === 1 ? d1 : d2;
    const a = o + 3 * k, b = o + 3 * n;
    const ax = t[a] - ox, ay = t[a + 1] - oy, az = t[a + 2] - oz;
    if (dk === 0) count = pushCut(count, ax, ay, az);
    else if (dn !== 0 && dk > 0 !== dn > 0) {
      const s = dk / (dk - dn);
      count = pushCut(count, ax + s * (t[b] - t[a]), ay + s * (t[b + 1] - t[a + 1]), az + s * (t[b + 2] - t[a + 2]));
    }
  }
  if (count === 1) pushCut(1, cut[0], cut[1], cut[2]);
}

/**
 * Intersection of the closed triangles `a[ao..ao+8]` and `b[bo..bo+8]`.
 * Returns TRI_TRI_DISJOINT; TRI_TRI_SEGMENT after writing the common segment's endpoints to
 * `out[0..5]` (equal endpoints for a single touching point; for two zero-area triangles, their
 * closest points, one on each); or TRI_TRI_COPLANAR when coplanar triangles overlap, an area that
 * no segment describes (out untouched).
 */
export function triTriIntersectionSegment(out: Floats, a: ReadonlyFloats, ao: number, b: ReadonlyFloats, bo: number): number {
  const flatA = measure(a, ao);
  const nAx = measured[NORMAL_X], nAy = measured[NORMAL_Y], nAz = measured[NORMAL_Z], longestA2 = measured[LONGEST_EDGE2];
  const flatB = measure(b, bo);
  const nBx = measured[NORMAL_X], nBy = measured[NORMAL_Y], nBz = measured[NORMAL_Z];
  const size = Math.sqrt(Math.max(longestA2, measured[LONGEST_EDGE2]));
  const touch = TRI_TRI_TOUCH_TOLERANCE * size;

  if (flatA && flatB) {
    copyLongestEdge(edgeA, a, ao);
    copyLongestEdge(edgeB, b, bo);
    closestSegments(closest, 0, edgeA, 0, edgeB, 0);
    if (closest[SEGMENTS_DISTANCE] > touch * touch) return TRI_TRI_DISJOINT;
    for (let i = 0; i < 6; i++) out[i] = closest[i];
    return TRI_TRI_SEGMENT;
  }

  // P supplies the plane; C is cut by it. A zero-area triangle is never P.
  const swap = flatB;
  const P = swap ? a : b, po = swap ? ao : bo;
  const C = swap ? b : a, co = swap ? bo : ao;
  const flatC = swap ? flatB : flatA;
  const nx = swap ? nAx : nBx, ny = swap ? nAy : nBy, nz = swap ? nAz : nBz;
  const mx = swap ? nBx : nAx, my = swap ? nBy : nAy, mz = swap ? nBz : nAz;

  const px = P[po], py = P[po + 1], pz = P[po + 2];
  const snapP = touch * Math.sqrt(nx * nx + ny * ny + nz * nz);
  const d0 = planeSide(C, co, 0, px, py, pz, nx, ny, nz, snapP);
  const d1 = planeSide(C, co, 1, px, py, pz, nx, ny, nz, snapP);
  const d2 = planeSide(C, co, 2, px, py, pz, nx, ny, nz, snapP);
  if (strictlyOneSide(d0, d1, d2)) return TRI_TRI_DISJOINT;
  if (!flatC) {
    const cx = C[co], cy = C[co + 1], cz = C[co + 2];
    const snapC = touch * Math.sqrt(mx * mx + my * my + mz * mz);
    if (
      strictlyOneSide(
        planeSide(P, po, 0, cx, cy, cz, mx, my, mz, snapC),
        planeSide(P, po, 1, cx, cy, cz, mx, my, mz, snapC),
        planeSide(P, po, 2, cx, cy, cz, mx, my, mz, snapC),
      )
    ) {
      return TRI_TRI_DISJOINT;
    }
  }

  // Drop the dominant normal axis; (i, j) in cyclic order keeps the projected orientation.
  const ax = Math.abs(nx), ay = Math.abs(ny), az = Math.abs(nz);
  const drop = ax >= ay && ax >= az ? 0 : ay >= az ? 1 : 2;
  const i = (drop + 1) % 3, j = (drop + 2) % 3;
  const signP = project(P, po, px, py, pz, i, j) > 0 ? 1 : -1;

  const oi = pick(i, px, py, pz), oj = pick(j, px, py, pz);

  if (d0 === 0 && d1 === 0 && d2 === 0) {
    for (let k = 0; k < 3; k++) {
      const s = co + 3 * k, e = co + 3 * ((k + 1) % 3);
      if (clipSegment2D(C[s + i] - oi, C[s + j] - oj, C[e + i] - oi, C[e + j] - oj, signP, touch)) {
        return TRI_TRI_COPLANAR;
      }
    }
    // No edges meet: overlap only if P lies inside C (P's first vertex is the 2D origin).
    if (!flatC) {
      const areaC = project(C, co, px, py, pz, i, j);
      if (areaC !== 0 && clipSegment2D(0, 0, 0, 0, areaC > 0 ? 1 : -1, touch)) return TRI_TRI_COPLANAR;
    }
    return TRI_TRI_DISJOINT;
  }

  cutByPlane(C, co, d0, d1, d2, px, py, pz);
  if (!clipSegment2D(cut[i], cut[j], cut[3 + i], cut[3 + j], signP, touch)) return TRI_TRI_DISJOINT;
  for (let k = 0; k < 3; k++) {
    const s = cut[k], e = cut[3 + k], origin = pick(k, px, py, pz);
    out[k] = origin + s + clipRange[0] * (e - s);
    out[3 + k] = origin + s + clipRange[1] * (e - s);
  }
  return TRI_TRI_SEGMENT;
}

/** Whether the closed triangles `a[ao..ao+8]` and `b[bo..bo+8]` intersect (touching included). */
export function triTriOverlap(a: ReadonlyFloats, ao: number, b: ReadonlyFloats, bo: number): boolean {
  return triTriIntersectionSegment(unusedSegment, a, ao, b, bo) !== TRI_TRI_DISJOINT;
}
