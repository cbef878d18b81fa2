import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { obbFromAabb } from '../../src/volumes/obb';
import { castObbObb } from '../../src/query/shapeCastBox';
import { assertShapeCast, castSphereAabb, castSphereCapsule, castSphereSphere, castSphereTriangle } from '../../src/query/shapeCast';
import { mulberry32 } from '../../scenes/random';
import { refusal } from '../support/refusal';
import { boxToStore, distanceToBox, distanceToSegment, norm, randomBox, sub, translateBox, type V } from '../support/contactReference';
import { SCENE_KINDS, placeMotion, randomTarget, referenceNormal, type SceneKind, type TargetKind } from './shapeCastScenes';
import { KDOP_FACTOR, OO, OFFSETS, SCALES, TARGETS, boxGapOf, castBox, castCapsule, castSphere, checkCast, out, sceneTolerance, targetDistanceOf } from './shapeCastCheck';

describe('sphere casts', () => {
  it('match the sampled first contact on random and adversarial scenes (every target kind)', () => {
    const seen = new Map<string, number>();
    fc.assert(
      fc.property(fc.integer(), fc.constantFrom(...TARGETS), fc.constantFrom(...SCENE_KINDS), fc.constantFrom(...SCALES), fc.constantFrom(...OFFSETS),
        (seed, kind, scene: SceneKind, size, offset) => {
          const rand = mulberry32(seed);
          const centre: V = [offset + size * rand(), offset - size * rand(), offset * 0.5 + size * rand()];
          const target = randomTarget(rand, kind, centre, size);
          const targetDistance = targetDistanceOf(target);
          const r = rand() < 0.1 ? 0 : size * (0.05 + rand());
          const base: V = [centre[0], centre[1], centre[2]];
          const gapAt = (shift: V, d: V, t: number) =>
            targetDistance([base[0] + shift[0] + t * d[0], base[1] + shift[1] + t * d[1], base[2] + shift[2] + t * d[2]]) - r;
          const { shift, d } = placeMotion(rand, scene, size, [0, 0, 0], gapAt,
            (s) => referenceNormal(target.ref, [base[0] + s[0], base[1] + s[1], base[2] + s[2]], 1e-6 * size));
          const c: V = [base[0] + shift[0], base[1] + shift[1], base[2] + shift[2]];
          const maxT = rand() < 0.2 ? 0.5 : 1;
          const hit = castSphere(target, c, r, d, maxT);
          const isKdop = target.kind.startsWith('kdop');
          const tol = sceneTolerance(target, offset, d, r);
          const key = `${kind}/${hit}`;
          seen.set(key, (seen.get(key) ?? 0) + 1);
          checkCast(hit, out, OO, {
            gap: (t) => gapAt(shift, d, t),
            moverDistance: (p, t) => Math.max(0, norm(sub(p, [c[0] + t * d[0], c[1] + t * d[1], c[2] + t * d[2]])) - r),
            targetDistance,
            d, maxT, tol,
            early: isKdop ? (KDOP_FACTOR[target.k] - 1) * r : 0,
            exactNormal: !isKdop || target.k === 6,
            steps: isKdop && target.k !== 6 ? 128 : 4096,
          });
        }),
      { numRuns: 600, endOnFailure: true },
    );
    // Both outcomes happen for every target kind.
    for (const kind of TARGETS) {
      expect(seen.get(`${kind}/true`) ?? 0, `${kind} hits`).toBeGreaterThan(5);
      expect(seen.get(`${kind}/false`) ?? 0, `${kind} misses`).toBeGreaterThan(2);
    }
  });

  it('capsule targets of zero length and zero radius, and triangles of zero area, behave as their points and segments', () => {
    const cap = new Float64Array([9, 1, 0, 0, 1, 0, 0, 0.5]);
    expect(castSphereCapsule(out, 0, -2, 0, 0, 0.5, 4, 0, 0, 1, cap, 1)).toBe(true);
    expect(out[0]).toBeCloseTo(0.5, 12); // the centre meets the ball of radius 1 around x = 1 at x = 0
    expect([out[1], out[2], out[3]]).toEqual([-1, 0, 0]);
    expect(out[4]).toBeCloseTo(0.5, 12);
    const flat = new Float64Array([0, 0, 0, 2, 0, 0, 1, 0, 0]);
    expect(castSphereTriangle(out, 0, 1, 2, 0, 0.5, 0, -4, 0, 1, flat, 0)).toBe(true);
    expect(out[0]).toBeCloseTo(1.5 / 4, 12);
    expect([out[1], out[2], out[3]].map((x) => x + 0)).toEqual([0, 1, 0]);
  });

  it('start overlap: t = 0, normal of least penetration, the target point nearest the centre', () => {
    const box = new Float64Array([-1, -1, -1, 1, 1, 1]);
    expect(castSphereAabb(out, 0, 0.9, 0.2, 0, 0.05, 0, 0, 5, 1, box, 0)).toBe(true);
    expect(Array.from(out.subarray(0, 7))).toEqual([0, 1, 0, 0, 0.9, 0.2, 0]);
    const sphere = new Float64Array([0, 0, 0, 1]);
    // Centres coincide: the normal opposes the motion.
    expect(castSphereSphere(out, 0, 0, 0, 0, 1, 0, 0, 3, 1, sphere, 0)).toBe(true);
    expect(Array.from(out.subarray(0, 4), (x) => x + 0)).toEqual([0, 0, 0, -1]);
    // Zero displacement: a static test.
    expect(castSphereSphere(out, 0, 3, 0, 0, 1, 0, 0, 0, 1, sphere, 0)).toBe(false);
    expect(castSphereSphere(out, 0, 2, 0, 0, 1, 0, 0, 0, 1, sphere, 0)).toBe(true);
    expect(Array.from(out.subarray(0, 7))).toEqual([0, 1, 0, 0, 1, 0, 0]);
  });

  it('respects maxT and never writes on a miss', () => {
    const sphere = new Float64Array([0, 0, 0, 1]);
    out.fill(7);
    expect(castSphereSphere(out, 0, -5, 0, 0, 1, 10, 0, 0, 0.29, sphere, 0)).toBe(false);
    expect(castSphereSphere(out, 0, -5, 0, 0, 1, 10, 0, 0, -1, sphere, 0)).toBe(false);
    expect(Array.from(out)).toEqual(new Array(out.length).fill(7));
    expect(castSphereSphere(out, 0, -5, 0, 0, 1, 10, 0, 0, 0.3, sphere, 0)).toBe(true);
    expect(out[0]).toBeCloseTo(0.3, 15);
  });
});

describe('capsule casts', () => {
  const slow: TargetKind[] = ['kdop14', 'kdop18', 'kdop26'];
  const fast = TARGETS.filter((k) => !slow.includes(k));
  it('match the sampled first contact on random and adversarial scenes (exact targets)', () => capsuleProperty(fast, 300, 512));
  // The k-DOP reference (a brute-force projection inside a ternary search) is slow: fewer, coarser runs.
  it('k-DOP targets: never late, and within the documented bound when early', () => capsuleProperty(slow, 30, 16));
});

function capsuleProperty(targets: TargetKind[], runs: number, steps: number): void {
  {
    const seen = new Map<string, number>();
    fc.assert(
      fc.property(fc.integer(), fc.constantFrom(...targets), fc.constantFrom(...SCENE_KINDS), fc.constantFrom(...SCALES), fc.constantFrom(...OFFSETS),
        (seed, kind, scene: SceneKind, size, offset) => {
          const rand = mulberry32(seed);
          const centre: V = [offset + size * rand(), offset - size * rand(), offset * 0.5 + size * rand()];
          const target = randomTarget(rand, kind, centre, size);
          const targetDistance = targetDistanceOf(target);
          const r = rand() < 0.1 ? 0 : size * (0.05 + 0.7 * rand());
          const half: V = rand() < 0.1 ? [0, 0, 0] : [(rand() - 0.5) * 3 * size, (rand() - 0.5) * 3 * size, (rand() - 0.5) * 3 * size];
          const ends = (shift: V, d: V, t: number): [V, V] => {
            const m: V = [centre[0] + shift[0] + t * d[0], centre[1] + shift[1] + t * d[1], centre[2] + shift[2] + t * d[2]];
            return [sub(m, half), [m[0] + half[0], m[1] + half[1], m[2] + half[2]]];
          };
          const isKdop = target.kind.startsWith('kdop') && target.k !== 6;
          const gapAt = (shift: V, d: V, t: number) => capsuleGapWith(targetDistance, ...ends(shift, d, t), r);
          const { shift, d } = placeMotion(rand, scene, size, [0, 0, 0], gapAt,
            (s) => referenceNormal(target.ref, [centre[0] + s[0], centre[1] + s[1], centre[2] + s[2]], 1e-6 * size));
          const [p0, p1] = ends(shift, d, 0);
          const mover = new Float64Array([5, ...p0, ...p1, r]);
          const maxT = rand() < 0.2 ? 0.5 : 1;
          const hit = castCapsule(target, mover, 1, d, maxT);
          const key = `${kind}/${hit}`;
          seen.set(key, (seen.get(key) ?? 0) + 1);
          checkCast(hit, out, OO, {
            gap: (t) => gapAt(shift, d, t),
            moverDistance: (p, t) => {
              const [a, b] = ends(shift, d, t);
              return Math.max(0, distanceToSegment(p, a, b) - r);
            },
            targetDistance,
            d, maxT, tol: sceneTolerance(target, offset, d, r + 2 * norm(half)),
            early: isKdop ? (KDOP_FACTOR[target.k] - 1) * r : 0,
            exactNormal: !isKdop,
            steps,
          });
        }),
      { numRuns: runs, endOnFailure: true },
    );
    for (const kind of targets) {
      expect(seen.get(`${kind}/true`) ?? 0, `${kind} hits`).toBeGreaterThan(0);
      if (runs >= 100) expect(seen.get(`${kind}/false`) ?? 0, `${kind} misses`).toBeGreaterThan(0);
    }
  }
}

/** Gap of the capsule p0 p1 (radius r) to a target given by its distance function: ternary search along the core. */
function capsuleGapWith(targetDistance: (p: V) => number, p0: V, p1: V, r: number): number {
  let lo = 0, hi = 1;
  const at = (s: number): V => [p0[0] + s * (p1[0] - p0[0]), p0[1] + s * (p1[1] - p0[1]), p0[2] + s * (p1[2] - p0[2])];
  for (let i = 0; i < 60; i++) {
    const m1 = lo + (hi - lo) / 3, m2 = hi - (hi - lo) / 3;
    if (targetDistance(at(m1)) <= targetDistance(at(m2))) hi = m2;
    else lo = m1;
  }
  return Math.min(targetDistance(p0), targetDistance(p1), targetDistance(at(0.5 * (lo + hi)))) - r;
}

describe('box casts', () => {
  const slow: TargetKind[] = ['kdop14', 'kdop18', 'kdop26'];
  const fast = TARGETS.filter((k) => !slow.includes(k));
  it('match the sampled first contact on random and adversarial scenes (exact targets)', () => boxProperty(fast, 400, 1024));
  it('k-DOP targets: never late, and within the documented bound when early', () => boxProperty(slow, 60, 256));
  it('an AABB mover is the OBB with identity axes', () => {
    const mover = new Float64Array(obbFromAabb(new Float64Array(15), 0, [-1, -1, -1, 1, 1, 1]) as Float64Array);
    const target = new Float64Array([3, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1, 0.5, 0.5, 0.5]);
    expect(castObbObb(out, 0, mover, 0, 4, 0, 0, 1, target, 0)).toBe(true);
    expect(out[0]).toBeCloseTo(0.375, 9);
    expect(Array.from(out.subarray(1, 4), (x) => x + 0)).toEqual([-1, 0, 0]);
    expect(Array.from(out.subarray(4, 7))).toEqual([2.5, 0, 0]); // the mover's face centre, on the target's face
  });
});

function boxProperty(targets: TargetKind[], runs: number, steps: number): void {
  const seen = new Map<string, number>();
  fc.assert(
    fc.property(fc.integer(), fc.constantFrom(...targets), fc.constantFrom(...SCENE_KINDS), fc.constantFrom(...SCALES), fc.constantFrom(...OFFSETS),
      (seed, kind, scene: SceneKind, size, offset) => {
        const rand = mulberry32(seed);
        const centre: V = [offset + size * rand(), offset - size * rand(), offset * 0.5 + size * rand()];
        const target = randomTarget(rand, kind, centre, size);
        const targetDistance = targetDistanceOf(target);
        const gapOf = boxGapOf(target);
        const box0 = randomBox(rand, centre, 0.05 * size, size);
        if (rand() < 0.15) box0.u = [[1, 0, 0], [0, 1, 0], [0, 0, 1]];
        const at = (shift: V, d: V, t: number) => translateBox(box0, [shift[0] + t * d[0], shift[1] + t * d[1], shift[2] + t * d[2]]);
        const gapAt = (shift: V, d: V, t: number) => gapOf(at(shift, d, t));
        const { shift, d } = placeMotion(rand, scene, size, [0, 0, 0], gapAt,
          (s) => referenceNormal(target.ref, [centre[0] + s[0], centre[1] + s[1], centre[2] + s[2]], 1e-6 * size));
        const mover = new Float64Array([7, ...boxToStore(at(shift, d, 0))]);
        const maxT = rand() < 0.2 ? 0.5 : 1;
        const hit = castBox(target, mover, 1, d, maxT);
        const key = `${kind}/${hit}`;
        seen.set(key, (seen.get(key) ?? 0) + 1);
        const isKdop = target.kind.startsWith('kdop') && target.k !== 6;
        const extent = norm(box0.h);
        checkCast(hit, out, OO, {
          gap: (t) => gapAt(shift, d, t),
          moverDistance: (p, t) => distanceToBox(at(shift, d, t), p),
          targetDistance,
          d, maxT, tol: sceneTolerance(target, offset, d, 2 * extent),
          // The point is the mover's supporting feature's centre, clamped onto the target: on the mover
          // for faces and corners, within an edge's half-length of it for edge contacts.
          early: isKdop ? Math.sqrt(3) * extent : 0,
          pointOnMover: isKdop ? Math.sqrt(3) * extent : 2 * extent,
          exactNormal: false,
          steps,
        });
      }),
    { numRuns: runs, endOnFailure: true },
  );
  for (const kind of targets) expect(seen.get(`${kind}/true`) ?? 0, `${kind} hits`).toBeGreaterThan(0);
}

describe('assertShapeCast', () => {
  it('refuses zero, NaN and infinite displacements, bad maxT and bad radii, naming them', () => {
    expect(refusal(() => assertShapeCast('castShape', 0, 0, 0))).toBe('castShape: displacement (0, 0, 0) has zero length');
    expect(refusal(() => assertShapeCast('castShape', 1, NaN, 0))).toBe('castShape: displacement.y is not finite (NaN)');
    expect(refusal(() => assertShapeCast('castShape', Infinity, 0, 0))).toBe('castShape: displacement.x is not finite (Infinity)');
    expect(refusal(() => assertShapeCast('castShape', 1, 0, 0, 1.5))).toBe('castShape: maxT must be in [0, 1], got 1.5');
    expect(refusal(() => assertShapeCast('castShape', 1, 0, 0, 1, -2))).toBe('castShape: radius is negative (-2)');
    expect(refusal(() => assertShapeCast('castShape', 1, 0, 0, 1, NaN))).toBe('castShape: radius is not finite (NaN)');
    expect(refusal(() => assertShapeCast('castShape', 0, 1e-30, 0, 0.5, 0))).toBe('no error');
  });
});
