/** The rigid pose of an entity for the bounding trees, from its transform. */
import { poseFromTranslationQuaternion } from '../src/tree/pose';
import type { Floats } from '../src/layout';
import type { TransformStore } from '../components/transform';

const quaternion = new Float64Array(4);

/**
 * Rigid pose (obbTree's POSE layout) of entity `eid`, its transform's position and rotation, at
 * out[o]. The stored quaternion is unit only to Float32 precision (|q|² = 1 ± ~1e-7 when the
 * setters wrote it, normalised in doubles, then rounded; anything non-zero when written straight
 * into the store), and its matrix would scale the mesh by |q|²: about 1e-4 at 1,000 units from
 * the mesh origin. Normalised here in doubles, the pose is rigid to double rounding, as the trees
 * assume.
 */
export function entityPose(out: Floats, o: number, t: TransformStore, eid: number): void {
  const r = t.rotation, q = 4 * eid;
  const x = r[q], y = r[q + 1], z = r[q + 2], w = r[q + 3];
  const inv = 1 / Math.sqrt(x * x + y * y + z * z + w * w);
  quaternion[0] = x * inv;
  quaternion[1] = y * inv;
  quaternion[2] = z * inv;
  quaternion[3] = w * inv;
  poseFromTranslationQuaternion(out, o, t.position[3 * eid], t.position[3 * eid + 1], t.position[3 * eid + 2], quaternion);
}
