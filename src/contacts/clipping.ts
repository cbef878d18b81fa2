import { OBB_AXES, OBB_HALF, type Floats, type ReadonlyFloats } from '../layout';
import { CONTACT_POINTS, CONTACT_POINT_STRIDE } from './manifold';

/**
 * Polygon clipping and point reduction for face contacts (Sutherland-Hodgman against a face
 * rectangle or a plane, then at most four points kept).
 */

/**
 * Clips the polygon `src` (count points, box frame) to the rectangle |x[j]| <= h_j, |x[l]| <= h_l
 * of a face of the box at box[bo] (OBB layout; h its half-extents): the side planes of that face.
 * Result in `dst` (`tmp` is scratch); returns its count. The limits are read here, not passed:
 * doubles passed to a call V8 does not inline are boxed.
 */
export function clipToFaceRectangle(
  src: Float64Array, count: number, tmp: Float64Array, dst: Float64Array, j: number, l: number, box: ReadonlyFloats, bo: number,
): number {
  const hj = bo + OBB_HALF + j, hl = bo + OBB_HALF + l;
  let n = clipPolygon(src, tmp, count, j, 1, box, hj);
  n = clipPolygon(tmp, dst, n, j, -1, box, hj);
  n = clipPolygon(dst, tmp, n, l, 1, box, hl);
  return clipPolygon(tmp, dst, n, l, -1, box, hl);
}

/**
 * Keeps the points of `src` (count points, xyz in the reference frame) with side·x[axis] <= limit
 * (limits[lo]), adding the crossing points of the edges that cross the line: clipPolygonPlane with
 * an axis normal.
 */
export function clipPolygon(src: Float64Array, dst: Float64Array, count: number, axis: number, side: number, limits: ReadonlyFloats, lo: number): number {
  return clipPolygonPlane(src, dst, count, axis === 0 ? side : 0, axis === 1 ? side : 0, axis === 2 ? side : 0, limits, lo);
}

/**
 * Keeps the points of `src` (count points, xyz) with n·x <= limit (limits[lo]), adding the
 * crossing points of the edges that cross the plane (Sutherland-Hodgman, one plane).
 */
export function clipPolygonPlane(src: Float64Array, dst: Float64Array, count: number, nx: number, ny: number, nz: number, limits: ReadonlyFloats, lo: number): number {
  const limit = limits[lo];
  let n = 0;
  for (let i = 0; i < count; i++) {
    const c = 3 * i, next = 3 * ((i + 1) % count);
    const dc = limit - (nx * src[c] + ny * src[c + 1] + nz * src[c + 2]);
    const dn = limit - (nx * src[next] + ny * src[next + 1] + nz * src[next + 2]);
    if (dc >= 0) {
      dst[3 * n] = src[c];
      dst[3 * n + 1] = src[c + 1];
      dst[3 * n + 2] = src[c + 2];
      n++;
    }
    if (dc >= 0 !== dn >= 0) {
      const t = dc / (dc - dn);
      dst[3 * n] = src[c] + t * (src[next] - src[c]);
      dst[3 * n + 1] = src[c + 1] + t * (src[next + 1] - src[c + 1]);
      dst[3 * n + 2] = src[c + 2] + t * (src[next + 2] - src[c + 2]);
      n++;
    }
  }
  return n;
}

/**
 * Picks 4 well-spread points of `count` (> 4) in `poly` (depths in `pointDepth`) into `chosen`: the deepest, the farthest
 * from it across the face (coordinates j, l), then the one spanning the largest triangle with
 * those two, then the largest on the other side of their line.
 */
export function reduceToFour(poly: Float64Array, pointDepth: Float64Array, count: number, j: number, l: number, chosen: Int32Array): void {
  let first = 0;
  for (let i = 1; i < count; i++) if (pointDepth[i] > pointDepth[first]) first = i;
  const x0 = poly[3 * first + j], y0 = poly[3 * first + l];
  let second = first === 0 ? 1 : 0, far = -1;
  for (let i = 0; i < count; i++) {
    if (i === first) continue;
    const ex = poly[3 * i + j] - x0, ey = poly[3 * i + l] - y0;
    const d = ex * ex + ey * ey;
    if (d > far) {
      far = d;
      second = i;
    }
  }
  const ux = poly[3 * second + j] - x0, uy = poly[3 * second + l] - y0;
  let third = -1, thirdArea = 0, best = -1;
  for (let i = 0; i < count; i++) {
    if (i === first || i === second) continue;
    const area = ux * (poly[3 * i + l] - y0) - uy * (poly[3 * i + j] - x0);
    if (Math.abs(area) > best) {
      best = Math.abs(area);
      third = i;
      thirdArea = area;
    }
  }
  const otherSide = thirdArea >= 0 ? -1 : 1;
  let fourth = -1;
  best = -Infinity;
  for (let i = 0; i < count; i++) {
    if (i === first || i === second || i === third) continue;
    const area = otherSide * (ux * (poly[3 * i + l] - y0) - uy * (poly[3 * i + j] - x0));
    if (area > best) {
      best = area;
      fourth = i;
    }
  }
  chosen[0] = first;
  chosen[1] = second;
  chosen[2] = third;
  chosen[3] = fourth;
}

/**
 * Writes the `kept` points of `poly` (box frame of the box at box[bo]; depths in `depths`) as
 * points 0.. of the manifold at out[oo], first reduced to four across coordinates j, l
 * (reduceToFour, into `chosen`) when there are more; returns how many were written. Each point
 * is mapped to the world here, from the arrays: passed to a call as numbers, V8 would box them.
 */
export function writeKeptPoints(
  out: Floats, oo: number, box: ReadonlyFloats, bo: number,
  poly: Float64Array, depths: Float64Array, kept: number, j: number, l: number, chosen: Int32Array,
): number {
  const count = kept > 4 ? 4 : kept;
  if (kept > 4) reduceToFour(poly, depths, kept, j, l, chosen);
  const ax = bo + OBB_AXES;
  for (let q = 0; q < count; q++) {
    const i = kept > 4 ? chosen[q] : q, x = poly[3 * i], y = poly[3 * i + 1], z = poly[3 * i + 2];
    const p = oo + CONTACT_POINTS + CONTACT_POINT_STRIDE * q;
    for (let k = 0; k < 3; k++) out[p + k] = box[bo + k] + x * box[ax + k] + y * box[ax + 3 + k] + z * box[ax + 6 + k];
    out[p + 3] = depths[i];
  }
  return count;
}
