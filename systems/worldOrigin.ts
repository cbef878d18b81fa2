/**
 * A movable world origin, for large worlds. The stores are Float32: a coordinate x is held to
 * within 2^-24 |x| (0.6 units at x = 1e7), so results are exact only near the origin
 * (docs/precision.md). `shiftWorldOrigin` moves the origin to where the action is: every stored
 * position is re-expressed relative to the new origin, once, in doubles, and the next step refits
 * every collider. Nothing changes on the per-frame paths, which stay Float32 (a Float64 variant of
 * the stores would make every kernel read two array types, which V8 pays for on every load).
 */
import type { World } from 'bitecs';
import { CollideInputError, assertCoordinate, isCoordinate } from '../src/errors';
import { MAX_COORDINATE } from '../src/tolerances';
import { markChanged } from '../components/transform';
import { pipelineOf, type CollisionPipeline } from './collisionState';
import { clearHitboxHistory } from '../src/character/hitboxHistory';

/**
 * Moves the world origin by (dx, dy, dz) world units. Positions in the Transform store and the
 * characters' root matrices are re-expressed relative to the new origin (stored − shift, in
 * doubles, rounded to Float32 once), and every entity with a transform is refit at the next step.
 * Touching pairs carry over: a pair touching before and after the shift 'stays'. Afterwards the
 * caller writes positions relative to the new origin (its absolute coordinate minus
 * `worldOrigin`), and every position the pipeline reports (contact points, AABBs, ray hits) is
 * relative to it too. With the pipeline's `transform` option the positions are your components:
 * subtract the shift from them yourself (before the next step); this call then records the new
 * origin and refits every collider. The characters' hitbox history is cleared (its frames are at
 * the old origin): rewinds are refused until the next step records a frame. Throws
 * CollideInputError for a shift that is not finite or would move a stored position outside
 * ±MAX_COORDINATE, before changing anything. O(entities).
 */
export function shiftWorldOrigin(target: World | CollisionPipeline, dx: number, dy: number, dz: number): void {
  const p = pipelineOf(target, 'shiftWorldOrigin');
  assertCoordinate(dx, 'shiftWorldOrigin: dx');
  assertCoordinate(dy, 'shiftWorldOrigin: dy');
  assertCoordinate(dz, 'shiftWorldOrigin: dz');
  const t = p.transform, position = t.position;
  const skeletons = p.characters?.skeletons;
  if (p.poseSource !== undefined) {
    // The positions are the user's components: the caller moves them; here the origin moves
    // and every collider is refit from them at the next step.
    for (let i = 0; i < p.collider.count; i++) markChanged(t, p.collider.ids[i]);
    moveOrigin(p, dx, dy, dz);
    return;
  }
  for (let e = 0; e < t.capacity; e++) {
    if (t.present[e] === 1) assertShiftable(position, 3 * e, dx, dy, dz, `entity ${e}`);
  }
  for (let c = 0; skeletons !== undefined && c < skeletons.characterCount; c++) {
    assertShiftable(skeletons.characterMatrix, 16 * c + 12, dx, dy, dz, `character ${c}`);
  }
  for (let e = 0; e < t.capacity; e++) {
    if (t.present[e] !== 1) continue;
    position[3 * e] -= dx;
    position[3 * e + 1] -= dy;
    position[3 * e + 2] -= dz;
    markChanged(t, e);
  }
  for (let c = 0; skeletons !== undefined && c < skeletons.characterCount; c++) {
    const m = skeletons.characterMatrix, o = 16 * c + 12;
    m[o] -= dx;
    m[o + 1] -= dy;
    m[o + 2] -= dz;
  }
  moveOrigin(p, dx, dy, dz);
}

/** Records the new origin; the hitbox history, at the old one, is emptied, and the next step's sweep motion starts at rest. */
function moveOrigin(p: CollisionPipeline, dx: number, dy: number, dz: number): void {
  p.origin[0] += dx;
  p.origin[1] += dy;
  p.origin[2] += dz;
  if (p.hitboxHistory !== undefined) clearHitboxHistory(p.hitboxHistory);
  p.sweepFromRest = true;
}

/** Throws unless the point at v[o] stays within ±MAX_COORDINATE after the shift. */
function assertShiftable(v: ArrayLike<number>, o: number, dx: number, dy: number, dz: number, what: string): void {
  if (isCoordinate(v[o] - dx) && isCoordinate(v[o + 1] - dy) && isCoordinate(v[o + 2] - dz)) return;
  throw new CollideInputError(
    `shiftWorldOrigin: shifting by (${dx}, ${dy}, ${dz}) would move ${what} outside ±${MAX_COORDINATE.toExponential()}`,
  );
}

/** The world origin (its absolute coordinates, Float64) into `out`. */
export function worldOrigin(target: World | CollisionPipeline, out: Float64Array = new Float64Array(3)): Float64Array {
  out.set(pipelineOf(target, 'worldOrigin').origin);
  return out;
}
