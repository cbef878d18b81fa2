import { OBB_STRIDE } from '../layout';
import { boxSize, grow, toParentFrame, writeNodes, type Builder, type NodeArrays, type TreeNodes, type TriangleArrays } from './build';

/**
 * A tree build split between threads, with the tree of one thread to the bit. The calling thread
 * fits and splits the top nodes (`splitTop`) until the runs of triangles left under them, the
 * subtrees, share out evenly between the threads; the threads claim the subtrees one by one,
 * largest first, grow each with the single-thread code (`growSubtrees`) into a slice of the node
 * arrays reserved for it (a subtree over c triangles has at most 2c - 1 nodes) and write its
 * nodes in their parents' frames; the calling thread then numbers the nodes as one thread's
 * depth-first build does and copies them into place, a subtree's nodes below its root as one
 * block (`assemble`).
 *
 * A node's fit and split read only its own run of triangles, which only its ancestors' splits
 * reorder, so the order in which nodes are built changes nothing but their numbers. One thread's
 * build numbers a node's children when it splits it and finishes the left subtree before the
 * right, so the nodes below a node are one block, numbered within it as a build of that subtree
 * alone numbers them (from 1, after its root): a subtree's nodes move by one offset.
 */

/** Numbers per subtree in a plan: first triangle, triangle count, first reserved node; then, written by its build, its node count and depth. */
export const PLAN_STRIDE = 5;
const PLAN_FIRST = 0;
const PLAN_COUNT = 1;
const PLAN_SLOT = 2;
const PLAN_NODES = 3;
const PLAN_DEPTH = 4;

/** Most subtrees per thread: enough to even out the threads' shares of uneven splits. */
export const SUBTREES_PER_PART = 4;
/** A split is even enough once the busiest thread's share is within this fraction above the mean. */
const PART_IMBALANCE = 0.1;

/** Mark in SplitBuild's `left` of a top node grown as a subtree. */
const TOP_SUBTREE = -1;

/**
 * The top of a split build: the nodes the calling thread fitted and split, and the subtrees below
 * them. Kept between builds (its arrays are small).
 */
export class SplitBuild {
  /** Top nodes: first triangle, triangle count, left child (the right is left + 1) or TOP_SUBTREE, subtree index. */
  private first = new Int32Array(0);
  private count = new Int32Array(0);
  private left = new Int32Array(0);
  private subtree = new Int32Array(0);
  /** Absolute volumes of the fitted top nodes. */
  private boxes = new Float64Array(0);
  private topCount = 0;
  /** Top nodes not split (yet): the subtrees. */
  private open: number[] = [];
  private readonly loads: number[] = [];
  private readonly stack: number[] = [];

  /**
   * Fits and splits the top nodes of a build of `triangleCount` triangles with `builder` (its
   * triangles prepared and warmed up), writes into `plan` the subtrees left for `parts` threads,
   * largest first, each with its triangles and the first node of its reserved slice of the node
   * arrays, and returns their count. `plan` holds PLAN_STRIDE * SUBTREES_PER_PART * parts numbers.
   */
  splitTop(builder: Builder, triangleCount: number, maxLeaf: number, parts: number, plan: Int32Array): number {
    const maxSubtrees = SUBTREES_PER_PART * parts;
    this.reserve(2 * maxSubtrees + 1);
    builder.begin(this.boxes);
    this.topCount = 1;
    this.first[0] = 0;
    this.count[0] = triangleCount;
    this.open = [0];
    for (;;) {
      const open = this.open;
      open.sort((a, b) => this.count[b] - this.count[a] || a - b);
      if (open.length >= maxSubtrees || this.makespan(parts, maxLeaf) <= (1 + PART_IMBALANCE) * this.meanLoad(parts, maxLeaf)) break;
      const node = open[0], first = this.first[node], count = this.count[node];
      if (count <= maxLeaf) break;
      open.shift();
      builder.fit(node, first, count);
      const split = builder.split(node, first, count);
      const l = this.topCount;
      this.topCount += 2;
      this.left[node] = l;
      this.first[l] = first;
      this.count[l] = split;
      this.first[l + 1] = first + split;
      this.count[l + 1] = count - split;
      open.push(l, l + 1);
    }
    return this.record(plan);
  }

  /**
   * Writes the tree's nodes into `out` (sized by nodeCount) in one thread's numbering: the top
   * nodes, and the subtrees grown into `grown` at their slots with their nodes already in their
   * parents' frames in `framed` (growSubtrees); returns the tree's depth.
   */
  assemble(out: TreeNodes, grown: NodeArrays, framed: FramedNodes, plan: Int32Array): number {
    const stack = this.stack;
    stack.length = 0;
    // The root as it is; every other node is written in its parent's frame by its parent.
    const rootBoxes = this.left[0] === TOP_SUBTREE ? grown.boxes : this.boxes, root = this.boxIndex(0, plan);
    for (let k = 0; k < OBB_STRIDE; k++) out.nodes[k] = rootBoxes[OBB_STRIDE * root + k];
    // Entries: top node, its number in the tree, its level.
    stack.push(0, 0, 0);
    let next = 1, depth = 0;
    while (stack.length > 0) {
      const level = stack.pop()!, at = stack.pop()!, node = stack.pop()!;
      const left = this.left[node];
      if (left === TOP_SUBTREE) {
        const e = PLAN_STRIDE * this.subtree[node];
        const nodes = plan[e + PLAN_NODES];
        placeSubtree(out, at, next, grown, framed, plan[e + PLAN_SLOT], nodes);
        next += nodes - 1;
        depth = Math.max(depth, level + plan[e + PLAN_DEPTH]);
        continue;
      }
      out.sizes[at] = boxSize(this.boxes, node);
      out.firstTriangle[at] = this.first[node];
      out.nodeTriangleCount[at] = this.count[node];
      out.children[at] = next;
      for (let side = 0; side < 2; side++) {
        const child = left + side;
        toParentFrame(out.nodes, next + side, this.boxes, node, this.left[child] === TOP_SUBTREE ? grown.boxes : this.boxes, this.boxIndex(child, plan));
      }
      depth = Math.max(depth, level + 1);
      // Left on top of the stack, as in grow.
      stack.push(left + 1, next + 1, level + 1, left, next, level + 1);
      next += 2;
    }
    return depth;
  }

  /** Where top node `node`'s absolute box is: its index in `boxes`, or for a subtree its root's in the grown nodes. */
  private boxIndex(node: number, plan: Int32Array): number {
    return this.left[node] === TOP_SUBTREE ? plan[PLAN_STRIDE * this.subtree[node] + PLAN_SLOT] : node;
  }

  /** Nodes of the assembled tree, once the subtrees are grown. */
  nodeCount(plan: Int32Array): number {
    let n = this.topCount;
    for (let i = 0; i < this.open.length; i++) n += plan[PLAN_STRIDE * i + PLAN_NODES] - 1;
    return n;
  }

  private reserve(nodes: number): void {
    if (this.first.length >= nodes) return;
    this.first = new Int32Array(nodes);
    this.count = new Int32Array(nodes);
    this.left = new Int32Array(nodes);
    this.subtree = new Int32Array(nodes);
    this.boxes = new Float64Array(OBB_STRIDE * nodes);
  }

  /** Rough work of growing a subtree: its triangles times the levels they pass. */
  private work(node: number, maxLeaf: number): number {
    const c = this.count[node];
    return c * Math.log2(Math.max(2, c / maxLeaf));
  }

  private meanLoad(parts: number, maxLeaf: number): number {
    let total = 0;
    for (const node of this.open) total += this.work(node, maxLeaf);
    return total / parts;
  }

  /** Largest part's load when the open nodes (largest first) go each to the least loaded part, as the threads claim them. */
  private makespan(parts: number, maxLeaf: number): number {
    const loads = this.loads;
    loads.length = 0;
    for (let p = 0; p < parts; p++) loads.push(0);
    for (const node of this.open) {
      let best = 0;
      for (let p = 1; p < parts; p++) if (loads[p] < loads[best]) best = p;
      loads[best] += this.work(node, maxLeaf);
    }
    let max = 0;
    for (const load of loads) max = Math.max(max, load);
    return max;
  }

  /** Marks the open nodes (largest first) as subtrees and writes them into the plan, each with its reserved slice; returns their count. */
  private record(plan: Int32Array): number {
    const open = this.open;
    let slot = 0;
    for (let i = 0; i < open.length; i++) {
      const node = open[i], e = PLAN_STRIDE * i;
      this.left[node] = TOP_SUBTREE;
      this.subtree[node] = i;
      plan[e + PLAN_FIRST] = this.first[node];
      plan[e + PLAN_COUNT] = this.count[node];
      plan[e + PLAN_SLOT] = slot;
      slot += 2 * this.count[node] - 1;
    }
    return open.length;
  }
}

/** Grown subtrees' nodes in their parents' frames and their half-diagonals, at the nodes' slots (a subtree's root's volume is left to `assemble`). */
export interface FramedNodes {
  nodes: Float64Array;
  sizes: Float64Array;
}

/**
 * Grows subtrees of `plan` (`count` of them) with `builder` into their reserved slices of
 * `grown`, recording each one's node count and depth, writes their nodes in their parents'
 * frames into `framed` and places their triangles (Builder.placeTriangles: the subtrees' runs
 * cover the mesh); the threads of a build claim the subtrees one at a time through claim[0]
 * (Atomics), so a thread that starts late finds the others' work done. `pending` and
 * `levels` hold a triangle count plus one. Warms the builder up on the first claimed subtree
 * (Builder.warmUp). With `shared`, the builder has arrays of its own (a thread's WebAssembly arena):
 * each subtree's run is borrowed from `shared` before it grows and returned after.
 */
export function growSubtrees(builder: Builder, grown: NodeArrays, framed: FramedNodes, plan: Int32Array, count: number, claim: Int32Array, maxLeaf: number, pending: Int32Array, levels: Int32Array, shared: TriangleArrays | null = null): void {
  for (let i = Atomics.add(claim, 0, 1), warm = false; i < count; i = Atomics.add(claim, 0, 1)) {
    const e = PLAN_STRIDE * i, first = plan[e + PLAN_FIRST], triangles = plan[e + PLAN_COUNT], slot = plan[e + PLAN_SLOT];
    if (shared !== null) builder.borrowRun(shared, first, triangles);
    if (!warm) builder.warmUp(first, triangles);
    warm = true;
    const end = slot + 2 * triangles - 1;
    const view: NodeArrays = {
      boxes: grown.boxes.subarray(OBB_STRIDE * slot, OBB_STRIDE * end),
      children: grown.children.subarray(slot, end),
      firstTriangle: grown.firstTriangle.subarray(slot, end),
      nodeTriangleCount: grown.nodeTriangleCount.subarray(slot, end),
    };
    const nodes = grow(builder, view, pending, levels, first, triangles, maxLeaf);
    builder.placeTriangles(first, triangles);
    if (shared !== null) builder.returnRun(shared, first, triangles);
    writeNodes(framed.nodes.subarray(OBB_STRIDE * slot, OBB_STRIDE * end), framed.sizes.subarray(slot, end), view.boxes, view.children, nodes);
    plan[e + PLAN_NODES] = nodes;
    plan[e + PLAN_DEPTH] = builder.depth;
  }
}

/**
 * Places the `nodes` nodes of a subtree grown at node `slot` into `out`: its root as node `root`
 * (its volume written by its parent), its node k >= 1 as node next + k - 1.
 */
function placeSubtree(out: TreeNodes, root: number, next: number, grown: NodeArrays, framed: FramedNodes, slot: number, nodes: number): void {
  const shift = next - 1;
  out.sizes[root] = framed.sizes[slot];
  out.firstTriangle[root] = grown.firstTriangle[slot];
  out.nodeTriangleCount[root] = grown.nodeTriangleCount[slot];
  const child = grown.children[slot];
  out.children[root] = child < 0 ? -1 : shift + child;
  if (nodes === 1) return;
  const from = slot + 1, end = slot + nodes;
  out.nodes.set(framed.nodes.subarray(OBB_STRIDE * from, OBB_STRIDE * end), OBB_STRIDE * next);
  out.sizes.set(framed.sizes.subarray(from, end), next);
  out.firstTriangle.set(grown.firstTriangle.subarray(from, end), next);
  out.nodeTriangleCount.set(grown.nodeTriangleCount.subarray(from, end), next);
  for (let k = from; k < end; k++) {
    const c = grown.children[k];
    out.children[next + k - from] = c < 0 ? -1 : shift + c;
  }
}
