/**
 * A (p, q) torus knot tube as an indexed triangle mesh, for tests and benchmarks: a closed curve
 * winding p times around the torus axis and q times through its hole, swept by a circle.
 * Triangle count = 2 · tubularSegments · radialSegments.
 */
import type { TestMesh } from './meshes';

export interface TorusKnotOptions {
  /** Torus radius (default 1). */
  radius?: number;
  /** Tube radius (default 0.3). */
  tube?: number;
  /** Segments along the curve (default 250). */
  tubularSegments?: number;
  /** Segments around the tube (default 20). */
  radialSegments?: number;
  p?: number;
  q?: number;
}

function curvePoint(u: number, p: number, q: number, radius: number, out: number[]): void {
  const qu = (q / p) * u;
  const r = radius * (2 + Math.cos(qu)) * 0.5;
  out[0] = r * Math.cos(u);
  out[1] = r * Math.sin(u);
  out[2] = radius * Math.sin(qu) * 0.5;
}

/** Builds the knot; the defaults give 10,000 triangles. */
export function torusKnot(options: TorusKnotOptions = {}): TestMesh {
  const radius = options.radius ?? 1, tube = options.tube ?? 0.3;
  const tubular = options.tubularSegments ?? 250, radial = options.radialSegments ?? 20;
  const p = options.p ?? 2, q = options.q ?? 3;
  const positions = new Float64Array(3 * tubular * radial);
  const indices = new Uint32Array(6 * tubular * radial);
  const c = [0, 0, 0], n = [0, 0, 0];
  for (let i = 0; i < tubular; i++) {
    const u = (i / tubular) * p * 2 * Math.PI;
    curvePoint(u, p, q, radius, c);
    curvePoint(u + 0.01, p, q, radius, n);
    // Frame: tangent T, then B = T × (c + n) and N = B × T, a frame that turns with the curve.
    const tx = n[0] - c[0], ty = n[1] - c[1], tz = n[2] - c[2];
    const sx = n[0] + c[0], sy = n[1] + c[1], sz = n[2] + c[2];
    let bx = ty * sz - tz * sy, by = tz * sx - tx * sz, bz = tx * sy - ty * sx;
    let nx = by * tz - bz * ty, ny = bz * tx - bx * tz, nz = bx * ty - by * tx;
    const bl = Math.hypot(bx, by, bz), nl = Math.hypot(nx, ny, nz);
    bx /= bl; by /= bl; bz /= bl;
    nx /= nl; ny /= nl; nz /= nl;
    for (let j = 0; j < radial; j++) {
      const v = (j / radial) * 2 * Math.PI;
      const cx = -tube * Math.cos(v), cy = tube * Math.sin(v);
      const o = 3 * (i * radial + j);
      positions[o] = c[0] + cx * nx + cy * bx;
      positions[o + 1] = c[1] + cx * ny + cy * by;
      positions[o + 2] = c[2] + cx * nz + cy * bz;
    }
  }
  let k = 0;
  for (let i = 0; i < tubular; i++) {
    const i1 = (i + 1) % tubular;
    for (let j = 0; j < radial; j++) {
      const j1 = (j + 1) % radial;
      const a = i * radial + j, b = i1 * radial + j, cc = i1 * radial + j1, d = i * radial + j1;
      indices[k++] = a; indices[k++] = b; indices[k++] = d;
      indices[k++] = b; indices[k++] = cc; indices[k++] = d;
    }
  }
  return { name: `torusKnot(${2 * tubular * radial})`, positions, vertexCount: tubular * radial, indices, triangleCount: 2 * tubular * radial };
}
