/**
 * In-place, allocation-free sort of parallel arrays (keys, tags) ascending by (key, tag): a
 * quicksort with median-of-three pivots that recurses into the smaller side (so the depth stays
 * logarithmic) and finishes short runs by insertion sort. With unique tags the order is total,
 * so the result is deterministic. Also a quickselect on the same arrays (medians for cell sizes
 * and tree splits).
 */

/** Runs shorter than this are finished by insertion sort. */
const SHORT_RUN = 16;

function less(keys: Float64Array, tags: Int32Array, i: number, key: number, tag: number): boolean {
  const k = keys[i];
  return k < key || (k === key && tags[i] < tag);
}

function swap(keys: Float64Array, tags: Int32Array, i: number, j: number): void {
  const k = keys[i];
  keys[i] = keys[j];
  keys[j] = k;
  const t = tags[i];
  tags[i] = tags[j];
  tags[j] = t;
}

/**
 * Insertion sort of [lo, hi) that gives up after `maxShifts` element moves (leaving a permutation
 * of the input) and returns false then; true when sorted. Linear on nearly sorted input.
 */
export function insertionSortByKey(keys: Float64Array, tags: Int32Array, lo: number, hi: number, maxShifts: number): boolean {
  let shifts = 0;
  for (let i = lo + 1; i < hi; i++) {
    const key = keys[i];
    const tag = tags[i];
    let j = i - 1;
    if (!(keys[j] > key || (keys[j] === key && tags[j] > tag))) continue;
    while (j >= lo && (keys[j] > key || (keys[j] === key && tags[j] > tag))) {
      keys[j + 1] = keys[j];
      tags[j + 1] = tags[j];
      j--;
    }
    keys[j + 1] = key;
    tags[j + 1] = tag;
    shifts += i - 1 - j;
    if (shifts > maxShifts) return false;
  }
  return true;
}

/**
 * Hoare partition of [lo, hi) around the pivot at lo; returns the pivot's final index, with no
 * larger element before it and no smaller after it.
 */
function partition(keys: Float64Array, tags: Int32Array, lo: number, hi: number): number {
  const pk = keys[lo];
  const pt = tags[lo];
  let i = lo;
  let j = hi;
  for (;;) {
    do i++; while (i < hi && less(keys, tags, i, pk, pt));
    do j--; while (keys[j] > pk || (keys[j] === pk && tags[j] > pt));
    if (i >= j) break;
    swap(keys, tags, i, j);
  }
  swap(keys, tags, lo, j);
  return j;
}

/** Moves the median of three (lo, middle, last) to lo, as the partition pivot. */
function medianOfThreeToFront(keys: Float64Array, tags: Int32Array, lo: number, hi: number): void {
  const mid = (lo + hi) >>> 1;
  const last = hi - 1;
  if (less(keys, tags, mid, keys[lo], tags[lo])) swap(keys, tags, mid, lo);
  if (less(keys, tags, last, keys[lo], tags[lo])) swap(keys, tags, last, lo);
  if (less(keys, tags, last, keys[mid], tags[mid])) swap(keys, tags, last, mid);
  swap(keys, tags, lo, mid);
}

/** Sorts [lo, hi) of the parallel arrays ascending by (key, tag). */
export function sortByKey(keys: Float64Array, tags: Int32Array, lo: number, hi: number): void {
  while (hi - lo > SHORT_RUN) {
    medianOfThreeToFront(keys, tags, lo, hi);
    const j = partition(keys, tags, lo, hi);
    // Recurse into the smaller part, loop on the larger.
    if (j - lo < hi - j - 1) {
      sortByKey(keys, tags, lo, j);
      lo = j + 1;
    } else {
      sortByKey(keys, tags, j + 1, hi);
      hi = j;
    }
  }
  insertionSortByKey(keys, tags, lo, hi, Infinity);
}

/**
 * Partially orders [lo, hi) so that position k holds the element a full sort would put there,
 * with no smaller element after it and no larger before it (quickselect, median-of-three).
 */
export function selectByKey(keys: Float64Array, tags: Int32Array, lo: number, hi: number, k: number): void {
  while (hi - lo > SHORT_RUN) {
    medianOfThreeToFront(keys, tags, lo, hi);
    const j = partition(keys, tags, lo, hi);
    if (j === k) return;
    if (k < j) hi = j;
    else lo = j + 1;
  }
  insertionSortByKey(keys, tags, lo, hi, Infinity);
}
