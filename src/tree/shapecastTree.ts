import type { BoundingTree } from './build';
import { grown } from '../broadphase/growable';
import { CAPSULE_STRIDE, OBB_AXES, OBB_HALF, OBB_STRIDE, type ReadonlyFloats } from '../layout';
import { castSphereTriangle } from '../query/shapeCast';
import { castCapsuleTriangle } from '../query/shapeCastCapsule';
import { castObbTriangle } from '../query/shapeCastBox';
import { SHAPE_CAST_HIT_STRIDE } from '../query/shapeCastHit';
import { SAT_AXIS_SLACK, TREE_SLACK_RELATIVE } from '../tolerances';
import { directionToMeshFrame, toMeshFrame } from './pose';
import { TreeQueryResult, assertTreeQuery } from './queryResult';
import { CollideInputError, assertNumberRun, valueName } from '../errors';
import { enterRay, rayEntry } from './raycastTree';

/**
 * Shape casts against a bounding tree: the first triangle a sphere, capsule or box meets when
 * translated by t·d, t in [0, maxT], nearer child first, pruned by the best hit so far.
 *
 * The mover is taken into the mesh frame once; the descent then follows the ray of its bounding
 * sphere's centre (as raycastTree does) against each node's volume widened by that sphere's
 * radius: the swept mover stays inside the swept sphere, and a node box widened by ρ contains the
 * node grown by a ball of radius ρ, so a node entered at t holds no contact before t. For a box
 * mover the radius is its half-diagonal plus SAT_AXIS_SLACK of its half-extents, since stored axes
 * may be orthonormal only to that. Leaves run the exact per-triangle casts; ties on t go to the
 * lowest mesh triangle index.
 */

/** What moves: a sphere [c, r], a capsule [p0, p1, r] or an OBB (layout.ts). */
export type ShapeCastMover = 'sphere' | 'capsule' | 'obb';

const STATE = 6; // the centre ray: origin (3), direction (3), in the node frame
let stack = new Float64Array(32 * (STATE + 1));
let nodeStack = new Int32Array(32);
const centreRay = new Float64Array(STATE);
const mover = new Float64Array(OBB_STRIDE); // the mover in the mesh frame
const leafHit = new Float64Array(SHAPE_CAST_HIT_STRIDE);

/**
 * First hit of `kind` (read at moverArray[mo], world frame) moved by (dx, dy, dz) over t in
 * [0, maxT] against the mesh of `tree` at pose[po]. On a hit returns true and writes
 * `result.shapeHit` (SHAPE_CAST_HIT_STRIDE layout: t, world normal on the triangle towards the
 * mover, world contact point) and `result.shapeTriangle` (mesh triangle index); Nv, Np in the
 * result. Triangles are two-sided; a mover touching the mesh at the start hits at t = 0.
 */
export function shapecastTree(
  result: TreeQueryResult, tree: BoundingTree, pose: ReadonlyFloats, po: number,
  kind: ShapeCastMover, moverArray: ReadonlyFloats, mo: number,
  dx: number, dy: number, dz: number, maxT: number,
): boolean {
  assertTreeQuery(result, tree, pose, po, 'shapecastTree');
  if (kind !== 'sphere' && kind !== 'capsule' && kind !== 'obb') throw new CollideInputError(`shapecastTree: kind must be 'sphere', 'capsule' or 'obb', got ${valueName(kind)}`);
  assertNumberRun(moverArray, mo, SHAPE_CAST_MOVER_STRIDE[kind], 'shapecastTree: moverArray');
  result.clear();
  result.shapeTriangle = -1;
  let radius: number;
  if (kind === 'obb') {
    toMeshFrame(mover, 0, pose, po, moverArray[mo], moverArray[mo + 1], moverArray[mo + 2]);
    for (let k = 0; k < 3; k++) {
      const a = mo + OBB_AXES + 3 * k;
      directionToMeshFrame(mover, OBB_AXES + 3 * k, pose, po, moverArray[a], moverArray[a + 1], moverArray[a + 2]);
      mover[OBB_HALF + k] = moverArray[mo + OBB_HALF + k];
    }
    const h0 = mover[OBB_HALF], h1 = mover[OBB_HALF + 1], h2 = mover[OBB_HALF + 2];
    radius = Math.sqrt(h0 * h0 + h1 * h1 + h2 * h2) + SAT_AXIS_SLACK * (h0 + h1 + h2);
    centreRay[0] = mover[0]; centreRay[1] = mover[1]; centreRay[2] = mover[2];
  } else if (kind === 'capsule') {
    toMeshFrame(mover, 0, pose, po, moverArray[mo], moverArray[mo + 1], moverArray[mo + 2]);
    toMeshFrame(mover, 3, pose, po, moverArray[mo + 3], moverArray[mo + 4], moverArray[mo + 5]);
    mover[6] = moverArray[mo + 6];
    const ax = mover[3] - mover[0], ay = mover[4] - mover[1], az = mover[5] - mover[2];
    radius = 0.5 * Math.sqrt(ax * ax + ay * ay + az * az) + mover[6];
    centreRay[0] = mover[0] + 0.5 * ax; centreRay[1] = mover[1] + 0.5 * ay; centreRay[2] = mover[2] + 0.5 * az;
  } else {
    toMeshFrame(mover, 0, pose, po, moverArray[mo], moverArray[mo + 1], moverArray[mo + 2]);
    mover[3] = radius = moverArray[mo + 3];
    centreRay[0] = mover[0]; centreRay[1] = mover[1]; centreRay[2] = mover[2];
  }
  directionToMeshFrame(centreRay, 3, pose, po, dx, dy, dz);
  const mdx = centreRay[3], mdy = centreRay[4], mdz = centreRay[5];
  const entries = tree.depth + 2, stride = STATE + 1;
  stack = grown(stack, stride * entries);
  nodeStack = grown(nodeStack, entries);
  const widen = radius + TREE_SLACK_RELATIVE *
    (tree.scale + Math.hypot(centreRay[0], centreRay[1], centreRay[2]) + radius + Math.hypot(mdx, mdy, mdz));
  enterRay(stack, 0, centreRay, 0, tree.nodes, 0);
  result.boxTests++;
  stack[STATE] = rayEntry(tree, 0, stack, 0, widen);
  nodeStack[0] = 0;
  let top = stack[STATE] <= maxT ? 1 : 0;
  let best = maxT, bestId = -1;
  while (top > 0) {
    const k = --top, s = stride * k;
    if (stack[s + STATE] > best) continue;
    const n = nodeStack[k], c = tree.children[n];
    if (c < 0) {
      const first = tree.firstTriangle[n], end = first + tree.nodeTriangleCount[n];
      for (let t = first; t < end; t++) {
        result.triangleTests++;
        const id = tree.triangleIds[t];
        const found = kind === 'sphere'
          ? castSphereTriangle(leafHit, 0, mover[0], mover[1], mover[2], mover[3], mdx, mdy, mdz, best, tree.triangles, 9 * t)
          : kind === 'capsule'
            ? castCapsuleTriangle(leafHit, 0, mover, 0, mdx, mdy, mdz, best, tree.triangles, 9 * t)
            : castObbTriangle(leafHit, 0, mover, 0, mdx, mdy, mdz, best, tree.triangles, 9 * t);
        if (found && (leafHit[0] < best || bestId < 0 || id < bestId)) {
          best = leafHit[0];
          bestId = id;
          result.shapeHit.set(leafHit);
        }
      }
      continue;
    }
    // Both children into slots k and k + 1 (the farther one below), each with its entry.
    const s1 = s + stride;
    enterRay(stack, s1, stack, s, tree.nodes, c);
    enterRay(stack, s, stack, s, tree.nodes, c + 1);
    result.boxTests += 2;
    const e0 = rayEntry(tree, c, stack, s1, widen);
    const e1 = rayEntry(tree, c + 1, stack, s, widen);
    stack[s1 + STATE] = e0;
    stack[s + STATE] = e1;
    nodeStack[k] = c + 1;
    nodeStack[k + 1] = c;
    if (e1 < e0) {
      for (let i = 0; i < stride; i++) { const x = stack[s + i]; stack[s + i] = stack[s1 + i]; stack[s1 + i] = x; }
      nodeStack[k] = c;
      nodeStack[k + 1] = c + 1;
    }
    top = k + 2;
  }
  if (bestId < 0) return false;
  // Normal and point back to the world frame.
  const h = result.shapeHit;
  const nx = h[1], ny = h[2], nz = h[3], px = h[4], py = h[5], pz = h[6];
  for (let i = 0; i < 3; i++) {
    h[1 + i] = pose[po + 3 + i] * nx + pose[po + 6 + i] * ny + pose[po + 9 + i] * nz;
    h[4 + i] = pose[po + i] + pose[po + 3 + i] * px + pose[po + 6 + i] * py + pose[po + 9 + i] * pz;
  }
  result.shapeTriangle = bestId;
  return true;
}

/** Numbers a mover of each kind reads. */
export const SHAPE_CAST_MOVER_STRIDE: Readonly<Record<ShapeCastMover, number>> = { sphere: 4, capsule: CAPSULE_STRIDE, obb: OBB_STRIDE };
