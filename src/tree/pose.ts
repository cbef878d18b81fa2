import { quaternionToMat3 } from '../rotation';
import { assertNumberRun, assertOutput } from '../errors';
import { type Floats, type ReadonlyFloats } from '../layout';

/**
 * Rigid poses of meshes and their bounding trees: a translation and a rotation (as three
 * columns), and the frame changes the tree queries run on. Trees sit in the world at a rigid
 * pose; queries never touch the tree, so one tree serves every entity that shares the mesh.
 */

/** Rigid pose: translation (3), then the rotation as 3 columns (9), like an OBB without half-extents. */
export const POSE_STRIDE = 12;

/**
 * Writes the pose (translation, quaternion x, y, z, w) as a POSE_STRIDE run at out[o]. Returns
 * out. Throws CollideInputError unless `out` has room for it and `q` holds 4 numbers.
 */
export function poseFromTranslationQuaternion(out: Floats, o: number, tx: number, ty: number, tz: number, q: ReadonlyFloats): Floats {
  assertOutput(out, o, POSE_STRIDE, 'poseFromTranslationQuaternion');
  assertNumberRun(q, 0, 4, 'poseFromTranslationQuaternion: q');
  out[o] = tx;
  out[o + 1] = ty;
  out[o + 2] = tz;
  return quaternionToMat3(out, o + 3, q);
}

/** Writes `count` points of src (xyz from so) moved by the pose at pose[po] to out[oo..]. */
export function transformByPose(out: Floats, oo: number, pose: ReadonlyFloats, po: number, src: ReadonlyFloats, so: number, count: number): void {
  for (let k = 0; k < 3 * count; k += 3) {
    const x = src[so + k], y = src[so + k + 1], z = src[so + k + 2];
    for (let i = 0; i < 3; i++) out[oo + k + i] = pose[po + i] + pose[po + 3 + i] * x + pose[po + 6 + i] * y + pose[po + 9 + i] * z;
  }
}

// ---- relative transforms (state = T (3), R columns (9), the POSE layout) ----

/** out = pose A^-1 · pose B: B's frame in A's frame. */
export function relativePose(out: Floats, o: number, a: ReadonlyFloats, ao: number, b: ReadonlyFloats, bo: number): void {
  const dx = b[bo] - a[ao], dy = b[bo + 1] - a[ao + 1], dz = b[bo + 2] - a[ao + 2];
  for (let i = 0; i < 3; i++) {
    const u = ao + 3 + 3 * i;
    const ux = a[u], uy = a[u + 1], uz = a[u + 2];
    out[o + i] = ux * dx + uy * dy + uz * dz;
    for (let j = 0; j < 3; j++) {
      const v = bo + 3 + 3 * j;
      out[o + 3 + 3 * j + i] = ux * b[v] + uy * b[v + 1] + uz * b[v + 2];
    }
  }
}

/** Writes (x, y, z) given in world coordinates into the mesh frame of `pose` at out[o]. */
export function toMeshFrame(out: Floats, o: number, pose: ReadonlyFloats, po: number, x: number, y: number, z: number): void {
  const dx = x - pose[po], dy = y - pose[po + 1], dz = z - pose[po + 2];
  for (let i = 0; i < 3; i++) {
    const u = po + 3 + 3 * i;
    out[o + i] = pose[u] * dx + pose[u + 1] * dy + pose[u + 2] * dz;
  }
}

/** Writes world direction (x, y, z) in the mesh frame of `pose` at out[o]. */
export function directionToMeshFrame(out: Floats, o: number, pose: ReadonlyFloats, po: number, x: number, y: number, z: number): void {
  for (let i = 0; i < 3; i++) {
    const u = po + 3 + 3 * i;
    out[o + i] = pose[u] * x + pose[u + 1] * y + pose[u + 2] * z;
  }
}
