/**
 * Stable ascending order of Float32 keys by an LSD radix sort on their bit patterns (digits of
 * 11, 11 and 10 bits), linear in the count and allocation-free once its pooled arrays have grown.
 * The bits are mapped so that unsigned order equals numeric order: negative floats have all bits
 * flipped, the others only the sign bit.
 */
import { grown } from './growable';
import { allocate } from '../sharedMemory';
import { radixScatterPass } from './radixPass';

const DIGIT_BITS = 11;

export class Float32Order {
  /** Keys to sort: write `count` of them (after `reserve`), then call `sort`. */
  keys = new Float32Array(0);
  /** After `sort`: order[k] is the tag of the k-th smallest key (ties in index order). */
  order: Uint32Array;
  /** The keys' own bytes as unsigned integers: mapping them needs no float-to-bits conversion. */
  private keyBits = new Uint32Array(0);
  private mapped = new Uint32Array(0);
  private scratchMapped = new Uint32Array(0);
  private scratchOrder: Uint32Array;
  private readonly buckets = new Uint32Array(1 << DIGIT_BITS);

  /** With `shared`, the order lives on SharedArrayBuffers, for other threads to read. */
  constructor(shared = false) {
    this.order = allocate(Uint32Array, 0, shared);
    this.scratchOrder = allocate(Uint32Array, 0, shared);
  }

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
    const keyBits = this.keyBits, buckets = this.buckets;
    const mapped = this.mapped, order = this.order;
    const scratch = this.scratchMapped, scratchOrder = this.scratchOrder;
    for (let i = 0; i < count; i++) {
      const u = keyBits[i];
      mapped[i] = (u & 0x80000000) !== 0 ? ~u >>> 0 : (u | 0x80000000) >>> 0;
      order[i] = tags === undefined ? i : tags[i];
    }
    // Digits of 11, 11 and 10 bits, ping-ponging between the arrays and their scratch twins.
    radixScatterPass(mapped, 0, DIGIT_BITS, count, buckets, mapped, order, scratch, scratchOrder);
    radixScatterPass(scratch, DIGIT_BITS, DIGIT_BITS, count, buckets, scratch, scratchOrder, mapped, order);
    radixScatterPass(mapped, 2 * DIGIT_BITS, 32 - 2 * DIGIT_BITS, count, buckets, mapped, order, scratch, scratchOrder);
    // An odd number of passes leaves the sorted run in the scratch arrays: they change roles.
    this.mapped = scratch;
    this.scratchMapped = mapped;
    this.order = scratchOrder;
    this.scratchOrder = order;
  }
}
