/**
 * Stable ascending order of Float32 keys by an LSD radix sort on their bit patterns (digits of
 * 11, 11 and 10 bits), linear in the count and allocation-free once its pooled arrays have grown.
 * The bits are mapped so that unsigned order equals numeric order: negative floats have all bits
 * flipped, the others only the sign bit. The passes can run on several threads (see radixPass.ts):
 * their arrays keep their roles from sort to sort, so threads are handed them once.
 */
import { grown } from './growable';
import { allocate } from '../sharedMemory';
import { radixScatterPass } from './radixPass';

/** The passes' digits: [shift, bits], least significant first. */
export const FLOAT32_ORDER_DIGITS: readonly (readonly [number, number])[] = [[0, 11], [11, 11], [22, 10]];
/** Values of the widest digit: the counts a pass needs. */
export const FLOAT32_ORDER_RADIX = 1 << 11;

export class Float32Order {
  /** Keys to sort: write `count` of them (after `reserve`), then call `sort`. */
  keys = new Float32Array(0);
  /** After `sort`: order[k] is the tag of the k-th smallest key (ties in index order). */
  order: Uint32Array;
  /** After `sort`, the mapped keys in order; before it, the passes' other arrays. */
  mapped: Uint32Array;
  /** The mapped keys and tags in input order (`prepare`), and between passes. */
  scratchMapped: Uint32Array;
  scratchOrder: Uint32Array;
  /** The keys' own bytes as unsigned integers: mapping them needs no float-to-bits conversion. */
  private keyBits = new Uint32Array(0);
  private readonly buckets = new Uint32Array(FLOAT32_ORDER_RADIX);

  /** With `shared`, the arrays the passes move live on SharedArrayBuffers, for other threads to read and write. */
  constructor(shared = false) {
    this.order = allocate(Uint32Array, 0, shared);
    this.mapped = allocate(Uint32Array, 0, shared);
    this.scratchMapped = allocate(Uint32Array, 0, shared);
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
    this.prepare(count, tags);
    // The passes between the arrays as float32OrderPass names them (written out: that function is
    // bundled only by programs that run the passes on threads).
    const { scratchMapped, scratchOrder, mapped, order, buckets } = this, [d0, d1, d2] = FLOAT32_ORDER_DIGITS;
    radixScatterPass(scratchMapped, d0[0], d0[1], count, buckets, scratchMapped, scratchOrder, mapped, order);
    radixScatterPass(mapped, d1[0], d1[1], count, buckets, mapped, order, scratchMapped, scratchOrder);
    radixScatterPass(scratchMapped, d2[0], d2[1], count, buckets, scratchMapped, scratchOrder, mapped, order);
  }

  /** The first step of `sort`: the mapped keys and the tags into the scratch arrays. */
  prepare(count: number, tags?: ArrayLike<number>): void {
    const keyBits = this.keyBits, mapped = this.scratchMapped, order = this.scratchOrder;
    for (let i = 0; i < count; i++) {
      const u = keyBits[i];
      mapped[i] = (u & 0x80000000) !== 0 ? ~u >>> 0 : (u | 0x80000000) >>> 0;
      order[i] = tags === undefined ? i : tags[i];
    }
  }

}

const passArrays: Uint32Array[] = [];

/**
 * Pass `pass` of `order`'s sort: its source keys and tags, then its destination keys and tags (an
 * array reused by the next call), from the scratch arrays to the results and back, so that the
 * last pass (of an odd count) ends in the results. For passes run apart (on several threads).
 */
export function float32OrderPass(order: Float32Order, pass: number): readonly Uint32Array[] {
  const even = pass % 2 === 0, a = passArrays;
  a[0] = even ? order.scratchMapped : order.mapped;
  a[1] = even ? order.scratchOrder : order.order;
  a[2] = even ? order.mapped : order.scratchMapped;
  a[3] = even ? order.order : order.scratchOrder;
  return a;
}
