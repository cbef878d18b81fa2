/**
 * Sweep and prune on one axis with persistent endpoint arrays. Endpoints (box minima and maxima
 * on the sweep axis) are kept sorted between frames; with small motion they are nearly sorted, so
 * re-sorting by insertion is close to linear. Churn is handled by compacting out removed proxies
 * and merging the (sorted) new ones. The sweep then walks the endpoints keeping the boxes whose
 * interval is open, testing the full box only for pairs that overlap on the sweep axis.
 *
 * Static proxies have endpoint arrays of their own, updated only when the statics change (or the
 * axis does); the sweep walks both lists in merged order with an open set for each, so a static
 * box is tested against open dynamic boxes only and statics never meet each other.
 *
 * The sweep axis is the one of largest variance of box centres (fewest overlaps on it); it is only
 * changed when another axis is clearly better, so a scene hovering between two axes does not
 * trigger a full re-sort every frame.
 */
import { CollideInputError, assertOptions } from '../errors';
import { maxProxyId, reportPair, type BroadPhase, type BroadPhaseInput, nextFrameStamp } from './broadPhase';
import { grown } from './growable';
import type { PairList } from './pairList';
import { insertionSortByKey, sortByKey } from './sortByKey';
import { StaticSplit } from './staticSplit';

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

/** One set of proxies' endpoints on the sweep axis, sorted by (value, tag), kept between frames. */
class SortedEndpoints {
  /** Endpoint values on the sweep axis and tags (id | MAX_ENDPOINT for maxima), `count` of them. */
  values = new Float64Array(0);
  tags = new Int32Array(0);
  count = 0;
  private mergeValues = new Float64Array(0);
  private mergeTags = new Int32Array(0);
  // By id: frame in which the id was last given to `update`; whether it has endpoints here.
  private frame = 0;
  private seenFrame = new Uint32Array(0);
  private present = new Uint8Array(0);

  constructor(private readonly shiftsPerEndpoint: number) {}

  /**
   * Brings the endpoints in line with ids[0, n) and their boxes on `axis`, sorted: absent ids
   * dropped, the others' values refreshed, new ids merged in; a changed axis re-sorts fully.
   */
  update(boxes: ArrayLike<number>, ids: ArrayLike<number>, n: number, maxId: number, axis: number, axisChanged: boolean): void {
    this.seenFrame = grown(this.seenFrame, maxId + 1);
    this.present = grown(this.present, maxId + 1);
    this.frame = nextFrameStamp(this.frame, this.seenFrame);
    const { seenFrame, present, frame } = this;
    for (let i = 0; i < n; i++) seenFrame[ids[i]] = frame;
    const kept = this.compact(boxes, axis);
    this.values = grown(this.values, 2 * n);
    this.tags = grown(this.tags, 2 * n);
    this.mergeValues = grown(this.mergeValues, 2 * n);
    this.mergeTags = grown(this.mergeTags, 2 * n);
    const { values, tags } = this;
    let count = kept;
    for (let i = 0; i < n; i++) {
      const id = ids[i];
      if (present[id]) continue;
      present[id] = 1;
      const b = id * 6 + axis;
      values[count] = boxes[b];
      tags[count++] = id;
      values[count] = boxes[b + 3];
      tags[count++] = id | MAX_ENDPOINT;
    }
    this.count = count;
    if (axisChanged) {
      sortByKey(values, tags, 0, count);
      return;
    }
    if (!insertionSortByKey(values, tags, 0, kept, this.shiftsPerEndpoint * kept)) sortByKey(values, tags, 0, kept);
    if (count > kept) {
      sortByKey(values, tags, kept, count);
      this.mergeRuns(kept);
    }
  }

  /** Forgets every endpoint. */
  reset(): void {
    this.count = 0;
    this.present.fill(0);
    this.seenFrame.fill(0);
    this.frame = 0;
  }

  /** Drops endpoints of ids absent this frame and refreshes the others' values; returns the kept count. */
  private compact(boxes: ArrayLike<number>, axis: number): number {
    const { values, tags, seenFrame, present, frame } = this;
    let kept = 0;
    for (let i = 0; i < this.count; i++) {
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

  /** Merges the sorted runs [0, split) and [split, count) through the merge buffers. */
  private mergeRuns(split: number): void {
    const { values, tags, mergeValues, mergeTags, count } = this;
    let i = 0;
    let j = split;
    let k = 0;
    while (i < split && j < count) {
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
    while (j < count) {
      mergeValues[k] = values[j];
      mergeTags[k++] = tags[j++];
    }
    this.values = mergeValues;
    this.mergeValues = values;
    this.tags = mergeTags;
    this.mergeTags = tags;
  }
}

/**
 * The boxes whose interval is open during a sweep, packed for cache locality: per slot the id and
 * its box on the two other axes (min u, max u, min v, max v); `slotOf` finds an id's slot.
 */
class OpenSet {
  count = 0;
  ids = new Int32Array(0);
  boxes = new Float64Array(0);
  slotOf = new Int32Array(0);

  reserve(n: number, maxId: number): void {
    this.ids = grown(this.ids, n);
    this.boxes = grown(this.boxes, 4 * n);
    this.slotOf = grown(this.slotOf, maxId + 1);
    this.count = 0;
  }

  add(id: number, minU: number, maxU: number, minV: number, maxV: number): void {
    const slot = this.count++;
    this.slotOf[id] = slot;
    this.ids[slot] = id;
    const b = slot * 4;
    this.boxes[b] = minU;
    this.boxes[b + 1] = maxU;
    this.boxes[b + 2] = minV;
    this.boxes[b + 3] = maxV;
  }

  /** Swap-removes `id`. */
  remove(id: number): void {
    const slot = this.slotOf[id];
    const last = --this.count;
    const moved = this.ids[last];
    this.ids[slot] = moved;
    this.slotOf[moved] = slot;
    this.boxes.copyWithin(slot * 4, last * 4, last * 4 + 4);
  }

  /** Reports `id` (box on the two other axes) with every open box it overlaps there. */
  pairsWith(input: BroadPhaseInput, out: PairList, id: number, minU: number, maxU: number, minV: number, maxV: number): void {
    const open = this.boxes, ids = this.ids;
    for (let k = 0; k < this.count; k++) {
      const b = k * 4;
      if (open[b] <= maxU && minU <= open[b + 1] && open[b + 2] <= maxV && minV <= open[b + 3]) reportPair(input, out, id, ids[k]);
    }
  }
}

/** Creates a sweep-and-prune broad phase with persistent, incrementally sorted endpoints. */
export function createSweepAndPrune(options: SweepAndPruneOptions = {}): BroadPhase {
  assertOptions(options, ['axisSwitchRatio', 'insertionShiftsPerEndpoint'], 'createSweepAndPrune');
  const axisSwitchRatio = options.axisSwitchRatio ?? 1.5;
  const shiftsPerEndpoint = options.insertionShiftsPerEndpoint ?? 8;
  if (!(axisSwitchRatio >= 1)) throw new CollideInputError(`createSweepAndPrune: axisSwitchRatio must be >= 1, got ${axisSwitchRatio}`);
  if (!(shiftsPerEndpoint >= 0)) {
    throw new CollideInputError(`createSweepAndPrune: insertionShiftsPerEndpoint must be >= 0, got ${shiftsPerEndpoint}`);
  }

  let axis = -1;
  const split = new StaticSplit();
  const dynamicEnds = new SortedEndpoints(shiftsPerEndpoint);
  const staticEnds = new SortedEndpoints(shiftsPerEndpoint);
  const openDynamic = new OpenSet();
  const openStatic = new OpenSet();

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

  /**
   * Walks the dynamic and static endpoints in merged (value, tag) order keeping the open
   * intervals of each. Every open box already overlaps the new one on the sweep axis (its
   * minimum came first and its maximum has not come yet), so only the other two axes are tested:
   * a dynamic box against both open sets, a static one against the open dynamic boxes.
   */
  function sweep(input: BroadPhaseInput, out: PairList): void {
    const boxes = input.boxes;
    const u = (axis + 1) % 3;
    const v = (axis + 2) % 3;
    const dValues = dynamicEnds.values, dTags = dynamicEnds.tags, dCount = dynamicEnds.count;
    const sValues = staticEnds.values, sTags = staticEnds.tags, sCount = staticEnds.count;
    let i = 0, j = 0;
    while (i < dCount) {
      // The next endpoint: a static one when it comes first (ties by tag, minima first).
      const fromStatic = j < sCount && (sValues[j] < dValues[i] || (sValues[j] === dValues[i] && sTags[j] < dTags[i]));
      const tag = fromStatic ? sTags[j++] : dTags[i++];
      const id = tag & ID_MASK;
      if (tag & MAX_ENDPOINT) {
        (fromStatic ? openStatic : openDynamic).remove(id);
        continue;
      }
      const o = id * 6;
      const minU = boxes[o + u], maxU = boxes[o + 3 + u];
      const minV = boxes[o + v], maxV = boxes[o + 3 + v];
      openDynamic.pairsWith(input, out, id, minU, maxU, minV, maxV);
      if (fromStatic) {
        openStatic.add(id, minU, maxU, minV, maxV);
      } else {
        openStatic.pairsWith(input, out, id, minU, maxU, minV, maxV);
        openDynamic.add(id, minU, maxU, minV, maxV);
      }
    }
  }

  return {
    name: 'sweepAndPrune',
    findPairs(input: BroadPhaseInput, out: PairList): void {
      out.clear();
      const maxId = maxProxyId(input);
      const staticsChanged = split.update(input);
      const newAxis = chooseAxis(input);
      const axisChanged = newAxis !== axis;
      axis = newAxis;
      dynamicEnds.update(input.boxes, split.dynamicIds, split.dynamicCount, maxId, axis, axisChanged);
      if (staticsChanged || axisChanged) staticEnds.update(input.boxes, split.staticIds, split.staticCount, maxId, axis, axisChanged);
      openDynamic.reserve(split.dynamicCount, maxId);
      openStatic.reserve(split.staticCount, maxId);
      sweep(input, out);
      out.sort();
    },
    clear(): void {
      axis = -1;
      split.reset();
      dynamicEnds.reset();
      staticEnds.reset();
    },
  };
}
