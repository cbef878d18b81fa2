// Contacts of a sphere, capsule or box against one triangle, checked against references written
// from scratch here: point-triangle distance by projection, segment-triangle distance by ternary
// search, box-triangle overlap and depth by a 13-axis SAT over corners, and the least separating
// translation along sampled directions by bisection on those overlap tests.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { AXIS_PREFERENCE_DEPTH, AXIS_PREFERENCE_SIZE } from '../../src/tolerances';
import {
  CONTACT_COUNT,
  CONTACT_DEPTH,
  CONTACT_FEATURE_B,
  CONTACT_POINTS,
  CONTACT_POINT_STRIDE,
  CONTACT_STRIDE,
  FEATURE_BOX_FACE,
} from '../../src/contacts/manifold';
import { FEATURE_TRIANGLE_FACE } from '../../src/contacts/triangles';
import { contactCapsuleTriangle, contactSphereTriangle } from '../../src/contacts/roundTriangle';
import { contactObbTriangle } from '../../src/contacts/boxTriangle';
import {
  type RefBox,
  type V,
  add,
  at,
  boxCorners,
  boxToStore,
  cross,
  distanceToBox,
  distanceToSegment,
  dot,
  interval,
  lerp,
  norm,
  randomBox,
  randomDirections,
  scale,
  sub,
  ternaryMin,
  unit,
} from '../support/contactReference';
import { mulberry32 } from '../../scenes/random';

const OO = 3;
const out = new Float64Array(OO + CONTACT_STRIDE);
const pointOf = (i: number): V => at(out, OO + CONTACT_POINTS + CONTACT_POINT_STRIDE * i);
const pointDepthOf = (i: number) => out[OO + CONTACT_POINTS + CONTACT_POINT_STRIDE * i + 3];

type Tri = [V, V, V];
const expectVector = (v: V, w: V) => { for (let k = 0; k < 3; k++) expect(Math.abs(v[k] - w[k])).toBeLessThan(1e-12); };
const triStore = (t: Tri) => [0, 0, ...t[0], ...t[1], ...t[2]]; // at offset 2
const moveTri = (t: Tri, d: V): Tri => [add(t[0], d), add(t[1], d), add(t[2], d)];

/** Distance from p to the triangle: to its plane when the projection falls inside, else to the nearest edge. */
function pointTriangleDistance(p: V, t: Tri): number {
  const edges = Math.min(distanceToSegment(p, t[0], t[1]), distanceToSegment(p, t[1], t[2]), distanceToSegment(p, t[2], t[0]));
  const n = cross(sub(t[1], t[0]), sub(t[2], t[0]));
  if (norm(n) < 1e-12) return edges;
  const u = unit(n);
  const q = sub(p, scale(u, dot(sub(p, t[0]), u)));
  for (let e = 0; e < 3; e++) if (dot(cross(sub(t[(e + 1) % 3], t[e]), sub(q, t[e])), n) < 0) return edges;
  return Math.abs(dot(sub(p, t[0]), u));
}

/** Distance from segment p0 p1 to the triangle (convex along the segment). */
const segmentTriangleDistance = (p0: V, p1: V, t: Tri) => ternaryMin((s) => pointTriangleDistance(lerp(p0, p1, s), t));

/** Least push of the triangle off the box over the 13 SAT axes (< 0: separated). */
function boxTrianglePenetration(b: RefBox, t: Tri): number {
  const axes: V[] = [...b.u];
  const n = cross(sub(t[1], t[0]), sub(t[2], t[0]));
  if (norm(n) > 1e-12 * Math.max(1, dot(sub(t[1], t[0]), sub(t[1], t[0])))) axes.push(unit(n));
  for (const u of b.u) for (let e = 0; e < 3; e++) {
    const c = cross(u, sub(t[(e + 1) % 3], t[e]));
    if (norm(c) > 1e-9) axes.push(unit(c));
  }
  const corners = boxCorners(b);
  let best = Infinity;
  for (const a of axes) {
    const [a0, a1] = interval(corners, a), [b0, b1] = interval(t, a);
    best = Math.min(best, a1 - b0, b1 - a0);
  }
  return best;
}

interface Case {
  /** Reference: does the shape meet triangle t (touching counts)? */
  meets: (t: Tri) => boolean;
  /** Distance from p to the solid shape. */
  distance: (p: V) => number;
  /** Runs the kernel on t, writing `out` at OO. */
  run: (t: Tri) => number;
  size: number;
  /** A triangle in a plane parallel to the shape's face or segment, near touching it. */
  aligned: (rand: () => number) => Tri;
  /** Exact reference depth when known (box SAT), with the face-preference slack it allows. */
  refDepth?: (t: Tri) => number;
}

/** Least translation along m separating the triangle from the shape, by bisection. */
function separationAlong(c: Case, t: Tri, m: V, far: number): number {
  let lo = 0, hi = far;
  for (let i = 0; i < 40; i++) {
    const mid = 0.5 * (lo + hi);
    if (c.meets(moveTri(t, scale(m, mid)))) lo = mid;
    else hi = mid;
  }
  return hi;
}

function checkCase(c: Case, t: Tri, seed: number, touching = false): void {
  const count = c.run(t);
  expect(out[OO + CONTACT_COUNT]).toBe(count);
  const meets = c.meets(t);
  const size = c.size + Math.max(norm(sub(t[1], t[0])), norm(sub(t[2], t[0])));
  if (count === 0) {
    // Only a contact within rounding of touching may be missed.
    if (meets) expect(separationAlong(c, t, unit([1, 2, 3]), 4 * size)).toBeLessThan(1e-7 * size);
    return;
  }
  expect(count).toBeLessThanOrEqual(4);
  for (let i = 0; i < 7 + CONTACT_POINT_STRIDE * count; i++) expect(Number.isFinite(out[OO + i])).toBe(true);
  const n = at(out, OO), depth = out[OO + CONTACT_DEPTH];
  expect(Math.abs(norm(n) - 1)).toBeLessThan(1e-9);
  expect(depth).toBeGreaterThanOrEqual(0);
  if (!meets) {
    // A reported contact the reference misses must be within rounding of touching.
    expect(depth).toBeLessThan(1e-7 * size);
    return;
  }
  // Moving the triangle by depth + 1e-4 along n separates; by depth − 1e-3 does not (less the
  // margin by which face axes are preferred: a nearly parallel edge axis may separate first).
  const preference = (depth + AXIS_PREFERENCE_SIZE * size) * AXIS_PREFERENCE_DEPTH / (1 - AXIS_PREFERENCE_DEPTH);
  expect(c.meets(moveTri(t, scale(n, depth + 1e-4)))).toBe(false);
  if (depth - 1e-3 - preference > 0) expect(c.meets(moveTri(t, scale(n, depth - 1e-3 - preference)))).toBe(true);
  // No sampled direction separates with a much shorter move.
  for (const m of randomDirections(mulberry32(seed), 12)) {
    expect(separationAlong(c, t, m, depth + 4 * size)).toBeGreaterThanOrEqual(depth - preference - 1e-7 * size);
  }
  if (c.refDepth) {
    const ref = c.refDepth(t);
    expect(depth).toBeGreaterThanOrEqual(ref - 1e-9 * size);
    expect(depth).toBeLessThanOrEqual(ref + preference + 1e-9 * size);
  }
  for (let i = 0; i < count; i++) {
    const p = pointOf(i), pd = pointDepthOf(i);
    expect(pd).toBeLessThanOrEqual(depth + 1e-9 * size);
    // Points lie within their depth of both shapes, and within 1e-4 of both when touching.
    const tol = (touching ? 0 : pd) + 1e-4;
    expect(c.distance(p)).toBeLessThanOrEqual(tol);
    expect(pointTriangleDistance(p, t)).toBeLessThanOrEqual(tol);
  }
}

const TRI_KINDS = ['random', 'large', 'zeroArea', 'point', 'touching', 'aligned'] as const;
type TriKind = (typeof TRI_KINDS)[number];

function randomTriangle(rand: () => number, kind: TriKind): Tri {
  const r = (s: number): V => [(2 * rand() - 1) * s, (2 * rand() - 1) * s, (2 * rand() - 1) * s];
  const a = r(2);
  switch (kind) {
    case 'large': {
      // A floor-like triangle much larger than the shapes, through the origin region.
      const u = unit(r(1)), v = unit(cross(u, r(1)));
      const o = scale(r(1), 0.5);
      return [add(o, scale(u, -20)), add(o, add(scale(u, 10), scale(v, 20))), add(o, add(scale(u, 10), scale(v, -20)))];
    }
    case 'zeroArea': {
      const b = r(2);
      return [a, b, lerp(a, b, rand())];
    }
    case 'point':
      return [a, a, a];
    case 'aligned':
      throw new Error('aligned triangles come from the case');
    default:
      return [a, r(2), r(2)];
  }
}

/** A triangle in the plane through o spanned by unit u, v, around o. */
function triangleInPlane(rand: () => number, o: V, u: V, v: V, s: number): Tri {
  const p = () => add(o, add(scale(u, (2 * rand() - 1) * s), scale(v, (2 * rand() - 1) * s)));
  return [p(), p(), p()];
}

/** Unit vector perpendicular to unit d. */
const perpendicular = (d: V): V => unit(cross(d, Math.abs(d[0]) < 0.9 ? [1, 0, 0] : [0, 1, 0]));

/** Slides t along a random direction to the boundary of contact with the shape. */
function makeTouching(c: Case, t: Tri, rand: () => number): Tri {
  const m = unit([2 * rand() - 1, 2 * rand() - 1, 2 * rand() - 1]);
  const centred = moveTri(t, scale(t[0], -1));
  return moveTri(centred, scale(m, separationAlong(c, centred, m, 30)));
}

function property(makeCase: (rand: () => number) => Case, kind: TriKind, runs = 150) {
  fc.assert(
    fc.property(fc.integer(), (seed) => {
      const rand = mulberry32(seed);
      const c = makeCase(rand);
      let t = kind === 'aligned' ? c.aligned(rand) : randomTriangle(rand, kind === 'touching' ? 'random' : kind);
      if (kind === 'touching') t = makeTouching(c, t, rand);
      checkCase(c, t, seed, kind === 'touching');
    }),
    { numRuns: runs },
  );
}

const sphereCase = (rand: () => number): Case => {
  const centre: V = [(2 * rand() - 1), (2 * rand() - 1), (2 * rand() - 1)], r = 0.1 + 1.5 * rand();
  const s = [0, ...centre, r];
  return {
    meets: (t) => pointTriangleDistance(centre, t) <= r,
    distance: (p) => Math.max(0, norm(sub(p, centre)) - r),
    run: (t) => contactSphereTriangle(out, OO, s, 1, triStore(t), 2),
    aligned: (rand) => {
      const n = unit([2 * rand() - 1, 2 * rand() - 1, 2 * rand() - 1 + 1e-9]), u = perpendicular(n);
      return triangleInPlane(rand, add(centre, scale(n, r * (1 - 0.1 * rand()))), u, cross(n, u), 2);
    },
    size: r,
  };
};

const capsuleCase = (rand: () => number): Case => {
  const p0: V = [(2 * rand() - 1), (2 * rand() - 1), (2 * rand() - 1)];
  const p1 = add(p0, [(2 * rand() - 1) * 2, (2 * rand() - 1) * 2, (2 * rand() - 1) * 2]);
  const r = 0.1 + rand();
  const cap = [0, ...p0, ...p1, r];
  return {
    meets: (t) => segmentTriangleDistance(p0, p1, t) <= r,
    distance: (p) => Math.max(0, distanceToSegment(p, p0, p1) - r),
    run: (t) => contactCapsuleTriangle(out, OO, cap, 1, triStore(t), 2),
    aligned: (rand) => {
      // A plane containing the segment's direction, r minus a little away from it.
      const d = unit(sub(p1, p0)), n = perpendicular(d);
      return triangleInPlane(rand, add(lerp(p0, p1, 0.5), scale(n, r * (1 - 0.1 * rand()))), d, cross(n, d), 2);
    },
    size: r + norm(sub(p1, p0)),
  };
};

const boxCase = (rand: () => number): Case => {
  const b = randomBox(rand, [(2 * rand() - 1), (2 * rand() - 1), (2 * rand() - 1)], 0.1, 1.5);
  const store = [0, 0, 0, 0, ...boxToStore(b)];
  return {
    meets: (t) => boxTrianglePenetration(b, t) >= 0,
    distance: (p) => distanceToBox(b, p),
    run: (t) => contactObbTriangle(out, OO, store, 4, triStore(t), 2),
    aligned: (rand) => {
      // Parallel to face k, a little inside it.
      const k = Math.floor(3 * rand()), side = rand() < 0.5 ? 1 : -1;
      const o = add(b.c, scale(b.u[k], side * b.h[k] * (1 - 0.1 * rand())));
      return triangleInPlane(rand, o, b.u[(k + 1) % 3], b.u[(k + 2) % 3], 2.5);
    },
    size: Math.max(...b.h),
    refDepth: (t) => boxTrianglePenetration(b, t),
  };
};

describe.each([
  ['sphere', sphereCase],
  ['capsule', capsuleCase],
  ['box', boxCase],
] as const)('contact %s-triangle against the references', (_, makeCase) => {
  it.each(TRI_KINDS)('%s triangles', (kind) => property(makeCase, kind));
});

describe('triangle contacts: chosen configurations', () => {
  const floor: Tri = [[-10, 0, -10], [-10, 0, 10], [10, 0, 0]]; // normal (b − a) × (c − a) = +y
  const ftri = triStore(floor);

  it('a sphere centred on the triangle is pushed out of the front face', () => {
    expect(contactSphereTriangle(out, OO, [0, 0, 0, 0, 0.5], 1, ftri, 2)).toBe(1);
    expectVector(at(out, OO), [0, -1, 0]);
    expect(out[OO + CONTACT_DEPTH]).toBe(0.5);
  });

  it('a sphere resting on the face: floor normal, exact depth, face feature', () => {
    expect(contactSphereTriangle(out, OO, [0, 0, 1, 0.5, 1 + 1e-6], 1, ftri, 2)).toBe(1);
    expectVector(at(out, OO), [0, -1, 0]);
    expect(Math.abs(out[OO + CONTACT_DEPTH] - 1e-6)).toBeLessThan(1e-12);
    expect(out[OO + CONTACT_FEATURE_B]).toBe(FEATURE_TRIANGLE_FACE);
  });

  it('a capsule lying on the face gets two points, one per end', () => {
    expect(contactCapsuleTriangle(out, OO, [0, -1, 0.3, 0, 1, 0.3, 0, 0.3], 1, ftri, 2)).toBe(2);
    expectVector(at(out, OO), [0, -1, 0]);
    expect(pointOf(0)[0]).toBeCloseTo(-1, 12);
    expect(pointOf(1)[0]).toBeCloseTo(1, 12);
    expect(pointDepthOf(0)).toBeCloseTo(0, 12);
  });

  it('a capsule crossing the face is pushed out the short way', () => {
    expect(contactCapsuleTriangle(out, OO, [0, 0, -0.2, 0, 0, 1, 0, 0.1], 1, ftri, 2)).toBe(1);
    expectVector(at(out, OO), [-0, -1, -0]);
    expect(out[OO + CONTACT_DEPTH]).toBeCloseTo(0.3, 12);
  });

  it('a box face-down on the face: 4 corner points, floor normal, exact depth', () => {
    const box = [0, 0.5 - 1e-5, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1, 0.5, 0.5, 0.5];
    expect(contactObbTriangle(out, OO, box, 0, ftri, 2)).toBe(4);
    expectVector(at(out, OO), [-0, -1, -0]);
    expect(Math.abs(out[OO + CONTACT_DEPTH] - 1e-5)).toBeLessThan(1e-12);
    for (let i = 0; i < 4; i++) {
      expect(Math.abs(pointOf(i)[1] + 1e-5)).toBeLessThan(1e-12);
      expect(Math.abs(Math.abs(pointOf(i)[0]) - 0.5)).toBeLessThan(1e-12);
    }
  });

  it('a small triangle under a big box: the triangle clipped to the box face (box-face axis)', () => {
    const box = [0, 2 - 0.01, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1, 2, 2, 2];
    const small = triStore([[-0.1, 0, -0.1], [-0.1, 0, 0.1], [0.1, 0, 0]]);
    expect(contactObbTriangle(out, OO, box, 0, small, 2)).toBe(3);
    expect(at(out, OO)[1]).toBe(-1);
    expect(out[OO + CONTACT_DEPTH]).toBeCloseTo(0.01, 12);
    expect(out[OO + CONTACT_FEATURE_B]).toBe(FEATURE_TRIANGLE_FACE);
    expect(out[OO + 5]).toBe(FEATURE_BOX_FACE + 2); // −y face
  });

  it('an edge-on triangle poking into a box face', () => {
    const box = [0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1, 1, 1, 1];
    const tri = triStore([[0, -0.9, -0.5], [0, -0.9, 0.5], [0, -3, 0]]);
    expect(contactObbTriangle(out, OO, box, 0, tri, 2)).toBe(2);
    expectVector(at(out, OO), [0, -1, 0]);
    expect(out[OO + CONTACT_DEPTH]).toBeCloseTo(0.1, 12);
    for (let i = 0; i < 2; i++) expectVector(pointOf(i), [0, -0.9, i === 0 ? -0.5 : 0.5]);
  });

  it('zero-area triangles never give NaN', () => {
    const degenerate = [triStore([[0, 0, 0], [1, 0, 0], [2, 0, 0]]), triStore([[0.5, 0, 0], [0.5, 0, 0], [0.5, 0, 0]])];
    for (const tri of degenerate) {
      const counts = [
        contactSphereTriangle(out, OO, [0, 0.5, 0, 0, 1], 1, tri, 2),
        contactCapsuleTriangle(out, OO, [0, 0, 0, 0, 1, 0, 0, 0.5], 1, tri, 2),
        contactCapsuleTriangle(out, OO, [0, -1, 0, 0, 3, 0, 0, 0.5], 1, tri, 2),
        contactObbTriangle(out, OO, [0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1, 1, 1, 1], 0, tri, 2),
      ];
      for (const count of counts) expect(count).toBeGreaterThan(0);
      for (let i = 0; i < CONTACT_STRIDE; i++) expect(Number.isNaN(out[OO + i])).toBe(false);
    }
    // Sphere centre on a zero-area triangle: normal +x (COINCIDENT_NORMAL_X), depth = radius.
    contactSphereTriangle(out, OO, [0.5, 0, 0, 0.25], 0, degenerate[0], 2);
    expectVector(at(out, OO), [1, 0, 0]);
    expect(out[OO + CONTACT_DEPTH]).toBe(0.25);
  });
});
