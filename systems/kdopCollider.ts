/**
 * k-DOP colliders: a convex hull's bounds along k fixed directions (the pipeline's kdopK), refit
 * every step from the collider's local points. Every pair with a k-DOP is the standard,
 * conservative k-DOP test (the other shape's exact k-DOP against this one; no manifold). The
 * first k-DOP collider installs this kind into its pipeline, so programs without k-DOPs do not
 * bundle it.
 */
import type { World } from 'bitecs';
import { CollideInputError, assertNonEmptyPoints } from '../src/errors';
import type { Floats, KdopK } from '../src/layout';
import { KDOP_DIRECTIONS, kdopFromAabb, kdopFromObb, kdopOverlap, kdopRefit } from '../src/volumes/kdop';
import { SHAPE_AABB, SHAPE_CAPSULE, SHAPE_KDOP, SHAPE_MESH, SHAPE_OBB, SHAPE_STRIDE, setKdopVertices, type ColliderStore } from '../components/collider';
import { pipelineOf, type CollisionPipeline, type KdopKind } from './collisionState';
import { COLLIDER_OPTION_KEYS, attachCollider, checkColliderOptions, type ColliderOptions } from './colliderApi';

const otherKdop = new Float64Array(26);
const IDENTITY_ROTATION = new Float64Array([0, 0, 0, 1]);
const ORIGIN = new Float64Array(3);

/** |d_i| of every direction of each k-DOP set: a round shape's slab half-width per unit radius. */
const DIRECTION_LENGTHS = {} as Record<KdopK, Float64Array>;
for (const k of [6, 14, 18, 26] as KdopK[]) {
  const d = KDOP_DIRECTIONS[k];
  DIRECTION_LENGTHS[k] = new Float64Array(k >> 1).map((_, i) => Math.hypot(d[3 * i], d[3 * i + 1], d[3 * i + 2]));
}

/**
 * Exact k-DOP (the pipeline's k) of a shape of kind `kind` (sphere, AABB, OBB or capsule, a mesh
 * as its root box) in its world layout at w[o], into `otherKdop`.
 */
function shapeKdop(k: KdopK, kind: number, w: ArrayLike<number>, o: number): Float64Array {
  switch (kind) {
    case SHAPE_AABB:
      return kdopFromAabb(otherKdop, 0, k, w, o) as Float64Array;
    case SHAPE_OBB:
    case SHAPE_MESH: // its world shape is the tree's root box: conservative, like every k-DOP pair
      return kdopFromObb(otherKdop, 0, k, w, o) as Float64Array;
    default: {
      // Sphere (one centre) or capsule (two endpoints): the points' slabs widened by r·|d_i|.
      const capsule = kind === SHAPE_CAPSULE;
      const r = w[o + (capsule ? 6 : 3)];
      kdopRefit(otherKdop, 0, k, w, capsule ? 2 : 1, IDENTITY_ROTATION, ORIGIN, 1, o);
      const half = k >> 1;
      const len = DIRECTION_LENGTHS[k];
      for (let i = 0; i < half; i++) {
        otherKdop[i] -= r * len[i];
        otherKdop[half + i] += r * len[i];
      }
      return otherKdop;
    }
  }
}

/** k-DOP test of a pair in which at least one collider is a k-DOP. */
function kdopPairOverlap(c: ColliderStore, a: number, b: number): boolean {
  const k = c.kdopK;
  if (c.kind[a] === SHAPE_KDOP && c.kind[b] === SHAPE_KDOP) return kdopOverlap(c.kdop, k * a, c.kdop, k * b, k);
  const solid = c.kind[a] === SHAPE_KDOP ? a : b, other = solid === a ? b : a;
  return kdopOverlap(shapeKdop(k, c.kind[other], c.world, SHAPE_STRIDE * other), 0, c.kdop, k * solid, k);
}

/** k-DOP test of k-DOP collider `e` against a shape of kind `kind` at shape[so] (a query's). */
function kdopShapeOverlap(c: ColliderStore, e: number, kind: number, shape: ArrayLike<number>, so: number): boolean {
  return kdopOverlap(shapeKdop(c.kdopK, kind, shape, so), 0, c.kdop, c.kdopK * e, c.kdopK);
}

/** World k-DOP of collider `eid` from its local points, and its box (the axis slabs) into `tight`. */
function refitKdop(c: ColliderStore, eid: number, rotation: Floats, translation: Floats, scale: number, tight: Float64Array): void {
  const k = c.kdopK;
  const ko = k * eid;
  kdopRefit(c.kdop, ko, k, c.kdopVertices, c.kdopVertexCount[eid], rotation, translation, scale, 3 * c.kdopVertexStart[eid]);
  // The first three directions of every set are the axes: their slabs are the box.
  const half = k >> 1;
  for (let a = 0; a < 3; a++) {
    tight[a] = c.kdop[ko + a];
    tight[3 + a] = c.kdop[ko + half + a];
  }
}

/** What the first k-DOP collider installs into its pipeline (worker threads import it too). */
export const KDOP_KIND: KdopKind = { refit: refitKdop, pairOverlap: kdopPairOverlap, shapeOverlap: kdopShapeOverlap };

/**
 * Gives entity `eid` a k-DOP collider (or makes its collider one) with the pipeline's kdopK
 * directions, refit at every step from `points` (xyz triples in the entity's frame, at least
 * one). Options as for addCollider. Throws CollideInputError for a dead entity, points that are
 * not xyz triples of coordinates, or an invalid option, leaving the entity unchanged.
 */
export function addKdopCollider(target: World | CollisionPipeline, eid: number, points: ArrayLike<number>, options: ColliderOptions = {}): void {
  const p = pipelineOf(target, 'addKdopCollider');
  const what = `addKdopCollider(entity ${eid})`;
  const bits = checkColliderOptions(p, eid, options, COLLIDER_OPTION_KEYS, 'addKdopCollider');
  attachCollider(p, eid, options, bits, () => {
    if (points === null || typeof points !== 'object' || points.length % 3 !== 0) {
      throw new CollideInputError(`${what}: points must be xyz triples, got ${points?.length} numbers`);
    }
    assertNonEmptyPoints(points, points.length / 3, `${what}.points`);
    setKdopVertices(p.collider, eid, points, points.length / 3);
    return SHAPE_KDOP;
  });
  p.kdopKind = KDOP_KIND;
}
