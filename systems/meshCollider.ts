/**
 * Mesh colliders: a triangle mesh wrapped in a bounding tree (src/tree/build.ts) taking part in
 * the pipeline like any other collider. The tree is built once by the user and shared by every
 * entity that uses the mesh (`addMeshCollider(world, eid, tree)`); the collider store keeps a
 * reference per entity. The first mesh collider installs the tests below into its pipeline, so a
 * program without meshes does not bundle them. Its local shape is the tree's root box, so refitting and the
 * broad phase treat a mesh as an OBB; the narrow phase asks the tree, exactly, which triangles
 * meet the other collider.
 *
 * Trees take rigid poses, so a mesh collider's transform must have scale 1 (addMeshCollider,
 * setTransform, setScale and markTransformChanged check it). A non-sensor pair of a mesh and a sphere,
 * capsule, OBB or AABB gets one contact manifold (meshPairContact): the per-triangle contacts of
 * src/contacts/triangles.ts, filtered by the tree's active edges, merged into the deepest one's normal. Mesh-mesh pairs and sensor pairs
 * report touching and begin / stay / end events without a manifold (two meshes give intersection
 * segments, not a least-penetration normal). Exact against every kind but k-DOPs: a k-DOP pair is
 * always the conservative k-DOP test, here against the k-DOP of the mesh's root box, no manifold.
 */
import type { World } from 'bitecs';
import { buildBoundingTree, type BoundingTree, type BoundingTreeOptions } from '../src/tree/build';
import { CollideInputError } from '../src/errors';
import { grown } from '../src/broadphase/growable';
import {
  CONTACT_COUNT,
  CONTACT_DEPTH,
  CONTACT_FEATURE_A,
  CONTACT_NORMAL,
  CONTACT_POINTS,
  CONTACT_POINT_STRIDE,
  CONTACT_STRIDE,
  writeHeader,
  writePoint,
} from '../src/contacts/manifold';
import { reduceToFour } from '../src/contacts/clipping';
import { OBB_STRIDE, type Floats, type ReadonlyFloats } from '../src/layout';
import { obbFromAabb } from '../src/volumes/obb';
import { EDGE_FLAGS_ALL_ACTIVE, meshEdgeFlags } from '../src/contacts/meshEdges';
import { collideTrees } from '../src/tree/collideTrees';
import { overlapTreeCapsule, overlapTreeObb, overlapTreeSphere } from '../src/tree/overlapVolume';
import { POSE_STRIDE, transformByPose } from '../src/tree/pose';
import { TreeQueryResult } from '../src/tree/queryResult';
import { contactCapsuleTriangle, contactSphereTriangle } from '../src/contacts/roundTriangle';
import { contactObbTriangle } from '../src/contacts/boxTriangle';
import { SHAPE_AABB, SHAPE_CAPSULE, SHAPE_MESH, SHAPE_OBB, SHAPE_SPHERE, SHAPE_STRIDE, type ColliderStore } from '../components/collider';
import type { TransformStore } from '../components/transform';
import { MESH_CONTACT_NORMAL_COS, MESH_POINT_MERGE } from '../src/tolerances';
import { pipelineOf, type CollisionPipeline, type MeshKind } from './collisionState';
import { COLLIDER_OPTION_KEYS, assertMeshScale, attachCollider, checkColliderOptions, type ColliderOptions } from './colliderApi';
import { entityPose } from './entityPose';

const result = new TreeQueryResult();
const poses = new Float64Array(2 * POSE_STRIDE);
const boxAsObb = new Float64Array(OBB_STRIDE);

/** Writes the root volume of `tree` (mesh frame, OBB layout) at out[o]: the mesh collider's local shape. */
function meshLocalShape(out: Float32Array, o: number, tree: BoundingTree): void {
  for (let k = 0; k < OBB_STRIDE; k++) out[o + k] = tree.nodes[k];
}

/** What the first mesh collider installs into its pipeline. */
const MESH_KIND: MeshKind = { manifoldKind: meshManifoldKind, pairContact: meshPairContact, pairOverlap: meshPairOverlap, overlapsObb: meshOverlapsObb };

/**
 * Gives entity `eid` a mesh collider (or makes its collider one): `tree`, an OBB tree from
 * buildBoundingTree, built once and shared by any number of entities. The entity's transform scale
 * must be 1 (trees are posed rigidly). Options as for addCollider. Throws CollideInputError for a
 * dead entity, a tree that is not an OBB tree, a scale other than 1, or an invalid option,
 * leaving the entity unchanged.
 */
export function addMeshCollider(target: World | CollisionPipeline, eid: number, tree: BoundingTree, options: ColliderOptions = {}): void {
  const p = pipelineOf(target, 'addMeshCollider');
  const what = `addMeshCollider(entity ${eid})`;
  const bits = checkColliderOptions(p, eid, options, COLLIDER_OPTION_KEYS, 'addMeshCollider');
  attachCollider(p, eid, options, bits, () => {
    if (tree === null || typeof tree !== 'object' || !(tree.nodes instanceof Float64Array)) {
      throw new CollideInputError(`${what}: tree must be a tree from buildBoundingTree`);
    }
    if (tree.kind !== 'obb') throw new CollideInputError(`${what}: tree must be an OBB tree (kind 'obb'), got kind '${tree.kind}'`);
    assertMeshScale(p.transform.scale[eid], what);
    meshLocalShape(p.collider.local, SHAPE_STRIDE * eid, tree);
    p.collider.mesh[eid] = tree;
    return SHAPE_MESH;
  });
  p.meshKind = MESH_KIND;
}

/**
 * buildBoundingTree on the worker pool of `target`'s pipeline (its `workers` option), for meshes
 * of at least 4,096 triangles (PARALLEL_MIN_TREE_TRIANGLES); smaller meshes, and pipelines
 * without a pool, build on the calling thread. The tree is the same to the bit either way. The
 * pool keeps its build arrays for the next build (about 700 bytes per triangle of the largest
 * mesh built, on SharedArrayBuffers). Throws CollideInputError as buildBoundingTree does, and
 * when `target` has no pipeline.
 */
export function buildMeshTree(target: World | CollisionPipeline, positions: ReadonlyFloats, indices: ReadonlyFloats, options: BoundingTreeOptions = {}): BoundingTree {
  const parallel = pipelineOf(target, 'buildMeshTree').parallel;
  if (parallel !== undefined && indices.length / 3 >= parallel.minTreeTriangles) return parallel.buildTree(positions, indices, options);
  return buildBoundingTree(positions, indices, options);
}

/** Does any triangle of mesh collider `mesh` meet the world box at box[bo] (touching counts)? */
export function meshOverlapsObb(c: ColliderStore, t: TransformStore, mesh: number, box: ArrayLike<number>, bo: number): boolean {
  entityPose(poses, 0, t, mesh);
  return overlapTreeObb(result, c.mesh[mesh] as BoundingTree, poses, 0, box, bo, 'first') > 0;
}

/**
 * Exact test of a pair in which at least one collider is a mesh (and neither is a k-DOP): true when
 * a triangle of the mesh meets the other collider's world shape (touching counts), or, for two
 * meshes, when two triangles meet.
 */
export function meshPairOverlap(c: ColliderStore, t: TransformStore, a: number, b: number): boolean {
  const mesh = c.kind[a] === SHAPE_MESH ? a : b;
  const other = mesh === a ? b : a;
  const tree = c.mesh[mesh] as BoundingTree;
  entityPose(poses, 0, t, mesh);
  const w = c.world;
  const o = SHAPE_STRIDE * other;
  switch (c.kind[other]) {
    case SHAPE_MESH:
      entityPose(poses, POSE_STRIDE, t, other);
      return collideTrees(result, tree, poses, 0, c.mesh[other] as BoundingTree, poses, POSE_STRIDE, 'first') > 0;
    case SHAPE_SPHERE:
      return overlapTreeSphere(result, tree, poses, 0, w, o, 'first') > 0;
    case SHAPE_CAPSULE:
      return overlapTreeCapsule(result, tree, poses, 0, w, o, 'first') > 0;
    case SHAPE_AABB:
      return overlapTreeObb(result, tree, poses, 0, obbFromAabb(boxAsObb, 0, w, o), 0, 'first') > 0;
    default:
      return overlapTreeObb(result, tree, poses, 0, w, o, 'first') > 0;
  }
}

// Pooled scratch for meshPairContact: per-triangle manifolds, then the merged points.
let triangleManifolds = new Float64Array(16 * CONTACT_STRIDE);
let triangleIds = new Uint32Array(16);
let mergedPoints = new Float64Array(48);
let mergedDepths = new Float64Array(16);
const chosen = new Int32Array(4);
const worldPoint = new Float64Array(3);
/** Tree-order index of each mesh triangle index, per tree (query results hold mesh indices). */
const treeOrder = new WeakMap<BoundingTree, Uint32Array>();

function treeOrderOf(tree: BoundingTree): Uint32Array {
  let order = treeOrder.get(tree);
  if (order === undefined) {
    order = new Uint32Array(tree.triangleCount);
    for (let t = 0; t < tree.triangleCount; t++) order[tree.triangleIds[t]] = t;
    treeOrder.set(tree, order);
  }
  return order;
}

/** Does the pair (mesh, other) get a manifold: the other is a sphere, capsule, OBB or AABB. */
export function meshManifoldKind(kind: number): boolean {
  return kind === SHAPE_SPHERE || kind === SHAPE_CAPSULE || kind === SHAPE_OBB || kind === SHAPE_AABB;
}

/**
 * Contact manifold of collider `other` (sphere, capsule, OBB or AABB: meshManifoldKind) against
 * mesh collider `mesh`, normal from `other` to the mesh, written at out[oo]; returns its point
 * count, 0 when they do not touch. Every triangle the tree finds gets its own contact
 * (src/contacts/triangles.ts) with the tree's active-edge mask (src/contacts/meshEdges.ts), so
 * internal edges and vertices of flat or concave parts give the face normal, not a "ghost" edge
 * normal; the deepest gives the normal, the depth and feature A (of `other`); feature B is that
 * triangle's mesh index. The points are those of every triangle contact whose normal lies within
 * MESH_CONTACT_NORMAL_COS of it, merged (MESH_POINT_MERGE) and reduced to 4 well spread (the
 * deepest first), each with its own triangle's depth.
 *
 * A crease (floor and wall at once) keeps the deepest surface only: one manifold has one normal,
 * and a merged normal would push along a direction neither surface has.
 *
 * Reports a manifold exactly when `meshPairOverlap` reports touching: the triangle contacts run in
 * the mesh frame on the very numbers the tree's leaf tests saw (the query volume the tree moved
 * into its frame, `TreeQueryResult.query`, and the tree's own triangles), each kernel reports a
 * point wherever its leaf test reports the triangle, and the manifold is moved to the world at the
 * end. The active-edge filter alone may leave every found triangle without a contact: over a
 * convex edge bent by less than the flat-edge angle, a shape can touch the edge from the narrow
 * wedge above it that neither face lies under. The unfiltered contacts decide then; their normals
 * lie within that angle of both faces.
 */
export function meshPairContact(c: ColliderStore, t: TransformStore, other: number, mesh: number, out: Floats, oo: number): number {
  const tree = c.mesh[mesh] as BoundingTree;
  entityPose(poses, 0, t, mesh);
  const w = c.world, o = SHAPE_STRIDE * other, kind = c.kind[other];
  const box = kind === SHAPE_AABB ? obbFromAabb(boxAsObb, 0, w, o) : w;
  const bo = kind === SHAPE_AABB ? 0 : o;
  const found = kind === SHAPE_SPHERE ? overlapTreeSphere(result, tree, poses, 0, w, o, 'all')
    : kind === SHAPE_CAPSULE ? overlapTreeCapsule(result, tree, poses, 0, w, o, 'all')
      : overlapTreeObb(result, tree, poses, 0, box, bo, 'all');
  triangleManifolds = grown(triangleManifolds, found * CONTACT_STRIDE);
  triangleIds = grown(triangleIds, found);
  let m = triangleContacts(tree, kind, found, true);
  if (m === 0) m = triangleContacts(tree, kind, found, false);
  if (m === 0) {
    out[oo + CONTACT_COUNT] = 0;
    return 0;
  }
  let deepest = 0;
  for (let i = 1; i < m; i++) if (triangleManifolds[i * CONTACT_STRIDE + CONTACT_DEPTH] > triangleManifolds[deepest * CONTACT_STRIDE + CONTACT_DEPTH]) deepest = i;
  const d = deepest * CONTACT_STRIDE;
  const nx = triangleManifolds[d + CONTACT_NORMAL], ny = triangleManifolds[d + CONTACT_NORMAL + 1], nz = triangleManifolds[d + CONTACT_NORMAL + 2];
  const depth = triangleManifolds[d + CONTACT_DEPTH];
  const merge2 = (MESH_POINT_MERGE * tree.scale) ** 2;
  mergedPoints = grown(mergedPoints, 12 * m);
  mergedDepths = grown(mergedDepths, 4 * m);
  let n = 0;
  for (let i = 0; i < m; i++) {
    const mo = i * CONTACT_STRIDE;
    const agreement = nx * triangleManifolds[mo] + ny * triangleManifolds[mo + 1] + nz * triangleManifolds[mo + 2];
    if (i !== deepest && agreement < MESH_CONTACT_NORMAL_COS) continue;
    for (let q = 0; q < triangleManifolds[mo + CONTACT_COUNT]; q++) {
      const p = mo + CONTACT_POINTS + CONTACT_POINT_STRIDE * q;
      const x = triangleManifolds[p], y = triangleManifolds[p + 1], z = triangleManifolds[p + 2], pd = triangleManifolds[p + 3];
      let same = -1;
      for (let k = 0; k < n && same < 0; k++) {
        const dx = mergedPoints[3 * k] - x, dy = mergedPoints[3 * k + 1] - y, dz = mergedPoints[3 * k + 2] - z;
        if (dx * dx + dy * dy + dz * dz <= merge2) same = k;
      }
      const k = same >= 0 ? same : n++;
      if (same >= 0 && mergedDepths[k] >= pd) continue;
      mergedPoints[3 * k] = x; mergedPoints[3 * k + 1] = y; mergedPoints[3 * k + 2] = z;
      mergedDepths[k] = pd;
    }
  }
  // Spread measured across the normal: in the two mesh-frame coordinates other than its largest.
  const ax = Math.abs(nx), ay = Math.abs(ny), az = Math.abs(nz);
  const major = ax >= ay && ax >= az ? 0 : ay >= az ? 1 : 2;
  if (n > 4) reduceToFour(mergedPoints, mergedDepths, n, (major + 1) % 3, (major + 2) % 3, chosen);
  const count = n > 4 ? 4 : n;
  // Back to the world: points by the pose, the normal by its rotation.
  for (let q = 0; q < count; q++) {
    const i = n > 4 ? chosen[q] : q;
    transformByPose(worldPoint, 0, poses, 0, mergedPoints, 3 * i, 1);
    writePoint(out, oo, q, worldPoint[0], worldPoint[1], worldPoint[2], mergedDepths[i]);
  }
  const r = poses;
  return writeHeader(
    out, oo,
    r[3] * nx + r[6] * ny + r[9] * nz, r[4] * nx + r[7] * ny + r[10] * nz, r[5] * nx + r[8] * ny + r[11] * nz,
    depth, count, triangleManifolds[d + CONTACT_FEATURE_A], triangleIds[deepest],
  );
}

/**
 * Per-triangle contacts (mesh frame) of the query volume left in `result.query` (a sphere, capsule
 * or OBB by `kind`; an AABB was queried as an OBB) with the `found` triangles of `result`, into
 * triangleManifolds / triangleIds; returns how many gave one. `filtered`: with the tree's
 * active-edge masks, else unfiltered (every edge and vertex active).
 */
function triangleContacts(tree: BoundingTree, kind: number, found: number, filtered: boolean): number {
  const order = treeOrderOf(tree);
  const edges = meshEdgeFlags(tree);
  const q = result.query, triangles = tree.triangles;
  let m = 0;
  for (let i = 0; i < found; i++) {
    const id = result.triangles[i];
    const t = order[id];
    const mo = m * CONTACT_STRIDE;
    const active = filtered ? edges[t] : EDGE_FLAGS_ALL_ACTIVE;
    const count = kind === SHAPE_SPHERE ? contactSphereTriangle(triangleManifolds, mo, q, 0, triangles, 9 * t, active)
      : kind === SHAPE_CAPSULE ? contactCapsuleTriangle(triangleManifolds, mo, q, 0, triangles, 9 * t, active)
        : contactObbTriangle(triangleManifolds, mo, q, 0, triangles, 9 * t, active);
    if (count === 0) continue;
    triangleIds[m] = id;
    m++;
  }
  return m;
}
