/**
 * One stable counting-sort pass of an LSD radix sort, shared by the sorts of this folder: moves
 * the pairs (srcA[i], srcB[i]) into (dstA, dstB) ordered by the digit (keys[i] >>> shift) of
 * `digitBits` bits. `keys` is usually srcA or srcB itself; `buckets` needs 2^digitBits entries.
 */
export function radixScatterPass(
  keys: Uint32Array,
  shift: number,
  digitBits: number,
  count: number,
  buckets: Uint32Array,
  srcA: Uint32Array,
  srcB: Uint32Array,
  dstA: Uint32Array,
  dstB: Uint32Array,
): void {
  const radix = 1 << digitBits;
  const mask = radix - 1;
  buckets.fill(0, 0, radix);
  for (let i = 0; i < count; i++) buckets[(keys[i] >>> shift) & mask]++;
  let sum = 0;
  for (let d = 0; d < radix; d++) {
    const c = buckets[d];
    buckets[d] = sum;
    sum += c;
  }
  for (let i = 0; i < count; i++) {
    const j = buckets[(keys[i] >>> shift) & mask]++;
    dstA[j] = srcA[i];
    dstB[j] = srcB[i];
  }
}
