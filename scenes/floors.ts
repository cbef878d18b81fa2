/**
 * Flat floors of many triangles, the level geometry of the active-edge tests and the mesh-contact
 * benchmark: an n × n grid of square cells (side `cell`, default 1) at y = 0, centred on the
 * origin, normal +y.
 */

/** How each quad is cut: one diagonal chosen at random, or both (a centre vertex, four triangles). */
export type FloorPattern = 'random-diagonal' | 'both-diagonals';

export interface FloorOptions {
  pattern: FloorPattern;
  /** Reverse the winding of about half the triangles, at random (two-sided meshes). */
  flipWinding?: boolean;
  /** Give every triangle its own three vertices (flat-shaded exports): neighbours share positions only. */
  splitVertices?: boolean;
  /** Side of a cell (default 1). */
  cell?: number;
}

export function triangulatedFloor(n: number, options: FloorOptions, rand: () => number): { positions: Float64Array; indices: Uint32Array } {
  const corners = (n + 1) * (n + 1);
  const cell = options.cell ?? 1;
  const positions: number[] = [];
  for (let i = 0; i <= n; i++) for (let j = 0; j <= n; j++) positions.push((i - n / 2) * cell, 0, (j - n / 2) * cell);
  const triangles: number[] = [];
  const v = (i: number, j: number) => i * (n + 1) + j;
  for (let i = 0; i < n; i++) {
    for (let j = 0; j < n; j++) {
      const a = v(i, j), b = v(i, j + 1), c = v(i + 1, j + 1), d = v(i + 1, j);
      // Counter-clockwise seen from +y: (a, b, c) with a → b along +z, b → c along +x.
      if (options.pattern === 'both-diagonals') {
        const m = corners + i * n + j;
        triangles.push(a, b, m, b, c, m, c, d, m, d, a, m);
      } else if (rand() < 0.5) triangles.push(a, b, c, a, c, d);
      else triangles.push(a, b, d, b, c, d);
    }
  }
  if (options.pattern === 'both-diagonals') {
    for (let i = 0; i < n; i++) for (let j = 0; j < n; j++) positions.push((i + 0.5 - n / 2) * cell, 0, (j + 0.5 - n / 2) * cell);
  }
  if (options.flipWinding) {
    for (let t = 0; t < triangles.length; t += 3) {
      if (rand() < 0.5) [triangles[t + 1], triangles[t + 2]] = [triangles[t + 2], triangles[t + 1]];
    }
  }
  if (!options.splitVertices) return { positions: Float64Array.from(positions), indices: Uint32Array.from(triangles) };
  const split = new Float64Array(3 * triangles.length);
  triangles.forEach((p, k) => split.set(positions.slice(3 * p, 3 * p + 3), 3 * k));
  return { positions: split, indices: Uint32Array.from(triangles.keys()) };
}
