import {
  CLOSEST_ON_TRIANGLE_STRIDE, CLOSEST_SEGMENTS_STRIDE, closestPtPointTriangle, closestPtSegmentSegment,
} from '../query/closestPoints';
import {
  ZERO_AREA_TRIANGLE_RATIO, CONTACT_SLACK, EDGE_AXIS_MIN_SINE, PARALLEL_SEGMENT_SINE, SAT_FALSE_OVERLAP_BAND,
  BOX_TRIANGLE_ROUNDING, OVER_FACE_SLACK,
} from '../tolerances';
import {
  COINCIDENT_NORMAL_X, FEATURE_BOX_FACE, FEATURE_CAPSULE_SIDE, FEATURE_SPHERE, boxEdgeFeature,
  capsuleFeature, clearlySmaller, separated, writeBoxLocalHeader, writeBoxLocalPoint, writeHeader,
  writePoint,
} from './manifold';
import { clipPolygon, clipPolygonPlane, clipToFaceRectangle, reduceToFour } from './clipping';
import { roundContact } from './round';
import { OBB_AXES, OBB_HALF, type Floats, type ReadonlyFloats } from '../layout';
import { EDGE_FLAGS_ALL_ACTIVE, EDGE_FLAGS_BACK } from './meshEdges';
import { RAY_HIT_STRIDE, raycastTriangle } from '../query/raycast';

/**
 * Contact manifolds between a convex shape (sphere, capsule, OBB) as A and one triangle as B
 * (a, b, c: 9 numbers at tri[to..]), in the layout and conventions of contacts.ts: unit normal
 * from A to the triangle, depth >= 0 when touching, up to 4 points with their own depths. A mesh
 * is a set of such triangles; merging their manifolds is the caller's job (see
 * systems/meshCollider.ts). Triangles are two-sided: a shape is pushed out on whichever side is
 * cheaper, and a shape that has crossed a thin mesh may be pushed out through the back.
 *
 * A zero-area triangle (ZERO_AREA_TRIANGLE_RATIO) has no plane: it is handled as its longest
 * edge (the closest points already do so; the box test drops the plane axis), and a sphere or
 * capsule core lying on it gets the fallback normal +x (COINCIDENT_NORMAL_X). No NaN either way.
 * Nothing here allocates.
 *
 * Inside a mesh, the last argument `active` (src/meshEdges.ts: the edges and vertices where the
 * surface really bends, per side) removes "ghost" normals. When the contact would take its normal
 * from an edge or vertex inactive on the shape's side of the plane (a sphere's centre, a
 * capsule's closest segment point; when the segment crosses the triangle, or for a box, the side
 * the SAT's plane axis pushes it out to), the face normal on that side replaces it, with the
 * penetration along it as depth:
 * - sphere: the centre measured to the plane, kept only when the centre lies over the triangle
 *   (OVER_FACE_SLACK); else the triangle gives no contact (returns 0), the neighbour the centre
 *   lies over having it exactly;
 * - capsule, segment not crossing: the part of the segment over the face when it lies parallel,
 *   else its closest point measured to the plane, kept as for a sphere; crossing: the plane axis
 *   (the segment crosses the face, so it is always over it);
 * - box: the SAT's plane axis (it did not separate them; its points are clipped to the triangle),
 *   for an inactive edge axis, or a box-face axis whose triangle feature is inactive (the deepest
 *   vertex along it, the edge when two tie, the face, always active, when three do).
 * Zero-area triangles have no face normal and keep their contacts. The default
 * (EDGE_FLAGS_ALL_ACTIVE) is the plain per-triangle contact.
 *
 * Unfiltered, each kernel reports a contact wherever the mesh tree's leaf test (src/obbTree.ts),
 * given the same numbers, reports the triangle: the sphere and capsule decide with the very
 * squared distances of that test against r² (closestPtPointTriangle, closestPtSegmentSegment, the
 * same ray cast), so they agree exactly, with that test's bands (rounding; a sliver below
 * ZERO_AREA_TRIANGLE_RATIO is its longest edge, off by at most that fraction of it); the box
 * separates only past a band wider than the leaf test's (BOX_TRIANGLE_ROUNDING). Filtered, a
 * triangle may decline a contact its neighbour has (systems/meshCollider.ts falls back to the
 * unfiltered contacts when every triangle declines).
 */

/** Triangle feature ids: vertices 0..2 (a, b, c), edges 3..5 (ab, bc, ca), the face 6. */
export const FEATURE_TRIANGLE_VERTEX = 0;
/** First triangle edge id: ab, then bc, then ca. */
export const FEATURE_TRIANGLE_EDGE = 3;
/** The triangle's face. */
export const FEATURE_TRIANGLE_FACE = 6;

const onTriangle = new Float64Array(CLOSEST_ON_TRIANGLE_STRIDE);
const closest = new Float64Array(CLOSEST_SEGMENTS_STRIDE);
const best = new Float64Array(6);
const edgeSeg = new Float64Array(6);
const rayHit = new Float64Array(RAY_HIT_STRIDE);
// Triangle in the box frame (relative to the box centre), and the polygons being clipped.
const local = new Float64Array(9);
const polyA = new Float64Array(24);
const polyB = new Float64Array(24);
const pointDepth = new Float64Array(8);
const chosen = new Int32Array(4);
// Triangle plane: unit normal (0 for a zero-area triangle) and squared longest edge, written by
// `trianglePlane`. Typed arrays: a double in a module-level let is boxed on every write.
const triangleNormal = new Float64Array(3);
const longestEdge2 = new Float64Array(1);

/** Sets triangleNormal to the unit normal of (b − a) × (c − a) (0 for a zero-area triangle) and longestEdge2; returns whether it has a normal. */
function trianglePlane(t: ReadonlyFloats, o: number): boolean {
  const abx = t[o + 3] - t[o], aby = t[o + 4] - t[o + 1], abz = t[o + 5] - t[o + 2];
  const acx = t[o + 6] - t[o], acy = t[o + 7] - t[o + 1], acz = t[o + 8] - t[o + 2];
  const bcx = acx - abx, bcy = acy - aby, bcz = acz - abz;
  const nx = aby * acz - abz * acy, ny = abz * acx - abx * acz, nz = abx * acy - aby * acx;
  const n2 = nx * nx + ny * ny + nz * nz;
  const longest2 = Math.max(abx * abx + aby * aby + abz * abz, acx * acx + acy * acy + acz * acz, bcx * bcx + bcy * bcy + bcz * bcz);
  longestEdge2[0] = longest2;
  if (n2 === 0 || n2 <= ZERO_AREA_TRIANGLE_RATIO * ZERO_AREA_TRIANGLE_RATIO * longest2 * longest2) {
    triangleNormal[0] = triangleNormal[1] = triangleNormal[2] = 0;
    return false;
  }
  const inv = 1 / Math.sqrt(n2);
  triangleNormal[0] = nx * inv;
  triangleNormal[1] = ny * inv;
  triangleNormal[2] = nz * inv;
  return true;
}

/** Triangle feature of a point with barycentric weights (u, v, w) from closestPtPointTriangle. */
function weightsFeature(u: number, v: number, w: number): number {
  const zeros = (u === 0 ? 1 : 0) + (v === 0 ? 1 : 0) + (w === 0 ? 1 : 0);
  if (zeros === 0) return FEATURE_TRIANGLE_FACE;
  if (zeros === 2) return FEATURE_TRIANGLE_VERTEX + (u !== 0 ? 0 : v !== 0 ? 1 : 2);
  return FEATURE_TRIANGLE_EDGE + (w === 0 ? 0 : u === 0 ? 1 : 2);
}

/**
 * Is triangle feature f (vertex or edge, 0..5) active in mask `active` on the side given by wn,
 * a direction from the shape toward the plane dotted with the face normal? Front when wn <= 0.
 */
function featureActive(active: number, f: number, wn: number): boolean {
  return ((active >> (wn <= 0 ? f : f + EDGE_FLAGS_BACK)) & 1) !== 0;
}

/**
 * Does the shape point (qx, qy, qz), whose closest triangle point lies (vx, vy, vz) from it, lie
 * over the triangle (OVER_FACE_SLACK), i.e. is v along the plane normal (vn = v · normal)?
 */
function overFace(qx: number, qy: number, qz: number, r: number, vx: number, vy: number, vz: number, vn: number): boolean {
  const ox = vx - vn * triangleNormal[0], oy = vy - vn * triangleNormal[1], oz = vz - vn * triangleNormal[2];
  const size = OVER_FACE_SLACK * (Math.max(Math.abs(qx), Math.abs(qy), Math.abs(qz)) + r + Math.sqrt(longestEdge2[0]));
  return ox * ox + oy * oy + oz * oz <= size * size;
}

/** Copies edge e (vertex e to vertex e + 1) of tri[to..] into edgeSeg. */
function setEdge(tri: ReadonlyFloats, to: number, e: number): void {
  const p = to + 3 * e, q = to + 3 * ((e + 1) % 3);
  for (let i = 0; i < 3; i++) {
    edgeSeg[i] = tri[p + i];
    edgeSeg[3 + i] = tri[q + i];
  }
}

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
      const d2 = closestPtSegmentSegment(closest, 0, c, co, edgeSeg, 0);
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
    closestPtSegmentSegment(closest, 0, c, co, edgeSeg, 0);
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

/** Writes the kept points (polyA, pointDepth; box frame), reduced to 4 across coordinates j, l; returns the count. */
function writeKept(out: Floats, oo: number, b: ReadonlyFloats, bo: number, kept: number, j: number, l: number): number {
  const count = kept > 4 ? 4 : kept;
  if (kept > 4) reduceToFour(polyA, pointDepth, kept, j, l, chosen);
  for (let q = 0; q < count; q++) {
    const i = kept > 4 ? chosen[q] : q;
    writeBoxLocalPoint(out, oo, q, b, bo, polyA[3 * i], polyA[3 * i + 1], polyA[3 * i + 2], pointDepth[i]);
  }
  return count;
}

// Best axis of the OBB-triangle SAT so far (box frame, from the box to the triangle): depth, x, y, z.
const bestAxis = new Float64Array(4);

/**
 * Penetration of the box (half-extents h) and the local triangle along unit axis l: the cheaper
 * push of the triangle along ±l, into bestAxis; returns it, negative when l separates them.
 */
function boxTriangleAxis(lx: number, ly: number, lz: number, h0: number, h1: number, h2: number): number {
  const r = h0 * Math.abs(lx) + h1 * Math.abs(ly) + h2 * Math.abs(lz);
  let tMin = Infinity, tMax = -Infinity;
  for (let k = 0; k < 3; k++) {
    const v = lx * local[3 * k] + ly * local[3 * k + 1] + lz * local[3 * k + 2];
    tMin = Math.min(tMin, v);
    tMax = Math.max(tMax, v);
  }
  const plus = r - tMin, minus = tMax + r;
  const sign = plus <= minus ? 1 : -1;
  bestAxis[0] = plus <= minus ? plus : minus;
  bestAxis[1] = sign * lx; bestAxis[2] = sign * ly; bestAxis[3] = sign * lz;
  return bestAxis[0];
}

/**
 * OBB A (layout.ts) against triangle B, in the box frame. The normal is the axis of least
 * penetration over the 13 SAT axes (the plane normal, the 3 box axes, the 9 crosses of box axes
 * with edges, near-parallel crosses skipped: EDGE_AXIS_MIN_SINE), preferring the plane normal,
 * then box faces, then edges (AXIS_PREFERENCE_*). Plane axis: the box face most facing the
 * triangle is clipped against the triangle's side planes, points on the box face at or below the
 * plane (features: box face, triangle face). Box-face axis: the triangle is clipped against that
 * face's side planes, points on the triangle at or below the face (box face, triangle face). Edge
 * axis: one point midway between the closest points of the two edges. At most 4 points (the
 * deepest, then the widest spread); depth = penetration along the axis. An edge axis of an
 * inactive edge, or a box-face axis met by an inactive triangle feature (`active`), gives way to
 * the plane axis. An axis separates only past the band of BOX_TRIANGLE_ROUNDING (depth 0 within
 * it), so this reports a contact wherever the mesh tree's leaf test reports the triangle touching
 * the box, and none for a triangle farther than that band (about 3e-6 of h0 + h1 + h2), plus
 * √3 × (the box axes' error from orthonormal, at most SAT_AXIS_SLACK) × (h0 + h1 + h2): its radii
 * take the axes as orthonormal.
 */
export function contactObbTriangle(
  out: Floats, oo: number, b: ReadonlyFloats, bo: number, tri: ReadonlyFloats, to: number, active: number = EDGE_FLAGS_ALL_ACTIVE,
): number {
  const ax = bo + OBB_AXES;
  const h0 = b[bo + OBB_HALF], h1 = b[bo + OBB_HALF + 1], h2 = b[bo + OBB_HALF + 2];
  for (let v = 0; v < 3; v++) {
    const rx = tri[to + 3 * v] - b[bo], ry = tri[to + 3 * v + 1] - b[bo + 1], rz = tri[to + 3 * v + 2] - b[bo + 2];
    for (let k = 0; k < 3; k++) local[3 * v + k] = rx * b[ax + 3 * k] + ry * b[ax + 3 * k + 1] + rz * b[ax + 3 * k + 2];
  }
  let maxAbs = 0;
  for (let i = 0; i < 9; i++) maxAbs = Math.max(maxAbs, Math.abs(local[i]));
  // Depth below which an axis separates (see BOX_TRIANGLE_ROUNDING).
  const band = -(SAT_FALSE_OVERLAP_BAND * (h0 + h1 + h2) + BOX_TRIANGLE_ROUNDING * (maxAbs + h0 + h1 + h2));
  const flat = trianglePlane(local, 0);
  let longest = 0, longestEdge = 0;
  for (let e = 0; e < 3; e++) {
    const p = 3 * e, q = 3 * ((e + 1) % 3);
    const len = Math.hypot(local[q] - local[p], local[q + 1] - local[p + 1], local[q + 2] - local[p + 2]);
    if (len > longest) {
      longest = len;
      longestEdge = e;
    }
  }
  const size = Math.max(h0, h1, h2) + longest;
  // Plane axis (the incumbent; a zero-area triangle has none).
  let face = Infinity, fx = 0, fy = 0, fz = 0, boxAxis = -1;
  if (flat) {
    if (boxTriangleAxis(triangleNormal[0], triangleNormal[1], triangleNormal[2], h0, h1, h2) < band) return separated(out, oo);
    face = bestAxis[0]; fx = bestAxis[1]; fy = bestAxis[2]; fz = bestAxis[3];
  }
  // The plane axis, kept for inactive features, and its sign: the side the box is pushed out to.
  const planeDepth = face, px = fx, py = fy, pz = fz;
  const side = px * triangleNormal[0] + py * triangleNormal[1] + pz * triangleNormal[2];
  for (let k = 0; k < 3; k++) {
    if (boxTriangleAxis(k === 0 ? 1 : 0, k === 1 ? 1 : 0, k === 2 ? 1 : 0, h0, h1, h2) < band) return separated(out, oo);
    if (clearlySmaller(bestAxis[0], face, size)) {
      face = bestAxis[0]; fx = bestAxis[1]; fy = bestAxis[2]; fz = bestAxis[3];
      boxAxis = k;
    }
  }
  let edge = Infinity, edgeK = 0, edgeE = 0, wx = 0, wy = 0, wz = 0;
  // A zero-area triangle is its longest edge: the others are parts of it, whose closest points
  // to the box edge could lie away from the contact.
  for (let e = flat ? 0 : longestEdge; e < (flat ? 3 : longestEdge + 1); e++) {
    const p = 3 * e, q = 3 * ((e + 1) % 3);
    const ex = local[q] - local[p], ey = local[q + 1] - local[p + 1], ez = local[q + 2] - local[p + 2];
    const e2 = ex * ex + ey * ey + ez * ez;
    for (let k = 0; k < 3; k++) {
      // u_k × e.
      const lx = k === 0 ? 0 : k === 1 ? ez : -ey;
      const ly = k === 0 ? -ez : k === 1 ? 0 : ex;
      const lz = k === 0 ? ey : k === 1 ? -ex : 0;
      const l2 = lx * lx + ly * ly + lz * lz;
      if (l2 === 0 || l2 <= EDGE_AXIS_MIN_SINE * EDGE_AXIS_MIN_SINE * e2) continue;
      const inv = 1 / Math.sqrt(l2);
      if (boxTriangleAxis(lx * inv, ly * inv, lz * inv, h0, h1, h2) < band) return separated(out, oo);
      if (bestAxis[0] < edge) {
        edge = bestAxis[0]; edgeK = k; edgeE = e;
        wx = bestAxis[1]; wy = bestAxis[2]; wz = bestAxis[3];
      }
    }
  }
  const slack = CONTACT_SLACK * size;
  // A zero-area triangle has no plane axis, so it keeps the others whatever `active` says.
  if (clearlySmaller(edge, face, size) && (!flat || featureActive(active, FEATURE_TRIANGLE_EDGE + edgeE, side))) {
    return boxTriangleEdgeContact(out, oo, b, bo, edgeK, edgeE, wx, wy, wz, Math.max(edge, 0));
  }
  const faceSide = fx + fy + fz > 0 ? 1 : -1;
  if (boxAxis >= 0 && (!flat || boxFaceFeatureActive(active, boxAxis, faceSide, slack, side))) {
    return boxFaceTriangleContact(out, oo, b, bo, boxAxis, faceSide, Math.max(face, 0), slack);
  }
  return triangleFaceBoxContact(out, oo, b, bo, px, py, pz, Math.max(planeDepth, 0), slack);
}

/**
 * Is the triangle feature that meets box face (axis k, `side`) active (`active`, on the plane
 * side `wn`)? That feature is the deepest local vertex along side · u_k, the edge of two within
 * `slack` of it, or the face (always active) when all three are.
 */
function boxFaceFeatureActive(active: number, k: number, side: number, slack: number, wn: number): boolean {
  let low = Infinity;
  for (let v = 0; v < 3; v++) low = Math.min(low, side * local[3 * v + k]);
  let deep = 0, count = 0;
  for (let v = 0; v < 3; v++) {
    if (side * local[3 * v + k] > low + slack) continue;
    deep += v;
    count++;
  }
  // One vertex: deep is its index. Two, by index sum: 1 → edge ab, 3 → bc, 2 → ca.
  const feature = count === 1 ? FEATURE_TRIANGLE_VERTEX + deep : count === 2 ? FEATURE_TRIANGLE_EDGE + (deep === 2 ? 2 : deep >> 1) : FEATURE_TRIANGLE_FACE;
  return feature === FEATURE_TRIANGLE_FACE || featureActive(active, feature, wn);
}

/**
 * Glancing contacts, where the face clipping keeps no point (the shapes meet beside the reference
 * face): one point of the triangle inside the box, the deepest along −w (the triangle clipped to
 * the box's six planes), with the manifold depth; the closest triangle vertex clamped into the box
 * when rounding empties the clipped polygon. Writes polyA[0..2], pointDepth[0]; returns 1.
 */
function deepestSharedPoint(b: ReadonlyFloats, bo: number, wx: number, wy: number, wz: number, depth: number): number {
  let n = 3;
  for (let i = 0; i < 9; i++) polyA[i] = local[i];
  for (let k = 0; k < 3; k++) {
    const h = b[bo + OBB_HALF + k];
    n = clipPolygon(polyA, polyB, n, k, 1, h);
    n = clipPolygon(polyB, polyA, n, k, -1, h);
  }
  let deepest = 0;
  if (n === 0) {
    for (let i = 0; i < 9; i++) polyA[i] = local[i];
    n = 3;
  }
  for (let i = 1; i < n; i++) {
    if (wx * polyA[3 * i] + wy * polyA[3 * i + 1] + wz * polyA[3 * i + 2] < wx * polyA[3 * deepest] + wy * polyA[3 * deepest + 1] + wz * polyA[3 * deepest + 2]) deepest = i;
  }
  for (let k = 0; k < 3; k++) {
    const h = b[bo + OBB_HALF + k];
    polyA[k] = Math.max(-h, Math.min(h, polyA[3 * deepest + k]));
  }
  pointDepth[0] = depth;
  return 1;
}

/** Plane axis (fx, fy, fz) = ± triangle normal: the box face most facing the triangle, clipped to the triangle. */
function triangleFaceBoxContact(
  out: Floats, oo: number, b: ReadonlyFloats, bo: number,
  fx: number, fy: number, fz: number, depth: number, slack: number,
): number {
  const m = Math.abs(fx) >= Math.abs(fy) && Math.abs(fx) >= Math.abs(fz) ? 0 : Math.abs(fy) >= Math.abs(fz) ? 1 : 2;
  const sm = (m === 0 ? fx : m === 1 ? fy : fz) >= 0 ? 1 : -1;
  const j = (m + 1) % 3, l = (m + 2) % 3;
  const hj = b[bo + OBB_HALF + j], hl = b[bo + OBB_HALF + l];
  for (let q = 0; q < 4; q++) {
    // Face corners in ring order.
    polyA[3 * q + m] = sm * b[bo + OBB_HALF + m];
    polyA[3 * q + j] = q === 0 || q === 3 ? hj : -hj;
    polyA[3 * q + l] = q < 2 ? hl : -hl;
  }
  let n = 4;
  for (let e = 0; e < 3; e++) {
    const p = 3 * e, q = 3 * ((e + 1) % 3);
    const ex = local[q] - local[p], ey = local[q + 1] - local[p + 1], ez = local[q + 2] - local[p + 2];
    const ox = ey * triangleNormal[2] - ez * triangleNormal[1], oy = ez * triangleNormal[0] - ex * triangleNormal[2], oz = ex * triangleNormal[1] - ey * triangleNormal[0];
    n = clipPolygonPlane(e === 1 ? polyB : polyA, e === 1 ? polyA : polyB, n, ox, oy, oz, ox * local[p] + oy * local[p + 1] + oz * local[p + 2]);
  }
  // After three clips the polygon is in polyB. Keep the points at or beyond the plane.
  const plane = fx * local[0] + fy * local[1] + fz * local[2];
  let kept = 0;
  for (let i = 0; i < n; i++) {
    const d = fx * polyB[3 * i] + fy * polyB[3 * i + 1] + fz * polyB[3 * i + 2] - plane;
    if (d < -slack) continue;
    polyA[3 * kept] = polyB[3 * i]; polyA[3 * kept + 1] = polyB[3 * i + 1]; polyA[3 * kept + 2] = polyB[3 * i + 2];
    pointDepth[kept] = d > 0 ? d : 0;
    kept++;
  }
  if (kept === 0) kept = deepestSharedPoint(b, bo, fx, fy, fz, depth);
  const count = writeKept(out, oo, b, bo, kept, j, l);
  return writeBoxLocalHeader(out, oo, b, bo, fx, fy, fz, depth, count, FEATURE_BOX_FACE + 2 * m + (sm > 0 ? 1 : 0), FEATURE_TRIANGLE_FACE);
}

/** Box-face axis k, toward the triangle on the `side` (±1) of it: the triangle clipped to the face. */
function boxFaceTriangleContact(
  out: Floats, oo: number, b: ReadonlyFloats, bo: number, k: number, side: number, depth: number, slack: number,
): number {
  const j = (k + 1) % 3, l = (k + 2) % 3;
  const hj = b[bo + OBB_HALF + j], hl = b[bo + OBB_HALF + l], hk = b[bo + OBB_HALF + k];
  const n = clipToFaceRectangle(local, 3, polyB, polyA, j, hj, l, hl);
  let kept = 0;
  for (let i = 0; i < n; i++) {
    const d = hk - side * polyA[3 * i + k];
    if (d < -slack) continue;
    polyA[3 * kept] = polyA[3 * i]; polyA[3 * kept + 1] = polyA[3 * i + 1]; polyA[3 * kept + 2] = polyA[3 * i + 2];
    pointDepth[kept] = d > 0 ? d : 0;
    kept++;
  }
  if (kept === 0) kept = deepestSharedPoint(b, bo, k === 0 ? side : 0, k === 1 ? side : 0, k === 2 ? side : 0, depth);
  const count = writeKept(out, oo, b, bo, kept, j, l);
  return writeBoxLocalHeader(
    out, oo, b, bo, k === 0 ? side : 0, k === 1 ? side : 0, k === 2 ? side : 0,
    depth, count, FEATURE_BOX_FACE + 2 * k + (side > 0 ? 1 : 0), FEATURE_TRIANGLE_FACE,
  );
}

/** Edge axis (u_k × triangle edge e, as w from the box to the triangle): one point between the edges. */
function boxTriangleEdgeContact(
  out: Floats, oo: number, b: ReadonlyFloats, bo: number,
  k: number, e: number, wx: number, wy: number, wz: number, depth: number,
): number {
  // The box edge along u_k deepest toward the triangle (support in w), box frame.
  const n = (k + 1) % 3, f = (k + 2) % 3;
  const wn = n === 0 ? wx : n === 1 ? wy : wz, wf = f === 0 ? wx : f === 1 ? wy : wz;
  const hn = b[bo + OBB_HALF + n], hf = b[bo + OBB_HALF + f], hk = b[bo + OBB_HALF + k];
  best[n] = best[3 + n] = wn >= 0 ? hn : -hn;
  best[f] = best[3 + f] = wf >= 0 ? hf : -hf;
  best[k] = -hk;
  best[3 + k] = hk;
  const p = 3 * e, q = 3 * ((e + 1) % 3);
  for (let i = 0; i < 3; i++) {
    edgeSeg[i] = local[p + i];
    edgeSeg[3 + i] = local[q + i];
  }
  closestPtSegmentSegment(closest, 0, best, 0, edgeSeg, 0);
  writeBoxLocalPoint(
    out, oo, 0, b, bo,
    0.5 * (closest[0] + closest[3]), 0.5 * (closest[1] + closest[4]), 0.5 * (closest[2] + closest[5]), depth,
  );
  return writeBoxLocalHeader(
    out, oo, b, bo, wx, wy, wz, depth, 1,
    boxEdgeFeature(k, wn >= 0 ? 1 : 0, wf >= 0 ? 1 : 0), FEATURE_TRIANGLE_EDGE + e,
  );
}
