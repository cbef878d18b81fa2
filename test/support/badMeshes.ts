/** Meshes and options every tree build must refuse with a CollideInputError (tree.test, treeWorkers.test). */
import type { BoundingTreeOptions } from '../../src/tree/build';
import { MAX_COORDINATE } from '../../src/tolerances';

/** A valid one-triangle mesh's positions, which the bad cases below reuse. */
export const ONE_TRIANGLE = new Float64Array([0, 0, 0, 1, 0, 0, 0, 1, 0]);

export const BAD_TREE_INPUTS: [ArrayLike<number>, ArrayLike<number>, BoundingTreeOptions?][] = [
  [ONE_TRIANGLE, new Uint32Array(0)],
  [ONE_TRIANGLE, [0, 1]],
  [ONE_TRIANGLE, [0, 1, 3]],
  [ONE_TRIANGLE, [0, 1, -1]],
  [ONE_TRIANGLE, [0, 1, 1.5]],
  [new Float64Array([0, 0, 0, 1, NaN, 0, 0, 1, 0]), [0, 1, 2]],
  [new Float64Array([0, 0, 0, 1, Infinity, 0, 0, 1, 0]), [0, 1, 2]],
  [new Float64Array([0, 0, 0, 1, 2 * MAX_COORDINATE, 0, 0, 1, 0]), [0, 1, 2, 0, 2, 1]],
  [ONE_TRIANGLE, [0, 1, 2], { maxLeafTriangles: 0 }],
  [ONE_TRIANGLE, [0, 1, 2], { kind: 'kdop' as never }],
  [ONE_TRIANGLE, [0, 1, 2], { fit: 'pca' as never }],
  [ONE_TRIANGLE, [0, 1, 2], { split: 'sah' as never }],
];
