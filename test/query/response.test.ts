import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { responseImpulse, responseReflect, responseSlide, responseStop } from '../../src/query/response';
import { CollideInputError } from '../../src/errors';

type Vec = [number, number, number];
const dot = (a: ArrayLike<number>, ai: number, b: ArrayLike<number>, bi: number) =>
  a[ai] * b[bi] + a[ai + 1] * b[bi + 1] + a[ai + 2] * b[bi + 2];

const coord = fc.double({ min: -100, max: 100, noNaN: true });
const vec = fc.tuple(coord, coord, coord);
/** Unit normal from a non-degenerate random vector. */
const unitNormal = fc
  .tuple(fc.double({ min: -1, max: 1, noNaN: true }), fc.double({ min: -1, max: 1, noNaN: true }), fc.double({ min: -1, max: 1, noNaN: true }))
  .filter(([x, y, z]) => Math.hypot(x, y, z) > 1e-3)
  .map(([x, y, z]): Vec => {
    const l = Math.hypot(x, y, z);
    return [x / l, y / l, z / l];
  });
const restitution = fc.double({ min: 0, max: 1, noNaN: true });
const tangential = (v: ArrayLike<number>, vo: number, n: Vec): Vec => {
  const k = dot(v, vo, n, 0);
  return [v[vo] - k * n[0], v[vo + 1] - k * n[1], v[vo + 2] - k * n[2]];
};
/** Values with -0 read as 0: adding a zero impulse may flip the sign of a zero, harmlessly. */
const plain = (v: ArrayLike<number>) => Array.from(v, (x) => x + 0);
const close = (a: ArrayLike<number>, b: ArrayLike<number>, tol: number) => {
  for (let i = 0; i < 3; i++) expect(Math.abs(a[i] - b[i])).toBeLessThanOrEqual(tol);
};

describe('responseStop', () => {
  it('restores the last safe position and zeroes the velocity, at offsets', () => {
    const pos = new Float64Array([9, 1, 2, 3, 9]);
    const vel = new Float64Array([9, 9, 4, 5, 6]);
    const safe = new Float64Array([7, 8, 9]);
    expect(responseStop(pos, 1, vel, 2, safe, 0)).toBe(pos);
    expect([...pos]).toEqual([9, 7, 8, 9, 9]);
    expect([...vel]).toEqual([9, 9, 0, 0, 0]);
  });
});

describe('responseSlide', () => {
  it('leaves no inward normal component, keeps the tangent, and leaves separating motion alone', () => {
    fc.assert(
      fc.property(vec, unitNormal, (v, n) => {
        const out = new Float64Array(4);
        responseSlide(out, 1, v, 0, n, 0);
        const scale = 1e-12 * (Math.hypot(...v) + 1);
        const vn = dot(v, 0, n, 0);
        expect(dot(out, 1, n, 0)).toBeGreaterThanOrEqual(-scale);
        close(tangential(out, 1, n), tangential(v, 0, n), scale);
        if (vn >= 0) expect(plain(out.subarray(1))).toEqual(plain(v));
        else expect(Math.abs(dot(out, 1, n, 0))).toBeLessThanOrEqual(scale);
      }),
    );
  });

  it('works in place (out aliasing v)', () => {
    const v = new Float64Array([3, -4, 5]);
    responseSlide(v, 0, v, 0, [0, 1, 0], 0);
    expect([...v]).toEqual([3, 0, 5]);
  });
});

describe('responseReflect', () => {
  it('normal velocity becomes −e times what it was, tangential part preserved', () => {
    fc.assert(
      fc.property(vec, unitNormal, restitution, (v, n, e) => {
        const out = new Float64Array(3);
        responseReflect(out, 0, v, 0, n, 0, e);
        const scale = 1e-12 * (Math.hypot(...v) + 1);
        const vn = dot(v, 0, n, 0);
        close(tangential(out, 0, n), tangential(v, 0, n), scale);
        expect(Math.abs(dot(out, 0, n, 0) - (vn < 0 ? -e * vn : vn))).toBeLessThanOrEqual(scale);
      }),
    );
    const out = new Float64Array(3);
    expect(plain(responseReflect(out, 0, [1, -2, 0], 0, [0, 1, 0], 0, 1))).toEqual([1, 2, 0]);
    expect(plain(responseReflect(out, 0, [1, -2, 0], 0, [0, 1, 0], 0, 0.5))).toEqual([1, 1, 0]);
  });

  it('rejects restitution outside [0, 1]', () => {
    const out = new Float64Array(3);
    for (const e of [-0.1, 1.1, NaN, Infinity]) {
      expect(() => responseReflect(out, 0, [1, 0, 0], 0, [1, 0, 0], 0, e)).toThrow(CollideInputError);
    }
  });
});

describe('responseImpulse', () => {
  const inverseMass = fc.oneof(fc.constant(0), fc.double({ min: 0.01, max: 100, noNaN: true }));

  it('conserves momentum, gives relative normal velocity −e × before, leaves static bodies untouched', () => {
    fc.assert(
      fc.property(vec, vec, unitNormal, inverseMass, inverseMass, restitution, (a0, b0, n, wa, wb, e) => {
        const va = new Float64Array(a0), vb = new Float64Array([0, ...b0]);
        const before = (b0[0] - a0[0]) * n[0] + (b0[1] - a0[1]) * n[1] + (b0[2] - a0[2]) * n[2];
        const j = responseImpulse(va, 0, wa, vb, 1, wb, n, 0, e);
        const speed = Math.hypot(...a0) + Math.hypot(...b0) + 1;
        const tol = 1e-12 * speed;
        expect(j).toBeGreaterThanOrEqual(0);
        if (wa === 0) expect(plain(va)).toEqual(plain(a0));
        if (wb === 0) expect(plain(vb.subarray(1))).toEqual(plain(b0));
        if (before >= 0 || wa + wb === 0) {
          expect(j).toBe(0);
          expect(plain(va)).toEqual(plain(a0));
          expect(plain(vb.subarray(1))).toEqual(plain(b0));
          return;
        }
        const after = (vb[1] - va[0]) * n[0] + (vb[2] - va[1]) * n[1] + (vb[3] - va[2]) * n[2];
        expect(Math.abs(after + e * before)).toBeLessThanOrEqual(tol * 10);
        // Momentum of two dynamic bodies (masses 1/w) is unchanged.
        if (wa > 0 && wb > 0) {
          for (let i = 0; i < 3; i++) {
            const p0 = a0[i] / wa + b0[i] / wb, p1 = va[i] / wa + vb[1 + i] / wb;
            expect(Math.abs(p1 - p0)).toBeLessThanOrEqual(1e-12 * speed * (1 / wa + 1 / wb) * 10);
          }
        }
        // Tangential velocities are untouched (frictionless).
        close(tangential(va, 0, n), tangential(a0, 0, n), tol * 10);
        close(tangential(vb, 1, n), tangential(b0, 0, n), tol * 10);
      }),
    );
  });

  it('equal masses, e = 1, head-on: velocities swap', () => {
    const va = new Float64Array([2, 0, 0]), vb = new Float64Array([-1, 0, 0]);
    expect(responseImpulse(va, 0, 1, vb, 0, 1, [1, 0, 0], 0, 1)).toBe(3);
    expect([...va]).toEqual([-1, 0, 0]);
    expect([...vb]).toEqual([2, 0, 0]);
  });

  it('rejects negative or non-finite inverse masses and bad restitution', () => {
    const va = new Float64Array(3), vb = new Float64Array(3);
    for (const w of [-1, NaN, Infinity]) {
      expect(() => responseImpulse(va, 0, w, vb, 0, 1, [1, 0, 0], 0, 0.5)).toThrow(CollideInputError);
      expect(() => responseImpulse(va, 0, 1, vb, 0, w, [1, 0, 0], 0, 0.5)).toThrow(CollideInputError);
    }
    expect(() => responseImpulse(va, 0, 1, vb, 0, 1, [1, 0, 0], 0, 2)).toThrow(/restitution/);
  });
});
