import { aabbFromPoints } from './aabb';
import { assertNonEmptyPoints, assertOutput } from '../errors';
import { SPHERE_STRIDE, type Floats, type ReadonlyFloats } from '../layout';
import { WELZL_RELATIVE_TOLERANCE, WELZL_DEGENERATE_SUPPORT } from '../tolerances';

/**
 * Bounding spheres over the flat layout of layout.ts ([cx, cy, cz, r]): three fitting methods of
 * increasing tightness and cost (AABB centre, Ritter, Welzl), and the allocation-free per-frame
 * kernels (overlap, transform, containment).
 */

const bounds = new Float64Array(6); // scratch: sphereFromAabb's box

/** Seed of the shuffle that gives Welzl its expected linear time; fixed so results reproduce. */
const WELZL_SHUFFLE_SEED = 0x9e3779b9;

// ---- module scratch for Welzl, grown on demand (fitting is single-threaded) ----
let local = new Float64Array(0); // points in shuffled order, relative to the AABB centre
const ball = new Float64Array(4); // current sphere in local coordinates: cx, cy, cz, r

/**
 * Smallest radius around centre (cx, cy, cz) that covers every point. Every fitter ends with it, so
 * containment holds exactly as `sphereContainsPoint` computes it, whatever rounding came before.
 */
function coveringRadius(cx: number, cy: number, cz: number, points: ReadonlyFloats, count: number, po: number): number {
  let r2 = 0;
  for (let i = 0; i < count; i++) {
    const p = po + 3 * i;
    const dx = points[p] - cx, dy = points[p + 1] - cy, dz = points[p + 2] - cz;
    const d2 = dx * dx + dy * dy + dz * dz;
    if (d2 > r2) r2 = d2;
  }
  // sqrt may round down; step up so that r * r >= r2 holds in floating point too.
  let r = Math.sqrt(r2);
  while (r * r < r2) r += r * Number.EPSILON;
  return r;
}

function writeSphere(out: Floats, o: number, cx: number, cy: number, cz: number, r: number): Floats {
  out[o] = cx;
  out[o + 1] = cy;
  out[o + 2] = cz;
  out[o + 3] = r;
  return out;
}

/**
 * Sphere centred on the AABB of the points, with the smallest radius covering them. Two passes,
 * no search: the fastest fit, and no worse than half the box diagonal.
 */
export function sphereFromAabb(out: Floats, o: number, points: ReadonlyFloats, count: number, pointsOffset = 0): Floats {
  assertOutput(out, o, SPHERE_STRIDE, 'sphereFromAabb');
  assertNonEmptyPoints(points, count, 'sphereFromAabb', pointsOffset);
  aabbFromPoints(bounds, 0, points, count, pointsOffset);
  const cx = 0.5 * (bounds[0] + bounds[3]), cy = 0.5 * (bounds[1] + bounds[4]), cz = 0.5 * (bounds[2] + bounds[5]);
  return writeSphere(out, o, cx, cy, cz, coveringRadius(cx, cy, cz, points, count, pointsOffset));
}

/**
 * Ritter's approximate sphere: start from the most distant pair among the six axis-extreme points,
 * then grow just enough to take in each point left outside. Three linear passes; not minimal.
 */
export function ritterSphere(out: Floats, o: number, points: ReadonlyFloats, count: number, pointsOffset = 0): Floats {
  assertOutput(out, o, SPHERE_STRIDE, 'ritterSphere');
  assertNonEmptyPoints(points, count, 'ritterSphere', pointsOffset);
  const po = pointsOffset;
  // Indices of the min and max point along x, y, z.
  let i0 = 0, i1 = 0, i2 = 0, i3 = 0, i4 = 0, i5 = 0;
  for (let i = 1; i < count; i++) {
    const p = po + 3 * i;
    if (points[p] < points[po + 3 * i0]) i0 = i;
    if (points[p] > points[po + 3 * i1]) i1 = i;
    if (points[p + 1] < points[po + 3 * i2 + 1]) i2 = i;
    if (points[p + 1] > points[po + 3 * i3 + 1]) i3 = i;
    if (points[p + 2] < points[po + 3 * i4 + 2]) i4 = i;
    if (points[p + 2] > points[po + 3 * i5 + 2]) i5 = i;
  }
  let a = i0, b = i1;
  let best = squaredDistance(points, po, i0, i1);
  const dy = squaredDistance(points, po, i2, i3);
  if (dy > best) { best = dy; a = i2; b = i3; }
  const dz = squaredDistance(points, po, i4, i5);
  if (dz > best) { best = dz; a = i4; b = i5; }
  let cx = 0.5 * (points[po + 3 * a] + points[po + 3 * b]);
  let cy = 0.5 * (points[po + 3 * a + 1] + points[po + 3 * b + 1]);
  let cz = 0.5 * (points[po + 3 * a + 2] + points[po + 3 * b + 2]);
  let r = 0.5 * Math.sqrt(best);
  for (let i = 0; i < count; i++) {
    const p = po + 3 * i;
    const ex = points[p] - cx, ey = points[p + 1] - cy, ez = points[p + 2] - cz;
    const d2 = ex * ex + ey * ey + ez * ez;
    if (d2 <= r * r) continue;
    // New sphere: the old one and the point, touching both on the line through them.
    const d = Math.sqrt(d2);
    const grown = 0.5 * (r + d);
    const k = (grown - r) / d;
    cx += k * ex;
    cy += k * ey;
    cz += k * ez;
    r = grown;
  }
  return writeSphere(out, o, cx, cy, cz, coveringRadius(cx, cy, cz, points, count, po));
}

function squaredDistance(points: ReadonlyFloats, po: number, i: number, j: number): number {
  const a = po + 3 * i, b = po + 3 * j;
  const dx = points[a] - points[b], dy = points[a + 1] - points[b + 1], dz = points[a + 2] - points[b + 2];
  return dx * dx + dy * dy + dz * dz;
}

// ---- Welzl support-set spheres, in the local (centred) coordinates of `local` ----

function outside(i: number, slack: number): boolean {
  const p = 3 * i;
  const dx = local[p] - ball[0], dy = local[p + 1] - ball[1], dz = local[p + 2] - ball[2];
  const r = ball[3] + slack;
  return dx * dx + dy * dy + dz * dz > r * r;
}

/** Keeps the centre and grows the radius to reach point i: the fallback for degenerate support. */
function growTo(i: number): void {
  const p = 3 * i;
  const dx = local[p] - ball[0], dy = local[p + 1] - ball[1], dz = local[p + 2] - ball[2];
  ball[3] = Math.max(ball[3], Math.sqrt(dx * dx + dy * dy + dz * dz));
}

function ballOfPoint(i: number): void {
  ball[0] = local[3 * i];
  ball[1] = local[3 * i + 1];
  ball[2] = local[3 * i + 2];
  ball[3] = 0;
}

/** Diametral sphere of points i and j. */
function ballOfPair(i: number, j: number): void {
  const a = 3 * i, b = 3 * j;
  const dx = local[b] - local[a], dy = local[b + 1] - local[a + 1], dz = local[b + 2] - local[a + 2];
  ball[0] = local[a] + 0.5 * dx;
  ball[1] = local[a + 1] + 0.5 * dy;
  ball[2] = local[a + 2] + 0.5 * dz;
  ball[3] = 0.5 * Math.sqrt(dx * dx + dy * dy + dz * dz);
}

/** Smallest sphere through i, j, k (centre in their plane); grows the current one if collinear. */
function ballOfTriple(i: number, j: number, k: number): void {
  const c = 3 * k;
  const ax = local[3 * i] - local[c], ay = local[3 * i + 1] - local[c + 1], az = local[3 * i + 2] - local[c + 2];
  const bx = local[3 * j] - local[c], by = local[3 * j + 1] - local[c + 1], bz = local[3 * j + 2] - local[c + 2];
  const nx = ay * bz - az * by, ny = az * bx - ax * bz, nz = ax * by - ay * bx;
  const a2 = ax * ax + ay * ay + az * az, b2 = bx * bx + by * by + bz * bz;
  const n2 = nx * nx + ny * ny + nz * nz;
  if (n2 <= WELZL_DEGENERATE_SUPPORT * a2 * b2) {
    growTo(k);
    return;
  }
  // Circumcentre relative to k: ((|a|² b − |b|² a) × n) / (2 |n|²).
  const ux = a2 * bx - b2 * ax, uy = a2 * by - b2 * ay, uz = a2 * bz - b2 * az;
  const s = 0.5 / n2;
  const ox = (uy * nz - uz * ny) * s, oy = (uz * nx - ux * nz) * s, oz = (ux * ny - uy * nx) * s;
  ball[0] = local[c] + ox;
  ball[1] = local[c + 1] + oy;
  ball[2] = local[c + 2] + oz;
  ball[3] = Math.sqrt(ox * ox + oy * oy + oz * oz);
}

/** Sphere through i, j, k, l; grows the current one if they are coplanar. */
function ballOfQuad(i: number, j: number, k: number, l: number): void {
  const d = 3 * l;
  const ax = local[3 * i] - local[d], ay = local[3 * i + 1] - local[d + 1], az = local[3 * i + 2] - local[d + 2];
  const bx = local[3 * j] - local[d], by = local[3 * j + 1] - local[d + 1], bz = local[3 * j + 2] - local[d + 2];
  const cx = local[3 * k] - local[d], cy = local[3 * k + 1] - local[d + 1], cz = local[3 * k + 2] - local[d + 2];
  const bcx = by * cz - bz * cy, bcy = bz * cx - bx * cz, bcz = bx * cy - by * cx;
  const cax = cy * az - cz * ay, cay = cz * ax - cx * az, caz = cx * ay - cy * ax;
  const abx = ay * bz - az * by, aby = az * bx - ax * bz, abz = ax * by - ay * bx;
  const det = ax * bcx + ay * bcy + az * bcz;
  const a2 = ax * ax + ay * ay + az * az, b2 = bx * bx + by * by + bz * bz, c2 = cx * cx + cy * cy + cz * cz;
  if (det * det <= WELZL_DEGENERATE_SUPPORT * a2 * b2 * c2) {
    growTo(l);
    return;
  }
  // Circumcentre relative to l: (|a|² (b×c) + |b|² (c×a) + |c|² (a×b)) / (2 a·(b×c)).
  const s = 0.5 / det;
  const ox = (a2 * bcx + b2 * cax + c2 * abx) * s;
  const oy = (a2 * bcy + b2 * cay + c2 * aby) * s;
  const oz = (a2 * bcz + b2 * caz + c2 * abz) * s;
  ball[0] = local[d] + ox;
  ball[1] = local[d + 1] + oy;
  ball[2] = local[d + 2] + oz;
  ball[3] = Math.sqrt(ox * ox + oy * oy + oz * oz);
}

/**
 * Welzl's minimal enclosing sphere, in its iterative randomised-incremental form: four nested
 * loops, one per support point fixed on the boundary, over a deterministically shuffled copy of the
 * points (expected linear time; no recursion). Points are centred on their AABB first so huge
 * offsets do not swamp the circumsphere arithmetic. The result is minimal to within
 * `WELZL_RELATIVE_TOLERANCE` of the set's extent and contains every point exactly.
 */
export function welzlSphere(out: Floats, o: number, points: ReadonlyFloats, count: number, pointsOffset = 0): Floats {
  assertOutput(out, o, SPHERE_STRIDE, 'welzlSphere');
  assertNonEmptyPoints(points, count, 'welzlSphere', pointsOffset);
  const po = pointsOffset;
  let minX = Infinity, minY = Infinity, minZ = Infinity;
  let maxX = -Infinity, maxY = -Infinity, maxZ = -Infinity;
  for (let i = 0; i < count; i++) {
    const p = po + 3 * i;
    minX = Math.min(minX, points[p]);
    maxX = Math.max(maxX, points[p]);
    minY = Math.min(minY, points[p + 1]);
    maxY = Math.max(maxY, points[p + 1]);
    minZ = Math.min(minZ, points[p + 2]);
    maxZ = Math.max(maxZ, points[p + 2]);
  }
  const ox = 0.5 * (minX + maxX), oy = 0.5 * (minY + maxY), oz = 0.5 * (minZ + maxZ);
  const slack = WELZL_RELATIVE_TOLERANCE * Math.max(maxX - minX, maxY - minY, maxZ - minZ);
  shuffleIntoLocal(points, count, po, ox, oy, oz);

  ballOfPoint(0);
  for (let i = 1; i < count; i++) {
    if (!outside(i, slack)) continue;
    ballOfPoint(i);
    for (let j = 0; j < i; j++) {
      if (!outside(j, slack)) continue;
      ballOfPair(i, j);
      for (let k = 0; k < j; k++) {
        if (!outside(k, slack)) continue;
        ballOfTriple(i, j, k);
        for (let l = 0; l < k; l++) {
          if (outside(l, slack)) ballOfQuad(i, j, k, l);
        }
      }
    }
  }
  const cx = ox + ball[0], cy = oy + ball[1], cz = oz + ball[2];
  return writeSphere(out, o, cx, cy, cz, coveringRadius(cx, cy, cz, points, count, po));
}

/** Copies the points, minus (ox, oy, oz), into `local` in a seeded Fisher–Yates order. */
function shuffleIntoLocal(points: ReadonlyFloats, count: number, po: number, ox: number, oy: number, oz: number): void {
  if (local.length < 3 * count) local = new Float64Array(Math.max(3 * count, 2 * local.length));
  for (let i = 0; i < count; i++) {
    const p = po + 3 * i;
    local[3 * i] = points[p] - ox;
    local[3 * i + 1] = points[p + 1] - oy;
    local[3 * i + 2] = points[p + 2] - oz;
  }
  // mulberry32, inlined: a tiny deterministic generator is all the shuffle needs.
  let state = WELZL_SHUFFLE_SEED;
  for (let i = count - 1; i > 0; i--) {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    const j = Math.floor((((t ^ (t >>> 14)) >>> 0) / 4294967296) * (i + 1));
    for (let c = 0; c < 3; c++) {
      const tmp = local[3 * i + c];
      local[3 * i + c] = local[3 * j + c];
      local[3 * j + c] = tmp;
    }
  }
}

/** Whether two closed spheres overlap (touching counts). */
export function sphereOverlap(a: ReadonlyFloats, ao: number, b: ReadonlyFloats, bo: number): boolean {
  const dx = a[ao] - b[bo], dy = a[ao + 1] - b[bo + 1], dz = a[ao + 2] - b[bo + 2];
  const r = a[ao + 3] + b[bo + 3];
  return dx * dx + dy * dy + dz * dz <= r * r;
}

/**
 * World sphere of a local sphere under rotation `q` (unit quaternion x, y, z, w), translation `t`
 * and uniform `scale`: centre' = t + s·R·c, r' = |s|·r.
 */
export function sphereTransform(
  out: Floats,
  oo: number,
  local: ReadonlyFloats,
  lo: number,
  q: ReadonlyFloats,
  t: ReadonlyFloats,
  scale = 1,
): Floats {
  const qx = q[0], qy = q[1], qz = q[2], qw = q[3];
  const cx = local[lo], cy = local[lo + 1], cz = local[lo + 2];
  // R·c = c + 2w (q×c) + 2 q×(q×c), without building the matrix.
  const ux = 2 * (qy * cz - qz * cy), uy = 2 * (qz * cx - qx * cz), uz = 2 * (qx * cy - qy * cx);
  const rx = cx + qw * ux + (qy * uz - qz * uy);
  const ry = cy + qw * uy + (qz * ux - qx * uz);
  const rz = cz + qw * uz + (qx * uy - qy * ux);
  return writeSphere(out, oo, t[0] + scale * rx, t[1] + scale * ry, t[2] + scale * rz, Math.abs(scale) * local[lo + 3]);
}

/**
 * Whether point (x, y, z) lies in the closed sphere, with `tolerance` added to the radius (pass a
 * size-relative value; 0 for the exact closed sphere).
 */
export function sphereContainsPoint(s: ReadonlyFloats, o: number, x: number, y: number, z: number, tolerance = 0): boolean {
  const dx = x - s[o], dy = y - s[o + 1], dz = z - s[o + 2];
  const r = s[o + 3] + tolerance;
  return dx * dx + dy * dy + dz * dz <= r * r;
}
