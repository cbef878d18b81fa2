/**
 * Random and adversarial cast scenes for the shape-cast tests: targets of every kind at a scale and
 * an offset, movers placed at random, touching at the start, grazing (motion tangent to the target
 * at mid-path), started inside, or not moving.
 */
import { kdopFromPoints } from '../../src/volumes/kdop';
import { AABB_STRIDE, CAPSULE_STRIDE, OBB_STRIDE, type KdopK } from '../../src/layout';
import { quaternionToAxes, randomQuaternion } from '../../scenes/random';
import { boxToStore, randomBox, type V } from '../support/contactReference';
import { distanceToTarget, firstContact, type RefTarget } from '../support/castReference';

export type TargetKind = 'sphere' | 'capsule' | 'aabb' | 'obb' | 'triangle' | 'kdop14' | 'kdop18' | 'kdop26' | 'kdop6';
export type SceneKind = 'random' | 'touching' | 'grazing' | 'inside' | 'zero' | 'parallel';
export const SCENE_KINDS: SceneKind[] = ['random', 'random', 'touching', 'grazing', 'inside', 'zero', 'parallel'];

export interface Target {
  kind: TargetKind;
  /** The target in its store layout, at offset 3 of `store` (to exercise offsets). */
  store: Float64Array;
  k: KdopK;
  ref: RefTarget;
  centre: V;
  size: number;
}

export const OFFSET = 3;

/** A random target of `kind` around `centre` with sizes about `size`. */
export function randomTarget(rand: () => number, kind: TargetKind, centre: V, size: number): Target {
  const rv = (s: number): V => [(rand() - 0.5) * s, (rand() - 0.5) * s, (rand() - 0.5) * s];
  const at = (v: V): V => [centre[0] + v[0], centre[1] + v[1], centre[2] + v[2]];
  let data: number[], ref: RefTarget, k: KdopK = 6;
  switch (kind) {
    case 'sphere': {
      const r = size * (0.1 + rand());
      data = [...centre, r];
      ref = { kind: 'sphere', c: centre, r };
      break;
    }
    case 'capsule': {
      const p0 = at(rv(2 * size)), p1 = rand() < 0.1 ? p0 : at(rv(2 * size)), r = size * (0.05 + 0.5 * rand());
      data = [...p0, ...p1, r];
      ref = { kind: 'capsule', p0, p1, r };
      break;
    }
    case 'aabb': {
      const h = [0, 1, 2].map(() => size * (0.05 + rand()));
      data = [centre[0] - h[0], centre[1] - h[1], centre[2] - h[2], centre[0] + h[0], centre[1] + h[1], centre[2] + h[2]];
      ref = { kind: 'box', box: { c: centre, u: [[1, 0, 0], [0, 1, 0], [0, 0, 1]], h: h as V } };
      break;
    }
    case 'obb': {
      const box = randomBox(rand, centre, 0.05 * size, size);
      data = boxToStore(box);
      ref = { kind: 'box', box };
      break;
    }
    case 'triangle': {
      const a = at(rv(3 * size)), b = at(rv(3 * size));
      const c = rand() < 0.1 ? [0.5 * (a[0] + b[0]), 0.5 * (a[1] + b[1]), 0.5 * (a[2] + b[2])] as V : at(rv(3 * size));
      data = [...a, ...b, ...c];
      ref = { kind: 'triangle', a, b, c };
      break;
    }
    default: {
      k = Number(kind.slice(4)) as KdopK;
      const n = 3 + Math.floor(rand() * 6), pts: number[] = [];
      for (let i = 0; i < n; i++) pts.push(...at(rv(2 * size)));
      const values = new Float64Array(k);
      kdopFromPoints(values, 0, k, pts, n);
      data = Array.from(values);
      ref = { kind: 'kdop', k, values: data };
    }
  }
  const store = new Float64Array(OFFSET + data.length + 2);
  store.set(data, OFFSET);
  return { kind, store, k, ref, centre, size };
}

export const STRIDES = { sphere: 4, capsule: CAPSULE_STRIDE, aabb: AABB_STRIDE, obb: OBB_STRIDE, triangle: 9 };

/** Numerical outward normal of the target's distance field at p (p outside the target). */
export function referenceNormal(t: RefTarget, p: V, eps: number): V {
  const g: V = [0, 0, 0];
  for (let i = 0; i < 3; i++) {
    const a = [...p] as V, b = [...p] as V;
    a[i] += eps;
    b[i] -= eps;
    g[i] = distanceToTarget(t, a) - distanceToTarget(t, b);
  }
  const l = Math.hypot(...g);
  return l > 0 ? [g[0] / l, g[1] / l, g[2] / l] : [1, 0, 0];
}

/**
 * Places a mover (given by its gap along a motion) for a scene kind: returns the start offset to
 * apply to the mover and the displacement. `gapAt(shift, d, t)`: gap at time t of the mover shifted by `shift`.
 */
export function placeMotion(
  rand: () => number, scene: SceneKind, size: number, toTarget: V,
  gapAt: (shift: V, d: V, t: number) => number, normalAt: (shift: V) => V,
): { shift: V; d: V } {
  const rv = (s: number): V => [(rand() - 0.5) * s, (rand() - 0.5) * s, (rand() - 0.5) * s];
  const zero: V = [0, 0, 0];
  if (scene === 'zero') return { shift: rv(4 * size), d: zero };
  if (scene === 'inside') return { shift: zero, d: rv(6 * size) };
  // From a random start, aimed at a random point near the target.
  const start = rv(10 * size);
  const through = rv(2 * size);
  const d: V = [through[0] - start[0] + toTarget[0], through[1] - start[1] + toTarget[1], through[2] - start[2] + toTarget[2]].map((x) => 1.3 * x) as V;
  if (scene === 'random') return { shift: start, d };
  const contact = firstContact((t) => gapAt(start, d, t), 1, 512);
  if (contact.t === null || contact.t === 0) return { shift: start, d };
  const touch: V = [start[0] + contact.t * d[0], start[1] + contact.t * d[1], start[2] + contact.t * d[2]];
  if (scene === 'touching') return { shift: touch, d };
  // Tangent to the target at the touching configuration: grazing passes through it at t = 0.5,
  // parallel starts there and slides (along a face, for flat targets).
  const n = normalAt(touch);
  const tangent = rv(6 * size);
  const k = tangent[0] * n[0] + tangent[1] * n[1] + tangent[2] * n[2];
  const g: V = [tangent[0] - k * n[0], tangent[1] - k * n[1], tangent[2] - k * n[2]];
  if (scene === 'parallel') return { shift: touch, d: g };
  return { shift: [touch[0] - 0.5 * g[0], touch[1] - 0.5 * g[1], touch[2] - 0.5 * g[2]], d: g };
}

export { quaternionToAxes, randomQuaternion };
