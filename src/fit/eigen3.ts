import { CollideInputError } from '../errors';
import type { Floats, ReadonlyFloats } from '../layout';
import { EIGEN_CLOSED_FORM_MIN_GAP, EIGEN_OFF_DIAGONAL_TOLERANCE } from '../tolerances';

/**
 * Eigen decomposition of a symmetric 3x3 matrix, in doubles. The closed form (eigenvalues from the
 * trigonometric solution of the characteristic cubic, eigenvectors from cross products of the rows
 * of A − λI) is several times cheaper than iterating, which matters to tree builds (one system
 * per node); but its eigenvalues lose half their digits as two of them merge, and so do the
 * vectors. Those matrices (boxes, spheres, flat point sets produce them exactly) go to cyclic
 * Jacobi rotations, which stay accurate for repeated and zero eigenvalues.
 */

/** Safety bound on sweeps; convergence normally takes 3 to 6. */
const MAX_SWEEPS = 50;

// Module scratch: the working matrix (row-major, symmetric, scaled to entries of at most 1), the
// accumulated rotation, and the unscaled eigenvectors before they are made a right-handed frame.
const a = new Float64Array(9);
const v = new Float64Array(9);
const order = [0, 1, 2];
const vectors = new Float64Array(6);
const values = new Float64Array(3);

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
 * Jacobi on the scratch matrix: eigenvalues (descending) into `values`, the matching first two
 * eigenvectors into `vectors`.
 */
function jacobi(): void {
  v.fill(0);
  v[0] = v[4] = v[8] = 1;
  let norm2 = 0;
  for (let i = 0; i < 9; i++) norm2 += a[i] * a[i];
  const limit2 = EIGEN_OFF_DIAGONAL_TOLERANCE * EIGEN_OFF_DIAGONAL_TOLERANCE * norm2;
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
  for (let i = 0; i < 3; i++) values[i] = a[4 * order[i]];
  for (let k = 0; k < 2; k++) {
    const c = order[k];
    vectors[3 * k] = v[c]; vectors[3 * k + 1] = v[3 + c]; vectors[3 * k + 2] = v[6 + c];
  }
}

/**
 * Writes into vectors[o .. o + 3) the longest cross product of two rows of (scratch matrix − λI):
 * for a simple eigenvalue λ the rows span the plane orthogonal to its eigenvector, and the
 * longest product is the best conditioned of the three. Unnormalised.
 */
function nullVector(lambda: number, o: number): void {
  const x0 = a[0] - lambda, y0 = a[1], z0 = a[2];
  const x1 = a[1], y1 = a[4] - lambda, z1 = a[5];
  const x2 = a[2], y2 = a[5], z2 = a[8] - lambda;
  const ax = y0 * z1 - z0 * y1, ay = z0 * x1 - x0 * z1, az = x0 * y1 - y0 * x1;
  const bx = y0 * z2 - z0 * y2, by = z0 * x2 - x0 * z2, bz = x0 * y2 - y0 * x2;
  const cx = y1 * z2 - z1 * y2, cy = z1 * x2 - x1 * z2, cz = x1 * y2 - y1 * x2;
  const la = ax * ax + ay * ay + az * az, lb = bx * bx + by * by + bz * bz, lc = cx * cx + cy * cy + cz * cz;
  if (la >= lb && la >= lc) { vectors[o] = ax; vectors[o + 1] = ay; vectors[o + 2] = az; }
  else if (lb >= lc) { vectors[o] = bx; vectors[o + 1] = by; vectors[o + 2] = bz; }
  else { vectors[o] = cx; vectors[o + 1] = cy; vectors[o + 2] = cz; }
}

/** u · (scratch matrix) · u for the unit vector u. */
function rayleigh(ux: number, uy: number, uz: number): number {
  return a[0] * ux * ux + a[4] * uy * uy + a[8] * uz * uz + 2 * (a[1] * ux * uy + a[2] * ux * uz + a[5] * uy * uz);
}

/**
 * Closed form on the scratch matrix, into `values` and `vectors` like `jacobi`; false (nothing
 * written) when two eigenvalues are closer than EIGEN_CLOSED_FORM_MIN_GAP allows.
 */
function closedForm(): boolean {
  const q = (a[0] + a[4] + a[8]) / 3;
  const b00 = a[0] - q, b11 = a[4] - q, b22 = a[8] - q, b01 = a[1], b02 = a[2], b12 = a[5];
  const p = Math.sqrt((b00 * b00 + b11 * b11 + b22 * b22 + 2 * (b01 * b01 + b02 * b02 + b12 * b12)) / 6);
  if (!(p > 0)) return false;
  // B = (A − qI) / p has eigenvalues 2 cos(φ + 2πk/3), with cos 3φ = det(B) / 2.
  const c00 = b00 / p, c11 = b11 / p, c22 = b22 / p, c01 = b01 / p, c02 = b02 / p, c12 = b12 / p;
  const half = 0.5 * (c00 * (c11 * c22 - c12 * c12) - c01 * (c01 * c22 - c12 * c02) + c02 * (c01 * c12 - c11 * c02));
  const phi = Math.acos(half <= -1 ? -1 : half >= 1 ? 1 : half) / 3;
  const l0 = q + 2 * p * Math.cos(phi);
  const l2 = q + 2 * p * Math.cos(phi + (2 * Math.PI) / 3);
  const l1 = 3 * q - l0 - l2;
  const gap = EIGEN_CLOSED_FORM_MIN_GAP * Math.max(Math.abs(l0), Math.abs(l2));
  if (!(l0 - l1 > gap && l1 - l2 > gap)) return false;
  nullVector(l0, 0);
  nullVector(l2, 3);
  let len = Math.sqrt(vectors[0] * vectors[0] + vectors[1] * vectors[1] + vectors[2] * vectors[2]);
  const ux = vectors[0] / len, uy = vectors[1] / len, uz = vectors[2] / len;
  let wx = vectors[3], wy = vectors[4], wz = vectors[5];
  const d = ux * wx + uy * wy + uz * wz;
  wx -= d * ux; wy -= d * uy; wz -= d * uz;
  len = Math.sqrt(wx * wx + wy * wy + wz * wz);
  wx /= len; wy /= len; wz /= len;
  // Middle vector w × u, so (u, w × u, w) is right-handed.
  const mx = wy * uz - wz * uy, my = wz * ux - wx * uz, mz = wx * uy - wy * ux;
  vectors[0] = ux; vectors[1] = uy; vectors[2] = uz;
  vectors[3] = mx; vectors[4] = my; vectors[5] = mz;
  // Rayleigh quotients: second-order accurate in the vectors, so the values regain full precision.
  values[0] = rayleigh(ux, uy, uz);
  values[1] = rayleigh(mx, my, mz);
  values[2] = rayleigh(wx, wy, wz);
  return true;
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
  return solve(outValues, outVectors, m, true);
}

/**
 * `symmetricEigen3` by Jacobi rotations only, whatever the spectrum: the reference the closed
 * form is tested against, accurate for every input but several times slower.
 */
export function symmetricEigen3Jacobi(outValues: Floats, outVectors: Floats, m: ReadonlyFloats): Floats {
  return solve(outValues, outVectors, m, false);
}

function solve(outValues: Floats, outVectors: Floats, m: ReadonlyFloats, allowClosedForm: boolean): Floats {
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
  if (!(allowClosedForm && closedForm())) jacobi();
  for (let i = 0; i < 3; i++) outValues[i] = values[i] * scale;

  // Re-orthonormalise (Gram-Schmidt) and close the frame with a cross product so it is exactly
  // right-handed whatever the sort permutation did to the handedness.
  let ux = vectors[0], uy = vectors[1], uz = vectors[2];
  // Both solvers hand over vectors of length ~1: plain sqrt is safe, and far cheaper than
  // Math.hypot in V8 (tree builds solve one system per node).
  let len = Math.sqrt(ux * ux + uy * uy + uz * uz);
  ux /= len; uy /= len; uz /= len;
  let wx = vectors[3], wy = vectors[4], wz = vectors[5];
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
