/**
 * The public boundary of the ECS layer: adding, moving and removing colliders. Every input is
 * validated here (CollideInputError naming the entity and the field), so systems can trust their
 * stores. Each function takes the world (which must have a pipeline) or the pipeline itself.
 */
import { addComponent, entityExists, removeComponent, type World } from 'bitecs';
import { quaternionToMat3 } from '../src/rotation';
import { assertHasPose } from './poseSource';
import { CollideInputError, assertKnownKeys, assertExtents, assertFiniteValues, coordinateRefusal, isCoordinate } from '../src/errors';
import { MAX_COORDINATE } from '../src/tolerances';
import { OBB_AXES, OBB_CENTER, OBB_HALF } from '../src/layout';
import { assertEntityId } from '../components/capacity';
import {
  DEFAULT_LAYER,
  DEFAULT_MASK,
  SHAPE_AABB,
  SHAPE_CAPSULE,
  SHAPE_CHARACTER,
  SHAPE_KDOP,
  SHAPE_MESH,
  SHAPE_OBB,
  SHAPE_SPHERE,
  SHAPE_STRIDE,
  growColliderStore,
  insertColliderId,
  releaseKdopVertices,
  setDynamic,
  type ColliderStore,
} from '../components/collider';
import { growTransformStore, markChanged, type TransformStore } from '../components/transform';
import { pipelineOf, type CollisionPipeline } from './collisionState';

/** Three numbers (x, y, z). */
export type Vec3Like = ArrayLike<number>;
/** A quaternion (x, y, z, w); normalised on input, so any non-zero length is accepted. */
export type QuatLike = ArrayLike<number>;

/** Fields every collider description may set. */
export interface ColliderOptions {
  /** Layer bits (uint32, default 1). */
  layer?: number;
  /** Layers this collider collides with (uint32, default all). */
  mask?: number;
  /** Sensors report touching pairs and events but no contact manifolds (default false). */
  sensor?: boolean;
  /** Static colliders are never paired with each other (default false). */
  isStatic?: boolean;
  /**
   * Dynamic colliders are refit at every step, so writing their transform needs no marking
   * (direct writes to the transform store, or your own components). Default: false with the
   * pipeline's own transform store (setTransform and the setters mark what they move); with the
   * `transform` option, true unless `isStatic`. Refitting an unmoved collider costs its refit
   * (docs/benchmarks.md measures both ways).
   */
  dynamic?: boolean;
}

/** Keys every collider's options accept, and those of each shape's description. */
export const COLLIDER_OPTION_KEYS: readonly string[] = ['layer', 'mask', 'sensor', 'isStatic', 'dynamic'];
const COMMON_KEYS = ['shape', ...COLLIDER_OPTION_KEYS];
const SHAPE_KEYS: Record<string, readonly string[]> = {
  sphere: [...COMMON_KEYS, 'radius', 'center'],
  aabb: [...COMMON_KEYS, 'min', 'max', 'halfExtents', 'center'],
  obb: [...COMMON_KEYS, 'halfExtents', 'center', 'rotation'],
  capsule: [...COMMON_KEYS, 'p0', 'p1', 'radius'],
};

/** A collider's shape in the entity's local frame, plus its options. */
export type ColliderDescription = ColliderOptions & (
  | {
    /** A sphere. */
    shape: 'sphere';
    /** Its radius (>= 0). */
    radius: number;
    /** Its centre in the entity's frame (default the origin). */
    center?: Vec3Like;
  }
  | {
    /** An axis-aligned box given by its corners; its world shape is the AABB of the posed box. */
    shape: 'aabb';
    /** Minimum corner in the entity's frame. */
    min: Vec3Like;
    /** Maximum corner in the entity's frame (each coordinate >= min's). */
    max: Vec3Like;
  }
  | {
    /** An axis-aligned box given by its centre and half-extents. */
    shape: 'aabb';
    /** Half-extents (>= 0). */
    halfExtents: Vec3Like;
    /** Centre in the entity's frame (default the origin). */
    center?: Vec3Like;
  }
  | {
    /** An oriented box. */
    shape: 'obb';
    /** Half-extents along its axes (>= 0). */
    halfExtents: Vec3Like;
    /** Centre in the entity's frame (default the origin). */
    center?: Vec3Like;
    /** Rotation in the entity's frame, quaternion x, y, z, w (default identity). */
    rotation?: QuatLike;
  }
  | {
    /** A capsule: the points within `radius` of the segment p0-p1. */
    shape: 'capsule';
    /** First end of the segment, in the entity's frame. */
    p0: Vec3Like;
    /** Second end of the segment, in the entity's frame. */
    p1: Vec3Like;
    /** Its radius (>= 0). */
    radius: number;
  }
);

const ORIGIN: Vec3Like = [0, 0, 0];
const IDENTITY: QuatLike = [0, 0, 0, 1];
const unitQuaternion = new Float64Array(4);

/** Throws unless `v` holds `n` numbers, each a coordinate (finite, within ±MAX_COORDINATE) unless `anyFinite`. */
function assertVector(v: ArrayLike<number> | undefined, n: number, what: string, anyFinite = false): ArrayLike<number> {
  if (v === undefined || v === null || typeof v.length !== 'number' || v.length < n) {
    throw new CollideInputError(`${what} must hold ${n} numbers`);
  }
  if (!anyFinite) assertFiniteValues(v, 0, n, what);
  for (let i = 0; anyFinite && i < n; i++) {
    if (!Number.isFinite(v[i])) throw new CollideInputError(`${what}: value ${i} is not finite (${v[i]})`);
  }
  return v;
}

/** Bounding trees take rigid poses: a mesh collider's scale must be 1. */
export function assertMeshScale(scale: number, what: string): void {
  if (scale !== 1) throw new CollideInputError(`${what}: mesh colliders need scale 1 (trees are posed rigidly), got scale ${scale}`);
}

function assertRadius(r: number, what: string): void {
  if (typeof r !== 'number' || !Number.isFinite(r) || r < 0) throw new CollideInputError(`${what} must be a finite number >= 0, got ${r}`);
  if (r > MAX_COORDINATE) throw new CollideInputError(`${what} must be at most ${MAX_COORDINATE.toExponential()}, got ${r}`);
}

/** Whether `scale` is a usable uniform scale: in (0, MAX_COORDINATE], and above 0 in the Float32 store. */
function isScale(scale: number): boolean {
  return typeof scale === 'number' && Math.fround(scale) > 0 && scale <= MAX_COORDINATE;
}

/** The error for a scale that `isScale` refuses. */
function scaleError(scale: number, what: string): CollideInputError {
  return new CollideInputError(Number.isFinite(scale) && scale > MAX_COORDINATE
    ? `${what} must be at most ${MAX_COORDINATE.toExponential()}, got ${scale}`
    : `${what} must be a finite number > 0${scale > 0 && Math.fround(scale) === 0 ? ' (Float32 storage rounds it to 0)' : ''}, got ${typeof scale === 'string' ? `'${scale}'` : scale}`);
}

/** Validated, normalised quaternion in `unitQuaternion`. */
function normalisedQuaternion(q: QuatLike, what: string): Float64Array {
  assertVector(q, 4, what, true); // only its direction is used: any finite length will do
  const n = Math.hypot(q[0], q[1], q[2], q[3]);
  if (!(n > 0) || !Number.isFinite(n)) throw new CollideInputError(`${what} must be a non-zero quaternion, got length ${n}`);
  for (let k = 0; k < 4; k++) unitQuaternion[k] = q[k] / n;
  return unitQuaternion;
}

function assertBits(v: number | undefined, fallback: number, what: string): number {
  if (v === undefined) return fallback;
  if (!Number.isInteger(v) || v < 0 || v > 0xffffffff) throw new CollideInputError(`${what} must be a uint32, got ${v}`);
  return v;
}

/** Throws unless `eid` is a valid id of an entity alive in the pipeline's world; grows the stores to hold it. */
function prepareEntity(p: CollisionPipeline, eid: number, caller: string): void {
  assertEntityId(eid, caller);
  if (!entityExists(p.world, eid)) throw new CollideInputError(`${caller}: entity ${eid} does not exist in the world`);
  growTransformStore(p.transform, eid);
  growColliderStore(p.collider, eid);
}

/** Whether the local OBB at local[o] is centred at the origin with identity axes (exactly). */
function isCenteredBox(local: Float32Array, o: number): boolean {
  for (let k = 0; k < 3; k++) if (local[o + OBB_CENTER + k] !== 0) return false;
  for (let i = 0; i < 9; i++) if (local[o + OBB_AXES + i] !== (i % 4 === 0 ? 1 : 0)) return false;
  return true;
}

/** Makes the transform store a component of `eid` once (the removal observer clears `present`). */
function addTransformComponent(p: CollisionPipeline, eid: number): void {
  if (p.transform.present[eid] === 1) return;
  addComponent(p.world, eid, p.transform);
  p.transform.present[eid] = 1;
}

/** Writes the validated local shape of `desc` for `eid`; returns its kind. */
function writeLocalShape(c: ColliderStore, eid: number, desc: ColliderDescription, what: string): number {
  const local = c.local;
  const o = SHAPE_STRIDE * eid;
  switch (desc.shape) {
    case 'sphere': {
      const center = assertVector(desc.center ?? ORIGIN, 3, `${what}.center`);
      assertRadius(desc.radius, `${what}.radius`);
      for (let k = 0; k < 3; k++) local[o + k] = center[k];
      local[o + 3] = desc.radius;
      return SHAPE_SPHERE;
    }
    case 'aabb': {
      if ('min' in desc) {
        const min = assertVector(desc.min, 3, `${what}.min`);
        const max = assertVector(desc.max, 3, `${what}.max`);
        for (let k = 0; k < 3; k++) {
          if (min[k] > max[k]) throw new CollideInputError(`${what}: min[${k}] = ${min[k]} exceeds max[${k}] = ${max[k]}`);
          local[o + k] = min[k];
          local[o + 3 + k] = max[k];
        }
      } else {
        const center = assertVector(desc.center ?? ORIGIN, 3, `${what}.center`);
        const half = assertVector(desc.halfExtents, 3, `${what}.halfExtents`);
        assertExtents(half, 0, 3, `${what}.halfExtents`);
        for (let k = 0; k < 3; k++) {
          local[o + k] = center[k] - half[k];
          local[o + 3 + k] = center[k] + half[k];
        }
      }
      return SHAPE_AABB;
    }
    case 'obb': {
      const center = assertVector(desc.center ?? ORIGIN, 3, `${what}.center`);
      const half = assertVector(desc.halfExtents, 3, `${what}.halfExtents`);
      assertExtents(half, 0, 3, `${what}.halfExtents`);
      const q = normalisedQuaternion(desc.rotation ?? IDENTITY, `${what}.rotation`);
      for (let k = 0; k < 3; k++) {
        local[o + k] = center[k];
        local[o + OBB_HALF + k] = half[k];
      }
      quaternionToMat3(local, o + OBB_AXES, q);
      return SHAPE_OBB;
    }
    case 'capsule': {
      const p0 = assertVector(desc.p0, 3, `${what}.p0`);
      const p1 = assertVector(desc.p1, 3, `${what}.p1`);
      assertRadius(desc.radius, `${what}.radius`);
      for (let k = 0; k < 3; k++) {
        local[o + k] = p0[k];
        local[o + 3 + k] = p1[k];
      }
      local[o + 6] = desc.radius;
      return SHAPE_CAPSULE;
    }
    default:
      throw shapeError(desc, what);
  }
}

/** The error for a description whose shape addCollider does not make. */
function shapeError(desc: ColliderDescription, what: string): CollideInputError {
  const shape = (desc as { shape: unknown }).shape;
  if (shape === 'mesh') return new CollideInputError(`${what}: mesh colliders are added with addMeshCollider(world, entity, tree, options)`);
  if (shape === 'character') return new CollideInputError(`${what}: character colliders are added with addCharacterCollider(world, entity, asset, options)`);
  if (shape === 'kdop') return new CollideInputError(`${what}: k-DOP colliders are added with addKdopCollider(world, entity, points, options)`);
  return new CollideInputError(`${what}.shape must be 'sphere', 'aabb', 'obb' or 'capsule', got '${shape}'`);
}

/** Layer and mask bits of a collider, checked. */
export interface ColliderBits {
  layer: number;
  mask: number;
}

/**
 * Checks what every collider call checks before it writes anything (the options object and its
 * names against `keys`, `dynamic`, layer and mask bits, a live entity, its pose in the user's
 * components) and grows the stores to hold the entity; returns the layer and mask bits.
 */
export function checkColliderOptions(p: CollisionPipeline, eid: number, options: ColliderOptions, keys: readonly string[], caller: string): ColliderBits {
  const what = `${caller}(entity ${eid})`;
  if (options === null || typeof options !== 'object') throw new CollideInputError(`${what}: the options must be an object`);
  assertKnownKeys(options, keys, what);
  for (const key of ['sensor', 'isStatic', 'dynamic'] as const) {
    if (options[key] !== undefined && typeof options[key] !== 'boolean') throw new CollideInputError(`${what}.${key} must be a boolean, got ${options[key]}`);
  }
  const layer = assertBits(options.layer, DEFAULT_LAYER, `${what}.layer`);
  const mask = assertBits(options.mask, DEFAULT_MASK, `${what}.mask`);
  prepareEntity(p, eid, caller);
  if (p.poseSource !== undefined) assertHasPose(p.poseSource, eid, what);
  return { layer, mask };
}

/**
 * Gives entity `eid` (checked by checkColliderOptions) a collider, or replaces its shape and
 * options: `writeShape` validates and writes the local shape at `SHAPE_STRIDE * eid` and returns
 * the kind. A throw there leaves a fresh entity's slot unused and an existing collider untouched.
 */
export function attachCollider(p: CollisionPipeline, eid: number, options: ColliderOptions, bits: ColliderBits, writeShape: () => number): void {
  const c = p.collider;
  const previousLocal = c.slot[eid] >= 0 ? c.local.slice(SHAPE_STRIDE * eid, SHAPE_STRIDE * (eid + 1)) : undefined;
  let kind: number;
  try {
    kind = writeShape();
  } catch (error) {
    if (previousLocal !== undefined) c.local.set(previousLocal, SHAPE_STRIDE * eid);
    throw error;
  }
  if (kind !== SHAPE_KDOP) releaseKdopVertices(c, eid);
  if (kind !== SHAPE_MESH) c.mesh[eid] = undefined;
  if (kind !== SHAPE_CHARACTER) c.character[eid] = 0;
  c.kind[eid] = kind;
  c.centeredBox[eid] = kind === SHAPE_OBB && isCenteredBox(c.local, SHAPE_STRIDE * eid) ? 1 : 0;
  c.layer[eid] = bits.layer;
  c.mask[eid] = bits.mask;
  c.sensor[eid] = options.sensor ? 1 : 0;
  c.isStatic[eid] = options.isStatic ? 1 : 0;
  setDynamic(c, eid, options.dynamic ?? (p.poseSource !== undefined && !options.isStatic));
  addTransformComponent(p, eid);
  if (c.slot[eid] < 0) {
    c.generation[eid]++;
    insertColliderId(c, eid);
    addComponent(p.world, eid, c);
  }
  markChanged(p.transform, eid);
}

/**
 * Gives entity `eid` a collider of a primitive shape (or replaces its shape and options). The
 * entity gets the world's Transform component (identity if it had none) and Collider component;
 * its volumes are computed at the next refitVolumes. Meshes and characters have their own calls
 * (addMeshCollider, addCharacterCollider). Throws CollideInputError for a dead entity or an
 * invalid description (non-finite numbers, negative radius or extents, min > max, zero
 * quaternion, empty k-DOP points, layer/mask outside uint32), leaving the entity unchanged.
 */
export function addCollider(target: World | CollisionPipeline, eid: number, desc: ColliderDescription): void {
  const p = pipelineOf(target, 'addCollider');
  const what = `addCollider(entity ${eid})`;
  if (desc === null || typeof desc !== 'object') throw new CollideInputError(`${what}: the description must be an object`);
  const keys = SHAPE_KEYS[desc.shape as string];
  if (keys === undefined) throw shapeError(desc, what);
  const bits = checkColliderOptions(p, eid, desc, keys, 'addCollider');
  attachCollider(p, eid, desc, bits, () => writeLocalShape(p.collider, eid, desc, what));
}

/**
 * Sets entity `eid`'s transform (position, rotation quaternion x, y, z, w, normalised here,
 * uniform scale > 0) and queues its volumes for refitting. Throws CollideInputError for a dead
 * entity, a position that is not finite or lies outside ±MAX_COORDINATE, a non-finite or zero
 * quaternion, or a scale outside (0, MAX_COORDINATE].
 */
export function setTransform(
  target: World | CollisionPipeline,
  eid: number,
  position: Vec3Like,
  rotation: QuatLike = IDENTITY,
  scale = 1,
): void {
  const p = posePipeline(target, 'setTransform');
  // Called for every moving entity every frame: validate without building messages, and let
  // rejectPose redo the checks with descriptive errors only when something is wrong.
  if (!validPose(position, rotation, scale)) rejectPose(eid, position, rotation, scale);
  const norm = poseNorm[0];
  readyTransform(p, eid, 'setTransform');
  const t = p.transform;
  if (p.collider.kind[eid] === SHAPE_MESH) assertMeshScale(scale, `setTransform(entity ${eid})`);
  const o3 = 3 * eid, o4 = 4 * eid;
  t.position[o3] = position[0];
  t.position[o3 + 1] = position[1];
  t.position[o3 + 2] = position[2];
  t.rotation[o4] = rotation[0] / norm;
  t.rotation[o4 + 1] = rotation[1] / norm;
  t.rotation[o4 + 2] = rotation[2] / norm;
  t.rotation[o4 + 3] = rotation[3] / norm;
  t.scale[eid] = scale;
  markChanged(t, eid);
}

/** The rotation's length, written by validPose: a double returned from a call that is not inlined is boxed (16 bytes per entity and frame). */
const poseNorm = new Float64Array(1);

/** Whether position, rotation and scale are all valid and the rotation's length is neither zero nor infinite; the length goes to poseNorm[0]. */
function validPose(position: Vec3Like, rotation: QuatLike, scale: number): boolean {
  if (position == null || rotation == null || !(position.length >= 3) || !(rotation.length >= 4)) return false;
  if (typeof scale !== 'number' || !isScale(scale)) return false;
  if (!(isCoordinate(position[0]) && isCoordinate(position[1]) && isCoordinate(position[2]))) return false;
  const qx = rotation[0], qy = rotation[1], qz = rotation[2], qw = rotation[3];
  // v - v is 0 for finite numbers and NaN for infinities and NaN (a sum could overflow instead).
  if (qx - qx + (qy - qy) + (qz - qz) + (qw - qw) !== 0) return false;
  const norm = quaternionNorm(qx, qy, qz, qw);
  poseNorm[0] = norm;
  return norm > 0 && norm < Infinity;
}

/** |q| (NaN for a NaN component or one that is not a number). */
function quaternionNorm(qx: number, qy: number, qz: number, qw: number): number {
  // A string would be coerced by the arithmetic (and makes the sum a string): no norm.
  if (typeof (qx + qy + qz + qw) !== 'number') return NaN;
  const norm = Math.sqrt(qx * qx + qy * qy + qz * qz + qw * qw);
  // Squares overflow or underflow only for extreme components; hypot is exact there, and slow.
  return norm > 1e-150 && norm < 1e150 ? norm : Math.hypot(qx, qy, qz, qw);
}

/** Throws the descriptive error for a pose that validPose refused. */
function rejectPose(eid: number, position: Vec3Like, rotation: QuatLike, scale: number): never {
  const what = `setTransform(entity ${eid})`;
  assertVector(position, 3, `${what}.position`);
  normalisedQuaternion(rotation, `${what}.rotation`);
  throw scaleError(scale, `${what}.scale`);
}

/** The error for writing the pipeline's transform store when it reads the user's components. */
function refuseWithPoseSource(caller: string): never {
  throw new CollideInputError(`${caller}: this pipeline reads poses from your transform components (the 'transform' option); write those instead`);
}

/** The pipeline of `target`, refusing writes to its transform store when it reads the user's components. */
function posePipeline(target: World | CollisionPipeline, caller: string): CollisionPipeline {
  const p = pipelineOf(target, caller);
  if (p.poseSource !== undefined) refuseWithPoseSource(caller);
  return p;
}

/**
 * Makes entity `eid` ready for a validated pose: an entity holding the transform store is alive
 * and fits the stores (the removal observer clears `present`), so only a first pose pays for the
 * id and existence checks and the component. The type test keeps ids like "3", which index typed
 * arrays too, going to the checks.
 */
function readyTransform(p: CollisionPipeline, eid: number, caller: string): void {
  if (p.transform.present[eid] === 1 && typeof eid === 'number') return;
  prepareEntity(p, eid, caller);
  addTransformComponent(p, eid);
}

/**
 * Sets entity `eid`'s position and queues it for refitting: setTransform without arrays, for
 * per-frame code. Throws CollideInputError for a coordinate that is not finite or lies outside
 * ±MAX_COORDINATE (the stored position is then unchanged).
 */
export function setPosition(target: World | CollisionPipeline, eid: number, x: number, y: number, z: number): void {
  const p = posePipeline(target, 'setPosition');
  if (!(isCoordinate(x) && isCoordinate(y) && isCoordinate(z))) {
    const [k, v] = !isCoordinate(x) ? ['x', x] : !isCoordinate(y) ? ['y', y] : ['z', z];
    throw new CollideInputError(`setPosition(entity ${eid}): ${k} ${coordinateRefusal(v)}`);
  }
  readyTransform(p, eid, 'setPosition');
  const t = p.transform, o = 3 * eid;
  t.position[o] = x;
  t.position[o + 1] = y;
  t.position[o + 2] = z;
  markChanged(t, eid);
}

/**
 * Sets entity `eid`'s rotation, quaternion (x, y, z, w) normalised here, and queues it for
 * refitting. Throws CollideInputError for a quaternion that is not finite or is zero.
 */
export function setRotation(target: World | CollisionPipeline, eid: number, x: number, y: number, z: number, w: number): void {
  const p = posePipeline(target, 'setRotation');
  const norm = quaternionNorm(x, y, z, w);
  if (!(norm > 0 && norm < Infinity)) {
    throw new CollideInputError(`setRotation(entity ${eid}): (${x}, ${y}, ${z}, ${w}) is not a finite non-zero quaternion`);
  }
  readyTransform(p, eid, 'setRotation');
  const t = p.transform, o = 4 * eid;
  t.rotation[o] = x / norm;
  t.rotation[o + 1] = y / norm;
  t.rotation[o + 2] = z / norm;
  t.rotation[o + 3] = w / norm;
  markChanged(t, eid);
}

/**
 * Sets entity `eid`'s uniform scale and queues it for refitting. Throws CollideInputError for a
 * scale outside (0, MAX_COORDINATE], or other than 1 for a mesh collider.
 */
export function setScale(target: World | CollisionPipeline, eid: number, scale: number): void {
  const p = posePipeline(target, 'setScale');
  if (!isScale(scale)) throw scaleError(scale, `setScale(entity ${eid})`);
  readyTransform(p, eid, 'setScale');
  if (p.collider.kind[eid] === SHAPE_MESH) assertMeshScale(scale, `setScale(entity ${eid})`);
  p.transform.scale[eid] = scale;
  markChanged(p.transform, eid);
}

/**
 * Queues `eid` for refitting after its Transform arrays were written directly (a unit quaternion
 * is then the caller's responsibility), or, with the pipeline's `transform` option, after its
 * pose changed in your components (needed only for colliders that are not dynamic). Throws
 * CollideInputError when the written position or scale is not finite, lies outside
 * ±MAX_COORDINATE or (scale) is not positive, or a rotation component is not finite, so a bad
 * direct write never reaches the world volumes.
 */
export function markTransformChanged(target: World | CollisionPipeline, eid: number): void {
  const p = pipelineOf(target, 'markTransformChanged');
  assertEntityId(eid, 'markTransformChanged');
  growTransformStore(p.transform, eid);
  const t = p.transform;
  // Poses read from the user's components are validated when the step reads them.
  if (p.poseSource !== undefined) return markChanged(t, eid);
  const why = storedPoseRefusal(t, p.collider, eid);
  if (why !== undefined) throw new CollideInputError(`markTransformChanged(entity ${eid}): ${why}`);
  markChanged(p.transform, eid);
}

/**
 * Why entity `eid`'s pose as written in the transform store cannot be refit (a position not
 * finite or beyond ±MAX_COORDINATE, a rotation not finite, a bad scale, a scaled mesh), or
 * undefined when it can. Checked where the store's poses are taken: markTransformChanged, and
 * each step for dynamic colliders.
 */
export function storedPoseRefusal(t: TransformStore, c: ColliderStore, eid: number): string | undefined {
  const position = t.position, o3 = 3 * eid;
  for (let k = 0; k < 3; k++) {
    if (!isCoordinate(position[o3 + k])) return `position[${k}] ${coordinateRefusal(position[o3 + k])}`;
  }
  const r = t.rotation, o4 = 4 * eid;
  const norm = quaternionNorm(r[o4], r[o4 + 1], r[o4 + 2], r[o4 + 3]);
  if (!(norm > 0 && norm < Infinity)) return `rotation (${r[o4]}, ${r[o4 + 1]}, ${r[o4 + 2]}, ${r[o4 + 3]}) is ${norm === 0 ? 'zero, not a rotation' : 'not finite'}`;
  const scale = t.scale[eid];
  if (!isScale(scale)) return `scale${scaleError(scale, '').message}`;
  if (scale !== 1 && eid < c.capacity && c.kind[eid] === SHAPE_MESH) return `mesh colliders need scale 1 (trees are posed rigidly), got scale ${scale}`;
  return undefined;
}

/**
 * Removes `eid`'s collider; returns false when it had none (or the entity is gone). Removing the
 * entity itself (bitecs removeEntity) does the same. Either way, its pairs end at the next narrow
 * phase (end events name the old id), and contacts never reference it again.
 */
export function removeCollider(target: World | CollisionPipeline, eid: number): boolean {
  const p = pipelineOf(target, 'removeCollider');
  assertEntityId(eid, 'removeCollider');
  if (!entityExists(p.world, eid) || eid >= p.collider.capacity || p.collider.slot[eid] < 0) return false;
  removeComponent(p.world, eid, p.collider); // the pipeline's removal observer updates the store
  return true;
}
