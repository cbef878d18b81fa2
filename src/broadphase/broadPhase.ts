/**
 * The broad-phase contract shared by every algorithm in this folder: what a frame's input looks
 * like, what a pair list must contain, and the one pair filter every algorithm applies, so all
 * algorithms report exactly the same pairs as the brute-force reference.
 */
import { CollideInputError } from '../errors';
import { MAX_PROXY_ID, type PairList } from './pairList';

export { MAX_PROXY_ID };

/** One frame of proxies, read through ids; every by-id array is indexed by the proxy id. */
export interface BroadPhaseInput {
  /** Proxy ids (entity ids < 2^24), `count` of them, unique, any order. */
  ids: ArrayLike<number>;
  /** Number of proxies (valid entries of `ids`). */
  count: number;
  /** World AABBs in min-max layout, stride 6, proxy id's box at boxes[id * 6]. */
  boxes: ArrayLike<number>;
  /** By id: 1 = static collider (static-static pairs are never reported), 0 = dynamic. */
  isStatic: ArrayLike<number>;
  /** By id: collision layer bits (uint32). A pair (a, b) is kept when (layer[a] & mask[b]) !== 0 && (layer[b] & mask[a]) !== 0. */
  layer: ArrayLike<number>;
  /** By id: collision mask bits (uint32): the layers it collides with. */
  mask: ArrayLike<number>;
}

/** A broad-phase algorithm instance (may keep state between frames). */
export interface BroadPhase {
  /** The algorithm's name, as accepted by `resolveBroadPhase`. */
  readonly name: string;
  /**
   * Writes into `out` (after clearing it) exactly the pairs whose closed AABBs overlap, filtered
   * by `acceptPair`, each once with a < b, sorted ascending by (a, b). Stateful algorithms keep
   * state between calls and cope with ids appearing and disappearing between calls and with
   * boxes moving arbitrarily.
   */
  findPairs(input: BroadPhaseInput, out: PairList): void;
  /** Forget all state (e.g. a world reset). */
  clear(): void;
}

/**
 * The pair filter every algorithm applies (geometry aside): never static against static, and
 * each proxy's layer must be in the other's mask.
 */
export function acceptPair(input: BroadPhaseInput, a: number, b: number): boolean {
  return (
    !(input.isStatic[a] === 1 && input.isStatic[b] === 1) &&
    (input.layer[a] & input.mask[b]) !== 0 &&
    (input.layer[b] & input.mask[a]) !== 0
  );
}

/** Pushes (min, max) of two distinct ids when `acceptPair` keeps them; geometry is the caller's test. */
export function reportPair(input: BroadPhaseInput, out: PairList, a: number, b: number): void {
  if (!acceptPair(input, a, b)) return;
  if (a < b) out.push(a, b);
  else out.push(b, a);
}

/** Largest id among the input's proxies, or -1 when there are none. */
export function maxProxyId(input: BroadPhaseInput): number {
  let m = -1;
  const ids = input.ids;
  for (let i = 0; i < input.count; i++) if (ids[i] > m) m = ids[i];
  return m;
}

/**
 * Validates a frame's input (an O(n) check for debugging and for the boundary where colliders
 * are added; `findPairs` itself trusts its input): ids are unique integers in [0, 2^24), the
 * arrays are long enough, boxes are finite with min <= max.
 */
export function assertBroadPhaseInput(input: BroadPhaseInput): void {
  const { ids, count, boxes } = input;
  if (!Number.isInteger(count) || count < 0 || count > ids.length) {
    throw new CollideInputError(`broad phase: count ${count} must be an integer in [0, ids.length = ${ids.length}]`);
  }
  const seen = new Set<number>();
  for (let i = 0; i < count; i++) {
    const id = ids[i];
    if (!Number.isInteger(id) || id < 0 || id >= MAX_PROXY_ID) {
      throw new CollideInputError(`broad phase: ids[${i}] = ${id} is not an integer in [0, 2^24)`);
    }
    if (seen.has(id)) throw new CollideInputError(`broad phase: id ${id} appears twice`);
    seen.add(id);
    if (boxes.length < id * 6 + 6) throw new CollideInputError(`broad phase: boxes has no box for id ${id}`);
    for (const [name, arr] of [['isStatic', input.isStatic], ['layer', input.layer], ['mask', input.mask]] as const) {
      if (arr.length <= id) throw new CollideInputError(`broad phase: ${name} has no entry for id ${id}`);
    }
    for (let k = 0; k < 3; k++) {
      const lo = boxes[id * 6 + k];
      const hi = boxes[id * 6 + 3 + k];
      if (!Number.isFinite(lo) || !Number.isFinite(hi)) {
        throw new CollideInputError(`broad phase: box of id ${id} has a non-finite coordinate on axis ${k}`);
      }
      if (lo > hi) throw new CollideInputError(`broad phase: box of id ${id} has min > max on axis ${k} (${lo} > ${hi})`);
    }
  }
}

/**
 * Next per-frame stamp for "seen this frame" arrays indexed by id. On wrap-around, stale stamps
 * could equal the new number, so the array is reset and counting restarts at 1.
 */
export function nextFrameStamp(stamp: number, stamps: Uint32Array): number {
  const next = (stamp + 1) >>> 0;
  if (next !== 0) return next;
  stamps.fill(0);
  return 1;
}
