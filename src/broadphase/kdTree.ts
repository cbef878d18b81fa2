/**
 * Kd-tree over box centres, rebuilt every frame: each node splits its proxies at the median
 * centre along the axis where the centres spread most, down to single proxies, and every node
 * keeps the bounds of its boxes (so boxes never straddle: a node's box grows instead). The
 * balanced result is stored as an `AabbTree` and pairs come from the same simultaneous descent as
 * the dynamic tree: dynamic proxies against themselves and against a separate static tree, which
 * is rebuilt only when the statics change.
 */
import { AabbTree, treePairs } from './aabbTree';
import type { BroadPhase, BroadPhaseInput } from './broadPhase';
import { grown } from './growable';
import { PairList } from './pairList';
import { selectByKey } from './sortByKey';
import { StaticSplit } from './staticSplit';

/** Creates a kd-tree broad phase: the dynamic tree rebuilt from scratch each frame, the static one when the statics change. */
export function createKdTree(): BroadPhase {
  const dynamic = new AabbTree();
  const statics = new AabbTree();
  const candidates = new PairList();
  const split = new StaticSplit();
  let order = new Int32Array(0); // proxy ids, permuted by the median splits
  let keys = new Float64Array(0);

  /** Builds the subtree over order[lo, hi) (non-empty) and returns its root node. */
  function build(tree: AabbTree, boxes: ArrayLike<number>, lo: number, hi: number): number {
    if (hi - lo === 1) return tree.createLeaf(order[lo], boxes, order[lo] * 6, 0);
    let axis = 0;
    let widest = -1;
    for (let k = 0; k < 3; k++) {
      let min = Infinity;
      let max = -Infinity;
      for (let i = lo; i < hi; i++) {
        const c = boxes[order[i] * 6 + k] + boxes[order[i] * 6 + 3 + k];
        if (c < min) min = c;
        if (c > max) max = c;
      }
      if (max - min > widest) {
        widest = max - min;
        axis = k;
      }
    }
    for (let i = lo; i < hi; i++) keys[i] = boxes[order[i] * 6 + axis] + boxes[order[i] * 6 + 3 + axis];
    const mid = (lo + hi) >>> 1;
    selectByKey(keys, order, lo, hi, mid);
    return tree.createParent(build(tree, boxes, lo, mid), build(tree, boxes, mid, hi));
  }

  /** Rebuilds `tree` over ids[0, n). */
  function rebuild(tree: AabbTree, boxes: ArrayLike<number>, ids: Int32Array, n: number): void {
    tree.reset();
    for (let i = 0; i < n; i++) order[i] = ids[i];
    if (n > 0) tree.root = build(tree, boxes, 0, n);
  }

  return {
    name: 'kdTree',
    findPairs(input: BroadPhaseInput, out: PairList): void {
      out.clear();
      order = grown(order, input.count);
      keys = grown(keys, input.count);
      if (split.update(input)) rebuild(statics, input.boxes, split.staticIds, split.staticCount);
      rebuild(dynamic, input.boxes, split.dynamicIds, split.dynamicCount);
      treePairs(input, dynamic, statics, candidates, out);
      out.sort();
    },
    clear(): void {
      dynamic.reset();
      statics.reset();
      split.reset();
    },
  };
}
