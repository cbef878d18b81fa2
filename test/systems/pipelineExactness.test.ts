import { describe, expect, it } from 'vitest';
import { checkPipelineExactness, EXACTNESS_BROAD_PHASES } from '../../scripts/pipelineExactness';

describe('pipeline exactness on the benchmark scene', () => {
  it('every broad phase + narrow phase equals the brute-force SAT reference, across runs and creation orders', () => {
    const r = checkPipelineExactness({ count: 2000, frames: 30 });
    expect(r.mismatches).toEqual([]);
    // The scene must exercise what is claimed: many overlapping pairs and exactly touching frames.
    expect(r.pairFrames).toBeGreaterThan(1000);
    expect(r.exactTouchPairFrames).toBeGreaterThanOrEqual(30);
    expect(r.touchingFrames).toBe(30);
    expect(EXACTNESS_BROAD_PHASES.length).toBeGreaterThanOrEqual(6);
  }, 60_000);

  it('with worker threads every broad phase gives the one-thread pairs, frame by frame', () => {
    const r = checkPipelineExactness({ count: 2000, frames: 20, workers: [1, 3] });
    expect(r.mismatches).toEqual([]);
    expect(r.pairFrames).toBeGreaterThan(1000);
  }, 120_000);
});
