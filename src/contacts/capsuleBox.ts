import { closestSegments, SEGMENTS_DISTANCE, CLOSEST_SEGMENTS_STRIDE } from '../query/closestPoints';
import { OBB_AXES, OBB_HALF, type Floats, type ReadonlyFloats } from '../layout';
import { raycastObbArrays, RAY_HIT_STRIDE, RAY_INPUT_STRIDE } from '../query/raycast';
import {
  capsuleFeature,
  writeBoxLocalHeader,
  boxEdgeFeature,
  writeBoxLocalPoint,
  clearlySmaller,
  COINCIDENT_NORMAL_X,
  FEATURE_BOX_FACE,
  FEATURE_BOX_EDGE,
  boxFeature,
  separated,
  FEATURE_CAPSULE_SIDE,
} from './manifold';
import { EDGE_AXIS_MIN_SINE, PARALLEL_SEGMENT_SINE } from '../tolerances';
import { roundContact } from './round';

/**
 * Contacts of a capsule against an OBB: the segment over a box face, a segment end or side
 * against an edge, or a segment through the box. Conventions in manifold.ts.
 */

const closest = new Float64Array(CLOSEST_SEGMENTS_STRIDE + 1);
const rayHit = new Float64Array(RAY_HIT_STRIDE);
const segmentRay = new Float64Array(RAY_INPUT_STRIDE);
const localSegment = new Float64Array(6);
const boxEdge = new Float64Array(6);
const bestPoints = new Float64Array(6);

/** Writes into boxEdge the box-frame edge along axis k on the given sides of the other two axes. */
function setBoxEdgeLocal(b: ReadonlyFloats, bo: number, k: number, plusNext: boolean, plusAfter: boolean): void {
  const n = (k + 1) % 3, f = (k + 2) % 3;
  const hn = b[bo + OBB_HALF + n], hf = b[bo + OBB_HALF + f], hk = b[bo + OBB_HALF + k];
  boxEdge[n] = boxEdge[3 + n] = plusNext ? hn : -hn;
  boxEdge[f] = boxEdge[3 + f] = plusAfter ? hf : -hf;
  boxEdge[k] = -hk;
  boxEdge[3 + k] = hk;
}

/**
 * Contact of the capsule segment (localSegment, box frame) with the box face on axis k whose
 * outward normal is side·u_k, from the part of the segment over the face: two points (its ends)
 * when the segment lies parallel to the face (PARALLEL_SEGMENT_SINE), else, if `single`, one
 * point at its deeper end; each with its own depth. Returns 0 (nothing written) when no part of
 * the segment is over the face, or when two points are due but an end is out of contact, or when
 * one is due but `single` is false.
 */
function capsuleFaceContact(
  out: Floats, oo: number, b: ReadonlyFloats, bo: number,
  r: number, k: number, side: number, depth: number, single: boolean,
): number {
  const dx = localSegment[3] - localSegment[0], dy = localSegment[4] - localSegment[1], dz = localSegment[5] - localSegment[2];
  const len2 = dx * dx + dy * dy + dz * dz;
  const dk = k === 0 ? dx : k === 1 ? dy : dz;
  let lo = 0, hi = 1;
  for (let step = 1; step <= 2; step++) {
    const j = (k + step) % 3;
    const h = b[bo + OBB_HALF + j], p = localSegment[j], d = localSegment[3 + j] - p;
    if (d === 0) {
      if (Math.abs(p) > h) return 0;
      continue;
    }
    const t0 = (-h - p) / d, t1 = (h - p) / d;
    lo = Math.max(lo, Math.min(t0, t1));
    hi = Math.min(hi, Math.max(t0, t1));
  }
  if (!(hi >= lo)) return 0;
  const parallel = hi > lo && dk * dk <= PARALLEL_SEGMENT_SINE * PARALLEL_SEGMENT_SINE * len2;
  if (!parallel) {
    if (!single) return 0;
    // One point: the deeper end of the part over the face.
    if (side * dk > 0) hi = lo;
    else lo = hi;
  }
  const hk = b[bo + OBB_HALF + k];
  for (let e = 0; e < (parallel ? 2 : 1); e++) {
    const t = e === 0 ? lo : hi;
    const px = localSegment[0] + t * dx, py = localSegment[1] + t * dy, pz = localSegment[2] + t * dz;
    const pointDepth = r + hk - side * (k === 0 ? px : k === 1 ? py : pz);
    if (pointDepth < 0) return 0;
    // Midway between the capsule's surface and the face, across the face.
    const across = side * (hk - 0.5 * pointDepth);
    writeBoxLocalPoint(out, oo, e, b, bo, k === 0 ? across : px, k === 1 ? across : py, k === 2 ? across : pz, pointDepth);
  }
  return writeBoxLocalHeader(
    out, oo, b, bo,
    k === 0 ? -side : 0, k === 1 ? -side : 0, k === 2 ? -side : 0,
    depth, parallel ? 2 : 1, parallel ? FEATURE_CAPSULE_SIDE : capsuleFeature(lo),
    FEATURE_BOX_FACE + 2 * k + (side > 0 ? 1 : 0),
  );
}

/**
 * Capsule A against OBB B, in the box frame. When the segment misses the box, the closest points
 * of segment and box (over the two end caps and the 12 box edges) give a sphere-like contact.
 * When it meets the box, the depth is the radius plus the segment's least penetration over the
 * SAT axes of a segment and a box (3 face normals, 3 crosses of the segment with the box axes),
 * which is exact since the capsule is the segment grown by its radius. A segment lying parallel
 * to the contact face gets two points (the ends of its part over the face). A zero-length
 * segment behaves as a sphere.
 */
export function contactCapsuleObb(out: Floats, oo: number, c: ReadonlyFloats, co: number, b: ReadonlyFloats, bo: number): number {
  const r = c[co + 6];
  const ax = bo + OBB_AXES;
  for (let e = 0; e < 2; e++) {
    const rx = c[co + 3 * e] - b[bo], ry = c[co + 3 * e + 1] - b[bo + 1], rz = c[co + 3 * e + 2] - b[bo + 2];
    for (let k = 0; k < 3; k++) localSegment[3 * e + k] = rx * b[ax + 3 * k] + ry * b[ax + 3 * k + 1] + rz * b[ax + 3 * k + 2];
  }
  const h0 = b[bo + OBB_HALF], h1 = b[bo + OBB_HALF + 1], h2 = b[bo + OBB_HALF + 2];
  // The segment as a ray from p0, t in [0, 1], read from an array: numbers passed to a call are boxed.
  for (let k = 0; k < 3; k++) {
    segmentRay[k] = c[co + k];
    segmentRay[3 + k] = c[co + 3 + k] - c[co + k];
  }
  segmentRay[6] = 1;
  const hit = raycastObbArrays(rayHit, segmentRay, 0, b, bo);
  if (!hit) {
    let best2 = Infinity, bestT = 0;
    for (let e = 0; e < 2; e++) {
      const px = localSegment[3 * e], py = localSegment[3 * e + 1], pz = localSegment[3 * e + 2];
      const qx = Math.max(-h0, Math.min(h0, px)), qy = Math.max(-h1, Math.min(h1, py)), qz = Math.max(-h2, Math.min(h2, pz));
      const d2 = (qx - px) * (qx - px) + (qy - py) * (qy - py) + (qz - pz) * (qz - pz);
      if (d2 < best2) {
        best2 = d2;
        bestT = e;
        bestPoints[0] = px; bestPoints[1] = py; bestPoints[2] = pz;
        bestPoints[3] = qx; bestPoints[4] = qy; bestPoints[5] = qz;
      }
    }
    for (let k = 0; k < 3; k++) {
      for (let corner = 0; corner < 4; corner++) {
        setBoxEdgeLocal(b, bo, k, (corner & 1) !== 0, (corner & 2) !== 0);
        closestSegments(closest, 0, localSegment, 0, boxEdge, 0);
        const d2 = closest[SEGMENTS_DISTANCE];
        if (d2 < best2) {
          best2 = d2;
          bestT = closest[6];
          for (let i = 0; i < 6; i++) bestPoints[i] = closest[i];
        }
      }
    }
    if (best2 > 0) {
      const dist = Math.sqrt(best2);
      if (r - dist < 0) return separated(out, oo);
      let clamped = 0, positive = 0;
      for (let k = 0; k < 3; k++) {
        const q = bestPoints[3 + k], h = b[bo + OBB_HALF + k];
        if (q >= h) {
          clamped |= 1 << k;
          positive |= 1 << k;
        } else if (q <= -h) clamped |= 1 << k;
      }
      const feature = boxFeature(clamped, positive);
      if (feature < FEATURE_BOX_EDGE) {
        const k = (feature - FEATURE_BOX_FACE) >> 1;
        const count = capsuleFaceContact(out, oo, b, bo, r, k, (feature & 1) !== 0 ? 1 : -1, r - dist, false);
        if (count > 0) return count;
      }
      const px = bestPoints[0], py = bestPoints[1], pz = bestPoints[2];
      const dx = bestPoints[3] - px, dy = bestPoints[4] - py, dz = bestPoints[5] - pz;
      return roundContact(
        out, oo,
        b[bo] + px * b[ax] + py * b[ax + 3] + pz * b[ax + 6],
        b[bo + 1] + px * b[ax + 1] + py * b[ax + 4] + pz * b[ax + 7],
        b[bo + 2] + px * b[ax + 2] + py * b[ax + 5] + pz * b[ax + 8],
        r,
        dx * b[ax] + dy * b[ax + 3] + dz * b[ax + 6],
        dx * b[ax + 1] + dy * b[ax + 4] + dz * b[ax + 7],
        dx * b[ax + 2] + dy * b[ax + 5] + dz * b[ax + 8],
        0,
        COINCIDENT_NORMAL_X, 0, 0,
        capsuleFeature(bestT), feature,
      );
    }
  }
  return capsuleObbPenetration(out, oo, b, bo, r);
}

/** The segment (localSegment) meets the box: least penetration over the segment-box SAT axes. */
function capsuleObbPenetration(out: Floats, oo: number, b: ReadonlyFloats, bo: number, r: number): number {
  const h0 = b[bo + OBB_HALF], h1 = b[bo + OBB_HALF + 1], h2 = b[bo + OBB_HALF + 2];
  const sx = localSegment[0], sy = localSegment[1], sz = localSegment[2];
  const ex = localSegment[3], ey = localSegment[4], ez = localSegment[5];
  const dx = ex - sx, dy = ey - sy, dz = ez - sz;
  const len2 = dx * dx + dy * dy + dz * dz;
  const size = r + Math.max(h0, h1, h2) + Math.sqrt(len2);
  // Face axes: pushing B along +u_k costs max + r + h; along −u_k, h + r − min.
  let face = Infinity, faceAxis = 0, faceSign = 1;
  for (let k = 0; k < 3; k++) {
    const h = b[bo + OBB_HALF + k], p = localSegment[k], q = localSegment[3 + k];
    const plus = Math.max(p, q) + r + h, minus = h + r - Math.min(p, q);
    const depth = plus <= minus ? plus : minus;
    if (depth < face) {
      face = depth;
      faceAxis = k;
      faceSign = plus <= minus ? 1 : -1;
    }
  }
  // Edge axes d × u_k.
  let edge = Infinity, edgeAxis = 0, wx = 0, wy = 0, wz = 0;
  for (let k = 0; k < 3; k++) {
    let nx = k === 0 ? 0 : k === 1 ? -dz : dy;
    let ny = k === 0 ? dz : k === 1 ? 0 : -dx;
    let nz = k === 0 ? -dy : k === 1 ? dx : 0;
    const w2 = nx * nx + ny * ny + nz * nz;
    if (len2 === 0 || w2 <= EDGE_AXIS_MIN_SINE * EDGE_AXIS_MIN_SINE * len2) continue;
    const inv = 1 / Math.sqrt(w2);
    nx *= inv;
    ny *= inv;
    nz *= inv;
    const h = h0 * Math.abs(nx) + h1 * Math.abs(ny) + h2 * Math.abs(nz);
    const p = sx * nx + sy * ny + sz * nz, q = ex * nx + ey * ny + ez * nz;
    const plus = Math.max(p, q) + r + h, minus = h + r - Math.min(p, q);
    const depth = plus <= minus ? plus : minus;
    if (depth < edge) {
      const s = plus <= minus ? 1 : -1;
      edge = depth;
      edgeAxis = k;
      wx = s * nx;
      wy = s * ny;
      wz = s * nz;
    }
  }
  if (clearlySmaller(edge, face, size)) {
    // The box edge along u_k that is deepest toward the capsule (support in −n).
    setBoxEdgeLocal(b, bo, edgeAxis, -(edgeAxis === 0 ? wy : edgeAxis === 1 ? wz : wx) >= 0, -(edgeAxis === 0 ? wz : edgeAxis === 1 ? wx : wy) >= 0);
    closestSegments(closest, 0, localSegment, 0, boxEdge, 0);
    writeBoxLocalPoint(
      out, oo, 0, b, bo,
      0.5 * (closest[0] + r * wx + closest[3]),
      0.5 * (closest[1] + r * wy + closest[4]),
      0.5 * (closest[2] + r * wz + closest[5]),
      edge,
    );
    const n = (edgeAxis + 1) % 3, f = (edgeAxis + 2) % 3;
    const featureB = boxEdgeFeature(edgeAxis, boxEdge[n] > 0 ? 1 : 0, boxEdge[f] > 0 ? 1 : 0);
    return writeBoxLocalHeader(out, oo, b, bo, wx, wy, wz, edge, 1, capsuleFeature(closest[6]), featureB);
  }
  // The segment meets the box, so part of it lies over the face.
  return capsuleFaceContact(out, oo, b, bo, r, faceAxis, -faceSign, face, true);
}
