import {
  HITBOX_ROUNDING_MARGIN_RELATIVE,
  HITBOX_ORTHOGONAL_AXES_RELATIVE,
  HITBOX_PARALLEL_AXES_RELATIVE,
} from '../tolerances';
import { assertCharacterRange, computeWorldMatrices, type SkeletonStore } from './skeleton';
import { assertMadeBy } from '../query/rayQuery';
import { MAX_INDEX, HITBOXES_PER_CLUSTER, type HitboxStore } from './hitboxLayout';

/**
 * The per-frame hitbox update: each bone's world matrix carries its hitboxes (one matrix-box
 * product per box), then the cluster and character bounds are refitted around them.
 */

const mapped = new Float64Array(9); // scratch: the mapped extent vectors a_0, a_1, a_2 of an oblique box
const reach = new Float64Array(3); // scratch: an oblique box's world AABB half-size

/**
 * The world box of a box whose mapped extent vectors (`mapped`) are not orthogonal (shear, or a
 * zero extent): axes e_j by Gram-Schmidt on a_0, a_1 (world axes if they are parallel or a_0 is
 * zero), half-extents Σ_k |e_j·a_k|, which contain the parallelepiped. Writes the box at `wo` and
 * its world AABB half-size to `reach`; returns the bounding-sphere radius. The rare path.
 */
function obliqueWorldBox(world: Float32Array, wo: number): number {
  const a = mapped;
  let e0x = 1, e0y = 0, e0z = 0, e1x = 0, e1y = 1, e1z = 0, e2x = 0, e2y = 0, e2z = 1;
  const l0 = a[0] * a[0] + a[1] * a[1] + a[2] * a[2];
  if (l0 > 0) {
    const r0 = 1 / Math.sqrt(l0);
    const f0x = a[0] * r0, f0y = a[1] * r0, f0z = a[2] * r0;
    const d = a[3] * f0x + a[4] * f0y + a[5] * f0z;
    const bx = a[3] - d * f0x, by = a[4] - d * f0y, bz = a[5] - d * f0z;
    const l1 = bx * bx + by * by + bz * bz;
    if (l1 > HITBOX_PARALLEL_AXES_RELATIVE * (a[3] * a[3] + a[4] * a[4] + a[5] * a[5])) {
      const r1 = 1 / Math.sqrt(l1);
      e0x = f0x; e0y = f0y; e0z = f0z;
      e1x = bx * r1; e1y = by * r1; e1z = bz * r1;
      e2x = e0y * e1z - e0z * e1y; e2y = e0z * e1x - e0x * e1z; e2z = e0x * e1y - e0y * e1x;
    }
  }
  let H0 = 0, H1 = 0, H2 = 0;
  for (let k = 0; k < 9; k += 3) {
    H0 += Math.abs(e0x * a[k] + e0y * a[k + 1] + e0z * a[k + 2]);
    H1 += Math.abs(e1x * a[k] + e1y * a[k + 1] + e1z * a[k + 2]);
    H2 += Math.abs(e2x * a[k] + e2y * a[k + 1] + e2z * a[k + 2]);
  }
  world[wo + 3] = e0x; world[wo + 4] = e0y; world[wo + 5] = e0z;
  world[wo + 6] = e1x; world[wo + 7] = e1y; world[wo + 8] = e1z;
  world[wo + 9] = e2x; world[wo + 10] = e2y; world[wo + 11] = e2z;
  world[wo + 12] = H0; world[wo + 13] = H1; world[wo + 14] = H2;
  // Arvo: the AABB of the world box (which may exceed the parallelepiped's).
  reach[0] = H0 * Math.abs(e0x) + H1 * Math.abs(e1x) + H2 * Math.abs(e2x);
  reach[1] = H0 * Math.abs(e0y) + H1 * Math.abs(e1y) + H2 * Math.abs(e2y);
  reach[2] = H0 * Math.abs(e0z) + H1 * Math.abs(e1z) + H2 * Math.abs(e2z);
  return Math.sqrt(H0 * H0 + H1 * H1 + H2 * H2);
}

/**
 * The bone world matrices, then the hitboxes (updateHitboxes), of characters [from, to): a run of
 * characters needs nothing of the others, so runs can go to different threads. Characters of the
 * skeleton store beyond the hitbox store's get their matrices from the run that reaches the end.
 * Returns -1, or the first bone whose world matrix `computeWorldMatrices` refused: the run's
 * hitboxes are then left as they were, so no store receives a number that is not finite.
 */
export function updateCharacterRun(store: HitboxStore, skeleton: SkeletonStore, from: number, to: number): number {
  const bad = computeWorldMatrices(skeleton, from, (to < store.characterCount ? to : skeleton.characterCount) - from);
  if (bad < 0) updateHitboxes(store, skeleton, from, to - from);
  return bad;
}

/**
 * updateCharacterRun of one thread's chunk, its refused bone (if any) folded into
 * `refusedBone[0]` as the least of the threads' (compare-and-swap), so the threads report the
 * first one, as one thread does.
 */
export function updateCharacterRunShared(store: HitboxStore, skeleton: SkeletonStore, from: number, to: number, refusedBone: Int32Array): void {
  const bad = updateCharacterRun(store, skeleton, from, to);
  if (bad < 0) return;
  for (let seen = Atomics.load(refusedBone, 0); bad < seen;) {
    const before = Atomics.compareExchange(refusedBone, 0, seen, bad);
    if (before === seen) return;
    seen = before;
  }
}

/**
 * World boxes, radii, cluster and character AABBs of characters [firstCharacter, +count), all by
 * default, from the skeleton's world matrices (run `computeWorldMatrices` first). The local box
 * (centre c, extent vectors h_k·u_k) maps to the parallelepiped M·c ± Σ_k a_k, a_k = M·(h_k·u_k).
 * When the a_k are orthogonal (rigid motion, uniform scale, or non-uniform scale along the box
 * axes: nearly always) that is the world box itself: axes a_0/|a_0|, a_1/|a_1| and their cross
 * product (right-handed even under a mirroring bone), half-extents |a_k|, and
 * its AABB half-size per axis is Σ_k |a_k|. Otherwise (shear) `obliqueWorldBox` gives a
 * containing box. Allocation-free.
 */
export function updateHitboxes(store: HitboxStore, skeleton: SkeletonStore, firstCharacter = 0, count = store?.characterCount - firstCharacter): void {
  assertCharacterRange(store, 'firstHitbox', firstCharacter, count, store?.characterCount, 'updateHitboxes', 'createHitboxStore');
  assertMadeBy(skeleton, 'world', 'updateHitboxes', 'skeleton', 'createSkeletonStore');
  const { bone, extent: x, world, sphere, characterAabb, clusterAabb, firstHitbox, hitboxCount, firstCluster } = store;
  const m = skeleton.world;
  // Strides are literals (16 per matrix, EXTENT_STRIDE 12, OBB_STRIDE 15, SPHERE_STRIDE 4,
  // AABB_STRIDE 6) and module constants locals: imported bindings are live, so the JIT would
  // reload and check them at every use, and multiply by an unknown factor with an overflow check.
  const orthogonal = HITBOX_ORTHOGONAL_AXES_RELATIVE, rounding = HITBOX_ROUNDING_MARGIN_RELATIVE, radiusScale = 1 + HITBOX_ROUNDING_MARGIN_RELATIVE;
  const perCluster = HITBOXES_PER_CLUSTER, indexMask = MAX_INDEX - 1;
  for (let c = firstCharacter; c < firstCharacter + count; c++) {
    let minX = Infinity, minY = Infinity, minZ = Infinity;
    let maxX = -Infinity, maxY = -Infinity, maxZ = -Infinity;
    const end = firstHitbox[c] + hitboxCount[c];
    for (let h0 = firstHitbox[c], a = 6 * firstCluster[c]; h0 < end; h0 += perCluster, a += 6) {
      let cMinX = Infinity, cMinY = Infinity, cMinZ = Infinity;
      let cMaxX = -Infinity, cMaxY = -Infinity, cMaxZ = -Infinity;
      const clusterEnd = end < h0 + perCluster ? end : h0 + perCluster;
      for (let h = h0; h < clusterEnd; h++) {
        const hm = h & indexMask;
        const mo = 16 * (bone[hm] & indexMask), xo = 12 * hm, wo = 15 * hm, so = 4 * hm;
        const m00 = m[mo], m10 = m[mo + 1], m20 = m[mo + 2];
        const m01 = m[mo + 4], m11 = m[mo + 5], m21 = m[mo + 6];
        const m02 = m[mo + 8], m12 = m[mo + 9], m22 = m[mo + 10];
        let u = x[xo], v = x[xo + 1], w = x[xo + 2];
        const wx = m00 * u + m01 * v + m02 * w + m[mo + 12];
        const wy = m10 * u + m11 * v + m12 * w + m[mo + 13];
        const wz = m20 * u + m21 * v + m22 * w + m[mo + 14];
        u = x[xo + 3]; v = x[xo + 4]; w = x[xo + 5];
        const a0x = m00 * u + m01 * v + m02 * w, a0y = m10 * u + m11 * v + m12 * w, a0z = m20 * u + m21 * v + m22 * w;
        u = x[xo + 6]; v = x[xo + 7]; w = x[xo + 8];
        const a1x = m00 * u + m01 * v + m02 * w, a1y = m10 * u + m11 * v + m12 * w, a1z = m20 * u + m21 * v + m22 * w;
        u = x[xo + 9]; v = x[xo + 10]; w = x[xo + 11];
        const a2x = m00 * u + m01 * v + m02 * w, a2y = m10 * u + m11 * v + m12 * w, a2z = m20 * u + m21 * v + m22 * w;
        world[wo] = wx; world[wo + 1] = wy; world[wo + 2] = wz;
        sphere[so] = wx; sphere[so + 1] = wy; sphere[so + 2] = wz;
        const l0 = a0x * a0x + a0y * a0y + a0z * a0z;
        const l1 = a1x * a1x + a1y * a1y + a1z * a1z;
        const l2 = a2x * a2x + a2y * a2y + a2z * a2z;
        const d01 = a0x * a1x + a0y * a1y + a0z * a1z;
        const d02 = a0x * a2x + a0y * a2y + a0z * a2z;
        const d12 = a1x * a2x + a1y * a2y + a1z * a2z;
        let rx: number, ry: number, rz: number;
        if (l0 > 0 && l1 > 0 && l2 > 0 && d01 * d01 <= orthogonal * l0 * l1
          && d02 * d02 <= orthogonal * l0 * l2 && d12 * d12 <= orthogonal * l1 * l2) {
          const H0 = Math.sqrt(l0), H1 = Math.sqrt(l1), H2 = Math.sqrt(l2);
          const r0 = 1 / H0, r1 = 1 / H1;
          const e0x = a0x * r0, e0y = a0y * r0, e0z = a0z * r0;
          const e1x = a1x * r1, e1y = a1y * r1, e1z = a1z * r1;
          world[wo + 3] = e0x; world[wo + 4] = e0y; world[wo + 5] = e0z;
          world[wo + 6] = e1x; world[wo + 7] = e1y; world[wo + 8] = e1z;
          // e0 × e1 = ±a2/|a2|: the cross product keeps the frame right-handed under a mirroring bone.
          world[wo + 9] = e0y * e1z - e0z * e1y; world[wo + 10] = e0z * e1x - e0x * e1z; world[wo + 11] = e0x * e1y - e0y * e1x;
          world[wo + 12] = H0; world[wo + 13] = H1; world[wo + 14] = H2;
          sphere[so + 3] = Math.sqrt(l0 + l1 + l2) * radiusScale;
          rx = Math.abs(a0x) + Math.abs(a1x) + Math.abs(a2x);
          ry = Math.abs(a0y) + Math.abs(a1y) + Math.abs(a2y);
          rz = Math.abs(a0z) + Math.abs(a1z) + Math.abs(a2z);
        } else {
          mapped[0] = a0x; mapped[1] = a0y; mapped[2] = a0z;
          mapped[3] = a1x; mapped[4] = a1y; mapped[5] = a1z;
          mapped[6] = a2x; mapped[7] = a2y; mapped[8] = a2z;
          sphere[so + 3] = obliqueWorldBox(world, wo) * radiusScale;
          rx = reach[0]; ry = reach[1]; rz = reach[2];
        }
        if (wx - rx < cMinX) cMinX = wx - rx;
        if (wy - ry < cMinY) cMinY = wy - ry;
        if (wz - rz < cMinZ) cMinZ = wz - rz;
        if (wx + rx > cMaxX) cMaxX = wx + rx;
        if (wy + ry > cMaxY) cMaxY = wy + ry;
        if (wz + rz > cMaxZ) cMaxZ = wz + rz;
      }
      // Per axis: a stored corner coordinate moves with that coordinate of the centre and with the box size.
      const size = Math.max(cMaxX - cMinX, cMaxY - cMinY, cMaxZ - cMinZ);
      const mx = rounding * (Math.max(-cMinX, cMaxX) + size);
      const my = rounding * (Math.max(-cMinY, cMaxY) + size);
      const mz = rounding * (Math.max(-cMinZ, cMaxZ) + size);
      cMinX -= mx; cMinY -= my; cMinZ -= mz;
      cMaxX += mx; cMaxY += my; cMaxZ += mz;
      clusterAabb[a] = cMinX; clusterAabb[a + 1] = cMinY; clusterAabb[a + 2] = cMinZ;
      clusterAabb[a + 3] = cMaxX; clusterAabb[a + 4] = cMaxY; clusterAabb[a + 5] = cMaxZ;
      if (cMinX < minX) minX = cMinX;
      if (cMinY < minY) minY = cMinY;
      if (cMinZ < minZ) minZ = cMinZ;
      if (cMaxX > maxX) maxX = cMaxX;
      if (cMaxY > maxY) maxY = cMaxY;
      if (cMaxZ > maxZ) maxZ = cMaxZ;
    }
    const a = 6 * c;
    characterAabb[a] = minX; characterAabb[a + 1] = minY; characterAabb[a + 2] = minZ;
    characterAabb[a + 3] = maxX; characterAabb[a + 4] = maxY; characterAabb[a + 5] = maxZ;
  }
}
