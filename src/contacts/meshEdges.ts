import type { BoundingTree } from '../tree/build';
import { grown } from '../broadphase/growable';
import { ZERO_AREA_TRIANGLE_RATIO, DEFAULT_FLAT_EDGE_ANGLE } from '../tolerances';
import { CollideInputError, assertFiniteValues, assertNumberList, assertRecord, valueName } from '../errors';
import { assertMadeBy } from '../query/rayQuery';
import type { ReadonlyFloats } from '../layout';

/**
 * Active edges of a triangle mesh: which edges and vertices of each triangle may give a contact
 * its own normal. A body sliding on a flat floor made of many triangles meets their shared edges
 * and vertices; a per-triangle contact there takes the direction from the edge to the body (a
 * "ghost" bump) although the surface has no edge. An edge shared with a neighbour bent by at most
 * a small angle (flat), or bent away from the side the body is on (concave: the neighbour's face
 * covers it), can never be where the surface really ends, so its triangle's contact takes the face
 * normal instead (src/contacts/triangles.ts says how).
 *
 * Triangles are two-sided, and concave seen from the front is convex seen from the back, so each
 * triangle has two 6-bit masks: bit f (the triangle feature ids 0..5 of triangles.ts:
 * vertices a, b, c, then edges ab, bc, ca) for the front ((b − a) × (c − a) side), bit 6 + f for
 * the back. Rules, per triangle and side:
 * - an edge without a neighbour (boundary) or with two or more (non-manifold) is active;
 * - an edge whose neighbour is bent by at most `flatEdgeAngle` is inactive;
 * - otherwise it is active on the side it is convex from, and also on the other side when the bend
 *   exceeds 90°: contacts tell their side by where the shape is against the face's plane, and past
 *   90° a shape just beyond a convex edge can be behind that plane;
 * - a vertex is active on a side when an edge at it, of any triangle, is (where two neighbours
 *   at it are wound differently, sides cannot be matched and an active edge counts for both).
 * Neighbours are found by vertex position, not index, so meshes with split vertices (flat shading,
 * UV seams) are joined; winding may differ between neighbours. Zero-area triangles
 * (ZERO_AREA_TRIANGLE_RATIO) neighbour nothing and are all active (they have no face normal).
 *
 * A tree's flags are computed once, on its first contact manifold or by setMeshEdges, and shared
 * by every entity using the tree. Not at build time: the hashing costs about 15% of an OBB-tree
 * build (1.4 ms against 9.4 ms for 10,000 triangles), which trees used only for queries need not pay.
 */

/** Bit of feature f (0..5) on the front side; the back side's is f + EDGE_FLAGS_BACK. */
export const EDGE_FLAGS_BACK = 6;
/** Every edge and vertex active on both sides: the unfiltered per-triangle contact. */
export const EDGE_FLAGS_ALL_ACTIVE = 0xfff;

// Scratch grown on demand: welded vertex of each corner, position hash, edge hash, partner
// half-edge (-1 boundary, -2 non-manifold), unit normals (0 for zero-area triangles), active
// sides per welded vertex.
let vertexOf = new Int32Array(0);
let vertexSlots = new Int32Array(0);
let edgeSlots = new Int32Array(0);
let partner = new Int32Array(0);
let normals = new Float64Array(0);
let vertexSides = new Uint8Array(0);
const MIXED = 4;
// A corner's coordinates as 32-bit words, for hashing positions (one buffer, two views).
const positionBuffer = new ArrayBuffer(24);
const position = new Float64Array(positionBuffer);
const words = new Uint32Array(positionBuffer);

function tableSize(entries: number): number {
  let size = 16;
  while (size < 2 * entries) size *= 2;
  return size;
}

/** Mixes a 32-bit word into a hash (multiply-rotate, as in murmur-style hashes). */
function mix(h: number, word: number): number {
  h = Math.imul(h ^ word, 0x9e3779b1);
  return (h << 13) | (h >>> 19);
}

/**
 * Edge flags (two 6-bit masks, see above) of `count` triangles stored 9 numbers each in
 * `triangles`, into out[0..count); returns out. Edges bent by at most `flatEdgeAngle` radians are
 * flat. Linear time: two hash passes (corners by position, edges by welded vertex pair). Throws
 * CollideInputError unless `out` is a Uint16Array of at least `count` masks and `triangles` holds
 * 9·count numbers within ±MAX_COORDINATE, or for an angle outside [0, π).
 */
export function computeEdgeFlags(out: Uint16Array, triangles: ReadonlyFloats, count: number, flatEdgeAngle: number = DEFAULT_FLAT_EDGE_ANGLE): Uint16Array {
  if (!(out instanceof Uint16Array)) throw new CollideInputError(`computeEdgeFlags: out must be a Uint16Array, got ${valueName(out)}`);
  if (!(Number.isInteger(count) && count >= 0 && count <= out.length)) throw new CollideInputError(`computeEdgeFlags: count must be an integer in [0, out.length = ${out.length}], got ${valueName(count)}`);
  assertNumberList(triangles, 'computeEdgeFlags: triangles');
  if (triangles.length < 9 * count) throw new CollideInputError(`computeEdgeFlags: ${count} triangles need ${9 * count} numbers, triangles has ${triangles.length}`);
  assertFiniteValues(triangles, 0, 9 * count, 'computeEdgeFlags: triangles');
  if (!(flatEdgeAngle >= 0 && flatEdgeAngle < Math.PI)) throw new CollideInputError(`computeEdgeFlags: flatEdgeAngle must be in [0, π), got ${valueName(flatEdgeAngle)}`);
  const corners = 3 * count;
  vertexOf = grown(vertexOf, corners);
  partner = grown(partner, corners);
  normals = grown(normals, corners);
  // Weld corners by exact position: a corner's vertex is the first corner at the same place.
  let size = tableSize(corners);
  vertexSlots = grown(vertexSlots, size);
  vertexSlots.fill(-1, 0, size);
  for (let c = 0; c < corners; c++) {
    const x = triangles[3 * c], y = triangles[3 * c + 1], z = triangles[3 * c + 2];
    // + 0 turns −0 into +0, so equal positions hash alike.
    position[0] = x + 0; position[1] = y + 0; position[2] = z + 0;
    let h = 0;
    for (let k = 0; k < 6; k++) h = mix(h, words[k]);
    let slot = h & (size - 1);
    for (;;) {
      const v = vertexSlots[slot];
      if (v < 0) {
        vertexSlots[slot] = c;
        vertexOf[c] = c;
        break;
      }
      if (triangles[3 * v] === x && triangles[3 * v + 1] === y && triangles[3 * v + 2] === z) {
        vertexOf[c] = v;
        break;
      }
      slot = (slot + 1) & (size - 1);
    }
  }
  // Pair half-edges by their welded end points, skipping zero-area triangles.
  edgeSlots = grown(edgeSlots, size);
  edgeSlots.fill(-1, 0, size);
  for (let t = 0; t < count; t++) {
    const o = 9 * t;
    const abx = triangles[o + 3] - triangles[o], aby = triangles[o + 4] - triangles[o + 1], abz = triangles[o + 5] - triangles[o + 2];
    const acx = triangles[o + 6] - triangles[o], acy = triangles[o + 7] - triangles[o + 1], acz = triangles[o + 8] - triangles[o + 2];
    const bcx = acx - abx, bcy = acy - aby, bcz = acz - abz;
    const nx = aby * acz - abz * acy, ny = abz * acx - abx * acz, nz = abx * acy - aby * acx;
    const n2 = nx * nx + ny * ny + nz * nz;
    const longest2 = Math.max(abx * abx + aby * aby + abz * abz, acx * acx + acy * acy + acz * acz, bcx * bcx + bcy * bcy + bcz * bcz);
    if (n2 === 0 || n2 <= ZERO_AREA_TRIANGLE_RATIO * ZERO_AREA_TRIANGLE_RATIO * longest2 * longest2) {
      normals[3 * t] = normals[3 * t + 1] = normals[3 * t + 2] = 0;
      continue;
    }
    const inv = 1 / Math.sqrt(n2);
    normals[3 * t] = nx * inv; normals[3 * t + 1] = ny * inv; normals[3 * t + 2] = nz * inv;
    for (let e = 0; e < 3; e++) {
      const he = 3 * t + e;
      partner[he] = -1;
      const p = vertexOf[he], q = vertexOf[3 * t + (e + 1) % 3];
      const lo = p < q ? p : q, hi = p < q ? q : p;
      let slot = mix(mix(0, lo), hi) & (size - 1);
      for (;;) {
        const other = edgeSlots[slot];
        if (other < 0) {
          edgeSlots[slot] = he;
          break;
        }
        const op = vertexOf[other], oq = vertexOf[3 * ((other / 3) | 0) + (other + 1) % 3];
        if ((op === lo && oq === hi) || (op === hi && oq === lo)) {
          // Second half-edge: neighbours; any later one makes the edge non-manifold for all.
          const first = partner[other];
          if (first === -1) {
            partner[other] = he;
            partner[he] = other;
          } else {
            if (first >= 0) partner[first] = -2;
            partner[other] = -2;
            partner[he] = -2;
          }
          break;
        }
        slot = (slot + 1) & (size - 1);
      }
    }
  }
  // Edge bits per triangle, then each vertex's sides (1 front, 2 back, MIXED: neighbours at it
  // wound differently): the union over the edges at it, both sides if mixed.
  vertexSides = grown(vertexSides, corners);
  vertexSides.fill(0, 0, corners);
  const flatCos = Math.cos(flatEdgeAngle);
  for (let t = 0; t < count; t++) {
    const nx = normals[3 * t], ny = normals[3 * t + 1], nz = normals[3 * t + 2];
    if (nx === 0 && ny === 0 && nz === 0) continue;
    let front = 0, back = 0;
    for (let e = 0; e < 3; e++) {
      const other = partner[3 * t + e];
      let sides = 3;
      if (other >= 0) {
        const u = (other / 3) | 0, f = other - 3 * u;
        // Neighbours wound alike run their shared edge in opposite directions.
        const alike = vertexOf[3 * u + f] === vertexOf[3 * t + (e + 1) % 3];
        const dot = nx * normals[3 * u] + ny * normals[3 * u + 1] + nz * normals[3 * u + 2];
        const bendCos = alike ? dot : -dot;
        // Convex from the front when the neighbour's far vertex lies behind this plane.
        const r = 3 * (3 * u + (f + 2) % 3), a = 9 * t + 3 * e;
        const behind = nx * (triangles[r] - triangles[a]) + ny * (triangles[r + 1] - triangles[a + 1]) + nz * (triangles[r + 2] - triangles[a + 2]) < 0;
        sides = (bendCos >= flatCos ? 0 : bendCos < 0 ? 3 : behind ? 1 : 2) | (alike ? 0 : MIXED);
      }
      if (sides & 1) front |= 1 << (3 + e);
      if (sides & 2) back |= 1 << (3 + e);
      vertexSides[vertexOf[3 * t + e]] |= sides;
      vertexSides[vertexOf[3 * t + (e + 1) % 3]] |= sides;
    }
    out[t] = front | (back << EDGE_FLAGS_BACK);
  }
  for (let t = 0; t < count; t++) {
    if (normals[3 * t] === 0 && normals[3 * t + 1] === 0 && normals[3 * t + 2] === 0) {
      out[t] = EDGE_FLAGS_ALL_ACTIVE;
      continue;
    }
    let mask = out[t];
    for (let v = 0; v < 3; v++) {
      const s = vertexSides[vertexOf[3 * t + v]];
      const sides = s & MIXED && s & 3 ? 3 : s;
      if (sides & 1) mask |= 1 << v;
      if (sides & 2) mask |= 1 << (v + EDGE_FLAGS_BACK);
    }
    out[t] = mask;
  }
  return out;
}

/** Options of setMeshEdges. */
export interface MeshEdgeOptions {
  /** Bend in radians, in [0, π), up to which an internal edge is flat (default DEFAULT_FLAT_EDGE_ANGLE). */
  flatEdgeAngle?: number;
  /** false: every edge and vertex active, the unfiltered per-triangle contacts (default true). */
  filter?: boolean;
}

/** Edge flags per tree, in tree order (BoundingTree.triangles). */
const treeFlags = new WeakMap<BoundingTree, Uint16Array>();

/**
 * (Re)computes the edge flags of `tree` with `options` and keeps them for every mesh collider
 * using it; returns them (one mask per tree-order triangle). Call after building a large mesh to
 * pay the cost up front, or to change the flat angle. Throws CollideInputError on a bad angle.
 */
export function setMeshEdges(tree: BoundingTree, options: MeshEdgeOptions = {}): Uint16Array {
  assertMadeBy(tree, 'triangles', 'setMeshEdges', 'tree', 'buildBoundingTree');
  assertRecord(options, 'setMeshEdges', 'options');
  const angle = options.flatEdgeAngle ?? DEFAULT_FLAT_EDGE_ANGLE;
  if (!(angle >= 0 && angle < Math.PI)) throw new CollideInputError(`setMeshEdges: flatEdgeAngle must be in [0, π), got ${angle}`);
  const flags = treeFlags.get(tree) ?? new Uint16Array(tree.triangleCount);
  if (options.filter === false) flags.fill(EDGE_FLAGS_ALL_ACTIVE);
  else computeEdgeFlags(flags, tree.triangles, tree.triangleCount, angle);
  treeFlags.set(tree, flags);
  return flags;
}

/** The edge flags of `tree` (tree order), computed with the defaults on first use. */
export function meshEdgeFlags(tree: BoundingTree): Uint16Array {
  return treeFlags.get(tree) ?? setMeshEdges(tree);
}
