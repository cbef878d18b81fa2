/**
 * Moving scenes for the pipeline tests, and an independent all-pairs reference. The reference
 * rebuilds every world shape from the pipeline's Float32 transform arrays with its own formulas
 * (quaternionToAxes, corners, plain vectors) and decides each pair with a different formulation
 * from the library's: corner-projection SAT over axes built from scratch for boxes, clamping and
 * ternary-search distances for round shapes (contactReference.ts). Only a bounding-sphere test,
 * exact for "certainly apart", skips work. Results carry a signed gap, so callers compare only
 * outside a band where Float32 storage and the SAT's parallel-edge slack may decide either way.
 */
import type { ColliderDescription } from '../../systems/colliderApi';
import type { TransformStore } from '../../components/transform';
import {
  add,
  boxCorners,
  cross,
  distanceToBox,
  distanceToSegment,
  dot,
  interval,
  norm,
  scale,
  segmentBoxDistance,
  segmentSegmentDistance,
  sub,
  type RefBox,
  type V,
} from './contactReference';
import { quaternionToAxes, randomQuaternion } from '../../scenes/random';

export type BodyKind = 'obb' | 'aabb' | 'sphere' | 'capsule';

/** One simulated body: its collider description in local space and its motion state. */
export interface Body {
  kind: BodyKind;
  desc: ColliderDescription;
  position: V;
  velocity: V;
  rotation: number[];
  /** Rotation applied each frame (unit quaternion). */
  spin: number[];
  /** Radius of a sphere around the local origin containing the local shape. */
  boundingRadius: number;
}

export interface SceneOptions {
  count: number;
  kinds: readonly BodyKind[];
  /** Centres in [0, size]^3 (default 100). */
  size?: number;
  /** Largest spin per frame, radians (default 0.05). */
  maxSpin?: number;
  /** Speed bound per axis (default 0.5). */
  maxSpeed?: number;
}

/** Quaternion product a ⊗ b (x, y, z, w). */
function multiply(a: number[], b: number[]): number[] {
  return [
    a[3] * b[0] + a[0] * b[3] + a[1] * b[2] - a[2] * b[1],
    a[3] * b[1] - a[0] * b[2] + a[1] * b[3] + a[2] * b[0],
    a[3] * b[2] + a[0] * b[1] - a[1] * b[0] + a[2] * b[3],
    a[3] * b[3] - a[0] * b[0] - a[1] * b[1] - a[2] * b[2],
  ];
}

/** A random body of `kind`: boxes with half-extents in [0.5, 2], spheres r in [0.5, 2], capsules r in [0.3, 1] and half-length in [0.5, 2]. */
export function randomBody(rand: () => number, kind: BodyKind, options: SceneOptions): Body {
  const size = options.size ?? 100, maxSpin = options.maxSpin ?? 0.05, maxSpeed = options.maxSpeed ?? 0.5;
  const between = (lo: number, hi: number) => lo + (hi - lo) * rand();
  let desc: ColliderDescription;
  let boundingRadius: number;
  if (kind === 'obb' || kind === 'aabb') {
    const h = [between(0.5, 2), between(0.5, 2), between(0.5, 2)];
    desc = kind === 'obb' ? { shape: 'obb', halfExtents: h } : { shape: 'aabb', halfExtents: h };
    boundingRadius = Math.hypot(h[0], h[1], h[2]);
  } else if (kind === 'sphere') {
    const r = between(0.5, 2);
    desc = { shape: 'sphere', radius: r };
    boundingRadius = r;
  } else {
    const r = between(0.3, 1), l = between(0.5, 2);
    const ax = quaternionToAxes(randomQuaternion(rand));
    desc = { shape: 'capsule', p0: [-l * ax[0], -l * ax[1], -l * ax[2]], p1: [l * ax[0], l * ax[1], l * ax[2]], radius: r };
    boundingRadius = l + r;
  }
  const angle = between(0, maxSpin);
  const axis = quaternionToAxes(randomQuaternion(rand));
  const s = Math.sin(angle / 2);
  return {
    kind,
    desc,
    position: [between(0, size), between(0, size), between(0, size)],
    velocity: [between(-maxSpeed, maxSpeed), between(-maxSpeed, maxSpeed), between(-maxSpeed, maxSpeed)],
    rotation: randomQuaternion(rand),
    spin: [axis[0] * s, axis[1] * s, axis[2] * s, Math.cos(angle / 2)],
    boundingRadius,
  };
}

/** A scene of `count` bodies, kinds cycling through `kinds`. */
export function randomScene(rand: () => number, options: SceneOptions): Body[] {
  const bodies: Body[] = [];
  for (let i = 0; i < options.count; i++) bodies.push(randomBody(rand, options.kinds[i % options.kinds.length], options));
  return bodies;
}

/** Moves every body one frame: velocity with wall bounce inside [0, size]^3, spin. */
export function advanceScene(bodies: Body[], size = 100): void {
  for (const b of bodies) {
    for (let k = 0; k < 3; k++) {
      b.position[k] += b.velocity[k];
      if (b.position[k] < 0 || b.position[k] > size) {
        b.velocity[k] = -b.velocity[k];
        b.position[k] = Math.min(size, Math.max(0, b.position[k]));
      }
    }
    const q = multiply(b.spin, b.rotation);
    const n = Math.hypot(q[0], q[1], q[2], q[3]);
    b.rotation = q.map((v) => v / n);
  }
}

/** A world shape as the reference sees it. */
export type RefShape =
  | { kind: 'box'; box: RefBox; centre: V; radius: number }
  | { kind: 'sphere'; centre: V; r: number; radius: number }
  | { kind: 'capsule'; p0: V; p1: V; r: number; centre: V; radius: number };

/** World shape of `desc` under the Float32 transform of entity `eid` in `t`. */
export function referenceShape(desc: ColliderDescription, t: TransformStore, eid: number): RefShape {
  const pos: V = [t.position[3 * eid], t.position[3 * eid + 1], t.position[3 * eid + 2]];
  const ax = quaternionToAxes([t.rotation[4 * eid], t.rotation[4 * eid + 1], t.rotation[4 * eid + 2], t.rotation[4 * eid + 3]]);
  const s = t.scale[eid];
  const u: [V, V, V] = [[ax[0], ax[1], ax[2]], [ax[3], ax[4], ax[5]], [ax[6], ax[7], ax[8]]];
  const toWorld = (p: ArrayLike<number>): V => add(pos, scale(add(scale(u[0], p[0]), add(scale(u[1], p[1]), scale(u[2], p[2]))), s));
  switch (desc.shape) {
    case 'obb': {
      const c = toWorld(desc.center ?? [0, 0, 0]);
      const h = scale([desc.halfExtents[0], desc.halfExtents[1], desc.halfExtents[2]], s);
      return { kind: 'box', box: { c, u, h }, centre: c, radius: norm(h) };
    }
    case 'aabb': {
      // The AABB of the transformed local box's corners.
      if (!('halfExtents' in desc)) throw new Error('scene AABBs use halfExtents');
      const h = desc.halfExtents;
      const lo: V = [Infinity, Infinity, Infinity], hi: V = [-Infinity, -Infinity, -Infinity];
      for (const sx of [-1, 1]) for (const sy of [-1, 1]) for (const sz of [-1, 1]) {
        const p = toWorld([sx * h[0], sy * h[1], sz * h[2]]);
        for (let k = 0; k < 3; k++) {
          lo[k] = Math.min(lo[k], p[k]);
          hi[k] = Math.max(hi[k], p[k]);
        }
      }
      const c = scale(add(lo, hi), 0.5), half = scale(sub(hi, lo), 0.5);
      return { kind: 'box', box: { c, u: [[1, 0, 0], [0, 1, 0], [0, 0, 1]], h: half }, centre: c, radius: norm(half) };
    }
    case 'sphere': {
      const c = toWorld(desc.center ?? [0, 0, 0]);
      return { kind: 'sphere', centre: c, r: desc.radius * s, radius: desc.radius * s };
    }
    case 'capsule': {
      const p0 = toWorld(desc.p0), p1 = toWorld(desc.p1), r = desc.radius * s;
      return { kind: 'capsule', p0, p1, r, centre: scale(add(p0, p1), 0.5), radius: 0.5 * norm(sub(p1, p0)) + r };
    }
    default:
      throw new Error(`no reference for ${(desc as { shape: string }).shape}`);
  }
}

/** Largest gap between two boxes' corner projections over the 15 SAT axes built from scratch (> 0 ⇔ apart). */
function boxGap(a: RefBox, b: RefBox): number {
  const ca = boxCorners(a), cb = boxCorners(b);
  const axes: V[] = [...a.u, ...b.u];
  for (const u of a.u) {
    for (const v of b.u) {
      const c = cross(u, v);
      const n = norm(c);
      if (n > 1e-9) axes.push(scale(c, 1 / n));
    }
  }
  let gap = -Infinity;
  for (const n of axes) {
    const [loA, hiA] = interval(ca, n);
    const [loB, hiB] = interval(cb, n);
    gap = Math.max(gap, loB - hiA, loA - hiB);
  }
  return gap;
}

/** Signed gap of two shapes: > 0 apart, <= 0 touching or overlapping (a distance for round shapes, a SAT gap for boxes). */
export function referenceGap(a: RefShape, b: RefShape): number {
  if (a.kind === 'box' && b.kind === 'box') return boxGap(a.box, b.box);
  if (b.kind === 'box' || (b.kind === 'capsule' && a.kind === 'sphere')) return referenceGap(b, a);
  if (a.kind === 'box') {
    if (b.kind === 'sphere') return distanceToBox(a.box, b.centre) - b.r;
    const cap = b as Extract<RefShape, { kind: 'capsule' }>;
    return segmentBoxDistance(cap.p0, cap.p1, a.box) - cap.r;
  }
  if (a.kind === 'capsule') {
    if (b.kind === 'sphere') return distanceToSegment(b.centre, a.p0, a.p1) - a.r - b.r;
    const cap = b as Extract<RefShape, { kind: 'capsule' }>;
    return segmentSegmentDistance(a.p0, a.p1, cap.p0, cap.p1) - a.r - cap.r;
  }
  const s = b as Extract<RefShape, { kind: 'sphere' }>;
  return norm(sub(a.centre, s.centre)) - a.r - s.r;
}

/**
 * Width of the band around zero gap in which either answer is accepted: Float32 storage of world
 * shapes (about 1e-7 of the coordinates, several roundings) and the SAT's parallel-edge slack
 * (1e-6 of the half-extents per axis term).
 */
export function referenceBand(a: RefShape, b: RefShape): number {
  const coordinate = Math.max(...a.centre.map(Math.abs), ...b.centre.map(Math.abs));
  return 1e-5 * (a.radius + b.radius) + 1e-6 * coordinate;
}

/** Reference pairs of shapes[i] (null = no collider) over all pairs: `sure` touching pairs, and `either` ones inside the band. */
export function referencePairs(shapes: (RefShape | null)[]): { sure: Set<string>; either: Set<string> } {
  const sure = new Set<string>(), either = new Set<string>();
  for (let i = 0; i < shapes.length; i++) {
    const a = shapes[i];
    if (a === null) continue;
    for (let j = i + 1; j < shapes.length; j++) {
      const b = shapes[j];
      if (b === null) continue;
      const d = sub(a.centre, b.centre);
      const reach = a.radius + b.radius + referenceBand(a, b);
      if (dot(d, d) > reach * reach) continue; // bounding spheres apart: certainly apart
      const gap = referenceGap(a, b);
      const band = referenceBand(a, b);
      if (gap < -band) sure.add(`${i},${j}`);
      else if (gap <= band) either.add(`${i},${j}`);
    }
  }
  return { sure, either };
}
