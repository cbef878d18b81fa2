import { ZERO_AREA_TRIANGLE_RATIO, OVER_FACE_SLACK } from '../tolerances';
import { type ReadonlyFloats } from '../layout';
import { EDGE_FLAGS_BACK } from './meshEdges';

/**
 * Shared by the triangle contacts (roundTriangle.ts, boxTriangle.ts): feature ids, the triangle's
 * plane, and the active-feature tests.
 *
 * Contact manifolds between a convex shape (sphere, capsule, OBB) as A and one triangle as B
 * (a, b, c: 9 numbers at tri[to..]), in the layout and conventions of manifold.ts: unit normal
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
 * Inside a mesh, the last argument `active` (meshEdges.ts: the edges and vertices where the
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
 * Unfiltered, each kernel reports a contact wherever the mesh tree's leaf test (src/tree/overlapVolume.ts),
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

export const edgeSeg = new Float64Array(6);

// Triangle plane: unit normal (0 for a zero-area triangle) and squared longest edge, written by
// `trianglePlane`. Typed arrays: a double in a module-level let is boxed on every write.
export const triangleNormal = new Float64Array(3);
export const longestEdge2 = new Float64Array(1);

/** Sets triangleNormal to the unit normal of (b − a) × (c − a) (0 for a zero-area triangle) and longestEdge2; returns whether it has a normal. */
export function trianglePlane(t: ReadonlyFloats, o: number): boolean {
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
export function weightsFeature(u: number, v: number, w: number): number {
  const zeros = (u === 0 ? 1 : 0) + (v === 0 ? 1 : 0) + (w === 0 ? 1 : 0);
  if (zeros === 0) return FEATURE_TRIANGLE_FACE;
  if (zeros === 2) return FEATURE_TRIANGLE_VERTEX + (u !== 0 ? 0 : v !== 0 ? 1 : 2);
  return FEATURE_TRIANGLE_EDGE + (w === 0 ? 0 : u === 0 ? 1 : 2);
}

/**
 * Is triangle feature f (vertex or edge, 0..5) active in mask `active` on the side given by wn,
 * a direction from the shape toward the plane dotted with the face normal? Front when wn <= 0.
 */
export function featureActive(active: number, f: number, wn: number): boolean {
  return ((active >> (wn <= 0 ? f : f + EDGE_FLAGS_BACK)) & 1) !== 0;
}

/**
 * Does the shape point (qx, qy, qz), whose closest triangle point lies (vx, vy, vz) from it, lie
 * over the triangle (OVER_FACE_SLACK), i.e. is v along the plane normal (vn = v · normal)?
 */
export function overFace(qx: number, qy: number, qz: number, r: number, vx: number, vy: number, vz: number, vn: number): boolean {
  const ox = vx - vn * triangleNormal[0], oy = vy - vn * triangleNormal[1], oz = vz - vn * triangleNormal[2];
  const size = OVER_FACE_SLACK * (Math.max(Math.abs(qx), Math.abs(qy), Math.abs(qz)) + r + Math.sqrt(longestEdge2[0]));
  return ox * ox + oy * oy + oz * oz <= size * size;
}

/** Copies edge e (vertex e to vertex e + 1) of tri[to..] into edgeSeg. */
export function setEdge(tri: ReadonlyFloats, to: number, e: number): void {
  const p = to + 3 * e, q = to + 3 * ((e + 1) % 3);
  for (let i = 0; i < 3; i++) {
    edgeSeg[i] = tri[p + i];
    edgeSeg[3 + i] = tri[q + i];
  }
}
