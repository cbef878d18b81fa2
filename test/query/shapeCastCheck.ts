/**
 * Shared checks of the shape-cast tests: the kernel's answer against the sampled reference, the
 * k-DOP factors recomputed independently, and the sphere kernels dispatched by target kind.
 */
import { expect } from 'vitest';
import {
  castSphereAabb, castSphereCapsule, castSphereKdop, castSphereObb, castSphereSphere, castSphereTriangle,
} from '../../src/query/shapeCast';
import { SHAPE_CAST_HIT_STRIDE } from '../../src/query/shapeCastHit';
import {
  castCapsuleAabb, castCapsuleCapsule, castCapsuleKdop, castCapsuleObb, castCapsuleSphere, castCapsuleTriangle,
} from '../../src/query/shapeCastCapsule';
import { castObbAabb, castObbCapsule, castObbKdop, castObbObb, castObbSphere, castObbTriangle } from '../../src/query/shapeCastBox';
import { closestPtPointTriangle } from '../../src/query/closestPoints';
import { KDOP_DIRECTIONS } from '../../src/volumes/kdop';
import type { KdopK } from '../../src/layout';
import { boxPolytopeGap, distanceToTarget, firstContact, kdopHalfSpaces, kdopVertices, polytopeOf, type RefTarget } from '../support/castReference';
import { distanceToBox, norm, segmentBoxDistance, sub, type RefBox, type V } from '../support/contactReference';
import { OFFSET, type Target, type TargetKind } from './shapeCastScenes';

/**
 * c_k of shapeCastKdop.ts, recomputed here: the largest 1/dist(0, conv{a, b, c}) over linearly
 * independent triples of the signed unit k-DOP directions.
 */
function kdopFactor(k: KdopK): number {
  const d = KDOP_DIRECTIONS[k], dirs: number[][] = [];
  for (let i = 0; i < d.length; i += 3) {
    const l = Math.hypot(d[i], d[i + 1], d[i + 2]);
    dirs.push([d[i] / l, d[i + 1] / l, d[i + 2] / l], [-d[i] / l, -d[i + 1] / l, -d[i + 2] / l]);
  }
  const scratch = new Float64Array(6);
  let worst = 0;
  for (let i = 0; i < dirs.length; i++) for (let j = i + 1; j < dirs.length; j++) for (let l = j + 1; l < dirs.length; l++) {
    const [a, b, c] = [dirs[i], dirs[j], dirs[l]];
    const det = a[0] * (b[1] * c[2] - b[2] * c[1]) - a[1] * (b[0] * c[2] - b[2] * c[0]) + a[2] * (b[0] * c[1] - b[1] * c[0]);
    if (Math.abs(det) < 1e-9) continue;
    worst = Math.max(worst, 1 / Math.sqrt(closestPtPointTriangle(scratch, 0, 0, 0, 0, [...a, ...b, ...c], 0)));
  }
  return worst;
}
export const KDOP_FACTOR: Record<KdopK, number> = { 6: 1, 14: kdopFactor(14), 18: kdopFactor(18), 26: kdopFactor(26) };

export interface CastCheck {
  /** Gap between mover and target at time t (<= 0 touching), from the references. */
  gap: (t: number) => number;
  /** Distance from a point to the mover at time t (0 inside). */
  moverDistance: (p: V, t: number) => number;
  /** Distance from a point to the target (0 inside). */
  targetDistance: (p: V) => number;
  d: V;
  maxT: number;
  /** Distance tolerance (rounding of the scene). */
  tol: number;
  /** How much earlier than the true contact a conservative kernel may report, in gap distance. */
  early: number;
  /** How far the point may lie from the mover (default: the early bound). */
  pointOnMover?: number;
  /** Whether to check the normal against the target's distance field (exact kernels). */
  exactNormal: boolean;
  steps?: number;
}

/**
 * Checks a kernel's answer against the sampled reference: a hit whenever the shapes come closer
 * than -tol; never late (no sampled time before t with gap < -tol); never early (gap at t at most
 * tol, plus the conservative bound); the normal unit, against the motion, outward from the target;
 * the point on the target and on the mover at t.
 */
export function checkCast(hit: boolean, out: ArrayLike<number>, oo: number, c: CastCheck): void {
  const ref = firstContact(c.gap, c.maxT, c.steps ?? 4096);
  if (!hit) {
    expect(ref.minGap, 'missed a contact').toBeGreaterThan(-c.tol);
    return;
  }
  const t = out[oo];
  expect(t).toBeGreaterThanOrEqual(0);
  expect(t).toBeLessThanOrEqual(c.maxT);
  expect(c.gap(t), 'reported before contact').toBeLessThanOrEqual(c.tol + c.early);
  const late = firstContact((s) => c.gap(s) + c.tol, c.maxT, c.steps ?? 4096);
  if (late.t !== null) expect(t, 'reported after penetration').toBeLessThanOrEqual(late.t);
  const n: V = [out[oo + 1], out[oo + 2], out[oo + 3]], p: V = [out[oo + 4], out[oo + 5], out[oo + 6]];
  const dl = norm(c.d);
  if (dl > 0 || t > 0) expect(Math.abs(norm(n) - 1)).toBeLessThan(1e-9);
  // Against the motion; a graze (motion tangent at the contact, met a rounding after a touching
  // start) fixes the normal only to about √(rounding) across the motion.
  if (t > 0) expect(n[0] * c.d[0] + n[1] * c.d[1] + n[2] * c.d[2], 'normal along the motion').toBeLessThanOrEqual(3e-5 * dl);
  expect(c.targetDistance(p), 'point off the target').toBeLessThanOrEqual(c.tol + c.early);
  expect(c.moverDistance(p, t), 'point off the mover').toBeLessThanOrEqual(c.tol + (c.pointOnMover ?? c.early));
  if (t > 0 && c.exactNormal) {
    // Outward: stepping off the target along the normal gains distance at unit rate.
    const eps = 1e-4 * Math.max(c.tol * 1e6, 1e-300);
    const q: V = [p[0] + eps * n[0], p[1] + eps * n[1], p[2] + eps * n[2]];
    expect(c.targetDistance(q), 'normal not outward').toBeGreaterThan(0.9 * eps - c.tol);
  }
}

export const out = new Float64Array(SHAPE_CAST_HIT_STRIDE + 2);
export const OO = 2;


/** Runs the sphere kernel for `target` (a k-DOP with its k). */
export function castSphere(target: Target, c: V, r: number, d: V, maxT: number): boolean {
  const args = [out, OO, c[0], c[1], c[2], r, d[0], d[1], d[2], maxT, target.store, OFFSET] as const;
  switch (target.kind) {
    case 'sphere': return castSphereSphere(...args);
    case 'capsule': return castSphereCapsule(...args);
    case 'aabb': return castSphereAabb(...args);
    case 'obb': return castSphereObb(...args);
    case 'triangle': return castSphereTriangle(...args);
    default: return castSphereKdop(...args, target.k);
  }
}

export const TARGETS: TargetKind[] = ['sphere', 'capsule', 'aabb', 'obb', 'triangle', 'kdop6', 'kdop14', 'kdop18', 'kdop26'];
export const SCALES = [1e-3, 1, 1e3];
export const OFFSETS = [0, 1, 1e6];

/** A cached k-DOP reference (vertices and half-spaces) for the target. */
export function targetDistanceOf(target: Target): (p: V) => number {
  const ref: RefTarget = target.ref;
  if (ref.kind !== 'kdop') return (p) => distanceToTarget(ref, p);
  // Relative to the target's centre, so the reference's own feasibility tolerance stays small far away.
  const o = target.centre, dirs = KDOP_DIRECTIONS[ref.k], half = ref.k / 2;
  const local = ref.values.map((v, i) => v - (dirs[3 * (i % half)] * o[0] + dirs[3 * (i % half) + 1] * o[1] + dirs[3 * (i % half) + 2] * o[2]));
  const cache = { hs: kdopHalfSpaces(ref.k, local), vertices: kdopVertices(ref.k, local) };
  return (p) => distanceToTarget(ref, sub(p, o), cache);
}

export function sceneTolerance(target: Target, offset: number, d: V, moverSize: number): number {
  return 1e-9 * (target.size + moverSize + norm(d)) + 1e-12 * offset;
}


/** Runs the capsule kernel (mover at mover[mo]) for `target`. */
export function castCapsule(target: Target, mover: Float64Array, mo: number, d: V, maxT: number): boolean {
  const args = [out, OO, mover, mo, d[0], d[1], d[2], maxT, target.store, OFFSET] as const;
  switch (target.kind) {
    case 'sphere': return castCapsuleSphere(...args);
    case 'capsule': return castCapsuleCapsule(...args);
    case 'aabb': return castCapsuleAabb(...args);
    case 'obb': return castCapsuleObb(...args);
    case 'triangle': return castCapsuleTriangle(...args);
    default: return castCapsuleKdop(...args, target.k);
  }
}

/** Runs the box kernel (mover at mover[mo], OBB layout) for `target`. */
export function castBox(target: Target, mover: Float64Array, mo: number, d: V, maxT: number): boolean {
  const args = [out, OO, mover, mo, d[0], d[1], d[2], maxT, target.store, OFFSET] as const;
  switch (target.kind) {
    case 'sphere': return castObbSphere(...args);
    case 'capsule': return castObbCapsule(...args);
    case 'aabb': return castObbAabb(...args);
    case 'obb': return castObbObb(...args);
    case 'triangle': return castObbTriangle(...args);
    default: return castObbKdop(...args, target.k);
  }
}

/**
 * Gap between box b and the target (references from scratch): distances for round targets, the
 * SAT gap over the complete axis set for polytopes (in the target's local frame for k-DOPs, whose
 * vertices are computed once).
 */
export function boxGapOf(target: Target): (b: RefBox) => number {
  const ref = target.ref;
  if (ref.kind === 'sphere') return (b) => distanceToBox(b, ref.c) - ref.r;
  if (ref.kind === 'capsule') return (b) => segmentBoxDistance(ref.p0, ref.p1, b) - ref.r;
  if (ref.kind !== 'kdop') return (b) => boxPolytopeGap(b, ref);
  const o = target.centre, dirs = KDOP_DIRECTIONS[ref.k], half = ref.k / 2;
  const local = ref.values.map((v, i) => v - (dirs[3 * (i % half)] * o[0] + dirs[3 * (i % half) + 1] * o[1] + dirs[3 * (i % half) + 2] * o[2]));
  const poly = polytopeOf({ kind: 'kdop', k: ref.k, values: local });
  return (b) => boxPolytopeGap({ c: sub(b.c, o), u: b.u, h: b.h }, poly);
}
