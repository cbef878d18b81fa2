/**
 * Math.hypot(x, y, z), to the bit as V8 computes it (the largest magnitude factored out, a Kahan
 * sum of the squared ratios), without its cost: V8 runs Math.hypot as a builtin that allocates an
 * array for its arguments and boxes its result, 40 to 60 bytes of garbage per call, where this
 * small function is inlined and allocates nothing. Query results (a hit's distance) keep the value
 * Math.hypot gave them.
 * @internal
 */
export function hypot3(x: number, y: number, z: number): number {
  const ax = Math.abs(x), ay = Math.abs(y), az = Math.abs(z);
  let max = 0;
  if (ax > max) max = ax;
  if (ay > max) max = ay;
  if (az > max) max = az;
  if (max === Infinity) return Infinity;
  if (x !== x || y !== y || z !== z) return NaN;
  if (max === 0) return 0;
  const nx = ax / max, ny = ay / max, nz = az / max;
  let sum = nx * nx;
  let summand = ny * ny;
  let next = sum + summand;
  let compensation = next - sum - summand;
  sum = next;
  summand = nz * nz - compensation;
  next = sum + summand;
  return Math.sqrt(next) * max;
}
