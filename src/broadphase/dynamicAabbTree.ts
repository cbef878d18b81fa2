/**
 * Dynamic AABB tree broad phase (persistent between frames). Each proxy's leaf holds a fat box
 * (its box widened by a margin relative to its size), so a proxy is reinserted only when its box
 * leaves the fat box (or the fat box has become far too loose); most frames touch few leaves.
 * Static proxies live in their own tree, which dynamic proxies query but which never queries
 * itself, so static-static pairs cost nothing. Pairs come from simultaneous descents of the
 * dynamic tree against itself and against the static tree; these candidates (fat boxes overlap)
 * are then filtered by the exact tight-box overlap, so the result equals brute force.
 */
import { CollideInputError, assertOptions } from '../errors';
import { AabbTree, treePairs } from './aabbTree';
import { maxProxyId, type BroadPhase, type BroadPhaseInput, nextFrameStamp } from './broadPhase';
import { grown } from './growable';
import { PairList } from './pairList';

/** Options of `createDynamicAabbTree`. */
export interface DynamicAabbTreeOptions {
  /** Fat-box margin on every side as a fraction of the box's largest side (default 0.2). */
  marginRatio?: number;
  /** Absolute margin added to the relative one (default 0), e.g. for point-like proxies. */
  marginAbsolute?: number;
}

/** A fat box whose extra width exceeds this many fresh margins is too loose and is refitted. */
const LOOSE_FAT_FACTOR = 4;
const DYNAMIC = 0;
const STATIC = 1;

/** Creates a dynamic-AABB-tree broad phase (one tree for dynamic proxies, one for static ones). */
export function createDynamicAabbTree(options: DynamicAabbTreeOptions = {}): BroadPhase {
  assertOptions(options, ['marginRatio', 'marginAbsolute'], 'createDynamicAabbTree');
  const marginRatio = options.marginRatio ?? 0.2;
  const marginAbsolute = options.marginAbsolute ?? 0;
  if (!(marginRatio >= 0 && Number.isFinite(marginRatio))) throw new CollideInputError(`createDynamicAabbTree: marginRatio must be >= 0, got ${marginRatio}`);
  if (!(marginAbsolute >= 0 && Number.isFinite(marginAbsolute))) {
    throw new CollideInputError(`createDynamicAabbTree: marginAbsolute must be >= 0, got ${marginAbsolute}`);
  }
  const trees = [new AabbTree(), new AabbTree()];
  let frame = 0;
  // By id: leaf node (-1: not in a tree), which tree, frame last seen, slot in `members`.
  let leafOf = new Int32Array(0);
  let treeOf = new Uint8Array(0);
  let seenFrame = new Uint32Array(0);
  let memberSlot = new Int32Array(0);
  let members = new Int32Array(0);
  let memberCount = 0;
  const candidates = new PairList();

  function marginOf(boxes: ArrayLike<number>, o: number): number {
    const side = Math.max(boxes[o + 3] - boxes[o], boxes[o + 4] - boxes[o + 1], boxes[o + 5] - boxes[o + 2]);
    return marginRatio * side + marginAbsolute;
  }

  /** Whether the leaf's fat box no longer contains the tight box, or is much looser than a fresh one. */
  function needsReinsert(tree: AabbTree, leaf: number, boxes: ArrayLike<number>, o: number): boolean {
    const f = tree.box;
    const fo = leaf * 6;
    let extra = 0;
    for (let k = 0; k < 3; k++) {
      if (f[fo + k] > boxes[o + k] || f[fo + 3 + k] < boxes[o + 3 + k]) return true;
      extra += boxes[o + k] - f[fo + k] + (f[fo + 3 + k] - boxes[o + 3 + k]);
    }
    return extra > LOOSE_FAT_FACTOR * 6 * marginOf(boxes, o);
  }

  function insert(id: number, which: number, boxes: ArrayLike<number>): void {
    const o = id * 6;
    leafOf[id] = trees[which].insert(id, boxes, o, marginOf(boxes, o));
    treeOf[id] = which;
  }

  function removeAbsent(): void {
    for (let s = memberCount - 1; s >= 0; s--) {
      const id = members[s];
      if (seenFrame[id] === frame) continue;
      trees[treeOf[id]].remove(leafOf[id]);
      leafOf[id] = -1;
      const last = members[--memberCount];
      members[s] = last;
      memberSlot[last] = s;
    }
  }

  function insertOrMove(input: BroadPhaseInput): void {
    const { ids, count, boxes, isStatic } = input;
    for (let i = 0; i < count; i++) {
      const id = ids[i];
      const which = isStatic[id] === 1 ? STATIC : DYNAMIC;
      const leaf = leafOf[id];
      if (leaf < 0) {
        memberSlot[id] = memberCount;
        members[memberCount++] = id;
        insert(id, which, boxes);
      } else if (treeOf[id] !== which || needsReinsert(trees[which], leaf, boxes, id * 6)) {
        trees[treeOf[id]].remove(leaf);
        insert(id, which, boxes);
      }
    }
  }

  return {
    name: 'dynamicAabbTree',
    findPairs(input: BroadPhaseInput, out: PairList): void {
      out.clear();
      frame = nextFrameStamp(frame, seenFrame);
      const idLimit = maxProxyId(input) + 1;
      leafOf = grown(leafOf, idLimit, -1);
      treeOf = grown(treeOf, idLimit);
      seenFrame = grown(seenFrame, idLimit);
      memberSlot = grown(memberSlot, idLimit);
      members = grown(members, memberCount + input.count);
      for (let i = 0; i < input.count; i++) seenFrame[input.ids[i]] = frame;
      removeAbsent();
      insertOrMove(input);
      treePairs(input, trees[DYNAMIC], trees[STATIC], candidates, out);
      out.sort();
    },
    clear(): void {
      trees[DYNAMIC].reset();
      trees[STATIC].reset();
      leafOf.fill(-1);
      memberCount = 0;
    },
  };
}
