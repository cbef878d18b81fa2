/**
 * The narrow phase on the worker pool: each thread tests a run of the candidates into their
 * flags and manifold slots (narrowRange), then the calling thread walks the candidates in order
 * and builds the same contacts and touching pairs the single-thread loop builds.
 */
import { CONTACT_STRIDE } from '../../src/contacts/manifold';
import { SHAPE_OBB, type ColliderStore } from '../../components/collider';
import type { CollisionPipeline, KdopKind } from '../collisionState';
import {
  APART, INSTALLED_KIND, TOUCHING_WITH_MANIFOLD, installedKindPair, isInstalledKindPair, keepContact, lastSeparatingAxis, nextContact, pairTest, pushTouching,
  swapTouchingWithPrevious,
} from '../narrowPhase';
import { reserveNarrowBuffers, shareNarrowBuffers, shareStores, type NarrowBuffers } from './narrowBuffers';
import type { WorkerPool } from './pool';
import { JOB_NARROW } from './protocol';

/** First index of the sorted pairs (a[i], b[i]), i < count, that is >= (x, y). */
function lowerBoundPair(a: Uint32Array, b: Uint32Array, count: number, x: number, y: number): number {
  let lo = 0, hi = count;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (a[mid] < x || (a[mid] === x && b[mid] < y)) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/**
 * Tests candidates [from, to) of the current set of `nb` into their flags and manifold slots:
 * one thread's part of the narrow phase. Characters and meshes are flagged INSTALLED_KIND, for
 * the calling thread.
 */
export function narrowRange(c: ColliderStore, nb: NarrowBuffers, from: number, to: number, kdop: KdopKind | undefined): void {
  const cur = nb.current;
  const ca = cur === 0 ? nb.a0 : nb.a1, cb = cur === 0 ? nb.b0 : nb.b1, axis = cur === 0 ? nb.axis0 : nb.axis1;
  const pa = cur === 0 ? nb.a1 : nb.a0, pb = cur === 0 ? nb.b1 : nb.b0, prevAxis = cur === 0 ? nb.axis1 : nb.axis0;
  const prevCount = nb.previousCount, flags = nb.flags, manifolds = nb.manifolds;
  let j = from < to ? lowerBoundPair(pa, pb, prevCount, ca[from], cb[from]) : 0;
  for (let i = from; i < to; i++) {
    const a = ca[i], b = cb[i];
    const ka = c.kind[a], kb = c.kind[b];
    axis[i] = -1;
    if (isInstalledKindPair(ka, kb)) {
      flags[i] = INSTALLED_KIND;
      continue;
    }
    let lastAxis = -1;
    const obbPair = ka === SHAPE_OBB && kb === SHAPE_OBB;
    if (obbPair) {
      while (j < prevCount && (pa[j] < a || (pa[j] === a && pb[j] < b))) j++;
      if (j < prevCount && pa[j] === a && pb[j] === b) lastAxis = prevAxis[j];
    }
    flags[i] = pairTest(c, a, b, lastAxis, manifolds, i * CONTACT_STRIDE, kdop);
    if (obbPair) axis[i] = lastSeparatingAxis();
  }
}

/**
 * The narrow phase's tests on the worker pool: this frame's candidates into the current set, the
 * tests split between the threads, then, on this thread in candidate order, the installed kinds'
 * pairs, the contacts and the touching pairs, exactly as the single-thread loop makes them.
 */
export function parallelNarrowTests(p: CollisionPipeline, pool: WorkerPool, nb: NarrowBuffers): void {
  const cand = p.candidates, n = cand.count;
  const previous = nb.current;
  nb.current = 1 - previous;
  reserveNarrowBuffers(nb, n);
  const ca = nb.current === 0 ? nb.a0 : nb.a1, cb = nb.current === 0 ? nb.b0 : nb.b1;
  ca.set(cand.a.subarray(0, n));
  cb.set(cand.b.subarray(0, n));
  const c = p.collider;
  shareStores(pool, c, p.transform);
  shareNarrowBuffers(pool, nb);
  try {
    pool.runClaimed(JOB_NARROW, n, p.aabbMargin, nb.current, nb.previousCount, (from, to) => narrowRange(c, nb, from, to, p.kdopKind));
  } catch (error) {
    nb.current = previous; // last frame's set stays the axis cache
    swapTouchingWithPrevious(p);
    throw error;
  }
  nb.previousCount = n;
  const contacts = p.contacts, flags = nb.flags, slots = nb.manifolds;
  for (let i = 0; i < n; i++) {
    const a = ca[i], b = cb[i];
    const flag = flags[i];
    let touching = flag !== APART;
    if (flag === INSTALLED_KIND) {
      touching = installedKindPair(p, a, b);
    } else if (flag === TOUCHING_WITH_MANIFOLD) {
      const oo = nextContact(contacts), so = i * CONTACT_STRIDE, out = contacts.manifold;
      for (let k = 0; k < CONTACT_STRIDE; k++) out[oo + k] = slots[so + k];
      keepContact(contacts, a, b);
    }
    if (touching) pushTouching(p, a, b);
  }
}

