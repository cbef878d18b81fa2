import { FLOAT32_RELATIVE_STEP } from './tolerances';
/**
 * Outward rounding to Float32: world volumes are computed in doubles and stored in Float32Array
 * stores, and a stored bound must still contain what it bounds.
 */

/** A Float32 value <= v (at most 1.5 ulp below): v moved down by a full ulp, then rounded. */
export function float32Below(v: number): number {
  return Math.fround(v - Math.abs(v) * FLOAT32_RELATIVE_STEP);
}

/** A Float32 value >= v. */
export function float32Above(v: number): number {
  return Math.fround(v + Math.abs(v) * FLOAT32_RELATIVE_STEP);
}
