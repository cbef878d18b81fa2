/**
 * Brute force: every pair of proxies tested, O(n^2). The reference the other algorithms are
 * tested against, and the fastest choice for a few dozen proxies.
 */
import { aabbOverlap } from '../volumes/aabb';
import { reportPair, type BroadPhase, type BroadPhaseInput } from './broadPhase';
import type { PairList } from './pairList';

/** Creates the all-pairs broad phase (stateless). */
export function createBruteForce(): BroadPhase {
  return {
    name: 'bruteForce',
    findPairs(input: BroadPhaseInput, out: PairList): void {
      out.clear();
      const { ids, count, boxes } = input;
      for (let i = 0; i < count; i++) {
        const a = ids[i];
        for (let j = i + 1; j < count; j++) {
          const b = ids[j];
          if (aabbOverlap(boxes, a * 6, boxes, b * 6)) reportPair(input, out, a, b);
        }
      }
      out.sort();
    },
    clear(): void {},
  };
}
