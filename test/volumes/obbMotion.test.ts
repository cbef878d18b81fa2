import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { interpolateObb, interpolationReach } from '../../src/volumes/obb';
import { mat3ToQuaternion, quaternionToMat3 } from '../../src/rotation';
import { OBB_STRIDE } from '../../src/layout';
import { mulberry32, quaternionToAxes, randomQuaternion } from '../../scenes/random';

/** Rodrigues: v rotated by angle about unit axis n, the reference the slerp must reproduce. */
function rotate(n: number[], angle: number, v: ArrayLike<number>, vo: number): number[] {
  const c = Math.cos(angle), s = Math.sin(angle);
  const [x, y, z] = [v[vo], v[vo + 1], v[vo + 2]];
  const d = n[0] * x + n[1] * y + n[2] * z;
  const cx = n[1] * z - n[2] * y, cy = n[2] * x - n[0] * z, cz = n[0] * y - n[1] * x;
  return [x * c + cx * s + n[0] * d * (1 - c), y * c + cy * s + n[1] * d * (1 - c), z * c + cz * s + n[2] * d * (1 - c)];
}

function unitAxis(rand: () => number): number[] {
  for (;;) {
    const v = [rand() * 2 - 1, rand() * 2 - 1, rand() * 2 - 1];
    const len = Math.hypot(v[0], v[1], v[2]);
    if (len > 0.1 && len <= 1) return v.map((x) => x / len);
  }
}

/** Box a (random), box b = a turned by `angle` about `axis`, moved and resized at random. */
function boxPair(rand: () => number, axis: number[], angle: number, scale: number) {
  const a = new Float64Array(OBB_STRIDE), b = new Float64Array(OBB_STRIDE);
  a.set(quaternionToAxes(randomQuaternion(rand)), 3);
  for (let k = 0; k < 3; k++) {
    a[k] = (rand() - 0.5) * scale;
    b[k] = (rand() - 0.5) * scale;
    a[12 + k] = rand() * 3;
    b[12 + k] = rand() * 3;
    b.set(rotate(axis, angle, a, 3 + 3 * k), 3 + 3 * k);
  }
  return { a, b };
}

describe('mat3ToQuaternion', () => {
  it('gives back the rotation (quaternionToMat3 of it is the matrix), near half turns too', () => {
    fc.assert(
      fc.property(fc.integer(), fc.double({ min: Math.PI - 1e-6, max: Math.PI, noNaN: true }), fc.boolean(), (seed, nearHalf, half) => {
        const rand = mulberry32(seed);
        const m = new Float64Array(9);
        // Turns of nearly 180 degrees about a random axis, where the trace is about −1.
        if (!half) m.set(quaternionToAxes(randomQuaternion(rand)));
        else {
          const n = unitAxis(rand);
          for (let k = 0; k < 3; k++) m.set(rotate(n, nearHalf, [1, 0, 0, 0, 1, 0, 0, 0, 1], 3 * k), 3 * k);
        }
        const q = mat3ToQuaternion(new Float64Array(4), 0, m, 0);
        expect(Math.hypot(q[0], q[1], q[2], q[3])).toBeCloseTo(1, 12);
        expect(q[3]).toBeGreaterThanOrEqual(0);
        const back = quaternionToMat3(new Float64Array(9), 0, q);
        for (let k = 0; k < 9; k++) expect(Math.abs(back[k] - m[k])).toBeLessThan(1e-12);
      }),
    );
  });
});

describe('interpolateObb', () => {
  it('turns the axes by the fraction s of the turn between the frames, and lerps centre and half-extents', () => {
    fc.assert(
      fc.property(
        fc.integer(),
        fc.double({ min: -3.1, max: 3.1, noNaN: true }),
        fc.double({ min: 0, max: 1, noNaN: true }),
        fc.constantFrom(1, 1e-3, 1e6),
        (seed, angle, s, scale) => {
          const rand = mulberry32(seed);
          const axis = unitAxis(rand);
          const { a, b } = boxPair(rand, axis, angle, scale);
          const out = interpolateObb(new Float64Array(OBB_STRIDE), 0, a, 0, b, 0, s);
          for (let k = 0; k < 3; k++) {
            const want = rotate(axis, s * angle, a, 3 + 3 * k);
            for (let j = 0; j < 3; j++) expect(Math.abs(out[3 + 3 * k + j] - want[j])).toBeLessThan(1e-9);
            expect(Math.abs(out[k] - (a[k] + s * (b[k] - a[k])))).toBeLessThanOrEqual(1e-12 * scale);
            expect(Math.abs(out[12 + k] - (a[12 + k] + s * (b[12 + k] - a[12 + k])))).toBeLessThan(1e-12);
          }
        },
      ),
    );
  });

  it('gives box a at s = 0 and box b at s = 1; a left-handed frame stays the same box (third axis negated)', () => {
    fc.assert(
      fc.property(fc.integer(), fc.double({ min: -3.1, max: 3.1, noNaN: true }), fc.boolean(), (seed, angle, leftHanded) => {
        const rand = mulberry32(seed);
        const { a, b } = boxPair(rand, unitAxis(rand), angle, 10);
        if (leftHanded) for (let k = 9; k < 12; k++) (a[k] = -a[k]), (b[k] = -b[k]);
        for (const [s, box] of [[0, a], [1, b]] as const) {
          const out = interpolateObb(new Float64Array(OBB_STRIDE), 0, a, 0, b, 0, s);
          for (let k = 0; k < 15; k++) {
            const want = leftHanded && k >= 9 && k < 12 ? -box[k] : box[k];
            expect(Math.abs(out[k] - want)).toBeLessThan(1e-12 * (k < 3 ? 10 : 1) + 1e-13);
          }
        }
      }),
    );
  });

  it('may write over either input box', () => {
    const rand = mulberry32(7);
    const { a, b } = boxPair(rand, unitAxis(rand), 1.2, 10);
    const want = interpolateObb(new Float64Array(OBB_STRIDE), 0, a, 0, b, 0, 0.3);
    const both = new Float64Array(2 * OBB_STRIDE);
    both.set(a, 0);
    both.set(b, OBB_STRIDE);
    interpolateObb(both, 0, both, 0, both, OBB_STRIDE, 0.3);
    expect(Array.from(both.subarray(0, OBB_STRIDE))).toEqual(Array.from(want));
    both.set(a, 0);
    interpolateObb(both, OBB_STRIDE, both, 0, both, OBB_STRIDE, 0.3);
    expect(Array.from(both.subarray(OBB_STRIDE))).toEqual(Array.from(want));
  });
});

describe('interpolationReach', () => {
  it('bounds how far interpolateObb strays from the bounds of both boxes, at any fraction', () => {
    // Every corner of the box at s lies within the reach of the min-max bounds of both boxes'
    // corners; the reach is also close to needed (within a factor of four of the worst stray seen).
    const corners = (box: ArrayLike<number>, out: number[][]) => {
      out.length = 0;
      for (let i = 0; i < 8; i++) {
        const p = [box[0], box[1], box[2]];
        for (let e = 0; e < 3; e++) {
          const sign = (i >> e) & 1 ? 1 : -1;
          for (let k = 0; k < 3; k++) p[k] += sign * box[12 + e] * box[3 + 3 * e + k];
        }
        out.push(p);
      }
      return out;
    };
    const at = new Float64Array(OBB_STRIDE);
    let worstRatio = 0;
    fc.assert(fc.property(fc.integer({ min: 0, max: 2 ** 31 - 1 }), fc.double({ min: 0, max: Math.PI, noNaN: true }), (seed, angle) => {
      const rand = mulberry32(seed);
      const { a, b } = boxPair(rand, unitAxis(rand), angle, 4);
      const reach = interpolationReach(a, 0, b, 0);
      const lo = [Infinity, Infinity, Infinity], hi = [-Infinity, -Infinity, -Infinity];
      for (const p of [...corners(a, []), ...corners(b, [])]) {
        for (let k = 0; k < 3; k++) {
          lo[k] = Math.min(lo[k], p[k]);
          hi[k] = Math.max(hi[k], p[k]);
        }
      }
      let stray = 0;
      for (let i = 0; i <= 64; i++) {
        interpolateObb(at, 0, a, 0, b, 0, i / 64);
        for (const p of corners(at, [])) {
          for (let k = 0; k < 3; k++) stray = Math.max(stray, lo[k] - p[k], p[k] - hi[k]);
        }
      }
      expect(stray).toBeLessThanOrEqual(reach * (1 + 1e-9) + 1e-12);
      if (stray > 0) worstRatio = Math.max(worstRatio, stray / reach);
    }), { numRuns: 300 });
    expect(worstRatio).toBeGreaterThan(0.25);
  });
});
