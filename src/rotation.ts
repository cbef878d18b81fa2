import { type Floats, type ReadonlyFloats } from './layout';

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
