/**
 * PartSplit: the bounds between a job's parts always cover [0, 1] in order, move towards equal
 * durations from measured ones, keep every part a minimum share, and stay put without a
 * measurement or when the parts were too short to measure.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { PartSplit } from '../../systems/parallel/partSplit';
import { mulberry32 } from '../../scenes/random';

function expectValid(split: PartSplit): void {
  const b = split.bounds;
  expect(b[0]).toBe(0);
  expect(b[split.parts]).toBe(1);
  for (let p = 0; p < split.parts; p++) expect(b[p + 1]).toBeGreaterThanOrEqual(b[p]);
}

describe('PartSplit', () => {
  it('starts even', () => {
    expect(Array.from(new PartSplit(4).bounds)).toEqual([0, 0.25, 0.5, 0.75, 1]);
  });

  it('converges to shares that equalise the parts\' durations, for any speeds', () => {
    fc.assert(fc.property(fc.integer({ min: 1, max: 8 }), fc.array(fc.double({ min: 0.5, max: 2, noNaN: true }), { minLength: 8, maxLength: 8 }), (parts, speeds) => {
      const split = new PartSplit(parts);
      const durations = new Float64Array(parts);
      for (let round = 0; round < 40; round++) {
        // A part's time: its share of 10 ms of work at its speed.
        for (let p = 0; p < parts; p++) durations[p] = (10 * (split.bounds[p + 1] - split.bounds[p])) / speeds[p];
        split.record(durations);
        split.rebalance();
        expectValid(split);
      }
      for (let p = 0; p < parts; p++) durations[p] = (10 * (split.bounds[p + 1] - split.bounds[p])) / speeds[p];
      const longest = Math.max(...durations), shortest = Math.min(...durations);
      expect(longest / shortest).toBeLessThan(1.001);
    }));
  });

  it('keeps each part near a quarter of an equal share at least, however slow it measures', () => {
    const split = new PartSplit(2);
    for (let round = 0; round < 50; round++) {
      split.record([1, 1000]);
      split.rebalance();
    }
    expectValid(split);
    // A quarter of an equal share (0.125), renormalised: the shares before clamping sum to 1, the clamp adds at most 0.125 per part.
    const slow = split.bounds[2] - split.bounds[1];
    expect(slow).toBeGreaterThanOrEqual(0.125 / 1.25);
    expect(slow).toBeLessThanOrEqual(0.125);
  });

  it('stays put without a new measurement, or with a part too short to measure', () => {
    const split = new PartSplit(3);
    split.record([1, 2, 3]);
    split.rebalance();
    const moved = Array.from(split.bounds);
    expect(moved).not.toEqual([0, 1 / 3, 2 / 3, 1]);
    split.rebalance();
    expect(Array.from(split.bounds)).toEqual(moved);
    split.record([1, 0.001, 3]);
    split.rebalance();
    expect(Array.from(split.bounds)).toEqual(moved);
    split.record([1, NaN, 3]);
    split.rebalance();
    expect(Array.from(split.bounds)).toEqual(moved);
  });

  it('scrambles into valid uneven bounds, some parts empty', () => {
    const rand = mulberry32(3);
    let empty = 0;
    for (let i = 0; i < 200; i++) {
      const split = new PartSplit(4);
      split.scramble(rand);
      expectValid(split);
      for (let p = 0; p < 4; p++) if (split.bounds[p + 1] === split.bounds[p]) empty++;
    }
    expect(empty).toBeGreaterThan(0);
  });
});
