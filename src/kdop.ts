import type { KdopK } from './layout';

/**
 * Standard k-DOP direction sets (unnormalised integer vectors, xyz per direction). Each set
 * extends the previous: 6 = the axes, 14 adds the 4 cube diagonals, 18 adds the 6 edge
 * diagonals to the axes, 26 = axes + cube diagonals + edge diagonals.
 */
const AXES = [1, 0, 0, 0, 1, 0, 0, 0, 1];
const CORNERS = [1, 1, 1, 1, 1, -1, 1, -1, 1, 1, -1, -1];
const EDGES = [1, 1, 0, 1, 0, 1, 0, 1, 1, 1, -1, 0, 1, 0, -1, 0, 1, -1];

export const KDOP_DIRECTIONS: Readonly<Record<KdopK, Float64Array>> = {
  6: new Float64Array(AXES),
  14: new Float64Array([...AXES, ...CORNERS]),
  18: new Float64Array([...AXES, ...EDGES]),
  26: new Float64Array([...AXES, ...CORNERS, ...EDGES]),
};
