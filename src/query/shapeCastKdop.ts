import { KDOP_DIRECTIONS } from '../volumes/kdop';
import type { Floats, KdopK, ReadonlyFloats } from '../layout';
import { ROUNDING_ALLOWANCE, TOI_SEPARATION_MARGIN } from '../tolerances';
import { HIT_INPUT_STRIDE, writeShapeHit } from './shapeCastHit';

/**
 * Shape casts against k-DOP targets (layout.ts: k/2 minima, then k/2 maxima of dot(p, d_i) over
 * the unnormalised KDOP_DIRECTIONS[k]). A k-DOP is given by its slabs only, not by its vertices and
 * edges, so the exact rounded shape (k-DOP grown by r) is out of reach without building them;
 * instead each slab is widened by r (in true distance). The widened k-DOP W contains the rounded
 * one, so the cast is never late; how early it can be has a bound that depends on the direction
 * set alone: a point of W lies within c_k·r of the k-DOP, where c_k is the largest 1/dist(0,
 * conv{n_a, n_b, n_c}) over linearly independent triples of the (signed, unit) directions (the
 * outward push from the k-DOP is a non-negative combination of at most three active normals, each
 * of which it moves by at most r). Measured by brute force over the sets: c_6 = √3, c_14 = 3.992,
 * c_18 = 4.636, c_26 = 8.149. So at the reported t the mover is within (c_k − 1)·r of the k-DOP;
 * with r = 0 the cast is exact. The worst case needs sharp vertices made by nearly dependent
 * directions; k-DOPs fitted around ordinary shapes report far closer (docs/design/sat-and-kernels.md).
 *
 * The mover's core is a segment p0 + s·a (s in [0, 1]; a point for a sphere) moving by t·d: the
 * contact times are the (s, t) with every slab constraint met, a convex polygon in the (s, t)
 * plane. The rectangle [0, 1] × [0, maxT] is clipped by the k half-plane pairs, and the first
 * contact is the polygon's lowest t. Exact for W, allocation-free (two ping-pong vertex buffers).
 */

/** Most polygon vertices: the rectangle's 4 plus one per clipping half-plane (26 for k = 26), with room. */
const MAX_VERTICES = 64;
let poly = new Float64Array(2 * MAX_VERTICES);
let spare = new Float64Array(2 * MAX_VERTICES);
let vertexCount = 0;
const staged = new Float64Array(HIT_INPUT_STRIDE);
const motionNumbers = new Float64Array(3);

/** Clips the polygon `poly` (vertexCount vertices) by α·s + β·t <= γ. */
function clipHalfPlane(alpha: number, beta: number, gamma: number): void {
  const n = vertexCount;
  let m = 0;
  for (let i = 0; i < n; i++) {
    const j = i + 1 === n ? 0 : i + 1;
    const si = poly[2 * i], ti = poly[2 * i + 1], sj = poly[2 * j], tj = poly[2 * j + 1];
    const fi = alpha * si + beta * ti - gamma, fj = alpha * sj + beta * tj - gamma;
    if (fi <= 0) {
      spare[2 * m] = si;
      spare[2 * m + 1] = ti;
      m++;
    }
    if ((fi < 0 && fj > 0) || (fi > 0 && fj < 0)) {
      const u = fi / (fi - fj);
      spare[2 * m] = si + u * (sj - si);
      spare[2 * m + 1] = ti + u * (tj - ti);
      m++;
    }
  }
  const swap = poly;
  poly = spare;
  spare = swap;
  vertexCount = m;
}

/**
 * Cast of the capsule with core p0 → p0 + a and radius r (a = 0: a sphere) moving by d against the
 * k-DOP at kdop[ko], conservative as described above. Normal: the slab direction of least
 * penetration at the reported t (the touching slab for a hit from outside; the direction of least
 * penetration for a start overlap). Point: the core point found in W at that t, moved by r against
 * the normal (on the k-DOP's face for a face contact, within the bound otherwise).
 * @internal
 */
export function castSegmentKdop(
  out: Floats, oo: number,
  px: number, py: number, pz: number, ax: number, ay: number, az: number, r: number,
  dx: number, dy: number, dz: number, maxT: number,
  kdop: ReadonlyFloats, ko: number, k: KdopK,
): boolean {
  if (maxT < 0) return false;
  const dirs = KDOP_DIRECTIONS[k];
  const half = k >> 1;
  // Slack against rounding: a fraction of the sizes involved (as in obbToi), plus the rounding of
  // projections of coordinates of this magnitude.
  let bounds = 0, extent = 0;
  for (let i = 0; i < k; i++) bounds = Math.max(bounds, Math.abs(kdop[ko + i]));
  for (let i = 0; i < 3; i++) extent = Math.max(extent, kdop[ko + half + i] - kdop[ko + i]);
  const margin = TOI_SEPARATION_MARGIN * (extent + r + Math.sqrt(ax * ax + ay * ay + az * az) + Math.sqrt(dx * dx + dy * dy + dz * dz)) +
    ROUNDING_ALLOWANCE * (Math.abs(px) + Math.abs(py) + Math.abs(pz) + bounds);
  poly[0] = 0; poly[1] = 0;
  poly[2] = 1; poly[3] = 0;
  poly[4] = 1; poly[5] = maxT;
  poly[6] = 0; poly[7] = maxT;
  vertexCount = 4;
  for (let i = 0; i < half && vertexCount > 0; i++) {
    const nx = dirs[3 * i], ny = dirs[3 * i + 1], nz = dirs[3 * i + 2];
    const nn = Math.sqrt(nx * nx + ny * ny + nz * nz);
    const base = nx * px + ny * py + nz * pz, na = nx * ax + ny * ay + nz * az, nd = nx * dx + ny * dy + nz * dz;
    const w = (r + margin) * nn;
    // lo − w <= base + s·na + t·nd <= hi + w.
    clipHalfPlane(-na, -nd, base - kdop[ko + i] + w);
    if (vertexCount > 0) clipHalfPlane(na, nd, kdop[ko + half + i] + w - base);
  }
  if (vertexCount === 0) return false;
  let best = 0;
  for (let i = 1; i < vertexCount; i++) if (poly[2 * i + 1] < poly[2 * best + 1]) best = i;
  const s = poly[2 * best];
  const t = Math.max(0, poly[2 * best + 1]);
  if (t > maxT) return false;
  // Slab of least penetration at t (depths in true distance). After the start, only slabs the
  // motion closes count: where two slabs meet at the first contact, one can be about to open.
  let depth = Infinity, nBest = 0, sign = 1;
  for (let i = 0; i < half; i++) {
    const nx = dirs[3 * i], ny = dirs[3 * i + 1], nz = dirs[3 * i + 2];
    const nn = Math.sqrt(nx * nx + ny * ny + nz * nz), nd = nx * dx + ny * dy + nz * dz;
    const base = nx * px + ny * py + nz * pz + t * nd, na = nx * ax + ny * ay + nz * az;
    const lo = base + Math.min(0, na) - r * nn, hi = base + Math.max(0, na) + r * nn;
    const below = (hi - kdop[ko + i]) / nn, above = (kdop[ko + half + i] - lo) / nn;
    if (below < depth && (t === 0 || nd >= 0)) { depth = below; nBest = i; sign = -1; }
    if (above < depth && (t === 0 || nd <= 0)) { depth = above; nBest = i; sign = 1; }
  }
  staged[0] = t;
  for (let i = 0; i < 3; i++) staged[1 + i] = sign * dirs[3 * nBest + i];
  staged[4] = staged[5] = staged[6] = 0;
  motionNumbers[0] = dx;
  motionNumbers[1] = dy;
  motionNumbers[2] = dz;
  writeShapeHit(out, oo, staged, motionNumbers, 0);
  out[oo + 4] = px + s * ax + t * dx - r * out[oo + 1];
  out[oo + 5] = py + s * ay + t * dy - r * out[oo + 2];
  out[oo + 6] = pz + s * az + t * dz - r * out[oo + 3];
  return true;
}
