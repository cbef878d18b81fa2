import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { symmetricEigen3, symmetricEigen3Jacobi } from '../../src/fit/eigen3';
import { CollideInputError } from '../../src/errors';
import { mulberry32, quaternionToAxes, randomQuaternion } from '../../scenes/random';

/** Row-major 3x3 product R diag(l) Rᵀ for columns R. */
function compose(axes: ArrayLike<number>, l: ArrayLike<number>): number[] {
  const m = new Array(9).fill(0);
  for (let i = 0; i < 3; i++) {
    for (let j = 0; j < 3; j++) {
      let s = 0;
      for (let k = 0; k < 3; k++) s += axes[3 * k + i] * l[k] * axes[3 * k + j];
      m[3 * i + j] = s;
    }
  }
  return m;
}

const packed = (m: number[]) => [m[0], m[1], m[2], m[4], m[5], m[8]];
const frobenius = (m: number[]) => Math.hypot(...m);

/** Checks the decomposition of row-major symmetric m: reconstruction, orthonormality, det +1, order. */
function checkDecomposition(m: number[]): { values: Float64Array; vectors: Float64Array } {
  const values = new Float64Array(3);
  const vectors = new Float64Array(9);
  symmetricEigen3(values, vectors, packed(m));
  const back = compose(vectors, values);
  const norm = frobenius(m);
  const err = frobenius(back.map((x, i) => x - m[i]));
  expect(err).toBeLessThanOrEqual(1e-9 * norm);
  for (let i = 0; i < 3; i++) {
    for (let j = 0; j < 3; j++) {
      const d = vectors[3 * i] * vectors[3 * j] + vectors[3 * i + 1] * vectors[3 * j + 1] + vectors[3 * i + 2] * vectors[3 * j + 2];
      expect(Math.abs(d - (i === j ? 1 : 0))).toBeLessThanOrEqual(1e-12);
    }
  }
  const [a, b, c, d, e, f, g, h, k] = vectors;
  const det = a * (e * k - f * h) - d * (b * k - c * h) + g * (b * f - c * e);
  expect(Math.abs(det - 1)).toBeLessThanOrEqual(1e-12);
  expect(values[0]).toBeGreaterThanOrEqual(values[1]);
  expect(values[1]).toBeGreaterThanOrEqual(values[2]);
  // The full 9-entry form gives the same eigenvalues.
  const values9 = new Float64Array(3);
  symmetricEigen3(values9, new Float64Array(9), m);
  for (let i = 0; i < 3; i++) expect(Math.abs(values9[i] - values[i])).toBeLessThanOrEqual(1e-12 * norm);
  return { values, vectors };
}

// Subnormal inputs cannot be reconstructed to 1e-9 relative (their own spacing is coarser), so
// values below 1e-300 in magnitude are flushed to zero; the tiny-scale case is tested separately.
const entry = (max: number) => fc.double({ min: -max, max, noNaN: true }).map((x) => (Math.abs(x) < 1e-300 ? 0 : x));
const spectrum = fc.tuple(entry(10), entry(10), entry(10));

describe('symmetricEigen3', () => {
  it('reconstructs random symmetric matrices with a right-handed orthonormal frame', () => {
    fc.assert(
      fc.property(fc.array(entry(1e3), { minLength: 6, maxLength: 6 }), (e) => {
        checkDecomposition([e[0], e[1], e[2], e[1], e[3], e[4], e[2], e[4], e[5]]);
      }),
      { numRuns: 500 },
    );
  });

  it('recovers a known spectrum in a random frame, including repeated and zero eigenvalues', () => {
    fc.assert(
      fc.property(spectrum, fc.integer(), fc.constantFrom('free', 'double', 'triple', 'rank1', 'rank2'), (l, seed, kind) => {
        const lam = [...l];
        if (kind === 'double') lam[1] = lam[0];
        if (kind === 'triple') lam[1] = lam[2] = lam[0];
        if (kind === 'rank1') lam[1] = lam[2] = 0;
        if (kind === 'rank2') lam[2] = 0;
        const axes = quaternionToAxes(randomQuaternion(mulberry32(seed)));
        const m = compose(axes, lam);
        const { values } = checkDecomposition(m);
        const sorted = [...lam].sort((x, y) => y - x);
        const scale = Math.max(1, ...lam.map(Math.abs));
        for (let i = 0; i < 3; i++) expect(Math.abs(values[i] - sorted[i])).toBeLessThanOrEqual(1e-12 * scale);
      }),
      { numRuns: 500 },
    );
  });

  it('matches the eigenvector of a well-separated eigenvalue up to sign', () => {
    const rand = mulberry32(11);
    for (let trial = 0; trial < 200; trial++) {
      const axes = quaternionToAxes(randomQuaternion(rand));
      const m = compose(axes, [5, 2, -1]);
      const { vectors } = checkDecomposition(m);
      for (let k = 0; k < 3; k++) {
        const d = vectors[3 * k] * axes[3 * k] + vectors[3 * k + 1] * axes[3 * k + 1] + vectors[3 * k + 2] * axes[3 * k + 2];
        expect(Math.abs(Math.abs(d) - 1)).toBeLessThanOrEqual(1e-12);
      }
    }
  });

  it('stays accurate at huge and tiny scales', () => {
    const rand = mulberry32(3);
    for (const scale of [1e12, 1e100, 1e-12, 1e-150]) {
      for (let trial = 0; trial < 100; trial++) {
        const axes = quaternionToAxes(randomQuaternion(rand));
        const lam = [rand() * scale, rand() * scale, trial % 3 === 0 ? 0 : rand() * scale];
        const { values } = checkDecomposition(compose(axes, lam));
        const sorted = [...lam].sort((x, y) => y - x);
        for (let i = 0; i < 3; i++) expect(Math.abs(values[i] - sorted[i])).toBeLessThanOrEqual(1e-12 * scale);
      }
    }
  });

  it('returns the identity frame for the zero matrix and a right-handed frame for diagonal ones', () => {
    const values = new Float64Array(3);
    const vectors = new Float64Array(9);
    symmetricEigen3(values, vectors, [0, 0, 0, 0, 0, 0]);
    expect([...values]).toEqual([0, 0, 0]);
    expect([...vectors]).toEqual([1, 0, 0, 0, 1, 0, 0, 0, 1]);
    // Diagonal with ascending entries: the sort permutes the frame; it must stay right-handed.
    checkDecomposition([1, 0, 0, 0, 2, 0, 0, 0, 3]);
    checkDecomposition([3, 0, 0, 0, 1, 0, 0, 0, 2]);
    checkDecomposition([1, 0, 0, 0, 1, 0, 0, 0, 1]);
    // Subnormal entries still give a finite orthonormal frame and the right eigenvalues.
    symmetricEigen3(values, vectors, [0, 0, -5e-324, 0, 0, 0]);
    expect([...values]).toEqual([5e-324, 0, -5e-324]);
    const [a, b, c, d, e, f, g, h, k] = vectors;
    expect(a * (e * k - f * h) - d * (b * k - c * h) + g * (b * f - c * e)).toBeCloseTo(1, 12);
  });

  it('rejects malformed and non-finite matrices', () => {
    const values = new Float64Array(3);
    const vectors = new Float64Array(9);
    expect(() => symmetricEigen3(values, vectors, [1, 2, 3])).toThrow(CollideInputError);
    expect(() => symmetricEigen3(values, vectors, [1, 0, 0, NaN, 0, 1])).toThrow(CollideInputError);
    expect(() => symmetricEigen3(values, vectors, [Infinity, 0, 0, 1, 0, 1])).toThrow(CollideInputError);
  });
});

/** max over columns of ‖A·u − λ·u‖ for row-major symmetric m. */
function residual(m: number[], values: ArrayLike<number>, vectors: ArrayLike<number>): number {
  let worst = 0;
  for (let k = 0; k < 3; k++) {
    let r2 = 0;
    for (let i = 0; i < 3; i++) {
      let s = -values[k] * vectors[3 * k + i];
      for (let j = 0; j < 3; j++) s += m[3 * i + j] * vectors[3 * k + j];
      r2 += s * s;
    }
    worst = Math.max(worst, Math.sqrt(r2));
  }
  return worst;
}

describe('symmetricEigen3 closed form against Jacobi', () => {
  /** Solves m both ways; checks both frames and that they agree on values and on separated vectors. */
  function compare(m: number[]): void {
    const { values, vectors } = checkDecomposition(m);
    const refValues = new Float64Array(3);
    const refVectors = new Float64Array(9);
    symmetricEigen3Jacobi(refValues, refVectors, packed(m));
    const norm = Math.max(...m.map(Math.abs));
    expect(residual(m, values, vectors)).toBeLessThanOrEqual(1e-12 * norm);
    expect(residual(m, refValues, refVectors)).toBeLessThanOrEqual(1e-12 * norm);
    for (let i = 0; i < 3; i++) expect(Math.abs(values[i] - refValues[i])).toBeLessThanOrEqual(1e-13 * norm);
    // An eigenvalue at least 1e-6 of the norm from the others has a unique axis: both agree on it.
    for (let k = 0; k < 3; k++) {
      const gap = Math.min(...[0, 1, 2].filter((j) => j !== k).map((j) => Math.abs(refValues[k] - refValues[j])));
      if (!(gap > 1e-6 * norm)) continue;
      let d = 0;
      for (let i = 0; i < 3; i++) d += vectors[3 * k + i] * refVectors[3 * k + i];
      expect(1 - Math.abs(d)).toBeLessThanOrEqual(1e-12);
    }
  }

  it('agrees on random symmetric matrices', () => {
    fc.assert(
      fc.property(fc.array(entry(1e3), { minLength: 6, maxLength: 6 }), (e) => {
        compare([e[0], e[1], e[2], e[1], e[3], e[4], e[2], e[4], e[5]]);
      }),
      { numRuns: 1000 },
    );
  });

  it('agrees as two eigenvalues merge, across the closed form\'s gap threshold', () => {
    const rand = mulberry32(5);
    for (const gap of [0.5, 1e-2, 2e-3, 1.001e-3, 0.999e-3, 1e-4, 1e-6, 1e-9, 1e-13, 0]) {
      for (let trial = 0; trial < 100; trial++) {
        const axes = quaternionToAxes(randomQuaternion(rand));
        const base = 2 * rand() - 1;
        const far = base + (trial % 2 ? 1 : -1) * (0.5 + rand());
        // The merging pair at either end of the spectrum, and around zero.
        const pair = trial % 3 === 0 ? 0 : base;
        compare(compose(axes, [pair, pair + gap, far]));
      }
    }
  });

  it('agrees on diagonal, rank-1, zero, multiple-of-identity and extreme-scale matrices', () => {
    const rand = mulberry32(9);
    compare([0, 0, 0, 0, 0, 0, 0, 0, 0]);
    compare([2, 0, 0, 0, 2, 0, 0, 0, 2]);
    compare([3, 0, 0, 0, -1, 0, 0, 0, 2]);
    compare([1e-300, 0, 0, 0, 1, 0, 0, 0, 1e300]);
    for (let trial = 0; trial < 200; trial++) {
      const axes = quaternionToAxes(randomQuaternion(rand));
      const scale = [1e-150, 1e-12, 1, 1e12, 1e150][trial % 5];
      const u = [axes[0], axes[1], axes[2]];
      // Rank 1: u uᵀ scaled.
      compare(u.flatMap((x) => u.map((y) => scale * x * y)));
      compare(compose(axes, [scale * (rand() - 0.5), scale * (rand() - 0.5), scale * (rand() - 0.5)]));
    }
  });
});

