import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { PairList } from '../../src/broadphase/pairList';
import { mergeSortedPairs } from '../../src/broadphase/splitGrid';

const ID_LIMIT = 2 ** 24;

describe('PairList', () => {
  it('sorts by (a, b) like a comparator sort, across the insertion/radix threshold and the whole 24-bit range', () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.nat({ max: ID_LIMIT - 1 }), fc.nat({ max: ID_LIMIT - 1 })), { maxLength: 400 }),
        fc.boolean(),
        (pairs, smallIds) => {
          const list = new PairList(1);
          const input = pairs.map(([a, b]) => (smallIds ? [a % 5000, b % 37] : [a, b]));
          for (const [a, b] of input) list.push(a, b);
          list.sort();
          const expected = input.map(([a, b]) => a * ID_LIMIT + b).sort((x, y) => x - y);
          const got = Array.from({ length: list.count }, (_, i) => list.a[i] * ID_LIMIT + list.b[i]);
          expect(got).toEqual(expected);
          expect(list.count).toBe(input.length);
        },
      ),
      { numRuns: 300 },
    );
  });

  it('merges a sorted run of other pairs into its sorted pairs, like sorting the union', () => {
    const pair = fc.tuple(fc.nat({ max: ID_LIMIT - 1 }), fc.nat({ max: ID_LIMIT - 1 }));
    const smallPair = fc.tuple(fc.nat({ max: 6 }), fc.nat({ max: 6 }));
    fc.assert(
      fc.property(fc.uniqueArray(fc.oneof(pair, smallPair), { selector: ([a, b]) => a * ID_LIMIT + b, maxLength: 300 }), fc.nat(), fc.nat({ max: 5 }), (pairs, cut, offset) => {
        const at = pairs.length === 0 ? 0 : cut % (pairs.length + 1);
        const list = new PairList(1), run = new PairList(1);
        for (const [a, b] of pairs.slice(0, at)) list.push(a, b);
        // The run sits at an offset in its arrays, after pairs the merge must not read.
        for (let i = 0; i < offset; i++) run.push(0, 0);
        const rest = new PairList(1);
        for (const [a, b] of pairs.slice(at)) rest.push(a, b);
        list.sort();
        rest.sort();
        for (let i = 0; i < rest.count; i++) run.push(rest.a[i], rest.b[i]);
        mergeSortedPairs(list, new PairList(1), run.a, run.b, offset, run.count);
        const expected = pairs.map(([a, b]) => a * ID_LIMIT + b).sort((x, y) => x - y);
        expect(Array.from({ length: list.count }, (_, i) => list.a[i] * ID_LIMIT + list.b[i])).toEqual(expected);
        // Still a working list: pushes after a merge append.
        list.push(1, 2);
        expect([list.a[list.count - 1], list.b[list.count - 1]]).toEqual([1, 2]);
      }),
      { numRuns: 300 },
    );
  });

  it('sorts large lists, whose digits widen up to 16 bits, for ids of every width', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 24 }), fc.integer({ min: 49, max: 40000 }), fc.integer(), (idBits, count, seed) => {
        let s = seed | 0;
        const next = () => (s = (Math.imul(s, 1664525) + 1013904223) | 0) >>> (32 - idBits);
        const list = new PairList(1);
        const expected: number[] = [];
        for (let i = 0; i < count; i++) {
          const a = next(), b = next();
          list.push(a, b);
          expected.push(a * ID_LIMIT + b);
        }
        list.sort();
        expected.sort((x, y) => x - y);
        let mismatches = 0;
        for (let i = 0; i < count; i++) if (list.a[i] * ID_LIMIT + list.b[i] !== expected[i]) mismatches++;
        expect(mismatches).toBe(0);
      }),
      { numRuns: 40 },
    );
  });

  it('keeps its storage across clear() and grows by doubling', () => {
    const list = new PairList(4);
    for (let i = 0; i < 5; i++) list.push(i, i + 1);
    expect(list.a.length).toBe(16);
    const storage = list.a;
    list.clear();
    expect(list.count).toBe(0);
    for (let i = 0; i < 16; i++) list.push(i, 2 * i);
    expect(list.a).toBe(storage);
    expect([list.a[15], list.b[15]]).toEqual([15, 30]);
  });
});
