/**
 * Box pairs whose closest features are two nearly parallel edges, with the gap between them known
 * by construction. In a local frame both boxes are turned about z so that a corner edge of A
 * points along +x and one of B along −x; B is then tilted by `angle` about x, so its edge makes
 * that angle with A's, and placed so that the edges cross, `gap` apart along x (negative: they
 * pass through each other). A lies in x ≤ xA and B in x ≥ xA + gap, and the crossing points are
 * `gap` apart, so the true distance is `gap` when it is positive. A random rotation and
 * translation of the whole pair, and a random swap of A and B, follow.
 */
import { OBB_STRIDE } from '../src/layout';
import { quaternionToAxes, randomQuaternion } from './random';

export interface NearParallelPair {
  /** Box A then box B, each in the OBB layout (centre, axes, half-extents), in doubles. */
  a: Float64Array;
  b: Float64Array;
  /** Signed gap along the edges' common normal (> 0: apart by exactly this). */
  gap: number;
}

/** Unit vector u rotated by the rotation whose columns are `m`. */
function rotate(m: number[], x: number, y: number, z: number): number[] {
  return [m[0] * x + m[3] * y + m[6] * z, m[1] * x + m[4] * y + m[7] * z, m[2] * x + m[5] * y + m[8] * z];
}

/**
 * A pair with edges `angle` rad from parallel and signed gap `relativeGap` × `size`, where `size`
 * is the larger box's largest full extent; half-extents in [0.25, 0.5] × size, centres within
 * `spread` × size of the origin.
 */
export function nearParallelPair(rand: () => number, angle: number, relativeGap: number, size: number, spread = 10): NearParallelPair {
  const halfA = [0, 1, 2].map(() => (0.25 + 0.25 * rand()) * size);
  const halfB = [0, 1, 2].map(() => (0.25 + 0.25 * rand()) * size);
  const largest = 2 * Math.max(...halfA, ...halfB);
  const gap = relativeGap * largest;
  const alpha = 0.2 + 1.17 * rand(), beta = 0.2 + 1.17 * rand();
  const ca = Math.cos(alpha), sa = Math.sin(alpha), cb = Math.cos(beta), sb = Math.sin(beta);
  const ct = Math.cos(angle), st = Math.sin(angle);
  // Corner edges: A's +x support at (xA, yA), B's −x support at (xB, yB) from B's centre.
  const xA = halfA[0] * ca + halfA[1] * sa, yA = halfA[0] * sa - halfA[1] * ca;
  const xB = -(halfB[0] * cb + halfB[1] * sb), yB = halfB[1] * cb - halfB[0] * sb;
  const localA = [[ca, sa, 0], [-sa, ca, 0], [0, 0, 1]];
  // B's axes turned by beta about z, then tilted by `angle` about x.
  const localB = [[cb, sb * ct, sb * st], [-sb, cb * ct, cb * st], [0, -st, ct]];
  const centreA = [0, 0, 0];
  const centreB = [xA - xB + gap, yA - yB * ct, -yB * st];
  const g = quaternionToAxes(randomQuaternion(rand));
  const shift = [0, 1, 2].map(() => (2 * rand() - 1) * spread * size);
  const place = (centre: number[], axes: number[][], half: number[]): Float64Array => {
    const out = new Float64Array(OBB_STRIDE);
    const c = rotate(g, centre[0], centre[1], centre[2]);
    for (let k = 0; k < 3; k++) out[k] = c[k] + shift[k];
    for (let i = 0; i < 3; i++) out.set(rotate(g, axes[i][0], axes[i][1], axes[i][2]), 3 + 3 * i);
    out.set(half, 12);
    return out;
  };
  const a = place(centreA, localA, halfA), b = place(centreB, localB, halfB);
  return rand() < 0.5 ? { a, b, gap } : { a: b, b: a, gap };
}
