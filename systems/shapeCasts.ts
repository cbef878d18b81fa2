/**
 * castShapeColliders: the first collider a query shape (sphere, capsule, OBB, AABB) meets when
 * moved by its displacement, for character movement, projectiles with a size, placement checks.
 * It reads the volumes of the last `step`, as overlapColliders and raycastColliders do.
 *
 * Candidates come from box queries on the broad phase's structure, leg by leg along the motion
 * (legWalk.ts), each cast exactly in the order the shape's box enters theirs.
 */
import type { World } from 'bitecs';
import { OBB_STRIDE, SPHERE_STRIDE, type KdopK } from '../src/layout';
import { SHAPE_CAST_HIT_STRIDE } from '../src/query/shapeCastHit';
import { CAST_MOTION_STRIDE, castSphereAabbArrays, castSphereCapsuleArrays, castSphereKdopArrays, castSphereObbArrays, castSphereSphereArrays } from '../src/query/shapeCast';
import { castCapsuleAabbArrays, castCapsuleCapsuleArrays, castCapsuleKdopArrays, castCapsuleObbArrays, castCapsuleSphereArrays } from '../src/query/shapeCastCapsule';
import { castObbAabbArrays, castObbCapsuleArrays, castObbKdopArrays, castObbObbArrays, castObbSphereArrays } from '../src/query/shapeCastBox';
import { shapecastTree } from '../src/tree/shapecastTree';
import { POSE_STRIDE } from '../src/tree/pose';
import { TreeQueryResult } from '../src/tree/queryResult';
import { obbFromAabb } from '../src/volumes/obb';
import { assertHitRecord } from '../src/errors';
import { QUERY_AABB, QUERY_CAPSULE, QUERY_OBB, QUERY_SPHERE, assertShapeQuery, shapeQueryBounds, type ShapeQuery } from '../src/query/shapeQuery';
import {
  SHAPE_AABB,
  SHAPE_CAPSULE,
  SHAPE_CHARACTER,
  SHAPE_KDOP,
  SHAPE_MESH,
  SHAPE_OBB,
  SHAPE_SPHERE,
  SHAPE_STRIDE,
  type ColliderStore,
} from '../components/collider';
import { pipelineOf, type CollisionPipeline } from './collisionState';
import { NO_HIT, WALK_BEST, WALK_BOUND, WALK_ENTRY, WALK_FROM, WALK_LIMIT, WALK_SLACK, WALK_T, WALK_TO, legWalk, walkLegs, walkTimes } from './legWalk';
import { writeHypot } from '../src/hypot';
import { WALK_SLACK_RELATIVE } from '../src/tolerances';
import { entityPose } from './entityPose';
import { createColliderRayHit, nameHitbox, type ColliderRayHit } from './raycastColliders';

/**
 * The first hit of `castShapeColliders` (written in place; entity -1 after a miss): the record of
 * raycastColliders, read for a cast: t is the fraction of the displacement, in [0, 1], at which
 * the shape first touches the collider (0: touching at the start), distance t·|displacement|,
 * point the contact on the collider's surface with the shape moved by t·displacement, normal the
 * unit normal there from the collider towards the shape (normal·displacement <= 0 for a hit from
 * outside).
 */
export type ColliderShapeHit = ColliderRayHit;

/** A reusable hit record for `castShapeColliders`. */
export function createColliderShapeHit(): ColliderShapeHit {
  return createColliderRayHit();
}

/** The shape's box at the start (min-max). */
const startBox = new Float64Array(6);
const displacementLength = new Float64Array(1);
/** The query being cast (what the walk's tests read). */
let activeQuery: ShapeQuery | undefined;
/** The last kernel's hit, the best hit so far, and the best hitbox's within a character. */
const cast = new Float64Array(SHAPE_CAST_HIT_STRIDE);
const bestCast = new Float64Array(SHAPE_CAST_HIT_STRIDE);
const hitboxCast = new Float64Array(SHAPE_CAST_HIT_STRIDE);
/** A box query as an OBB (the box kernels' mover). */
const moverBox = new Float64Array(OBB_STRIDE);
/** The query's displacement and the limit of the kernel at hand (CAST_MOTION_STRIDE), for the array kernels. */
const motion = new Float64Array(CAST_MOTION_STRIDE);
const MOTION_LIMIT = 3;
const treeResult = new TreeQueryResult();
const pose = new Float64Array(POSE_STRIDE);
/** A hitbox's bounding sphere's box. */
const sphereBox = new Float64Array(6);

/**
 * When the box at box[0..5], moved by t·d for t in [0, 1], first meets the closed box at b[bo]
 * (min-max): a slab test. Infinity when it never does.
 */
function boxEntry(box: Float64Array, d: Float64Array, b: ArrayLike<number>, bo: number): number {
  let enter = 0, exit = 1;
  for (let k = 0; k < 3; k++) {
    const v = d[k], lo = box[k], hi = box[3 + k], blo = b[bo + k], bhi = b[bo + 3 + k];
    if (v === 0) {
      if (hi < blo || lo > bhi) return Infinity;
      continue;
    }
    const t0 = v > 0 ? (blo - hi) / v : (bhi - lo) / v, t1 = v > 0 ? (bhi - lo) / v : (blo - hi) / v;
    if (t0 > enter) enter = t0;
    if (t1 < exit) exit = t1;
    if (enter > exit) return Infinity;
  }
  return enter;
}

/**
 * Casts the query's shape, moved from where it is by t·`query.displacement` for t in [0, 1],
 * against every collider whose layer shares a bit with `query.mask`, except entity
 * `query.ignore`. Returns whether it hits something and writes the first hit into `hit`: the
 * entity, t, the distance travelled, the contact point and normal (see ColliderShapeHit); among
 * hits at the same t the lowest entity id wins, so the answer does not depend on creation order.
 * A shape touching or overlapping a collider at the start hits it at t = 0 (normal: the direction
 * of least penetration). Exact per kind with the shape-cast kernels (src/query/shapeCast*.ts);
 * k-DOP colliders by a conservative cast (never late: see castSphereKdop); meshes by their
 * triangles at the entity's pose (the hit names the triangle); characters by their hitboxes (the
 * hit names the bone and hit group). Reads the colliders as of the last `step`: one
 * added since is found from the next step on. Throws CollideInputError for a query field that is
 * not finite, outside ±MAX_COORDINATE or otherwise invalid (a zero displacement, a negative
 * radius, non-orthonormal axes, min > max, a mask outside uint32), naming it. Allocates no
 * objects, and the kernels pass their numbers in arrays, so a cast leaves next to no garbage
 * (docs/design/shape-queries.md).
 */
export function castShapeColliders(target: World | CollisionPipeline, hit: ColliderShapeHit, query: ShapeQuery): boolean {
  const p = pipelineOf(target, 'castShapeColliders');
  assertHitRecord(hit, 'castShapeColliders', 'createColliderShapeHit');
  assertShapeQuery(query, 'castShapeColliders', true);
  return castShapeQuery(p, hit, query);
}

/**
 * @internal castShapeColliders after its checks, for a query assertShapeQuery accepted: a batch
 * checks its queries once, up front.
 */
export function castShapeQuery(p: CollisionPipeline, hit: ColliderShapeHit, query: ShapeQuery): boolean {
  if (query.kind === QUERY_OBB) moverBox.set(query.data);
  else if (query.kind === QUERY_AABB) obbFromAabb(moverBox, 0, query.data, 0);
  const c = p.collider, d = query.displacement, mask = query.mask, ignore = query.ignore;
  hit.entity = -1;
  hit.hitbox = -1;
  hit.triangle = -1;
  shapeQueryBounds(startBox, 0, query);
  activeQuery = query;
  for (let k = 0; k < 3; k++) motion[k] = d[k];
  const length = Math.max(Math.abs(d[0]), Math.abs(d[1]), Math.abs(d[2]));
  let magnitude = 0;
  for (let k = 0; k < 6; k++) magnitude = Math.max(magnitude, Math.abs(startBox[k]));
  walkTimes[WALK_FROM] = 0;
  walkTimes[WALK_TO] = walkTimes[WALK_LIMIT] = 1;
  walkTimes[WALK_SLACK] = WALK_SLACK_RELATIVE * (1 + (magnitude + 1) / length);
  walkLegs(p, startBox, d, mask | 0, ignore, shapeEntry, shapeExact, cast, bestCast, SHAPE_CAST_HIT_STRIDE);
  activeQuery = undefined;
  const bestEntity = legWalk.entity, best = walkTimes[WALK_T], bestPart = legWalk.part;
  if (bestEntity < 0) {
    nameHitbox(hit, p);
    return false;
  }
  hit.entity = bestEntity;
  hit.t = best;
  writeHypot(displacementLength, 0, d, 0);
  hit.distance = best * displacementLength[0];
  for (let k = 0; k < 3; k++) {
    hit.normal[k] = bestCast[1 + k];
    hit.point[k] = bestCast[4 + k];
  }
  hit.hitbox = c.kind[bestEntity] === SHAPE_CHARACTER ? bestPart : -1;
  hit.triangle = c.kind[bestEntity] === SHAPE_MESH ? bestPart : -1;
  nameHitbox(hit, p);
  return true;
}

/** When the query's shape, moved from its start, enters collider e's broad-phase box (a walk's entry test). */
function shapeEntry(c: ColliderStore, e: number): boolean {
  const entry = boxEntry(startBox, activeQuery!.displacement, c.aabb, 6 * e);
  walkTimes[WALK_ENTRY] = entry;
  return entry <= walkTimes[WALK_BOUND];
}

/** The exact cast of the query's shape against collider e (a walk's exact test). */
function shapeExact(p: CollisionPipeline, c: ColliderStore, e: number): number {
  motion[MOTION_LIMIT] = walkTimes[WALK_BEST];
  return castAgainst(p, c, e, activeQuery!);
}

/** Exact cast of the query's shape against collider e (into `cast`), up to motion[MOTION_LIMIT]. */
function castAgainst(p: CollisionPipeline, c: ColliderStore, e: number, q: ShapeQuery): number {
  const kind = c.kind[e];
  switch (kind) {
    case SHAPE_SPHERE:
    case SHAPE_AABB:
    case SHAPE_OBB:
    case SHAPE_CAPSULE:
      return castMover(q, kind, c.world, SHAPE_STRIDE * e) ? 0 : NO_HIT;
    case SHAPE_KDOP:
      // Over the whole motion: the k-DOP cast clips a polygon spanning [0, maxT], so its t's last
      // bits depend on maxT, and a cast's answer must not depend on the order colliders are met.
      return castMoverKdop(q, c.kdop, c.kdopK * e, c.kdopK) ? 0 : NO_HIT;
    case SHAPE_MESH:
      return castMesh(p, c, e, q);
    case SHAPE_CHARACTER:
      return castCharacter(p, c, e, q);
    default:
      return NO_HIT;
  }
}

/**
 * The query's shape against a primitive target of collider kind `kind` at target[to] (into
 * `cast`), up to motion[MOTION_LIMIT]. Boxes move as OBBs (moverBox, an AABB query's box made an
 * OBB once per cast).
 */
function castMover(q: ShapeQuery, kind: number, target: ArrayLike<number>, to: number): boolean {
  const m = q.data;
  switch (q.kind) {
    case QUERY_SPHERE:
      if (kind === SHAPE_SPHERE) return castSphereSphereArrays(cast, 0, m, 0, motion, 0, target, to);
      if (kind === SHAPE_AABB) return castSphereAabbArrays(cast, 0, m, 0, motion, 0, target, to);
      if (kind === SHAPE_OBB) return castSphereObbArrays(cast, 0, m, 0, motion, 0, target, to);
      return castSphereCapsuleArrays(cast, 0, m, 0, motion, 0, target, to);
    case QUERY_CAPSULE:
      if (kind === SHAPE_SPHERE) return castCapsuleSphereArrays(cast, 0, m, 0, motion, 0, target, to);
      if (kind === SHAPE_AABB) return castCapsuleAabbArrays(cast, 0, m, 0, motion, 0, target, to);
      if (kind === SHAPE_OBB) return castCapsuleObbArrays(cast, 0, m, 0, motion, 0, target, to);
      return castCapsuleCapsuleArrays(cast, 0, m, 0, motion, 0, target, to);
    default:
      if (kind === SHAPE_SPHERE) return castObbSphereArrays(cast, 0, moverBox, 0, motion, 0, target, to);
      if (kind === SHAPE_AABB) return castObbAabbArrays(cast, 0, moverBox, 0, motion, 0, target, to);
      if (kind === SHAPE_OBB) return castObbObbArrays(cast, 0, moverBox, 0, motion, 0, target, to);
      return castObbCapsuleArrays(cast, 0, moverBox, 0, motion, 0, target, to);
  }
}

/**
 * The query's shape against the k-DOP at kdop[ko] over the whole motion (into `cast`); a hit
 * counts up to motion[MOTION_LIMIT].
 */
function castMoverKdop(q: ShapeQuery, kdop: ArrayLike<number>, ko: number, k: KdopK): boolean {
  const limit = motion[MOTION_LIMIT];
  motion[MOTION_LIMIT] = 1;
  const hit = castMoverKdopWhole(q, kdop, ko, k);
  motion[MOTION_LIMIT] = limit;
  return hit && cast[0] <= limit;
}

/** castMoverKdop's cast, over the whole motion (motion[MOTION_LIMIT] = 1). */
function castMoverKdopWhole(q: ShapeQuery, kdop: ArrayLike<number>, ko: number, k: KdopK): boolean {
  const m = q.data;
  if (q.kind === QUERY_SPHERE) return castSphereKdopArrays(cast, 0, m, 0, motion, 0, kdop, ko, k);
  if (q.kind === QUERY_CAPSULE) return castCapsuleKdopArrays(cast, 0, m, 0, motion, 0, kdop, ko, k);
  return castObbKdopArrays(cast, 0, moverBox, 0, motion, 0, kdop, ko, k);
}

/** First triangle of mesh collider e, at its entity's pose, up to motion[MOTION_LIMIT] (the triangle index, or NO_HIT). */
function castMesh(p: CollisionPipeline, c: ColliderStore, e: number, q: ShapeQuery): number {
  const maxT = motion[MOTION_LIMIT];
  const tree = c.mesh[e];
  if (tree === undefined) return NO_HIT;
  entityPose(pose, 0, p.transform, e);
  const d = q.displacement;
  const kind = q.kind === QUERY_SPHERE ? 'sphere' : q.kind === QUERY_CAPSULE ? 'capsule' : 'obb';
  if (!shapecastTree(treeResult, tree, pose, 0, kind, q.kind === QUERY_SPHERE || q.kind === QUERY_CAPSULE ? q.data : moverBox, 0, d[0], d[1], d[2], maxT)) return NO_HIT;
  for (let k = 0; k < SHAPE_CAST_HIT_STRIDE; k++) cast[k] = treeResult.shapeHit[k];
  return treeResult.shapeTriangle;
}

/** First hitbox of character collider e up to motion[MOTION_LIMIT] (its index, or NO_HIT); equal t: the lower hitbox index. */
function castCharacter(p: CollisionPipeline, c: ColliderStore, e: number, q: ShapeQuery): number {
  const store = p.characters?.hitboxes;
  if (store === undefined) return NO_HIT;
  const ch = c.character[e];
  const first = store.firstHitbox[ch], end = first + store.hitboxCount[ch];
  const s = store.sphere, d = q.displacement;
  let found = NO_HIT;
  for (let h = first; h < end; h++) {
    const best = motion[MOTION_LIMIT];
    // The moving shape's box against the hitbox's bounding sphere's box first: most hitboxes are far.
    const so = SPHERE_STRIDE * h, r = s[so + 3];
    for (let k = 0; k < 3; k++) {
      sphereBox[k] = s[so + k] - r;
      sphereBox[3 + k] = s[so + k] + r;
    }
    if (boxEntry(startBox, d, sphereBox, 0) > best) continue;
    if (!castMover(q, SHAPE_OBB, store.world, OBB_STRIDE * h)) continue;
    if (found !== NO_HIT && cast[0] >= best) continue;
    motion[MOTION_LIMIT] = cast[0];
    found = h;
    for (let k = 0; k < SHAPE_CAST_HIT_STRIDE; k++) hitboxCast[k] = cast[k];
  }
  if (found !== NO_HIT) for (let k = 0; k < SHAPE_CAST_HIT_STRIDE; k++) cast[k] = hitboxCast[k];
  return found;
}
