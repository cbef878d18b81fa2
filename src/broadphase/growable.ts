/**
 * Pooled typed-array growth shared by the broad phases: arrays only ever grow (by doubling, so
 * growth is amortised and steady state allocates nothing) and keep their contents.
 */

import { allocateLike, type SharableArray } from '../sharedMemory';

/**
 * Returns `arr` if it holds at least `minLength` elements, else a copy grown to the next doubling
 * (at least `minLength`), filled with `fill` beyond the old contents; shared when `arr` is.
 */
export function grown<T extends SharableArray>(arr: T, minLength: number, fill = 0): T {
  if (arr.length >= minLength) return arr;
  let n = Math.max(16, arr.length);
  while (n < minLength) n *= 2;
  const next = allocateLike(arr, n);
  next.set(arr as never);
  if (fill !== 0) next.fill(fill, arr.length);
  return next;
}
