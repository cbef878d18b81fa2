/**
 * "What does entity e touch now?" and "what are its contacts?" over the narrow phase's sorted
 * lists: e's pairs as the smaller id form one run of the list (binary search); its pairs as the
 * larger id form one run of a reversed list (b, a), or (b, contact index) for contacts, built and
 * sorted once per frame, on the first query.
 */
import type { World } from 'bitecs';
import type { PairList } from '../src/broadphase/pairList';
import { pipelineOf, type CollisionPipeline } from './collisionState';
import { assertEntityId } from '../components/capacity';
import { CollideInputError, valueName } from '../src/errors';

/** Throws CollideInputError unless `eid` is an entity id and `out` an array (a query's arguments). */
function assertQuery(eid: number, out: unknown, caller: string): void {
  assertEntityId(eid, caller);
  if (!Array.isArray(out)) throw new CollideInputError(`${caller}: out must be an array to fill, got ${valueName(out)}`);
}

/** Appends the second ids of the run of pairs whose first id is `eid`. */
function appendRun(list: PairList, eid: number, out: number[]): void {
  for (let i = lowerBoundIds(list.a, list.count, eid); i < list.count && list.a[i] === eid; i++) out.push(list.b[i]);
}

/**
 * Writes into `out` (after emptying it) the entities touching `eid` in the last narrow phase,
 * ascending, and returns `out`. Reuse one `out` array: steady state allocates nothing.
 */
export function touching(target: World | CollisionPipeline, eid: number, out: number[]): number[] {
  const p = pipelineOf(target, 'touching');
  assertQuery(eid, out, 'touching');
  const s = p.scratch;
  out.length = 0;
  if (s.reversedFrame !== p.frame) {
    const pairs = p.touchingPairs;
    const reversed = s.reversedTouching;
    reversed.clear();
    for (let i = 0; i < pairs.count; i++) reversed.push(pairs.b[i], pairs.a[i]);
    reversed.sort();
    s.reversedFrame = p.frame;
  }
  appendRun(s.reversedTouching, eid, out); // partners with smaller ids
  appendRun(p.touchingPairs, eid, out); // partners with larger ids
  return out;
}

/** First index of the sorted ids `a` (count entries) that is >= eid. */
function lowerBoundIds(a: Uint32Array, count: number, eid: number): number {
  let lo = 0, hi = count;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (a[mid] < eid) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/**
 * Writes into `out` (after emptying it) the indices into `collision.contacts` of the contacts of
 * entity `eid` in the last narrow phase, ascending, and returns `out`; the manifold of contact i
 * is at `contacts.manifold[i * CONTACT_STRIDE]`, its normal pointing from contacts.a[i] to
 * contacts.b[i]. No scan of all contacts: a binary search for e's contacts as the smaller id, and
 * a reversed index, built once per frame on the first call, for the rest. Reuse one `out` array:
 * steady state allocates nothing.
 */
export function contactsOf(target: World | CollisionPipeline, eid: number, out: number[]): number[] {
  const p = pipelineOf(target, 'contactsOf');
  assertQuery(eid, out, 'contactsOf');
  const s = p.scratch, contacts = p.contacts;
  out.length = 0;
  if (s.reversedContactsFrame !== p.frame) {
    const reversed = s.reversedContacts;
    reversed.clear();
    for (let i = 0; i < contacts.count; i++) reversed.push(contacts.b[i], i);
    reversed.sort();
    s.reversedContactsFrame = p.frame;
  }
  // Two ascending runs of contact indices, merged: e as b (the reversed index), e as a.
  const reversed = s.reversedContacts, ids = contacts.a;
  let r = lowerBoundIds(reversed.a, reversed.count, eid);
  let i = lowerBoundIds(ids, contacts.count, eid);
  while (r < reversed.count && reversed.a[r] === eid) {
    const asB = reversed.b[r];
    if (i < contacts.count && ids[i] === eid && i < asB) out.push(i++);
    else {
      out.push(asB);
      r++;
    }
  }
  for (; i < contacts.count && ids[i] === eid; i++) out.push(i);
  return out;
}
