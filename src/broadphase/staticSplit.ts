/**
 * A frame's proxies split into dynamic and static ids, with change detection for the statics:
 * broad phases keep static proxies in a structure of their own, which they rebuild only when the
 * static set or a static box differs from the previous frame's. The check is one pass over the
 * statics against a copy of their boxes kept by id, so it does not depend on the ids' order.
 */
import type { BroadPhaseInput } from './broadPhase';
import { grown } from './growable';

export class StaticSplit {
  /** This frame's dynamic ids, `dynamicCount` of them, in input order. */
  dynamicIds = new Int32Array(0);
  dynamicCount = 0;
  /** This frame's static ids, `staticCount` of them, in input order. */
  staticIds = new Int32Array(0);
  staticCount = 0;
  /** The static set of the last change: its ids, a flag and a copy of the box by id. */
  private setIds = new Int32Array(0);
  private setCount = 0;
  private inSet = new Uint8Array(0);
  private setBoxes = new Float64Array(0);
  /** False until the first update and after `reset`: the statics then count as changed. */
  private valid = false;

  /** Splits `input`; returns true when the statics (as a set, with their boxes) differ from the previous call's. */
  update(input: BroadPhaseInput): boolean {
    const { ids, count, boxes, isStatic } = input;
    this.dynamicIds = grown(this.dynamicIds, count);
    this.staticIds = grown(this.staticIds, count);
    const dynamicIds = this.dynamicIds, staticIds = this.staticIds;
    let inSet = this.inSet, setBoxes = this.setBoxes;
    let dynamics = 0, statics = 0, changed = !this.valid;
    for (let i = 0; i < count; i++) {
      const id = ids[i];
      if (isStatic[id] !== 1) {
        dynamicIds[dynamics++] = id;
        continue;
      }
      staticIds[statics++] = id;
      if (changed) continue;
      if (id >= inSet.length || inSet[id] !== 1) {
        changed = true;
        continue;
      }
      const o = id * 6;
      changed = setBoxes[o] !== boxes[o] || setBoxes[o + 1] !== boxes[o + 1] || setBoxes[o + 2] !== boxes[o + 2] ||
        setBoxes[o + 3] !== boxes[o + 3] || setBoxes[o + 4] !== boxes[o + 4] || setBoxes[o + 5] !== boxes[o + 5];
    }
    this.dynamicCount = dynamics;
    this.staticCount = statics;
    // Every static was in the last set with its box: the sets are equal when the counts are.
    if (!changed && statics === this.setCount) return false;
    for (let i = 0; i < this.setCount; i++) inSet[this.setIds[i]] = 0;
    let maxId = -1;
    for (let i = 0; i < statics; i++) if (staticIds[i] > maxId) maxId = staticIds[i];
    inSet = this.inSet = grown(inSet, maxId + 1);
    setBoxes = this.setBoxes = grown(setBoxes, 6 * inSet.length);
    this.setIds = grown(this.setIds, statics);
    for (let i = 0; i < statics; i++) {
      const id = staticIds[i], o = id * 6;
      inSet[id] = 1;
      for (let k = 0; k < 6; k++) setBoxes[o + k] = boxes[o + k];
      this.setIds[i] = id;
    }
    this.setCount = statics;
    this.valid = true;
    return true;
  }

  /** Forgets the statics: the next `update` reports them changed. */
  reset(): void {
    this.valid = false;
  }
}
