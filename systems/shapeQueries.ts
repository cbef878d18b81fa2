/**
 * overlapColliders: a world query with a shape (sphere, capsule, OBB, AABB) instead of a ray, for
 * area damage, triggers on demand, spawn checks; and the box queries it shares with shape casts
 * (shapeCasts.ts). It reads the volumes of the last `step`, as raycastColliders does: world shapes
 * as refitted, mesh trees at their entity's transform, character hitboxes as last updated.
 *
 * Candidates come from the broad phase's structure of that step, not from a scan of every
 * collider: the spatial hash (the default) answers box queries from its grids; for the other broad
 * phases the pipeline builds a column grid of its own on the first query after each broad phase
 * (docs/design/shape-queries.md measures both). Each candidate is then tested exactly with the
 * kernel of its kind.
 */
import type { World } from 'bitecs';
import { OBB_STRIDE, SPHERE_STRIDE } from '../src/layout';
import { POSE_STRIDE } from '../src/tree/pose';
import { TreeQueryResult } from '../src/tree/queryResult';
import { overlapTreeCapsule, overlapTreeObb, overlapTreeSphere } from '../src/tree/overlapVolume';
import { aabbOverlap } from '../src/volumes/aabb';
import { obbFromAabb } from '../src/volumes/obb';
import { sphereOverlap } from '../src/volumes/sphere';
import { aabbSphereOverlap, obbAabbOverlap, obbOverlap, obbSphereOverlap } from '../src/query/sat';
import { CLOSEST_SEGMENTS_STRIDE, closestSegments, SEGMENTS_DISTANCE } from '../src/query/closestPoints';
import { CONTACT_STRIDE } from '../src/contacts/manifold';
import { contactCapsuleObb } from '../src/contacts/capsuleBox';
import { QUERY_CAPSULE, QUERY_OBB, QUERY_SPHERE, assertShapeQuery, shapeQueryBounds, type ShapeQuery } from '../src/query/shapeQuery';
import { IdList, isBoxQueryable, sortIds, type BoxQueryable } from '../src/broadphase/boxQuery';
import { QueryGrid, SpatialHashQueries } from '../src/broadphase/gridQuery';
import { hasGrids } from '../src/broadphase/spatialHash';
import { CollideInputError } from '../src/errors';
import {
  SHAPE_AABB,
  SHAPE_CAPSULE,
  SHAPE_CHARACTER,
  SHAPE_KDOP,
  SHAPE_MESH,
  SHAPE_NONE,
  SHAPE_OBB,
  SHAPE_SPHERE,
  SHAPE_STRIDE,
  type ColliderStore,
} from '../components/collider';
import { pipelineOf, type CollisionPipeline } from './collisionState';
import { entityPose } from './entityPose';

const bounds = new Float64Array(6);
const candidates = new IdList();
const found = new IdList();
const closest = new Float64Array(CLOSEST_SEGMENTS_STRIDE + 1);
const manifold = new Float64Array(CONTACT_STRIDE);
const boxAsObb = new Float64Array(OBB_STRIDE);
const pointSegment = new Float64Array(6);
const treeResult = new TreeQueryResult();
const pose = new Float64Array(POSE_STRIDE);

/**
 * What answers box queries over the colliders of the last step: the spatial hash's grids, a broad
 * phase of yours that answers box queries, else the pipeline's query grid (built on the first query after each broad phase). Box queries read the
 * colliders' boxes from the store (`queryBox(p.collider.aabb, ...)`); each collider the last broad
 * phase saw comes once, those added since do not.
 * @internal
 */
export function boxQueries(p: CollisionPipeline): BoxQueryable {
  const b = p.broadPhase, s = p.scratch;
  if (hasGrids(b)) return (s.hashQueries ??= new SpatialHashQueries(b));
  if (isBoxQueryable(b)) return b;
  if (s.queryGridRun !== s.broadPhaseRuns) {
    s.queryGrid ??= new QueryGrid(p.parallel !== undefined);
    // The colliders the last broad phase saw, not those added since.
    s.queryGrid.build(p.collider.aabb, s.stepIds, s.broadInput.count);
    s.queryGridRun = s.broadPhaseRuns;
  }
  return s.queryGrid!;
}

/** Rank of a primitive kind in the tests below (the order src/contacts/ takes its arguments in). */
function rank(kind: number): number {
  return kind === SHAPE_CAPSULE ? 0 : kind === SHAPE_SPHERE ? 1 : kind === SHAPE_AABB ? 2 : 3;
}

/**
 * Whether primitive a (kind ka: sphere, AABB, OBB or capsule, collider layouts, at a[ao]) touches
 * primitive b: the narrow phase's boolean kernels (capsule against a box by its contact kernel,
 * as the narrow phase decides it), each reading its shapes from arrays. Touching counts.
 */
export function primitivesTouch(ka: number, a: ArrayLike<number>, ao: number, kb: number, b: ArrayLike<number>, bo: number): boolean {
  if (rank(kb) < rank(ka)) return primitivesTouch(kb, b, bo, ka, a, ao);
  switch (ka) {
    case SHAPE_CAPSULE: {
      if (kb === SHAPE_CAPSULE) {
        const r = a[ao + 6] + b[bo + 6];
        closestSegments(closest, 0, a, ao, b, bo);
        return closest[SEGMENTS_DISTANCE] <= r * r;
      }
      if (kb === SHAPE_SPHERE) {
        // The centre as a zero-length segment: the segment kernel reads it from an array.
        for (let k = 0; k < 3; k++) pointSegment[k] = pointSegment[3 + k] = b[bo + k];
        const r = a[ao + 6] + b[bo + 3];
        closestSegments(closest, 0, a, ao, pointSegment, 0);
        return closest[SEGMENTS_DISTANCE] <= r * r;
      }
      if (kb === SHAPE_AABB) return contactCapsuleObb(manifold, 0, a, ao, obbFromAabb(boxAsObb, 0, b, bo), 0) > 0;
      return contactCapsuleObb(manifold, 0, a, ao, b, bo) > 0;
    }
    case SHAPE_SPHERE:
      if (kb === SHAPE_SPHERE) return sphereOverlap(a, ao, b, bo);
      if (kb === SHAPE_AABB) return aabbSphereOverlap(b, bo, a, ao);
      return obbSphereOverlap(b, bo, a, ao);
    case SHAPE_AABB:
      return kb === SHAPE_AABB ? aabbOverlap(a, ao, b, bo) : obbAabbOverlap(b, bo, a, ao);
    default:
      return obbOverlap(a, ao, b, bo);
  }
}

/** Whether the query's shape (kind, data) touches collider e (any kind). */
function queryTouches(p: CollisionPipeline, c: ColliderStore, e: number, kind: number, data: Float64Array): boolean {
  switch (c.kind[e]) {
    case SHAPE_KDOP: // like every k-DOP pair: the conservative test of the two k-DOPs
      return p.kdopKind!.shapeOverlap(c, e, kind, data, 0);
    case SHAPE_MESH:
      return meshTouches(p, c, e, kind, data);
    case SHAPE_CHARACTER:
      return firstHitboxTouching(p, c, e, kind, data) >= 0;
    default:
      return primitivesTouch(kind, data, 0, c.kind[e], c.world, SHAPE_STRIDE * e);
  }
}

/** Whether the query's shape meets a triangle of mesh collider e, at its entity's pose. */
function meshTouches(p: CollisionPipeline, c: ColliderStore, e: number, kind: number, data: Float64Array): boolean {
  const tree = c.mesh[e];
  if (tree === undefined) return false;
  entityPose(pose, 0, p.transform, e);
  switch (kind) {
    case QUERY_SPHERE:
      return overlapTreeSphere(treeResult, tree, pose, 0, data, 0, 'first') > 0;
    case QUERY_CAPSULE:
      return overlapTreeCapsule(treeResult, tree, pose, 0, data, 0, 'first') > 0;
    case QUERY_OBB:
      return overlapTreeObb(treeResult, tree, pose, 0, data, 0, 'first') > 0;
    default:
      return overlapTreeObb(treeResult, tree, pose, 0, obbFromAabb(boxAsObb, 0, data, 0), 0, 'first') > 0;
  }
}

/** The first hitbox (store order) of character collider e that the query's shape touches, or -1. */
function firstHitboxTouching(p: CollisionPipeline, c: ColliderStore, e: number, kind: number, data: Float64Array): number {
  const store = p.characters?.hitboxes;
  if (store === undefined) return -1;
  const ch = c.character[e];
  const first = store.firstHitbox[ch], end = first + store.hitboxCount[ch];
  // The query's bounding box against each hitbox's bounding sphere first: most hitboxes are far.
  const s = store.sphere;
  for (let h = first; h < end; h++) {
    const so = SPHERE_STRIDE * h, r = s[so + 3];
    if (s[so] + r < bounds[0] || s[so] - r > bounds[3] || s[so + 1] + r < bounds[1] || s[so + 1] - r > bounds[4] || s[so + 2] + r < bounds[2] || s[so + 2] - r > bounds[5]) continue;
    if (primitivesTouch(kind, data, 0, SHAPE_OBB, store.world, OBB_STRIDE * h)) return h;
  }
  return -1;
}

/**
 * Writes into `out` the entities whose collider touches the query's shape (touching counts), in
 * ascending id order, among colliders whose layer shares a bit with `query.mask`, except
 * `query.ignore`; returns how many there are. An Int32Array receives the first `out.length` of
 * them (the lowest ids) when there are more: compare the count with its length; a number[] is
 * emptied and receives them all (reuse one: steady state allocates nothing).
 *
 * Exact per kind, with the narrow phase's kernels: spheres, capsules, AABBs and OBBs; meshes by
 * their triangles (the tree at the entity's pose); characters when any hitbox touches. k-DOP
 * colliders, as in the narrow phase, by the conservative k-DOP test (the query shape's exact
 * k-DOP against the collider's). Reads the colliders as of the last `step`: one added since is
 * found from the next step on. Throws CollideInputError for a query field that is not finite,
 * outside ±MAX_COORDINATE or otherwise invalid (negative radius, non-orthonormal axes, min > max,
 * a mask outside uint32), naming it. Allocation-free.
 */
export function overlapColliders(target: World | CollisionPipeline, out: Int32Array | number[], query: ShapeQuery): number {
  const p = pipelineOf(target, 'overlapColliders');
  assertShapeQuery(query, 'overlapColliders', false);
  const isArray = Array.isArray(out);
  if (!isArray && !(out instanceof Int32Array)) throw new CollideInputError(`overlapColliders: out must be an Int32Array or a number[], got ${String(out)}`);
  shapeQueryBounds(bounds, 0, query);
  candidates.count = 0;
  boxQueries(p).queryBox(p.collider.aabb, bounds, 0, candidates);
  const c = p.collider, kind = query.kind, data = query.data, mask = query.mask, ignore = query.ignore;
  const ids = candidates.ids;
  found.count = 0;
  for (let i = 0; i < candidates.count; i++) {
    const e = ids[i];
    if (e === ignore || c.kind[e] === SHAPE_NONE || (c.layer[e] & mask) === 0) continue;
    if (queryTouches(p, c, e, kind, data)) found.push(e);
  }
  const n = found.count;
  sortIds(found.ids, n);
  if (isArray) {
    const list = out as number[];
    list.length = 0;
    for (let i = 0; i < n; i++) list.push(found.ids[i]);
  } else {
    const list = out as Int32Array;
    const m = Math.min(n, list.length);
    for (let i = 0; i < m; i++) list[i] = found.ids[i];
  }
  return n;
}
