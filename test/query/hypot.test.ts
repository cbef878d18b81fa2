import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { hypot3 } from '../../src/hypot';

describe('hypot3', () => {
  it('is Math.hypot to the bit', () => {
    // Any double (subnormals, huge, zero, infinite, NaN), and doubles of mixed scales.
    const any = fc.double();
    const scaled = fc.tuple(fc.double({ min: -1, max: 1, noNaN: true }), fc.integer({ min: -300, max: 300 })).map(([m, e]) => m * 2 ** e);
    const value = fc.oneof(any, scaled, fc.constantFrom(0, -0, 1, -1, Infinity, -Infinity, NaN, Number.MIN_VALUE, Number.MAX_VALUE));
    fc.assert(
      fc.property(value, value, value, (x, y, z) => {
        expect(Object.is(hypot3(x, y, z), Math.hypot(x, y, z))).toBe(true);
      }),
      { numRuns: 200_000 },
    );
  });
});
