/**
 * Merging the parts of a column grid built in parts (on several threads, see ScanSplitter): their
 * level counts, their bucket counts, their sorted pairs. Apart from the grid itself, so that a
 * program that never splits the grid does not bundle them.
 */
import { grown } from './growable';
import { MAX_PROXY_ID, type PairList } from './pairList';
import type { ColumnGrid } from './spatialHash';

/**
 * After parts of a split classification each ran classifyRange into their own `stride`-long
 * slices of `levelBoxes` and `levelWidthX` (from zeroes): adds their counts and takes the widest
 * per level into the grid's, as one part would find them.
 */
export function mergeGridLevels(grid: ColumnGrid, levelBoxes: Int32Array, levelWidthX: Float64Array, stride: number, parts: number): void {
  const boxes = grid.levelBoxes, widths = grid.levelWidthX;
  for (let part = 0; part < parts; part++) {
    for (let level = 0; level < boxes.length; level++) {
      boxes[level] += levelBoxes[part * stride + level];
      if (levelWidthX[part * stride + level] > widths[level]) widths[level] = levelWidthX[part * stride + level];
    }
  }
}

/**
 * After the parts of a split fill each counted the entries of their run of boxes into their
 * `counts` (fillBuckets pass 0 from zeroes), turns each part's counts into its first entry per
 * bucket, after the entries of the parts before it (so a bucket lists its entries in box order,
 * as one part would), and sets the grid's bucket ends. Then each part runs pass 1.
 */
export function mergeGridCounts(grid: ColumnGrid, counts: readonly Int32Array[], parts: number): void {
  const ends = grid.bucketStart;
  let next = 0;
  for (let h = 0; h < grid.slots; h++) {
    for (let part = 0; part < parts; part++) {
      const c = counts[part];
      const n = c[h + 1];
      c[h] = next;
      next += n;
    }
    ends[h] = next;
  }
}

/**
 * Sorts the pairs of `list` from `sorted` on and merges them into those before (sorted already):
 * the two lists are scratch storage.
 */
export function sortPairsAfter(list: PairList, sorted: number, tail: PairList, merged: PairList): void {
  tail.clear();
  for (let i = sorted; i < list.count; i++) tail.push(list.a[i], list.b[i]);
  tail.sort();
  list.count = sorted;
  mergeSortedPairs(list, merged, tail.a, tail.b, 0, tail.count);
}

/**
 * Merges the pairs (a[i], b[i]) for i in [from, to), sorted ascending by (a, b) and none already
 * in `list`, into `list`, sorted likewise: linear, where sorting the union would not be. `scratch`
 * receives the merge and exchanges contents with `list`.
 */
export function mergeSortedPairs(list: PairList, scratch: PairList, a: ArrayLike<number>, b: ArrayLike<number>, from: number, to: number): void {
  const n = list.count, total = n + to - from;
  if (total === n) return;
  scratch.a = grown(scratch.a, total);
  scratch.b = grown(scratch.b, total);
  const ownA = list.a, ownB = list.b, outA = scratch.a, outB = scratch.b;
  // Ids are below 2^24: a pair's key a * 2^24 + b is an exact double, one comparison per step.
  let i = 0, j = from, k = 0;
  while (i < n && j < to) {
    if (ownA[i] * MAX_PROXY_ID + ownB[i] < a[j] * MAX_PROXY_ID + b[j]) {
      outA[k] = ownA[i];
      outB[k++] = ownB[i++];
    } else {
      outA[k] = a[j];
      outB[k++] = b[j++];
    }
  }
  for (; i < n; i++, k++) {
    outA[k] = ownA[i];
    outB[k] = ownB[i];
  }
  for (; j < to; j++, k++) {
    outA[k] = a[j];
    outB[k] = b[j];
  }
  scratch.count = total;
  list.swapContents(scratch);
}
