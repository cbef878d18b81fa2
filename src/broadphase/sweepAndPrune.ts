/**
 * Sweep and prune on one axis with persistent endpoint arrays. Endpoints (box minima and maxima
 * on the sweep axis) are kept sorted between frames; with small motion they are nearly sorted, so
 * re-sorting by insertion is close to linear. Churn is handled by compacting out removed proxies
 * and merging the (sorted) new ones. The sweep then walks the endpoints keeping the boxes whose
 * interval is open, testing the full box only for pairs that overlap on the sweep axis.
 *
 * The sweep axis is the one of largest variance of box centres (fewest overlaps on it); it is only
 * changed when another axis is clearly better, so a scene hovering between two axes does not
 * trigger a full re-sort every frame.
 */
import { maxProxyId, reportPair, type BroadPhase, type BroadPhaseInput, nextFrameStamp } from './broadPhase';
import { grown } from './growable';
import type { PairList } from './pairList';
import { insertionSortByKey, sortByKey } from './sortByKey';

/** Options of `createSweepAndPrune`. */
export interface SweepAndPruneOptions {
  /** Switch the sweep axis when another axis's centre variance exceeds the current one's by this factor (default 1.5). */
  axisSwitchRatio?: number;
  /** Insertion sort gives up (and a full sort runs) after this many moves per endpoint (default 8): bounds the cost of large motion. */
  insertionShiftsPerEndpoint?: number;
}

/** Tag bit marking a maximum endpoint; above every id so that at equal values minima sort first (closed intervals touch). */
const MAX_ENDPOINT = 1 << 24;
const ID_MASK = MAX_ENDPOINT - 1;

/** Creates a sweep-and-prune broad phase with persistent, incrementally sorted endpoints. */
export function createSweepAndPrune(options: SweepAndPruneOptions = {}): BroadPhase {
  const axisSwitchRatio = options.axisSwitchRatio ?? 1.5;
  const shiftsPerEndpoint = options.insertionShiftsPerEndpoint ?? 8;
  if (!(axisSwitchRatio >= 1)) throw new RangeError(`sweepAndPrune: axisSwitchRatio must be >= 1, got ${axisSwitchRatio}`);
  if (!(shiftsPerEndpoint >= 0)) {
    throw new RangeError(`sweepAndPrune: insertionShiftsPerEndpoint must be >= 0, got ${shiftsPerEndpoint}`);
  }

  let axis = -1;
  let frame = 0;
  // Sorted endpoints: value on the sweep axis, tag = id | MAX_ENDPOINT for maxima.
  let values = new Float64Array(0);
  let tags = new Int32Array(0);
  let mergeValues = new Float64Array(0);
  let mergeTags = new Int32Array(0);
  let endCount = 0;
  // By id: frame in which the id was last seen; whether it has endpoints; its slot in `active`.
  let seenFrame = new Uint32Array(0);
  let present = new Uint8Array(0);
  let activeSlot = new Int32Array(0);
  let active = new Int32Array(0);
  let activeBox = new Float64Array(0); // per open slot: min u, max u, min v, max v (the two non-sweep axes)

  function ensureIdCapacity(maxId: number): void {
    seenFrame = grown(seenFrame, maxId + 1);
    present = grown(present, maxId + 1);
    activeSlot = grown(activeSlot, maxId + 1);
  }

  function ensureEndpointCapacity(n: number): void {
    values = grown(values, n);
    tags = grown(tags, n);
    mergeValues = grown(mergeValues, n);
    mergeTags = grown(mergeTags, n);
  }

  /** Axis of largest centre variance, keeping the current one unless beaten by the switch ratio. */
  function chooseAxis(input: BroadPhaseInput): number {
    const { ids, count, boxes } = input;
    if (count === 0) return axis < 0 ? 0 : axis;
    // Shifted sums (relative to the first centre) keep the variance accurate far from the origin.
    const o = ids[0] * 6;
    const rx = boxes[o] + boxes[o + 3];
    const ry = boxes[o + 1] + boxes[o + 4];
    const rz = boxes[o + 2] + boxes[o + 5];
    let sx = 0, sy = 0, sz = 0, qx = 0, qy = 0, qz = 0;
    for (let i = 0; i < count; i++) {
      const b = ids[i] * 6;
      const x = boxes[b] + boxes[b + 3] - rx;
      const y = boxes[b + 1] + boxes[b + 4] - ry;
      const z = boxes[b + 2] + boxes[b + 5] - rz;
      sx += x; sy += y; sz += z;
      qx += x * x; qy += y * y; qz += z * z;
    }
    const vx = qx - (sx * sx) / count;
    const vy = qy - (sy * sy) / count;
    const vz = qz - (sz * sz) / count;
    const best = vx >= vy && vx >= vz ? 0 : vy >= vz ? 1 : 2;
    if (axis < 0) return best;
    const current = axis === 0 ? vx : axis === 1 ? vy : vz;
    const bestVariance = best === 0 ? vx : best === 1 ? vy : vz;
    return bestVariance > axisSwitchRatio * current ? best : axis;
  }

  /** Drops endpoints of ids absent this frame and refreshes the others' values; returns the kept count. */
  function compact(boxes: ArrayLike<number>): number {
    let kept = 0;
    for (let i = 0; i < endCount; i++) {
      const tag = tags[i];
      const id = tag & ID_MASK;
      if (seenFrame[id] !== frame) {
        present[id] = 0;
        continue;
      }
      values[kept] = boxes[id * 6 + axis + (tag & MAX_ENDPOINT ? 3 : 0)];
      tags[kept] = tag;
      kept++;
    }
    return kept;
  }

  /** Merges the sorted runs [0, split) and [split, endCount) through the merge buffers. */
  function mergeRuns(split: number): void {
    let i = 0;
    let j = split;
    let k = 0;
    while (i < split && j < endCount) {
      if (values[j] < values[i] || (values[j] === values[i] && tags[j] < tags[i])) {
        mergeValues[k] = values[j];
        mergeTags[k++] = tags[j++];
      } else {
        mergeValues[k] = values[i];
        mergeTags[k++] = tags[i++];
      }
    }
    while (i < split) {
      mergeValues[k] = values[i];
      mergeTags[k++] = tags[i++];
    }
    while (j < endCount) {
      mergeValues[k] = values[j];
      mergeTags[k++] = tags[j++];
    }
    const v = values;
    values = mergeValues;
    mergeValues = v;
    const t = tags;
    tags = mergeTags;
    mergeTags = t;
  }

  /** Brings the endpoint arrays in line with this frame's ids and boxes, sorted. */
  function updateEndpoints(input: BroadPhaseInput): void {
    const { ids, count, boxes } = input;
    for (let i = 0; i < count; i++) seenFrame[ids[i]] = frame;
    const newAxis = chooseAxis(input);
    const axisChanged = newAxis !== axis;
    axis = newAxis;
    const kept = compact(boxes);
    ensureEndpointCapacity(2 * count);
    endCount = kept;
    for (let i = 0; i < count; i++) {
      const id = ids[i];
      if (present[id]) continue;
      present[id] = 1;
      const b = id * 6 + axis;
      values[endCount] = boxes[b];
      tags[endCount++] = id;
      values[endCount] = boxes[b + 3];
      tags[endCount++] = id | MAX_ENDPOINT;
    }
    if (axisChanged) {
      sortByKey(values, tags, 0, endCount);
      return;
    }
    if (!insertionSortByKey(values, tags, 0, kept, shiftsPerEndpoint * kept)) sortByKey(values, tags, 0, kept);
    if (endCount > kept) {
      sortByKey(values, tags, kept, endCount);
      mergeRuns(kept);
    }
  }

  /**
   * Walks the sorted endpoints keeping the open intervals. Every open box already overlaps the
   * new one on the sweep axis (its minimum came first and its maximum has not come yet), so only
   * the other two axes are tested, on a packed copy of the open boxes for cache locality.
   */
  function sweep(input: BroadPhaseInput, out: PairList): void {
    const boxes = input.boxes;
    const u = (axis + 1) % 3;
    const v = (axis + 2) % 3;
    let activeCount = 0;
    for (let i = 0; i < endCount; i++) {
      const tag = tags[i];
      const id = tag & ID_MASK;
      if (tag & MAX_ENDPOINT) {
        // Swap-remove from the open set.
        const slot = activeSlot[id];
        const last = --activeCount;
        const moved = active[last];
        active[slot] = moved;
        activeSlot[moved] = slot;
        activeBox.copyWithin(slot * 4, last * 4, last * 4 + 4);
        continue;
      }
      const o = id * 6;
      const minU = boxes[o + u];
      const maxU = boxes[o + 3 + u];
      const minV = boxes[o + v];
      const maxV = boxes[o + 3 + v];
      for (let k = 0; k < activeCount; k++) {
        const b = k * 4;
        if (activeBox[b] <= maxU && minU <= activeBox[b + 1] && activeBox[b + 2] <= maxV && minV <= activeBox[b + 3]) {
          reportPair(input, out, id, active[k]);
        }
      }
      activeSlot[id] = activeCount;
      active[activeCount] = id;
      const b = activeCount * 4;
      activeBox[b] = minU;
      activeBox[b + 1] = maxU;
      activeBox[b + 2] = minV;
      activeBox[b + 3] = maxV;
      activeCount++;
    }
  }

  return {
    name: 'sweepAndPrune',
    findPairs(input: BroadPhaseInput, out: PairList): void {
      out.clear();
      frame = nextFrameStamp(frame, seenFrame);
      ensureIdCapacity(maxProxyId(input));
      active = grown(active, input.count);
      activeBox = grown(activeBox, 4 * input.count);
      updateEndpoints(input);
      sweep(input, out);
      out.sort();
    },
    clear(): void {
      axis = -1;
      endCount = 0;
      present.fill(0);
      seenFrame.fill(0);
      frame = 0;
    },
  };
}
