/**
 * Seeded OBB pair generators for the SAT tests and the overlap benchmark. Pair p is box A at
 * `a[p * OBB_STRIDE]` and box B at `b[p * OBB_STRIDE]` (layout.ts OBB layout). `expected[p]` is
 * the answer known by construction (1 overlap or touch, 0 apart) or -1 when only a reference can
 * tell.
 */
import { OBB_STRIDE } from '../src/layout';
import { mulberry32, quaternionToAxes, randomQuaternion } from './random';

export type ObbPairKind =
  | 'random'
  | 'touchingFaces'
  | 'parallelEdges'
  | 'edgeEdge'
  | 'hugeCoordinates'
  | 'thin'
  | 'flat';

export const OBB_PAIR_KINDS: readonly ObbPairKind[] = [
  'random',
  'touchingFaces',
  'parallelEdges',
  'edgeEdge',
  'hugeCoordinates',
  'thin',
  'flat',
];

export interface ObbPairs {
  count: number;
  a: Float64Array;
  b: Float64Array;
  expected: Int8Array;
}

/** Gap used for the "just apart" variants, relative to the boxes' sizes (far above SAT slack). */
export const JUST_APART_RELATIVE_GAP = 1e-3;

/**
 * Centre distance, in units of the sum of the two boxes' mean half-extents, up to which random
 * pairs are placed: tuned so that about one third of `random` pairs overlap.
 */
const RANDOM_DISTANCE_SPREAD = 1.9;

/** The same for thin and flat boxes, which need closer centres to meet as often. */
const THIN_DISTANCE_SPREAD = 1.2;

type Rand = () => number;

const quaternion = [0, 0, 0, 1];
const axes = new Array<number>(9).fill(0);

function setBox(out: Float64Array, o: number, c: ArrayLike<number>, ax: ArrayLike<number>, h: ArrayLike<number>): void {
  for (let k = 0; k < 3; k++) out[o + k] = c[k];
  for (let k = 0; k < 9; k++) out[o + 3 + k] = ax[k];
  for (let k = 0; k < 3; k++) out[o + 12 + k] = h[k];
}

function randomAxes(rand: Rand): number[] {
  return quaternionToAxes(randomQuaternion(rand, quaternion), axes).slice();
}

function randomDirection(rand: Rand): number[] {
  const ax = randomAxes(rand);
  return [ax[0], ax[1], ax[2]];
}

function randomHalf(rand: Rand, lo = 0.1, hi = 1): number[] {
  return [lo + (hi - lo) * rand(), lo + (hi - lo) * rand(), lo + (hi - lo) * rand()];
}

function axis(ax: ArrayLike<number>, k: number): number[] {
  return [ax[3 * k], ax[3 * k + 1], ax[3 * k + 2]];
}

function cross(u: number[], v: number[]): number[] {
  return [u[1] * v[2] - u[2] * v[1], u[2] * v[0] - u[0] * v[2], u[0] * v[1] - u[1] * v[0]];
}

function dot(u: ArrayLike<number>, v: ArrayLike<number>): number {
  return u[0] * v[0] + u[1] * v[1] + u[2] * v[2];
}

function normalize(u: number[]): number[] {
  const n = Math.hypot(u[0], u[1], u[2]);
  return [u[0] / n, u[1] / n, u[2] / n];
}

/** c + Σ s_k v_k */
function combine(c: ArrayLike<number>, ...terms: [number, number[]][]): number[] {
  const out = [c[0], c[1], c[2]];
  for (const [s, v] of terms) for (let k = 0; k < 3; k++) out[k] += s * v[k];
  return out;
}

/** Rotation of unit vector u by angle θ about unit axis n (Rodrigues). */
function rotateAbout(u: number[], n: number[], theta: number): number[] {
  const c = Math.cos(theta), s = Math.sin(theta), d = dot(n, u) * (1 - c);
  const x = cross(n, u);
  return [u[0] * c + x[0] * s + n[0] * d, u[1] * c + x[1] * s + n[1] * d, u[2] * c + x[2] * s + n[2] * d];
}

/** Axes of A permuted with signs, keeping a right-handed frame (a 90-degree-family rotation). */
function signedPermutation(rand: Rand, ax: ArrayLike<number>): number[] {
  const perms = [[0, 1, 2], [1, 2, 0], [2, 0, 1]];
  const p = perms[Math.floor(rand() * 3)];
  const s0 = rand() < 0.5 ? -1 : 1, s1 = rand() < 0.5 ? -1 : 1;
  const u0 = axis(ax, p[0]).map((x) => s0 * x);
  const u1 = axis(ax, p[1]).map((x) => s1 * x);
  return [...u0, ...u1, ...cross(u0, u1)];
}

/** Two random boxes whose centres are at most a size-relative distance apart (~1/3 overlap). */
function randomPair(rand: Rand, a: Float64Array, b: Float64Array, o: number, offset: number[], spread = RANDOM_DISTANCE_SPREAD): void {
  const ha = randomHalf(rand), hb = randomHalf(rand);
  const reach = (ha[0] + ha[1] + ha[2] + hb[0] + hb[1] + hb[2]) / 3;
  const ca = combine(offset, [1, randomDirection(rand)]);
  const cb = combine(ca, [spread * reach * Math.cbrt(rand()), randomDirection(rand)]);
  setBox(a, o, ca, randomAxes(rand), ha);
  setBox(b, o, cb, randomAxes(rand), hb);
}

/**
 * B lies on a face of A, turned about the face normal; their faces touch exactly (up to
 * rounding), or are `JUST_APART_RELATIVE_GAP` apart. One pair in four is built from dyadic
 * numbers on identity-related axes, where the contact is exact in floating point too.
 */
function touchingFacesPair(rand: Rand, a: Float64Array, b: Float64Array, o: number): number {
  const exact = rand() < 0.25;
  const apart = rand() < 0.3;
  const ha = exact ? [0.5, 0.25, 1] : randomHalf(rand, 0.2);
  const hb = exact ? [0.25, 0.5, 0.125] : randomHalf(rand, 0.2);
  const axA = exact ? [1, 0, 0, 0, 1, 0, 0, 0, 1] : randomAxes(rand);
  const ca = exact ? [Math.floor(rand() * 8) / 4, 0.5, -1.25] : randomDirection(rand);
  const i = Math.floor(rand() * 3), side = rand() < 0.5 ? -1 : 1;
  const normal = axis(axA, i).map((x) => side * x);
  // B's axis j is laid along the normal; the other two are turned about it.
  let axB = signedPermutation(rand, axA);
  const j = [0, 1, 2].find((k) => Math.abs(dot(axis(axB, k), normal)) > 0.5)!;
  if (!exact) {
    const theta = rand() * 2 * Math.PI;
    axB = [0, 1, 2].flatMap((k) => (k === j ? axis(axB, k) : rotateAbout(axis(axB, k), normal, theta)));
  }
  // Lateral shift within the face, small enough that the faces share area.
  const lat1 = axis(axA, (i + 1) % 3), lat2 = axis(axA, (i + 2) % 3);
  const s1 = exact ? 0.125 : (rand() - 0.5) * ha[(i + 1) % 3];
  const s2 = exact ? -0.25 : (rand() - 0.5) * ha[(i + 2) % 3];
  const distance = ha[i] + hb[j];
  const gap = apart ? JUST_APART_RELATIVE_GAP * distance : 0;
  const cb = combine(ca, [distance + gap, normal], [s1, lat1], [s2, lat2]);
  setBox(a, o, ca, axA, ha);
  setBox(b, o, cb, axB, hb);
  return apart ? 0 : 1;
}

/** B shares A's orientation or a 90-degree relative of it: every edge of B parallel to one of A. */
function parallelEdgesPair(rand: Rand, a: Float64Array, b: Float64Array, o: number): void {
  const axA = rand() < 0.3 ? [1, 0, 0, 0, 1, 0, 0, 0, 1] : randomAxes(rand);
  const axB = rand() < 0.5 ? axA.slice() : signedPermutation(rand, axA);
  const ha = randomHalf(rand, 0.2), hb = randomHalf(rand, 0.2);
  const ca = randomDirection(rand);
  const reach = (ha[0] + ha[1] + ha[2] + hb[0] + hb[1] + hb[2]) / 3;
  const cb = combine(ca, [2 * reach * Math.cbrt(rand()), randomDirection(rand)]);
  setBox(a, o, ca, axA, ha);
  setBox(b, o, cb, axB, hb);
}

/**
 * An edge of B crosses an edge of A: both edges are the boxes' extreme edges along
 * n = normalize(Ai × Bj), their midpoints are `delta` apart along n. delta = 0 touches,
 * delta > 0 is apart by exactly delta, delta < 0 interpenetrates.
 */
function edgeEdgePair(rand: Rand, a: Float64Array, b: Float64Array, o: number): number {
  const axA = randomAxes(rand), axB = randomAxes(rand);
  const ha = randomHalf(rand, 0.2), hb = randomHalf(rand, 0.2);
  const i = Math.floor(rand() * 3), j = Math.floor(rand() * 3);
  const n = normalize(cross(axis(axA, i), axis(axB, j)));
  const ca = randomDirection(rand);
  // Midpoint of A's edge along Ai that is furthest along n, and of B's edge along Bj nearest.
  let pa = ca;
  for (const k of [(i + 1) % 3, (i + 2) % 3]) pa = combine(pa, [Math.sign(dot(n, axis(axA, k))) * ha[k], axis(axA, k)]);
  let fromB = [0, 0, 0];
  for (const k of [(j + 1) % 3, (j + 2) % 3]) fromB = combine(fromB, [-Math.sign(dot(n, axis(axB, k))) * hb[k], axis(axB, k)]);
  const size = Math.max(...ha, ...hb);
  const r = rand();
  const delta = r < 0.4 ? 0 : r < 0.6 ? JUST_APART_RELATIVE_GAP * size : r < 0.8 ? -JUST_APART_RELATIVE_GAP * size : (rand() - 0.5) * size;
  const cb = combine(pa, [delta, n], [-1, fromB]);
  setBox(a, o, ca, axA, ha);
  setBox(b, o, cb, axB, hb);
  // A deep random delta may push the shared point out through A's far side: only a reference knows then.
  return delta > 0 ? 0 : r < 0.8 ? 1 : -1;
}

/** Fills pairs of one kind from `seed`. */
export function generateObbPairs(kind: ObbPairKind, count: number, seed: number): ObbPairs {
  const rand = mulberry32(seed);
  const a = new Float64Array(count * OBB_STRIDE), b = new Float64Array(count * OBB_STRIDE);
  const expected = new Int8Array(count).fill(-1);
  for (let p = 0; p < count; p++) {
    const o = p * OBB_STRIDE;
    switch (kind) {
      case 'random':
        randomPair(rand, a, b, o, [0, 0, 0]);
        break;
      case 'touchingFaces':
        expected[p] = touchingFacesPair(rand, a, b, o);
        break;
      case 'parallelEdges':
        parallelEdgesPair(rand, a, b, o);
        break;
      case 'edgeEdge':
        expected[p] = edgeEdgePair(rand, a, b, o);
        break;
      case 'hugeCoordinates': {
        const offset = randomDirection(rand).map((x) => x * 1e6);
        randomPair(rand, a, b, o, offset);
        break;
      }
      case 'thin': {
        randomPair(rand, a, b, o, [0, 0, 0], THIN_DISTANCE_SPREAD);
        // One very thin axis per box (1e-4 of the others), keeping the pair's layout.
        a[o + 12 + Math.floor(rand() * 3)] *= 1e-4;
        b[o + 12 + Math.floor(rand() * 3)] *= 1e-4;
        break;
      }
      case 'flat': {
        randomPair(rand, a, b, o, [0, 0, 0], THIN_DISTANCE_SPREAD);
        // Zero half-extents: plates, and now and then segments (two zeros) or points.
        const zerosA = rand() < 0.7 ? 1 : rand() < 0.8 ? 2 : 3;
        const first = Math.floor(rand() * 3);
        for (let z = 0; z < zerosA; z++) a[o + 12 + ((first + z) % 3)] = 0;
        if (rand() < 0.5) b[o + 12 + Math.floor(rand() * 3)] = 0;
        break;
      }
    }
  }
  return { count, a, b, expected };
}
