/**
 * Writes into out[oo] the length of the vector at v[vo..vo + 2], to the bit what V8's Math.hypot
 * gives (the largest magnitude factored out, a Kahan sum of the squared ratios), without its
 * garbage: V8 runs Math.hypot as a builtin that allocates an array for its arguments and boxes its
 * result (40 to 60 bytes per call). Numbers in and out through arrays, as a double passed to or
 * returned from a call V8 does not inline is boxed too. Query results (a hit's distance) keep the
 * value Math.hypot gave them.
 * @internal
 */
export function writeHypot(out: Float64Array, oo: number, v: ArrayLike<number>, vo: number): void {
  const x = v[vo], y = v[vo + 1], z = v[vo + 2];
  const ax = Math.abs(x), ay = Math.abs(y), az = Math.abs(z);
  let max = 0;
  if (ax > max) max = ax;
  if (ay > max) max = ay;
  if (az > max) max = az;
  if (max === Infinity) out[oo] = Infinity;
  else if (x !== x || y !== y || z !== z) out[oo] = NaN;
  else if (max === 0) out[oo] = 0;
  else {
    const nx = ax / max, ny = ay / max, nz = az / max;
    const sum = nx * nx, summand = ny * ny, next = sum + summand;
    const compensation = next - sum - summand;
    out[oo] = Math.sqrt(next + (nz * nz - compensation)) * max;
  }
}
