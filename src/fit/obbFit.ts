import { ditoObb } from './dito';
import { symmetricEigen3 } from './eigen3';
import { CollideInputError, assertNonEmptyPoints, assertOutput, coordinateRefusal, isCoordinate } from '../errors';
import { OBB_AXES, OBB_HALF, OBB_STRIDE, type Floats, type ReadonlyFloats } from '../layout';
import { obbFromAxes, obbSurfaceArea, obbVolume } from '../volumes/obb';
import { quickhull } from './quickhull';
import { ROUNDING_ALLOWANCE, OBB_FLAT_RELATIVE_TOLERANCE } from '../tolerances';
import { pointMoments, segmentMoments, triangleMoments, MOMENTS_STRIDE, cornerIndex } from './moments';

/**
 * Oriented-box fitting. Every method only chooses three axes; `obbFromAxes` then makes the
 * tightest box along them, so every box contains its input whatever the axes. Axes come from the
 * principal directions of a distribution (points, hull vertices, hull surface, line segments),
 * or from a local search that shrinks volume (`refineObb`).
 */

/** The fitting methods `fitObb` dispatches to. */
export type ObbFitMethod = 'pca-points' | 'pca-hull' | 'hull-triangles' | 'dito14' | 'dito26' | 'refined';

/** Tuning of `refineObb`; every field is optional. */
export interface ObbRefineOptions {
  /** First rotation step, radians (default 0.25). */
  initialAngle?: number;
  /** The search stops once the step halves below this, radians (default 1e-5). */
  minAngle?: number;
  /** Bound on box evaluations, each one pass over the points (default 2000). */
  maxEvaluations?: number;
}

const DEFAULT_REFINE: Required<ObbRefineOptions> = { initialAngle: 0.25, minAngle: 1e-5, maxEvaluations: 2000 };

// ---- module scratch (fitting is single-threaded; nothing here escapes a call) ----
const moments = new Float64Array(MOMENTS_STRIDE);
const covariance = moments.subarray(3); // a view, made once, for the eigen solver
const eigenValues = new Float64Array(3);
const axes = new Float64Array(9);
const trialAxes = new Float64Array(9);
const candidate = new Float64Array(OBB_STRIDE);
const best = new Float64Array(OBB_STRIDE);
let gathered = new Float64Array(0);

/** Principal axes (descending variance, right-handed columns) of the scratch moments into `axes`. */
function axesFromMoments(): void {
  symmetricEigen3(eigenValues, axes, covariance);
}

/** Throws unless the elements reference valid, finite vertices. */
function validateElements(
  positions: ReadonlyFloats,
  indices: ReadonlyFloats | null,
  n: number,
  count: number,
  first: number,
  what: string,
): void {
  const noun = n === 3 ? 'triangle' : 'segment';
  if (!Number.isInteger(count) || count < 1) {
    throw new CollideInputError(`${what}: ${noun} count must be a positive integer, got ${count}`);
  }
  if (!Number.isInteger(first) || first < 0) {
    throw new CollideInputError(`${what}: first ${noun} must be a non-negative integer, got ${first}`);
  }
  const vertexCount = Math.floor(positions.length / 3);
  const needed = n * (first + count);
  if (indices ? indices.length < needed : vertexCount < needed) {
    throw new CollideInputError(
      `${what}: ${noun}s ${first}..${first + count - 1} need ${needed} ${indices ? 'indices' : 'vertices'}, got ${indices ? indices.length : vertexCount}`,
    );
  }
  for (let e = first; e < first + count; e++) {
    for (let j = 0; j < n; j++) {
      const v = cornerIndex(indices, n, e, j);
      if (!Number.isInteger(v) || v < 0 || v >= vertexCount) {
        throw new CollideInputError(`${what}: ${noun} ${e} has vertex index ${v} outside 0..${vertexCount - 1}`);
      }
      for (let c = 0; c < 3; c++) {
        if (!isCoordinate(positions[3 * v + c])) {
          throw new CollideInputError(`${what}: vertex ${v} coordinate ${c} ${coordinateRefusal(positions[3 * v + c])}`);
        }
      }
    }
  }
}

/** Tightest box along `axes` around the corners of the elements (gathered when indexed). */
function elementBox(
  out: Floats,
  o: number,
  positions: ReadonlyFloats,
  indices: ReadonlyFloats | null,
  n: number,
  count: number,
  first: number,
): Floats {
  if (!indices) return obbFromAxes(out, o, axes, 0, positions, n * count, 3 * n * first);
  if (gathered.length < 3 * n * count) gathered = new Float64Array(3 * n * count);
  for (let e = 0; e < count; e++) {
    for (let j = 0; j < n; j++) {
      const v = 3 * indices[n * (first + e) + j];
      const g = 3 * (n * e + j);
      gathered[g] = positions[v];
      gathered[g + 1] = positions[v + 1];
      gathered[g + 2] = positions[v + 2];
    }
  }
  return obbFromAxes(out, o, axes, 0, gathered, n * count);
}

/**
 * Box along the principal axes of the point covariance (PCA of the points). Sensitive to how
 * points are distributed, not just to their shape; cheapest method. Returns `out`.
 * Throws CollideInputError on an empty set or non-finite coordinates.
 */
export function fitObbPcaPoints(out: Floats, o: number, points: ReadonlyFloats, count: number, offset = 0): Floats {
  assertOutput(out, o, OBB_STRIDE, 'fitObbPcaPoints');
  assertNonEmptyPoints(points, count, 'fitObbPcaPoints', offset);
  pointMoments(moments, points, count, offset);
  axesFromMoments();
  return obbFromAxes(out, o, axes, 0, points, count, offset);
}

/**
 * Box along the principal axes of the convex-hull vertices: interior points no longer bias the
 * axes, but uneven hull tessellation still does. Returns `out`.
 */
export function fitObbPcaHull(out: Floats, o: number, points: ReadonlyFloats, count: number, offset = 0): Floats {
  assertOutput(out, o, OBB_STRIDE, 'fitObbPcaHull');
  const hull = quickhull(points, count, offset);
  return fitObbPcaPoints(out, o, hull.vertices, hull.vertexCount);
}

/**
 * Box along the principal axes of the convex-hull surface (area-weighted triangle covariance),
 * insensitive to both interior points and hull tessellation. Flat sets use the hull polygon's
 * area, collinear and single-point sets the hull vertices. Returns `out`.
 */
export function fitObbHullTriangles(out: Floats, o: number, points: ReadonlyFloats, count: number, offset = 0): Floats {
  assertOutput(out, o, OBB_STRIDE, 'fitObbHullTriangles');
  const hull = quickhull(points, count, offset);
  if (hull.triangleCount === 0) return fitObbPcaPoints(out, o, hull.vertices, hull.vertexCount);
  return fitObbTriangles(out, o, hull.vertices, hull.indices, hull.triangleCount);
}

/**
 * Box around a triangle soup (e.g. one node of an OBB tree) along the principal axes of its
 * area-weighted surface covariance; bounds only the referenced vertices. Triangles
 * `firstTriangle .. firstTriangle + triangleCount - 1`, corners from `indices` (3 per triangle)
 * or consecutive vertices when `indices` is null. All-degenerate soups fall back to the point
 * covariance of the corners. Returns `out`; throws CollideInputError on bad counts, indices or
 * non-finite vertices.
 */
export function fitObbTriangles(
  out: Floats,
  o: number,
  positions: ReadonlyFloats,
  indices: ReadonlyFloats | null,
  triangleCount: number,
  firstTriangle = 0,
): Floats {
  assertOutput(out, o, OBB_STRIDE, 'fitObbTriangles');
  validateElements(positions, indices, 3, triangleCount, firstTriangle, 'fitObbTriangles');
  triangleMoments(moments, positions, indices, triangleCount, firstTriangle);
  axesFromMoments();
  return elementBox(out, o, positions, indices, 3, triangleCount, firstTriangle);
}

/**
 * Box around line segments (e.g. a bone chain) along the principal axes of their length-weighted
 * covariance. Segments `firstSegment .. firstSegment + segmentCount - 1`, endpoints from
 * `indices` (2 per segment) or consecutive vertices when null. Zero total length falls back to
 * the point covariance of the endpoints. Returns `out`; throws CollideInputError on bad input.
 */
export function fitObbSegments(
  out: Floats,
  o: number,
  positions: ReadonlyFloats,
  indices: ReadonlyFloats | null,
  segmentCount: number,
  firstSegment = 0,
): Floats {
  assertOutput(out, o, OBB_STRIDE, 'fitObbSegments');
  validateElements(positions, indices, 2, segmentCount, firstSegment, 'fitObbSegments');
  segmentMoments(moments, positions, indices, segmentCount, firstSegment);
  axesFromMoments();
  return elementBox(out, o, positions, indices, 2, segmentCount, firstSegment);
}

/** Gram-Schmidt on the first two columns and u2 = u0 × u1, so drift never breaks the frame. */
function orthonormalize(a: Floats): void {
  let l = Math.hypot(a[0], a[1], a[2]);
  a[0] /= l; a[1] /= l; a[2] /= l;
  const d = a[0] * a[3] + a[1] * a[4] + a[2] * a[5];
  a[3] -= d * a[0]; a[4] -= d * a[1]; a[5] -= d * a[2];
  l = Math.hypot(a[3], a[4], a[5]);
  a[3] /= l; a[4] /= l; a[5] /= l;
  a[6] = a[1] * a[5] - a[2] * a[4];
  a[7] = a[2] * a[3] - a[0] * a[5];
  a[8] = a[0] * a[4] - a[1] * a[3];
}

/**
 * Size key of a box for the search: its volume, or 0 when it is flat within `flatTolerance` (its
 * volume is then noise), with the surface area breaking ties.
 */
function isSmaller(box: ReadonlyFloats, o: number, than: ReadonlyFloats, to: number, flatTolerance: number): boolean {
  const v = flatVolume(box, o, flatTolerance), w = flatVolume(than, to, flatTolerance);
  if (v !== w) return v < w;
  return obbSurfaceArea(box, o) < obbSurfaceArea(than, to);
}

function flatVolume(box: ReadonlyFloats, o: number, flatTolerance: number): number {
  const h0 = box[o + OBB_HALF], h1 = box[o + OBB_HALF + 1], h2 = box[o + OBB_HALF + 2];
  const thin = Math.min(h0, h1, h2), thick = Math.max(h0, h1, h2);
  return thin <= OBB_FLAT_RELATIVE_TOLERANCE * thick + flatTolerance ? 0 : obbVolume(box, o);
}

/** Thickness that projections of these points cannot resolve: rounding of their coordinates. */
function roundingFloor(points: ReadonlyFloats, count: number, offset: number): number {
  let maxAbs = 0;
  for (let i = 0; i < 3 * count; i++) maxAbs = Math.max(maxAbs, Math.abs(points[offset + i]));
  return ROUNDING_ALLOWANCE * maxAbs;
}

/** Copies the scratch candidate into out[o] when it is smaller. */
function keepSmaller(out: Floats, o: number, flatTolerance: number): void {
  if (isSmaller(candidate, 0, out, o, flatTolerance)) for (let i = 0; i < OBB_STRIDE; i++) out[o + i] = candidate[i];
}

function readOption(options: ObbRefineOptions | undefined, key: keyof ObbRefineOptions): number {
  const value = options?.[key] ?? DEFAULT_REFINE[key];
  if (!Number.isFinite(value) || value <= 0) {
    throw new CollideInputError(`refineObb: option ${key} must be a positive finite number, got ${value}`);
  }
  return value;
}

/**
 * Local search for a smaller box around `count` points (typically hull vertices), starting from
 * the box in `box` at `o`, which is overwritten with the result. Repeatedly rotates the frame by
 * ±angle about each of its own axes, keeping any rotation that shrinks the box; the angle halves
 * when none does. Deterministic and bounded by `options.maxEvaluations`. Only the start axes
 * are read (re-orthonormalised); the result is never larger than the tightest box along them
 * (flat boxes, whose volume is rounding noise, compare by surface area). Returns `box`.
 * Throws CollideInputError on bad points, options or start axes.
 */
export function refineObb(
  box: Floats,
  o: number,
  points: ReadonlyFloats,
  count: number,
  offset = 0,
  options?: ObbRefineOptions,
): Floats {
  assertNonEmptyPoints(points, count, 'refineObb', offset);
  let angle = readOption(options, 'initialAngle');
  const minAngle = readOption(options, 'minAngle');
  const maxEvaluations = readOption(options, 'maxEvaluations');
  const flatTolerance = roundingFloor(points, count, offset);

  for (let i = 0; i < 9; i++) axes[i] = box[o + OBB_AXES + i];
  orthonormalize(axes);
  for (let i = 0; i < 9; i++) {
    if (!Number.isFinite(axes[i])) {
      throw new CollideInputError('refineObb: the start box axes are not finite or u0, u1 are parallel');
    }
  }
  obbFromAxes(best, 0, axes, 0, points, count, offset);

  let evaluations = 0;
  while (angle >= minAngle && evaluations < maxEvaluations) {
    let improved = false;
    for (let k = 0; k < 3 && evaluations < maxEvaluations; k++) {
      // Rotating about u_k turns the other two axes (in right-handed order) within their plane.
      const i = 3 * ((k + 1) % 3), j = 3 * ((k + 2) % 3);
      for (let sign = -1; sign <= 1 && evaluations < maxEvaluations; sign += 2) {
        const c = Math.cos(angle), s = sign * Math.sin(angle);
        for (let t = 0; t < 9; t++) trialAxes[t] = best[OBB_AXES + t];
        for (let t = 0; t < 3; t++) {
          const a = best[OBB_AXES + i + t], b = best[OBB_AXES + j + t];
          trialAxes[i + t] = c * a + s * b;
          trialAxes[j + t] = c * b - s * a;
        }
        orthonormalize(trialAxes);
        obbFromAxes(candidate, 0, trialAxes, 0, points, count, offset);
        evaluations++;
        if (isSmaller(candidate, 0, best, 0, flatTolerance)) {
          best.set(candidate);
          improved = true;
        }
      }
    }
    if (!improved) angle *= 0.5;
  }
  for (let i = 0; i < OBB_STRIDE; i++) box[o + i] = best[i];
  return box;
}

/**
 * Smallest box found by local search (`refineObb`) on the convex-hull vertices, started from the
 * smallest of the PCA-points, PCA-hull, hull-triangle, DiTO-26 and axis-aligned boxes. The slowest method
 * and usually the tightest. Returns `out`.
 */
export function fitObbRefined(
  out: Floats,
  o: number,
  points: ReadonlyFloats,
  count: number,
  offset = 0,
  options?: ObbRefineOptions,
): Floats {
  assertOutput(out, o, OBB_STRIDE, 'fitObbRefined');
  const hull = quickhull(points, count, offset);
  const vertices = hull.vertices, n = hull.vertexCount;
  const flatTolerance = roundingFloor(vertices, n, 0);
  // Start candidates, each bounding the hull vertices (the same box as around all the points).
  pointMoments(moments, points, count, offset);
  axesFromMoments();
  obbFromAxes(out, o, axes, 0, vertices, n);
  fitObbPcaPoints(candidate, 0, vertices, n);
  keepSmaller(out, o, flatTolerance);
  if (hull.triangleCount > 0) {
    fitObbTriangles(candidate, 0, vertices, hull.indices, hull.triangleCount);
    keepSmaller(out, o, flatTolerance);
  }
  ditoObb(candidate, 0, vertices, n, 26);
  keepSmaller(out, o, flatTolerance);
  axes.fill(0);
  axes[0] = axes[4] = axes[8] = 1;
  obbFromAxes(candidate, 0, axes, 0, vertices, n);
  keepSmaller(out, o, flatTolerance);
  return refineObb(out, o, vertices, n, 0, options);
}

/**
 * Fits an OBB to `count` points (xyz from `offset`) with the chosen method:
 * 'pca-points', 'pca-hull', 'hull-triangles', 'refined' (see the fitObb* functions), or the DiTO
 * methods 'dito14' / 'dito26'. Returns `out`; throws CollideInputError on empty or non-finite
 * input or an unknown method.
 */
export function fitObb(
  out: Floats,
  o: number,
  points: ReadonlyFloats,
  count: number,
  method: ObbFitMethod,
  offset = 0,
): Floats {
  switch (method) {
    case 'pca-points':
      return fitObbPcaPoints(out, o, points, count, offset);
    case 'pca-hull':
      return fitObbPcaHull(out, o, points, count, offset);
    case 'hull-triangles':
      return fitObbHullTriangles(out, o, points, count, offset);
    case 'refined':
      return fitObbRefined(out, o, points, count, offset);
    case 'dito14':
      return ditoObb(out, o, points, count, 14, offset);
    case 'dito26':
      return ditoObb(out, o, points, count, 26, offset);
    default:
      throw new CollideInputError(`fitObb: unknown method '${String(method)}'`);
  }
}
