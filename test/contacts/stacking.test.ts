import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { CONTACT_COUNT, CONTACT_POINTS, CONTACT_POINT_STRIDE, CONTACT_STRIDE } from '../../src/contacts/manifold';
import { contactObbObb } from '../../src/contacts/boxBox';
import { type RefBox, type V, add, boxCorners, boxToStore, cross, dot, norm, scale, unit } from '../support/contactReference';

/**
 * A unit cube resting face-down on a 4 × 1 × 4 slab, tilted by up to 2 degrees about a random
 * horizontal axis and yawed, placed so that its shallowest bottom corner is DEPTH below the slab
 * top: the manifold must be the 4 bottom corners, each with its exact depth.
 */
const DEPTH = 0.01;
const SLAB: RefBox = { c: [0, 0, 0], u: [[1, 0, 0], [0, 1, 0], [0, 0, 1]], h: [2, 0.5, 2] };
const SLAB_TOP = 0.5;

const rotate = (v: V, axis: V, angle: number): V => {
  const c = Math.cos(angle), s = Math.sin(angle);
  return add(add(scale(v, c), scale(cross(axis, v), s)), scale(axis, dot(axis, v) * (1 - c)));
};

function restingCube(yaw: number, tiltAxisAngle: number, tiltDegrees: number, x: number, z: number): RefBox {
  const tiltAxis: V = [Math.cos(tiltAxisAngle), 0, Math.sin(tiltAxisAngle)];
  const tilt = (tiltDegrees * Math.PI) / 180;
  const axes = ([[1, 0, 0], [0, 1, 0], [0, 0, 1]] as V[]).map((u) => rotate(rotate(u, [0, 1, 0], yaw), tiltAxis, tilt)) as [V, V, V];
  const cube: RefBox = { c: [x, 0, z], u: axes, h: [0.5, 0.5, 0.5] };
  // The 4 lowest corners are the bottom face; lift the cube so the highest of them is DEPTH deep.
  const bottom = boxCorners(cube).sort((p, q) => p[1] - q[1]).slice(0, 4);
  const lift = SLAB_TOP - DEPTH - bottom[3][1];
  return { ...cube, c: [x, lift, z] };
}

describe('stacking: a tilted cube resting on a slab', () => {
  const out = new Float64Array(CONTACT_STRIDE);
  const params = fc.tuple(
    fc.double({ min: 0, max: 2 * Math.PI, noNaN: true }),
    fc.double({ min: 0, max: 2 * Math.PI, noNaN: true }),
    fc.double({ min: 0, max: 2, noNaN: true }),
    fc.double({ min: -1.2, max: 1.2, noNaN: true }),
    fc.double({ min: -1.2, max: 1.2, noNaN: true }),
  );

  it('slab as A: 4 points at the bottom corners, each with its exact depth, normal up', () => {
    fc.assert(
      fc.property(params, ([yaw, tiltAxis, tilt, x, z]) => {
        const cube = restingCube(yaw, tiltAxis, tilt, x, z);
        const store = [...boxToStore(SLAB), ...boxToStore(cube)];
        expect(contactObbObb(out, 0, store, 0, store, 15)).toBe(4);
        expect(out[CONTACT_COUNT]).toBe(4);
        const n: V = [out[0], out[1], out[2]];
        expect(Math.atan2(Math.hypot(n[0], n[2]), n[1])).toBeLessThan(1e-9);
        const bottom = boxCorners(cube).sort((p, q) => p[1] - q[1]).slice(0, 4);
        for (let i = 0; i < 4; i++) {
          const o = CONTACT_POINTS + CONTACT_POINT_STRIDE * i;
          const p: V = [out[o], out[o + 1], out[o + 2]];
          // Match the point to its corner horizontally; its depth is that corner's depth.
          const corner = bottom.reduce((best, c) => (Math.hypot(c[0] - p[0], c[2] - p[2]) < Math.hypot(best[0] - p[0], best[2] - p[2]) ? c : best));
          expect(Math.hypot(corner[0] - p[0], corner[2] - p[2])).toBeLessThan(1e-9);
          expect(Math.abs(out[o + 3] - (SLAB_TOP - corner[1]))).toBeLessThan(1e-5);
          expect(Math.abs(p[1] - corner[1])).toBeLessThan(1e-9);
        }
        // Deepest point depth is the manifold depth.
        const deepest = Math.max(...[0, 1, 2, 3].map((i) => out[CONTACT_POINTS + CONTACT_POINT_STRIDE * i + 3]));
        expect(Math.abs(deepest - out[3])).toBeLessThan(1e-9);
      }),
      { numRuns: 400 },
    );
  });

  it('cube as A: 4 points, normal within the tilt of straight down', () => {
    fc.assert(
      fc.property(params, ([yaw, tiltAxis, tilt, x, z]) => {
        const cube = restingCube(yaw, tiltAxis, tilt, x, z);
        const store = [...boxToStore(cube), ...boxToStore(SLAB)];
        expect(contactObbObb(out, 0, store, 0, store, 15)).toBe(4);
        const n = unit([out[0], out[1], out[2]]);
        expect(norm([out[0], out[1], out[2]])).toBeCloseTo(1, 12);
        // atan2 of sine and cosine: acos near 1 alone is off by ~1e-8 rad from one ulp of n[1].
        const angle = (Math.atan2(Math.hypot(n[0], n[2]), -n[1]) * 180) / Math.PI;
        expect(angle).toBeLessThanOrEqual(tilt + 1e-7);
        for (let i = 0; i < 4; i++) {
          const d = out[CONTACT_POINTS + CONTACT_POINT_STRIDE * i + 3];
          expect(d).toBeGreaterThanOrEqual(0);
          expect(d).toBeLessThanOrEqual(out[3] + 1e-12);
        }
      }),
      { numRuns: 400 },
    );
  });
});
