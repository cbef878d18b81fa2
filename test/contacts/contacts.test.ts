import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { AXIS_PREFERENCE_DEPTH, AXIS_PREFERENCE_SIZE, SAT_FALSE_OVERLAP_BAND } from '../../src/tolerances';
import {
  CONTACT_COUNT,
  CONTACT_DEPTH,
  CONTACT_FEATURE_A,
  CONTACT_FEATURE_B,
  CONTACT_POINTS,
  CONTACT_POINT_STRIDE,
  CONTACT_STRIDE,
  FEATURE_BOX_EDGE,
  FEATURE_BOX_VERTEX,
  FEATURE_CAPSULE_SIDE,
} from '../../src/contacts/manifold';
import { contactAabbAabb, contactObbObb } from '../../src/contacts/boxBox';
import { contactCapsuleCapsule, contactCapsuleSphere, contactSphereSphere } from '../../src/contacts/round';
import { contactCapsuleObb } from '../../src/contacts/capsuleBox';
import { contactSphereAabb, contactSphereObb } from '../../src/contacts/sphereBox';
import {
  type RefBox,
  type V,
  aabbAsBox,
  add,
  at,
  boxCorners,
  boxFromStore,
  boxPenetration,
  boxSupport,
  boxToStore,
  boxesSeparated,
  capsuleSupport,
  cross,
  distanceToBox,
  distanceToSegment,
  dot,
  interval,
  norm,
  randomBox,
  randomDirections,
  scale,
  segmentBoxDistance,
  segmentSegmentDistance,
  sub,
  translateBox,
  unit,
} from '../support/contactReference';
import { mulberry32 } from '../../scenes/random';
import { sphereOverlap } from '../../src/volumes/sphere';

const OO = 5; // write manifolds at an offset, to check offsets are honoured
const out = new Float64Array(OO + CONTACT_STRIDE);
const normalOf = (): V => at(out, OO);
const depthOf = () => out[OO + CONTACT_DEPTH];
const pointOf = (i: number): V => at(out, OO + CONTACT_POINTS + CONTACT_POINT_STRIDE * i);
const pointDepthOf = (i: number) => out[OO + CONTACT_POINTS + CONTACT_POINT_STRIDE * i + 3];

/** Checks what every manifold must satisfy and returns the normal and depth. */
function checkManifold(count: number): { n: V; depth: number } {
  expect(out[OO + CONTACT_COUNT]).toBe(count);
  if (count === 0) return { n: [0, 0, 0], depth: 0 };
  expect(count).toBeLessThanOrEqual(4);
  for (let i = 0; i < 7 + CONTACT_POINT_STRIDE * count; i++) expect(Number.isFinite(out[OO + i])).toBe(true);
  const n = normalOf();
  expect(Math.abs(norm(n) - 1)).toBeLessThan(1e-9);
  expect(depthOf()).toBeGreaterThanOrEqual(0);
  return { n, depth: depthOf() };
}

const rotateAbout = (v: V, axis: V, angle: number): V => {
  // Rodrigues' formula.
  const c = Math.cos(angle), s = Math.sin(angle);
  return add(add(scale(v, c), scale(cross(axis, v), s)), scale(axis, dot(axis, v) * (1 - c)));
};
const rotateBox = (b: RefBox, axis: V, angle: number): RefBox => ({
  c: rotateAbout(b.c, axis, angle),
  u: [rotateAbout(b.u[0], axis, angle), rotateAbout(b.u[1], axis, angle), rotateAbout(b.u[2], axis, angle)],
  h: b.h,
});

const BOX_KINDS = ['random', 'touching', 'parallelEdge', 'faceOnFace', 'edgeOnEdge', 'huge', 'thin', 'zeroSize'] as const;
type BoxKind = (typeof BOX_KINDS)[number];

function boxPair(seed: number, kind: BoxKind): [RefBox, RefBox] {
  const rand = mulberry32(seed);
  const jitter = (s: number): V => [(2 * rand() - 1) * s, (2 * rand() - 1) * s, (2 * rand() - 1) * s];
  let a = randomBox(rand, [0, 0, 0]);
  let b = randomBox(rand, jitter(2.5));
  switch (kind) {
    case 'touching': {
      // Slide B out along a random direction to the boundary of overlap (bisection on the
      // reference separation test; the overlapping translations form a convex set).
      const dir = unit(jitter(1));
      let lo = 0, hi = 10;
      b = translateBox(b, scale(b.c, -1));
      for (let i = 0; i < 80; i++) {
        const mid = 0.5 * (lo + hi);
        if (boxesSeparated(a, translateBox(b, scale(dir, mid)))) hi = mid;
        else lo = mid;
      }
      b = translateBox(b, scale(dir, lo));
      break;
    }
    case 'parallelEdge': {
      const k = Math.floor(rand() * 3);
      const axis = a.u[k];
      b = rotateBox({ c: [0, 0, 0], u: a.u, h: b.h }, axis, rand() * Math.PI);
      b = translateBox(b, jitter(2));
      break;
    }
    case 'faceOnFace': {
      const k = Math.floor(rand() * 3);
      const pen = 0.1 * rand();
      const tangent = add(scale(a.u[(k + 1) % 3], (2 * rand() - 1) * a.h[(k + 1) % 3]), scale(a.u[(k + 2) % 3], (2 * rand() - 1) * a.h[(k + 2) % 3]));
      b = { c: add(tangent, scale(a.u[k], a.h[k] + b.h[k] - pen)), u: a.u, h: b.h };
      if (rand() < 0.5) b = rotateBox(translateBox(b, scale(b.c, -1)), a.u[k], 0.3 * (2 * rand() - 1));
      if (norm(b.c) === 0) b = translateBox(b, add(tangent, scale(a.u[k], a.h[k] + b.h[k] - pen)));
      break;
    }
    case 'edgeOnEdge': {
      // A's top edge along x, B's bottom edge along z, crossing; then a random common rotation.
      const ha: V = [0.5 + rand(), 0.5 + rand(), 0.5 + rand()];
      const hb: V = [0.5 + rand(), 0.5 + rand(), 0.5 + rand()];
      const a0 = rotateBox({ c: [0, 0, 0], u: [[1, 0, 0], [0, 1, 0], [0, 0, 1]], h: ha }, [1, 0, 0], Math.PI / 4 + 0.2 * (rand() - 0.5));
      const b0 = rotateBox({ c: [0, 0, 0], u: [[1, 0, 0], [0, 1, 0], [0, 0, 1]], h: hb }, [0, 0, 1], Math.PI / 4 + 0.2 * (rand() - 0.5));
      const topA = boxSupport(a0, [0, 1, 0]), bottomB = -boxSupport(b0, [0, -1, 0]);
      const pen = 0.05 * rand();
      const b1 = translateBox(b0, [0.3 * (rand() - 0.5), topA - bottomB - pen, 0.3 * (rand() - 0.5)]);
      const axis = unit(jitter(1)), angle = rand() * Math.PI;
      a = rotateBox(a0, axis, angle);
      b = rotateBox(b1, axis, angle);
      break;
    }
    case 'huge': {
      const offset: V = [1e6, -1e6, 5e5];
      a = translateBox(a, offset);
      b = translateBox(b, offset);
      break;
    }
    case 'thin': {
      a.h[Math.floor(rand() * 3)] = 1e-3;
      if (rand() < 0.5) b.h[Math.floor(rand() * 3)] = 1e-4;
      break;
    }
    case 'zeroSize': {
      b = { c: jitter(2), u: b.u, h: [0, 0, 0] };
      if (rand() < 0.3) a.h[0] = 0;
      break;
    }
  }
  return [a, b];
}

describe('contactObbObb', () => {
  let faceContacts = 0, edgeContacts = 0, minimalChecks = 0, separatedPairs = 0, strictPointChecks = 0;

  function checkPair(a: RefBox, b: RefBox): void {
    const size = Math.max(...a.h) + Math.max(...b.h);
    const sa = boxToStore(a), sb = boxToStore(b);
    const store = [0, 0, 0, ...sa, ...sb];
    const count = contactObbObb(out, OO, store, 3, store, 18);
    const ref = boxPenetration(a, b);
    const rounding = 1e-9 * (size + norm(a.c));
    if (ref > rounding) expect(count).toBeGreaterThan(0);
    // Within the SAT's false-overlap band the boxes may touch at depth 0 (as obbOverlap says).
    const band = SAT_FALSE_OVERLAP_BAND * [...a.h, ...b.h].reduce((x, y) => x + y, 0);
    if (ref < -(rounding + band)) expect(count).toBe(0);
    if (count === 0) {
      separatedPairs++;
      return;
    }
    const { n, depth } = checkManifold(count);
    // Depth: the least penetration over the 15 axes, up to the documented face preference.
    expect(depth).toBeGreaterThanOrEqual(ref - rounding);
    expect(depth).toBeLessThanOrEqual((ref + AXIS_PREFERENCE_SIZE * size) / (1 - AXIS_PREFERENCE_DEPTH) + rounding);
    // Moving B by slightly more than depth along n separates; by clearly less does not.
    expect(boxesSeparated(a, translateBox(b, scale(n, depth + 1e-4 * size)))).toBe(true);
    if (depth > 1e-3 * size && depth <= ref + rounding) {
      minimalChecks++;
      expect(boxesSeparated(a, translateBox(b, scale(n, depth - 1e-3 * size)))).toBe(false);
    }
    // No direction separates with a shorter translation than the reference depth.
    const ca = boxCorners(a), cb = boxCorners(b);
    for (const m of randomDirections(mulberry32(count + 17), 48)) {
      expect(interval(ca, m)[1] - interval(cb, m)[0]).toBeGreaterThanOrEqual(ref - rounding);
    }
    // Points: in both boxes (up to tolerance) unless the penetration exceeds a box's thickness,
    // within the depth of both always; each no deeper than the manifold.
    const thin = 2 * Math.min(...a.h, ...b.h);
    if (depth <= thin) strictPointChecks++;
    for (let i = 0; i < count; i++) {
      const p = pointOf(i);
      const slack = 1e-4 * size + (depth <= thin ? 0 : depth);
      expect(distanceToBox(a, p)).toBeLessThanOrEqual(slack);
      expect(distanceToBox(b, p)).toBeLessThanOrEqual(slack);
      expect(pointDepthOf(i)).toBeGreaterThanOrEqual(0);
      expect(pointDepthOf(i)).toBeLessThanOrEqual(depth + rounding);
    }
    // Features: faces are the most aligned with ±n; edges lie on the supporting side.
    const fa = out[OO + CONTACT_FEATURE_A], fb = out[OO + CONTACT_FEATURE_B];
    if (fa < FEATURE_BOX_EDGE) {
      faceContacts++;
      expect(fb).toBeLessThan(FEATURE_BOX_EDGE);
      const faceNormal = (box: RefBox, f: number) => scale(box.u[f >> 1], f & 1 ? 1 : -1);
      const bestA = Math.max(...a.u.map((u) => Math.abs(dot(u, n))));
      const bestB = Math.max(...b.u.map((u) => Math.abs(dot(u, n))));
      expect(dot(faceNormal(a, fa), n)).toBeGreaterThanOrEqual(bestA - 1e-9);
      expect(dot(faceNormal(b, fb), n)).toBeLessThanOrEqual(-bestB + 1e-9);
      expect(count).toBeGreaterThanOrEqual(1);
    } else {
      edgeContacts++;
      expect(count).toBe(1);
      const edgeEnds = (box: RefBox, f: number): V[] => {
        const e = f - FEATURE_BOX_EDGE, k = e >> 2;
        const mid = add(box.c, add(
          scale(box.u[(k + 1) % 3], e & 1 ? box.h[(k + 1) % 3] : -box.h[(k + 1) % 3]),
          scale(box.u[(k + 2) % 3], e & 2 ? box.h[(k + 2) % 3] : -box.h[(k + 2) % 3]),
        ));
        return [add(mid, scale(box.u[k], box.h[k])), sub(mid, scale(box.u[k], box.h[k]))];
      };
      expect(fa).toBeLessThan(FEATURE_BOX_VERTEX);
      expect(fb).toBeLessThan(FEATURE_BOX_VERTEX);
      const topA = interval(ca, n)[1], bottomB = interval(cb, n)[0];
      for (const p of edgeEnds(a, fa)) expect(dot(p, n)).toBeGreaterThanOrEqual(topA - 1e-6 * size);
      for (const p of edgeEnds(b, fb)) expect(dot(p, n)).toBeLessThanOrEqual(bottomB + 1e-6 * size);
    }
  }

  for (const kind of BOX_KINDS) {
    it(`least-penetration normal and depth, points in both boxes, features: ${kind}`, () => {
      fc.assert(fc.property(fc.integer(), (seed) => checkPair(...boxPair(seed, kind))), { numRuns: 250 });
    });
  }

  it('exercised face and edge contacts, minimality and separated pairs', () => {
    expect(faceContacts).toBeGreaterThan(500);
    expect(edgeContacts).toBeGreaterThan(20);
    expect(minimalChecks).toBeGreaterThan(500);
    expect(separatedPairs).toBeGreaterThan(50);
    expect(strictPointChecks).toBeGreaterThan(500);
  });

  it('face-on-face gives 4 points at the corners of the overlap', () => {
    const a: RefBox = { c: [0, 0, 0], u: [[1, 0, 0], [0, 1, 0], [0, 0, 1]], h: [2, 0.5, 2] };
    const b: RefBox = { c: [0.3, 0.9, -0.2], u: [[1, 0, 0], [0, 1, 0], [0, 0, 1]], h: [0.5, 0.5, 0.5] };
    const store = [...boxToStore(a), ...boxToStore(b)];
    expect(contactObbObb(out, OO, store, 0, store, 15)).toBe(4);
    expect(normalOf()).toEqual([0, 1, 0]);
    expect(depthOf()).toBeCloseTo(0.1, 12);
    const xs = [0, 1, 2, 3].map((i) => pointOf(i)[0]).sort((x, y) => x - y);
    expect(xs[0]).toBeCloseTo(-0.2, 12);
    expect(xs[3]).toBeCloseTo(0.8, 12);
    for (let i = 0; i < 4; i++) expect(pointOf(i)[1]).toBeCloseTo(0.4, 12);
  });
});

describe('contactAabbAabb', () => {
  it('matches the box reference: least-penetration axis, overlap-rectangle corners', () => {
    fc.assert(
      fc.property(fc.integer(), fc.constantFrom(0, 1e6), fc.boolean(), (seed, offset, flat) => {
        const rand = mulberry32(seed);
        const box = () => {
          const lo = [0, 1, 2].map(() => offset + 4 * rand());
          const hi = lo.map((l) => l + (flat && rand() < 0.3 ? 0 : 3 * rand()));
          return [...lo, ...hi];
        };
        const a = box(), b = box();
        const count = contactAabbAabb(out, OO, a, 0, b, 0);
        const ra = aabbAsBox(a), rb = aabbAsBox(b);
        const ref = boxPenetration(ra, rb);
        const tol = 1e-9 * (1 + offset);
        if (ref < -tol) expect(count).toBe(0);
        if (ref > tol) expect(count).toBeGreaterThan(0);
        if (count === 0) return;
        const { n, depth } = checkManifold(count);
        expect(Math.abs(depth - ref)).toBeLessThanOrEqual(tol);
        expect(boxesSeparated(ra, translateBox(rb, scale(n, depth + 1e-6)))).toBe(true);
        const k = n.findIndex((c) => c !== 0);
        expect(Math.abs(n[k])).toBe(1);
        const thin = 2 * Math.min(...ra.h, ...rb.h);
        for (let i = 0; i < count; i++) {
          const p = pointOf(i);
          // On B's face, so inside A unless the penetration exceeds A's thickness.
          expect(distanceToBox(ra, p)).toBeLessThanOrEqual(tol + (depth <= thin ? 0 : depth));
          expect(distanceToBox(rb, p)).toBeLessThanOrEqual(tol);
          for (const j of [(k + 1) % 3, (k + 2) % 3]) {
            const lo = Math.max(a[j], b[j]), hi = Math.min(a[3 + j], b[3 + j]);
            expect(p[j] === lo || p[j] === hi).toBe(true);
          }
        }
        // Distinct corners of the overlap rectangle: 4, or fewer when it is flat.
        const widths = [(k + 1) % 3, (k + 2) % 3].map((j) => Math.min(a[3 + j], b[3 + j]) - Math.max(a[j], b[j]));
        expect(count).toBe((widths[0] > 0 ? 2 : 1) * (widths[1] > 0 ? 2 : 1));
        expect(out[OO + CONTACT_FEATURE_A] >> 1).toBe(k);
        expect(out[OO + CONTACT_FEATURE_B] >> 1).toBe(k);
      }),
      { numRuns: 600 },
    );
  });
});

/** A shape for the round-contact checks: support, distance from a point, and a "core" for separation. */
interface Shape {
  support: (n: V) => number;
  /** Distance from p to the solid shape (0 inside). */
  distance: (p: V) => number;
  size: number;
  /** Smallest width: contacts shallower than a fraction of it have points inside both shapes. */
  thickness: number;
}
const capsuleShape = (p0: V, p1: V, r: number): Shape => ({
  support: (n) => capsuleSupport(p0, p1, r, n),
  distance: (p) => Math.max(0, distanceToSegment(p, p0, p1) - r),
  size: r + norm(sub(p1, p0)),
  thickness: 2 * r,
});
const boxShape = (b: RefBox): Shape => ({
  support: (n) => boxSupport(b, n),
  distance: (p) => distanceToBox(b, p),
  size: Math.max(...b.h),
  thickness: 2 * Math.min(...b.h),
});

/**
 * Shared checks of a round contact against the reference depth: unit normal A→B whose
 * separating translation (from supports) equals the depth, no sampled direction separates with
 * less, and points within both shapes (strictly for shallow contacts, within depth/2 always).
 */
function checkRound(count: number, A: Shape, B: Shape, refDepth: number, offset = 0, hysteresis = false): { n: V; depth: number } {
  const tol = 1e-9 * (1 + A.size + B.size + offset);
  if (refDepth > tol) expect(count).toBeGreaterThan(0);
  if (refDepth < -tol) expect(count).toBe(0);
  if (count === 0) return { n: [0, 0, 0], depth: 0 };
  const { n, depth } = checkManifold(count);
  const close = 1e-7 * (1 + A.size + B.size) + tol;
  expect(depth).toBeGreaterThanOrEqual(refDepth - close);
  // Capsule-box penetration prefers face axes (AXIS_PREFERENCE_*), as boxes do.
  const slack = hysteresis ? (refDepth + AXIS_PREFERENCE_SIZE * (A.size + B.size)) / (1 - AXIS_PREFERENCE_DEPTH) - refDepth : 0;
  expect(depth).toBeLessThanOrEqual(refDepth + slack + close);
  const sep = (m: V) => A.support(m) + B.support(scale(m, -1));
  expect(Math.abs(sep(n) - depth)).toBeLessThanOrEqual(close);
  for (const m of randomDirections(mulberry32(count), 64)) expect(sep(m)).toBeGreaterThanOrEqual(depth - slack - close);
  const shallow = depth <= 0.1 * Math.min(A.thickness, B.thickness);
  for (let i = 0; i < count; i++) {
    const p = pointOf(i);
    const slack = (shallow ? 0 : 0.5 * depth) + 1e-7 * (1 + A.size + B.size) + tol;
    expect(A.distance(p)).toBeLessThanOrEqual(slack);
    expect(B.distance(p)).toBeLessThanOrEqual(slack);
    expect(pointDepthOf(i)).toBeLessThanOrEqual(depth + tol);
  }
  return { n, depth };
}

const ROUND_KINDS = ['random', 'coincident', 'zeroRadius', 'zeroLength', 'parallel', 'huge'] as const;
type RoundKind = (typeof ROUND_KINDS)[number];

/** Random capsule (p0, p1, r) near `centre`; kinds force the degenerate cases. */
function randomCapsule(rand: () => number, centre: V, kind: RoundKind, dir?: V): [V, V, number] {
  const j = (s: number): V => [(2 * rand() - 1) * s, (2 * rand() - 1) * s, (2 * rand() - 1) * s];
  const p0 = add(centre, j(1.5));
  const p1 = kind === 'zeroLength' ? p0 : dir ? add(p0, scale(dir, 0.2 + 2 * rand())) : add(p0, j(2));
  const r = kind === 'zeroRadius' ? 0 : 1.2 * rand();
  return [p0, p1, r];
}

describe('sphere and capsule contacts', () => {
  for (const kind of ROUND_KINDS) {
    it(`sphere-sphere, capsule-sphere, capsule-capsule match closed-form/sampled depths: ${kind}`, () => {
      fc.assert(
        fc.property(fc.integer(), (seed) => {
          const rand = mulberry32(seed);
          const offset = kind === 'huge' ? 1e6 : 0;
          const o: V = [offset, -offset, offset];
          const [a0, a1, ra] = randomCapsule(rand, o, kind);
          const dir = kind === 'parallel' && norm(sub(a1, a0)) > 0 ? unit(sub(a1, a0)) : undefined;
          let [b0, b1, rb] = randomCapsule(rand, kind === 'coincident' ? a0 : o, kind, dir);
          if (kind === 'coincident') b0 = a0;
          const A = capsuleShape(a0, a1, ra);
          // sphere-sphere (A's first end)
          const sa = [...a0, ra], sb = [...b0, rb];
          let count = contactSphereSphere(out, OO, sa, 0, sb, 0);
          let res = checkRound(count, capsuleShape(a0, a0, ra), capsuleShape(b0, b0, rb), ra + rb - norm(sub(b0, a0)), offset);
          if (count > 0 && norm(sub(b0, a0)) === 0) expect(res.n).toEqual([1, 0, 0]);
          // capsule-sphere
          const ca = [...a0, ...a1, ra], cb = [...b0, ...b1, rb];
          count = contactCapsuleSphere(out, OO, ca, 0, sb, 0);
          res = checkRound(count, A, capsuleShape(b0, b0, rb), ra + rb - distanceToSegment(b0, a0, a1), offset);
          // capsule-capsule
          count = contactCapsuleCapsule(out, OO, ca, 0, cb, 0);
          const dist = segmentSegmentDistance(a0, a1, b0, b1);
          res = checkRound(count, A, capsuleShape(b0, b1, rb), ra + rb - dist, offset);
          if (kind === 'parallel' && count > 0 && dir) {
            // Overlapping parallel segments: two points, at the ends of the overlap.
            const s = (p: V) => dot(sub(p, a0), dir);
            const lo = Math.max(0, Math.min(s(b0), s(b1))), hi = Math.min(s(a1), Math.max(s(b0), s(b1)));
            if (hi - lo > 1e-6) {
              expect(count).toBe(2);
              const ends = [s(pointOf(0)), s(pointOf(1))].sort((x, y) => x - y);
              expect(ends[0]).toBeCloseTo(lo, 6);
              expect(ends[1]).toBeCloseTo(hi, 6);
              expect(pointDepthOf(0)).toBeCloseTo(ra + rb - dist, 6);
              expect(out[OO + CONTACT_FEATURE_A]).toBe(FEATURE_CAPSULE_SIDE);
            }
          }
        }),
        { numRuns: 250 },
      );
    });
  }
});

describe('sphere and capsule against boxes', () => {
  const KINDS = ['random', 'inside', 'zeroRadius', 'zeroLength', 'lying', 'huge', 'zeroBox'] as const;
  for (const kind of KINDS) {
    it(`sphere-OBB, sphere-AABB, capsule-OBB depth vs clamped/sampled references: ${kind}`, () => {
      fc.assert(
        fc.property(fc.integer(), (seed) => {
          const rand = mulberry32(seed);
          const offset = kind === 'huge' ? 1e6 : 0;
          const o: V = [offset, offset, -offset];
          const box = randomBox(rand, o, kind === 'zeroBox' ? 0 : 0.2, kind === 'zeroBox' ? 0 : 2);
          const j = (s: number): V => [(2 * rand() - 1) * s, (2 * rand() - 1) * s, (2 * rand() - 1) * s];
          let p0 = add(o, j(3));
          if (kind === 'inside') p0 = add(box.c, add(scale(box.u[0], (2 * rand() - 1) * box.h[0]), add(scale(box.u[1], (2 * rand() - 1) * box.h[1]), scale(box.u[2], (2 * rand() - 1) * box.h[2]))));
          let p1 = kind === 'zeroLength' ? p0 : add(p0, j(2));
          const r = kind === 'zeroRadius' ? 0 : 1.2 * rand();
          let lyingAxis = -1;
          if (kind === 'lying') {
            // Segment parallel to a face, hovering within reach of it.
            const k = Math.floor(rand() * 3);
            lyingAxis = k;
            const t = box.u[(k + 1) % 3];
            p0 = add(box.c, add(scale(box.u[k], box.h[k] + r * (1.2 * rand() - 0.1)), scale(t, -2 * rand())));
            p1 = add(p0, add(scale(t, 1 + 2 * rand()), scale(box.u[(k + 2) % 3], (2 * rand() - 1) * box.h[(k + 2) % 3] * 0.5)));
          }
          const store = boxToStore(box);
          const B = boxShape(box);
          // sphere-OBB
          const sphere = [...p0, r];
          const inside = distanceToBox(box, p0) === 0;
          const faceGap = Math.min(...[0, 1, 2].map((k) => box.h[k] - Math.abs(dot(sub(p0, box.c), box.u[k]))));
          const sphereDepth = inside ? r + faceGap : r - distanceToBox(box, p0);
          let count = contactSphereObb(out, OO, sphere, 0, store, 0);
          checkRound(count, capsuleShape(p0, p0, r), B, sphereDepth, offset);
          if (count > 0) expect(boxFromStore(store).c).toEqual(box.c);
          // sphere-AABB: the box's world AABB.
          const lo = [0, 1, 2].map((k) => box.c[k] - (box.h[k] + 0.3)), hi = [0, 1, 2].map((k) => box.c[k] + box.h[k] + 0.3);
          const aabb = [...lo, ...hi];
          const aabbBox = aabbAsBox(aabb);
          const inA = distanceToBox(aabbBox, p0) === 0;
          const gapA = Math.min(...[0, 1, 2].map((k) => aabbBox.h[k] - Math.abs(p0[k] - aabbBox.c[k])));
          count = contactSphereAabb(out, OO, sphere, 0, aabb, 0);
          checkRound(count, capsuleShape(p0, p0, r), boxShape(aabbBox), inA ? r + gapA : r - distanceToBox(aabbBox, p0), offset);
          // capsule-OBB: outside, r − distance; segment meeting the box, r + the segment's least
          // penetration, min over face axes, segment × axes crosses and sampled directions.
          const capsule = [...p0, ...p1, r];
          const dist = segmentBoxDistance(p0, p1, box);
          let capsuleDepth = r - dist;
          if (dist <= 1e-12 * (1 + offset)) {
            const d = sub(p1, p0);
            const axes: V[] = [...box.u, ...randomDirections(rand, 400)];
            for (const u of box.u) if (norm(cross(d, u)) > 1e-6 * norm(d)) axes.push(unit(cross(d, u)));
            capsuleDepth = Infinity;
            for (const m of axes) {
              for (const s of [m, scale(m, -1)]) capsuleDepth = Math.min(capsuleDepth, capsuleSupport(p0, p1, r, s) - interval(boxCorners(box), s)[0]);
            }
          }
          count = contactCapsuleObb(out, OO, capsule, 0, store, 0);
          const res = checkRound(count, capsuleShape(p0, p1, r), B, capsuleDepth, offset, true);
          if (count > 0) {
            // Moving the box by a little more than depth along n clears the capsule.
            const moved = translateBox(box, scale(res.n, res.depth + 1e-6 * (1 + B.size)));
            expect(segmentBoxDistance(p0, p1, moved)).toBeGreaterThanOrEqual(r - 1e-7 * (1 + B.size + r));
          }
          // Lying over the face (both ends above it): two points.
          const overFace = [p0, p1].every((p) => [0, 1, 2].every((k) => dot(sub(p, box.c), box.u[k]) >= -box.h[k] || k === lyingAxis)
            && [0, 1, 2].every((k) => dot(sub(p, box.c), box.u[k]) <= box.h[k] || k === lyingAxis));
          if (kind === 'lying' && count > 0 && overFace) expect(count).toBe(2);
        }),
        { numRuns: 200 },
      );
    });
  }

  it('a sphere centred in a box pushes out through the nearest face, never NaN', () => {
    const box = boxToStore({ c: [1, 2, 3], u: [[1, 0, 0], [0, 1, 0], [0, 0, 1]], h: [1, 0.5, 2] });
    expect(contactSphereObb(out, OO, [1, 2.1, 3, 0.25], 0, box, 0)).toBe(1);
    expect(normalOf().map((x) => x + 0)).toEqual([0, -1, 0]);
    expect(depthOf()).toBeCloseTo(0.25 + 0.4, 12);
    expect(contactSphereObb(out, OO, [1, 2, 3, 0], 0, box, 0)).toBe(1);
    expect(depthOf()).toBe(0.5);
    expect(contactSphereSphere(out, OO, [1, 1, 1, 0], 0, [1, 1, 1, 0], 0)).toBe(1);
    expect(normalOf()).toEqual([1, 0, 0]);
    expect(depthOf()).toBe(0);
  });
});

describe('round shapes: the contact agrees with the boolean test', () => {
  it('sphere pairs within ulps of touching get a contact exactly when sphereOverlap says they touch', () => {
    const out = new Float64Array(CONTACT_STRIDE);
    let touching = 0, apart = 0;
    fc.assert(fc.property(
      fc.double({ min: -1e6, max: 1e6, noNaN: true }), fc.double({ min: 1e-3, max: 1e3, noNaN: true }),
      fc.double({ min: 1e-3, max: 1e3, noNaN: true }), fc.integer({ min: -4, max: 4 }), fc.integer({ min: 0, max: 2 ** 31 - 1 }),
      (x, ra, rb, ulps, seed) => {
        const rand = mulberry32(seed);
        const d = [rand() - 0.5, rand() - 0.5, rand() - 0.5];
        const n = Math.hypot(...d) || 1;
        // Centres (ra + rb) apart along d, then nudged by a few ulps.
        const dist = (ra + rb) * (1 + ulps * Number.EPSILON);
        const a = Float64Array.from([x, -x, x / 3, ra]);
        const b = Float64Array.from([x + dist * d[0] / n, -x + dist * d[1] / n, x / 3 + dist * d[2] / n, rb]);
        const hit = sphereOverlap(a, 0, b, 0);
        if (hit) touching++;
        else apart++;
        const count = contactSphereSphere(out, 0, a, 0, b, 0);
        expect(count > 0).toBe(hit);
        if (count > 0) expect(out[CONTACT_DEPTH]).toBeGreaterThanOrEqual(0);
      },
    ), { numRuns: 3000, seed: 23 });
    expect(touching).toBeGreaterThan(300);
    expect(apart).toBeGreaterThan(300);
  });
});
