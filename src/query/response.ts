import { CollideInputError } from '../errors';
import type { Floats, ReadonlyFloats } from '../layout';

/**
 * Collision response helpers for the user's own integrator. Vectors are xyz at an offset; the
 * contact normal n is unit. Nothing here allocates.
 */

/** Throws unless `value` is finite and in [min, max]. Cheap enough for per-contact calls. */
function assertInRange(value: number, min: number, max: number, what: string): void {
  if (!(Number.isFinite(value) && value >= min && value <= max)) {
    throw new CollideInputError(`${what} must be finite and in [${min}, ${max}], got ${value}`);
  }
}

/**
 * Stop: puts the body back at its last non-colliding position and zeroes its velocity.
 * Returns `position`.
 */
export function responseStop(
  position: Floats, po: number,
  velocity: Floats, vo: number,
  lastSafe: ReadonlyFloats, so: number,
): Floats {
  position[po] = lastSafe[so];
  position[po + 1] = lastSafe[so + 1];
  position[po + 2] = lastSafe[so + 2];
  velocity[vo] = 0;
  velocity[vo + 1] = 0;
  velocity[vo + 2] = 0;
  return position;
}

/**
 * Slide: removes the part of v going into the surface (v·n < 0, n pointing out of the surface
 * towards the body), so the body glides along it; a velocity already leaving is kept as is.
 * `out` may alias `v`. Returns `out`.
 */
export function responseSlide(out: Floats, oo: number, v: ReadonlyFloats, vo: number, n: ReadonlyFloats, no: number): Floats {
  return reflectAlong(out, oo, v, vo, n, no, 1);
}

/**
 * Reflect: v − (1 + e)(v·n)n with restitution e in [0, 1] (1 = perfect bounce, 0 = slide), applied
 * only when moving into the surface (v·n < 0), so a body already separating is not pulled back.
 * The tangential part is unchanged. `out` may alias `v`. Returns `out`.
 */
export function responseReflect(
  out: Floats, oo: number,
  v: ReadonlyFloats, vo: number,
  n: ReadonlyFloats, no: number,
  restitution: number,
): Floats {
  assertInRange(restitution, 0, 1, 'responseReflect: restitution');
  return reflectAlong(out, oo, v, vo, n, no, 1 + restitution);
}

/** out = v − k(v·n)n when v·n < 0, else v. */
function reflectAlong(out: Floats, oo: number, v: ReadonlyFloats, vo: number, n: ReadonlyFloats, no: number, k: number): Floats {
  const vx = v[vo], vy = v[vo + 1], vz = v[vo + 2];
  const vn = vx * n[no] + vy * n[no + 1] + vz * n[no + 2];
  const s = vn < 0 ? k * vn : 0;
  out[oo] = vx - s * n[no];
  out[oo + 1] = vy - s * n[no + 1];
  out[oo + 2] = vz - s * n[no + 2];
  return out;
}

/**
 * Two-body impulse along the contact normal n (unit, pointing from A to B): when the bodies
 * approach (relative normal velocity (vb − va)·n < 0), applies j = −(1 + e)·vrel·n / (wa + wb)
 * so that the relative normal velocity becomes −e times what it was, updating va and vb in
 * place; momentum is conserved. wa, wb are inverse masses (0 = static body, left untouched).
 * Returns the impulse magnitude j (0 when separating or both static).
 * Throws CollideInputError for a negative or non-finite inverse mass or e outside [0, 1].
 */
export function responseImpulse(
  va: Floats, vao: number, inverseMassA: number,
  vb: Floats, vbo: number, inverseMassB: number,
  n: ReadonlyFloats, no: number,
  restitution: number,
): number {
  assertInRange(inverseMassA, 0, Infinity, 'responseImpulse: inverse mass of A');
  assertInRange(inverseMassB, 0, Infinity, 'responseImpulse: inverse mass of B');
  assertInRange(restitution, 0, 1, 'responseImpulse: restitution');
  const nx = n[no], ny = n[no + 1], nz = n[no + 2];
  const vrel = (vb[vbo] - va[vao]) * nx + (vb[vbo + 1] - va[vao + 1]) * ny + (vb[vbo + 2] - va[vao + 2]) * nz;
  const w = inverseMassA + inverseMassB;
  if (vrel >= 0 || w === 0) return 0;
  const j = (-(1 + restitution) * vrel) / w;
  const ja = j * inverseMassA, jb = j * inverseMassB;
  va[vao] -= ja * nx;
  va[vao + 1] -= ja * ny;
  va[vao + 2] -= ja * nz;
  vb[vbo] += jb * nx;
  vb[vbo + 1] += jb * ny;
  vb[vbo + 2] += jb * nz;
  return j;
}
