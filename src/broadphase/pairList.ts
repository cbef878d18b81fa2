/**
 * Growable pooled storage of id pairs (a, b): parallel Uint32 arrays that double when full and are
 * reused across frames, so steady-state frames allocate nothing. Sorting is an LSD radix sort on
 * the 24-bit ids (b first, then a, each as two 12-bit digits; digits that are zero for every pair
 * are skipped), linear in the pair count and allocation-free.
 */
import { grown } from './growable';

const DIGIT_BITS = 12;
const DIGIT_RADIX = 1 << DIGIT_BITS;
const DIGIT_MASK = DIGIT_RADIX - 1;
/** Below this many pairs, insertion sort beats the radix passes' fixed cost of clearing buckets. */
const INSERTION_SORT_MAX = 48;

/** A list of pairs, each stored as first[i] = a, second[i] = b. */
export class PairList {
  /** First ids; valid for indices below `count`. Re-read after `sort()`, which swaps in its scratch arrays. */
  first: Uint32Array;
  /** Second ids; valid for indices below `count`. Re-read after `sort()`. */
  second: Uint32Array;
  /** Number of pairs held. */
  count = 0;
  private scratchFirst: Uint32Array;
  private scratchSecond: Uint32Array;
  private readonly buckets = new Uint32Array(DIGIT_RADIX);

  /** Creates an empty list with room for `capacity` pairs (grows on demand). */
  constructor(capacity = 64) {
    const n = Math.max(1, Math.floor(capacity));
    this.first = new Uint32Array(n);
    this.second = new Uint32Array(n);
    this.scratchFirst = new Uint32Array(0);
    this.scratchSecond = new Uint32Array(0);
  }

  /** First id of pair i. */
  a(i: number): number {
    return this.first[i];
  }

  /** Second id of pair i. */
  b(i: number): number {
    return this.second[i];
  }

  /** Appends the pair (a, b), doubling the storage when full. */
  push(a: number, b: number): void {
    const i = this.count;
    if (i === this.first.length) {
      this.first = grown(this.first, i + 1);
      this.second = grown(this.second, i + 1);
    }
    this.first[i] = a;
    this.second[i] = b;
    this.count = i + 1;
  }

  /** Empties the list, keeping its storage. */
  clear(): void {
    this.count = 0;
  }

  /** Sorts the pairs ascending by (a, b). Ids must be integers in [0, 2^24). */
  sort(): void {
    const n = this.count;
    if (n <= INSERTION_SORT_MAX) {
      this.insertionSort();
      return;
    }
    this.scratchFirst = grown(this.scratchFirst, n);
    this.scratchSecond = grown(this.scratchSecond, n);
    let orA = 0;
    let orB = 0;
    for (let i = 0; i < n; i++) {
      orA |= this.first[i];
      orB |= this.second[i];
    }
    // Least significant key first: b's digits, then a's; stability of each pass makes it lexicographic.
    this.radixPass(false, 0, orB);
    this.radixPass(false, DIGIT_BITS, orB);
    this.radixPass(true, 0, orA);
    this.radixPass(true, DIGIT_BITS, orA);
  }

  /** One stable counting-sort pass on one 12-bit digit of a or b; skipped when that digit is 0 everywhere. */
  private radixPass(byFirst: boolean, shift: number, orOfKeys: number): void {
    if (((orOfKeys >>> shift) & DIGIT_MASK) === 0) return;
    const n = this.count;
    const buckets = this.buckets;
    const srcA = this.first;
    const srcB = this.second;
    const dstA = this.scratchFirst;
    const dstB = this.scratchSecond;
    const keys = byFirst ? srcA : srcB;
    buckets.fill(0);
    for (let i = 0; i < n; i++) buckets[(keys[i] >>> shift) & DIGIT_MASK]++;
    let sum = 0;
    for (let d = 0; d < DIGIT_RADIX; d++) {
      const c = buckets[d];
      buckets[d] = sum;
      sum += c;
    }
    for (let i = 0; i < n; i++) {
      const j = buckets[(keys[i] >>> shift) & DIGIT_MASK]++;
      dstA[j] = srcA[i];
      dstB[j] = srcB[i];
    }
    // Swap roles so the sorted run becomes the public arrays without copying.
    this.first = dstA;
    this.second = dstB;
    this.scratchFirst = srcA;
    this.scratchSecond = srcB;
  }

  private insertionSort(): void {
    const fa = this.first;
    const fb = this.second;
    for (let i = 1; i < this.count; i++) {
      const a = fa[i];
      const b = fb[i];
      let j = i - 1;
      while (j >= 0 && (fa[j] > a || (fa[j] === a && fb[j] > b))) {
        fa[j + 1] = fa[j];
        fb[j + 1] = fb[j];
        j--;
      }
      fa[j + 1] = a;
      fb[j + 1] = b;
    }
  }
}
