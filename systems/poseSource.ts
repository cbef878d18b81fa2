/**
 * Poses read in place from the user's own components. A game that already keeps positions and
 * rotations in its own bitecs components gives them once to `createCollisionPipeline`
 * (`{ transform: { position, rotation, scale } }`); at each step the pipeline reads the pose of
 * every entity that may have moved (dynamic colliders, and those marked with
 * `markTransformChanged`) straight from those arrays, validates it, and keeps a Float32 copy in
 * its own transform store for the kernels. Nothing is copied by the user, every frame or ever.
 *
 * A component is either an object of per-field arrays, bitecs style (`{ x, y, z }`, `{ x, y, z, w }`:
 * typed arrays or plain arrays indexed by entity id), or one interleaved array (stride 3 for
 * positions, 4 for rotations, indexed by 3·eid / 4·eid). Scale is one array of uniform scales.
 */
import { CollideInputError, assertKnownKeys, coordinateRefusal, isCoordinate, isNumberList } from '../src/errors';
import { MAX_COORDINATE } from '../src/tolerances';
import { SHAPE_MESH } from '../components/collider';
import type { TransformStore } from '../components/transform';

/** An array of numbers indexed by entity id (typed or plain). */
export interface NumberArray {
  /** Number of entries. */
  readonly length: number;
  readonly [index: number]: number;
}

/** A bitecs-style vector component: one array per field, indexed by entity id. */
export interface Vec3Fields {
  /** x of each entity. */
  readonly x: NumberArray;
  /** y of each entity. */
  readonly y: NumberArray;
  /** z of each entity. */
  readonly z: NumberArray;
}

/** A bitecs-style quaternion component: one array per field, indexed by entity id. */
export interface QuatFields extends Vec3Fields {
  /** w (the scalar part) of each entity. */
  readonly w: NumberArray;
}

/** Positions: per-field arrays `{ x, y, z }`, or one interleaved array (x, y, z per entity). */
export type PositionComponent = Vec3Fields | NumberArray;
/** Rotations as quaternions: `{ x, y, z, w }` arrays, or one interleaved array (x, y, z, w per entity). */
export type RotationComponent = QuatFields | NumberArray;

/** The user's components a pipeline reads poses from (the `transform` option). */
export interface TransformComponents {
  /** Where each entity is. */
  position: PositionComponent;
  /** How it is turned (any non-zero quaternion; normalised on reading). Default: no rotation. */
  rotation?: RotationComponent;
  /** Its uniform scale (> 0). Default 1. */
  scale?: NumberArray;
}

/** A validated `transform` option: the arrays, and whether each component is interleaved. */
export interface PoseSource {
  readonly spec: TransformComponents;
  readonly positionInterleaved: boolean;
  readonly rotationInterleaved: boolean;
}


/** Validates the `transform` option's shape (CollideInputError naming the field). */
export function createPoseSource(spec: TransformComponents, what: string): PoseSource {
  if (spec === null || typeof spec !== 'object') throw new CollideInputError(`${what} must be an object { position, rotation?, scale? }`);
  assertKnownKeys(spec, ['position', 'rotation', 'scale'], what);
  const positionInterleaved = checkComponent(spec.position, ['x', 'y', 'z'], 3, `${what}.position`);
  const rotationInterleaved = spec.rotation === undefined ? false : checkComponent(spec.rotation, ['x', 'y', 'z', 'w'], 4, `${what}.rotation`);
  if (spec.scale !== undefined && !isNumberList(spec.scale)) throw new CollideInputError(`${what}.scale must be an array of numbers (typed or plain)`);
  return { spec, positionInterleaved, rotationInterleaved };
}

/** Whether `c` is interleaved; throws unless it is an array or an object of the named field arrays. */
function checkComponent(c: unknown, fields: readonly string[], stride: number, what: string): boolean {
  if (isNumberList(c)) {
    if (c.length % stride !== 0) throw new CollideInputError(`${what}: an interleaved array needs ${stride} numbers per entity, got length ${c.length}`);
    return true;
  }
  if (c === null || typeof c !== 'object') {
    throw new CollideInputError(`${what} must be { ${fields.join(', ')} } arrays or one interleaved array (stride ${stride})`);
  }
  for (const f of fields) {
    if (!isNumberList((c as Record<string, unknown>)[f])) throw new CollideInputError(`${what}.${f} must be an array of numbers (typed or plain)`);
  }
  return false;
}

/**
 * Throws unless entity `eid` has a pose in the components (its entries exist and are numbers):
 * for adding a collider, so a missing component is named where it is added, not at a later step.
 */
export function assertHasPose(source: PoseSource, eid: number, what: string): void {
  const { position, rotation, scale } = source.spec;
  const check = (array: NumberArray, index: number, field: string): void => {
    if (typeof array[index] !== 'number') {
      throw new CollideInputError(`${what}: entity ${eid} has no ${field} in the pipeline's transform components (index ${index}, array length ${array.length})`);
    }
  };
  if (source.positionInterleaved) check(position as NumberArray, 3 * eid + 2, 'position');
  else for (const f of ['x', 'y', 'z'] as const) check((position as Vec3Fields)[f], eid, `position.${f}`);
  if (rotation !== undefined) {
    if (source.rotationInterleaved) check(rotation as NumberArray, 4 * eid + 3, 'rotation');
    else for (const f of ['x', 'y', 'z', 'w'] as const) check((rotation as QuatFields)[f], eid, `rotation.${f}`);
  }
  if (scale !== undefined) check(scale, eid, 'scale');
}

/** The error for entity e's position (x, y, z), naming the first bad field when read per field. */
function badPosition(e: number, x: number, y: number, z: number, perField: boolean): CollideInputError {
  const [field, v] = !isCoordinate(x) ? ['x', x] : !isCoordinate(y) ? ['y', y] : ['z', z];
  return new CollideInputError(`step: entity ${e}: ${perField ? `position.${field}` : 'position'} ${coordinateRefusal(v)} (read from the pipeline's transform components)`);
}

/**
 * Copies the poses of the first `count` entities of `ids` from the user's components into the
 * transform store, validated (position within ±MAX_COORDINATE, a finite non-zero quaternion,
 * normalised in doubles, a scale in (0, MAX_COORDINATE], scale 1 for meshes). A bad value throws
 * a CollideInputError naming the entity and the field, before that entity's pose is written.
 * One loop per layout, so each stays monomorphic.
 */
export function gatherPoses(source: PoseSource, t: TransformStore, kind: Uint8Array, ids: Uint32Array, count: number): void {
  const { position, rotation, scale } = source.spec;
  const tp = t.position, tq = t.rotation, ts = t.scale;
  if (source.positionInterleaved) {
    const a = position as NumberArray;
    for (let i = 0; i < count; i++) {
      const e = ids[i], o = 3 * e;
      const x = a[o], y = a[o + 1], z = a[o + 2];
      if (!(isCoordinate(x) && isCoordinate(y) && isCoordinate(z))) throw badPosition(e, x, y, z, false);
      tp[o] = x;
      tp[o + 1] = y;
      tp[o + 2] = z;
    }
  } else {
    const { x: X, y: Y, z: Z } = position as Vec3Fields;
    for (let i = 0; i < count; i++) {
      const e = ids[i], o = 3 * e;
      const x = X[e], y = Y[e], z = Z[e];
      if (!(isCoordinate(x) && isCoordinate(y) && isCoordinate(z))) throw badPosition(e, x, y, z, true);
      tp[o] = x;
      tp[o + 1] = y;
      tp[o + 2] = z;
    }
  }
  if (rotation !== undefined && source.rotationInterleaved) {
    const a = rotation as NumberArray;
    for (let i = 0; i < count; i++) {
      const e = ids[i], o = 4 * e;
      storeRotation(tq, e, a[o], a[o + 1], a[o + 2], a[o + 3]);
    }
  } else if (rotation !== undefined) {
    const { x: X, y: Y, z: Z, w: W } = rotation as QuatFields;
    for (let i = 0; i < count; i++) {
      const e = ids[i];
      storeRotation(tq, e, X[e], Y[e], Z[e], W[e]);
    }
  }
  if (scale !== undefined) {
    for (let i = 0; i < count; i++) {
      const e = ids[i], s = scale[e];
      if (!(s > 0 && s <= MAX_COORDINATE)) {
        throw new CollideInputError(`step: entity ${e}: scale ${s} is not in (0, ${MAX_COORDINATE.toExponential()}] (read from the pipeline's transform components)`);
      }
      if (s !== 1 && kind[e] === SHAPE_MESH) throw new CollideInputError(`step: entity ${e}: mesh colliders need scale 1 (trees are posed rigidly), got ${s}`);
      ts[e] = s;
    }
  }
}

/** Writes the normalised quaternion of entity e into the store; throws for a NaN, infinite or zero one. */
function storeRotation(tq: Float32Array, e: number, x: number, y: number, z: number, w: number): void {
  const norm = Math.sqrt(x * x + y * y + z * z + w * w);
  // Rejects NaN, infinities and zero (and overflowing squares, far beyond any rotation's size).
  if (!(norm > 0 && norm < Infinity)) {
    throw new CollideInputError(`step: entity ${e}: rotation (${x}, ${y}, ${z}, ${w}) is not a finite non-zero quaternion (read from the pipeline's transform components)`);
  }
  const o = 4 * e;
  tq[o] = x / norm;
  tq[o + 1] = y / norm;
  tq[o + 2] = z / norm;
  tq[o + 3] = w / norm;
}
