/**
 * Box queries against a broad phase's structure of its last frame: which proxies' boxes meet a
 * query box. World queries (overlap queries, shape casts) use them to visit a few proxies instead
 * of all; a broad phase that keeps no spatial structure between frames has none, and its pipeline
 * keeps a query grid of its own (spatialHash.ts `QueryGrid`).
 */
import { grown } from './growable';

/** A pooled list of ids: the first `count` of `ids` (grown by doubling, never shrunk). */
export class IdList {
  /** The ids; entries past `count` are scratch. */
  ids = new Int32Array(64);
  /** How many ids the list holds. */
  count = 0;

  /** Appends `id`, growing `ids` when full. */
  push(id: number): void {
    if (this.count === this.ids.length) this.ids = grown(this.ids, this.count + 1);
    this.ids[this.count++] = id;
  }
}

/** A broad phase that answers box queries over the proxies of its last `findPairs`. */
export interface BoxQueryable {
  /**
   * Appends to `out` the ids of the proxies of the last `findPairs` whose closed box in `boxes`
   * (the boxes array of that frame's input, read now) meets the box at query[qo] (min-max), each
   * once, in any order. Proxies moved since that frame may be missed or reported for their old place.
   */
  queryBox(boxes: ArrayLike<number>, query: ArrayLike<number>, qo: number, out: IdList): void;
  /**
   * Side of the finest cells that hold boxes (Infinity when none): a box query about that size
   * looks up a few columns per level. Shape casts cut their motion into legs of about this length.
   */
  queryCell(): number;
}

/** Whether the broad phase answers box queries. */
export function isBoxQueryable(b: object): b is BoxQueryable {
  return typeof (b as Partial<BoxQueryable>).queryBox === 'function';
}

/** In-place ascending sort of ids[0..count) (insertion sort for short runs, else heapsort: no allocation). */
export function sortIds(ids: Int32Array, count: number): void {
  if (count <= 24) {
    for (let i = 1; i < count; i++) {
      const v = ids[i];
      let j = i - 1;
      for (; j >= 0 && ids[j] > v; j--) ids[j + 1] = ids[j];
      ids[j + 1] = v;
    }
    return;
  }
  for (let i = (count >> 1) - 1; i >= 0; i--) siftDown(ids, i, count);
  for (let end = count - 1; end > 0; end--) {
    const top = ids[0];
    ids[0] = ids[end];
    ids[end] = top;
    siftDown(ids, 0, end);
  }
}

function siftDown(ids: Int32Array, i: number, n: number): void {
  const v = ids[i];
  for (;;) {
    let child = 2 * i + 1;
    if (child >= n) break;
    if (child + 1 < n && ids[child + 1] > ids[child]) child++;
    if (ids[child] <= v) break;
    ids[i] = ids[child];
    i = child;
  }
  ids[i] = v;
}
