/**
 * Stable ascending order of Float32 keys by an LSD radix sort on their bit patterns (three 11-bit
 * digits), linear in the count and allocation-free once its pooled arrays have grown. The bits
 * are mapped so that unsigned order equals numeric order: negative floats have all bits flipped,
 * the others only the sign bit.
 */
import { grown } from './growable';

const DIGIT_BITS = 11;
const RADIX = 1 << DIGIT_BITS;
const MASK = RADIX - 1;

export class Float32Order {
  /** Keys to sort: write `count` of them (after `reserve`), then call `sort`. */
  keys = new Float32Array(0);
  /** After `sort`: order[k] is the tag of the k-th smallest key (ties in index order). */
  order = new Int32Array(0);
  /** The keys' own bytes as unsigned integers: mapping them needs no float-to-bits conversion. */
  private keyBits = new Uint32Array(0);
  private mapped = new Uint32Array(0);
  private scratchMapped = new Uint32Array(0);
  private scratchOrder = new Int32Array(0);
  private readonly buckets = new Uint32Array(RADIX);

  /** Makes room for `count` keys (their values are then unspecified). */
  reserve(count: number): void {
    if (this.keys.length >= count) return;
    this.keys = grown(this.keys, count);
    this.keyBits = new Uint32Array(this.keys.buffer);
    const n = this.keys.length;
    this.mapped = grown(this.mapped, n);
    this.scratchMapped = grown(this.scratchMapped, n);
    this.order = grown(this.order, n);
    this.scratchOrder = grown(this.scratchOrder, n);
  }

  /**
   * Sorts the first `count` keys into `order`, as their tags: tags[i] for key i when given (so the
   * caller needs no gather through the order afterwards), else i. The keys are left as written;
   * NaN keys are not allowed.
   */
  sort(count: number, tags?: ArrayLike<number>): void {
    const keyBits = this.keyBits;
    let src = this.mapped, order = this.order;
    let dst = this.scratchMapped, dstOrder = this.scratchOrder;
    for (let i = 0; i < count; i++) {
      const u = keyBits[i];
      src[i] = (u & 0x80000000) !== 0 ? ~u >>> 0 : (u | 0x80000000) >>> 0;
      order[i] = tags === undefined ? i : tags[i];
    }
    const buckets = this.buckets;
    for (let shift = 0; shift < 32; shift += DIGIT_BITS) {
      buckets.fill(0);
      for (let i = 0; i < count; i++) buckets[(src[i] >>> shift) & MASK]++;
      let sum = 0;
      for (let d = 0; d < RADIX; d++) {
        const c = buckets[d];
        buckets[d] = sum;
        sum += c;
      }
      for (let i = 0; i < count; i++) {
        const j = buckets[(src[i] >>> shift) & MASK]++;
        dst[j] = src[i];
        dstOrder[j] = order[i];
      }
      // The sorted run becomes the source of the next pass.
      const m = src;
      src = dst;
      dst = m;
      const o = order;
      order = dstOrder;
      dstOrder = o;
    }
    this.mapped = src;
    this.scratchMapped = dst;
    this.order = order;
    this.scratchOrder = dstOrder;
  }
}
