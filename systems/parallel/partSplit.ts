/**
 * Where a job's items are split between its parts, moved from frame to frame so that the parts
 * end together. Equal runs of items do not take equal times: the calling thread's part reads
 * memory it has just written (still in its core's cache), and a worker's does not, so we measured
 * a worker's equal part of the narrow phase taking 1.35 times as long as the calling thread's at
 * 100,000 bodies, which then waited for it. The results do not depend on the split: every part
 * writes only its own items' results, merged in item order.
 */

/** Parts' durations below this (ms) are too short to say which part is faster: the split stays. */
const MIN_MEASURED_MS = 0.05;
/** How far the split moves towards the measured balance each time (1: all the way). */
const REBALANCE_STEP = 0.5;
/** No part gets less than this fraction of an equal share: its speed stays measurable. */
const MIN_SHARE_OF_EQUAL = 0.25;

export class PartSplit {
  /** Part p covers the fractions [bounds[p], bounds[p + 1]) of the items; bounds[0] = 0, bounds[parts] = 1. */
  readonly bounds: Float64Array;
  /** How long each part took in the last run, ms. */
  private readonly durations: Float64Array;
  private measured = false;
  private readonly shares: Float64Array;

  constructor(readonly parts: number) {
    this.bounds = new Float64Array(parts + 1);
    this.durations = new Float64Array(parts);
    this.shares = new Float64Array(parts);
    for (let p = 0; p <= parts; p++) this.bounds[p] = p / parts;
    this.bounds[parts] = 1;
  }

  /** Records the parts' durations of a run with the current bounds. */
  record(durations: ArrayLike<number>): void {
    for (let p = 0; p < this.parts; p++) this.durations[p] = durations[p];
    this.measured = true;
  }

  /** @internal Tests: uneven bounds drawn with `rand` (a part may be empty), kept until a run is recorded. */
  scramble(rand: () => number): void {
    const { parts, bounds } = this;
    for (let p = 1; p < parts; p++) bounds[p] = rand() < 0.1 ? bounds[p - 1] : bounds[p - 1] + rand() * (1 - bounds[p - 1]);
    bounds[parts] = 1;
    this.measured = false;
  }

  /**
   * Moves the bounds towards shares proportional to each part's measured speed (items per ms),
   * from the last recorded run; does nothing when no run was recorded since, or when a part took
   * too short a time to measure.
   */
  rebalance(): void {
    if (!this.measured) return;
    this.measured = false;
    const { parts, bounds, durations, shares } = this;
    let speeds = 0;
    for (let p = 0; p < parts; p++) {
      if (!(durations[p] >= MIN_MEASURED_MS && Number.isFinite(durations[p]))) return;
      shares[p] = bounds[p + 1] - bounds[p];
      speeds += shares[p] / durations[p];
    }
    const least = MIN_SHARE_OF_EQUAL / parts;
    let total = 0;
    for (let p = 0; p < parts; p++) {
      const balanced = shares[p] / durations[p] / speeds;
      shares[p] = Math.max(least, shares[p] + REBALANCE_STEP * (balanced - shares[p]));
      total += shares[p];
    }
    let at = 0;
    for (let p = 0; p < parts; p++) {
      bounds[p] = at / total;
      at += shares[p];
    }
    bounds[0] = 0;
    bounds[parts] = 1;
  }
}
