import {
  CLOSEST_ON_TRIANGLE_STRIDE,
  CLOSEST_SEGMENTS_STRIDE,
  closestPtPointTriangle,
  closestSegments,
  SEGMENTS_DISTANCE,
} from '../query/closestPoints';
import { EDGE_AXIS_MIN_SINE, PARALLEL_SEGMENT_SINE } from '../tolerances';
import {
  COINCIDENT_NORMAL_X,
  FEATURE_CAPSULE_SIDE,
  FEATURE_SPHERE,
  capsuleFeature,
  clearlySmaller,
  separated,
  writeHeader,
  writePoint,
} from './manifold';
import { roundContact } from './round';
import { type Floats, type ReadonlyFloats } from '../layout';
import { EDGE_FLAGS_ALL_ACTIVE } from './meshEdges';
import { RAY_HIT_STRIDE, raycastTriangle } from '../query/raycast';
import {
  FEATURE_TRIANGLE_FACE,
  FEATURE_TRIANGLE_EDGE,
  edgeSeg,
  setEdge,
  triangleNormal,
  featureActive,
  overFace,
  FEATURE_TRIANGLE_VERTEX,
  weightsFeature,
  trianglePlane,
} from './triangles';

/**
 * Contacts of a sphere or a capsule (A) against one triangle (B), with the mesh's active-edge
 * filter. Conventions, bands and the filter's rules in triangles.ts.
 */

const onTriangle = new Float64Array(CLOSEST_ON_TRIANGLE_STRIDE);
const closest = new Float64Array(CLOSEST_SEGMENTS_STRIDE + 1);
const best = new Float64Array(6);
const rayHit = new Float64Array(RAY_HIT_STRIDE);
// Triangle in the box frame (relative to the box centre), and the polygons being clipped.

/**
 * Sphere A [cx, cy, cz, r] against triangle B: the normal runs from the centre to its closest
 * triangle point. A centre on the triangle gets −(triangle normal), i.e. the sphere is pushed out
 * of the front face ((b − a) × (c − a) side). An inactive closest edge or vertex (`active`): the
 * normal runs from the centre to the plane instead.
 */
export function contactSphereTriangle(
  out: Floats, oo: number, s: ReadonlyFloats, so: number, tri: ReadonlyFloats, to: number, active: number = EDGE_FLAGS_ALL_ACTIVE,
): number {
  const sx = s[so], sy = s[so + 1], sz = s[so + 2];
  closestPtPointTriangle(onTriangle, 0, sx, sy, sz, tri, to);
  const flat = trianglePlane(tri, to);
  let dx = onTriangle[0] - sx, dy = onTriangle[1] - sy, dz = onTriangle[2] - sz;
  let feature = weightsFeature(onTriangle[3], onTriangle[4], onTriangle[5]);
  const dn = dx * triangleNormal[0] + dy * triangleNormal[1] + dz * triangleNormal[2];
  if (flat && feature !== FEATURE_TRIANGLE_FACE && !featureActive(active, feature, dn)) {
    if (!overFace(sx, sy, sz, s[so + 3], dx, dy, dz, dn)) return separated(out, oo);
    dx = dn * triangleNormal[0]; dy = dn * triangleNormal[1]; dz = dn * triangleNormal[2];
    feature = FEATURE_TRIANGLE_FACE;
  }
  return roundContact(
    out, oo, sx, sy, sz, s[so + 3], dx, dy, dz, 0,
    flat ? -triangleNormal[0] : COINCIDENT_NORMAL_X, flat ? -triangleNormal[1] : 0, flat ? -triangleNormal[2] : 0,
    FEATURE_SPHERE, feature,
  );
}

/**
 * Contact of the capsule (segment at c[co], radius r) with the triangle's face, normal (wx, wy,
 * wz) = ± the plane normal, from the part of the segment inside the triangle's prism: two points
 * (its ends) when the segment lies parallel to the plane (PARALLEL_SEGMENT_SINE), else, if
 * `single`, one at its deeper end. Returns 0 (nothing written) when no part is over the triangle,
 * or when two points are due but an end is out of contact, or one is due but `single` is false.
 */
function capsuleTriangleFace(
  out: Floats, oo: number, c: ReadonlyFloats, co: number, tri: ReadonlyFloats, to: number,
  r: number, wx: number, wy: number, wz: number, depth: number, single: boolean,
): number {
  const px = c[co], py = c[co + 1], pz = c[co + 2];
  const dx = c[co + 3] - px, dy = c[co + 4] - py, dz = c[co + 5] - pz;
  let lo = 0, hi = 1;
  for (let e = 0; e < 3; e++) {
    const a = to + 3 * e, b = to + 3 * ((e + 1) % 3);
    const ex = tri[b] - tri[a], ey = tri[b + 1] - tri[a + 1], ez = tri[b + 2] - tri[a + 2];
    // Outward side-plane normal e × n: keep o·(p + t·d − v_e) <= 0.
    const ox = ey * triangleNormal[2] - ez * triangleNormal[1], oy = ez * triangleNormal[0] - ex * triangleNormal[2], oz = ex * triangleNormal[1] - ey * triangleNormal[0];
    const start = ox * (px - tri[a]) + oy * (py - tri[a + 1]) + oz * (pz - tri[a + 2]);
    const slope = ox * dx + oy * dy + oz * dz;
    if (slope === 0) {
      if (start > 0) return 0;
      continue;
    }
    const t = -start / slope;
    if (slope > 0) hi = Math.min(hi, t);
    else lo = Math.max(lo, t);
  }
  if (!(hi >= lo)) return 0;
  const dw = dx * wx + dy * wy + dz * wz;
  const parallel = hi > lo && dw * dw <= PARALLEL_SEGMENT_SINE * PARALLEL_SEGMENT_SINE * (dx * dx + dy * dy + dz * dz);
  if (!parallel) {
    if (!single) return 0;
    if (dw > 0) lo = hi;
    else hi = lo;
  }
  const count = parallel ? 2 : 1;
  for (let e = 0; e < count; e++) {
    const t = e === 0 ? lo : hi;
    const qx = px + t * dx, qy = py + t * dy, qz = pz + t * dz;
    const pd = r + (qx - tri[to]) * wx + (qy - tri[to + 1]) * wy + (qz - tri[to + 2]) * wz;
    if (pd < 0) return 0;
    // Midway between the capsule's surface (q + r·w) and the plane (q + (r − pd)·w).
    const m = r - 0.5 * pd;
    writePoint(out, oo, e, qx + m * wx, qy + m * wy, qz + m * wz, pd);
  }
  return writeHeader(out, oo, wx, wy, wz, depth, count, parallel ? FEATURE_CAPSULE_SIDE : capsuleFeature(lo), FEATURE_TRIANGLE_FACE);
}

/**
 * Capsule A [p0, p1, r] against triangle B. A segment that does not cross the triangle: the
 * closest points of segment and triangle (over the two ends and the three edges) give a
 * round contact, with two points when the segment lies parallel over the face. A segment that
 * crosses it: depth = r + the least penetration over the segment-triangle SAT axes (the plane
 * normal and the segment × each edge), exact since the capsule is the segment grown by r. An
 * inactive edge or vertex (`active`) gives way to the face: the closest segment point measured to
 * the plane (two points when the segment lies parallel over the face), or, crossing, the plane axis.
 */
export function contactCapsuleTriangle(
  out: Floats, oo: number, c: ReadonlyFloats, co: number, tri: ReadonlyFloats, to: number, active: number = EDGE_FLAGS_ALL_ACTIVE,
): number {
  const r = c[co + 6];
  const flat = trianglePlane(tri, to);
  const px = c[co], py = c[co + 1], pz = c[co + 2];
  const dx = c[co + 3] - px, dy = c[co + 4] - py, dz = c[co + 5] - pz;
  const crossing = raycastTriangle(rayHit, px, py, pz, dx, dy, dz, 1, tri, to);
  // Segment parameter of a point the segment shares with the triangle, when it reaches the penetration test.
  let meet = crossing ? rayHit[0] : 0;
  if (!crossing) {
    let best2 = Infinity, bestT = 0, feature = FEATURE_TRIANGLE_FACE;
    for (let e = 0; e < 2; e++) {
      const qx = c[co + 3 * e], qy = c[co + 3 * e + 1], qz = c[co + 3 * e + 2];
      const d2 = closestPtPointTriangle(onTriangle, 0, qx, qy, qz, tri, to);
      if (d2 < best2) {
        best2 = d2;
        bestT = e;
        feature = weightsFeature(onTriangle[3], onTriangle[4], onTriangle[5]);
        best[0] = qx; best[1] = qy; best[2] = qz;
        best[3] = onTriangle[0]; best[4] = onTriangle[1]; best[5] = onTriangle[2];
      }
    }
    for (let e = 0; e < 3; e++) {
      setEdge(tri, to, e);
      closestSegments(closest, 0, c, co, edgeSeg, 0);
      const d2 = closest[SEGMENTS_DISTANCE];
      if (d2 < best2) {
        best2 = d2;
        bestT = closest[6];
        const t = closest[7];
        feature = t <= 0 ? FEATURE_TRIANGLE_VERTEX + e : t >= 1 ? FEATURE_TRIANGLE_VERTEX + (e + 1) % 3 : FEATURE_TRIANGLE_EDGE + e;
        for (let i = 0; i < 6; i++) best[i] = closest[i];
      }
    }
    if (best2 > 0) {
      // Squared distance against r², as the tree's leaf test compares the same numbers.
      if (best2 > r * r) return separated(out, oo);
      let vx = best[3] - best[0], vy = best[4] - best[1], vz = best[5] - best[2];
      const vn = vx * triangleNormal[0] + vy * triangleNormal[1] + vz * triangleNormal[2];
      const replaced = flat && feature !== FEATURE_TRIANGLE_FACE && !featureActive(active, feature, vn);
      const over = replaced && overFace(best[0], best[1], best[2], r, vx, vy, vz, vn);
      if (replaced) {
        vx = vn * triangleNormal[0]; vy = vn * triangleNormal[1]; vz = vn * triangleNormal[2];
        feature = FEATURE_TRIANGLE_FACE;
      }
      const dist = Math.sqrt(vx * vx + vy * vy + vz * vz);
      if (feature === FEATURE_TRIANGLE_FACE && flat && dist > 0) {
        const count = capsuleTriangleFace(out, oo, c, co, tri, to, r, vx / dist, vy / dist, vz / dist, r - dist, false);
        if (count > 0) return count;
      }
      if (replaced && !over) return separated(out, oo);
      // A zero distance only after the replacement: the segment point lies in the plane.
      return roundContact(
        out, oo, best[0], best[1], best[2], r, vx, vy, vz, 0,
        -triangleNormal[0], -triangleNormal[1], -triangleNormal[2], capsuleFeature(bestT), feature,
      );
    }
    meet = bestT;
  }
  return capsuleTrianglePenetration(out, oo, c, co, tri, to, r, flat, active, meet);
}

/**
 * The segment of capsule c meets triangle tri (at parameter `meet`): least penetration over the
 * segment-triangle SAT axes, an inactive edge's (`active`) left to the plane axis.
 */
function capsuleTrianglePenetration(
  out: Floats, oo: number, c: ReadonlyFloats, co: number, tri: ReadonlyFloats, to: number, r: number, flat: boolean, active: number,
  meet: number,
): number {
  const px = c[co], py = c[co + 1], pz = c[co + 2];
  const dx = c[co + 3] - px, dy = c[co + 4] - py, dz = c[co + 5] - pz;
  const len2 = dx * dx + dy * dy + dz * dz;
  let face = Infinity, fx = 0, fy = 0, fz = 0;
  if (flat) {
    // Pushing B along +n costs max_seg + r − plane; along −n, plane − min_seg + r.
    const plane = triangleNormal[0] * tri[to] + triangleNormal[1] * tri[to + 1] + triangleNormal[2] * tri[to + 2];
    const s0 = triangleNormal[0] * px + triangleNormal[1] * py + triangleNormal[2] * pz, s1 = s0 + triangleNormal[0] * dx + triangleNormal[1] * dy + triangleNormal[2] * dz;
    const plus = Math.max(s0, s1) + r - plane, minus = plane - Math.min(s0, s1) + r;
    const sign = plus <= minus ? 1 : -1;
    face = plus <= minus ? plus : minus;
    fx = sign * triangleNormal[0]; fy = sign * triangleNormal[1]; fz = sign * triangleNormal[2];
  }
  let edge = Infinity, edgeIndex = 0, wx = 0, wy = 0, wz = 0;
  let size = Math.sqrt(len2) + r;
  for (let e = 0; e < 3; e++) {
    const a = to + 3 * e, b = to + 3 * ((e + 1) % 3);
    const ex = tri[b] - tri[a], ey = tri[b + 1] - tri[a + 1], ez = tri[b + 2] - tri[a + 2];
    const e2 = ex * ex + ey * ey + ez * ez;
    size = Math.max(size, Math.sqrt(e2));
    let nx = dy * ez - dz * ey, ny = dz * ex - dx * ez, nz = dx * ey - dy * ex;
    const n2 = nx * nx + ny * ny + nz * nz;
    if (n2 === 0 || n2 <= EDGE_AXIS_MIN_SINE * EDGE_AXIS_MIN_SINE * len2 * e2) continue;
    const inv = 1 / Math.sqrt(n2);
    nx *= inv; ny *= inv; nz *= inv;
    let tMin = Infinity, tMax = -Infinity;
    for (let k = 0; k < 3; k++) {
      const v = nx * tri[to + 3 * k] + ny * tri[to + 3 * k + 1] + nz * tri[to + 3 * k + 2];
      tMin = Math.min(tMin, v);
      tMax = Math.max(tMax, v);
    }
    const s0 = nx * px + ny * py + nz * pz, s1 = s0 + nx * dx + ny * dy + nz * dz;
    const plus = Math.max(s0, s1) + r - tMin, minus = tMax - Math.min(s0, s1) + r;
    const depth = plus <= minus ? plus : minus;
    if (depth < edge) {
      const sign = plus <= minus ? 1 : -1;
      edge = depth;
      edgeIndex = e;
      wx = sign * nx; wy = sign * ny; wz = sign * nz;
    }
  }
  if (face === Infinity && edge === Infinity) {
    // Segment collinear with a zero-area triangle: no axis; any perpendicular is as good.
    return roundContact(out, oo, px, py, pz, r, 0, 0, 0, 0, COINCIDENT_NORMAL_X, 0, 0, FEATURE_CAPSULE_SIDE, FEATURE_TRIANGLE_EDGE);
  }
  // The side of an edge is the side of the plane the segment is pushed out to (the sign of the plane axis).
  if (clearlySmaller(edge, face, size) && (!flat || featureActive(active, FEATURE_TRIANGLE_EDGE + edgeIndex, fx * triangleNormal[0] + fy * triangleNormal[1] + fz * triangleNormal[2]))) {
    setEdge(tri, to, edgeIndex);
    closestSegments(closest, 0, c, co, edgeSeg, 0);
    writePoint(
      out, oo, 0,
      0.5 * (closest[0] + r * wx + closest[3]), 0.5 * (closest[1] + r * wy + closest[4]), 0.5 * (closest[2] + r * wz + closest[5]),
      edge,
    );
    return writeHeader(out, oo, wx, wy, wz, edge, 1, capsuleFeature(closest[6]), FEATURE_TRIANGLE_EDGE + edgeIndex);
  }
  // The segment crosses the triangle, so part of it lies inside the prism...
  const count = capsuleTriangleFace(out, oo, c, co, tri, to, r, fx, fy, fz, face, true);
  if (count > 0) return count;
  // ...unless rounding put that part just outside a side plane (a segment through an edge or a
  // vertex), or one end of a parallel segment out of contact: one point where it meets the triangle.
  const qx = px + meet * dx, qy = py + meet * dy, qz = pz + meet * dz;
  const pd = Math.max(r + (qx - tri[to]) * fx + (qy - tri[to + 1]) * fy + (qz - tri[to + 2]) * fz, 0);
  const m = r - 0.5 * pd;
  writePoint(out, oo, 0, qx + m * fx, qy + m * fy, qz + m * fz, pd);
  return writeHeader(out, oo, fx, fy, fz, Math.max(face, 0), 1, capsuleFeature(meet), FEATURE_TRIANGLE_FACE);
}
