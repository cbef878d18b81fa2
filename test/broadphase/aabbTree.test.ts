import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { AabbTree } from '../../src/broadphase/aabbTree';
import { mulberry32 } from '../../scenes/random';

/** Walks the tree checking links, heights and that every parent box is the union of its children; returns the leaf proxies. */
function checkTree(tree: AabbTree): number[] {
  const leaves: number[] = [];
  if (tree.root < 0) return leaves;
  expect(tree.parent[tree.root]).toBe(-1);
  const visit = (n: number): void => {
    if (tree.height[n] === 0) {
      leaves.push(tree.proxy[n]);
      return;
    }
    const l = tree.left[n];
    const r = tree.right[n];
    expect(tree.parent[l]).toBe(n);
    expect(tree.parent[r]).toBe(n);
    visit(l);
    visit(r);
    expect(tree.height[n]).toBe(1 + Math.max(tree.height[l], tree.height[r]));
    for (let k = 0; k < 3; k++) {
      expect(tree.box[n * 6 + k]).toBe(Math.min(tree.box[l * 6 + k], tree.box[r * 6 + k]));
      expect(tree.box[n * 6 + 3 + k]).toBe(Math.max(tree.box[l * 6 + 3 + k], tree.box[r * 6 + 3 + k]));
    }
  };
  visit(tree.root);
  // Rotations keep the height logarithmic (measured up to 1.4 log2 n); without them sorted input gives n - 1.
  expect(tree.height[tree.root]).toBeLessThanOrEqual(2 * Math.log2(leaves.length) + 2);
  return leaves;
}

describe('AabbTree', () => {
  it('stays linked, balanced and refitted under random inserts and removals; queries equal a scan of the leaves', () => {
    fc.assert(
      fc.property(fc.integer(), fc.integer({ min: 1, max: 300 }), (seed, ops) => {
        const rand = mulberry32(seed);
        const tree = new AabbTree();
        const boxes = new Float64Array(6 * 400);
        const leafOf = new Map<number, number>();
        for (let op = 0; op < ops; op++) {
          const id = Math.floor(rand() * 400);
          const leaf = leafOf.get(id);
          if (leaf !== undefined) {
            tree.remove(leaf);
            leafOf.delete(id);
            continue;
          }
          for (let k = 0; k < 3; k++) {
            // Half the runs insert boxes drifting along a line (worst case for an unbalanced tree).
            const lo = seed % 2 === 0 ? op * (k + 1) : Math.floor(rand() * 50);
            boxes[id * 6 + k] = lo;
            boxes[id * 6 + 3 + k] = lo + Math.floor(rand() * 6);
          }
          leafOf.set(id, tree.insert(id, boxes, id * 6, rand() < 0.5 ? 0 : 0.5));
        }
        const leaves = checkTree(tree).sort((a, b) => a - b);
        expect(leaves).toEqual([...leafOf.keys()].sort((a, b) => a - b));
        const q = [10, 10, 10, 25, 20, 30];
        const n = tree.query(q, 0);
        const hits = Array.from(tree.hits.subarray(0, n)).sort((a, b) => a - b);
        const expected = leaves.filter((id) => {
          const o = leafOf.get(id)! * 6;
          for (let k = 0; k < 3; k++) if (tree.box[o + k] > q[3 + k] || q[k] > tree.box[o + 3 + k]) return false;
          return true;
        });
        expect(hits).toEqual(expected);
      }),
      { numRuns: 150 },
    );
  });

  it('reset() empties the tree and reuses its nodes', () => {
    const tree = new AabbTree();
    const box = [0, 0, 0, 1, 1, 1];
    for (let i = 0; i < 40; i++) tree.insert(i, box, 0, 0);
    const storage = tree.box;
    tree.reset();
    expect(tree.query(box, 0)).toBe(0);
    for (let i = 0; i < 40; i++) tree.insert(i, box, 0, 0);
    expect(tree.box).toBe(storage);
    expect(tree.query(box, 0)).toBe(40);
  });
});
