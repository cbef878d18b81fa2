/**
 * Per-frame contact output: one manifold per touching non-sensor pair, in ascending (a, b) order.
 * Pooled: the arrays are reused every frame and only grow. Read with plain loops:
 *
 * ```ts
 * for (let i = 0; i < contacts.count; i++) {
 *   const a = contacts.a[i], b = contacts.b[i], m = i * CONTACT_STRIDE;
 *   const nx = contacts.manifold[m + CONTACT_NORMAL]; // normal from a to b
 *   const depth = contacts.manifold[m + CONTACT_DEPTH];
 *   const points = contacts.manifold[m + CONTACT_COUNT]; // then CONTACT_POINTS...
 * }
 * ```
 * The manifold layout is src/contacts/manifold.ts's (CONTACT_* offsets).
 */
import { CONTACT_STRIDE } from '../src/contacts/manifold';
import { resized } from './capacity';

/** Contacts of one frame. */
export interface ContactStore {
  /** Number of contacts this frame. */
  count: number;
  /** Entity a (the smaller id) of each contact. */
  a: Uint32Array;
  /** Entity b (the larger id) of each contact. */
  b: Uint32Array;
  /** Manifolds, stride CONTACT_STRIDE: normal from a to b, depth, point count, features, points. */
  manifold: Float32Array;
}

/** Creates an empty contact store. */
export function createContactStore(capacity = 64): ContactStore {
  return {
    count: 0,
    a: new Uint32Array(capacity),
    b: new Uint32Array(capacity),
    manifold: new Float32Array(capacity * CONTACT_STRIDE),
  };
}

/** Makes room for contact index `i` (doubling). */
export function reserveContact(store: ContactStore, i: number): void {
  if (i < store.a.length) return;
  const n = Math.max(2 * store.a.length, i + 1);
  store.a = resized(store.a, n);
  store.b = resized(store.b, n);
  store.manifold = resized(store.manifold, n * CONTACT_STRIDE);
}
