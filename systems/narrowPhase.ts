/**
 * narrowPhase: the exact test of every broad-phase candidate pair, by shape kinds, then the
 * frame's outputs: touching pairs, contact manifolds (pairs without a sensor), and begin / stay /
 * end events against last frame. Everything is walked in the candidates' sorted order, so all
 * outputs come out sorted by (a, b) with no sort of their own.
 *
 * Tests per kind pair: the boolean kernels decide whether a pair touches, for sensors and solid
 * colliders alike (OBB-OBB by SAT with the pair's last separating axis tried first, kept in a
 * sorted pair cache matched by a merge walk with the sorted candidates); touching solid pairs then
 * get their manifold from src/contacts/ (an AABB is passed as an identity-axes OBB where a
 * kernel wants a box), whose kernels report a point wherever the boolean ones report touching.
 * k-DOP colliders are tested k-DOP against k-DOP: the other shape's exact k-DOP is built on the
 * fly (the standard, conservative k-DOP test; no manifold).
 * Mesh colliders ask their bounding tree (meshCollider.ts, installed by addMeshCollider): exact,
 * with a manifold merged from per-triangle contacts against a sphere, capsule, OBB or AABB, none
 * against another mesh. Characters ask their bone hitboxes (characterColliders.ts, installed by
 * addCharacterCollider): exact, no manifold.
 */
import type { World } from 'bitecs';
import { aabbOverlap } from '../src/volumes/aabb';
import { closestPtPointAabb, closestPtPointSegment, closestSegments, SEGMENTS_DISTANCE, CLOSEST_SEGMENTS_STRIDE } from '../src/query/closestPoints';
import { CONTACT_FEATURE_A, CONTACT_FEATURE_B, CONTACT_NORMAL, CONTACT_STRIDE } from '../src/contacts/manifold';
import { contactAabbAabb, contactObbObb } from '../src/contacts/boxBox';
import { contactCapsuleCapsule, contactCapsuleSphere, contactSphereSphere } from '../src/contacts/round';
import { contactCapsuleObb } from '../src/contacts/capsuleBox';
import { contactSphereAabb, contactSphereObb } from '../src/contacts/sphereBox';
import { OBB_STRIDE, type Floats } from '../src/layout';
import { obbFromAabb } from '../src/volumes/obb';
import { obbAabbOverlap, obbSeparatingAxisCached, obbSphereOverlap } from '../src/query/sat';
import { sphereOverlap } from '../src/volumes/sphere';
import {
  SHAPE_AABB,
  SHAPE_CAPSULE,
  SHAPE_CHARACTER,
  SHAPE_KDOP,
  SHAPE_MESH,
  SHAPE_OBB,
  SHAPE_SPHERE,
  SHAPE_STRIDE,
  type ColliderStore,
} from '../components/collider';
import { resized } from '../components/capacity';
import { reserveContact, type ContactStore } from '../components/contactStore';
import { updateTouchingTag } from './touchingTag';
import { pipelineOf, type CollisionPipeline, type KdopKind } from './collisionState';

/**
 * Order in which kinds are passed to the kernels (capsule first, then sphere, AABB, OBB), matching
 * the argument order of src/contacts/ (contactCapsuleSphere, contactSphereObb, ...).
 */
const KERNEL_RANK = new Uint8Array(256);
KERNEL_RANK[SHAPE_CAPSULE] = 0;
KERNEL_RANK[SHAPE_SPHERE] = 1;
KERNEL_RANK[SHAPE_AABB] = 2;
KERNEL_RANK[SHAPE_OBB] = 3;

const booleanManifold = new Float64Array(CONTACT_STRIDE); // contact kernels used as boolean tests write here
const closest = new Float64Array(CLOSEST_SEGMENTS_STRIDE + 1);
const boxAsObb = new Float64Array(OBB_STRIDE);

/** Separating axis found by the last OBB-OBB test (-1: none or not an OBB pair). */
let separatingAxis = -1;

/** The separating axis the last OBB-OBB pairTest found. */
export function lastSeparatingAxis(): number {
  return separatingAxis;
}

/** The world AABB at world[o] as an OBB with identity axes, in module scratch. */
function aabbAsObb(world: Float32Array, o: number): Float64Array {
  return obbFromAabb(boxAsObb, 0, world, o) as Float64Array;
}

/**
 * Whether collider x touches collider y (KERNEL_RANK of x <= that of y, no k-DOPs, not capsule
 * against a box): the boolean kernels, for sensors and solid colliders alike, so that the sensor
 * flag never changes the answer. `lastAxis` seeds the OBB-OBB SAT.
 */
function touches(c: ColliderStore, x: number, y: number, lastAxis: number): boolean {
  const w = c.world;
  const ox = SHAPE_STRIDE * x, oy = SHAPE_STRIDE * y;
  const ky = c.kind[y];
  switch (c.kind[x]) {
    case SHAPE_CAPSULE: {
      const r = w[ox + 6] + (ky === SHAPE_CAPSULE ? w[oy + 6] : w[oy + 3]);
      if (ky !== SHAPE_CAPSULE) return closestPtPointSegment(closest, 0, w[oy], w[oy + 1], w[oy + 2], w, ox) <= r * r;
      closestSegments(closest, 0, w, ox, w, oy);
      return closest[SEGMENTS_DISTANCE] <= r * r;
    }
    case SHAPE_SPHERE:
      if (ky === SHAPE_SPHERE) return sphereOverlap(w, ox, w, oy);
      if (ky === SHAPE_AABB) {
        const r = w[ox + 3];
        return closestPtPointAabb(closest, 0, w[ox], w[ox + 1], w[ox + 2], w, oy) <= r * r;
      }
      return obbSphereOverlap(w, oy, w, ox);
    case SHAPE_AABB:
      return ky === SHAPE_AABB ? aabbOverlap(w, ox, w, oy) : obbAabbOverlap(w, oy, w, ox);
    default:
      separatingAxis = obbSeparatingAxisCached(w, ox, w, oy, lastAxis);
      return separatingAxis < 0;
  }
}

/**
 * Contact manifold of collider x against collider y (as `touches`, which said they touch),
 * written at out[oo] with the normal from x to y; returns its point count (at least 1: every
 * contact kernel reports a point wherever its boolean counterpart reports touching).
 */
function contact(c: ColliderStore, x: number, y: number, out: Floats, oo: number): number {
  const w = c.world;
  const ox = SHAPE_STRIDE * x, oy = SHAPE_STRIDE * y;
  const ky = c.kind[y];
  switch (c.kind[x]) {
    case SHAPE_CAPSULE:
      return ky === SHAPE_CAPSULE ? contactCapsuleCapsule(out, oo, w, ox, w, oy) : contactCapsuleSphere(out, oo, w, ox, w, oy);
    case SHAPE_SPHERE:
      if (ky === SHAPE_SPHERE) return contactSphereSphere(out, oo, w, ox, w, oy);
      return ky === SHAPE_AABB ? contactSphereAabb(out, oo, w, ox, w, oy) : contactSphereObb(out, oo, w, ox, w, oy);
    case SHAPE_AABB:
      return ky === SHAPE_AABB ? contactAabbAabb(out, oo, w, ox, w, oy) : contactObbObb(out, oo, aabbAsObb(w, ox), 0, w, oy);
    default:
      return contactObbObb(out, oo, w, ox, w, oy);
  }
}

/**
 * Exact test of collider x against collider y (KERNEL_RANK of x <= that of y, no k-DOPs). With
 * `manifold`, writes the contact at out[oo] (normal from x to y) and returns its point count;
 * otherwise returns 1 or 0. Capsule against a box has no boolean kernel: its contact kernel
 * decides for sensors too (into scratch).
 */
function collide(c: ColliderStore, x: number, y: number, manifold: boolean, out: Floats, oo: number, lastAxis: number): number {
  const ky = c.kind[y];
  if (c.kind[x] === SHAPE_CAPSULE && (ky === SHAPE_AABB || ky === SHAPE_OBB)) {
    const w = c.world;
    const oy = SHAPE_STRIDE * y;
    return contactCapsuleObb(manifold ? out : booleanManifold, manifold ? oo : 0, w, SHAPE_STRIDE * x,
      ky === SHAPE_AABB ? aabbAsObb(w, oy) : w, ky === SHAPE_AABB ? 0 : oy);
  }
  if (!touches(c, x, y, lastAxis)) return 0;
  return manifold ? contact(c, x, y, out, oo) : 1;
}

/** Offset of the next contact slot (storage grown to hold it), where a kernel writes its manifold. */
export function nextContact(contacts: ContactStore): number {
  reserveContact(contacts, contacts.count);
  return contacts.count * CONTACT_STRIDE;
}

/** Keeps the manifold written at the next slot as pair (a, b). */
export function keepContact(contacts: ContactStore, a: number, b: number): void {
  contacts.a[contacts.count] = a;
  contacts.b[contacts.count] = b;
  contacts.count++;
}

/** Results of pairTest. */
export const APART = 0;
export const TOUCHING = 1;
export const TOUCHING_WITH_MANIFOLD = 2;
/** Pairs of characters and meshes: tested on the calling thread, through their installed kinds. */
export const INSTALLED_KIND = 3;

/** Whether candidate (a, b) is tested through an installed kind (a character, or a mesh against no k-DOP). */
export function isInstalledKindPair(ka: number, kb: number): boolean {
  if (ka === SHAPE_CHARACTER || kb === SHAPE_CHARACTER) return true;
  return (ka === SHAPE_MESH || kb === SHAPE_MESH) && ka !== SHAPE_KDOP && kb !== SHAPE_KDOP;
}

/**
 * Exact test of candidate (a, b) of the built-in kinds (no character; a mesh only against a
 * k-DOP): APART, TOUCHING, or TOUCHING_WITH_MANIFOLD with the manifold written at out[oo], its
 * normal from a to b. An OBB pair leaves the axis it found in `separatingAxis`. Reads only typed
 * arrays, so worker threads run it too.
 */
export function pairTest(c: ColliderStore, a: number, b: number, lastAxis: number, out: Floats, oo: number, kdop: KdopKind | undefined): number {
  const ka = c.kind[a], kb = c.kind[b];
  // A k-DOP collider exists only after addKdopCollider installed its kind.
  if (ka === SHAPE_KDOP || kb === SHAPE_KDOP) return kdop!.pairOverlap(c, a, b) ? TOUCHING : APART;
  const swap = KERNEL_RANK[kb] < KERNEL_RANK[ka];
  const x = swap ? b : a, y = swap ? a : b;
  if (c.sensor[a] === 0 && c.sensor[b] === 0) {
    if (collide(c, x, y, true, out, oo, lastAxis) === 0) return APART;
    if (swap) flipManifold(out, oo);
    return TOUCHING_WITH_MANIFOLD;
  }
  return collide(c, x, y, false, booleanManifold, 0, lastAxis) > 0 ? TOUCHING : APART;
}

/**
 * Exact test of a candidate with a character or a mesh (isInstalledKindPair), through the kind
 * its add call installed; a mesh pair's manifold goes straight to the contacts. Calling thread only.
 */
export function installedKindPair(p: CollisionPipeline, a: number, b: number): boolean {
  const c = p.collider, ka = c.kind[a], kb = c.kind[b];
  if (ka === SHAPE_CHARACTER || kb === SHAPE_CHARACTER) return p.characterKind!.pairOverlap(p, a, b);
  const meshKind = p.meshKind!;
  const mesh = ka === SHAPE_MESH ? a : b, other = mesh === a ? b : a;
  if (c.sensor[a] === 0 && c.sensor[b] === 0 && meshKind.manifoldKind(c.kind[other])) {
    // The contacts decide, like capsule-box: the normal comes out from `other` to the mesh.
    const contacts = p.contacts;
    const oo = nextContact(contacts);
    if (meshKind.pairContact(c, p.transform, other, mesh, contacts.manifold, oo) === 0) return false;
    if (mesh === a) flipManifold(contacts.manifold, oo);
    keepContact(contacts, a, b);
    return true;
  }
  return meshKind.pairOverlap(c, p.transform, a, b);
}

/** Turns a manifold computed for (y, x) into the one for (x, y): reversed normal, swapped features. */
function flipManifold(out: Floats, oo: number): void {
  for (let k = 0; k < 3; k++) out[oo + CONTACT_NORMAL + k] = -out[oo + CONTACT_NORMAL + k];
  const f = out[oo + CONTACT_FEATURE_A];
  out[oo + CONTACT_FEATURE_A] = out[oo + CONTACT_FEATURE_B];
  out[oo + CONTACT_FEATURE_B] = f;
}

/**
 * Exchanges this frame's touching pairs (and generations) with last frame's: storage swaps,
 * nothing is copied. Before the tests it makes this frame's last frame's; after a failed step it
 * undoes that, so the next step's events are relative to the last frame that completed.
 */
export function swapTouchingWithPrevious(p: CollisionPipeline): void {
  const s = p.scratch;
  s.previousTouching.swapContents(p.touchingPairs);
  const genA = s.previousGenA, genB = s.previousGenB;
  s.previousGenA = s.touchingGenA;
  s.previousGenB = s.touchingGenB;
  s.touchingGenA = genA;
  s.touchingGenB = genB;
}

/** Appends a touching pair with its entities' current generations. */
export function pushTouching(p: CollisionPipeline, a: number, b: number): void {
  const s = p.scratch;
  const i = p.touchingPairs.count;
  if (i === s.touchingGenA.length) {
    s.touchingGenA = resized(s.touchingGenA, 2 * i + 16);
    s.touchingGenB = resized(s.touchingGenB, 2 * i + 16);
  }
  p.touchingPairs.push(a, b);
  s.touchingGenA[i] = p.collider.generation[a];
  s.touchingGenB[i] = p.collider.generation[b];
}

/**
 * Begin / stay / end by a merge walk of last frame's and this frame's sorted touching pairs. A pair
 * whose entity got a new collider since (generation changed, e.g. a removed id reused) ends and
 * begins again rather than staying.
 */
function diffTouching(p: CollisionPipeline): void {
  const { begin, stay, end } = p.events;
  begin.clear();
  stay.clear();
  end.clear();
  const s = p.scratch;
  const prev = s.previousTouching, cur = p.touchingPairs;
  let i = 0, j = 0;
  while (i < prev.count || j < cur.count) {
    const pa = i < prev.count ? prev.a[i] : Infinity, pb = i < prev.count ? prev.b[i] : Infinity;
    const ca = j < cur.count ? cur.a[j] : Infinity, cb = j < cur.count ? cur.b[j] : Infinity;
    if (pa < ca || (pa === ca && pb < cb)) {
      end.push(pa, pb);
      i++;
    } else if (ca < pa || (ca === pa && cb < pb)) {
      begin.push(ca, cb);
      j++;
    } else {
      if (s.previousGenA[i] === s.touchingGenA[j] && s.previousGenB[i] === s.touchingGenB[j]) {
        stay.push(ca, cb);
      } else {
        end.push(pa, pb);
        begin.push(ca, cb);
      }
      i++;
      j++;
    }
  }
}

/** System: exact tests of the candidates, then contacts, touching pairs and events. Allocation-free in steady state. */
export function narrowPhase(world: World): World {
  const p = pipelineOf(world, 'narrowPhase');
  const c = p.collider;
  const s = p.scratch;
  const cand = p.candidates;
  const contacts = p.contacts;
  swapTouchingWithPrevious(p);
  p.touchingPairs.clear();
  contacts.count = 0;
  p.hitboxPairs.count = 0;
  const parallel = p.parallel;
  if (parallel !== undefined && cand.count >= parallel.minNarrow) {
    parallel.narrowTests(p);
    return finishNarrowPhase(p, world);
  }
  const prevAxisPairs = s.axisPairs;
  const prevAxis = s.axisOfPair;
  const nextAxisPairs = s.nextAxisPairs;
  nextAxisPairs.clear();
  let j = 0;
  for (let i = 0; i < cand.count; i++) {
    const a = cand.a[i], b = cand.b[i];
    const ka = c.kind[a], kb = c.kind[b];
    let touching: boolean;
    // A character or mesh collider exists only after its add call installed its kind's tests.
    if (isInstalledKindPair(ka, kb)) {
      touching = installedKindPair(p, a, b);
    } else {
      let lastAxis = -1;
      const obbPair = ka === SHAPE_OBB && kb === SHAPE_OBB;
      if (obbPair) {
        // Both lists are sorted: advance the cache to the first entry >= (a, b).
        const pf = prevAxisPairs.a, ps = prevAxisPairs.b;
        while (j < prevAxisPairs.count && (pf[j] < a || (pf[j] === a && ps[j] < b))) j++;
        if (j < prevAxisPairs.count && pf[j] === a && ps[j] === b) lastAxis = prevAxis[j];
      }
      const oo = nextContact(contacts);
      const result = pairTest(c, a, b, lastAxis, contacts.manifold, oo, p.kdopKind);
      if (result === TOUCHING_WITH_MANIFOLD) keepContact(contacts, a, b);
      touching = result !== APART;
      if (obbPair) {
        const n = nextAxisPairs.count;
        if (n === s.nextAxisOfPair.length) s.nextAxisOfPair = resized(s.nextAxisOfPair, 2 * n + 16);
        nextAxisPairs.push(a, b);
        s.nextAxisOfPair[n] = separatingAxis;
      }
    }
    if (touching) pushTouching(p, a, b);
  }
  // This frame's axes become next frame's cache.
  s.axisPairs = nextAxisPairs;
  s.nextAxisPairs = prevAxisPairs;
  const axes = s.axisOfPair;
  s.axisOfPair = s.nextAxisOfPair;
  s.nextAxisOfPair = axes;
  return finishNarrowPhase(p, world);
}

/** Events and tags from this frame's touching pairs. */
function finishNarrowPhase(p: CollisionPipeline, world: World): World {
  diffTouching(p);
  if (p.touchingTag !== undefined) updateTouchingTag(p, p.touchingTag);
  p.frame++;
  return world;
}
