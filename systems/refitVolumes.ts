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
import { aabbFromSphere, aabbTransform, aabbTransformCenterRadiusMat3 } from '../src/aabb';
import { kdopRefit } from '../src/kdop';
import { OBB_AXES, OBB_HALF } from '../src/layout';
import { obbTransform } from '../src/obb';
import { sphereTransform } from '../src/sphere';
import {
  SHAPE_AABB, SHAPE_CAPSULE, SHAPE_CHARACTER, SHAPE_KDOP, SHAPE_MESH, SHAPE_OBB, SHAPE_SPHERE, SHAPE_STRIDE, type ColliderStore,
} from '../components/collider';
import { pipelineOf } from './collisionState';

const rotation = new Float64Array(4);
const translation = new Float64Array(3);
const tightBox = new Float64Array(6);
const centreRadius = new Float64Array(6);
const endpoint = new Float64Array(4);

/** Largest relative spacing of Float32 values (2^-23): one step of it moves any value by at least one Float32 ulp. */
const FLOAT32_RELATIVE_STEP = 2 ** -23;

/** Float32 value <= v (at most 1.5 ulp below): the nearest rounding of v moved down by a full ulp first. */
export function float32Below(v: number): number {
  return Math.fround(v - Math.abs(v) * FLOAT32_RELATIVE_STEP);
}

/** Float32 value >= v. */
export function float32Above(v: number): number {
  return Math.fround(v + Math.abs(v) * FLOAT32_RELATIVE_STEP);
}

/**
 * Writes the broad-phase box of `eid` from the tight box in `tightBox`: rounded outward, and with
 * a margin kept as long as the tight box stays inside the stored fat one.
 */
function storeBroadPhaseBox(c: ColliderStore, eid: number, margin: number): void {
  const box = c.aabb;
  const o = 6 * eid;
  if (margin > 0 &&
    box[o] <= tightBox[0] && box[o + 1] <= tightBox[1] && box[o + 2] <= tightBox[2] &&
    box[o + 3] >= tightBox[3] && box[o + 4] >= tightBox[4] && box[o + 5] >= tightBox[5]) return;
  for (let k = 0; k < 3; k++) {
    box[o + k] = float32Below(tightBox[k] - margin);
    box[o + 3 + k] = float32Above(tightBox[3 + k] + margin);
  }
}

/** Refits one collider: world shape from the local one, then its tight world box into `tightBox`. */
function refitCollider(c: ColliderStore, eid: number, scale: number): void {
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
      obbTransform(world, o, local, o, rotation, translation, scale);
      // Arvo on the stored box: centre and axes as rounded, half-extents as a centred local box.
      for (let k = 0; k < 3; k++) {
        centreRadius[k] = 0;
        centreRadius[3 + k] = world[o + OBB_HALF + k];
        endpoint[k] = world[o + k];
      }
      aabbTransformCenterRadiusMat3(centreRadius, 0, centreRadius, 0, world, endpoint, 1, o + OBB_AXES);
      for (let k = 0; k < 3; k++) {
        tightBox[k] = centreRadius[k] - centreRadius[3 + k];
        tightBox[3 + k] = centreRadius[k] + centreRadius[3 + k];
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
    case SHAPE_KDOP: {
      const k = c.kdopK;
      const ko = k * eid;
      kdopRefit(c.kdop, ko, k, c.kdopVertices, c.kdopVertexCount[eid], rotation, translation, scale, 3 * c.kdopVertexStart[eid]);
      // The first three directions of every set are the axes: their slabs are the box.
      const half = k >> 1;
      for (let a = 0; a < 3; a++) {
        tightBox[a] = c.kdop[ko + a];
        tightBox[3 + a] = c.kdop[ko + half + a];
      }
      break;
    }
  }
}

/**
 * System: refits every collider whose transform was marked changed since the last run (by
 * setTransform, markTransformChanged or addCollider), then clears the change list. Allocation-free.
 */
export function refitVolumes(world: World): World {
  const p = pipelineOf(world, 'refitVolumes');
  const t = p.transform;
  const c = p.collider;
  const ids = t.changedIds;
  const position = t.position;
  const quat = t.rotation;
  for (let i = 0; i < t.changedCount; i++) {
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
    refitCollider(c, eid, t.scale[eid]);
    if (c.kind[eid] === SHAPE_AABB || c.kind[eid] === SHAPE_KDOP) {
      // Shape and box coincide: keep the box exactly the stored shape (plus margin).
      storeExactBox(c, eid, p.aabbMargin);
    } else {
      storeBroadPhaseBox(c, eid, p.aabbMargin);
    }
  }
  t.changedCount = 0;
  return world;
}

/** Broad-phase box equal to a shape already stored in Float32 (AABB and k-DOP colliders), widened by the margin. */
function storeExactBox(c: ColliderStore, eid: number, margin: number): void {
  if (margin > 0) {
    storeBroadPhaseBox(c, eid, margin);
    return;
  }
  const o = 6 * eid;
  for (let k = 0; k < 6; k++) c.aabb[o + k] = tightBox[k];
}
