import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { Float32Order } from '../../src/broadphase/float32Order';

/** Stable ascending order of the keys' indices by a comparator sort, -0 before +0 (as their bits order them). */
function referenceOrder(keys: number[]): number[] {
  const negativeZero = (x: number) => (Object.is(x, -0) ? 0 : 1);
  return keys.map((_, i) => i).sort((i, j) => keys[i] - keys[j] || negativeZero(keys[i]) - negativeZero(keys[j]) || i - j);
}

describe('Float32Order', () => {
  it('orders Float32 keys like a stable comparator sort: negatives, zeros of both signs, subnormals, infinities, ties', () => {
    const sorter = new Float32Order();
    const key = fc.oneof(
      fc.float({ noNaN: true }),
      fc.constantFrom(0, -0, Infinity, -Infinity, 1.4e-45, -1.4e-45, 3.4028234663852886e38),
      fc.integer({ min: -3, max: 3 }),
    );
    fc.assert(
      fc.property(fc.array(key, { maxLength: 3000 }), (raw) => {
        sorter.reserve(raw.length);
        for (let i = 0; i < raw.length; i++) sorter.keys[i] = raw[i];
        const keys = Array.from(sorter.keys.subarray(0, raw.length));
        sorter.sort(raw.length);
        const got = Array.from(sorter.order.subarray(0, raw.length));
        expect(got).toEqual(referenceOrder(keys));
        expect(Array.from(sorter.keys.subarray(0, raw.length))).toEqual(keys);
      }),
      { numRuns: 200 },
    );
  });

  it('returns the given tags in key order, and reuses its storage', () => {
    const sorter = new Float32Order();
    sorter.reserve(4);
    sorter.keys.set([3, -1, 2, -1]);
    sorter.sort(4, [30, 10, 20, 11]);
    expect(Array.from(sorter.order.subarray(0, 4))).toEqual([10, 11, 20, 30]);
    const storage = sorter.keys;
    sorter.reserve(4);
    expect(sorter.keys).toBe(storage);
  });
});
