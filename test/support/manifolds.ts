import { expect } from 'vitest';
import { CONTACT_COUNT, CONTACT_DEPTH, CONTACT_FEATURE_B, CONTACT_POINTS, CONTACT_POINT_STRIDE, CONTACT_STRIDE } from '../../src/contacts/manifold';
import type { CollisionPipeline } from '../../systems/collisionState';

/** One manifold of the pipeline's contact store, unpacked for assertions. */
export interface Manifold {
  normal: number[];
  depth: number;
  points: number[][];
  depths: number[];
  featureB: number;
}

/** The manifold of pair (a, b) in either order (pairs are stored a < b), checked finite; undefined when the pair has none. */
export function manifoldOf(collision: CollisionPipeline, a: number, b: number): Manifold | undefined {
  const c = collision.contacts;
  for (let i = 0; i < c.count; i++) {
    if (c.a[i] !== Math.min(a, b) || c.b[i] !== Math.max(a, b)) continue;
    const m = c.manifold, o = i * CONTACT_STRIDE;
    for (let k = 0; k < 7 + CONTACT_POINT_STRIDE * m[o + CONTACT_COUNT]; k++) expect(Number.isFinite(m[o + k])).toBe(true);
    const points = [], depths = [];
    for (let q = 0; q < m[o + CONTACT_COUNT]; q++) {
      const p = o + CONTACT_POINTS + CONTACT_POINT_STRIDE * q;
      points.push([m[p], m[p + 1], m[p + 2]]);
      depths.push(m[p + 3]);
    }
    return { normal: [m[o], m[o + 1], m[o + 2]], depth: m[o + CONTACT_DEPTH], points, depths, featureB: m[o + CONTACT_FEATURE_B] };
  }
  return undefined;
}
