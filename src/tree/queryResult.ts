import { PairList } from '../broadphase/pairList';
import { CollideInputError, assertNumberRun, valueName } from '../errors';
import { assertMadeBy } from '../query/rayQuery';
import { POSE_STRIDE } from './pose';
import { OBB_STRIDE } from '../layout';
import { SHAPE_CAST_HIT_STRIDE } from '../query/shapeCastHit';

/**
 * What the tree queries write: one reusable result object per caller, with the counters of the
 * cost model T = Tv·Nv + Tp·Np (volume tests Nv in `boxTests`, triangle tests Np in
 * `triangleTests`).
 */

/** What a query collects: stop at the first hit, collect every hit, or hits with intersection segments. */
export type TreeQueryMode = 'first' | 'all' | 'contacts';
/** Box test per node pair: full 15-axis SAT, or the 6 face axes only (cheaper, culls less). */
export type TreeBoxTest = 'sat' | 'sat-lite';

/** Numbers per contact in `TreeQueryResult.segments`: two endpoints of the intersection segment, world frame. */
export const TREE_CONTACT_STRIDE = 6;
/** `TreeQueryResult.hit` layout: t, world normal (3), mesh triangle index. */
export const TREE_RAY_HIT_STRIDE = 5;

/** Reusable output of the tree queries; create once, pass to every query (each clears it). */
export class TreeQueryResult {
  /** Tree vs tree: (triangle of A, triangle of B), mesh triangle indices. */
  readonly pairs = new PairList();
  /** 'contacts' mode: TREE_CONTACT_STRIDE numbers per pair; meaningful where kinds[i] is TRI_TRI_SEGMENT. */
  segments = new Float64Array(16 * TREE_CONTACT_STRIDE);
  /** 'contacts' mode: TRI_TRI_SEGMENT or TRI_TRI_COPLANAR (an area: no segment is written) per pair. */
  kinds = new Uint8Array(16);
  /** Tree vs volume: mesh triangle indices hit, valid below `triangleCount`. */
  triangles = new Uint32Array(16);
  /** Number of entries in `triangles`. */
  triangleCount = 0;
  /**
   * Tree vs volume: the queried volume in the tree's mesh frame, exactly as the leaf tests saw it
   * (sphere [c, r], capsule [p0, p1, r], or an OBB in the OBB layout), so that exact per-triangle
   * kernels run on the found triangles (tree.triangles, mesh frame) see the very same numbers.
   */
  readonly query = new Float64Array(OBB_STRIDE);
  /** Ray cast: TREE_RAY_HIT_STRIDE numbers of the nearest hit. */
  readonly hit = new Float64Array(TREE_RAY_HIT_STRIDE);
  /** Shape cast: the first hit (SHAPE_CAST_HIT_STRIDE layout, world frame). */
  readonly shapeHit = new Float64Array(SHAPE_CAST_HIT_STRIDE);
  /** Shape cast: the mesh triangle index of `shapeHit`. */
  shapeTriangle = -1;
  /** Volume tests of the last query (Nv). */
  boxTests = 0;
  /** Triangle tests of the last query (Np). */
  triangleTests = 0;

  /** Empties every list and zeroes the counters (storage is kept). */
  clear(): void {
    this.pairs.clear();
    this.triangleCount = 0;
    this.boxTests = 0;
    this.triangleTests = 0;
  }
}

/**
 * Throws CollideInputError unless `result` is a TreeQueryResult, `tree` a bounding tree
 * (buildBoundingTree) and `pose` holds a pose at `po`: what every tree query reads before its
 * walk, a few loads next to the walk itself.
 */
export function assertTreeQuery(result: unknown, tree: unknown, pose: unknown, po: number, caller: string): void {
  if (!(result instanceof TreeQueryResult)) throw new CollideInputError(`${caller}: result must come from new TreeQueryResult(), got ${valueName(result)}`);
  assertMadeBy(tree, 'triangles', caller, 'tree', 'buildBoundingTree');
  assertNumberRun(pose, po, POSE_STRIDE, caller, 'pose');
}
