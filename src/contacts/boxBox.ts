import { closestSegments, CLOSEST_SEGMENTS_STRIDE } from '../query/closestPoints';
import { OBB_AXES, OBB_HALF, type Floats, type ReadonlyFloats } from '../layout';
import { SAT_FALSE_OVERLAP_BAND, EDGE_AXIS_MIN_SINE, CONTACT_SLACK } from '../tolerances';
import {
  writeHeader,
  writePoint,
  FEATURE_BOX_EDGE,
  clearlySmaller,
  separated,
  FEATURE_BOX_FACE,
  CONTACT_POINT_STRIDE,
  CONTACT_POINTS,
} from './manifold';
import { clipToFaceRectangle, writeKeptPoints } from './clipping';

/**
 * Contacts between boxes: min-max AABB pairs, and OBB pairs by the separating axis of least
 * penetration with a clipped incident face (face axes) or the closest points of two edges (edge
 * axes). Conventions in manifold.ts.
 */

// Scratch. rot[3i + j] = A_i · B_j for the current OBB pair.
const rot = new Float64Array(9);
// (cB − cA)·Ai for the current OBB pair.
const centreAlongA = new Float64Array(3);
// Incident polygon while clipping (ping-pong, up to 8 points in the reference box frame).
const incident = new Float64Array(12);
const polyA = new Float64Array(24);
const polyB = new Float64Array(24);
const pointDepth = new Float64Array(8);
const chosen = new Int32Array(4);
const segments = new Float64Array(12);
const closest = new Float64Array(CLOSEST_SEGMENTS_STRIDE + 1);
// What contactObbObb hands to the face and edge contacts: the offset between the centres at 0-2,
// the normal at 3-5, the depth at 6 and the pair's size at 7. Through an array: doubles passed to a
// call V8 does not inline are boxed, over 100 bytes of garbage per contact.
const pair = new Float64Array(8);

/**
 * Min-max AABB A against AABB B. The normal is the world axis of least penetration (ties go to
 * the lower axis; on an axis, B is pushed toward the cheaper side, + on ties); the points are the
 * corners of the overlap rectangle across that axis (1, 2 or 4 distinct corners), on B's face (A's
 * face is the reference face, as in contactObbObb).
 */
export function contactAabbAabb(out: Floats, oo: number, a: ReadonlyFloats, ao: number, b: ReadonlyFloats, bo: number): number {
  let depth = Infinity, axis = 0, sign = 1;
  for (let k = 0; k < 3; k++) {
    const up = a[ao + 3 + k] - b[bo + k]; // push B toward +k
    const down = b[bo + 3 + k] - a[ao + k]; // push B toward −k
    if (up < 0 || down < 0) return separated(out, oo);
    const d = up <= down ? up : down;
    if (d < depth) {
      depth = d;
      axis = k;
      sign = up <= down ? 1 : -1;
    }
  }
  const j = (axis + 1) % 3, l = (axis + 2) % 3;
  const jLo = Math.max(a[ao + j], b[bo + j]), jHi = Math.min(a[ao + 3 + j], b[bo + 3 + j]);
  const lLo = Math.max(a[ao + l], b[bo + l]), lHi = Math.min(a[ao + 3 + l], b[bo + 3 + l]);
  // On B's face across the axis: A's face is the reference, as in contactObbObb.
  const across = sign > 0 ? b[bo + axis] : b[bo + 3 + axis];
  const jCount = jHi > jLo ? 2 : 1, lCount = lHi > lLo ? 2 : 1;
  let count = 0;
  for (let q = 0; q < 4; q++) {
    // Corners in ring order (lo,lo) (hi,lo) (hi,hi) (lo,hi), skipping duplicates of flat rectangles.
    const jHigh = q === 1 || q === 2, lHigh = q >= 2;
    if ((jHigh && jCount === 1) || (lHigh && lCount === 1)) continue;
    const p = oo + CONTACT_POINTS + CONTACT_POINT_STRIDE * count;
    out[p + axis] = across;
    out[p + j] = jHigh ? jHi : jLo;
    out[p + l] = lHigh ? lHi : lLo;
    out[p + 3] = depth;
    count++;
  }
  const faceA = FEATURE_BOX_FACE + 2 * axis + (sign > 0 ? 1 : 0);
  const faceB = FEATURE_BOX_FACE + 2 * axis + (sign > 0 ? 0 : 1);
  return writeHeader(out, oo, axis === 0 ? sign : 0, axis === 1 ? sign : 0, axis === 2 ? sign : 0, depth, count, faceA, faceB);
}

/** A_i · B_j for the current pair, seen from the reference box: refAxis · incAxis. */
function refDotInc(refIsA: boolean, refAxis: number, incAxis: number): number {
  return refIsA ? rot[3 * refAxis + incAxis] : rot[3 * incAxis + refAxis];
}

/**
 * Face contact of two boxes: the incident face of box `inc` (the one most anti-parallel to the
 * reference face normal nf = refSign·ref_k) is clipped against the side planes of the reference
 * face, in the reference box frame, and the points at or below the reference face are kept.
 * `pair` holds the offset inc centre − ref centre, the normal, the depth and the size.
 */
function boxFaceContact(
  out: Floats, oo: number,
  ref: ReadonlyFloats, ro: number, inc: ReadonlyFloats, io: number, refIsA: boolean,
  k: number, refSign: number,
): number {
  const dx = pair[0], dy = pair[1], dz = pair[2];
  let m = 0, mostAligned = -1;
  for (let c = 0; c < 3; c++) {
    const v = Math.abs(refDotInc(refIsA, k, c));
    if (v > mostAligned) {
      mostAligned = v;
      m = c;
    }
  }
  const incSign = refSign * refDotInc(refIsA, k, m) > 0 ? -1 : 1;
  const ia = (m + 1) % 3, ib = (m + 2) % 3;
  const hm = inc[io + OBB_HALF + m], ha = inc[io + OBB_HALF + ia], hb = inc[io + OBB_HALF + ib];
  // Incident face centre and half edges, in the reference frame.
  const rAx = ro + OBB_AXES;
  const iAx = io + OBB_AXES + 3 * m;
  const fx = dx + incSign * hm * inc[iAx], fy = dy + incSign * hm * inc[iAx + 1], fz = dz + incSign * hm * inc[iAx + 2];
  for (let c = 0; c < 3; c++) {
    const r = rAx + 3 * c;
    const centre = fx * ref[r] + fy * ref[r + 1] + fz * ref[r + 2];
    const ea = ha * refDotInc(refIsA, c, ia), eb = hb * refDotInc(refIsA, c, ib);
    incident[c] = centre + ea + eb;
    incident[3 + c] = centre - ea + eb;
    incident[6 + c] = centre - ea - eb;
    incident[9 + c] = centre + ea - eb;
  }
  const j = (k + 1) % 3, l = (k + 2) % 3;
  const hj = ref[ro + OBB_HALF + j], hl = ref[ro + OBB_HALF + l], hk = ref[ro + OBB_HALF + k];
  const n = clipToFaceRectangle(incident, 4, polyB, polyA, j, l, ref, ro);
  // Keep the points at or below the reference face, compacted in place.
  const slack = CONTACT_SLACK * pair[7];
  let kept = 0;
  for (let i = 0; i < n; i++) {
    const d = hk - refSign * polyA[3 * i + k];
    if (d < -slack) continue;
    polyA[3 * kept] = polyA[3 * i];
    polyA[3 * kept + 1] = polyA[3 * i + 1];
    polyA[3 * kept + 2] = polyA[3 * i + 2];
    pointDepth[kept] = d > 0 ? d : 0;
    kept++;
  }
  if (kept === 0) {
    // The deepest incident corner lies outside the reference face's side planes (a glancing,
    // edge-like configuration). Its projection into the face rectangle stands in for it.
    let deepest = 0;
    for (let i = 1; i < 4; i++) if (refSign * incident[3 * i + k] < refSign * incident[3 * deepest + k]) deepest = i;
    const d = hk - refSign * incident[3 * deepest + k];
    polyA[j] = Math.max(-hj, Math.min(hj, incident[3 * deepest + j]));
    polyA[l] = Math.max(-hl, Math.min(hl, incident[3 * deepest + l]));
    polyA[k] = incident[3 * deepest + k];
    pointDepth[0] = d > 0 ? d : 0;
    kept = 1;
  }
  const count = writeKeptPoints(out, oo, ref, ro, polyA, pointDepth, kept, j, l, chosen);
  const refFace = FEATURE_BOX_FACE + 2 * k + (refSign > 0 ? 1 : 0);
  const incFace = FEATURE_BOX_FACE + 2 * m + (incSign > 0 ? 1 : 0);
  return writeHeader(out, oo, pair[3], pair[4], pair[5], pair[6], count, refIsA ? refFace : incFace, refIsA ? incFace : refFace);
}

/**
 * OBB A against OBB B (layout.ts, stride 15). The normal is the axis of least penetration over
 * the 15 SAT axes (3 + 3 face normals, 9 normalised edge crosses built as in src/query/sat.ts,
 * near-parallel crosses skipped: EDGE_AXIS_MIN_SINE), with hysteresis favouring A's faces, then B's, then edges
 * (AXIS_PREFERENCE_*). Face axis: the box owning it gives the reference face, the other box's
 * most anti-parallel face is clipped against the reference face's side planes; up to 4 points
 * (the deepest, the farthest from it, then the largest spread), features = reference and
 * incident faces. Edge axis: one point, midway between the closest points of the two edges,
 * features = the two edges. Depth = penetration along the chosen axis, 0 for boxes within the
 * SAT's false-overlap band (SAT_FALSE_OVERLAP_BAND): whenever `obbOverlap` reports the pair
 * touching, this reports at least one point.
 */
export function contactObbObb(out: Floats, oo: number, a: ReadonlyFloats, ao: number, b: ReadonlyFloats, bo: number): number {
  const dx = b[bo] - a[ao], dy = b[bo + 1] - a[ao + 1], dz = b[bo + 2] - a[ao + 2];
  const aAx = ao + OBB_AXES, bAx = bo + OBB_AXES;
  const ha0 = a[ao + OBB_HALF], ha1 = a[ao + OBB_HALF + 1], ha2 = a[ao + OBB_HALF + 2];
  const hb0 = b[bo + OBB_HALF], hb1 = b[bo + OBB_HALF + 1], hb2 = b[bo + OBB_HALF + 2];
  const size = Math.max(ha0, ha1, ha2) + Math.max(hb0, hb1, hb2);
  for (let i = 0; i < 3; i++) {
    const u = aAx + 3 * i;
    for (let j = 0; j < 3; j++) {
      const v = bAx + 3 * j;
      rot[3 * i + j] = a[u] * b[v] + a[u + 1] * b[v + 1] + a[u + 2] * b[v + 2];
    }
  }
  // Every axis reports separation only past the SAT's false-overlap band, so whenever
  // obbOverlap (the narrow phase's touching test) says touching, a manifold comes out.
  const band = SAT_FALSE_OVERLAP_BAND * (ha0 + ha1 + ha2 + hb0 + hb1 + hb2);
  // Faces of A.
  let faceA = Infinity, axisA = 0, signA = 1;
  for (let i = 0; i < 3; i++) {
    const u = aAx + 3 * i;
    const dist = dx * a[u] + dy * a[u + 1] + dz * a[u + 2];
    centreAlongA[i] = dist;
    const r = a[ao + OBB_HALF + i] + hb0 * Math.abs(rot[3 * i]) + hb1 * Math.abs(rot[3 * i + 1]) + hb2 * Math.abs(rot[3 * i + 2]);
    const overlap = r - Math.abs(dist);
    if (overlap < -band) return separated(out, oo);
    if (overlap < faceA) {
      faceA = overlap;
      axisA = i;
      signA = dist >= 0 ? 1 : -1;
    }
  }
  // Faces of B.
  let faceB = Infinity, axisB = 0, signB = 1;
  for (let j = 0; j < 3; j++) {
    const v = bAx + 3 * j;
    const dist = dx * b[v] + dy * b[v + 1] + dz * b[v + 2];
    const r = b[bo + OBB_HALF + j] + ha0 * Math.abs(rot[j]) + ha1 * Math.abs(rot[3 + j]) + ha2 * Math.abs(rot[6 + j]);
    const overlap = r - Math.abs(dist);
    if (overlap < -band) return separated(out, oo);
    if (overlap < faceB) {
      faceB = overlap;
      axisB = j;
      signB = dist >= 0 ? 1 : -1;
    }
  }
  // Edge crosses, built as src/query/sat.ts builds them: Ai × Bj is L = R[k][j]·Al − R[l][j]·Ak with
  // (i, k, l) and (j, m, n) cyclic, B's radius along it from 2×2 minors of R, so that the
  // normal and depth stay exact for nearly parallel edges and agree with the SAT's answer.
  let edge = Infinity, edgeI = 0, edgeJ = 0, enx = 0, eny = 0, enz = 0;
  for (let i = 0; i < 3; i++) {
    const k = (i + 1) % 3, l = (i + 2) % 3;
    const uk = aAx + 3 * k, ul = aAx + 3 * l;
    for (let j = 0; j < 3; j++) {
      const m = (j + 1) % 3, n = (j + 2) % 3;
      const rkj = rot[3 * k + j], rlj = rot[3 * l + j];
      let nx = rkj * a[ul] - rlj * a[uk];
      let ny = rkj * a[ul + 1] - rlj * a[uk + 1];
      let nz = rkj * a[ul + 2] - rlj * a[uk + 2];
      const len2 = nx * nx + ny * ny + nz * nz;
      if (len2 < EDGE_AXIS_MIN_SINE * EDGE_AXIS_MIN_SINE) continue;
      const proj = centreAlongA[l] * rkj - centreAlongA[k] * rlj;
      const r = a[ao + OBB_HALF + k] * Math.abs(rlj) + a[ao + OBB_HALF + l] * Math.abs(rkj) +
        b[bo + OBB_HALF + m] * Math.abs(rkj * rot[3 * l + m] - rlj * rot[3 * k + m]) +
        b[bo + OBB_HALF + n] * Math.abs(rkj * rot[3 * l + n] - rlj * rot[3 * k + n]);
      const inv = 1 / Math.sqrt(len2);
      const overlap = (r - Math.abs(proj)) * inv;
      if (overlap < -band) return separated(out, oo);
      if (overlap < edge) {
        const s = proj >= 0 ? inv : -inv;
        edge = overlap;
        edgeI = i;
        edgeJ = j;
        enx = s * nx;
        eny = s * ny;
        enz = s * nz;
      }
    }
  }
  const useB = clearlySmaller(faceB, faceA, size);
  const face = useB ? faceB : faceA;
  // The reference face's box first: B's face sees A from the other side.
  const edgeAxis = clearlySmaller(edge, face, size), flip = useB && !edgeAxis ? -1 : 1;
  pair[0] = flip * dx; pair[1] = flip * dy; pair[2] = flip * dz;
  pair[7] = size;
  if (edgeAxis) {
    pair[3] = enx; pair[4] = eny; pair[5] = enz;
    pair[6] = Math.max(edge, 0); // within the band boxes touch at depth 0
    return boxEdgeContact(out, oo, a, ao, b, bo, edgeI, edgeJ);
  }
  const sign = useB ? signB : signA, ref = useB ? b : a, u = (useB ? bo : ao) + OBB_AXES + 3 * (useB ? axisB : axisA);
  pair[3] = sign * ref[u]; pair[4] = sign * ref[u + 1]; pair[5] = sign * ref[u + 2];
  pair[6] = Math.max(face, 0);
  return useB ? boxFaceContact(out, oo, b, bo, a, ao, false, axisB, -signB) : boxFaceContact(out, oo, a, ao, b, bo, true, axisA, signA);
}

/**
 * Writes into segments[so..so+5] the edge of a box along axis k that is its support in direction
 * side·n (n: the pair's normal; the + side of an axis on ties), relative to the box centre, shifted
 * by the pair's offset for side −1 (box B); returns its edge feature id.
 */
function supportEdge(box: ReadonlyFloats, bo: number, k: number, side: 1 | -1, so: number): number {
  const nx = pair[3], ny = pair[4], nz = pair[5];
  const shifted = side < 0;
  let cx = shifted ? pair[0] : 0, cy = shifted ? pair[1] : 0, cz = shifted ? pair[2] : 0;
  let feature = FEATURE_BOX_EDGE + 4 * k;
  for (let step = 1; step <= 2; step++) {
    const c = (k + step) % 3;
    const a = bo + OBB_AXES + 3 * c;
    // side·(n·u) has the bits of (side·n)·u: negation is exact.
    const plus = side * (nx * box[a] + ny * box[a + 1] + nz * box[a + 2]) >= 0;
    const h = plus ? box[bo + OBB_HALF + c] : -box[bo + OBB_HALF + c];
    if (plus) feature += step;
    cx += h * box[a];
    cy += h * box[a + 1];
    cz += h * box[a + 2];
  }
  const a = bo + OBB_AXES + 3 * k;
  const h = box[bo + OBB_HALF + k];
  segments[so] = cx - h * box[a];
  segments[so + 1] = cy - h * box[a + 1];
  segments[so + 2] = cz - h * box[a + 2];
  segments[so + 3] = cx + h * box[a];
  segments[so + 4] = cy + h * box[a + 1];
  segments[so + 5] = cz + h * box[a + 2];
  return feature;
}

/** Edge-edge contact of two boxes (`pair` as for boxFaceContact): one point, midway between the closest points of the edges. */
function boxEdgeContact(out: Floats, oo: number, a: ReadonlyFloats, ao: number, b: ReadonlyFloats, bo: number, i: number, j: number): number {
  // Both edges relative to A's centre, so large world coordinates cancel first.
  const featureA = supportEdge(a, ao, i, 1, 0);
  const featureB = supportEdge(b, bo, j, -1, 6);
  const depth = pair[6];
  closestSegments(closest, 0, segments, 0, segments, 6);
  writePoint(
    out, oo, 0,
    a[ao] + 0.5 * (closest[0] + closest[3]),
    a[ao + 1] + 0.5 * (closest[1] + closest[4]),
    a[ao + 2] + 0.5 * (closest[2] + closest[5]),
    depth,
  );
  return writeHeader(out, oo, pair[3], pair[4], pair[5], depth, 1, featureA, featureB);
}
