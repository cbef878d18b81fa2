/**
 * Hitbox pairs of one frame: which hitbox of a character collider touches which other collider.
 * Pooled like the contact store: reused every frame, grown on demand.
 */
import { resized } from './capacity';

/** Touching hitbox-level pairs of one frame, sorted like the touching pairs; pooled. */
export interface HitboxPairStore {
  /** Number of pairs this frame. */
  count: number;
  /** Entity a of each pair (a < b), as in `touchingPairs`. */
  a: Uint32Array;
  /** Entity b of each pair. */
  b: Uint32Array;
  /** Hitbox index (into the HitboxStore) on a's side, -1 when a is not a character. */
  hitboxA: Int32Array;
  /** Hitbox index on b's side, -1 when b is not a character. */
  hitboxB: Int32Array;
}

/** An empty hitbox pair store. */
export function createHitboxPairStore(capacity = 64): HitboxPairStore {
  return { count: 0, a: new Uint32Array(capacity), b: new Uint32Array(capacity), hitboxA: new Int32Array(capacity), hitboxB: new Int32Array(capacity) };
}

/** Appends a hitbox pair, growing the arrays (doubling) when full. */
export function pushHitboxPair(store: HitboxPairStore, a: number, b: number, ha: number, hb: number): void {
  const i = store.count;
  if (i === store.a.length) {
    const n = 2 * i + 16;
    store.a = resized(store.a, n);
    store.b = resized(store.b, n);
    store.hitboxA = resized(store.hitboxA, n);
    store.hitboxB = resized(store.hitboxB, n);
  }
  store.a[i] = a;
  store.b[i] = b;
  store.hitboxA[i] = ha;
  store.hitboxB[i] = hb;
  store.count = i + 1;
}

