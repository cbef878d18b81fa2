/**
 * The bands of the kernels that add a slack or tolerance, checked against independent references
 * with the answer known by construction: each test never reports apart shapes that touch (beyond
 * what its doc comment states), and reports touching only shapes within its stated false-overlap
 * band. Nearly parallel edges (angles 1e-7..1e-1 rad, 1e-10 for the segment kernel's parallel
 * fallback) wherever a kernel builds axes or parameters from two edges; Float32 stores wherever a
 * kernel reads box axes, which are then orthonormal only to about 1.2e-7.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { buildBoundingTree } from '../../src/tree/build';
import { closestPtSegmentSegment, CLOSEST_SEGMENTS_STRIDE } from '../../src/query/closestPoints';
import { CONTACT_STRIDE } from '../../src/contacts/manifold';
import { POSE_STRIDE, poseFromTranslationQuaternion } from '../../src/tree/pose';
import { TreeQueryResult } from '../../src/tree/queryResult';
import { overlapTreeObb } from '../../src/tree/overlapVolume';
import {
  SAT_AXIS_SLACK,
  SAT_FALSE_OVERLAP_BAND,
  ROUNDING_ALLOWANCE,
  BOX_TRIANGLE_ROUNDING,
  TRI_TRI_TOUCH_TOLERANCE,
} from '../../src/tolerances';
import { obbSphereOverlap } from '../../src/query/sat';
import { contactObbTriangle } from '../../src/contacts/boxTriangle';
import { triTriOverlap } from '../../src/query/triTri';
import { type V, add, at, boxFromStore, cross, dot, norm, scale, segmentBoxDistance, sub, unit } from '../support/contactReference';
import { nearParallelPair } from '../../scenes/nearParallelPairs';
import { mulberry32, quaternionToAxes, randomQuaternion } from '../../scenes/random';

const identityPose = poseFromTranslationQuaternion(new Float64Array(POSE_STRIDE), 0, 0, 0, 0, [0, 0, 0, 1]) as Float64Array;
const result = new TreeQueryResult();
const manifold = new Float64Array(CONTACT_STRIDE);

/** A rigid motion (random rotation, then a shift of `offset` magnitude) applied to points. */
function rigidMotion(rand: () => number, offset: number): (p: V) => V {
  const g = quaternionToAxes(randomQuaternion(rand));
  const shift = [0, 1, 2].map(() => offset * (2 * rand() - 1));
  return (p) => [0, 1, 2].map((i) => shift[i] + g[i] * p[0] + g[3 + i] * p[1] + g[6 + i] * p[2]) as V;
}

/**
 * Exact distance from p to the parallelepiped of a stored box, {c + Σ s_k u_k : |s_k| ≤ h_k} with
 * the stored (maybe not quite orthonormal) axes: the bounded least-squares problem solved on each
 * of its 27 active sets (each s_k free or at ±h_k), the best feasible one kept.
 */
function parallelepipedDistance(box: ArrayLike<number>, p: V): number {
  const u = [at(box, 3), at(box, 6), at(box, 9)], h = at(box, 12), d = sub(p, at(box, 0));
  let best = Infinity;
  for (let set = 0; set < 27; set++) {
    const state = [set % 3, Math.floor(set / 3) % 3, Math.floor(set / 9)]; // 0 free, 1 at +h, 2 at −h
    const s = state.map((t, k) => (t === 0 ? 0 : t === 1 ? h[k] : -h[k]));
    const free = [0, 1, 2].filter((k) => state[k] === 0);
    let r = d;
    for (let k = 0; k < 3; k++) r = sub(r, scale(u[k], s[k]));
    // Normal equations of the free coordinates, by Cramer's rule (1, 2 or 3 unknowns).
    const g = free.map((a) => free.map((b) => dot(u[a], u[b])));
    const rhs = free.map((a) => dot(u[a], r));
    const det = (m: number[][]): number => (m.length === 0 ? 1 : m.length === 1 ? m[0][0] : m.length === 2 ? m[0][0] * m[1][1] - m[0][1] * m[1][0]
      : dot(m[0] as V, cross(m[1] as V, m[2] as V)));
    const D = det(g);
    if (D === 0) continue;
    let feasible = true;
    free.forEach((k, i) => {
      s[k] = det(g.map((row, j) => row.map((x, c) => (c === i ? rhs[j] : x)))) / D;
      if (Math.abs(s[k]) > h[k]) feasible = false;
    });
    if (!feasible) continue;
    let q = d;
    for (let k = 0; k < 3; k++) q = sub(q, scale(u[k], s[k]));
    best = Math.min(best, norm(q));
  }
  return best;
}

describe('obbSphereOverlap (src/query/sat.ts): its bands against the exact distance to the stored box', () => {
  it('Float64 axes: wrong only within rounding of the coordinates; Float32 axes: apart only within 1e-7 of the size', () => {
    let falseApart = 0, checked = 0;
    fc.assert(fc.property(
      fc.integer({ min: 0, max: 2 ** 31 - 1 }), fc.constantFrom(0, 1e3, 1e6), fc.boolean(), fc.double({ min: -9, max: 0, noNaN: true }),
      fc.constantFrom(-1e-3, 0, 1e-3),
      (seed, offset, single, logR, relative) => {
        const rand = mulberry32(seed);
        const axes = quaternionToAxes(randomQuaternion(rand));
        const raw = [...[0, 1, 2].map(() => offset * (2 * rand() - 1)), ...axes, ...[0, 1, 2].map(() => 0.1 + rand())];
        const box = single ? Float64Array.from(Float32Array.from(raw)) : Float64Array.from(raw);
        const u = [at(box, 3), at(box, 6), at(box, 9)];
        // A point of the stored box's surface (face, edge or corner) and the outward direction there.
        const on = Math.floor(rand() * 3) + 1, sign = [0, 1, 2].map(() => (rand() < 0.5 ? -1 : 1));
        let p = at(box, 0), n: V = [0, 0, 0];
        for (let k = 0; k < 3; k++) {
          p = add(p, scale(u[k], k < on ? sign[k] * box[12 + k] : (2 * rand() - 1) * box[12 + k]));
          // Outward normals of the parallelepiped's faces: crosses of the other two axes.
          if (k < on) n = add(n, scale(unit(cross(u[(k + 1) % 3], u[(k + 2) % 3])), sign[k] * (0.2 + rand()) * Math.sign(dot(cross(u[(k + 1) % 3], u[(k + 2) % 3]), u[k]))));
        }
        const r = 10 ** logR;
        const sphere = [...add(p, scale(unit(n), r * (1 + relative))), r];
        const gap = parallelepipedDistance(box, sphere as V) - r;
        const size = box[12] + box[13] + box[14] + r;
        const rounding = 4 * ROUNDING_ALLOWANCE * (offset + size);
        const got = obbSphereOverlap(box, 0, sphere, 0);
        checked++;
        // Never reports touching beyond rounding.
        if (got) expect(gap).toBeLessThanOrEqual(rounding);
        if (!got && gap <= 0) {
          falseApart++;
          // Reports apart a sphere that overlaps the box only by rounding (Float64 axes) or by up
          // to 1e-7 of the size (Float32 axes: the clamped point is off the closest one by that).
          expect(-gap).toBeLessThanOrEqual(rounding + (single ? 1e-7 * size : 0));
        }
      },
    ), { numRuns: 20_000, seed: 31 });
    expect(checked).toBe(20_000);
    // Such false separations happen (see the doc comment): the property exercises them.
    expect(falseApart).toBeGreaterThan(100);
  });
});

describe('closestPtSegmentSegment (capsule booleans): nearly parallel segments', () => {
  const out = new Float64Array(CLOSEST_SEGMENTS_STRIDE);
  it('never shorter than the true distance beyond rounding; longer by at most 5e-8 of the longer segment', () => {
    fc.assert(fc.property(
      fc.integer({ min: 0, max: 2 ** 31 - 1 }), fc.double({ min: -10, max: -1, noNaN: true }), fc.double({ min: -2, max: 2, noNaN: true }),
      fc.double({ min: -12, max: 0, noNaN: true }), fc.constantFrom(0, 1e3),
      (seed, logAngle, logSize, logGap, offset) => {
        const rand = mulberry32(seed);
        const angle = 10 ** logAngle, size = 10 ** logSize, gap = size * 10 ** logGap;
        // S1 along x through the origin; S2 `gap` above it (z), turned by `angle` about z, crossing
        // over S1 at x = u: the closest points are the crossing, `gap` apart.
        const a1 = (0.2 + rand()) * size, b1 = (0.2 + rand()) * size, a2 = (0.2 + rand()) * size, b2 = (0.2 + rand()) * size;
        const u = (rand() - 0.5) * 0.2 * size, c = Math.cos(angle), s = Math.sin(angle);
        const move = rigidMotion(rand, offset * size);
        const ends = [[-a1, 0, 0], [b1, 0, 0], [u - a2 * c, -a2 * s, gap], [u + b2 * c, b2 * s, gap]].map((p) => move(p as V));
        const segments = Float64Array.from(ends.flat());
        const d = Math.sqrt(closestPtSegmentSegment(out, 0, segments, 0, segments, 6));
        const longer = Math.max(a1 + b1, a2 + b2);
        expect(d).toBeGreaterThanOrEqual(gap - 8 * ROUNDING_ALLOWANCE * (offset + 2) * size);
        expect(d - gap).toBeLessThanOrEqual(5e-8 * longer + 8 * ROUNDING_ALLOWANCE * (offset + 2) * size);
      },
    ), { numRuns: 20_000, seed: 37 });
  });
});

/**
 * A box and a triangle whose closest features are nearly parallel edges: a pair of boxes from
 * nearParallelPair, and the triangle spanned by the second box's crossing edge and its centre (in
 * that box, so apart from the first by exactly the gap when it is positive; its edge passes
 * through the first box when it is negative). The crossing edge is the second box's edge nearest
 * the first box (reference distances by ternary search).
 */
function boxAndTriangle(rand: () => number, angle: number, relativeGap: number, size: number): { box: Float64Array; triangle: Float64Array; gap: number } {
  const pair = nearParallelPair(rand, angle, relativeGap, size, 1);
  const other = boxFromStore(pair.b), box = boxFromStore(pair.a);
  let best = Infinity, edge: V[] = [];
  for (let k = 0; k < 3; k++) {
    for (const s1 of [-1, 1]) {
      for (const s2 of [-1, 1]) {
        const mid = add(other.c, add(scale(other.u[(k + 1) % 3], s1 * other.h[(k + 1) % 3]), scale(other.u[(k + 2) % 3], s2 * other.h[(k + 2) % 3])));
        const e = [sub(mid, scale(other.u[k], other.h[k])), add(mid, scale(other.u[k], other.h[k]))];
        const d = segmentBoxDistance(e[0], e[1], box);
        if (d < best) {
          best = d;
          edge = e;
        }
      }
    }
  }
  return { box: pair.a, triangle: Float64Array.from([...edge[0], ...edge[1], ...other.c]), gap: pair.gap };
}

/**
 * A box as a store holds it: random rotation, from a Float32 store (axes orthonormal to about
 * 1.2e-7), or in doubles with its axes moved at random so that max |ui·uj − δij| is
 * 0.9 × SAT_AXIS_SLACK, what the kernels allow.
 */
function storedBox(rand: () => number, centre: number[], half: number[], axesKind: 'float32' | 'perturbed'): Float32Array | Float64Array {
  const raw = [...centre, ...quaternionToAxes(randomQuaternion(rand)), ...half];
  if (axesKind === 'float32') return Float32Array.from(raw);
  const e = Array.from({ length: 9 }, () => 2 * rand() - 1);
  const worst = (t: number) => Math.max(...[0, 1, 2].flatMap((i) => [0, 1, 2].map((j) => Math.abs(
    [0, 1, 2].reduce((sum, c) => sum + (raw[3 + 3 * i + c] + t * e[3 * i + c]) * (raw[3 + 3 * j + c] + t * e[3 * j + c]), 0) - (i === j ? 1 : 0)))));
  const t = ((0.9 * SAT_AXIS_SLACK) / worst(1e-6)) * 1e-6;
  for (let i = 0; i < 9; i++) raw[3 + i] += t * e[i];
  return Float64Array.from(raw);
}

describe('box against triangle (mesh leaf test, contactObbTriangle): nearly parallel edges', () => {
  it('an edge of the stored box and a triangle edge at 1e-7..1e-1 rad, gap known exactly: never apart when touching, touching only within the bands', () => {
    let touching = 0, apart = 0;
    fc.assert(fc.property(
      fc.integer({ min: 0, max: 2 ** 31 - 1 }), fc.double({ min: -7, max: -1, noNaN: true }), fc.double({ min: -9, max: -1, noNaN: true }),
      fc.boolean(), fc.double({ min: -2, max: 2, noNaN: true }), fc.constantFrom('float32', 'perturbed'),
      (seed, logAngle, logGap, positive, logSize, axesKind) => {
        const rand = mulberry32(seed);
        const size = 10 ** logSize;
        const box = storedBox(rand, [0, 1, 2].map(() => size * (2 * rand() - 1)), [0, 1, 2].map(() => size * (0.2 + rand())), axesKind as 'float32' | 'perturbed');
        const u = [at(box, 3), at(box, 6), at(box, 9)], h = at(box, 12), centre = at(box, 0);
        // Edge k of the parallelepiped on sides (σm, σn), its outward face normals there, and a
        // direction n between them: the plane through the edge with normal n supports the box.
        const k = Math.floor(rand() * 3), m = (k + 1) % 3, l = (k + 2) % 3;
        const sm = rand() < 0.5 ? -1 : 1, sl = rand() < 0.5 ? -1 : 1;
        const faceNormal = (j: number, sign: number) => {
          const c = cross(u[(j + 1) % 3], u[(j + 2) % 3]);
          return scale(unit(c), sign * Math.sign(dot(c, u[j])));
        };
        const n = unit(add(scale(faceNormal(m, sm), 0.1 + rand()), scale(faceNormal(l, sl), 0.1 + rand())));
        const along = unit(u[k]);
        const edgePoint = add(add(add(centre, scale(u[m], sm * h[m])), scale(u[l], sl * h[l])), scale(u[k], (2 * rand() - 1) * h[k]));
        // The triangle's edge crosses over the box edge, `gap` out along n, turned by `angle` in
        // the plane; its third vertex farther out: apart by exactly `gap` (through the box when < 0).
        const angle = 10 ** logAngle, gap = (positive ? 1 : -1) * size * 10 ** logGap;
        const d = add(scale(along, Math.cos(angle)), scale(unit(cross(n, along)), Math.sin(angle)));
        const q = add(edgePoint, scale(n, gap)), L = size * (0.5 + rand());
        const triangle = Float64Array.from([...sub(q, scale(d, L * rand())), ...add(q, scale(d, L * rand())), ...add(q, add(scale(n, L), scale(d, (rand() - 0.5) * L)))]);
        const half = h[0] + h[1] + h[2];
        const magnitude = Math.max(...Array.from(triangle, Math.abs), ...centre.map(Math.abs)) + half;
        const rounding = 8 * ROUNDING_ALLOWANCE * magnitude;
        const tree = buildBoundingTree(triangle, [0, 1, 2]);
        const leaf = overlapTreeObb(result, tree, identityPose, 0, box, 0, 'first') > 0;
        if (leaf) touching++;
        else apart++;
        if (gap < -rounding) expect(leaf, `gap ${gap}`).toBe(true);
        if (gap > Math.sqrt(3) * (SAT_AXIS_SLACK * half + ROUNDING_ALLOWANCE * 2 * magnitude) + rounding) expect(leaf, `gap ${gap}`).toBe(false);
        const count = contactObbTriangle(manifold, 0, result.query, 0, tree.triangles, 0);
        if (leaf) expect(count).toBeGreaterThan(0);
        // The contact's band, plus its own measure of the box: its radius along an axis is off by up
        // to √3 × (the axes' orthonormality error) × half.
        if (gap > (SAT_FALSE_OVERLAP_BAND + Math.sqrt(3) * SAT_AXIS_SLACK) * half + BOX_TRIANGLE_ROUNDING * 2 * magnitude + rounding) {
          expect(count, `gap ${gap} = ${gap / half} × half`).toBe(0);
        }
      },
    ), { numRuns: 6000, seed: 53 });
    expect(touching).toBeGreaterThan(1500);
    expect(apart).toBeGreaterThan(1500);
  });

  it('never apart when touching, touching only within the stated bands; the contact follows the leaf test', () => {
    let touching = 0, apart = 0;
    fc.assert(fc.property(
      fc.integer({ min: 0, max: 2 ** 31 - 1 }), fc.double({ min: -7, max: -1, noNaN: true }), fc.double({ min: -7, max: -1, noNaN: true }),
      fc.boolean(), fc.double({ min: -2, max: 2, noNaN: true }), fc.boolean(),
      (seed, logAngle, logGap, positive, logSize, single) => {
        const rand = mulberry32(seed);
        const size = 10 ** logSize;
        const { box: exact, triangle, gap } = boxAndTriangle(rand, 10 ** logAngle, (positive ? 1 : -1) * 10 ** logGap, size);
        // The box as a Float32 store holds it: the shape itself moves by that rounding.
        const box = single ? Float64Array.from(Float32Array.from(exact)) : exact;
        const half = box[12] + box[13] + box[14];
        const magnitude = Math.max(...Array.from(triangle, Math.abs), ...[0, 1, 2].map((k) => Math.abs(box[k]))) + half;
        const ambiguity = single ? SAT_AXIS_SLACK * half + 1e-7 * magnitude : 4 * ROUNDING_ALLOWANCE * magnitude;
        const tree = buildBoundingTree(triangle, [0, 1, 2]);
        const leaf = overlapTreeObb(result, tree, identityPose, 0, box, 0, 'first') > 0;
        if (leaf) touching++;
        else apart++;
        // Never apart when they touch (the edges pass through each other).
        if (gap < -ambiguity) expect(leaf, `gap ${gap}`).toBe(true);
        // Touching only within the leaf test's band: √3 × (SAT_AXIS_SLACK × half + rounding).
        if (gap > Math.sqrt(3) * (SAT_AXIS_SLACK * half + ROUNDING_ALLOWANCE * 2 * magnitude) + ambiguity) expect(leaf, `gap ${gap}`).toBe(false);
        // The contact kernel, on the numbers the leaf test saw: a point whenever it reports the
        // triangle, none beyond its own band.
        const count = contactObbTriangle(manifold, 0, result.query, 0, tree.triangles, 0);
        if (leaf) expect(count).toBeGreaterThan(0);
        if (gap > SAT_FALSE_OVERLAP_BAND * half + BOX_TRIANGLE_ROUNDING * 2 * magnitude + ambiguity) expect(count).toBe(0);
      },
    ), { numRuns: 6000, seed: 41 });
    expect(touching).toBeGreaterThan(1500);
    expect(apart).toBeGreaterThan(1500);
  });
});

describe('mesh tree node tests: never cull a triangle the box touches', () => {
  it('query boxes 1..1e4 times the triangle, through its plane by 1e-9..1e-3 of their size, faces nearly parallel (1e-7..1e-1 rad), axes from a Float32 store or off orthonormal by up to SAT_AXIS_SLACK', () => {
    fc.assert(fc.property(
      fc.integer({ min: 0, max: 2 ** 31 - 1 }), fc.constantFrom(1, 100, 1e4), fc.double({ min: -9, max: -3, noNaN: true }),
      fc.double({ min: -7, max: -1, noNaN: true }), fc.constantFrom('float32', 'perturbed'),
      (seed, ratio, logDepth, logTilt, axesKind) => {
        const rand = mulberry32(seed);
        const box = storedBox(rand, [0, 0, 0], [0, 1, 2].map(() => ratio * (0.5 + rand())), axesKind);
        const u = [at(box, 3), at(box, 6), at(box, 9)], h = at(box, 12);
        // A point of face k of the stored box (a parallelepiped), pushed inside along its normal.
        const k = Math.floor(rand() * 3), m = (k + 1) % 3, l = (k + 2) % 3;
        const n = scale(unit(cross(u[m], u[l])), Math.sign(dot(cross(u[m], u[l]), u[k])));
        let p = scale(u[k], h[k]);
        p = add(p, add(scale(u[m], 0.9 * (2 * rand() - 1) * h[m]), scale(u[l], 0.9 * (2 * rand() - 1) * h[l])));
        p = sub(p, scale(n, 10 ** logDepth * ratio));
        // A unit triangle from there, out of the box, its plane tilted from the face by `tilt`.
        const t1 = unit(cross(n, [rand() - 0.5, rand() - 0.5, rand() - 0.5])), t2 = cross(n, t1), tilt = 10 ** logTilt;
        const triangle = [p, add(p, add(t1, scale(n, tilt))), add(p, add(add(scale(t1, 0.5), t2), scale(n, 2 * tilt)))].flat();
        const tree = buildBoundingTree(triangle, [0, 1, 2], { maxLeafTriangles: 1 });
        expect(overlapTreeObb(result, tree, identityPose, 0, box, 0, 'first'), `depth ${10 ** logDepth}`).toBe(1);
      },
    ), { numRuns: 4000, seed: 43 });
  });
});

describe('triTriOverlap: nearly parallel edges', () => {
  it('never apart when touching; touching only within TRI_TRI_TOUCH_TOLERANCE of the longest edge', () => {
    fc.assert(fc.property(
      fc.integer({ min: 0, max: 2 ** 31 - 1 }), fc.double({ min: -9, max: -1, noNaN: true }), fc.double({ min: -14, max: -4, noNaN: true }),
      fc.boolean(), fc.double({ min: -2, max: 2, noNaN: true }), fc.constantFrom(0, 100),
      (seed, logAngle, logGap, positive, logSize, offset) => {
        const rand = mulberry32(seed);
        const size = 10 ** logSize, angle = 10 ** logAngle, gap = (positive ? 1 : -1) * size * 10 ** logGap;
        // P in the plane z = 0 below its edge along x; C upright over its edge at height `gap`,
        // turned by `angle` about z, crossing over P's edge: `gap` apart, or through P when < 0.
        const c = Math.cos(angle), s = Math.sin(angle), x = (rand() - 0.5) * size;
        const move = rigidMotion(rand, offset * size);
        const P = [[-size, 0, 0], [size, 0, 0], [0.3 * size, -size, 0]].flatMap((p) => move(p as V));
        const C = [[x - size * c, -size * s, gap], [x + size * c, size * s, gap], [x, 0, gap + size]].flatMap((p) => move(p as V));
        const got = triTriOverlap(Float64Array.from(P), 0, Float64Array.from(C), 0);
        const rounding = 4 * ROUNDING_ALLOWANCE * (offset + 2) * size;
        if (gap < -rounding) expect(got).toBe(true);
        if (gap > TRI_TRI_TOUCH_TOLERANCE * 2 * size + rounding) expect(got).toBe(false);
      },
    ), { numRuns: 20_000, seed: 47 });
  });
});
