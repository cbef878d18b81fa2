import { OBB_AXES, OBB_HALF, type ReadonlyFloats } from '../layout';
import { BALL_ENTRY, ballEntry, beginSlabs, clipSlab, finishSlabs } from './raycast';
import { TOI_PARALLEL_SINE, TOI_SEPARATION_MARGIN } from '../tolerances';

/**
 * Time of impact of volumes moving in straight lines over one frame (t = 0 at the start, 1 at the
 * end). Velocities are displacements over the frame, read as xyz at an offset. Only translation
 * is swept: rotation during the frame is not modelled. Allocation-free.
 */

/**
 * Earliest t in [0, 1] at which two moving spheres touch: 0 if they overlap (or touch) at the
 * start, −1 if they never touch during the frame. Centre A (ca at cao) with radius ra moves by
 * va (at vao); likewise B. Solved exactly as a ray (the relative motion) against the ball of
 * radius ra + rb.
 */
export function sphereSphereToi(
  ca: ReadonlyFloats, cao: number, ra: number, va: ReadonlyFloats, vao: number,
  cb: ReadonlyFloats, cbo: number, rb: number, vb: ReadonlyFloats, vbo: number,
): number {
  const mx = ca[cao] - cb[cbo], my = ca[cao + 1] - cb[cbo + 1], mz = ca[cao + 2] - cb[cbo + 2];
  const r = ra + rb;
  if (mx * mx + my * my + mz * mz <= r * r) return 0;
  ball[0] = mx;
  ball[1] = my;
  ball[2] = mz;
  for (let k = 0; k < 3; k++) ball[3 + k] = va[vao + k] - vb[vbo + k];
  ball[6] = r;
  ballEntry(ball);
  const t = ball[BALL_ENTRY];
  return t <= 1 ? t : -1;
}

// Scratch for finishSlabs' output (t, unused normal), and obbToi's relative motion.
const slabHit = new Float64Array(4);
const relative = new Float64Array(3);
const ball = new Float64Array(BALL_ENTRY + 1);
/** No direction, up to t = 1 (finishSlabs' input for obbToi). */
const wholeFrame = new Float64Array([0, 0, 0, 1]);

/**
 * The axes of the last clipObbMotion, 5 numbers per axis index (0..14): L (3, unnormalised), the
 * centre offset s = (cB − cA)·L, and the reach rA + rB + margin·|L| (contact iff |s − t·d·L| <=
 * reach); reach is −1 for a skipped near-parallel edge pair. Written as the clip goes (the axes past
 * a rejecting one are left stale), so the shape casts read the axis they entered by, or every axis
 * for the least penetration, without building them twice.
 */
export const MOTION_AXIS_STRIDE = 5;
export const motionAxes = new Float64Array(15 * MOTION_AXIS_STRIDE);

/**
 * Moving-SAT slab clip of box A (moving by d) against static box B: at any instant the boxes touch
 * iff their projections overlap on all 15 SAT axes; with linear motion each axis allows one
 * interval of t, so the contact times are a ray-through-slabs clip (raycast.ts's slab state, slab
 * index = axis index). Returns false once an axis rules contact out; otherwise finishSlabs reads
 * the first contact. Each axis is widened by TOI_SEPARATION_MARGIN × (scene scale); near-parallel
 * edge pairs (TOI_PARALLEL_SINE) are skipped. Shared by obbToi and the box shape casts. The motion
 * d is read at motion[mo..mo + 2] (V8 boxes a double passed to a call it does not inline).
 * @internal
 */
export function clipObbMotion(a: ReadonlyFloats, ao: number, b: ReadonlyFloats, bo: number, motion: ReadonlyFloats, mo: number): boolean {
  const dx = motion[mo], dy = motion[mo + 1], dz = motion[mo + 2];
  const tx = b[bo] - a[ao], ty = b[bo + 1] - a[ao + 1], tz = b[bo + 2] - a[ao + 2];
  const ha0 = a[ao + OBB_HALF], ha1 = a[ao + OBB_HALF + 1], ha2 = a[ao + OBB_HALF + 2];
  const hb0 = b[bo + OBB_HALF], hb1 = b[bo + OBB_HALF + 1], hb2 = b[bo + OBB_HALF + 2];
  const scale =
    Math.sqrt(tx * tx + ty * ty + tz * tz) + Math.sqrt(dx * dx + dy * dy + dz * dz) + ha0 + ha1 + ha2 + hb0 + hb1 + hb2;
  const margin = TOI_SEPARATION_MARGIN * scale;
  const pa = ao + OBB_AXES, pb = bo + OBB_AXES;
  beginSlabs();
  for (let i = 0; i < 15; i++) {
    const m = MOTION_AXIS_STRIDE * i;
    let lx: number, ly: number, lz: number;
    if (i < 6) {
      // Face axes: A's three, then B's three.
      const p = i < 3 ? pa + 3 * i : pb + 3 * (i - 3);
      const src = i < 3 ? a : b;
      lx = src[p];
      ly = src[p + 1];
      lz = src[p + 2];
    } else {
      // Edge axes: A's axis j × B's axis k.
      const p = pa + 3 * Math.floor((i - 6) / 3), q = pb + 3 * ((i - 6) % 3);
      lx = a[p + 1] * b[q + 2] - a[p + 2] * b[q + 1];
      ly = a[p + 2] * b[q] - a[p] * b[q + 2];
      lz = a[p] * b[q + 1] - a[p + 1] * b[q];
      if (lx * lx + ly * ly + lz * lz <= TOI_PARALLEL_SINE * TOI_PARALLEL_SINE) {
        motionAxes[m + 4] = -1;
        continue;
      }
    }
    const rA =
      ha0 * Math.abs(lx * a[pa] + ly * a[pa + 1] + lz * a[pa + 2]) +
      ha1 * Math.abs(lx * a[pa + 3] + ly * a[pa + 4] + lz * a[pa + 5]) +
      ha2 * Math.abs(lx * a[pa + 6] + ly * a[pa + 7] + lz * a[pa + 8]);
    const rB =
      hb0 * Math.abs(lx * b[pb] + ly * b[pb + 1] + lz * b[pb + 2]) +
      hb1 * Math.abs(lx * b[pb + 3] + ly * b[pb + 4] + lz * b[pb + 5]) +
      hb2 * Math.abs(lx * b[pb + 6] + ly * b[pb + 7] + lz * b[pb + 8]);
    const reach = rA + rB + margin * Math.sqrt(lx * lx + ly * ly + lz * lz);
    // Gap along L at time t is T·L − t·(d·L); contact needs it within ±reach.
    const s = tx * lx + ty * ly + tz * lz;
    motionAxes[m] = lx;
    motionAxes[m + 1] = ly;
    motionAxes[m + 2] = lz;
    motionAxes[m + 3] = s;
    motionAxes[m + 4] = reach;
    if (!clipSlab(i, s, -(dx * lx + dy * ly + dz * lz), -reach, reach)) return false;
  }
  return true;
}

/**
 * Earliest time in [0, 1] at which box A (OBB layout at ao, moving by va at vao) touches box B
 * (at bo, moving by vb at vbo), or −1 if they stay apart all frame. 0 if they touch at the start.
 *
 * Exact moving-SAT rather than bisection (clipObbMotion with the relative motion d = va − vb):
 * the start of the intersection of the 15 axes' contact intervals is the first contact.
 *
 * Tolerance: each axis is widened by TOI_SEPARATION_MARGIN × (scene scale), so the result is never
 * later than the true time of impact, and earlier by at most that margin divided by the closing
 * speed along the deciding axis. Near-parallel edge pairs (TOI_PARALLEL_SINE) skip their edge axis,
 * which can only make the answer earlier.
 */
export function obbToi(
  a: ReadonlyFloats, ao: number, va: ReadonlyFloats, vao: number,
  b: ReadonlyFloats, bo: number, vb: ReadonlyFloats, vbo: number,
): number {
  for (let k = 0; k < 3; k++) relative[k] = va[vao + k] - vb[vbo + k];
  if (!clipObbMotion(a, ao, b, bo, relative, 0)) return -1;
  return finishSlabs(slabHit, wholeFrame, 0, 3) ? slabHit[0] : -1;
}

/**
 * Whether box A moving by va and box B moving by vb touch at any time of the frame (swept
 * test), so fast movers cannot tunnel through thin boxes. Conservative: it never misses a
 * contact; see `obbToi` for the tolerance. Equivalent to SAT of A's swept volume against B.
 */
export function obbSweptOverlap(
  a: ReadonlyFloats, ao: number, va: ReadonlyFloats, vao: number,
  b: ReadonlyFloats, bo: number, vb: ReadonlyFloats, vbo: number,
): boolean {
  return obbToi(a, ao, va, vao, b, bo, vb, vbo) >= 0;
}
