import { CollideInputError, assertNonEmptyPoints, assertOutput } from '../errors';
import type { Floats, KdopK, ReadonlyFloats } from '../layout';
import { obbCorners } from './obb';

const AXES = [1, 0, 0, 0, 1, 0, 0, 0, 1];
const CORNERS = [1, 1, 1, 1, 1, -1, 1, -1, 1, 1, -1, -1];
const EDGES = [1, 1, 0, 1, 0, 1, 0, 1, 1, 1, -1, 0, 1, 0, -1, 0, 1, -1];

/**
 * Standard k-DOP direction sets (unnormalised integer vectors, xyz per direction). Each set
 * extends the previous: 6 = the axes, 14 adds the 4 cube diagonals, 18 adds the 6 edge
 * diagonals to the axes, 26 = axes + cube diagonals + edge diagonals.
 */
export const KDOP_DIRECTIONS: Readonly<Record<KdopK, Float64Array>> = {
  6: new Float64Array(AXES),
  14: new Float64Array([...AXES, ...CORNERS]),
  18: new Float64Array([...AXES, ...EDGES]),
  26: new Float64Array([...AXES, ...CORNERS, ...EDGES]),
};

const IDENTITY_ROTATION = new Float64Array([0, 0, 0, 1]);
const ZERO_TRANSLATION = new Float64Array(3);

/** Throws unless `k` names one of the standard direction sets. */
function assertKdopK(k: number, what: string): asserts k is KdopK {
  if (!(k in KDOP_DIRECTIONS)) throw new CollideInputError(`${what}: k must be 6, 14, 18 or 26, got ${k}`);
}

/**
 * Tightest k-DOP around `count` points (xyz from `offset`): per direction d_i the min and max of
 * dot(p, d_i). Throws CollideInputError for an unknown k, an empty set or non-finite coordinates.
 */
export function kdopFromPoints(out: Floats, o: number, k: KdopK, points: ReadonlyFloats, count: number, offset = 0): Floats {
  assertKdopK(k, 'kdopFromPoints');
  assertOutput(out, o, k, 'kdopFromPoints');
  assertNonEmptyPoints(points, count, 'kdopFromPoints', offset);
  return kdopRefit(out, o, k, points, count, IDENTITY_ROTATION, ZERO_TRANSLATION, 1, offset);
}

const obbCornerScratch = new Float64Array(24);

/** Exact k-DOP of an OBB (its 8 corners) at out[o]; trusts its inputs (per-pair use). Returns out. */
export function kdopFromObb(out: Floats, o: number, k: KdopK, box: ReadonlyFloats, bo = 0): Floats {
  obbCorners(obbCornerScratch, box, bo);
  return kdopRefit(out, o, k, obbCornerScratch, 8, IDENTITY_ROTATION, ZERO_TRANSLATION, 1);
}

/**
 * Whether two k-DOPs (same k) overlap: every slab pair intersects. Closed intervals, so touching
 * counts as overlapping. Conservative for the shapes inside: disjoint shapes may still overlap
 * here, intersecting ones never report separated.
 */
export function kdopOverlap(a: ReadonlyFloats, ao: number, b: ReadonlyFloats, bo: number, k: KdopK): boolean {
  const half = k >> 1;
  for (let i = 0; i < half; i++) {
    if (a[ao + half + i] < b[bo + i] || b[bo + half + i] < a[ao + i]) return false;
  }
  return true;
}

/**
 * World k-DOP of a shape given by its local vertices (pass the local convex-hull vertices: same
 * result, fewer points) under rotation `q` (unit quaternion x, y, z, w), translation `t` and
 * uniform `scale`. Exact for the vertices, hence conservative for their hull. Each direction is
 * rotated into the local frame once (dot(t + sRv, d) = dot(t, d) + s·dot(v, Rᵀd)), so the cost is
 * k/2 dot products per vertex and nothing is allocated. Trusts its inputs (per-frame path).
 */
export function kdopRefit(
  out: Floats,
  o: number,
  k: KdopK,
  localVertices: ReadonlyFloats,
  count: number,
  q: ReadonlyFloats,
  t: ReadonlyFloats,
  scale: number,
  verticesOffset = 0,
): Floats {
  const dirs = KDOP_DIRECTIONS[k];
  const half = k >> 1;
  const qx = q[0], qy = q[1], qz = q[2], qw = q[3];
  const r00 = 1 - 2 * (qy * qy + qz * qz), r10 = 2 * (qx * qy + qz * qw), r20 = 2 * (qx * qz - qy * qw);
  const r01 = 2 * (qx * qy - qz * qw), r11 = 1 - 2 * (qx * qx + qz * qz), r21 = 2 * (qy * qz + qx * qw);
  const r02 = 2 * (qx * qz + qy * qw), r12 = 2 * (qy * qz - qx * qw), r22 = 1 - 2 * (qx * qx + qy * qy);
  for (let i = 0; i < half; i++) {
    const dx = dirs[3 * i], dy = dirs[3 * i + 1], dz = dirs[3 * i + 2];
    // Rᵀd: the world direction seen in the local frame.
    const lx = r00 * dx + r10 * dy + r20 * dz;
    const ly = r01 * dx + r11 * dy + r21 * dz;
    const lz = r02 * dx + r12 * dy + r22 * dz;
    let lo = Infinity, hi = -Infinity;
    for (let v = 0; v < count; v++) {
      const p = verticesOffset + 3 * v;
      const s = localVertices[p] * lx + localVertices[p + 1] * ly + localVertices[p + 2] * lz;
      if (s < lo) lo = s;
      if (s > hi) hi = s;
    }
    const base = t[0] * dx + t[1] * dy + t[2] * dz;
    // A negative scale mirrors the shape, swapping which end of the slab each extreme lands on.
    out[o + i] = base + (scale >= 0 ? scale * lo : scale * hi);
    out[o + half + i] = base + (scale >= 0 ? scale * hi : scale * lo);
  }
  return out;
}

/**
 * Exact k-DOP of an AABB (min-max layout at `ao`): per direction the box corner picked by the
 * direction's signs. Trusts its inputs.
 */
export function kdopFromAabb(out: Floats, o: number, k: KdopK, aabb: ReadonlyFloats, ao = 0): Floats {
  const dirs = KDOP_DIRECTIONS[k];
  const half = k >> 1;
  for (let i = 0; i < half; i++) {
    let lo = 0, hi = 0;
    for (let c = 0; c < 3; c++) {
      const d = dirs[3 * i + c];
      const a = d * aabb[ao + c], b = d * aabb[ao + 3 + c];
      lo += a < b ? a : b;
      hi += a < b ? b : a;
    }
    out[o + i] = lo;
    out[o + half + i] = hi;
  }
  return out;
}

/**
 * Whether (x, y, z) lies in the closed k-DOP, every slab widened by `tolerance` in units of
 * dot(p, d_i) (pass a size-relative value; 0 for the exact test).
 */
export function kdopContainsPoint(kdop: ReadonlyFloats, o: number, k: KdopK, x: number, y: number, z: number, tolerance = 0): boolean {
  const dirs = KDOP_DIRECTIONS[k];
  const half = k >> 1;
  for (let i = 0; i < half; i++) {
    const s = x * dirs[3 * i] + y * dirs[3 * i + 1] + z * dirs[3 * i + 2];
    if (s < kdop[o + i] - tolerance || s > kdop[o + half + i] + tolerance) return false;
  }
  return true;
}
