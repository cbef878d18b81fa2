/**
 * Octree with straddling lists, rebuilt every frame. Starting from a cube around all boxes, each
 * node keeps the boxes that touch or cross one of its three split planes and hands the others to
 * the octant that strictly contains them. Two boxes in different octants of a common ancestor are
 * strictly separated by that ancestor's plane, so pairs only occur within a node or between a node
 * and its ancestors. The descent carries the ancestors' boxes that overlap the current cell (the
 * only ones that can meet anything inside it) and tests each node's own boxes against them and
 * against each other. The tree is never stored: build and search are one recursive pass that
 * permutes the proxies in place. It holds the dynamic proxies only: the statics live in an AABB
 * tree of their own (SAH insertion, rebuilt only when they change), which each dynamic box
 * queries, so two statics are never tested against each other.
 */
import { CollideInputError, assertOptions } from '../errors';
import { aabbOverlap } from '../volumes/aabb';
import { AabbTree } from './aabbTree';
import { reportPair, type BroadPhase, type BroadPhaseInput } from './broadPhase';
import { grown } from './growable';
import type { PairList } from './pairList';
import { StaticSplit } from './staticSplit';

/** Options of `createOctree`. */
export interface OctreeOptions {
  /** Nodes with at most this many boxes are not split (default 8). */
  leafSize?: number;
  /** Depth limit (default 12): identical or clustered boxes stop splitting there. */
  maxDepth?: number;
}

/** Octant code of a box that touches or crosses a split plane: it stays in the node. */
const STRADDLES = 8;
const BUCKETS = 9;

/** Creates an octree broad phase rebuilt from scratch each frame (its static tree, when the statics change). */
export function createOctree(options: OctreeOptions = {}): BroadPhase {
  assertOptions(options, ['leafSize', 'maxDepth'], 'createOctree');
  const leafSize = options.leafSize ?? 8;
  const maxDepth = options.maxDepth ?? 12;
  if (!(leafSize >= 1)) throw new CollideInputError(`createOctree: leafSize must be >= 1, got ${leafSize}`);
  if (!(Number.isInteger(maxDepth) && maxDepth >= 0)) throw new CollideInputError(`createOctree: maxDepth must be a non-negative integer, got ${maxDepth}`);

  let items = new Int32Array(0); // proxy ids, grouped node by node as the descent partitions them
  let scratch = new Int32Array(0);
  let codes = new Uint8Array(0);
  let active = new Int32Array(0); // stack of ancestor boxes overlapping the current cell, per level
  const bucketStart = new Int32Array(BUCKETS + 1);
  // Per depth: octant ranges of the node being visited at that depth (the recursion reuses them).
  const ranges = new Int32Array((maxDepth + 1) * (BUCKETS + 1));
  const cell = new Float64Array((maxDepth + 2) * 6); // per depth: the node's cell, min-max
  const split = new StaticSplit();
  const statics = new AabbTree();

  /** Rebuilds the static tree over this frame's statics (exact leaf boxes: no margin). */
  function rebuildStatics(boxes: ArrayLike<number>): void {
    statics.reset();
    for (let i = 0; i < split.staticCount; i++) statics.insert(split.staticIds[i], boxes, split.staticIds[i] * 6, 0);
  }

  /** Pairs of every dynamic box with the statics whose (exact) leaf boxes it overlaps. */
  function staticPairs(input: BroadPhaseInput, out: PairList): void {
    for (let i = 0; i < split.dynamicCount; i++) {
      const a = split.dynamicIds[i];
      const hits = statics.query(input.boxes, a * 6);
      for (let k = 0; k < hits; k++) reportPair(input, out, a, statics.hits[k]);
    }
  }

  /** Sorts items[lo, hi) by octant code (straddlers last) with a counting sort; fills ranges for `depth`. */
  function partition(boxes: ArrayLike<number>, lo: number, hi: number, depth: number): void {
    const c = depth * 6;
    bucketStart.fill(0);
    for (let i = lo; i < hi; i++) {
      const o = items[i] * 6;
      let code = 0;
      for (let k = 0; k < 3; k++) {
        const split = (cell[c + k] + cell[c + 3 + k]) / 2;
        if (boxes[o + 3 + k] < split) continue;
        if (boxes[o + k] > split) code |= 1 << k;
        else {
          code = STRADDLES;
          break;
        }
      }
      codes[i] = code;
      bucketStart[code + 1]++;
    }
    const r = depth * (BUCKETS + 1);
    ranges[r] = lo;
    for (let b = 0; b < BUCKETS; b++) {
      bucketStart[b + 1] += bucketStart[b];
      ranges[r + b + 1] = lo + bucketStart[b + 1];
    }
    for (let i = lo; i < hi; i++) scratch[lo + bucketStart[codes[i]]++] = items[i];
    for (let i = lo; i < hi; i++) items[i] = scratch[i];
  }

  /** Tests items[lo, hi) against each other and against active[activeLo, activeHi). */
  function testOwn(input: BroadPhaseInput, out: PairList, lo: number, hi: number, activeLo: number, activeHi: number): void {
    const boxes = input.boxes;
    for (let i = lo; i < hi; i++) {
      const a = items[i];
      for (let j = i + 1; j < hi; j++) {
        if (aabbOverlap(boxes, a * 6, boxes, items[j] * 6)) reportPair(input, out, a, items[j]);
      }
      for (let j = activeLo; j < activeHi; j++) {
        if (aabbOverlap(boxes, a * 6, boxes, active[j] * 6)) reportPair(input, out, a, active[j]);
      }
    }
  }

  /** Appends to the active stack the ids of `from[lo, hi)` whose boxes touch the cell at depth d; returns the new top. */
  function keepTouching(boxes: ArrayLike<number>, from: Int32Array, lo: number, hi: number, d: number, top: number): number {
    for (let i = lo; i < hi; i++) {
      const id = from[i];
      if (aabbOverlap(boxes, id * 6, cell, d * 6)) active[top++] = id;
    }
    return top;
  }

  function visit(input: BroadPhaseInput, out: PairList, lo: number, hi: number, depth: number, activeLo: number, activeHi: number): void {
    if (hi - lo <= leafSize || depth === maxDepth) {
      testOwn(input, out, lo, hi, activeLo, activeHi);
      return;
    }
    const boxes = input.boxes;
    partition(boxes, lo, hi, depth);
    const r = depth * (BUCKETS + 1);
    const ownLo = ranges[r + STRADDLES];
    testOwn(input, out, ownLo, hi, activeLo, activeHi);
    const c = depth * 6;
    const d = (depth + 1) * 6;
    for (let octant = 0; octant < STRADDLES; octant++) {
      const childLo = ranges[r + octant];
      const childHi = ranges[r + octant + 1];
      if (childLo === childHi) continue;
      for (let k = 0; k < 3; k++) {
        const split = (cell[c + k] + cell[c + 3 + k]) / 2;
        const high = (octant >> k) & 1;
        cell[d + k] = high ? split : cell[c + k];
        cell[d + 3 + k] = high ? cell[c + 3 + k] : split;
      }
      // Ancestors and this node's own boxes that can still meet something in the child.
      active = grown(active, activeHi + (activeHi - activeLo) + (hi - ownLo));
      let top = keepTouching(boxes, active, activeLo, activeHi, depth + 1, activeHi);
      top = keepTouching(boxes, items, ownLo, hi, depth + 1, top);
      visit(input, out, childLo, childHi, depth + 1, activeHi, top);
    }
  }

  return {
    name: 'octree',
    findPairs(input: BroadPhaseInput, out: PairList): void {
      out.clear();
      const boxes = input.boxes;
      if (split.update(input)) rebuildStatics(boxes);
      const ids = split.dynamicIds, count = split.dynamicCount;
      if (split.staticCount > 0) staticPairs(input, out);
      if (count === 0) {
        out.sort();
        return;
      }
      items = grown(items, count);
      scratch = grown(scratch, count);
      codes = grown(codes, count);
      active = grown(active, count);
      // Root cell: the cube on the boxes' bounds, so splits are at the same fractions on each axis.
      let size = 0;
      for (let k = 0; k < 3; k++) {
        let min = Infinity;
        let max = -Infinity;
        for (let i = 0; i < count; i++) {
          min = Math.min(min, boxes[ids[i] * 6 + k]);
          max = Math.max(max, boxes[ids[i] * 6 + 3 + k]);
        }
        cell[k] = min;
        cell[3 + k] = max;
        size = Math.max(size, max - min);
      }
      // max() guards against min + size rounding below the largest max: boxes must lie in their cells.
      for (let k = 0; k < 3; k++) cell[3 + k] = Math.max(cell[3 + k], cell[k] + size);
      for (let i = 0; i < count; i++) items[i] = ids[i];
      visit(input, out, 0, count, 0, 0, 0);
      out.sort();
    },
    clear(): void {
      // The octree is rebuilt every frame; the static tree when the statics change.
      split.reset();
      statics.reset();
    },
  };
}
