/**
 * Kd-tree over box centres, rebuilt every frame: each node splits its proxies at the median
 * centre along the axis where the centres spread most, down to single proxies, and every node
 * keeps the bounds of its boxes (so boxes never straddle: a node's box grows instead). The
 * balanced result is stored as an `AabbTree` and pairs come from the same simultaneous descent as
 * the dynamic tree: dynamic proxies against themselves and against a separate static tree.
 */
import { AabbTree, treePairs } from './aabbTree';
import type { BroadPhase, BroadPhaseInput } from './broadPhase';
import { grown } from './growable';
import { PairList } from './pairList';
import { selectByKey } from './sortByKey';

/** Creates a kd-tree broad phase rebuilt from scratch each frame (stateless between frames). */
export function createKdTree(): BroadPhase {
  const dynamic = new AabbTree();
  const statics = new AabbTree();
  const candidates = new PairList();
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

  /** Rebuilds `tree` over the input proxies whose static flag equals `wantStatic`. */
  function rebuild(tree: AabbTree, input: BroadPhaseInput, wantStatic: boolean): void {
    tree.reset();
    let n = 0;
    for (let i = 0; i < input.count; i++) {
      const id = input.ids[i];
      if ((input.isStatic[id] === 1) === wantStatic) order[n++] = id;
    }
    if (n > 0) tree.root = build(tree, input.boxes, 0, n);
  }

  return {
    name: 'kdTree',
    findPairs(input: BroadPhaseInput, out: PairList): void {
      out.clear();
      order = grown(order, input.count);
      keys = grown(keys, input.count);
      rebuild(dynamic, input, false);
      rebuild(statics, input, true);
      treePairs(input, dynamic, statics, candidates, out);
      out.sort();
    },
    clear(): void {
      dynamic.reset();
      statics.reset();
    },
  };
}
