/**
 * Growable pooled storage of id pairs (a, b): parallel Uint32 arrays that double when full and are
 * reused across frames, so steady-state frames allocate nothing. Sorting is an LSD radix sort on
 * the 24-bit ids (b first, then a, each in as few digits as the pair count affords), linear in
 * the pair count and allocation-free.
 */
import { CollideInputError, valueName } from '../errors';
import { grown } from './growable';
import { radixScatterPass } from './radixPass';

/**
 * Digit widths: a pass clears and prefix-sums 2^digitBits buckets, so digits are at most about
 * 4 pairs' worth of buckets wide (at least MIN_DIGIT_BITS, at most MAX_DIGIT_BITS); ids are then
 * usually one digit each (ids are entity ids, dense from 0).
 */
const MIN_DIGIT_BITS = 12;
const MAX_DIGIT_BITS = 16;
/** Largest proxy id plus one: ids are packed into 24 bits when pairs are sorted and merged. */
export const MAX_PROXY_ID = 1 << 24;
/** Below this many pairs, insertion sort beats the radix passes' fixed cost of clearing buckets. */
const INSERTION_SORT_MAX = 48;

/**
 * The radix passes' digit counts, one array for all the lists of a thread: a pass fills and reads
 * it within its own call, and an array per list would cost every PairList (and every
 * TreeQueryResult, which holds one) 256 KB.
 */
const sortBuckets = new Uint32Array(1 << MAX_DIGIT_BITS);

/** A list of pairs (a[i], b[i]), named as contacts and hitbox pairs name them. */
export class PairList {
  /** First ids; valid for indices below `count`. Re-read after `sort()`, which swaps in its scratch arrays. */
  a: Uint32Array;
  /** Second ids; valid for indices below `count`. Re-read after `sort()`. */
  b: Uint32Array;
  /** Number of pairs held. */
  count = 0;
  private scratchFirst: Uint32Array;
  private scratchSecond: Uint32Array;

  /**
   * Creates an empty list with room for `capacity` pairs (grows on demand). Throws
   * CollideInputError for a capacity that is negative, not a number or too large to allocate.
   */
  constructor(capacity = 64) {
    if (!(capacity >= 0)) throw new CollideInputError(`PairList: capacity must be a non-negative number, got ${valueName(capacity)}`);
    const n = Math.max(1, Math.floor(capacity));
    try {
      this.a = new Uint32Array(n);
      this.b = new Uint32Array(n);
    } catch (error) {
      if (error instanceof RangeError) throw new CollideInputError(`PairList: capacity ${capacity} is too large to allocate (${error.message})`);
      throw error;
    }
    this.scratchFirst = new Uint32Array(0);
    this.scratchSecond = new Uint32Array(0);
  }

  /** Appends the pair (a, b), doubling the storage when full. */
  push(a: number, b: number): void {
    const i = this.count;
    if (i === this.a.length) {
      this.a = grown(this.a, i + 1);
      this.b = grown(this.b, i + 1);
    }
    this.a[i] = a;
    this.b[i] = b;
    this.count = i + 1;
  }

  /** Exchanges contents (pairs and storage) with `other` in O(1): a frame's list becomes last frame's without copying. */
  swapContents(other: PairList): void {
    const first = this.a, second = this.b, count = this.count;
    this.a = other.a;
    this.b = other.b;
    this.count = other.count;
    other.a = first;
    other.b = second;
    other.count = count;
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
    let orAll = 0;
    for (let i = 0; i < n; i++) orAll |= this.a[i] | this.b[i];
    // Fewest passes whose bucket arrays stay small next to the pair count.
    const bits = 32 - Math.clz32(orAll);
    const maxDigitBits = Math.min(MAX_DIGIT_BITS, Math.max(MIN_DIGIT_BITS, 31 - Math.clz32(4 * n)));
    const digitBits = Math.ceil(bits / Math.ceil(bits / maxDigitBits));
    // Least significant key first: b's digits, then a's; stability of each pass makes it lexicographic.
    for (let shift = 0; shift < bits; shift += digitBits) this.radixPass(false, shift, digitBits);
    for (let shift = 0; shift < bits; shift += digitBits) this.radixPass(true, shift, digitBits);
  }

  /** One stable counting-sort pass on the `digitBits`-bit digit of a or b at `shift`. */
  private radixPass(byFirst: boolean, shift: number, digitBits: number): void {
    const srcA = this.a;
    const srcB = this.b;
    radixScatterPass(byFirst ? srcA : srcB, shift, digitBits, this.count, sortBuckets, srcA, srcB, this.scratchFirst, this.scratchSecond);
    // Swap roles so the sorted run becomes the public arrays without copying.
    this.a = this.scratchFirst;
    this.b = this.scratchSecond;
    this.scratchFirst = srcA;
    this.scratchSecond = srcB;
  }


  private insertionSort(): void {
    const fa = this.a;
    const fb = this.b;
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
