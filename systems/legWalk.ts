/**
 * The candidate search of castShapeColliders and raycastColliders: the first collider a box meets
 * as it moves along d, found through box queries on the broad phase's structure
 * (shapeQueries.ts boxQueries). The motion is cut into legs, each moving the box by about its own
 * size or a grid cell, visited in order; each leg's new candidates are sorted by when the moving
 * box enters their broad-phase box and tested exactly in that order, until the next entry comes
 * after the best hit (by more than a slack: see walkLegs). The first leg ending after the best hit
 * ends the search: whatever a later leg meets is entered after it (docs/design/shape-queries.md
 * measures the leg length).
 */
import { IdList, type BoxQueryable } from '../src/broadphase/boxQuery';
import { grown } from '../src/broadphase/growable';
import { sortByKey } from '../src/broadphase/sortByKey';
import { SHAPE_NONE, type ColliderStore } from '../components/collider';
import type { CollisionPipeline } from './collisionState';
import { boxQueries } from './shapeQueries';

/** An exact test's miss; any other return is a hit (the hitbox or triangle index for characters and meshes, else 0). */
export const NO_HIT = -2;

/** Most legs of a walk: beyond them a leg's swept box grows with the motion instead (a huge box query tests its levels' boxes directly). */
const MAX_LEGS = 64;

/** The best entity before any hit: above every id, so a tie at the limit goes to the collider. */
const NO_ENTITY = 0x7fffffff;

/**
 * The walk's numbers, in an array: V8 boxes a double passed to or returned from a call it does
 * not inline (16 bytes of garbage each), and the walk calls its tests through function values.
 * The caller writes WALK_FROM to WALK_SLACK; the walk writes WALK_BOUND before each entry test,
 * WALK_BEST before each exact test, and WALK_T (its answer) at the end.
 */
export const walkTimes = new Float64Array(8);
/** The part of the motion walked, [from, to]. */
export const WALK_FROM = 0;
export const WALK_TO = 1;
/** A hit counts up to this time (at least `to`). */
export const WALK_LIMIT = 2;
/** How far after the best hit an entry may be and still be tested (see walkLegs). */
export const WALK_SLACK = 3;
/** For an entry test: the latest entry that matters. */
export const WALK_BOUND = 4;
/** An entry test's answer: when the moving box meets the collider's box. */
export const WALK_ENTRY = 5;
/** For an exact test: the best hit's time so far (a hit must not come later). */
export const WALK_BEST = 6;
/** The walk's answer: the first hit's time. */
export const WALK_T = 7;

/**
 * Whether the moving box meets collider e's broad-phase box by walkTimes[WALK_BOUND]; when it
 * does, its entry time into walkTimes[WALK_ENTRY]. The box holds the collider's shape, so the
 * exact test's time is never earlier.
 */
export type EntryTest = (c: ColliderStore, e: number) => boolean;
/**
 * The exact test of collider e up to walkTimes[WALK_BEST]: a part (see NO_HIT), its time in the
 * walk's `result[0]`.
 */
export type ExactTest = (p: CollisionPipeline, c: ColliderStore, e: number) => number;

/** A walk's answer: the first hit's entity (−1: none) and part; its time is walkTimes[WALK_T], its record in the walk's `bestResult`. */
export const legWalk = { entity: -1, part: NO_HIT };

const legBox = new Float64Array(6);
const legCandidates = new IdList();
/** A leg's candidates to test, by entry time (keys) and id (tags). */
let entryKeys = new Float64Array(64);
let entryIds = new Int32Array(64);
/** Per entity, the walk that last took it as a candidate: each is considered once over the legs. */
let visited = new Uint32Array(0);
let walkNumber = 0;

/**
 * Walks the box at start[0..5] (min-max) moved by t·d for t in [WALK_FROM, WALK_TO] (walkTimes),
 * against the colliders whose layer shares a bit with `mask` (as an int32: `query.mask | 0`), except `ignore`: each candidate's
 * entry by `entryOf`, then in entry order the exact test `exact`, whose first `stride` numbers of
 * `result` (its time first) the best hit's are copied into `bestResult`. A hit counts up to
 * WALK_LIMIT (at least WALK_TO); among hits at the same time the lowest entity id wins. A
 * candidate is left out only when it enters more than WALK_SLACK after the best hit: an entry and
 * an exact time are computed apart, and a shape touching its box can round to a time a few ulps
 * before the box's entry. Writes the answer into
 * `legWalk` and walkTimes[WALK_T].
 */
export function walkLegs(
  p: CollisionPipeline, start: Float64Array, d: ArrayLike<number>, mask: number, ignore: number,
  entryOf: EntryTest, exact: ExactTest, result: Float64Array, bestResult: Float64Array, stride: number,
): void {
  const c = p.collider, from = walkTimes[WALK_FROM], to = walkTimes[WALK_TO], slack = walkTimes[WALK_SLACK];
  if (visited.length < c.kind.length) visited = grown(visited, c.kind.length);
  if (++walkNumber === 0xffffffff) {
    visited.fill(0);
    walkNumber = 1;
  }
  const grid = boxQueries(p);
  const legs = legCount(p, grid, start, d);
  let best = walkTimes[WALK_LIMIT], bestEntity = NO_ENTITY, bestPart = NO_HIT;
  for (let leg = 0; leg < legs; leg++) {
    const t0 = from + ((to - from) * leg) / legs, t1 = leg + 1 === legs ? to : from + ((to - from) * (leg + 1)) / legs;
    for (let k = 0; k < 3; k++) {
      const a = t0 * d[k], b = t1 * d[k];
      legBox[k] = start[k] + Math.min(a, b);
      legBox[3 + k] = start[3 + k] + Math.max(a, b);
    }
    legCandidates.count = 0;
    grid.queryBox(c.aabb, legBox, 0, legCandidates);
    // Entry times of this leg's new candidates; those entered after the best hit are done with.
    const ids = legCandidates.ids;
    let n = 0;
    for (let i = 0; i < legCandidates.count; i++) {
      const e = ids[i];
      if (visited[e] === walkNumber) continue;
      visited[e] = walkNumber;
      if (e === ignore || c.kind[e] === SHAPE_NONE || (c.layer[e] & mask) === 0) continue;
      walkTimes[WALK_BOUND] = best + slack;
      if (!entryOf(c, e)) continue;
      const entry = walkTimes[WALK_ENTRY];
      if (entry > best + slack) continue;
      if (n === entryKeys.length) {
        entryKeys = grown(entryKeys, n + 1);
        entryIds = grown(entryIds, n + 1);
      }
      entryKeys[n] = entry;
      entryIds[n++] = e;
    }
    sortByKey(entryKeys, entryIds, 0, n);
    for (let i = 0; i < n; i++) {
      const entry = entryKeys[i], e = entryIds[i];
      // A shape is inside its broad-phase box: entered after the best hit, it cannot do better.
      if (entry > best + slack) break;
      walkTimes[WALK_BEST] = best;
      const part = exact(p, c, e);
      if (part === NO_HIT) continue;
      const t = result[0];
      if (t > best || (t === best && e > bestEntity)) continue;
      best = t;
      bestEntity = e;
      bestPart = part;
      for (let k = 0; k < stride; k++) bestResult[k] = result[k];
    }
    // Colliders first met in later legs are entered after this leg's end.
    if (best + slack < t1) break;
  }
  walkTimes[WALK_T] = best;
  legWalk.entity = bestEntity === NO_ENTITY ? -1 : bestEntity;
  legWalk.part = bestPart;
}

/**
 * Writes into p.scratch.queryCell the side of the finest grid cell holding boxes
 * (BoxQueryable.queryCell), asked once per broad phase run: the grids change only then, and the answer, a double returned from a call V8 does
 * not inline, is boxed on every call.
 */
function updateQueryCell(p: CollisionPipeline, grid: BoxQueryable): void {
  const s = p.scratch;
  if (s.queryCellRun !== s.broadPhaseRuns) {
    s.queryCell[0] = grid.queryCell();
    s.queryCellRun = s.broadPhaseRuns;
  }
}

/**
 * Legs of a walk over [WALK_FROM, WALK_TO] of the motion: each moves the box by about its own
 * largest side or the grid's finest cell, whichever is larger (measured best in
 * docs/design/shape-queries.md), at most MAX_LEGS.
 */
function legCount(p: CollisionPipeline, grid: BoxQueryable, box: Float64Array, d: ArrayLike<number>): number {
  updateQueryCell(p, grid);
  const leg = Math.max(box[3] - box[0], box[4] - box[1], box[5] - box[2], p.scratch.queryCell[0]);
  const travel = (walkTimes[WALK_TO] - walkTimes[WALK_FROM]) * Math.max(Math.abs(d[0]), Math.abs(d[1]), Math.abs(d[2]));
  return leg > 0 ? Math.max(1, Math.min(MAX_LEGS, Math.ceil(travel / leg))) : MAX_LEGS;
}
