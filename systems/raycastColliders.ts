/**
 * raycastColliders: the nearest collider of a pipeline's world on a ray, for hit detection
 * (shots, line of sight, picking). It reads the volumes of the last `step`: world shapes as
 * refitted, mesh trees at their entity's transform, character hitboxes as last updated.
 *
 * The ray is walked in legs through the broad phase's structure (legWalk.ts, as the shape casts
 * are); each leg's new candidates are taken in the order the ray enters their broad-phase boxes
 * (each box contains its shape) and cast exactly with the kernel of their shape
 * (src/query/raycast.ts, raycastTree for meshes, the hitboxes of a character one by one) until
 * the next entry comes after the best hit. For thousands of rays a frame, raycastCollidersBatch
 * splits them between the pipeline's worker threads; raycastCharactersBatch casts at characters
 * alone through their own ray grid.
 */
import type { World } from 'bitecs';
import { OBB_STRIDE } from '../src/layout';
import { POSE_STRIDE } from '../src/tree/pose';
import { raycastTreeArrays } from '../src/tree/raycastTree';
import { TreeQueryResult } from '../src/tree/queryResult';
import { RAY_HIT_STRIDE, RAY_INPUT_STRIDE, raycastAabbArrays, raycastCapsuleArrays, raycastKdopArrays, raycastObbArrays, raycastSphereArrays } from '../src/query/raycast';
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
import { rayLimit, type RayQuery } from '../src/query/rayQuery';
import { entityPose } from './entityPose';
import { HIT_GROUP_NAMES } from '../src/character/hitGroups';
import { castHitboxRange, prepareHitboxRayBatch, type HitboxRayHits } from '../src/character/hitboxRaycast';
import { createHitboxStore } from '../src/character/hitboxStore';
import { createCharacterRayGrid } from '../src/character/rayGrid';
import { CollideInputError, assertHitRecord } from '../src/errors';
import { WALK_SLACK_RELATIVE } from '../src/tolerances';
import { writeHypot } from '../src/hypot';
import type { RayBatch } from '../src/query/rayQuery';

/**
 * The nearest hit of `raycastColliders` (written in place; entity -1 after a miss). Shape casts
 * report in the same record (ColliderShapeHit), t then being the fraction of the displacement.
 */
export interface ColliderRayHit {
  /** Entity hit, or -1. */
  entity: number;
  /** Ray parameter of the hit: the point is origin + t·direction (t in units of |direction|). */
  t: number;
  /** t·|direction|: the distance from the origin, world units. */
  distance: number;
  /** World point of the hit. */
  readonly point: Float64Array;
  /** Unit surface normal at the point, facing the ray (normal·direction <= 0). */
  readonly normal: Float64Array;
  /** Character colliders: the hitbox hit (index into the hitbox store), else -1. */
  hitbox: number;
  /** Character colliders: the name of the hitbox's bone, else ''. */
  boneName: string;
  /** Character colliders: the hit group (HIT_GROUP_*), else -1. */
  group: number;
  /** Character colliders: the hit group's name ('head', 'torso', ...), else ''. */
  groupName: string;
  /** Mesh colliders: the mesh triangle hit, else -1. */
  triangle: number;
}

/** A reusable hit record for `raycastColliders`. */
export function createColliderRayHit(): ColliderRayHit {
  return { entity: -1, t: 0, distance: 0, point: new Float64Array(3), normal: new Float64Array(3), hitbox: -1, boneName: '', group: -1, groupName: '', triangle: -1 };
}

const cast = new Float64Array(RAY_HIT_STRIDE);
const bestCast = new Float64Array(RAY_HIT_STRIDE);
const boxEntry = new Float64Array(RAY_HIT_STRIDE);
const treeResult = new TreeQueryResult();
const pose = new Float64Array(POSE_STRIDE);
/** The ray being cast: origin, direction, and the limit of the test at hand (RAY_INPUT_STRIDE; what the walk's tests read). */
const ray = new Float64Array(RAY_INPUT_STRIDE);
const RAY_LIMIT = 6;
/** The ray's direction alone (the walk's motion). */
const rayDirection = new Float64Array(3);
/** The ray's origin as a box (the walk's moving box: a point). */
const rayStart = new Float64Array(6);
/** The part of the ray the walk visits: where it enters and leaves the colliders' bounds; then the ray's limit and length (rayLimit). */
const span = new Float64Array(4);
const SPAN_LIMIT = 2;
const SPAN_LENGTH = 3;

/**
 * Casts the query's ray, origin + t·direction for t up to maxDistance / |direction|, against
 * every collider whose layer shares a bit with `query.mask`, except entity `query.ignore` (e.g.
 * the shooter). Returns whether something was hit and writes the nearest hit into `hit`; among
 * hits at the same t the lowest entity id wins, so the answer does not depend on creation order.
 * A ray starting inside a solid shape hits it at t = 0 (normal −direction/|direction|). k-DOP
 * colliders are cast against their k-DOP. Character hits name the bone and hit group.
 * Candidates come from the broad phase's structure along the ray, as castShapeColliders finds
 * them, so it reads the colliders as of the last `step`: one added since is found from the next
 * step on. Throws CollideInputError for a query field that is not finite, lies outside
 * ±MAX_COORDINATE or is otherwise invalid (a negative maxDistance, a mask outside uint32),
 * naming it; a zero direction tests the origin point alone (t = 0, a zero normal). Allocates no objects, and the ray kernels and their helpers pass
 * their numbers in arrays, so a ray leaves next to no garbage (docs/design/shape-queries.md).
 */
export function raycastColliders(target: World | CollisionPipeline, hit: ColliderRayHit, query: RayQuery): boolean {
  const p = pipelineOf(target, 'raycastColliders');
  assertHitRecord(hit, 'raycastColliders', 'createColliderRayHit');
  rayLimit(span, SPAN_LIMIT, query, 'raycastColliders');
  return castRay(p, hit, query.origin, query.direction, 0, query.mask | 0, query.ignore);
}

/**
 * @internal Ray i of a batch that rayBatchLimits validated (its limit written), cast as
 * raycastColliders casts the same ray, to the bit: a batch checks its rays once, up front.
 */
export function raycastCollidersAt(p: CollisionPipeline, hit: ColliderRayHit, rays: RayBatch, i: number): boolean {
  span[SPAN_LIMIT] = rays.limit[i];
  writeHypot(span, SPAN_LENGTH, rays.direction, 3 * i);
  return castRay(p, hit, rays.origin, rays.direction, 3 * i, rays.mask[i] | 0, rays.ignore[i]);
}

/** The ray at origin[ro], direction[ro] (its limit and length in `span`; its layer mask as an int32) cast into `hit`. */
function castRay(p: CollisionPipeline, hit: ColliderRayHit, origin: Float64Array, direction: Float64Array, ro: number, mask: number, ignore: number): boolean {
  hit.entity = -1;
  hit.hitbox = -1;
  hit.boneName = hit.groupName = '';
  hit.group = -1;
  hit.triangle = -1;
  for (let k = 0; k < 3; k++) {
    ray[k] = rayStart[k] = rayStart[3 + k] = origin[ro + k];
    ray[3 + k] = rayDirection[k] = direction[ro + k];
  }
  // The walk's legs need an end, and a ray may be unlimited: its part inside the colliders' bounds.
  const bounds = colliderBounds(p);
  if (!clipToBounds(bounds)) return false;
  const length = Math.max(Math.abs(ray[3]), Math.abs(ray[4]), Math.abs(ray[5]));
  const magnitude = Math.max(Math.abs(ray[0]), Math.abs(ray[1]), Math.abs(ray[2]), -bounds[0], -bounds[1], -bounds[2], bounds[3], bounds[4], bounds[5]);
  walkTimes[WALK_FROM] = span[0];
  walkTimes[WALK_TO] = span[1];
  walkTimes[WALK_LIMIT] = span[SPAN_LIMIT];
  walkTimes[WALK_SLACK] = length > 0 ? WALK_SLACK_RELATIVE * (span[1] + (magnitude + 1) / length) : 0;
  walkLegs(p, rayStart, rayDirection, mask, ignore, rayEntry, rayExact, cast, bestCast, RAY_HIT_STRIDE);
  const e = legWalk.entity;
  if (e < 0) return false;
  const c = p.collider, t = walkTimes[WALK_T];
  hit.entity = e;
  hit.t = t;
  for (let k = 0; k < 3; k++) hit.normal[k] = bestCast[1 + k];
  hit.hitbox = c.kind[e] === SHAPE_CHARACTER ? legWalk.part : -1;
  hit.triangle = c.kind[e] === SHAPE_MESH ? legWalk.part : -1;
  nameHitbox(hit, p);
  hit.distance = t * span[SPAN_LENGTH];
  for (let k = 0; k < 3; k++) hit.point[k] = ray[k] + t * ray[3 + k];
  return true;
}

/** When the ray enters collider e's broad-phase box, up to `best` (a walk's entry test). */
function rayEntry(c: ColliderStore, e: number): boolean {
  ray[RAY_LIMIT] = walkTimes[WALK_BOUND];
  if (!raycastAabbArrays(boxEntry, ray, 0, c.aabb, 6 * e)) return false;
  walkTimes[WALK_ENTRY] = boxEntry[0];
  return true;
}

/** The exact cast of the ray against collider e (a walk's exact test). */
function rayExact(p: CollisionPipeline, c: ColliderStore, e: number): number {
  ray[RAY_LIMIT] = walkTimes[WALK_BEST];
  return castShape(p, c, e);
}

/**
 * @internal The bounds of every collider's broad-phase box (min-max, widened by
 * WALK_SLACK_RELATIVE; inverted when there is none), made once per step.
 */
export function colliderBounds(p: CollisionPipeline): Float64Array {
  const s = p.scratch, b = s.rayBounds;
  if (s.rayBoundsRun === s.broadPhaseRuns) return b;
  s.rayBoundsRun = s.broadPhaseRuns;
  b[0] = b[1] = b[2] = Infinity;
  b[3] = b[4] = b[5] = -Infinity;
  const c = p.collider, boxes = c.aabb;
  for (let i = 0; i < c.count; i++) {
    const o = 6 * c.ids[i];
    for (let k = 0; k < 3; k++) {
      if (boxes[o + k] < b[k]) b[k] = boxes[o + k];
      if (boxes[o + 3 + k] > b[3 + k]) b[3 + k] = boxes[o + 3 + k];
    }
  }
  for (let k = 0; c.count > 0 && k < 3; k++) {
    const slack = WALK_SLACK_RELATIVE * (1 + b[3 + k] - b[k] + Math.max(Math.abs(b[k]), Math.abs(b[3 + k])));
    b[k] -= slack;
    b[3 + k] += slack;
  }
  return b;
}

/** Writes into `span` the ray's parameters where it enters and leaves `bounds`, within [0, span[SPAN_LIMIT]]; false when it misses them there. */
function clipToBounds(bounds: Float64Array): boolean {
  if (!(bounds[0] <= bounds[3])) return false;
  let enter = 0, exit = span[SPAN_LIMIT];
  for (let k = 0; k < 3; k++) {
    const o = ray[k], v = ray[3 + k], lo = bounds[k], hi = bounds[3 + k];
    if (v === 0) {
      if (!(o >= lo && o <= hi)) return false;
      continue;
    }
    const t0 = ((v > 0 ? lo : hi) - o) / v, t1 = ((v > 0 ? hi : lo) - o) / v;
    if (t0 > enter) enter = t0;
    if (t1 < exit) exit = t1;
  }
  if (!(enter <= exit)) return false;
  span[0] = enter;
  span[1] = exit;
  return true;
}

/**
 * Fills a hit's bone and hit-group fields from its `hitbox` (-1: not a character hit, blank fields).
 * @internal
 */
export function nameHitbox(hit: Pick<ColliderRayHit, 'hitbox' | 'boneName' | 'group' | 'groupName'>, p: CollisionPipeline): void {
  const h = hit.hitbox, hitboxes = p.characters?.hitboxes;
  hit.boneName = h >= 0 ? hitboxes!.boneName[h] : '';
  hit.group = h >= 0 ? hitboxes!.group[h] : -1;
  hit.groupName = h >= 0 ? HIT_GROUP_NAMES[hit.group] : '';
}


/** Exact cast of `ray` against collider e (t and normal into `cast`), up to ray[RAY_LIMIT]. */
function castShape(p: CollisionPipeline, c: ColliderStore, e: number): number {
  const o = SHAPE_STRIDE * e;
  switch (c.kind[e]) {
    case SHAPE_SPHERE:
      return raycastSphereArrays(cast, ray, 0, c.world, o) ? 0 : NO_HIT;
    case SHAPE_AABB:
      return raycastAabbArrays(cast, ray, 0, c.world, o) ? 0 : NO_HIT;
    case SHAPE_OBB:
      return raycastObbArrays(cast, ray, 0, c.world, o) ? 0 : NO_HIT;
    case SHAPE_CAPSULE:
      return raycastCapsuleArrays(cast, ray, 0, c.world, o) ? 0 : NO_HIT;
    case SHAPE_KDOP:
      return raycastKdopArrays(cast, ray, 0, c.kdop, c.kdopK * e, c.kdopK) ? 0 : NO_HIT;
    case SHAPE_MESH:
      return castMesh(p, c, e);
    case SHAPE_CHARACTER:
      return castCharacter(p, c, e);
    default:
      return NO_HIT;
  }
}

function castMesh(p: CollisionPipeline, c: ColliderStore, e: number): number {
  const tree = c.mesh[e];
  if (tree === undefined) return NO_HIT;
  entityPose(pose, 0, p.transform, e);
  if (!raycastTreeArrays(treeResult, tree, pose, 0, ray, 0)) return NO_HIT;
  for (let k = 0; k < RAY_HIT_STRIDE; k++) cast[k] = treeResult.hit[k];
  return treeResult.hit[RAY_HIT_STRIDE];
}

/** Nearest hitbox of character collider e (its index, or NO_HIT). */
function castCharacter(p: CollisionPipeline, c: ColliderStore, e: number): number {
  const store = p.characters?.hitboxes;
  if (store === undefined) return NO_HIT;
  const ch = c.character[e];
  const first = store.firstHitbox[ch], end = first + store.hitboxCount[ch];
  let found = NO_HIT;
  for (let h = first; h < end; h++) {
    if (!raycastObbArrays(boxEntry, ray, 0, store.world, OBB_STRIDE * h)) continue;
    // Equal t: the lower hitbox index, as raycastHitboxes keeps the first it finds in store order.
    if (boxEntry[0] === ray[RAY_LIMIT] && found !== NO_HIT) continue;
    ray[RAY_LIMIT] = boxEntry[0];
    found = h;
    for (let k = 0; k < RAY_HIT_STRIDE; k++) cast[k] = boxEntry[k];
  }
  return found;
}

// What a pipeline without characters casts a batch against: nothing (every ray misses).
const noHitboxes = createHitboxStore();
const noRayGrid = createCharacterRayGrid();

/**
 * Casts every ray of `rays` against the hitboxes of the pipeline's characters (as last updated by
 * `step`) and writes ray i's nearest hit at index i of `hits` (hitbox −1 for a miss): the numbers
 * raycastHitboxes gives for that ray over the pipeline's character stores and ray grid. Returns
 * the number of rays that hit. With the `workers` option, a batch of at least
 * `minHitboxRays` (512) rays is split between the calling thread and the workers when `rays` and
 * `hits` are on SharedArrayBuffers (createRayBatch(n, true), createHitboxRayHits(n, true)), with
 * the same results. Throws CollideInputError, before casting, for a bad ray field or short arrays
 * (naming the field, index and ray), or when the `characters` option gave stores without a ray grid.
 */
export function raycastCharactersBatch(target: World | CollisionPipeline, hits: HitboxRayHits, rays: RayBatch): number {
  const p = pipelineOf(target, 'raycastCharactersBatch');
  const state = p.characters;
  const store = state?.hitboxes ?? noHitboxes;
  const grid = state === undefined ? noRayGrid : state.rayGrid;
  if (grid === undefined) throw new CollideInputError('raycastCharactersBatch: the characters option gave no rayGrid (add one to cast rays at characters)');
  prepareHitboxRayBatch(hits, store, rays, 'raycastCharactersBatch');
  const parallel = p.parallel;
  if (parallel !== undefined && rays.count >= parallel.minHitboxRays) {
    const count = parallel.hitboxes.cast(hits, store, grid, rays);
    if (count >= 0) return count;
  }
  return castHitboxRange(hits, store, grid, rays, 0, rays.count);
}
