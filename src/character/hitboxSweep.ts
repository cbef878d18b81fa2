import { CollideInputError, assertKnownKeys, assertHitRecord, assertNumberList, coordinateRefusal, isCoordinate, isHitRecord, valueName } from '../errors';
import { CAPSULE_STRIDE, OBB_STRIDE } from '../layout';
import { SWEEP_AXES_ORTHONORMAL, SWEEP_CONTACT_TOLERANCE } from '../tolerances';
import { SWEEP_HIT_STRIDE, SWEEP_LIMIT, SWEEP_MOTION_STRIDE, SWEEP_NEXT, SWEEP_T, SWEPT_BOUNDS_STRIDE, prepareBoxMotion, prepareCapsuleSweep, prepareObbSweep, preparedStartTime, preparedSweptBounds, sweepClock, sweepContact, sweepSelect, sweepStep, SWEEP_STEP_CONTACT } from '../query/sweep';
import { grown } from '../broadphase/growable';
import { IdList, sortIds } from '../broadphase/boxQuery';
import { assertHitboxStore, HITBOXES_PER_CLUSTER, type HitboxStore } from './hitboxLayout';
import { cellOf } from './rayGrid';
import { createHitboxHit, nameHitbox, type HitboxHit } from './hitboxHit';
import { assertHitboxMotion, MOTION_BOUNDS_STRIDE, type HitboxMotion } from './hitboxMotion';

/**
 * Melee sweeps: a weapon (a box or a capsule) moving and turning from one pose to another over a
 * frame, against every character's hitboxes moving over the same frame (a HitboxMotion): the
 * first contact, or the first contact per character. Culling: the weapon's swept AABB against
 * the characters' in the motion's grid, then each cluster's and each hitbox's; then the
 * swept-contact kernel (query/sweep.ts).
 */

/** The weapon of a sweep: a box (OBB layout) or a capsule (p0, p1, radius). */
export type SweepWeaponKind = 'obb' | 'capsule';

/**
 * A melee sweep query, made once (createSweepQuery) and reused: the weapon's kind and its pose at
 * the start and at the end of the frame (setSweepObb, setSweepCapsule), the hit groups it can
 * hit and an entity it passes through (its wielder).
 */
export interface SweepQuery {
  /** 'obb': start and end are boxes (15 numbers, OBB layout); 'capsule': capsules (7 numbers: p0, p1, radius). */
  kind: SweepWeaponKind;
  /** The weapon's pose at the start of the frame. */
  readonly start: Float64Array;
  /** Its pose at the end. */
  readonly end: Float64Array;
  /** Hit groups it can hit: bit HIT_GROUP_* set (default all). */
  groups: number;
  /** An entity whose character it passes through, e.g. the wielder (default -1: none). */
  ignore: number;
}

/** Initial values of a sweep query; every field is optional. */
export interface SweepQueryInit {
  /** Weapon kind (default 'obb'). */
  kind?: SweepWeaponKind;
  /** Start pose: 15 numbers for a box, 7 for a capsule (default a point at the origin). */
  start?: ArrayLike<number>;
  /** End pose (default the start pose). */
  end?: ArrayLike<number>;
  /** Hit-group bit mask (default all). */
  groups?: number;
  /** Entity to pass through (default -1). */
  ignore?: number;
}

const POINT_BOX = [0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0];

/** A reusable sweep query; throws CollideInputError for an unknown field or a bad value. */
export function createSweepQuery(init: SweepQueryInit = {}): SweepQuery {
  if (init === null || typeof init !== 'object') throw new CollideInputError('createSweepQuery: init must be an object');
  assertKnownKeys(init, ['kind', 'start', 'end', 'groups', 'ignore'], 'createSweepQuery');
  const q: SweepQuery = { kind: init.kind ?? 'obb', start: new Float64Array(OBB_STRIDE), end: new Float64Array(OBB_STRIDE), groups: init.groups ?? 0xffffffff, ignore: init.ignore ?? -1 };
  const n = q.kind === 'capsule' ? CAPSULE_STRIDE : OBB_STRIDE;
  const start = init.start ?? POINT_BOX, end = init.end ?? start;
  for (const [name, pose] of [['start', start], ['end', end]] as const) {
    if (pose.length < n) throw new CollideInputError(`createSweepQuery: ${name} must hold ${n} numbers for a ${q.kind}, got ${pose.length}`);
  }
  for (let k = 0; k < n; k++) {
    q.start[k] = start[k];
    q.end[k] = end[k];
  }
  checkSweepQuery(q, 'createSweepQuery');
  return q;
}

/** Throws CollideInputError unless `q` has a sweep query's arrays (createSweepQuery); its numbers are not checked. */
function assertSweepQueryRecord(q: SweepQuery, caller: string): void {
  if (q === null || typeof q !== 'object' || !(q.start instanceof Float64Array) || !(q.end instanceof Float64Array)) {
    throw new CollideInputError(`${caller}: the query must come from createSweepQuery`);
  }
}

/** Throws CollideInputError unless `q` came from createSweepQuery and `start`, `end` are arrays. */
function assertSweepArguments(q: SweepQuery, start: unknown, end: unknown, caller: string): void {
  assertSweepQueryRecord(q, caller);
  assertNumberList(start, `${caller}: start`);
  assertNumberList(end, `${caller}: end`);
}

/** Makes the query's weapon a box moving from start (15 numbers at so) to end (at eo); returns the query. Allocation-free. */
export function setSweepObb(q: SweepQuery, start: ArrayLike<number>, so: number, end: ArrayLike<number>, eo: number): SweepQuery {
  assertSweepArguments(q, start, end, 'setSweepObb');
  q.kind = 'obb';
  for (let k = 0; k < OBB_STRIDE; k++) {
    q.start[k] = start[so + k];
    q.end[k] = end[eo + k];
  }
  return q;
}

/** Makes the query's weapon a capsule moving from start (p0, p1, radius at so) to end (at eo); returns the query. Allocation-free. */
export function setSweepCapsule(q: SweepQuery, start: ArrayLike<number>, so: number, end: ArrayLike<number>, eo: number): SweepQuery {
  assertSweepArguments(q, start, end, 'setSweepCapsule');
  q.kind = 'capsule';
  for (let k = 0; k < CAPSULE_STRIDE; k++) {
    q.start[k] = start[so + k];
    q.end[k] = end[eo + k];
  }
  return q;
}

/**
 * Throws CollideInputError, naming `caller`, the field and its value, for a query a sweep cannot
 * use: an unknown kind, a pose number that is not finite (or beyond ±MAX_COORDINATE), a negative
 * half-extent or radius, box axes that are not orthonormal (to SWEEP_AXES_ORTHONORMAL), a groups
 * mask outside uint32 or an ignore that is not an entity id or -1.
 */
export function checkSweepQuery(q: SweepQuery, caller: string): void {
  assertSweepQueryRecord(q, caller);
  if (q.kind !== 'obb' && q.kind !== 'capsule') throw new CollideInputError(`${caller}: query.kind must be 'obb' or 'capsule', got ${String(q.kind)}`);
  for (let e = 0; e < 2; e++) {
    const name = e === 0 ? 'start' : 'end', p = e === 0 ? q.start : q.end;
    const n = q.kind === 'capsule' ? CAPSULE_STRIDE : OBB_STRIDE;
    for (let k = 0; k < n; k++) {
      if (!isCoordinate(p[k])) throw new CollideInputError(`${caller}: query.${name}[${k}] ${coordinateRefusal(p[k])}`);
    }
    if (q.kind === 'capsule') {
      if (p[6] < 0) throw new CollideInputError(`${caller}: query.${name}[6] (radius) must be >= 0, got ${p[6]}`);
      continue;
    }
    for (let k = 12; k < 15; k++) {
      if (p[k] < 0) throw new CollideInputError(`${caller}: query.${name}[${k}] (half-extent) must be >= 0, got ${p[k]}`);
    }
    for (let i = 0; i < 3; i++) {
      for (let j = i; j < 3; j++) {
        const d = p[3 + 3 * i] * p[3 + 3 * j] + p[4 + 3 * i] * p[4 + 3 * j] + p[5 + 3 * i] * p[5 + 3 * j];
        if (!(Math.abs(d - (i === j ? 1 : 0)) <= SWEEP_AXES_ORTHONORMAL)) {
          throw new CollideInputError(`${caller}: query.${name} axes (numbers 3..11) must be orthonormal, got u${i}·u${j} = ${d}`);
        }
      }
    }
  }
  if (!Number.isInteger(q.groups) || q.groups < 0 || q.groups > 0xffffffff) throw new CollideInputError(`${caller}: query.groups must be a uint32, got ${q.groups}`);
  if (!Number.isInteger(q.ignore) || q.ignore < -1) throw new CollideInputError(`${caller}: query.ignore must be an entity id or -1, got ${q.ignore}`);
}

const weapon = new Float64Array(SWEPT_BOUNDS_STRIDE); // the weapon's swept AABB and capsule, then its size
const best = new Float64Array(SWEEP_HIT_STRIDE); // the first contact of the character in hand

/** @internal Validates, prepares the weapon's motion and its swept bounds; returns the ignored character (or −1). */
export function prepareSweep(store: HitboxStore, motion: HitboxMotion, q: SweepQuery, caller: string): number {
  assertHitboxStore(store, caller);
  assertHitboxMotion(motion, caller);
  checkSweepQuery(q, caller);
  if (!(motion.characterCount <= store.characterCount)) {
    throw new CollideInputError(`${caller}: the motion covers ${motion.characterCount} characters, the store has ${store.characterCount} (finish it on this store)`);
  }
  if (q.kind === 'obb') prepareObbSweep(q.start, 0, q.end, 0);
  else prepareCapsuleSweep(q.start, 0, q.end, 0);
  preparedSweptBounds(weapon, 0, 0);
  const margin = SWEEP_CONTACT_TOLERANCE * weapon[13];
  for (let k = 0; k < 3; k++) {
    weapon[k] -= margin;
    weapon[3 + k] += margin;
  }
  weapon[12] += margin;
  return q.ignore >= 0 ? store.characterOfEntity.get(q.ignore) ?? -1 : -1;
}

function meetsWeapon(aabb: Float64Array, o: number): boolean {
  return aabb[o] <= weapon[3] && aabb[o + 3] >= weapon[0] && aabb[o + 1] <= weapon[4] && aabb[o + 4] >= weapon[1] &&
    aabb[o + 2] <= weapon[5] && aabb[o + 5] >= weapon[2];
}

/**
 * @internal Whether hitbox h may meet the prepared weapon: its swept AABB meets the weapon's, and
 * its swept sphere the weapon's swept capsule (the weapon stays within its half-diagonal of a
 * centre moving on a segment: a round bound where a turning blade's AABB has empty corners).
 */
export function hitboxCandidate(motion: HitboxMotion, h: number): boolean {
  const hb = motion.hitboxBounds, b = MOTION_BOUNDS_STRIDE * h;
  if (!meetsWeapon(hb, b)) return false;
  const ax = weapon[6], ay = weapon[7], az = weapon[8];
  const ux = weapon[9] - ax, uy = weapon[10] - ay, uz = weapon[11] - az;
  const px = hb[b + 6] - ax, py = hb[b + 7] - ay, pz = hb[b + 8] - az;
  const uu = ux * ux + uy * uy + uz * uz;
  let s = uu > 0 ? (px * ux + py * uy + pz * uz) / uu : 0;
  s = s < 0 ? 0 : s > 1 ? 1 : s;
  const dx = px - s * ux, dy = py - s * uy, dz = pz - s * uz;
  const r = hb[b + 9] + weapon[12];
  return dx * dx + dy * dy + dz * dz <= r * r;
}

const met = new IdList(); // characters whose swept AABB meets the weapon's

/**
 * The characters, seen at both ends of the motion and not `ignored`, whose swept AABB meets the
 * prepared weapon's, into `met` in ascending order (sweepHitboxesAll keeps equal times in
 * character order); returns their count. The weapon's AABB looks up the cells of the motion's grid.
 */
function charactersMet(motion: HitboxMotion, ignored: number): number {
  met.count = 0;
  const grid = motion.grid, dims = grid.dims;
  if (dims[0] === 0) return 0;
  const x0 = cellOf(grid, weapon, 0, 0), x1 = cellOf(grid, weapon, 3, 0);
  const y0 = cellOf(grid, weapon, 1, 1), y1 = cellOf(grid, weapon, 4, 1);
  const z0 = cellOf(grid, weapon, 2, 2), z1 = cellOf(grid, weapon, 5, 2);
  const id = ++grid.rayId, stamp = grid.stamp, start = grid.cellStart, items = grid.cellItems, aabb = motion.characterAabb;
  for (let z = z0; z <= z1; z++) {
    for (let y = y0; y <= y1; y++) {
      for (let k = (z * dims[1] + y) * dims[0] + x0, end = k + x1 - x0; k <= end; k++) {
        for (let i = start[k], last = start[k + 1]; i < last; i++) {
          const c = items[i];
          if (stamp[c] === id) continue;
          stamp[c] = id;
          if (c !== ignored && meetsWeapon(aabb, 6 * c)) met.push(c);
        }
      }
    }
  }
  sortIds(met.ids, met.count);
  return met.count;
}

// A swing's candidate hitboxes, each with the time its sweep has reached (from its start time,
// +∞ once it cannot come first) and the steps taken; grown as needed.
let candidates = new Int32Array(64);
let candidateTimes = new Float64Array(64);
let candidateSteps = new Int32Array(64);

/**
 * Appends character c's hitboxes (of the query's groups) that the prepared weapon may hit by
 * tMax (sweepClock[SWEEP_LIMIT]) to the candidates after `count`, each with its start time
 * (preparedStartTime); returns the new count. The clusters' swept AABBs cull whole groups of
 * hitboxes first. `groups` comes as an int32 (query.groups | 0): 0xffffffff is not a small
 * integer, and V8 boxes it at each call.
 */
function gather(store: HitboxStore, motion: HitboxMotion, c: number, groups: number, count: number): number {
  const group = store.group, clusters = motion.clusterAabb;
  const first = store.firstHitbox[c], last = first + store.hitboxCount[c];
  for (let a = 6 * store.firstCluster[c], h0 = first; h0 < last; a += 6, h0 += HITBOXES_PER_CLUSTER) {
    if (!meetsWeapon(clusters, a)) continue;
    for (let h = h0, end = Math.min(last, h0 + HITBOXES_PER_CLUSTER); h < end; h++) {
      if (((groups >>> group[h]) & 1) !== 0 && hitboxCandidate(motion, h)) count = addCandidate(motion, h, count);
    }
  }
  return count;
}

/** Adds hitbox h, which passed the culling, to the candidates after `count` if it has a start time by tMax; returns the new count. */
function addCandidate(motion: HitboxMotion, h: number, count: number): number {
  const prepared = motion.prepared;
  // Each hitbox's motion is prepared once per HitboxMotion, for every weapon that reaches it.
  if (prepared[h] === 0) {
    prepareBoxMotion(motion.motion, SWEEP_MOTION_STRIDE * h, motion.start, OBB_STRIDE * h, motion.end, OBB_STRIDE * h);
    prepared[h] = 1;
  }
  if (!preparedStartTime(motion.motion, SWEEP_MOTION_STRIDE * h)) return count;
  if (count === candidates.length) {
    candidates = grown(candidates, count + 1);
    candidateTimes = grown(candidateTimes, count + 1);
    candidateSteps = grown(candidateSteps, count + 1);
  }
  candidates[count] = h;
  candidateTimes[count] = sweepClock[SWEEP_NEXT];
  candidateSteps[count] = 0;
  return count + 1;
}

/** Infinity, loaded as a double: `let t = Infinity` made V8 box the times compared with it. */
const never = new Float64Array([Infinity]);

/**
 * The first contact of the prepared weapon, at a time <= tMax (sweepClock[SWEEP_LIMIT]), among the first `count`
 * candidates: its hitbox (the lowest index among equal times), with t, point and normal in
 * `best`; −1 for none. The candidates' sweeps advance together, always the one behind (lowest
 * time, then hitbox index) by one step (sweepStep), so the first contact any of them reaches is
 * the first of all (every other sweep is at that time or later, and a sweep's time only grows)
 * and no sweep steps past it. Each sweep's times are those of obbSweep on its pair alone.
 */
function firstContact(motion: HitboxMotion, count: number): number {
  let selected = -1;
  const clock = sweepClock, tMax = clock[SWEEP_LIMIT], infinity = never[0];
  for (;;) {
    let i = -1, t = infinity, h = 0;
    for (let k = 0; k < count; k++) {
      const tk = candidateTimes[k];
      if (tk < t || (tk === t && tk !== infinity && candidates[k] < h)) {
        i = k; t = tk; h = candidates[k];
      }
    }
    if (i < 0) return -1;
    // The same hitbox often steps again: its motion is in place.
    if (h !== selected) {
      sweepSelect(motion.motion, SWEEP_MOTION_STRIDE * h);
      selected = h;
    }
    clock[SWEEP_T] = t;
    const next = sweepStep(candidateSteps[i]++);
    if (next === SWEEP_STEP_CONTACT) {
      sweepContact(best, 0);
      return h;
    }
    // Stored apart: `ok ? next : Infinity` made V8 box `next`.
    candidateTimes[i] = clock[SWEEP_NEXT];
    if (next < 0 || !(clock[SWEEP_NEXT] >= 0 && clock[SWEEP_NEXT] <= tMax)) candidateTimes[i] = infinity;
  }
}

/** Fills `hit` from hitbox h and `best`. */
function fill(hit: HitboxHit, store: HitboxStore, h: number): void {
  nameHitbox(hit, store, h);
  hit.t = best[0];
  for (let k = 0; k < 3; k++) {
    hit.normal[k] = best[1 + k];
    hit.point[k] = best[4 + k];
  }
}

/**
 * The first contact of the query's weapon, moving from its start pose to its end pose over the
 * frame, with any character hitbox moving over the same frame (`motion`): over every character
 * present at both ends of the motion, except the ignored entity's, and hitboxes of the query's
 * groups. Fills `hit` (t in [0, 1]: the fraction of the frame; point: a point of the hitbox
 * nearest the weapon then; normal: out of the hitbox towards the weapon) and returns true, or
 * returns false (hit untouched). Among contacts at the same t the lowest hitbox index wins.
 * t = 0 when the weapon touches a hitbox at its start pose, moving or not. The contact is found
 * within SWEEP_CONTACT_TOLERANCE of the sizes and never later than the true one (query/sweep.ts).
 * Allocation-free. Throws CollideInputError for a bad query (naming the field and value).
 */
export function sweepHitboxes(hit: HitboxHit, store: HitboxStore, motion: HitboxMotion, query: SweepQuery): boolean {
  return sweepFirst(hit, store, motion, query, 'sweepHitboxes');
}

/**
 * @internal sweepHitboxes, its errors naming `caller`; `ignored` the character of query.ignore
 * when the caller resolved it (a worker thread's store has no entity map).
 */
export function sweepFirst(hit: HitboxHit, store: HitboxStore, motion: HitboxMotion, query: SweepQuery, caller: string, ignored?: number): boolean {
  assertHitRecord(hit, caller, 'createHitboxHit');
  const own = prepareSweep(store, motion, query, caller);
  const characters = charactersMet(motion, ignored ?? own);
  let count = 0;
  sweepClock[SWEEP_LIMIT] = 1;
  for (let i = 0; i < characters; i++) count = gather(store, motion, met.ids[i], query.groups | 0, count);
  const h = firstContact(motion, count);
  if (h >= 0) fill(hit, store, h);
  return h >= 0;
}

/**
 * Most records createHitboxSweepHits makes: a swing's first contact with as many characters
 * (each record is an object, about 550 bytes: 36 MB at this many).
 */
export const MAX_SWEEP_HITS = 65536;

/** `capacity` reusable hit records for sweepHitboxesAll (at most MAX_SWEEP_HITS). */
export function createHitboxSweepHits(capacity: number): HitboxHit[] {
  if (!(Number.isInteger(capacity) && capacity >= 0 && capacity <= MAX_SWEEP_HITS)) {
    throw new CollideInputError(`createHitboxSweepHits: capacity must be an integer in [0, ${MAX_SWEEP_HITS}], got ${valueName(capacity)}`);
  }
  return Array.from({ length: capacity }, createHitboxHit);
}

/**
 * The first contact with each character (a brawler's swing can hit several): sweepHitboxes per
 * character, written to hits[0..count) in order of t (then hitbox index), where count, returned,
 * is the number of characters hit up to hits.length (the earliest are kept). The records are
 * reordered in the array, never replaced. Allocation-free. Throws as sweepHitboxes does.
 */
export function sweepHitboxesAll(hits: HitboxHit[], store: HitboxStore, motion: HitboxMotion, query: SweepQuery): number {
  return sweepAll(hits, store, motion, query, 'sweepHitboxesAll');
}

/** @internal sweepHitboxesAll, its errors naming `caller`. */
export function sweepAll(hits: HitboxHit[], store: HitboxStore, motion: HitboxMotion, query: SweepQuery, caller: string): number {
  if (!Array.isArray(hits)) throw new CollideInputError(`${caller}: hits must be an array of hit records (createHitboxSweepHits)`);
  // The message is built only for a bad record: a query allocates nothing.
  for (let i = 0; i < hits.length; i++) if (!isHitRecord(hits[i])) assertHitRecord(hits[i], `${caller}: hits[${i}]`, 'createHitboxSweepHits');
  const characters = charactersMet(motion, prepareSweep(store, motion, query, caller));
  const capacity = hits.length;
  let count = 0;
  for (let j = 0; j < characters && capacity > 0; j++) {
    const c = met.ids[j];
    // Once full, only a character hit before the last kept one can enter.
    sweepClock[SWEEP_LIMIT] = count === capacity ? hits[capacity - 1].t : 1;
    const h = firstContact(motion, gather(store, motion, c, query.groups | 0, 0));
    if (h < 0) continue;
    const t = best[0];
    // Insertion by (t, hitbox): characters come in index order, so equal times keep it.
    let i = count < capacity ? count : capacity - 1;
    if (count === capacity && !(t < hits[i].t)) continue;
    const record = hits[i];
    while (i > 0 && t < hits[i - 1].t) {
      hits[i] = hits[i - 1];
      i--;
    }
    hits[i] = record;
    fill(record, store, h);
    if (count < capacity) count++;
  }
  return count;
}
