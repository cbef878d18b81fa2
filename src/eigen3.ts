import { CollideInputError } from './errors';
import type { Floats, ReadonlyFloats } from './layout';

/**
 * Eigen decomposition of a symmetric 3x3 matrix by cyclic Jacobi rotations, in doubles. Jacobi
 * is slower than a closed-form cubic but stays accurate for repeated and zero eigenvalues, which
 * is exactly what boxes, spheres and flat point sets produce.
 */

/**
 * Sweeps stop once the off-diagonal norm falls below this fraction of the matrix norm: beyond
 * that the rotations only move rounding noise. Jacobi converges quadratically, so this is reached
 * in a handful of sweeps.
 */
const OFF_DIAGONAL_TOLERANCE = Number.EPSILON;
/** Safety bound on sweeps; convergence normally takes 3 to 6. */
const MAX_SWEEPS = 50;

// Module scratch: the working matrix (row-major, symmetric) and the accumulated rotation.
const a = new Float64Array(9);
const v = new Float64Array(9);
const order = [0, 1, 2];

/** One Jacobi rotation in the (p, q) plane that zeroes a[p][q]; r is the third index. */
function rotate(p: number, q: number, r: number): void {
  const apq = a[3 * p + q];
  if (apq === 0) return;
  const app = a[3 * p + p], aqq = a[3 * q + q];
  const theta = (aqq - app) / (2 * apq);
  // Smaller root of t^2 + 2 t theta - 1 = 0 keeps the rotation angle at most pi/4 (stable);
  // when theta overflows its square, t -> 0 is the correct limit.
  const t = (theta >= 0 ? 1 : -1) / (Math.abs(theta) + Math.sqrt(theta * theta + 1));
  const c = 1 / Math.sqrt(t * t + 1);
  const s = t * c;
  a[3 * p + p] = app - t * apq;
  a[3 * q + q] = aqq + t * apq;
  a[3 * p + q] = a[3 * q + p] = 0;
  const arp = a[3 * r + p], arq = a[3 * r + q];
  a[3 * r + p] = a[3 * p + r] = c * arp - s * arq;
  a[3 * r + q] = a[3 * q + r] = s * arp + c * arq;
  for (let k = 0; k < 3; k++) {
    const vkp = v[3 * k + p], vkq = v[3 * k + q];
    v[3 * k + p] = c * vkp - s * vkq;
    v[3 * k + q] = s * vkp + c * vkq;
  }
}

/**
 * Eigenvalues (descending) and eigenvectors of symmetric matrix `m`, given either as 6 numbers
 * (xx, xy, xz, yy, yz, zz) or as 9 (row-major; only the upper triangle is read).
 * `outVectors` receives the eigenvectors as 3 columns (u0, u1, u2), matching `outValues`, always
 * forming a right-handed orthonormal frame (u2 = u0 × u1). Repeated eigenvalues yield some
 * orthonormal basis of their eigenspace; the zero matrix yields the identity frame.
 * Returns `outVectors`.
 */
export function symmetricEigen3(outValues: Floats, outVectors: Floats, m: ReadonlyFloats): Floats {
  let xx: number, xy: number, xz: number, yy: number, yz: number, zz: number;
  if (m.length === 6) {
    xx = m[0]; xy = m[1]; xz = m[2]; yy = m[3]; yz = m[4]; zz = m[5];
  } else if (m.length === 9) {
    xx = m[0]; xy = m[1]; xz = m[2]; yy = m[4]; yz = m[5]; zz = m[8];
  } else {
    throw new CollideInputError(`symmetricEigen3: matrix must have 6 or 9 entries, got ${m.length}`);
  }
  // Normalise by the largest entry so squares neither overflow (1e200) nor underflow (1e-200).
  const scale = Math.max(Math.abs(xx), Math.abs(xy), Math.abs(xz), Math.abs(yy), Math.abs(yz), Math.abs(zz));
  if (!Number.isFinite(scale)) {
    throw new CollideInputError('symmetricEigen3: matrix has a non-finite entry');
  }
  // Divide rather than multiply by 1 / scale: the reciprocal of a subnormal scale overflows.
  const s = scale > 0 ? scale : 1;
  a[0] = xx / s; a[1] = a[3] = xy / s; a[2] = a[6] = xz / s;
  a[4] = yy / s; a[5] = a[7] = yz / s; a[8] = zz / s;
  v.fill(0);
  v[0] = v[4] = v[8] = 1;

  let norm2 = 0;
  for (let i = 0; i < 9; i++) norm2 += a[i] * a[i];
  const limit2 = OFF_DIAGONAL_TOLERANCE * OFF_DIAGONAL_TOLERANCE * norm2;
  for (let sweep = 0; sweep < MAX_SWEEPS; sweep++) {
    const off2 = 2 * (a[1] * a[1] + a[2] * a[2] + a[5] * a[5]);
    if (off2 <= limit2) break;
    rotate(0, 1, 2);
    rotate(0, 2, 1);
    rotate(1, 2, 0);
  }

  // Sort descending (3 elements: insertion sort on an index list).
  order[0] = 0; order[1] = 1; order[2] = 2;
  for (let i = 1; i < 3; i++) {
    for (let j = i; j > 0 && a[4 * order[j]] > a[4 * order[j - 1]]; j--) {
      const t = order[j];
      order[j] = order[j - 1];
      order[j - 1] = t;
    }
  }
  for (let i = 0; i < 3; i++) outValues[i] = a[4 * order[i]] * scale;

  // Re-orthonormalise (Gram-Schmidt) and close the frame with a cross product so it is exactly
  // right-handed whatever the sort permutation did to the handedness.
  const c0 = order[0], c1 = order[1];
  let ux = v[c0], uy = v[3 + c0], uz = v[6 + c0];
  // Columns of a product of rotations have length ~1: plain sqrt is safe, and far cheaper than
  // Math.hypot in V8 (tree builds solve one system per node).
  let len = Math.sqrt(ux * ux + uy * uy + uz * uz);
  ux /= len; uy /= len; uz /= len;
  let wx = v[c1], wy = v[3 + c1], wz = v[6 + c1];
  const d = ux * wx + uy * wy + uz * wz;
  wx -= d * ux; wy -= d * uy; wz -= d * uz;
  len = Math.sqrt(wx * wx + wy * wy + wz * wz);
  wx /= len; wy /= len; wz /= len;
  outVectors[0] = ux; outVectors[1] = uy; outVectors[2] = uz;
  outVectors[3] = wx; outVectors[4] = wy; outVectors[5] = wz;
  outVectors[6] = uy * wz - uz * wy;
  outVectors[7] = uz * wx - ux * wz;
  outVectors[8] = ux * wy - uy * wx;
  return outVectors;
}
