import { type Floats, type ReadonlyFloats } from './layout';
import { SLERP_LINEAR_GAP, STORED_ROTATION_UNIT_SLACK } from './tolerances';

/**
 * Makes the quaternion at q[o .. o + 4) unit length in place, unless its squared length is within
 * STORED_ROTATION_UNIT_SLACK of 1 (then it is left to the bit) or it is zero (left as it is: the
 * stores' checks refuse it). For rotations read from the Float32 transform store.
 */
export function unitStoredQuaternion(q: Floats, o: number): void {
  const x = q[o], y = q[o + 1], z = q[o + 2], w = q[o + 3];
  const n2 = x * x + y * y + z * z + w * w;
  if (Math.abs(n2 - 1) <= STORED_ROTATION_UNIT_SLACK || !(n2 > 0)) return;
  const n = Math.sqrt(n2);
  q[o] = x / n; q[o + 1] = y / n; q[o + 2] = z / n; q[o + 3] = w / n;
}

/**
 * Column-major 3x3 rotation matrix (the OBB axis layout) of unit quaternion `q` (x, y, z, w),
 * written to out[oo .. oo + 9).
 */
export function quaternionToMat3(out: Floats, oo: number, q: ReadonlyFloats): Floats {
  const x = q[0], y = q[1], z = q[2], w = q[3];
  out[oo] = 1 - 2 * (y * y + z * z);
  out[oo + 1] = 2 * (x * y + z * w);
  out[oo + 2] = 2 * (x * z - y * w);
  out[oo + 3] = 2 * (x * y - z * w);
  out[oo + 4] = 1 - 2 * (x * x + z * z);
  out[oo + 5] = 2 * (y * z + x * w);
  out[oo + 6] = 2 * (x * z + y * w);
  out[oo + 7] = 2 * (y * z - x * w);
  out[oo + 8] = 1 - 2 * (x * x + y * y);
  return out;
}

/**
 * Unit quaternion (x, y, z, w) of the column-major rotation matrix at m[mo .. mo + 9), written to
 * out[oo .. oo + 4), w >= 0. Shepperd's method: it divides by the largest of the four diagonal
 * combinations, so it stays accurate near 180-degree turns. The matrix must be a proper rotation
 * (determinant +1) once its third column is multiplied by `thirdSign` (−1 reads a left-handed
 * frame as the rotation with that column negated, without copying it).
 */
export function mat3ToQuaternion(out: Floats, oo: number, m: ReadonlyFloats, mo: number, thirdSign = 1): Floats {
  const m00 = m[mo], m10 = m[mo + 1], m20 = m[mo + 2];
  const m01 = m[mo + 3], m11 = m[mo + 4], m21 = m[mo + 5];
  const m02 = thirdSign * m[mo + 6], m12 = thirdSign * m[mo + 7], m22 = thirdSign * m[mo + 8];
  const trace = m00 + m11 + m22;
  let x: number, y: number, z: number, w: number;
  if (trace >= m00 && trace >= m11 && trace >= m22) {
    const s = 2 * Math.sqrt(Math.max(0, 1 + trace));
    w = 0.25 * s; x = (m21 - m12) / s; y = (m02 - m20) / s; z = (m10 - m01) / s;
  } else if (m00 >= m11 && m00 >= m22) {
    const s = 2 * Math.sqrt(Math.max(0, 1 + m00 - m11 - m22));
    x = 0.25 * s; w = (m21 - m12) / s; y = (m01 + m10) / s; z = (m02 + m20) / s;
  } else if (m11 >= m22) {
    const s = 2 * Math.sqrt(Math.max(0, 1 + m11 - m00 - m22));
    y = 0.25 * s; w = (m02 - m20) / s; x = (m01 + m10) / s; z = (m12 + m21) / s;
  } else {
    const s = 2 * Math.sqrt(Math.max(0, 1 + m22 - m00 - m11));
    z = 0.25 * s; w = (m10 - m01) / s; x = (m02 + m20) / s; y = (m12 + m21) / s;
  }
  const sign = w < 0 ? -1 : 1;
  const len = sign / Math.sqrt(x * x + y * y + z * z + w * w);
  out[oo] = x * len; out[oo + 1] = y * len; out[oo + 2] = z * len; out[oo + 3] = w * len;
  return out;
}

/**
 * Writes the unit quaternion at fraction u of the shortest-path spherical interpolation from
 * quaternion a (at ao) to b (at bo) into out[oo .. oo + 4). u = 0 gives a, u = 1 gives b (or −b,
 * the same rotation). Allocation-free; out may alias a or b.
 */
export function slerpQuaternion(out: Floats, oo: number, a: ReadonlyFloats, ao: number, b: ReadonlyFloats, bo: number, u: number): Floats {
  slerpFraction[0] = u;
  return slerpQuaternionArrays(out, oo, a, ao, b, bo, slerpFraction, 0);
}
const slerpFraction = new Float64Array(1);

/**
 * slerpQuaternion with u read at fraction[fo] (V8 boxes a double passed to a call it does not inline).
 * @internal
 */
export function slerpQuaternionArrays(out: Floats, oo: number, a: ReadonlyFloats, ao: number, b: ReadonlyFloats, bo: number, fraction: ReadonlyFloats, fo: number): Floats {
  const u = fraction[fo];
  const ax = a[ao], ay = a[ao + 1], az = a[ao + 2], aw = a[ao + 3];
  let bx = b[bo], by = b[bo + 1], bz = b[bo + 2], bw = b[bo + 3];
  let cos = ax * bx + ay * by + az * bz + aw * bw;
  // q and −q are the same rotation: take the nearer one.
  if (cos < 0) {
    cos = -cos; bx = -bx; by = -by; bz = -bz; bw = -bw;
  }
  let sa = 1 - u, sb = u;
  if (cos < 1 - SLERP_LINEAR_GAP) {
    const angle = Math.acos(cos);
    const inv = 1 / Math.sin(angle);
    sa = Math.sin((1 - u) * angle) * inv;
    sb = Math.sin(u * angle) * inv;
  }
  const x = sa * ax + sb * bx, y = sa * ay + sb * by, z = sa * az + sb * bz, w = sa * aw + sb * bw;
  const len = Math.sqrt(x * x + y * y + z * z + w * w);
  out[oo] = x / len; out[oo + 1] = y / len; out[oo + 2] = z / len; out[oo + 3] = w / len;
  return out;
}
