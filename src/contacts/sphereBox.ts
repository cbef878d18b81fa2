import { closestPtPointAabb, closestPtPointObb } from '../query/closestPoints';
import { OBB_AXES, OBB_HALF, OBB_STRIDE, type Floats, type ReadonlyFloats } from '../layout';
import { obbFromAabb } from '../volumes/obb';
import { separated, boxFeature, FEATURE_SPHERE, writeHeader, writePoint } from './manifold';
import { touchingRoundContact } from './round';

/**
 * Contacts of a sphere against an OBB or a min-max AABB. Conventions in manifold.ts.
 */

const aabbAsObb = new Float64Array(OBB_STRIDE);
const onBox = new Float64Array(3);

/**
 * Sphere A against OBB B. A centre outside the box: the normal runs from the centre to its
 * closest box point, and the box feature is the face, edge or vertex of that point. A centre
 * inside (or on) the box: the normal is the face normal of least penetration (ties go to the
 * lower axis, then the + side), pointing into the box, and depth = radius + distance to that face.
 *
 * They touch when `obbSphereOverlap` says so, by the same call (closestPtPointObb's squared
 * distance against r²), so this reports a point wherever the narrow phase's boolean test reports
 * touching; and also when the offset measured in the box frame says so, which that test's world
 * reconstruction of the closest point can miss by rounding (a zero-radius sphere inside the box, a
 * touch far from the origin). The normal and depth come from that box-frame offset, which stays
 * accurate far from the origin; where the two measures differ at a touch, the depth is 0.
 */
export function contactSphereObb(out: Floats, oo: number, s: ReadonlyFloats, so: number, b: ReadonlyFloats, bo: number): number {
  const r = s[so + 3];
  return sphereObbContact(out, oo, s, so, b, bo, closestPtPointObb(onBox, 0, s[so], s[so + 1], s[so + 2], b, bo) <= r * r);
}

/**
 * `contactSphereObb` once its boolean test has answered: `touching`, always one point; otherwise
 * one point when the box-frame offset reaches the sphere, else none.
 */
function sphereObbContact(out: Floats, oo: number, s: ReadonlyFloats, so: number, b: ReadonlyFloats, bo: number, touching: boolean): number {
  const sx = s[so], sy = s[so + 1], sz = s[so + 2], r = s[so + 3];
  const rx = sx - b[bo], ry = sy - b[bo + 1], rz = sz - b[bo + 2];
  const ax = bo + OBB_AXES;
  let clamped = 0, positive = 0;
  // World offset from the centre to its closest box point, accumulated axis by axis.
  let dx = 0, dy = 0, dz = 0;
  let leastPenetration = Infinity, leastAxis = 0;
  for (let k = 0; k < 3; k++) {
    const a = ax + 3 * k;
    const h = b[bo + OBB_HALF + k];
    const l = rx * b[a] + ry * b[a + 1] + rz * b[a + 2];
    if (l >= 0) positive |= 1 << k;
    const excess = Math.abs(l) - h;
    if (excess > 0) {
      clamped |= 1 << k;
      const step = l > 0 ? -excess : excess;
      dx += step * b[a];
      dy += step * b[a + 1];
      dz += step * b[a + 2];
    } else if (-excess < leastPenetration) {
      leastPenetration = -excess;
      leastAxis = k;
    }
  }
  if (clamped !== 0) {
    if (!touching && dx * dx + dy * dy + dz * dz > r * r) return separated(out, oo);
    // Fallback normal for an offset lost to rounding: into the box across a clamped face.
    const k = (clamped & 1) !== 0 ? 0 : (clamped & 2) !== 0 ? 1 : 2;
    const sign = (positive >> k) & 1 ? -1 : 1;
    const a = ax + 3 * k;
    return touchingRoundContact(
      out, oo, sx, sy, sz, r, dx, dy, dz, 0,
      sign * b[a], sign * b[a + 1], sign * b[a + 2],
      FEATURE_SPHERE, boxFeature(clamped, positive),
    );
  }
  const a = ax + 3 * leastAxis;
  const sign = (positive >> leastAxis) & 1 ? -1 : 1;
  const nx = sign * b[a], ny = sign * b[a + 1], nz = sign * b[a + 2];
  const depth = r + leastPenetration;
  // Midway between the sphere's deepest point (c + r·n) and the face (c − penetration·n).
  const m = 0.5 * (r - leastPenetration);
  writePoint(out, oo, 0, sx + m * nx, sy + m * ny, sz + m * nz, depth);
  return writeHeader(out, oo, nx, ny, nz, depth, 1, FEATURE_SPHERE, boxFeature(1 << leastAxis, positive));
}

/** Writes a min-max AABB into the module's scratch OBB (identity axes). */
function aabbToObb(box: ReadonlyFloats, bo: number): Float64Array {
  return obbFromAabb(aabbAsObb, 0, box, bo) as Float64Array;
}

/**
 * Sphere A against min-max AABB B: as `contactSphereObb` with the world axes. Whether they touch
 * is decided by closestPtPointAabb's squared distance against r² alone, the narrow phase's
 * boolean test for this pair, exact on the min-max numbers themselves (the centre-half box the
 * rest works on rounds differently and could lose exact touches): a point exactly when that test
 * reports touching.
 */
export function contactSphereAabb(out: Floats, oo: number, s: ReadonlyFloats, so: number, b: ReadonlyFloats, bo: number): number {
  const r = s[so + 3];
  if (closestPtPointAabb(onBox, 0, s[so], s[so + 1], s[so + 2], b, bo) > r * r) return separated(out, oo);
  return sphereObbContact(out, oo, s, so, aabbToObb(b, bo), 0, true);
}
