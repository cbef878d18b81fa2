import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { writeHypot } from '../../src/hypot';

describe('writeHypot', () => {
  it('is Math.hypot to the bit', () => {
    const length = new Float64Array(1);
    // Any double (subnormals, huge, zero, infinite, NaN), and doubles of mixed scales.
    const any = fc.double();
    const scaled = fc.tuple(fc.double({ min: -1, max: 1, noNaN: true }), fc.integer({ min: -300, max: 300 })).map(([m, e]) => m * 2 ** e);
    const value = fc.oneof(any, scaled, fc.constantFrom(0, -0, 1, -1, Infinity, -Infinity, NaN, Number.MIN_VALUE, Number.MAX_VALUE));
    fc.assert(
      fc.property(value, value, value, (x, y, z) => {
        writeHypot(length, 0, [x, y, z], 0);
        expect(Object.is(length[0], Math.hypot(x, y, z))).toBe(true);
      }),
      { numRuns: 200_000 },
    );
  });
});
