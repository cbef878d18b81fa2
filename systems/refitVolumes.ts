/**
 * refitVolumes: world shapes and broad-phase boxes of the colliders whose transform changed
 * since the last frame (the transform store's change list), from their LOCAL shapes, so volumes
 * stay tight and never drift. Math in doubles; results stored as Float32.
 *
 * The broad-phase box is computed from the stored (already rounded) world shape and rounded
 * outward, so it contains the shape exactly as the narrow phase will read it: rounding can
 * never make the broad phase miss a pair the narrow phase would report.
 */
import type { World } from 'bitecs';
import { aabbFromSphere, aabbTransform } from '../src/volumes/aabb';
import { unitStoredQuaternion } from '../src/rotation';
import { FLOAT32_RELATIVE_STEP, MAX_COORDINATE, MESH_BOX_ROUNDING_STEPS } from '../src/tolerances';
import { OBB_AXES, OBB_HALF } from '../src/layout';
import { obbTransform, obbTransformCentered } from '../src/volumes/obb';
import { sphereTransform } from '../src/volumes/sphere';
import {
  SHAPE_AABB,
  SHAPE_CAPSULE,
  SHAPE_CHARACTER,
  SHAPE_KDOP,
  SHAPE_MESH,
  SHAPE_OBB,
  SHAPE_SPHERE,
  SHAPE_STRIDE,
  storeBroadPhaseBox,
  type ColliderStore,
} from '../components/collider';
import { pipelineOf, type KdopKind } from './collisionState';
import { gatherPoses } from './poseSource';
import { storedPoseRefusal } from './colliderApi';
import { CollideInputError } from '../src/errors';
import { markChanged, type TransformStore } from '../components/transform';

const rotation = new Float64Array(4);
const translation = new Float64Array(3);
const tightBox = new Float64Array(6);
const endpoint = new Float64Array(4);

/** Refits one collider: world shape from the local one, then its tight world box into `tightBox`. */
function refitCollider(c: ColliderStore, eid: number, scale: number, kdop: KdopKind | undefined): void {
  const o = SHAPE_STRIDE * eid;
  const local = c.local;
  const world = c.world;
  switch (c.kind[eid]) {
    case SHAPE_SPHERE:
      sphereTransform(world, o, local, o, rotation, translation, scale);
      aabbFromSphere(tightBox, 0, world, o);
      break;
    case SHAPE_AABB:
      // The stored box is the shape itself: its Float32 corners need no outward rounding.
      aabbTransform(world, o, local, o, rotation, translation, scale);
      for (let k = 0; k < 6; k++) tightBox[k] = world[o + k];
      break;
    case SHAPE_OBB:
    case SHAPE_MESH: {
      if (c.centeredBox[eid] === 1) obbTransformCentered(world, o, local, o, rotation, translation, scale);
      else obbTransform(world, o, local, o, rotation, translation, scale);
      // Arvo's radius of the stored (rounded) box, around its stored centre.
      const h0 = world[o + OBB_HALF], h1 = world[o + OBB_HALF + 1], h2 = world[o + OBB_HALF + 2];
      const a = o + OBB_AXES;
      for (let k = 0; k < 3; k++) {
        const radius = Math.abs(world[a + k]) * h0 + Math.abs(world[a + 3 + k]) * h1 + Math.abs(world[a + 6 + k]) * h2;
        tightBox[k] = world[o + k] - radius;
        tightBox[3 + k] = world[o + k] + radius;
      }
      break;
    }
    case SHAPE_CAPSULE: {
      // Each endpoint as a sphere: the second call's "radius" slot reads the capsule radius.
      sphereTransform(endpoint, 0, local, o, rotation, translation, scale);
      world[o] = endpoint[0];
      world[o + 1] = endpoint[1];
      world[o + 2] = endpoint[2];
      sphereTransform(world, o + 3, local, o + 3, rotation, translation, scale);
      const r = world[o + 6];
      for (let k = 0; k < 3; k++) {
        tightBox[k] = Math.min(world[o + k], world[o + 3 + k]) - r;
        tightBox[3 + k] = Math.max(world[o + k], world[o + 3 + k]) + r;
      }
      break;
    }
    case SHAPE_KDOP: // a k-DOP collider exists only after addKdopCollider installed its kind
      kdop!.refit(c, eid, rotation, translation, scale, tightBox);
      break;
  }
}

/**
 * Queues every dynamic collider for this refit. Poses written straight into the transform store
 * (`checkStore`) are checked first, as markTransformChanged checks them: a bad one throws before
 * anything is refit.
 */
function markDynamic(c: ColliderStore, t: TransformStore, checkStore: boolean): void {
  const ids = c.ids, dynamic = c.dynamic;
  if (checkStore) {
    const position = t.position, rotation = t.rotation, scale = t.scale, kind = c.kind, limit = MAX_COORDINATE;
    for (let i = 0; i < c.count; i++) {
      const e = ids[i];
      if (dynamic[e] !== 1) continue;
      const o3 = 3 * e, o4 = 4 * e, s = scale[e];
      const qx = rotation[o4], qy = rotation[o4 + 1], qz = rotation[o4 + 2], qw = rotation[o4 + 3];
      // The store is Float32 (no squares overflow): finite, in range, a non-zero rotation and a
      // positive scale cover storedPoseRefusal's cases.
      if (Math.abs(position[o3]) <= limit && Math.abs(position[o3 + 1]) <= limit && Math.abs(position[o3 + 2]) <= limit
        && qx * qx + qy * qy + qz * qz + qw * qw > 0 && qx * qx + qy * qy + qz * qz + qw * qw < Infinity
        && s > 0 && s <= limit && (s === 1 || kind[e] !== SHAPE_MESH)) continue;
      const why = storedPoseRefusal(t, c, e);
      if (why !== undefined) throw new CollideInputError(`step: entity ${e}: ${why} (written into the pipeline's transform store; the collider is dynamic)`);
    }
  }
  for (let i = 0; i < c.count; i++) {
    const e = ids[i];
    if (dynamic[e] === 1) markChanged(t, e);
  }
}

/**
 * System: refits every dynamic collider and every collider whose transform was marked changed
 * since the last run (by setTransform, the scalar setters, markTransformChanged or addCollider),
 * then clears the change list. With the pipeline's `transform` option, those poses are first read
 * from the user's components (validated; a bad value throws before the refit). Allocation-free.
 */
export function refitVolumes(world: World): World {
  const p = pipelineOf(world, 'refitVolumes');
  const t = p.transform;
  const c = p.collider;
  if (c.dynamicCount > 0) markDynamic(c, t, p.poseSource === undefined);
  if (p.poseSource !== undefined && t.changedCount > 0) gatherPoses(p.poseSource, t, c.kind, t.changedIds, t.changedCount);
  const parallel = p.parallel;
  if (parallel !== undefined && t.changedCount >= parallel.minRefit) {
    parallel.refit(p);
  } else {
    refitRange(c, t, 0, t.changedCount, p.aabbMargin, p.kdopKind);
  }
  t.changedCount = 0;
  return world;
}

/**
 * Refits the changed colliders [from, to) of the change list and clears their change flags: one
 * thread's part of the refit. Reads and writes only typed arrays, so worker threads run it too.
 */
export function refitRange(c: ColliderStore, t: TransformStore, from: number, to: number, margin: number, kdop: KdopKind | undefined): void {
  const ids = t.changedIds;
  const position = t.position;
  const quat = t.rotation;
  for (let i = from; i < to; i++) {
    const eid = ids[i];
    t.changed[eid] = 0;
    // Characters' boxes follow their bones (updateCharacterColliders), not the entity transform.
    if (c.slot[eid] < 0 || c.kind[eid] === SHAPE_CHARACTER) continue;
    translation[0] = position[3 * eid];
    translation[1] = position[3 * eid + 1];
    translation[2] = position[3 * eid + 2];
    rotation[0] = quat[4 * eid];
    rotation[1] = quat[4 * eid + 1];
    rotation[2] = quat[4 * eid + 2];
    rotation[3] = quat[4 * eid + 3];
    unitStoredQuaternion(rotation, 0);
    refitCollider(c, eid, t.scale[eid], kdop);
    if (c.kind[eid] === SHAPE_MESH) widenForMeshRounding(c, eid);
    if (c.kind[eid] === SHAPE_AABB || c.kind[eid] === SHAPE_KDOP) {
      // Shape and box coincide: keep the box exactly the stored shape (plus margin).
      storeExactBox(c, eid, margin);
    } else {
      storeBroadPhaseBox(c, eid, tightBox, 0, margin);
    }
  }
}

/** Widens `tightBox` of mesh collider `eid` by the rounding its stored root box may have lost. */
function widenForMeshRounding(c: ColliderStore, eid: number): void {
  const o = SHAPE_STRIDE * eid;
  let magnitude = 0;
  for (let k = 0; k < 6; k++) magnitude = Math.max(magnitude, Math.abs(tightBox[k]));
  for (let k = 0; k < 3; k++) magnitude = Math.max(magnitude, Math.abs(c.local[o + k]) + c.local[o + OBB_HALF + k]);
  const slack = MESH_BOX_ROUNDING_STEPS * FLOAT32_RELATIVE_STEP * magnitude;
  for (let k = 0; k < 3; k++) {
    tightBox[k] -= slack;
    tightBox[3 + k] += slack;
  }
}

/** Broad-phase box equal to a shape already stored in Float32 (AABB and k-DOP colliders), widened by the margin. */
function storeExactBox(c: ColliderStore, eid: number, margin: number): void {
  if (margin > 0) {
    storeBroadPhaseBox(c, eid, tightBox, 0, margin);
    return;
  }
  const o = 6 * eid;
  for (let k = 0; k < 6; k++) c.aabb[o + k] = tightBox[k];
}
