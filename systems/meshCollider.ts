/**
 * Mesh colliders: a triangle mesh wrapped in a bounding tree (src/boundingTree.ts) taking part in
 * the pipeline like any other collider. The tree is built once by the user and shared by every
 * entity that uses the mesh (`addCollider(world, eid, { shape: 'mesh', tree })`); the collider
 * store keeps a reference per entity. Its local shape is the tree's root box, so refitting and the
 * broad phase treat a mesh as an OBB; the narrow phase asks the tree, exactly, whether any
 * triangle meets the other collider.
 *
 * Trees take rigid poses, so a mesh collider's transform must have scale 1 (setTransform and
 * addCollider and markTransformChanged check it). Mesh pairs report touching and begin / stay /
 * end events; they add no contact manifold (the tree queries return triangles and intersection
 * segments, not a least-penetration normal). Exact against every kind but k-DOPs: a k-DOP pair is
 * always the conservative k-DOP test, here against the k-DOP of the mesh's root box.
 */
import type { BoundingTree } from '../src/boundingTree';
import { OBB_STRIDE } from '../src/layout';
import { obbFromAabb } from '../src/obb';
import { collideTrees, overlapTreeCapsule, overlapTreeObb, overlapTreeSphere, poseFromTranslationQuaternion, POSE_STRIDE, TreeQueryResult } from '../src/obbTree';
import { SHAPE_AABB, SHAPE_CAPSULE, SHAPE_MESH, SHAPE_SPHERE, SHAPE_STRIDE, type ColliderStore } from '../components/collider';
import type { TransformStore } from '../components/transform';

const result = new TreeQueryResult();
const poses = new Float64Array(2 * POSE_STRIDE);
const boxAsObb = new Float64Array(OBB_STRIDE);
const quaternion = new Float64Array(4);

/** Writes the root volume of `tree` (mesh frame, OBB layout) at out[o]: the mesh collider's local shape. */
export function meshLocalShape(out: Float32Array, o: number, tree: BoundingTree): void {
  for (let k = 0; k < OBB_STRIDE; k++) out[o + k] = tree.nodes[k];
}

/** Rigid pose of entity `eid` (its transform's position and rotation) at poses[po]. */
function entityPose(t: TransformStore, eid: number, po: number): void {
  for (let k = 0; k < 4; k++) quaternion[k] = t.rotation[4 * eid + k];
  poseFromTranslationQuaternion(poses, po, t.position[3 * eid], t.position[3 * eid + 1], t.position[3 * eid + 2], quaternion);
}

/** Does any triangle of mesh collider `mesh` meet the world box at box[bo] (touching counts)? */
export function meshOverlapsObb(c: ColliderStore, t: TransformStore, mesh: number, box: ArrayLike<number>, bo: number): boolean {
  entityPose(t, mesh, 0);
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
  entityPose(t, mesh, 0);
  const w = c.world;
  const o = SHAPE_STRIDE * other;
  switch (c.kind[other]) {
    case SHAPE_MESH:
      entityPose(t, other, POSE_STRIDE);
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
