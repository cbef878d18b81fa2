/**
 * The narrow phase decides whether a pair touches with the boolean kernels (sensors and solid
 * colliders alike) and asks the contact kernels only for touching solid pairs, so every contact
 * kernel must report a point exactly when its boolean counterpart reports touching (otherwise a
 * pair touches as a sensor but not as a solid collider). Each pair of kernels is run here exactly
 * as systems/narrowPhase.ts runs it, from Float32 stores (the pipeline's) and Float64 ones, over
 * random and adversarial cases: exact touches built by construction (along axis and random
 * directions), a few ulps either side, huge (1e6..1e15) and tiny (1e-12..1e-6) coordinates and
 * sizes, coincident centres, zero-length and parallel capsules, spheres centred on box faces,
 * edges and corners, AABB faces exactly touching; and mesh pairs (meshPairOverlap, what sensors
 * get, against meshPairContact, what solid colliders get). One exception, bounded below:
 * contactSphereObb also reports touches that obbSphereOverlap loses to its own rounding.
 */
import { addEntity, createWorld } from 'bitecs';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { aabbOverlap } from '../../src/volumes/aabb';
import { buildBoundingTree } from '../../src/tree/build';
import { CLOSEST_SEGMENTS_STRIDE, closestPtPointAabb, closestPtPointSegment, closestPtSegmentSegment } from '../../src/query/closestPoints';
import {
  CONTACT_COUNT,
  CONTACT_DEPTH,
  CONTACT_NORMAL,
  CONTACT_POINTS,
  CONTACT_POINT_STRIDE,
  CONTACT_STRIDE,
} from '../../src/contacts/manifold';
import { contactAabbAabb } from '../../src/contacts/boxBox';
import { contactCapsuleCapsule, contactCapsuleSphere, contactSphereSphere } from '../../src/contacts/round';
import { contactSphereAabb, contactSphereObb } from '../../src/contacts/sphereBox';
import { POSE_STRIDE, poseFromTranslationQuaternion, transformByPose } from '../../src/tree/pose';
import { TreeQueryResult } from '../../src/tree/queryResult';
import { overlapTreeObb } from '../../src/tree/overlapVolume';
import { SAT_AXIS_SLACK, ROUNDING_ALLOWANCE } from '../../src/tolerances';
import { obbSphereOverlap } from '../../src/query/sat';
import { sphereOverlap } from '../../src/volumes/sphere';
import { contactCapsuleTriangle } from '../../src/contacts/roundTriangle';
import { contactObbTriangle } from '../../src/contacts/boxTriangle';
import { SHAPE_STRIDE } from '../../components/collider';
import { addCollider, addMeshCollider, createCollisionPipeline } from '../../systems/index';
import { meshPairContact, meshPairOverlap } from '../../systems/meshCollider';
import { entityPose } from '../../systems/entityPose';
import { type V, add, cross, dot, norm, randomDirections, scale, sub, unit } from '../support/contactReference';
import { mulberry32, quaternionToAxes, randomQuaternion } from '../../scenes/random';
import { referencePointBoxDistance } from '../../scenes/satReference';

const out = new Float64Array(CONTACT_STRIDE);
const closest = new Float64Array(CLOSEST_SEGMENTS_STRIDE);

// ---- numbers ----

const f64 = new Float64Array(1), i64 = new BigInt64Array(f64.buffer);
const f32 = new Float32Array(1), i32 = new Int32Array(f32.buffer);

/** x moved by `steps` ulps of the given precision (toward +∞ for steps > 0). */
function stepUlps(x: number, steps: number, single: boolean): number {
  for (let s = 0; s < Math.abs(steps); s++) {
    const up = steps > 0;
    if (x === 0) {
      x = (up ? 1 : -1) * (single ? 2 ** -149 : Number.MIN_VALUE);
      continue;
    }
    if (single) {
      f32[0] = x;
      i32[0] += (x > 0) === up ? 1 : -1;
      x = f32[0];
    } else {
      f64[0] = x;
      i64[0] += (x > 0) === up ? 1n : -1n;
      x = f64[0];
    }
  }
  return x;
}

/** 10^e for e uniform in [log10 lo, log10 hi]. */
const logUniform = (lo: number, hi: number) => fc.double({ min: Math.log10(lo), max: Math.log10(hi), noNaN: true }).map((e) => 10 ** e);
/** Sizes: tiny, ordinary, huge. */
const sizeArb = fc.oneof(logUniform(1e-12, 1e-6), logUniform(1e-3, 1e3), logUniform(1e6, 1e15));
/** Where the pair sits: at the origin, near it, ordinary, or far from it (1e6..1e15). */
const offsetArb = fc.oneof(fc.constant(0), logUniform(1e-12, 1e-6), logUniform(1e-1, 1e3), logUniform(1e6, 1e15));

/** Parameters shared by every case: seed, size, offset, nudge (ulps), store precision. */
const common = fc.record({
  seed: fc.integer({ min: 0, max: 2 ** 31 - 1 }),
  size: sizeArb,
  offset: offsetArb,
  ulps: fc.integer({ min: -4, max: 4 }),
  single: fc.boolean(),
});
type Common = { seed: number; size: number; offset: number; ulps: number; single: boolean };

/** The six axis directions, a few diagonals, then random unit vectors. */
function direction(rand: () => number): V {
  const pick = rand();
  if (pick < 0.4) {
    const k = Math.floor(rand() * 3), s = rand() < 0.5 ? -1 : 1;
    return [k === 0 ? s : 0, k === 1 ? s : 0, k === 2 ? s : 0];
  }
  if (pick < 0.55) return unit([rand() < 0.5 ? -1 : 1, rand() < 0.5 ? -1 : 1, rand() < 0.5 ? -1 : 0]);
  return randomDirections(rand, 1)[0];
}

/** A unit vector perpendicular to d. */
function perpendicular(rand: () => number, d: V): V {
  for (;;) {
    const v = direction(rand);
    const p = sub(v, scale(d, dot(v, d)));
    if (norm(p) > 0.1) return unit(p);
  }
}

/** A point near `offset` from the origin (random signs), so that coordinates have that magnitude. */
function place(rand: () => number, offset: number): V {
  return [0, 1, 2].map(() => (rand() < 0.5 ? -1 : 1) * offset * (0.5 + rand())) as V;
}

/** Copies shapes into the store type and nudges coordinate `index` of the second one by `ulps`. */
function stores(p: Common, a: number[], b: number[], nudged: number[]): [Float32Array | Float64Array, Float32Array | Float64Array] {
  const A = p.single ? Float32Array.from(a) : Float64Array.from(a);
  const B = p.single ? Float32Array.from(b) : Float64Array.from(b);
  const rand = mulberry32(p.seed ^ 0x5bd1e995);
  const i = nudged[Math.floor(rand() * nudged.length)];
  B[i] = stepUlps(B[i], p.ulps, p.single);
  return [A, B];
}

// ---- the property ----

interface Tally { touching: number; apart: number; contactOnly: number }
const newTally = (): Tally => ({ touching: 0, apart: 0, contactOnly: 0 });

/**
 * Boolean says touching ⇔ the kernel returned points; then depth >= 0 and finite, normal unit and
 * finite, points finite. A normal taken from a box axis is as unit as the stored axes: to Float32
 * precision (`single`) when they come from a Float32 store. `contactOnly`, when given, says whether
 * a point without the boolean is allowed (the boolean's own false separations, see sphere-OBB).
 */
function expectAgreement(touching: boolean, count: number, tally: Tally, what: () => string, single = false, contactOnly?: () => boolean): void {
  if (count > 0 && !touching && contactOnly?.()) tally.contactOnly++;
  else if ((count > 0) !== touching) throw new Error(`${what()}: boolean says ${touching}, contact count ${count}`);
  if (touching) tally.touching++;
  else tally.apart++;
  if (count === 0) return;
  expect(out[CONTACT_COUNT]).toBe(count);
  const depth = out[CONTACT_DEPTH];
  expect(Number.isFinite(depth) && depth >= 0).toBe(true);
  const n = [out[CONTACT_NORMAL], out[CONTACT_NORMAL + 1], out[CONTACT_NORMAL + 2]];
  expect(n.every(Number.isFinite)).toBe(true);
  expect(Math.abs(Math.hypot(n[0], n[1], n[2]) - 1)).toBeLessThan(single ? 1e-6 : 1e-9);
  for (let i = 0; i < CONTACT_POINT_STRIDE * count; i++) expect(Number.isFinite(out[CONTACT_POINTS + i])).toBe(true);
}

const describeCase = (p: Common, a: ArrayLike<number>, b: ArrayLike<number>) => () =>
  `seed ${p.seed} size ${p.size} offset ${p.offset} ulps ${p.ulps} ${p.single ? 'f32' : 'f64'} a [${Array.from(a)}] b [${Array.from(b)}]`;

/** Radius in [0.1, 1] × size, or 0 one time in ten. */
const radius = (rand: () => number, size: number) => (rand() < 0.1 ? 0 : size * (0.1 + 0.9 * rand()));

// ---- generators of pairs, each touching by construction before the nudge ----

function spherePair(p: Common): [number[], number[]] {
  const rand = mulberry32(p.seed);
  const ca = place(rand, p.offset);
  const ra = radius(rand, p.size), rb = radius(rand, p.size);
  const coincident = rand() < 0.1;
  const cb = coincident ? ca : add(ca, scale(direction(rand), ra + rb));
  return [[...ca, ra], [...cb, rb]];
}

/** A box (centre, axes, half-extents, some zero) and a point on its surface with the outward direction there. */
function boxAndSurfacePoint(rand: () => number, p: Common, axes: number[]): { centre: V; half: V; point: V; outward: V; inside: boolean } {
  const centre = place(rand, p.offset);
  const half = [0, 1, 2].map(() => (rand() < 0.1 ? 0 : p.size * (0.1 + rand()))) as V;
  const u: V[] = [[axes[0], axes[1], axes[2]], [axes[3], axes[4], axes[5]], [axes[6], axes[7], axes[8]]];
  // Feature: how many coordinates sit on the boundary (1 face, 2 edge, 3 corner), or the interior.
  const feature = Math.floor(rand() * 4);
  const local: number[] = [], weights: number[] = [];
  const order = [0, 1, 2].sort(() => rand() - 0.5);
  for (let k = 0; k < 3; k++) {
    const onBoundary = order.indexOf(k) < feature;
    const s = rand() < 0.5 ? -1 : 1;
    local[k] = onBoundary ? s * half[k] : (2 * rand() - 1) * half[k];
    weights[k] = onBoundary ? s * (0.2 + rand()) : 0;
  }
  let point = centre;
  let outward: V = [0, 0, 0];
  for (let k = 0; k < 3; k++) {
    point = add(point, scale(u[k], local[k]));
    outward = add(outward, scale(u[k], weights[k]));
  }
  return { centre, half, point, outward: feature === 0 ? [0, 0, 0] : unit(outward), inside: feature === 0 };
}

function sphereAabbPair(p: Common): [number[], number[]] {
  const rand = mulberry32(p.seed);
  const { centre, half, point, outward } = boxAndSurfacePoint(rand, p, [1, 0, 0, 0, 1, 0, 0, 0, 1]);
  const r = radius(rand, p.size);
  const aabb = [...sub(centre, half), ...add(centre, half)];
  return [[...add(point, scale(outward, r)), r], aabb];
}

function sphereObbPair(p: Common): [number[], number[]] {
  const rand = mulberry32(p.seed);
  const axes = rand() < 0.2 ? [1, 0, 0, 0, 1, 0, 0, 0, 1] : quaternionToAxes(randomQuaternion(rand));
  const { centre, half, point, outward } = boxAndSurfacePoint(rand, p, axes);
  const r = radius(rand, p.size);
  return [[...add(point, scale(outward, r)), r], [...centre, ...axes, ...half]];
}

function aabbPair(p: Common): [number[], number[]] {
  const rand = mulberry32(p.seed);
  const lo = place(rand, p.offset);
  const a = [...lo, ...[0, 1, 2].map((k) => lo[k] + (rand() < 0.1 ? 0 : p.size * rand()))];
  const b: number[] = [];
  for (let k = 0; k < 3; k++) {
    const w = rand() < 0.1 ? 0 : p.size * rand();
    const how = rand();
    // Faces exactly touching on either side, or overlapping on this axis.
    if (how < 0.35) { b[k] = a[3 + k]; b[3 + k] = a[3 + k] + w; }
    else if (how < 0.7) { b[3 + k] = a[k]; b[k] = a[k] - w; }
    else { b[k] = a[k] + (a[3 + k] - a[k]) * rand() - w * rand(); b[3 + k] = b[k] + w; }
  }
  return [a, b];
}

function capsulePair(p: Common): [number[], number[]] {
  const rand = mulberry32(p.seed);
  const p0 = place(rand, p.offset);
  const ra = radius(rand, p.size), rb = radius(rand, p.size);
  const d = direction(rand);
  const lenA = rand() < 0.15 ? 0 : p.size * 2 * rand();
  const p1 = add(p0, scale(d, lenA));
  const how = rand();
  let q0: V, q1: V;
  if (how < 0.3) {
    // Parallel (or antiparallel), (ra + rb) apart across d, shifted along it.
    const n = perpendicular(rand, d);
    const lenB = rand() < 0.15 ? 0 : p.size * 2 * rand();
    q0 = add(add(p0, scale(n, ra + rb)), scale(d, (2 * rand() - 1) * p.size));
    q1 = add(q0, scale(d, (rand() < 0.5 ? 1 : -1) * lenB));
  } else if (how < 0.6) {
    // Crossing: closest points inside both segments, (ra + rb) apart along d × e.
    const e = perpendicular(rand, d);
    const f = unit(add(scale(d, 2 * rand() - 1), e));
    const n = unit(cross(d, f));
    const at = add(add(p0, scale(d, lenA * rand())), scale(n, ra + rb));
    const lenB = p.size * (0.1 + 2 * rand()), t = rand();
    q0 = sub(at, scale(f, t * lenB));
    q1 = add(at, scale(f, (1 - t) * lenB));
  } else if (how < 0.8) {
    // End to end along a direction (zero-length B one time in three), or coincident segments.
    const e = direction(rand);
    q0 = rand() < 0.15 ? p0 : add(p1, scale(e, ra + rb));
    q1 = rand() < 0.33 ? q0 : add(q0, scale(direction(rand), p.size * 2 * rand()));
  } else {
    // B's end (ra + rb) from an inner point of A, across it.
    q0 = add(add(p0, scale(d, lenA * rand())), scale(perpendicular(rand, d), ra + rb));
    q1 = rand() < 0.3 ? q0 : add(q0, scale(direction(rand), p.size * 2 * rand()));
  }
  return rand() < 0.5 ? [[...p0, ...p1, ra], [...q0, ...q1, rb]] : [[...q0, ...q1, rb], [...p0, ...p1, ra]];
}

function capsuleSpherePair(p: Common): [number[], number[]] {
  const rand = mulberry32(p.seed);
  const p0 = place(rand, p.offset);
  const rc = radius(rand, p.size), rs = radius(rand, p.size);
  const d = direction(rand);
  const len = rand() < 0.2 ? 0 : p.size * 2 * rand();
  const p1 = add(p0, scale(d, len));
  const how = rand();
  let c: V;
  if (how < 0.4) c = add(add(p0, scale(d, len * rand())), scale(perpendicular(rand, d), rc + rs)); // beside the segment
  else if (how < 0.8) c = add(rand() < 0.5 ? p0 : p1, scale(direction(rand), rc + rs)); // off an end
  else c = add(p0, scale(d, len * rand())); // centre on the segment
  return [[...p0, ...p1, rc], [...c, rs]];
}

// ---- the kernels, run as systems/narrowPhase.ts runs them ----

type Store = Float32Array | Float64Array;

/**
 * Sphere-OBB: obbSphereOverlap rebuilds the closest box point in world coordinates and can lose a
 * touch to that rounding (a zero-radius sphere inside the box, a sphere exactly on a face even at
 * the origin), where contactSphereObb, measuring in the box frame, still reports it. Allowed only
 * within the boolean's false-separation band against the independent reference distance (64 ulps of
 * the magnitudes, plus SAT_AXIS_SLACK of the size for Float32 axes).
 */
function sphereObbContactOnly(s: Store, b: Store): boolean {
  const size = b[12] + b[13] + b[14] + s[3];
  const magnitude = Math.max(...[0, 1, 2].map((k) => Math.abs(s[k]) + Math.abs(b[k]))) + size;
  const band = 4 * ROUNDING_ALLOWANCE * magnitude + (s instanceof Float32Array ? SAT_AXIS_SLACK * size : 0);
  return referencePointBoxDistance(b, 0, s) <= s[3] + band;
}

const PAIRS: {
  name: string; make: (p: Common) => [number[], number[]]; nudged: number[]; run: (a: Store, b: Store) => [boolean, number];
  contactOnly?: (a: Store, b: Store) => boolean;
}[] = [
  {
    name: 'sphere-sphere: sphereOverlap vs contactSphereSphere',
    make: spherePair, nudged: [0, 1, 2, 3],
    run: (a, b) => [sphereOverlap(a, 0, b, 0), contactSphereSphere(out, 0, a, 0, b, 0)],
  },
  {
    name: 'sphere-AABB: closestPtPointAabb <= r² vs contactSphereAabb',
    make: sphereAabbPair, nudged: [0, 1, 2, 3, 4, 5],
    run: (s, b) => [closestPtPointAabb(closest, 0, s[0], s[1], s[2], b, 0) <= s[3] * s[3], contactSphereAabb(out, 0, s, 0, b, 0)],
  },
  {
    name: 'sphere-OBB: obbSphereOverlap vs contactSphereObb',
    make: sphereObbPair, nudged: [0, 1, 2, 12, 13, 14],
    run: (s, b) => [obbSphereOverlap(b, 0, s, 0), contactSphereObb(out, 0, s, 0, b, 0)],
    contactOnly: sphereObbContactOnly,
  },
  {
    name: 'AABB-AABB: aabbOverlap vs contactAabbAabb',
    make: aabbPair, nudged: [0, 1, 2, 3, 4, 5],
    run: (a, b) => [aabbOverlap(a, 0, b, 0), contactAabbAabb(out, 0, a, 0, b, 0)],
  },
  {
    name: 'capsule-capsule: closestPtSegmentSegment <= (ra + rb)² vs contactCapsuleCapsule',
    make: capsulePair, nudged: [0, 1, 2, 3, 4, 5, 6],
    run: (a, b) => {
      const r = a[6] + b[6];
      return [closestPtSegmentSegment(closest, 0, a, 0, b, 0) <= r * r, contactCapsuleCapsule(out, 0, a, 0, b, 0)];
    },
  },
  {
    name: 'capsule-sphere: closestPtPointSegment <= (rc + rs)² vs contactCapsuleSphere',
    make: capsuleSpherePair, nudged: [0, 1, 2, 3],
    run: (c, s) => {
      const r = c[6] + s[3];
      return [closestPtPointSegment(closest, 0, s[0], s[1], s[2], c, 0) <= r * r, contactCapsuleSphere(out, 0, c, 0, s, 0)];
    },
  },
];

describe('contact kernels report a point exactly when their boolean counterpart reports touching', () => {
  for (const pair of PAIRS) {
    it(pair.name, () => {
      const tally = newTally();
      fc.assert(fc.property(common, (p) => {
        const [a, b] = pair.make(p);
        const [A, B] = stores(p, a, b, pair.nudged);
        const [touching, count] = pair.run(A, B);
        expectAgreement(touching, count, tally, describeCase(p, A, B), p.single, pair.contactOnly && (() => pair.contactOnly!(A, B)));
      }), { numRuns: 4000, seed: 7 });
      // Both answers occur often: the cases sit on the boundary.
      expect(tally.touching).toBeGreaterThan(400);
      expect(tally.apart).toBeGreaterThan(200);
      // Only sphere-OBB may answer alone: on exact touches, where obbSphereOverlap loses some.
      expect(tally.contactOnly).toBeLessThanOrEqual(pair.contactOnly ? 0.15 * 4000 : 0);
    });
  }
});

// ---- mesh pairs: meshPairOverlap (sensors) vs meshPairContact (solid colliders) ----

/**
 * A small mesh in its own frame, side `size`: a 3×3-vertex floor whose middle line is a convex
 * ridge bent by 3° (below the 4° flat-edge angle, so its edges are inactive although convex), a
 * wall standing on one side (a concave 90° edge), and a tetrahedron apart (sharp convex edges).
 */
function smallMesh(size: number): { positions: Float64Array; indices: Uint32Array } {
  const slope = Math.tan((1.5 * Math.PI) / 180);
  const positions: number[] = [];
  for (let i = 0; i < 3; i++) for (let j = 0; j < 3; j++) positions.push(i - 1, -Math.abs(i - 1) * slope, j - 1);
  const v = (i: number, j: number) => 3 * i + j;
  const indices: number[] = [];
  for (let i = 0; i < 2; i++) {
    for (let j = 0; j < 2; j++) {
      if ((i + j) % 2 === 0) indices.push(v(i, j), v(i, j + 1), v(i + 1, j + 1), v(i, j), v(i + 1, j + 1), v(i + 1, j));
      else indices.push(v(i, j), v(i, j + 1), v(i + 1, j), v(i, j + 1), v(i + 1, j + 1), v(i + 1, j));
    }
  }
  // Wall on the x = −1 side, up to y = 1.
  positions.push(-1, 1, -1, -1, 1, 1);
  indices.push(v(0, 0), 9, v(0, 2), 9, 10, v(0, 2));
  // Tetrahedron at x in [2, 3].
  positions.push(2, 0, -0.5, 3, 0, -0.5, 2.5, 0, 0.5, 2.5, 0.8, 0);
  indices.push(11, 12, 13, 11, 14, 12, 12, 14, 13, 13, 14, 11);
  return { positions: Float64Array.from(positions, (x) => x * size), indices: Uint32Array.from(indices) };
}

/** One lone triangle, side `size`: every contact is that triangle's own, with nothing to fall back on. */
function loneTriangle(size: number): { positions: Float64Array; indices: Uint32Array } {
  return { positions: Float64Array.from([0, 0, 0, 1, 0.2, 0, 0.3, 0.1, 1], (x) => x * size), indices: Uint32Array.from([0, 1, 2]) };
}

const meshes = [1e-4, 1, 1e4].flatMap((size) => [smallMesh(size), loneTriangle(size)].map((mesh) => ({
  size, mesh, tree: buildBoundingTree(mesh.positions, mesh.indices),
})));

/** One pipeline holding one mesh collider per size and one body per kind; cases write the stores directly. */
function meshScene() {
  const world = createWorld();
  const p = createCollisionPipeline(world);
  const meshIds = meshes.map(({ tree }) => {
    const e = addEntity(world);
    addMeshCollider(world, e, tree);
    return e;
  });
  const bodies = {
    sphere: addEntity(world), capsule: addEntity(world), obb: addEntity(world), aabb: addEntity(world),
  };
  addCollider(world, bodies.sphere, { shape: 'sphere', radius: 1 });
  addCollider(world, bodies.capsule, { shape: 'capsule', p0: [0, 0, 0], p1: [1, 0, 0], radius: 1 });
  addCollider(world, bodies.obb, { shape: 'obb', halfExtents: [1, 1, 1] });
  addCollider(world, bodies.aabb, { shape: 'aabb', halfExtents: [1, 1, 1] });
  return { p, meshIds, bodies };
}

type BodyKind = 'sphere' | 'capsule' | 'obb' | 'aabb';
const meshCase = fc.record({
  seed: fc.integer({ min: 0, max: 2 ** 31 - 1 }),
  mesh: fc.integer({ min: 0, max: meshes.length - 1 }),
  offset: fc.constantFrom(0, 1, 1e3, 1e5),
  kind: fc.constantFrom<BodyKind>('sphere', 'capsule', 'obb', 'aabb'),
  ulps: fc.integer({ min: -4, max: 4 }),
  graze: fc.constantFrom(0, 0, 1e-9, -1e-9, 1e-6, -1e-6),
});

/**
 * A body of kind `kind` touching the mesh (world triangles `w`) at a point of triangle t (vertex,
 * edge or face point) from direction d (± the face normal, or any direction at an edge or vertex),
 * moved off by `graze` × size along d; world shape in the store layout.
 */
function touchingBody(rand: () => number, kind: BodyKind, w: Float64Array, size: number, graze: number): number[] {
  const t = Math.floor(rand() * (w.length / 9));
  const corner = (k: number): V => [w[9 * t + 3 * k], w[9 * t + 3 * k + 1], w[9 * t + 3 * k + 2]];
  const feature = Math.floor(rand() * 3); // 0 vertex, 1 edge, 2 face
  const weights = [rand(), rand(), rand()];
  if (feature === 0) weights.splice(0, 3, ...[0, 1, 2].map((k) => (k === 0 ? 1 : 0)));
  if (feature === 1) weights[2] = 0;
  const order = [0, 1, 2].sort(() => rand() - 0.5);
  const sum = weights.reduce((x, y) => x + y, 0);
  let q: V = [0, 0, 0];
  for (let k = 0; k < 3; k++) q = add(q, scale(corner(order[k]), weights[k] / sum));
  const n = unit(cross(sub(corner(1), corner(0)), sub(corner(2), corner(0))));
  const d = feature === 2 || rand() < 0.5 ? scale(n, rand() < 0.5 ? -1 : 1) : randomDirections(rand, 1)[0];
  q = add(q, scale(d, graze * size));
  const r = size * (0.05 + rand());
  if (kind === 'sphere') return [...add(q, scale(d, r)), r];
  if (kind === 'capsule') {
    // Beside the mesh (the core r from q along d), or, one time in four, through q (radius 0 one time in three).
    const through = rand() < 0.25;
    const core = through ? q : add(q, scale(d, r));
    if (through && rand() < 0.33) return [...sub(core, scale(d, size * rand())), ...add(core, scale(randomDirections(rand, 1)[0], size * rand())), 0];
    const e = rand() < 0.5 ? perpendicular(rand, d) : direction(rand);
    const len = rand() < 0.15 ? 0 : size * 2 * rand(), at = [0, 1, rand()][Math.floor(rand() * 3)];
    return [...sub(core, scale(e, at * len)), ...add(core, scale(e, (1 - at) * len)), r];
  }
  const half: V = [0, 1, 2].map(() => size * (0.05 + rand())) as V;
  const axes = kind === 'aabb' ? [1, 0, 0, 0, 1, 0, 0, 0, 1] : quaternionToAxes(randomQuaternion(rand));
  const u: V[] = [[axes[0], axes[1], axes[2]], [axes[3], axes[4], axes[5]], [axes[6], axes[7], axes[8]]];
  let centre = q;
  if (kind === 'obb' && rand() < 0.4) {
    // Face down on q: axis k along d, q anywhere on that face.
    const k = Math.floor(rand() * 3);
    u[k] = d;
    u[(k + 1) % 3] = perpendicular(rand, d);
    u[(k + 2) % 3] = cross(u[k], u[(k + 1) % 3]);
    centre = add(q, scale(d, half[k]));
    for (const j of [(k + 1) % 3, (k + 2) % 3]) centre = add(centre, scale(u[j], (2 * rand() - 1) * half[j]));
  } else {
    // A corner on q, the box on d's side of it.
    for (let k = 0; k < 3; k++) centre = add(centre, scale(u[k], (dot(u[k], d) >= 0 ? 1 : -1) * half[k]));
  }
  if (kind === 'aabb') return [...sub(centre, half), ...add(centre, half)];
  return [...centre, ...u[0], ...u[1], ...u[2], ...half];
}

describe('mesh pairs: meshPairContact reports a manifold exactly when meshPairOverlap reports touching', () => {
  it('spheres, capsules, boxes and AABBs touching a small mesh at vertices, edges and faces, exactly, within ulps and grazing', () => {
    const { p, meshIds, bodies } = meshScene();
    const c = p.collider, tr = p.transform;
    const tallies = { sphere: newTally(), capsule: newTally(), obb: newTally(), aabb: newTally() };
    fc.assert(fc.property(meshCase, (m) => {
      const rand = mulberry32(m.seed);
      const { size, mesh } = meshes[m.mesh], meshId = meshIds[m.mesh];
      // Mesh pose, written to the Float32 transform store as the pipeline would hold it.
      const position = place(rand, m.offset * size);
      const q = rand() < 0.3 ? [0, 0, 0, 1] : randomQuaternion(rand);
      tr.position.set(position, 3 * meshId);
      tr.rotation.set(q, 4 * meshId);
      const pose = new Float64Array(12);
      entityPose(pose, 0, tr, meshId);
      const w = new Float64Array(3 * mesh.indices.length);
      for (let k = 0; k < mesh.indices.length; k++) transformByPose(w, 3 * k, pose, 0, mesh.positions, 3 * mesh.indices[k], 1);
      const shape = touchingBody(rand, m.kind, w, size, m.graze);
      const body = bodies[m.kind], o = SHAPE_STRIDE * body;
      c.world.set(shape, o);
      const nudged = m.kind === 'obb' ? [0, 1, 2, 12, 13, 14] : m.kind === 'aabb' ? [0, 1, 2, 3, 4, 5] : [0, 1, 2, 3];
      const i = nudged[Math.floor(rand() * nudged.length)];
      c.world[o + i] = stepUlps(c.world[o + i], m.ulps, true);
      const touching = meshPairOverlap(c, tr, body, meshId);
      const count = meshPairContact(c, tr, body, meshId, out, 0);
      expectAgreement(touching, count, tallies[m.kind], () => `${m.kind} ${JSON.stringify(m)} shape [${Array.from(c.world.subarray(o, o + 15))}]`, true);
    }), { numRuns: 3000, seed: 11 });
    for (const tally of Object.values(tallies)) {
      expect(tally.touching).toBeGreaterThan(150);
      expect(tally.apart).toBeGreaterThan(30);
    }
  });
});

describe('disagreements found by the properties above, kept as examples', () => {
  it('sphere-AABB and sphere-OBB exactly touching: the contact kernels used to separate them (centre-half box, sqrt of a box-frame offset)', () => {
    const sphere = [-0.6341441313338099, 1.0289745757741933e-8, 0.09128264615919561, 0.5146067472873256];
    const aabb = [-0.11953738404648424, 1.0289745757741933e-8, -0.15760975549220027, 0.1195374019609201, 1.0289745757741933e-8, 0.15760973930136382];
    expect(closestPtPointAabb(closest, 0, sphere[0], sphere[1], sphere[2], aabb, 0) <= sphere[3] ** 2).toBe(true);
    expect(contactSphereAabb(out, 0, sphere, 0, aabb, 0)).toBe(1);
    expect(out[CONTACT_DEPTH]).toBe(0);
    // Radius 0.75 out of a face along its axis.
    const s = [0.8458737481496954, 2.3638768652510795, 2.1249493012255662, 0.75];
    const box = [1, 2, 3, -0.6186401724237802, 0.37181677868055707, 0.6921247143073925, -0.5248033470352012, 0.4600225596152788, -0.716212741848159,
      -0.5846928971726322, -0.8063073407433552, -0.08945774566382192, 0.5, 0.125, 0.625];
    expect(obbSphereOverlap(box, 0, s, 0)).toBe(true);
    expect(contactSphereObb(out, 0, s, 0, box, 0)).toBe(1);
    expect(out[CONTACT_DEPTH]).toBeLessThan(1e-15);
  });

  it('a sphere over a convex edge bent less than the flat-edge angle, in the wedge above it, gets a manifold', () => {
    // The 3° ridge of smallMesh(1) runs along z at x = y = 0; its faces' prisms leave the wedge
    // |x| < tan(1.5°)·y above it uncovered, where the active-edge filter drops both triangles.
    const { p, meshIds, bodies } = meshScene();
    const c = p.collider, tr = p.transform, mesh = meshIds[2], o = SHAPE_STRIDE * bodies.sphere;
    tr.position.set([0, 0, 0], 3 * mesh);
    tr.rotation.set([0, 0, 0, 1], 4 * mesh);
    c.world.set([0.005, 0.5, 0.2, Math.hypot(0.005, 0.5) * (1 + 1e-6)], o);
    expect(meshPairOverlap(c, tr, bodies.sphere, mesh)).toBe(true);
    expect(meshPairContact(c, tr, bodies.sphere, mesh, out, 0)).toBe(1);
    // The edge normal, within the bend of both faces' normals.
    expect(-out[CONTACT_NORMAL + 1]).toBeGreaterThan(Math.cos((3 * Math.PI) / 180));
  });

  it('a zero-length capsule on a triangle vertex, and a box corner on a triangle: contacts the leaf tests report', () => {
    const triangle = Float64Array.from([0, 0, 0, 0.0001, 0.00002, 0, 0.00003, 0.00001, 0.0001]);
    expect(contactCapsuleTriangle(out, 0, [0, 0, 0, 0, 0, 0, 0.00010192528134211898], 0, triangle, 0)).toBe(1);
    const box = [-0.0276305955455204, -1.0436542068200099, -0.06866495959025888, 0.8971859086078312, 0.4385161729049359, -0.052545328016377665,
      -0.4226352162558253, 0.8869912779650706, 0.18608048472175323, 0.1282065496608193, -0.1447412826898368, 0.9811284532156677,
      0.47884100675582886, 0.9268117249011993, 0.08014827966690063];
    const tri = Float64Array.from([-1, -0.026185921569186928, 1, 0, 0, 1, 0, 0, 0]);
    const pose = poseFromTranslationQuaternion(new Float64Array(POSE_STRIDE), 0, 0, 0, 0, [0, 0, 0, 1]);
    expect(overlapTreeObb(new TreeQueryResult(), buildBoundingTree(tri, [0, 1, 2]), pose, 0, box, 0, 'first')).toBe(1);
    expect(contactObbTriangle(out, 0, box, 0, tri, 0)).toBeGreaterThan(0);
  });
});
