import { CLOSEST_SEGMENTS_STRIDE, closestSegments } from '../query/closestPoints';
import { CONTACT_SLACK, EDGE_AXIS_MIN_SINE, SAT_FALSE_OVERLAP_BAND, BOX_TRIANGLE_ROUNDING } from '../tolerances';
import {
  FEATURE_BOX_FACE,
  boxEdgeFeature,
  clearlySmaller,
  separated,
  writeBoxLocalHeader,
  writeBoxLocalPoint,
} from './manifold';
import { clipPolygon, clipPolygonPlane, clipToFaceRectangle, writeKeptPoints } from './clipping';
import { OBB_AXES, OBB_HALF, type Floats, type ReadonlyFloats } from '../layout';
import { EDGE_FLAGS_ALL_ACTIVE } from './meshEdges';
import {
  FEATURE_TRIANGLE_EDGE,
  edgeSeg,
  FEATURE_TRIANGLE_FACE,
  triangleNormal,
  featureActive,
  FEATURE_TRIANGLE_VERTEX,
  trianglePlane,
} from './triangles';

/**
 * Contacts of an OBB (A) against one triangle (B): the separating axis of least penetration over
 * the box faces, the triangle plane and the nine edge-edge axes, then the clipped face or the
 * closest points of two edges, with the mesh's active-edge filter. Conventions, bands and the
 * filter's rules in triangles.ts.
 */

const closest = new Float64Array(CLOSEST_SEGMENTS_STRIDE + 1);
const best = new Float64Array(6);
// Triangle in the box frame (relative to the box centre), and the polygons being clipped.
const local = new Float64Array(9);
const polyA = new Float64Array(24);
const polyB = new Float64Array(24);
const pointDepth = new Float64Array(8);
const chosen = new Int32Array(4);
const planeLimit = new Float64Array(1); // the clip plane's offset, passed in an array (a number passed to a call is boxed)

/** Writes the kept points (polyA, pointDepth; box frame), reduced to 4 across coordinates j, l; returns the count. */
function writeKept(out: Floats, oo: number, b: ReadonlyFloats, bo: number, kept: number, j: number, l: number): number {
  return writeKeptPoints(out, oo, b, bo, polyA, pointDepth, kept, j, l, chosen);
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
    n = clipPolygon(polyA, polyB, n, k, 1, b, bo + OBB_HALF + k);
    n = clipPolygon(polyB, polyA, n, k, -1, b, bo + OBB_HALF + k);
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
    planeLimit[0] = ox * local[p] + oy * local[p + 1] + oz * local[p + 2];
    n = clipPolygonPlane(e === 1 ? polyB : polyA, e === 1 ? polyA : polyB, n, ox, oy, oz, planeLimit, 0);
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
  const hk = b[bo + OBB_HALF + k];
  const n = clipToFaceRectangle(local, 3, polyB, polyA, j, l, b, bo);
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
  closestSegments(closest, 0, best, 0, edgeSeg, 0);
  writeBoxLocalPoint(
    out, oo, 0, b, bo,
    0.5 * (closest[0] + closest[3]), 0.5 * (closest[1] + closest[4]), 0.5 * (closest[2] + closest[5]), depth,
  );
  return writeBoxLocalHeader(
    out, oo, b, bo, wx, wy, wz, depth, 1,
    boxEdgeFeature(k, wn >= 0 ? 1 : 0, wf >= 0 ? 1 : 0), FEATURE_TRIANGLE_EDGE + e,
  );
}
