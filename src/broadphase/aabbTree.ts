/**
 * Dynamic bounding-volume tree of AABBs with flat typed-array node storage (no node objects), as
 * used by the dynamic-tree broad phase. Leaves are placed next to the sibling that minimises the
 * added surface area (a greedy SAH descent), and height-balancing rotations on the way back up
 * keep queries logarithmic whatever the insertion order.
 */
import { aabbOverlap } from '../volumes/aabb';
import { reportPair, type BroadPhaseInput } from './broadPhase';
import { grown } from './growable';
import type { PairList } from './pairList';

const NULL_NODE = -1;

/** Half the surface area of a min-max box (the SAH cost measure; the factor 2 cancels in comparisons). */
function halfArea(b: ArrayLike<number>, o: number): number {
  const x = b[o + 3] - b[o];
  const y = b[o + 4] - b[o + 1];
  const z = b[o + 5] - b[o + 2];
  return x * y + y * z + z * x;
}

/** Half the surface area of the union of two min-max boxes. */
function unionHalfArea(a: ArrayLike<number>, ao: number, b: ArrayLike<number>, bo: number): number {
  const x = Math.max(a[ao + 3], b[bo + 3]) - Math.min(a[ao], b[bo]);
  const y = Math.max(a[ao + 4], b[bo + 4]) - Math.min(a[ao + 1], b[bo + 1]);
  const z = Math.max(a[ao + 5], b[bo + 5]) - Math.min(a[ao + 2], b[bo + 2]);
  return x * y + y * z + z * x;
}

/** A dynamic AABB tree over proxies; each leaf stores a (fat) box and the proxy id it stands for. */
export class AabbTree {
  /** Node boxes, stride 6, min-max. */
  box = new Float64Array(0);
  /** Parent node (-1 for the root). */
  parent = new Int32Array(0);
  /** Left child (-1 for a leaf). */
  left = new Int32Array(0);
  /** Right child (-1 for a leaf). */
  right = new Int32Array(0);
  /** Leaf: 0; internal: 1 + max child height; free: -1. */
  height = new Int32Array(0);
  /** Proxy id of a leaf (-1 for internal nodes). */
  proxy = new Int32Array(0);
  /** Root node (-1 when the tree is empty). */
  root = NULL_NODE;
  /** Proxy ids found by the last `query`, `hitCount` of them. */
  hits = new Int32Array(16);
  /** Number of valid entries of `hits`. */
  hitCount = 0;
  private freeList = NULL_NODE;
  private stack = new Int32Array(64);

  /** Removes every node, keeping storage. */
  reset(): void {
    this.root = NULL_NODE;
    this.freeList = NULL_NODE;
    for (let n = this.height.length - 1; n >= 0; n--) this.release(n);
  }

  /** Inserts a leaf for `proxyId` with box `src[so..so+6)` widened by `margin` on every side; returns the leaf node. */
  insert(proxyId: number, src: ArrayLike<number>, so: number, margin: number): number {
    const leaf = this.createLeaf(proxyId, src, so, margin);
    this.insertLeaf(leaf);
    return leaf;
  }

  /** Bulk building: a detached leaf for `proxyId` with the widened box (link it with `createParent`, then set `root`). */
  createLeaf(proxyId: number, src: ArrayLike<number>, so: number, margin: number): number {
    const leaf = this.allocate();
    const o = leaf * 6;
    for (let k = 0; k < 3; k++) {
      this.box[o + k] = src[so + k] - margin;
      this.box[o + 3 + k] = src[so + 3 + k] + margin;
    }
    this.proxy[leaf] = proxyId;
    this.height[leaf] = 0;
    this.left[leaf] = NULL_NODE;
    this.right[leaf] = NULL_NODE;
    this.parent[leaf] = NULL_NODE;
    return leaf;
  }

  /** Bulk building: a parent of two detached subtrees, fitted to them. */
  createParent(l: number, r: number): number {
    const p = this.allocate();
    this.proxy[p] = -1;
    this.left[p] = l;
    this.right[p] = r;
    this.parent[p] = NULL_NODE;
    this.parent[l] = p;
    this.parent[r] = p;
    this.refit(p);
    return p;
  }

  /** Removes a leaf returned by `insert`. */
  remove(leaf: number): void {
    if (leaf === this.root) {
      this.root = NULL_NODE;
      this.release(leaf);
      return;
    }
    const p = this.parent[leaf];
    const grand = this.parent[p];
    const sibling = this.left[p] === leaf ? this.right[p] : this.left[p];
    this.replaceChild(grand, p, sibling);
    this.release(p);
    this.release(leaf);
    this.refitUpwards(grand);
  }

  /** Collects into `hits` the proxies whose leaf box overlaps `q[qo..qo+6)` (closed); returns their number. */
  query(q: ArrayLike<number>, qo: number): number {
    let hitCount = 0;
    if (this.root === NULL_NODE) return (this.hitCount = 0);
    let stack = this.stack;
    let top = 0;
    stack[top++] = this.root;
    while (top > 0) {
      const n = stack[--top];
      if (!aabbOverlap(this.box, n * 6, q, qo)) continue;
      if (this.height[n] === 0) {
        if (hitCount === this.hits.length) this.hits = grown(this.hits, hitCount + 1);
        this.hits[hitCount++] = this.proxy[n];
      } else {
        if (top + 2 > stack.length) stack = this.stack = grown(stack, top + 2);
        stack[top++] = this.left[n];
        stack[top++] = this.right[n];
      }
    }
    return (this.hitCount = hitCount);
  }

  /** Greedy SAH descent: stop where pairing with the current node is cheaper than going down either child. */
  private findSibling(leaf: number): number {
    const b = this.box;
    const lo = leaf * 6;
    let n = this.root;
    while (this.height[n] > 0) {
      const combined = unionHalfArea(b, n * 6, b, lo);
      const cost = 2 * combined;
      // Every ancestor of the new leaf grows by this much if we descend below n.
      const inherited = 2 * (combined - halfArea(b, n * 6));
      const l = this.left[n];
      const r = this.right[n];
      const costLeft = this.descentCost(l, lo) + inherited;
      const costRight = this.descentCost(r, lo) + inherited;
      if (cost < costLeft && cost < costRight) break;
      n = costLeft < costRight ? l : r;
    }
    return n;
  }

  /** Cost of the new leaf (box at lo) going under child c: its union area, less c's own area if c is internal (already paid). */
  private descentCost(c: number, lo: number): number {
    const union = unionHalfArea(this.box, c * 6, this.box, lo);
    return this.height[c] === 0 ? union : union - halfArea(this.box, c * 6);
  }

  private insertLeaf(leaf: number): void {
    if (this.root === NULL_NODE) {
      this.root = leaf;
      this.parent[leaf] = NULL_NODE;
      return;
    }
    const sibling = this.findSibling(leaf);
    const oldParent = this.parent[sibling];
    const p = this.allocate();
    this.proxy[p] = -1;
    this.replaceChild(oldParent, sibling, p);
    this.left[p] = sibling;
    this.right[p] = leaf;
    this.parent[sibling] = p;
    this.parent[leaf] = p;
    this.refitUpwards(p);
  }

  /** Puts `child` where `old` was under `p` (or at the root when p is null). */
  private replaceChild(p: number, old: number, child: number): void {
    this.parent[child] = p;
    if (p === NULL_NODE) this.root = child;
    else if (this.left[p] === old) this.left[p] = child;
    else this.right[p] = child;
  }

  /** Balances and refits every node from n to the root. */
  private refitUpwards(n: number): void {
    while (n !== NULL_NODE) {
      n = this.balance(n);
      this.refit(n);
      n = this.parent[n];
    }
  }

  /** Height and box of an internal node from its children. */
  private refit(n: number): void {
    const l = this.left[n];
    const r = this.right[n];
    this.height[n] = 1 + Math.max(this.height[l], this.height[r]);
    const b = this.box;
    for (let k = 0; k < 3; k++) {
      b[n * 6 + k] = Math.min(b[l * 6 + k], b[r * 6 + k]);
      b[n * 6 + 3 + k] = Math.max(b[l * 6 + 3 + k], b[r * 6 + 3 + k]);
    }
  }

  /** If one child of a is more than one level taller, rotates it up; returns the subtree's new root. */
  private balance(a: number): number {
    const l = this.left[a];
    const r = this.right[a];
    const diff = this.height[r] - this.height[l];
    if (diff > 1) return this.rotateUp(a, r, l);
    if (diff < -1) return this.rotateUp(a, l, r);
    return a;
  }

  /**
   * Lifts the tall child c of a into a's place: c keeps its taller child and takes a, and a keeps
   * its other child and takes c's shorter child. Child order carries no meaning in the tree.
   */
  private rotateUp(a: number, c: number, other: number): number {
    const f = this.left[c];
    const g = this.right[c];
    const up = this.height[f] > this.height[g] ? f : g;
    const down = up === f ? g : f;
    this.replaceChild(this.parent[a], a, c);
    this.left[c] = a;
    this.right[c] = up;
    this.parent[a] = c;
    this.left[a] = other;
    this.right[a] = down;
    this.parent[down] = a;
    this.refit(a);
    this.refit(c);
    return c;
  }

  private allocate(): number {
    if (this.freeList === NULL_NODE) this.growNodes();
    const n = this.freeList;
    this.freeList = this.left[n];
    return n;
  }

  private release(n: number): void {
    this.height[n] = -1;
    this.left[n] = this.freeList;
    this.freeList = n;
  }

  private growNodes(): void {
    const old = this.height.length;
    const n = Math.max(16, old * 2);
    this.box = grown(this.box, n * 6);
    this.parent = grown(this.parent, n);
    this.left = grown(this.left, n);
    this.right = grown(this.right, n);
    this.height = grown(this.height, n);
    this.proxy = grown(this.proxy, n);
    for (let i = n - 1; i >= old; i--) this.release(i);
  }
}

/** Stack of node pairs for `collectLeafOverlaps` (shared scratch: the traversal never re-enters). */
let pairStack = new Int32Array(256);

/**
 * Pushes into `out` the proxy pairs (leaf of a, leaf of b) whose leaf boxes overlap, by a
 * simultaneous descent of both trees that prunes whole subtree pairs at once (much cheaper than
 * one query per leaf). With b === a, each pair of distinct leaves is reported once.
 */
export function collectLeafOverlaps(a: AabbTree, b: AabbTree, out: PairList): void {
  if (a.root === NULL_NODE || b.root === NULL_NODE) return;
  const self = a === b;
  let stack = pairStack;
  let top = 0;
  stack[top++] = a.root;
  stack[top++] = b.root;
  while (top > 0) {
    const nb = stack[--top];
    const na = stack[--top];
    if (top + 6 > stack.length) stack = pairStack = grown(stack, top + 6);
    const leafA = a.height[na] === 0;
    if (self && na === nb) {
      // A subtree against itself: both halves against themselves, then against each other.
      if (leafA) continue;
      const l = a.left[na];
      const r = a.right[na];
      stack[top++] = l;
      stack[top++] = l;
      stack[top++] = r;
      stack[top++] = r;
      stack[top++] = l;
      stack[top++] = r;
      continue;
    }
    if (!aabbOverlap(a.box, na * 6, b.box, nb * 6)) continue;
    const leafB = b.height[nb] === 0;
    if (leafA && leafB) {
      out.push(a.proxy[na], b.proxy[nb]);
    } else if (leafA || (!leafB && halfArea(b.box, nb * 6) > halfArea(a.box, na * 6))) {
      // Descend the larger box: it is the one more likely to separate from the other.
      stack[top++] = na;
      stack[top++] = b.left[nb];
      stack[top++] = na;
      stack[top++] = b.right[nb];
    } else {
      stack[top++] = a.left[na];
      stack[top++] = nb;
      stack[top++] = a.right[na];
      stack[top++] = nb;
    }
  }
}

/**
 * Shared pair finding of the tree broad phases: candidates from the dynamic tree against itself
 * and against the static tree (static proxies never meet each other), kept when the proxies'
 * tight boxes overlap and the pair filter accepts them. `candidates` is caller-owned scratch.
 */
export function treePairs(input: BroadPhaseInput, dynamic: AabbTree, statics: AabbTree, candidates: PairList, out: PairList): void {
  candidates.clear();
  collectLeafOverlaps(dynamic, dynamic, candidates);
  collectLeafOverlaps(dynamic, statics, candidates);
  const boxes = input.boxes;
  const first = candidates.a;
  const second = candidates.b;
  for (let i = 0; i < candidates.count; i++) {
    const a = first[i];
    const b = second[i];
    if (aabbOverlap(boxes, a * 6, boxes, b * 6)) reportPair(input, out, a, b);
  }
}
