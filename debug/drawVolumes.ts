/**
 * Wireframes of the library's world volumes (layouts of src/layout.ts) into a LineBatch: OBB
 * edges, sphere great circles, capsule rings, sides and caps, AABB edges. Allocation-free.
 */
import { CIRCLE_SEGMENTS, type LineBatch } from './lineBatch';

const HALF_TURN = CIRCLE_SEGMENTS / 2;

/** The 12 edges of the box centre c ± h0·u0 ± h1·u1 ± h2·u2 (OBB layout at box[o]). */
export function drawObb(batch: LineBatch, box: ArrayLike<number>, o: number): void {
  const cx = box[o], cy = box[o + 1], cz = box[o + 2];
  for (let a = 0; a < 3; a++) {
    // Edges along axis a: one per sign combination of the other two axes.
    const b = (a + 1) % 3, c = (a + 2) % 3;
    const ha = box[o + 12 + a], hb = box[o + 12 + b], hc = box[o + 12 + c];
    const ax = ha * box[o + 3 + 3 * a], ay = ha * box[o + 4 + 3 * a], az = ha * box[o + 5 + 3 * a];
    const bx = hb * box[o + 3 + 3 * b], by = hb * box[o + 4 + 3 * b], bz = hb * box[o + 5 + 3 * b];
    const qx = hc * box[o + 3 + 3 * c], qy = hc * box[o + 4 + 3 * c], qz = hc * box[o + 5 + 3 * c];
    for (let s = 0; s < 4; s++) {
      const sb = s & 1 ? 1 : -1, sc = s & 2 ? 1 : -1;
      const mx = cx + sb * bx + sc * qx, my = cy + sb * by + sc * qy, mz = cz + sb * bz + sc * qz;
      batch.segment(mx - ax, my - ay, mz - az, mx + ax, my + ay, mz + az);
    }
  }
}

/** The 12 edges of the min-max box at box[o]. */
export function drawAabb(batch: LineBatch, box: ArrayLike<number>, o: number): void {
  const x0 = box[o], y0 = box[o + 1], z0 = box[o + 2], x1 = box[o + 3], y1 = box[o + 4], z1 = box[o + 5];
  for (let s = 0; s < 4; s++) {
    const p = s & 1 ? y1 : y0, q = s & 2 ? z1 : z0;
    batch.segment(x0, p, q, x1, p, q);
    const r = s & 1 ? x1 : x0, t = s & 2 ? z1 : z0;
    batch.segment(r, y0, t, r, y1, t);
    const u = s & 1 ? x1 : x0, v = s & 2 ? y1 : y0;
    batch.segment(u, v, z0, u, v, z1);
  }
}

/** Three great circles of the sphere [cx, cy, cz, r] at s[o]. */
export function drawSphere(batch: LineBatch, s: ArrayLike<number>, o: number): void {
  const x = s[o], y = s[o + 1], z = s[o + 2], r = s[o + 3];
  batch.arc(x, y, z, 1, 0, 0, 0, 1, 0, r, 0, CIRCLE_SEGMENTS);
  batch.arc(x, y, z, 0, 1, 0, 0, 0, 1, r, 0, CIRCLE_SEGMENTS);
  batch.arc(x, y, z, 0, 0, 1, 1, 0, 0, r, 0, CIRCLE_SEGMENTS);
}

/** Capsule [p0, p1, r] at c[o]: rings at both ends, four side lines, two half circles per cap. */
export function drawCapsule(batch: LineBatch, c: ArrayLike<number>, o: number): void {
  const ax = c[o], ay = c[o + 1], az = c[o + 2], bx = c[o + 3], by = c[o + 4], bz = c[o + 5], r = c[o + 6];
  let dx = bx - ax, dy = by - ay, dz = bz - az;
  const len = Math.hypot(dx, dy, dz);
  if (len > 0) {
    dx /= len; dy /= len; dz /= len;
  } else {
    dx = 0; dy = 1; dz = 0;
  }
  // u ⟂ d from the world axis least aligned with d; v = d × u.
  let ux: number, uy: number, uz: number;
  if (Math.abs(dx) < 0.6) {
    ux = 0; uy = dz; uz = -dy;
  } else {
    ux = -dz; uy = 0; uz = dx;
  }
  const ul = Math.hypot(ux, uy, uz);
  ux /= ul; uy /= ul; uz /= ul;
  const vx = dy * uz - dz * uy, vy = dz * ux - dx * uz, vz = dx * uy - dy * ux;
  batch.arc(ax, ay, az, ux, uy, uz, vx, vy, vz, r, 0, CIRCLE_SEGMENTS);
  batch.arc(bx, by, bz, ux, uy, uz, vx, vy, vz, r, 0, CIRCLE_SEGMENTS);
  batch.segment(ax + r * ux, ay + r * uy, az + r * uz, bx + r * ux, by + r * uy, bz + r * uz);
  batch.segment(ax - r * ux, ay - r * uy, az - r * uz, bx - r * ux, by - r * uy, bz - r * uz);
  batch.segment(ax + r * vx, ay + r * vy, az + r * vz, bx + r * vx, by + r * vy, bz + r * vz);
  batch.segment(ax - r * vx, ay - r * vy, az - r * vz, bx - r * vx, by - r * vy, bz - r * vz);
  // Caps: half circles from +u (or +v) over the axis end to −u.
  batch.arc(bx, by, bz, ux, uy, uz, dx, dy, dz, r, 0, HALF_TURN);
  batch.arc(bx, by, bz, vx, vy, vz, dx, dy, dz, r, 0, HALF_TURN);
  batch.arc(ax, ay, az, ux, uy, uz, -dx, -dy, -dz, r, 0, HALF_TURN);
  batch.arc(ax, ay, az, vx, vy, vz, -dx, -dy, -dz, r, 0, HALF_TURN);
}
