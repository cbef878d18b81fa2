/**
 * Stable counting-sort passes of an LSD radix sort, shared by the sorts of this folder. A pass
 * moves the pairs (srcA[i], srcB[i]) into (dstA, dstB) ordered by the digit (keys[i] >>> shift)
 * of `digitBits` bits; `keys` is usually srcA or srcB itself. Split into its count and its
 * scatter, a pass runs on several threads: each counts a run of the items, the places of each
 * run's items per digit follow the runs before it (radixPlaces), and each scatters its run.
 */

/** Counts the digits of keys [from, to) into counts[0, 2^digitBits), cleared first. */
export function radixCount(keys: Uint32Array, shift: number, digitBits: number, from: number, to: number, counts: Uint32Array | Int32Array): void {
  const mask = (1 << digitBits) - 1;
  counts.fill(0, 0, mask + 1);
  for (let i = from; i < to; i++) counts[(keys[i] >>> shift) & mask]++;
}

/**
 * Turns the digit counts of `parts` runs (counts[part], from radixCount) into each run's first
 * place per digit, in place: digit by digit, run by run.
 */
export function radixPlaces(counts: readonly (Uint32Array | Int32Array)[], parts: number, digitBits: number): void {
  let next = 0;
  for (let d = 0; d < 1 << digitBits; d++) {
    for (let part = 0; part < parts; part++) {
      const c = counts[part], n = c[d];
      c[d] = next;
      next += n;
    }
  }
}

/** Moves items [from, to) to their places (per digit, advanced as items are placed). */
export function radixScatter(
  keys: Uint32Array, shift: number, digitBits: number, from: number, to: number, places: Uint32Array | Int32Array,
  srcA: Uint32Array, srcB: Uint32Array, dstA: Uint32Array, dstB: Uint32Array,
): void {
  const mask = (1 << digitBits) - 1;
  for (let i = from; i < to; i++) {
    const j = places[(keys[i] >>> shift) & mask]++;
    dstA[j] = srcA[i];
    dstB[j] = srcB[i];
  }
}

/** One whole pass on this thread; `buckets` needs 2^digitBits entries. */
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
  radixCount(keys, shift, digitBits, 0, count, buckets);
  let sum = 0;
  for (let d = 0; d < 1 << digitBits; d++) {
    const c = buckets[d];
    buckets[d] = sum;
    sum += c;
  }
  radixScatter(keys, shift, digitBits, 0, count, buckets, srcA, srcB, dstA, dstB);
}
