import { mat3ToQuaternion, quaternionToMat3, slerpQuaternionArrays } from '../rotation';
import { OBB_AXES, OBB_CENTER, OBB_HALF, OBB_STRIDE, type Floats, type ReadonlyFloats } from '../layout';

/**
 * Oriented bounding box basics over the flat layout of layout.ts (centre, 3 axis columns,
 * half-extents). Everything here is allocation-free; math in doubles, storage as given.
 */

const rotation = new Float64Array(9); // scratch: obbTransform's matrix
const turn = new Float64Array(8); // scratch: interpolateObb's two quaternions

/**
 * Tightest box with the given orthonormal axes around `count` points (xyz at `pointsOffset`).
 * Used by every fitting method once it has chosen its axes.
 */
export function obbFromAxes(
  out: Floats,
  o: number,
  axes: ReadonlyFloats,
  axesOffset: number,
  points: ReadonlyFloats,
  count: number,
  pointsOffset = 0,
): Floats {
  let min0 = Infinity, min1 = Infinity, min2 = Infinity;
  let max0 = -Infinity, max1 = -Infinity, max2 = -Infinity;
  const a = axesOffset;
  const ux = axes[a], uy = axes[a + 1], uz = axes[a + 2];
  const vx = axes[a + 3], vy = axes[a + 4], vz = axes[a + 5];
  const wx = axes[a + 6], wy = axes[a + 7], wz = axes[a + 8];
  for (let i = 0; i < count; i++) {
    const p = pointsOffset + 3 * i;
    const x = points[p], y = points[p + 1], z = points[p + 2];
    const d0 = x * ux + y * uy + z * uz;
    const d1 = x * vx + y * vy + z * vz;
    const d2 = x * wx + y * wy + z * wz;
    if (d0 < min0) min0 = d0;
    if (d0 > max0) max0 = d0;
    if (d1 < min1) min1 = d1;
    if (d1 > max1) max1 = d1;
    if (d2 < min2) min2 = d2;
    if (d2 > max2) max2 = d2;
  }
  return obbFromExtents(out, o, axes, a, min0, max0, min1, max1, min2, max2);
}

/**
 * The box with the given orthonormal axes spanning [min_k, max_k] along axis k: obbFromAxes once
 * the points are projected (by it, or by the tree builder's WebAssembly projection).
 */
export function obbFromExtents(
  out: Floats,
  o: number,
  axes: ReadonlyFloats,
  a: number,
  min0: number,
  max0: number,
  min1: number,
  max1: number,
  min2: number,
  max2: number,
): Floats {
  const c0 = 0.5 * (min0 + max0), c1 = 0.5 * (min1 + max1), c2 = 0.5 * (min2 + max2);
  out[o + OBB_CENTER] = c0 * axes[a] + c1 * axes[a + 3] + c2 * axes[a + 6];
  out[o + OBB_CENTER + 1] = c0 * axes[a + 1] + c1 * axes[a + 4] + c2 * axes[a + 7];
  out[o + OBB_CENTER + 2] = c0 * axes[a + 2] + c1 * axes[a + 5] + c2 * axes[a + 8];
  for (let i = 0; i < 9; i++) out[o + OBB_AXES + i] = axes[a + i];
  out[o + OBB_HALF] = 0.5 * (max0 - min0);
  out[o + OBB_HALF + 1] = 0.5 * (max1 - min1);
  out[o + OBB_HALF + 2] = 0.5 * (max2 - min2);
  return out;
}

/** Box volume (8 * product of half-extents). */
export function obbVolume(box: ReadonlyFloats, o = 0): number {
  return 8 * box[o + OBB_HALF] * box[o + OBB_HALF + 1] * box[o + OBB_HALF + 2];
}

/** Box surface area. */
export function obbSurfaceArea(box: ReadonlyFloats, o = 0): number {
  const a = box[o + OBB_HALF], b = box[o + OBB_HALF + 1], c = box[o + OBB_HALF + 2];
  return 8 * (a * b + b * c + c * a);
}

/**
 * Whether point (x, y, z) lies in the closed box, with `tolerance` added to every half-extent
 * (pass a size-relative value; 0 for the exact closed box).
 */
export function obbContainsPoint(box: ReadonlyFloats, o: number, x: number, y: number, z: number, tolerance = 0): boolean {
  const dx = x - box[o], dy = y - box[o + 1], dz = z - box[o + 2];
  for (let k = 0; k < 3; k++) {
    const a = o + OBB_AXES + 3 * k;
    const d = dx * box[a] + dy * box[a + 1] + dz * box[a + 2];
    if (Math.abs(d) > box[o + OBB_HALF + k] + tolerance) return false;
  }
  return true;
}

/**
 * World box of a local box under rotation `q` (unit quaternion x, y, z, w), translation `t` and
 * uniform `scale`: centre' = t + s·R·c, axes' = R·axes, half' = |s|·half. A negative scale
 * mirrors the box, which leaves the set of points unchanged, so axes keep their handedness.
 */
export function obbTransform(
  out: Floats,
  oo: number,
  local: ReadonlyFloats,
  lo: number,
  q: ReadonlyFloats,
  t: ReadonlyFloats,
  scale = 1,
): Floats {
  // Matrix entries in locals, not re-read per product: this runs per moving box per frame.
  const r = quaternionToMat3(rotation, 0, q);
  const r0 = r[0], r1 = r[1], r2 = r[2], r3 = r[3], r4 = r[4], r5 = r[5], r6 = r[6], r7 = r[7], r8 = r[8];
  const cx = local[lo], cy = local[lo + 1], cz = local[lo + 2];
  out[oo] = t[0] + scale * (r0 * cx + r3 * cy + r6 * cz);
  out[oo + 1] = t[1] + scale * (r1 * cx + r4 * cy + r7 * cz);
  out[oo + 2] = t[2] + scale * (r2 * cx + r5 * cy + r8 * cz);
  for (let k = 0; k < 3; k++) {
    const a = lo + OBB_AXES + 3 * k;
    const ux = local[a], uy = local[a + 1], uz = local[a + 2];
    const b = oo + OBB_AXES + 3 * k;
    out[b] = r0 * ux + r3 * uy + r6 * uz;
    out[b + 1] = r1 * ux + r4 * uy + r7 * uz;
    out[b + 2] = r2 * ux + r5 * uy + r8 * uz;
  }
  return scaleHalfExtents(out, oo, local, lo, scale);
}

/**
 * `obbTransform` of a local box centred at the origin with identity axes (a box collider centred
 * on its entity): the same numbers, from the pose and the half-extents alone, so the local centre
 * and axes are never read.
 */
export function obbTransformCentered(
  out: Floats,
  oo: number,
  local: ReadonlyFloats,
  lo: number,
  q: ReadonlyFloats,
  t: ReadonlyFloats,
  scale = 1,
): Floats {
  out[oo] = t[0];
  out[oo + 1] = t[1];
  out[oo + 2] = t[2];
  quaternionToMat3(out, oo + OBB_AXES, q);
  return scaleHalfExtents(out, oo, local, lo, scale);
}

/** half' = |scale|·half, from the local box at `lo` into the world box at `oo`; returns `out`. */
function scaleHalfExtents(out: Floats, oo: number, local: ReadonlyFloats, lo: number, scale: number): Floats {
  const s = Math.abs(scale);
  out[oo + OBB_HALF] = s * local[lo + OBB_HALF];
  out[oo + OBB_HALF + 1] = s * local[lo + OBB_HALF + 1];
  out[oo + OBB_HALF + 2] = s * local[lo + OBB_HALF + 2];
  return out;
}

/** The 8 corners (24 numbers) of a box, in the order of the sign bits (±u0, ±u1, ±u2). */
export function obbCorners(out: Floats, box: ReadonlyFloats, o = 0): Floats {
  const a = o + OBB_AXES;
  for (let i = 0; i < 8; i++) {
    const s0 = i & 1 ? box[o + OBB_HALF] : -box[o + OBB_HALF];
    const s1 = i & 2 ? box[o + OBB_HALF + 1] : -box[o + OBB_HALF + 1];
    const s2 = i & 4 ? box[o + OBB_HALF + 2] : -box[o + OBB_HALF + 2];
    for (let c = 0; c < 3; c++) {
      out[3 * i + c] = box[o + c] + s0 * box[a + c] + s1 * box[a + 3 + c] + s2 * box[a + 6 + c];
    }
  }
  return out;
}

/** The min-max AABB at aabb[ao] as an OBB with identity axes, at out[o]. Returns out. */
export function obbFromAabb(out: Floats, o: number, aabb: ReadonlyFloats, ao = 0): Floats {
  for (let k = 0; k < 3; k++) {
    out[o + OBB_CENTER + k] = 0.5 * (aabb[ao + k] + aabb[ao + 3 + k]);
    out[o + OBB_HALF + k] = 0.5 * (aabb[ao + 3 + k] - aabb[ao + k]);
  }
  for (let k = 0; k < 9; k++) out[o + OBB_AXES + k] = k % 4 === 0 ? 1 : 0;
  return out;
}

/**
 * Unit quaternion (x, y, z, w) of the axes of box b (at bo), written at out[oo..oo+3]: the turn
 * interpolateObb slerps. A box with a left-handed frame is the same box with its third axis
 * negated, which makes the frame a rotation. Allocation-free; returns out.
 */
export function obbQuaternion(out: Floats, oo: number, b: ReadonlyFloats, bo: number): Floats {
  const a = bo + OBB_AXES;
  const u0 = b[a], u1 = b[a + 1], u2 = b[a + 2], v0 = b[a + 3], v1 = b[a + 4], v2 = b[a + 5];
  const det = b[a + 6] * (u1 * v2 - u2 * v1) + b[a + 7] * (u2 * v0 - u0 * v2) + b[a + 8] * (u0 * v1 - u1 * v0);
  return mat3ToQuaternion(out, oo, b, a, det < 0 ? -1 : 1);
}

/**
 * The box at fraction s of a rigid motion from box a (at ao) to box b (at bo), written at out[oo]:
 * centre and half-extents interpolated linearly, the axes by shortest-path quaternion slerp, so
 * the box stays rectangular at every s. s = 0 and s = 1 give a and b (up to rounding, and with a
 * left-handed frame's third axis negated, which is the same box). Both boxes' axes must be
 * orthonormal. The turn is the one between the two frames as given: a box whose axes were
 * relabelled or flipped in pairs between a and b turns through that relabelling too.
 * Allocation-free; out may alias a or b.
 */
export function interpolateObb(out: Floats, oo: number, a: ReadonlyFloats, ao: number, b: ReadonlyFloats, bo: number, s: number): Floats {
  obbFraction[0] = s;
  return interpolateObbArrays(out, oo, a, ao, b, bo, obbFraction, 0);
}
const obbFraction = new Float64Array(1);

/**
 * interpolateObb with s read at fraction[fo] (V8 boxes a double passed to a call it does not inline).
 * @internal
 */
export function interpolateObbArrays(
  out: Floats, oo: number, a: ReadonlyFloats, ao: number, b: ReadonlyFloats, bo: number, fraction: ReadonlyFloats, fo: number,
): Floats {
  const s = fraction[fo];
  obbQuaternion(turn, 0, a, ao);
  obbQuaternion(turn, 4, b, bo);
  slerpQuaternionArrays(turn, 0, turn, 0, turn, 4, fraction, fo);
  for (let k = 0; k < 3; k++) {
    const ca = a[ao + OBB_CENTER + k], ha = a[ao + OBB_HALF + k];
    out[oo + OBB_CENTER + k] = ca + s * (b[bo + OBB_CENTER + k] - ca);
    out[oo + OBB_HALF + k] = ha + s * (b[bo + OBB_HALF + k] - ha);
  }
  quaternionToMat3(out, oo + OBB_AXES, turn);
  return out;
}

/**
 * How far the box interpolateObb(a, b, s) strays, at any s, from the same blend of a's and b's
 * points (boxes a at ao and b at bo): e = |H|max·(1 − cos(θ/2)) + |H_b − H_a|/2, θ the turn
 * between their frames. A corner c(s) + R(s)(H(s)∘σ) lies within e of (1 − s)·corner_a + s·corner_b
 * (a point on a circular arc strays at most |H|(1 − cos(θ/2)) from its chord, at s = ½; the cross
 * term s(1 − s)(R_a − R_b)(H_b − H_a) adds at most |ΔH|/2), so the union of the two boxes' AABBs
 * widened by e holds the box at every s. cos(θ/2) comes from the trace of R_aᵀR_b = 1 + 2 cos θ.
 */
export function interpolationReach(a: ReadonlyFloats, ao: number, b: ReadonlyFloats, bo: number): number {
  let trace = 0;
  for (let k = OBB_AXES; k < OBB_AXES + 9; k++) trace += a[ao + k] * b[bo + k];
  const cosHalf = Math.sqrt(Math.min(1, Math.max(0, (trace + 1) / 4)));
  const ha0 = a[ao + OBB_HALF], ha1 = a[ao + OBB_HALF + 1], ha2 = a[ao + OBB_HALF + 2];
  const hb0 = b[bo + OBB_HALF], hb1 = b[bo + OBB_HALF + 1], hb2 = b[bo + OBB_HALF + 2];
  const hMax = Math.sqrt(Math.max(ha0 * ha0 + ha1 * ha1 + ha2 * ha2, hb0 * hb0 + hb1 * hb1 + hb2 * hb2));
  // Math.hypot is several times slower than the square root of the sum (55,000 boxes a frame).
  const dh0 = hb0 - ha0, dh1 = hb1 - ha1, dh2 = hb2 - ha2;
  return hMax * (1 - cosHalf) + 0.5 * Math.sqrt(dh0 * dh0 + dh1 * dh1 + dh2 * dh2);
}

export { OBB_STRIDE };
