import { quaternionToMat3 } from '../rotation';
import { CollideInputError, valueName } from '../errors';
import type { Floats, ReadonlyFloats } from '../layout';
import { EXTREME_VERTEX_RELATIVE_TOLERANCE } from '../tolerances';

/**
 * Extreme vertex of a convex hull along a direction by hill climbing over its vertex adjacency
 * (CSR form, as `quickhull` produces), starting from last frame's answer: under small rotations
 * the walk is a step or two, independent of the vertex count (Ericson, RTCD 4.2.3).
 *
 * Plain steepest ascent stalls on a plateau of tied vertices: when a triangulated flat face is
 * exactly perpendicular to the direction and the walk starts at a vertex inside it, every
 * neighbour ties. Such a vertex is only a true maximum when the face is the top one, so the walk
 * then searches the plateau breadth-first (each vertex once, via a visit stamp) for a vertex with
 * a strictly better neighbour and climbs on from there. Values rise strictly from one climb to the
 * next, so the walk never cycles.
 */

/** Scratch of the plateau search, created once per hull size and reused every call. */
export interface ExtremeVertexTracker {
  /** Per vertex: the epoch in which the plateau search last reached it. */
  stamp: Uint32Array;
  /** Breadth-first queue of plateau vertices. */
  queue: Uint32Array;
  /** Current search epoch; bumping it clears every stamp at once. */
  epoch: number;
}

/** A tracker for hulls of up to `vertexCount` vertices (it grows if later given a larger hull). */
export function createExtremeVertexTracker(vertexCount: number): ExtremeVertexTracker {
  if (!Number.isInteger(vertexCount) || vertexCount < 0 || vertexCount > 2 ** 30) {
    throw new CollideInputError(`createExtremeVertexTracker: vertexCount must be an integer in [0, 2^30], got ${valueName(vertexCount)}`);
  }
  return { stamp: new Uint32Array(vertexCount), queue: new Uint32Array(vertexCount), epoch: 0 };
}

const sharedTracker = createExtremeVertexTracker(0);

function nextEpoch(tracker: ExtremeVertexTracker, vertexCount: number): number {
  if (tracker.stamp.length < vertexCount) {
    tracker.stamp = new Uint32Array(vertexCount);
    tracker.queue = new Uint32Array(vertexCount);
    tracker.epoch = 0;
  }
  if (tracker.epoch === 0xffffffff) {
    tracker.stamp.fill(0);
    tracker.epoch = 0;
  }
  return ++tracker.epoch;
}

function dotAt(points: ReadonlyFloats, v: number, dx: number, dy: number, dz: number): number {
  return points[3 * v] * dx + points[3 * v + 1] * dy + points[3 * v + 2] * dz;
}

function maxAbsAt(points: ReadonlyFloats, v: number): number {
  return Math.max(Math.abs(points[3 * v]), Math.abs(points[3 * v + 1]), Math.abs(points[3 * v + 2]));
}

/**
 * Index of a hull vertex maximising dot(p, d), p = points[3v .. 3v+3), found by walking the hull
 * graph (neighbours of v: adjacency[adjacencyOffsets[v] .. adjacencyOffsets[v+1])) from `start`.
 * Exact up to `EXTREME_VERTEX_RELATIVE_TOLERANCE` ties, on any convex hull, including flat
 * triangulated faces. Pass a tracker to keep scratch per thread of use; by default a module one.
 */
export function extremeVertex(
  points: ReadonlyFloats,
  adjacencyOffsets: Uint32Array,
  adjacency: Uint32Array,
  start: number,
  dx: number,
  dy: number,
  dz: number,
  tracker: ExtremeVertexTracker = sharedTracker,
): number {
  let v = start;
  let fv = dotAt(points, v, dx, dy, dz);
  const tieScale = EXTREME_VERTEX_RELATIVE_TOLERANCE * (Math.abs(dx) + Math.abs(dy) + Math.abs(dz));
  for (;;) {
    // Steepest ascent while some neighbour is strictly better.
    for (;;) {
      let best = v, fBest = fv;
      for (let e = adjacencyOffsets[v], end = adjacencyOffsets[v + 1]; e < end; e++) {
        const w = adjacency[e];
        const fw = dotAt(points, w, dx, dy, dz);
        if (fw > fBest) {
          fBest = fw;
          best = w;
        }
      }
      if (best === v) break;
      v = best;
      fv = fBest;
    }
    // Local maximum: search its plateau of ties for a way up.
    const epoch = nextEpoch(tracker, adjacencyOffsets.length - 1);
    const { stamp, queue } = tracker;
    const rootScale = maxAbsAt(points, v);
    let head = 0, tail = 0;
    let top = v, fTop = fv;
    let exit = -1;
    stamp[v] = epoch;
    queue[tail++] = v;
    search: while (head < tail) {
      const u = queue[head++];
      for (let e = adjacencyOffsets[u], end = adjacencyOffsets[u + 1]; e < end; e++) {
        const w = adjacency[e];
        if (stamp[w] === epoch) continue;
        const fw = dotAt(points, w, dx, dy, dz);
        const tie = tieScale * Math.max(rootScale, maxAbsAt(points, w));
        if (fw > fv + tie) {
          exit = w;
          break search;
        }
        if (fw >= fv - tie) {
          stamp[w] = epoch;
          queue[tail++] = w;
          if (fw > fTop) {
            fTop = fw;
            top = w;
          }
        }
      }
    }
    if (exit < 0) return top;
    v = exit;
    fv = dotAt(points, v, dx, dy, dz);
  }
}

/** Stride of the extreme-vertex cache of `aabbFromHullTracking`: min x, y, z then max x, y, z. */
export const HULL_EXTREME_CACHE_STRIDE = 6;

const rotation = new Float64Array(9);

/**
 * World min-max box of a convex hull (local vertices `points`, CSR adjacency) under rotation `q`
 * (unit quaternion x, y, z, w), translation `t` and uniform `scale`, by tracking the six extreme
 * vertices. The world extreme along axis k is the local vertex extreme along s·(row k of R), so no
 * vertex is transformed except the six winners. `cache` holds the vertex indices of last call
 * (min x, y, z, max x, y, z; initialise with any valid vertex, e.g. zeros) and is updated in place.
 * Tight (it is the AABB of the transformed hull), unlike the Arvo box of a local box.
 */
export function aabbFromHullTracking(
  out: Floats,
  o: number,
  points: ReadonlyFloats,
  adjacencyOffsets: Uint32Array,
  adjacency: Uint32Array,
  cache: Uint32Array,
  q: ReadonlyFloats,
  t: ReadonlyFloats,
  scale = 1,
  tracker: ExtremeVertexTracker = sharedTracker,
): Floats {
  quaternionToMat3(rotation, 0, q);
  for (let k = 0; k < 3; k++) {
    const rx = scale * rotation[k], ry = scale * rotation[3 + k], rz = scale * rotation[6 + k];
    const lo = extremeVertex(points, adjacencyOffsets, adjacency, cache[k], -rx, -ry, -rz, tracker);
    const hi = extremeVertex(points, adjacencyOffsets, adjacency, cache[3 + k], rx, ry, rz, tracker);
    cache[k] = lo;
    cache[3 + k] = hi;
    out[o + k] = t[k] + dotAt(points, lo, rx, ry, rz);
    out[o + 3 + k] = t[k] + dotAt(points, hi, rx, ry, rz);
  }
  return out;
}
