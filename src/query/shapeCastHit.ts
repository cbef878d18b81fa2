import type { Floats, ReadonlyFloats } from '../layout';

/**
 * Result layout of the shape casts (shapeCast.ts, shapeCastCapsule.ts, shapeCastBox.ts,
 * shapeCastKdop.ts, tree/shapecastTree.ts): a mover translated by t·(dx, dy, dz), t in [0, maxT],
 * first touches a static target at t.
 *
 * - out[oo] = t, the fraction of the displacement at first contact;
 * - out[oo+1..3] = unit normal on the target's surface at the contact, pointing from the target
 *   towards the mover (normal·displacement <= 0 for a hit from outside);
 * - out[oo+4..6] = the contact point at time t, on the target's surface (up to rounding, and up to
 *   the documented bound of the conservative kernels).
 *
 * Start overlap (the shapes touch or overlap at t = 0): t = 0; the normal is the direction of least
 * penetration (from the target's closest feature towards the mover's centre or core, or the SAT
 * axis of least overlap for boxes); where that is undefined (a centre exactly on the target's core)
 * it is −displacement/|displacement|, and (0, 0, 0) only for a zero displacement as well. The point
 * lies in both shapes: the target's point closest to the mover's centre or core (sphere and capsule
 * movers), the box's supporting point clamped onto the target (box movers), or, for the casts run
 * backwards (capsule vs sphere, box vs sphere or capsule), the mover's point closest to the
 * target's core.
 */
export const SHAPE_CAST_HIT_STRIDE = 7;

/**
 * What writeShapeHit reads: t, the normal (any length), the point, and a number for the caller.
 * @internal
 */
export const HIT_INPUT_STRIDE = 8;

/**
 * Writes a hit at out[oo] from input[0..6] (HIT_INPUT_STRIDE): t, the normal normalised (a zero
 * vector falls back to −d/|d| for the motion d at motion[mo], and to zero for a zero d), and the
 * point. Numbers come in arrays: V8 boxes a double passed to a call it does not inline.
 * @internal
 */
export function writeShapeHit(out: Floats, oo: number, input: ReadonlyFloats, motion: ReadonlyFloats, mo: number): void {
  const t = input[0], px = input[4], py = input[5], pz = input[6];
  const dx = motion[mo], dy = motion[mo + 1], dz = motion[mo + 2];
  let nx = input[1], ny = input[2], nz = input[3];
  let len = Math.sqrt(nx * nx + ny * ny + nz * nz);
  if (!(len > 0)) {
    nx = -dx;
    ny = -dy;
    nz = -dz;
    len = Math.sqrt(dx * dx + dy * dy + dz * dz);
  }
  const s = len > 0 ? 1 / len : 0;
  out[oo] = t;
  out[oo + 1] = nx * s;
  out[oo + 2] = ny * s;
  out[oo + 3] = nz * s;
  out[oo + 4] = px;
  out[oo + 5] = py;
  out[oo + 6] = pz;
}

/**
 * Rewrites a hit found with the roles swapped (the target moved by −d against the mover) as the
 * mover's hit: same t; the normal reversed (it was on the mover's surface, pointing at the target);
 * the point moved by t·d (found while the target was displaced by −t·d); d at motion[mo].
 * @internal
 */
export function swapShapeHit(out: Floats, oo: number, motion: ReadonlyFloats, mo: number): void {
  const t = out[oo], dx = motion[mo], dy = motion[mo + 1], dz = motion[mo + 2];
  out[oo + 1] = -out[oo + 1];
  out[oo + 2] = -out[oo + 2];
  out[oo + 3] = -out[oo + 3];
  out[oo + 4] += t * dx;
  out[oo + 5] += t * dy;
  out[oo + 6] += t * dz;
}

/**
 * The answer of a cast run backwards (the target moved by −d against the mover): `found`, its hit
 * at out[oo] rewritten as the mover's (swapShapeHit) when there is one.
 * @internal
 */
export function backwardsHit(found: boolean, out: Floats, oo: number, motion: ReadonlyFloats, mo: number): boolean {
  if (found) swapShapeHit(out, oo, motion, mo);
  return found;
}
