import { closestPtPointSegment, closestSegments, CLOSEST_SEGMENTS_STRIDE } from '../query/closestPoints';
import { type Floats, type ReadonlyFloats } from '../layout';
import {
  FEATURE_CAPSULE_SIDE,
  CONTACT_FEATURE_B,
  CONTACT_FEATURE_A,
  CONTACT_COUNT,
  writePoint,
  CONTACT_NORMAL,
  capsuleFeature,
  FEATURE_SPHERE,
  COINCIDENT_NORMAL_X,
  writeHeader,
  separated,
} from './manifold';
import { PARALLEL_SEGMENT_SINE } from '../tolerances';

/**
 * Contacts between round shapes (spheres and capsules: a core point or segment and a radius),
 * reduced to one or two pairs of closest core points. Conventions in manifold.ts.
 */

const segments = new Float64Array(12);
const closest = new Float64Array(CLOSEST_SEGMENTS_STRIDE + 1);
const bestPoints = new Float64Array(6);

/**
 * One-point contact between two round shapes reduced to their closest core points: A's core
 * point p with radius ra, B's core point p + d with radius rb. The normal is d/|d|, or the
 * fallback (fx, fy, fz) when the core points coincide. Shared by every sphere/capsule pair and
 * by the sphere and capsule against a box when the core is outside the box (rb = 0).
 */
export function roundContact(
  out: Floats, oo: number,
  px: number, py: number, pz: number, ra: number,
  dx: number, dy: number, dz: number, rb: number,
  fx: number, fy: number, fz: number,
  featureA: number, featureB: number,
): number {
  // Squared distance against squared radii, as the boolean kernels compare (sphereOverlap):
  // through sqrt, rounding could turn an exact touch into a depth of −1 ulp and no contact.
  const d2 = dx * dx + dy * dy + dz * dz, r = ra + rb;
  if (d2 > r * r) return separated(out, oo);
  return touchingRoundContact(out, oo, px, py, pz, ra, dx, dy, dz, rb, fx, fy, fz, featureA, featureB);
}

/**
 * `roundContact` for shapes already known to touch (the caller decided it with its boolean
 * kernel's own arithmetic): no separation test; a core distance that rounding put past the radii
 * gives depth 0.
 */
export function touchingRoundContact(
  out: Floats, oo: number,
  px: number, py: number, pz: number, ra: number,
  dx: number, dy: number, dz: number, rb: number,
  fx: number, fy: number, fz: number,
  featureA: number, featureB: number,
): number {
  const r = ra + rb;
  const dist = Math.sqrt(dx * dx + dy * dy + dz * dz);
  const depth = Math.max(r - dist, 0);
  let nx = fx, ny = fy, nz = fz;
  if (dist > 0) {
    nx = dx / dist;
    ny = dy / dist;
    nz = dz / dist;
  }
  // Midway between A's surface (p + ra·n) and B's (p + d − rb·n).
  const m = 0.5 * (ra - rb);
  writePoint(out, oo, 0, px + 0.5 * dx + m * nx, py + 0.5 * dy + m * ny, pz + 0.5 * dz + m * nz, depth);
  return writeHeader(out, oo, nx, ny, nz, depth, 1, featureA, featureB);
}

/** Sphere A [cx, cy, cz, r] against sphere B. Equal centres give the normal +x (COINCIDENT_NORMAL_X). */
export function contactSphereSphere(out: Floats, oo: number, a: ReadonlyFloats, ao: number, b: ReadonlyFloats, bo: number): number {
  return roundContact(
    out, oo,
    a[ao], a[ao + 1], a[ao + 2], a[ao + 3],
    b[bo] - a[ao], b[bo + 1] - a[ao + 1], b[bo + 2] - a[ao + 2], b[bo + 3],
    COINCIDENT_NORMAL_X, 0, 0,
    FEATURE_SPHERE, FEATURE_SPHERE,
  );
}

// Fallback normal for round shapes whose cores meet: written by `perpendicularTo`. A typed array,
// as doubles written to module-level `let`s are boxed (one allocation per write).
const perp = new Float64Array(3);

/**
 * Sets `perp` to a unit vector perpendicular to (dx, dy, dz) (crossing it with the world axis
 * it is least aligned with), or to the coincident normal for a zero vector.
 */
function perpendicularTo(dx: number, dy: number, dz: number): void {
  const ax = Math.abs(dx), ay = Math.abs(dy), az = Math.abs(dz);
  let px: number, py: number, pz: number;
  if (ax <= ay && ax <= az) {
    px = 0; py = dz; pz = -dy; // d × x
  } else if (ay <= az) {
    px = -dz; py = 0; pz = dx; // d × y
  } else {
    px = dy; py = -dx; pz = 0; // d × z
  }
  const len = Math.sqrt(px * px + py * py + pz * pz);
  if (len > 0) {
    perp[0] = px / len;
    perp[1] = py / len;
    perp[2] = pz / len;
  } else {
    perp[0] = COINCIDENT_NORMAL_X;
    perp[1] = 0;
    perp[2] = 0;
  }
}

/**
 * Capsule A [p0, p1, r] against sphere B. A centre on the segment gets a normal perpendicular to
 * the segment (+x for a zero-length one).
 */
export function contactCapsuleSphere(out: Floats, oo: number, c: ReadonlyFloats, co: number, s: ReadonlyFloats, so: number): number {
  const sx = s[so], sy = s[so + 1], sz = s[so + 2];
  closestPtPointSegment(closest, 0, sx, sy, sz, c, co);
  perpendicularTo(c[co + 3] - c[co], c[co + 4] - c[co + 1], c[co + 5] - c[co + 2]);
  return roundContact(
    out, oo,
    closest[0], closest[1], closest[2], c[co + 6],
    sx - closest[0], sy - closest[1], sz - closest[2], s[so + 3],
    perp[0], perp[1], perp[2],
    capsuleFeature(closest[3]), FEATURE_SPHERE,
  );
}

/**
 * Capsule A against capsule B. One point between the closest points of the segments, except for
 * parallel segments (PARALLEL_SEGMENT_SINE) that overlap along their length: two points, at the
 * ends of the overlap, each with its own depth. Crossing segments get the normal along their
 * cross product, oriented from A's midpoint toward B's; collinear ones a perpendicular.
 */
export function contactCapsuleCapsule(out: Floats, oo: number, a: ReadonlyFloats, ao: number, b: ReadonlyFloats, bo: number): number {
  const ra = a[ao + 6], rb = b[bo + 6];
  closestSegments(closest, 0, a, ao, b, bo);
  const px = closest[0], py = closest[1], pz = closest[2];
  const dx = closest[3] - px, dy = closest[4] - py, dz = closest[5] - pz;
  const s = closest[6], t = closest[7];
  const ux = a[ao + 3] - a[ao], uy = a[ao + 4] - a[ao + 1], uz = a[ao + 5] - a[ao + 2];
  const vx = b[bo + 3] - b[bo], vy = b[bo + 4] - b[bo + 1], vz = b[bo + 5] - b[bo + 2];
  const cx = uy * vz - uz * vy, cy = uz * vx - ux * vz, cz = ux * vy - uy * vx;
  const uu = ux * ux + uy * uy + uz * uz, vv = vx * vx + vy * vy + vz * vz;
  const cross2 = cx * cx + cy * cy + cz * cz;
  const parallel = cross2 <= PARALLEL_SEGMENT_SINE * PARALLEL_SEGMENT_SINE * uu * vv;
  if (parallel) {
    perpendicularTo(uu >= vv ? ux : vx, uu >= vv ? uy : vy, uu >= vv ? uz : vz);
  } else {
    const len = Math.sqrt(cross2);
    perp[0] = cx / len;
    perp[1] = cy / len;
    perp[2] = cz / len;
  }
  // Orient the fallback from A toward B (midpoint to midpoint).
  const mx = b[bo] + b[bo + 3] - a[ao] - a[ao + 3], my = b[bo + 1] + b[bo + 4] - a[ao + 1] - a[ao + 4], mz = b[bo + 2] + b[bo + 5] - a[ao + 2] - a[ao + 5];
  if (perp[0] * mx + perp[1] * my + perp[2] * mz < 0) {
    perp[0] = -perp[0];
    perp[1] = -perp[1];
    perp[2] = -perp[2];
  }
  const count = roundContact(out, oo, px, py, pz, ra, dx, dy, dz, rb, perp[0], perp[1], perp[2], capsuleFeature(s), capsuleFeature(t));
  if (count === 0 || !parallel || uu === 0 || vv === 0) return count;
  // Overlap of the parallel segments, as parameters on A.
  const s0 = ((b[bo] - a[ao]) * ux + (b[bo + 1] - a[ao + 1]) * uy + (b[bo + 2] - a[ao + 2]) * uz) / uu;
  const s1 = s0 + (vx * ux + vy * uy + vz * uz) / uu;
  const lo = Math.max(0, Math.min(s0, s1)), hi = Math.min(1, Math.max(s0, s1));
  if (!(hi > lo)) return count;
  const nx = out[oo + CONTACT_NORMAL], ny = out[oo + CONTACT_NORMAL + 1], nz = out[oo + CONTACT_NORMAL + 2];
  // Staged in scratch: the single point stays if an end of the overlap is out of contact.
  for (let e = 0; e < 2; e++) {
    const sp = e === 0 ? lo : hi;
    const qx = a[ao] + sp * ux, qy = a[ao + 1] + sp * uy, qz = a[ao + 2] + sp * uz;
    const d2 = closestPtPointSegment(bestPoints, 0, qx, qy, qz, b, bo);
    const depth = ra + rb - Math.sqrt(d2);
    if (depth < 0) return count;
    // Midway between A's surface (q + ra·n) and B's (closest − rb·n).
    const m = 0.5 * (ra - rb);
    segments[4 * e] = 0.5 * (qx + bestPoints[0]) + m * nx;
    segments[4 * e + 1] = 0.5 * (qy + bestPoints[1]) + m * ny;
    segments[4 * e + 2] = 0.5 * (qz + bestPoints[2]) + m * nz;
    segments[4 * e + 3] = depth;
  }
  for (let e = 0; e < 2; e++) writePoint(out, oo, e, segments[4 * e], segments[4 * e + 1], segments[4 * e + 2], segments[4 * e + 3]);
  out[oo + CONTACT_COUNT] = 2;
  out[oo + CONTACT_FEATURE_A] = FEATURE_CAPSULE_SIDE;
  out[oo + CONTACT_FEATURE_B] = FEATURE_CAPSULE_SIDE;
  return 2;
}
