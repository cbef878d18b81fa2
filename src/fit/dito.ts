import { CollideInputError, assertNonEmptyPoints, assertOutput } from '../errors';
import { KDOP_DIRECTIONS } from '../volumes/kdop';
import type { Floats, ReadonlyFloats } from '../layout';
import { obbFromAxes } from '../volumes/obb';
import { ROUNDING_ALLOWANCE, DITO_RELATIVE_TOLERANCE } from '../tolerances';
import { IDENTITY_AXES, OBB_STRIDE } from '../layout';

/**
 * DiTO: Ditetrahedron OBB fitting (Larsson & Källberg 2011, "Fast Computation of Tight-Fitting
 * Oriented Bounding Boxes", Game Engine Gems 2). Candidate orientations come from the edges and
 * normals of a few large triangles spanned by extremal points; each candidate is scored on the
 * extremal points only, so the full point set is read just twice (extremes, final box).
 */

const MAX_NORMALS = 13;
// Module scratch (fitting is single-threaded): extremal points as 2 per normal (min, max), plus
// one slot for a point found off the line when the extremal points are all collinear.
const extremal = new Float64Array(6 * MAX_NORMALS + 3);
const minProj = new Float64Array(MAX_NORMALS);
const maxProj = new Float64Array(MAX_NORMALS);
const minIndex = new Int32Array(MAX_NORMALS);
const maxIndex = new Int32Array(MAX_NORMALS);
const bestAxes = new Float64Array(9);
const candidate = new Float64Array(9);

let extremalCount = 0;
let bestQuality = Infinity;
let tolerance = 0;

/**
 * Oriented box around `count` points (xyz from `offset`) by DiTO-14 or DiTO-26 (7 or 13 sample
 * normals, those of the 14- and 26-DOP), written at `out[o]` in the OBB layout. The axes are a
 * right-handed orthonormal frame; the box is the tightest one along them over all points.
 * Degenerate sets give a flat box: one point → zero extents, collinear → a box along the line,
 * coplanar → a box with one zero extent (up to rounding). Throws CollideInputError for k other
 * than 14 or 26, an empty set or non-finite coordinates.
 */
export function ditoObb(out: Floats, o: number, points: ReadonlyFloats, count: number, k: 14 | 26, offset = 0): Floats {
  if (k !== 14 && k !== 26) throw new CollideInputError(`ditoObb: k must be 14 or 26, got ${k}`);
  assertOutput(out, o, OBB_STRIDE, 'ditoObb');
  assertNonEmptyPoints(points, count, 'ditoObb', offset);
  const dirs = KDOP_DIRECTIONS[k];
  const normals = k >> 1;

  // Extremal points along each sample normal, one pass over all points.
  minProj.fill(Infinity);
  maxProj.fill(-Infinity);
  let maxAbs = 0;
  for (let i = 0; i < count; i++) {
    const p = offset + 3 * i;
    const x = points[p], y = points[p + 1], z = points[p + 2];
    maxAbs = Math.max(maxAbs, Math.abs(x), Math.abs(y), Math.abs(z));
    for (let j = 0; j < normals; j++) {
      const s = x * dirs[3 * j] + y * dirs[3 * j + 1] + z * dirs[3 * j + 2];
      if (s < minProj[j]) {
        minProj[j] = s;
        minIndex[j] = i;
      }
      if (s > maxProj[j]) {
        maxProj[j] = s;
        maxIndex[j] = i;
      }
    }
  }
  extremalCount = 2 * normals;
  for (let j = 0; j < normals; j++) {
    for (let c = 0; c < 3; c++) {
      extremal[6 * j + c] = points[offset + 3 * minIndex[j] + c];
      extremal[6 * j + 3 + c] = points[offset + 3 * maxIndex[j] + c];
    }
  }

  // The axis-aligned frame is the starting candidate, and the answer when nothing beats it.
  bestAxes.set(IDENTITY_AXES);
  bestQuality = Infinity;
  consider(IDENTITY_AXES);

  // Base triangle: the farthest extremal pair (p0, p1), then the extremal point farthest from that line.
  let p0 = 0, p1 = 1, far2 = -1;
  for (let j = 0; j < normals; j++) {
    const d2 = distance2(2 * j, 2 * j + 1);
    if (d2 > far2) {
      far2 = d2;
      p0 = 2 * j;
      p1 = 2 * j + 1;
    }
  }
  const length = Math.sqrt(far2);
  tolerance = DITO_RELATIVE_TOLERANCE * length + ROUNDING_ALLOWANCE * maxAbs;
  if (length > tolerance) {
    let p2 = -1, lineDist = tolerance;
    for (let e = 0; e < extremalCount; e++) {
      const d = distanceToLine(e, p0, p1);
      if (d > lineDist) {
        lineDist = d;
        p2 = e;
      }
    }
    if (p2 < 0) {
      // The extremal points can be collinear while the set is not (a point may be extreme along
      // no sample normal); then the farthest point from the line joins the extremal set.
      p2 = farthestFromLine(points, count, offset, p0, p1, lineDist);
    }
    if (p2 < 0) {
      alongLine(p0, p1);
    } else {
      considerTriangle(p0, p1, p2);
      // The ditetrahedron: the extremal points farthest on each side of the base plane.
      const b = 3 * p0;
      const ux = extremal[3 * p1] - extremal[b], uy = extremal[3 * p1 + 1] - extremal[b + 1], uz = extremal[3 * p1 + 2] - extremal[b + 2];
      const vx = extremal[3 * p2] - extremal[b], vy = extremal[3 * p2 + 1] - extremal[b + 1], vz = extremal[3 * p2 + 2] - extremal[b + 2];
      let nx = uy * vz - uz * vy, ny = uz * vx - ux * vz, nz = ux * vy - uy * vx;
      const nl = Math.hypot(nx, ny, nz);
      nx /= nl;
      ny /= nl;
      nz /= nl;
      let above = -1, below = -1, hi = tolerance, lo = -tolerance;
      for (let e = 0; e < extremalCount; e++) {
        const h = (extremal[3 * e] - extremal[b]) * nx + (extremal[3 * e + 1] - extremal[b + 1]) * ny + (extremal[3 * e + 2] - extremal[b + 2]) * nz;
        if (h > hi) {
          hi = h;
          above = e;
        }
        if (h < lo) {
          lo = h;
          below = e;
        }
      }
      // A side with no point beyond the tolerance is flat: no tetrahedron there.
      if (above >= 0) considerTetrahedron(p0, p1, p2, above);
      if (below >= 0) considerTetrahedron(p0, p1, p2, below);
    }
  }
  return obbFromAxes(out, o, bestAxes, 0, points, count, offset);
}

/** The 3 side triangles of the tetrahedron over base (a, b, c) with apex q. */
function considerTetrahedron(a: number, b: number, c: number, q: number): void {
  considerTriangle(a, b, q);
  considerTriangle(b, c, q);
  considerTriangle(c, a, q);
}

function distance2(a: number, b: number): number {
  const dx = extremal[3 * a] - extremal[3 * b], dy = extremal[3 * a + 1] - extremal[3 * b + 1], dz = extremal[3 * a + 2] - extremal[3 * b + 2];
  return dx * dx + dy * dy + dz * dz;
}

function distanceToLine(e: number, a: number, b: number): number {
  const ux = extremal[3 * b] - extremal[3 * a], uy = extremal[3 * b + 1] - extremal[3 * a + 1], uz = extremal[3 * b + 2] - extremal[3 * a + 2];
  const wx = extremal[3 * e] - extremal[3 * a], wy = extremal[3 * e + 1] - extremal[3 * a + 1], wz = extremal[3 * e + 2] - extremal[3 * a + 2];
  return Math.hypot(uy * wz - uz * wy, uz * wx - ux * wz, ux * wy - uy * wx) / Math.hypot(ux, uy, uz);
}

/** Appends the input point farthest (beyond `minDist`) from line (a, b) as an extremal slot; returns the slot or -1. */
function farthestFromLine(points: ReadonlyFloats, count: number, offset: number, a: number, b: number, minDist: number): number {
  const ax = extremal[3 * a], ay = extremal[3 * a + 1], az = extremal[3 * a + 2];
  let ux = extremal[3 * b] - ax, uy = extremal[3 * b + 1] - ay, uz = extremal[3 * b + 2] - az;
  const ul = Math.hypot(ux, uy, uz);
  ux /= ul;
  uy /= ul;
  uz /= ul;
  let found = -1, best = minDist;
  for (let i = 0; i < count; i++) {
    const p = offset + 3 * i;
    const wx = points[p] - ax, wy = points[p + 1] - ay, wz = points[p + 2] - az;
    const d = Math.hypot(uy * wz - uz * wy, uz * wx - ux * wz, ux * wy - uy * wx);
    if (d > best) {
      best = d;
      found = i;
    }
  }
  if (found < 0) return -1;
  const slot = extremalCount++;
  for (let c = 0; c < 3; c++) extremal[3 * slot + c] = points[offset + 3 * found + c];
  return slot;
}

/** Half the surface area of the box along `axes` around the extremal points (the paper's quality measure). */
function halfArea(axes: Float64Array): number {
  const a = extentAlong(axes, 0), b = extentAlong(axes, 1), c = extentAlong(axes, 2);
  return a * b + b * c + c * a;
}

function extentAlong(axes: Float64Array, k: number): number {
  const x = axes[3 * k], y = axes[3 * k + 1], z = axes[3 * k + 2];
  let lo = Infinity, hi = -Infinity;
  for (let e = 0; e < extremalCount; e++) {
    const s = extremal[3 * e] * x + extremal[3 * e + 1] * y + extremal[3 * e + 2] * z;
    if (s < lo) lo = s;
    if (s > hi) hi = s;
  }
  return hi - lo;
}

function consider(axes: Float64Array): void {
  const q = halfArea(axes);
  if (q < bestQuality) {
    bestQuality = q;
    bestAxes.set(axes);
  }
}

/**
 * Right-handed orthonormal frame into `candidate`: u along (ux, uy, uz), v = n × u, w = u × v,
 * built by normalising each step so rounding never breaks orthonormality.
 */
function frameFrom(ux: number, uy: number, uz: number, nx: number, ny: number, nz: number): void {
  const ul = Math.hypot(ux, uy, uz);
  ux /= ul;
  uy /= ul;
  uz /= ul;
  let vx = ny * uz - nz * uy, vy = nz * ux - nx * uz, vz = nx * uy - ny * ux;
  const vl = Math.hypot(vx, vy, vz);
  vx /= vl;
  vy /= vl;
  vz /= vl;
  candidate[0] = ux;
  candidate[1] = uy;
  candidate[2] = uz;
  candidate[3] = vx;
  candidate[4] = vy;
  candidate[5] = vz;
  candidate[6] = uy * vz - uz * vy;
  candidate[7] = uz * vx - ux * vz;
  candidate[8] = ux * vy - uy * vx;
}

/** The 3 frames of triangle (a, b, c): each edge, the normal, and their cross product. */
function considerTriangle(a: number, b: number, c: number): void {
  const ax = extremal[3 * a], ay = extremal[3 * a + 1], az = extremal[3 * a + 2];
  const bx = extremal[3 * b], by = extremal[3 * b + 1], bz = extremal[3 * b + 2];
  const cx = extremal[3 * c], cy = extremal[3 * c + 1], cz = extremal[3 * c + 2];
  const e0x = bx - ax, e0y = by - ay, e0z = bz - az;
  const e1x = cx - bx, e1y = cy - by, e1z = cz - bz;
  const nx = e0y * e1z - e0z * e1y, ny = e0z * e1x - e0x * e1z, nz = e0x * e1y - e0y * e1x;
  const twiceArea = Math.hypot(nx, ny, nz);
  considerEdge(e0x, e0y, e0z, nx, ny, nz, twiceArea);
  considerEdge(e1x, e1y, e1z, nx, ny, nz, twiceArea);
  considerEdge(ax - cx, ay - cy, az - cz, nx, ny, nz, twiceArea);
}

function considerEdge(ex: number, ey: number, ez: number, nx: number, ny: number, nz: number, twiceArea: number): void {
  const length = Math.hypot(ex, ey, ez);
  // Twice the area over the edge is the height on it: edges of a sliver give no reliable normal.
  if (length <= tolerance || twiceArea <= tolerance * length) return;
  frameFrom(ex, ey, ez, nx, ny, nz);
  consider(candidate);
}

/** Collinear extremal points: the line direction and any perpendicular pair. */
function alongLine(a: number, b: number): void {
  const ux = extremal[3 * b] - extremal[3 * a], uy = extremal[3 * b + 1] - extremal[3 * a + 1], uz = extremal[3 * b + 2] - extremal[3 * a + 2];
  // The coordinate axis least aligned with the line is a safe seed for the perpendicular.
  const ax = Math.abs(ux), ay = Math.abs(uy), az = Math.abs(uz);
  const seed = ax <= ay && ax <= az ? 0 : ay <= az ? 1 : 2;
  frameFrom(ux, uy, uz, seed === 0 ? 1 : 0, seed === 1 ? 1 : 0, seed === 2 ? 1 : 0);
  bestAxes.set(candidate);
}
