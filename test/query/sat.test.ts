import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { OBB_STRIDE } from '../../src/layout';
import { SAT_AXIS_SLACK, SAT_FALSE_OVERLAP_BAND } from '../../src/tolerances';
import {
  obbAabbOverlap,
  obbBoundingSpheresOverlap,
  obbOverlap,
  obbOverlapLite,
  obbOverlapWithSpherePrecheck,
  obbSeparatingAxis,
  obbSeparatingAxisCached,
  obbSphereOverlap,
} from '../../src/query/sat';
import { OBB_PAIR_KINDS, generateObbPairs, type ObbPairKind, type ObbPairs } from '../../scenes/obbPairs';
import { mulberry32, quaternionToAxes, randomQuaternion } from '../../scenes/random';
import {
  edgeReferenceOverlap,
  obbOfAabb,
  referenceAxisGap,
  referenceBand,
  referenceAxisSine,
  referencePointBoxDistance,
  referenceSeparation,
  sampleBoxPoints,
} from '../../scenes/satReference';

/**
 * Below this sine between two edges, Float32 rounding of the axes (about 1e-7) turns their cross
 * product by more than 1e-5 rad, so "this edge axis separates" is not a property of the boxes.
 */
const CACHED_AXIS_MIN_SINE = 1e-2;

interface Tally {
  pairs: number;
  /** Pairs outside the ambiguity band, where sat.ts is compared with the references. */
  compared: number;
  overlapping: number;
  failures: string[];
}

function fail(t: Tally, message: string): void {
  if (t.failures.length < 10) t.failures.push(message);
}

/**
 * Every check of the box-box tests on one pair (A at `a[ao]`, B at `b[bo]`); `expected` is the
 * answer known by construction or -1.
 */
function checkPair(t: Tally, a: ArrayLike<number>, ao: number, b: ArrayLike<number>, bo: number, expected: number, label: string): void {
  t.pairs++;
  const axis = obbSeparatingAxis(a, ao, b, bo);
  const { gap } = referenceSeparation(a, ao, b, bo);
  const band = referenceBand(a, ao, b, bo);
  let size = 0;
  for (let k = 12; k < 15; k++) size += a[ao + k] + b[bo + k];
  if (axis < 0) t.overlapping++;
  if (Math.abs(gap) > band) {
    t.compared++;
    if ((axis < 0) !== (gap < 0)) fail(t, `${label}: SAT axis ${axis}, reference gap ${gap} (band ${band})`);
    // The reference itself, checked by the edge principle.
    if (edgeReferenceOverlap(a, ao, b, bo) !== gap < 0) fail(t, `${label}: edge reference disagrees with gap ${gap}`);
    if ((obbSeparatingAxis(b, bo, a, ao) < 0) !== (gap < 0)) fail(t, `${label}: answer changes when A and B swap`);
  }
  if (expected === 1 && axis >= 0) fail(t, `${label}: touching/penetrating by construction, SAT axis ${axis}`);
  if (expected === 0 && axis < 0) fail(t, `${label}: apart by construction, SAT says overlap`);
  if (axis >= 0) {
    const g = referenceAxisGap(a, ao, b, bo, axis);
    if (!(g > -band)) fail(t, `${label}: returned axis ${axis} does not separate (gap ${g}, band ${band})`);
  }
  if (obbOverlap(a, ao, b, bo) !== axis < 0) fail(t, `${label}: obbOverlap differs from obbSeparatingAxis`);
  if (!obbOverlapLite(a, ao, b, bo)) {
    if (axis < 0 || gap < -band) fail(t, `${label}: SAT-lite says separated, SAT axis ${axis}, gap ${gap}`);
  }
  for (let last = -1; last < 15; last++) {
    const cached = obbSeparatingAxisCached(a, ao, b, bo, last);
    if ((cached < 0) !== (axis < 0)) fail(t, `${label}: cached(${last}) = ${cached}, full = ${axis}`);
    if (cached >= 0 && cached !== last && cached !== axis) fail(t, `${label}: cached(${last}) = ${cached}, full = ${axis}`);
    // An axis separates for sat.ts once its gap beats the slack, a fixed fraction of the size
    // along every axis. Which direction an edge cross of nearly parallel edges has is decided by
    // rounding of the stored axes (sat.ts and the reference build it differently), so only the
    // overall answer is compared for those.
    if (last >= 0 && cached !== last && referenceAxisSine(a, ao, b, bo, last) > CACHED_AXIS_MIN_SINE &&
      referenceAxisGap(a, ao, b, bo, last) > band + SAT_FALSE_OVERLAP_BAND * size) {
      fail(t, `${label}: cached axis ${last} still separates but ${cached} was returned`);
    }
  }
  if (!obbBoundingSpheresOverlap(a, ao, b, bo) && !(gap > -band)) fail(t, `${label}: sphere pre-check rejects an overlapping pair`);
  if (Math.abs(gap) > band && obbOverlapWithSpherePrecheck(a, ao, b, bo) !== axis < 0) {
    fail(t, `${label}: pre-checked answer differs from obbOverlap`);
  }
}

function checkPairs(pairs: ObbPairs, label: string): Tally {
  const t: Tally = { pairs: 0, compared: 0, overlapping: 0, failures: [] };
  for (let p = 0; p < pairs.count; p++) {
    checkPair(t, pairs.a, p * OBB_STRIDE, pairs.b, p * OBB_STRIDE, pairs.expected[p], `${label} #${p}`);
  }
  return t;
}

describe('obbSeparatingAxis and friends against the corner-projection reference', () => {
  it('random pairs (40,000, about a third overlapping)', () => {
    const t = checkPairs(generateObbPairs('random', 40_000, 1), 'random');
    expect(t.failures).toEqual([]);
    expect(t.overlapping / t.pairs).toBeGreaterThan(0.28);
    expect(t.overlapping / t.pairs).toBeLessThan(0.4);
    expect(t.compared / t.pairs).toBeGreaterThan(0.999);
  });

  for (const kind of OBB_PAIR_KINDS.filter((k) => k !== 'random')) {
    it(`adversarial: ${kind} (8,000 pairs)`, () => {
      const pairs = generateObbPairs(kind, 8_000, 7);
      const t = checkPairs(pairs, kind);
      expect(t.failures).toEqual([]);
      // Each family must exercise both answers, and the construction-known cases must be there.
      expect(t.overlapping).toBeGreaterThan(t.pairs * 0.1);
      expect(t.overlapping).toBeLessThan(t.pairs * 0.95);
      if (kind === 'touchingFaces' || kind === 'edgeEdge') {
        expect(pairs.expected.filter((e) => e === 1).length).toBeGreaterThan(t.pairs * 0.3);
        expect(pairs.expected.filter((e) => e === 0).length).toBeGreaterThan(t.pairs * 0.1);
      } else {
        expect(t.compared / t.pairs).toBeGreaterThan(0.99);
      }
    });
  }

  it('property: any kind, any seed, boxes read from a store at offsets', () => {
    fc.assert(
      fc.property(fc.constantFrom(...OBB_PAIR_KINDS), fc.integer({ min: 0, max: 2 ** 31 - 1 }), fc.integer({ min: 0, max: 5 }), (kind, seed, shift) => {
        const pairs = generateObbPairs(kind, 150, seed);
        // One store holding both boxes of every pair, B before A, with a leading shift.
        const store = new Float64Array(shift + 2 * OBB_STRIDE * pairs.count);
        const t: Tally = { pairs: 0, compared: 0, overlapping: 0, failures: [] };
        for (let p = 0; p < pairs.count; p++) {
          const ob = shift + 2 * OBB_STRIDE * p, oa = ob + OBB_STRIDE;
          store.set(pairs.a.subarray(p * OBB_STRIDE, (p + 1) * OBB_STRIDE), oa);
          store.set(pairs.b.subarray(p * OBB_STRIDE, (p + 1) * OBB_STRIDE), ob);
          checkPair(t, store, oa, store, ob, pairs.expected[p], `${kind}/${seed} #${p}`);
        }
        expect(t.failures).toEqual([]);
      }),
      { numRuns: 30, seed: 11 },
    );
  });

  it('property: a common rigid motion of both boxes keeps every answer outside the band', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 2 ** 31 - 1 }), (seed) => {
        const rand = mulberry32(seed);
        const pairs = generateObbPairs('random', 150, seed);
        const m = quaternionToAxes(randomQuaternion(rand));
        const shift = [0, 1, 2].map(() => (rand() - 0.5) * 200);
        const move = (src: Float64Array, o: number): Float64Array => {
          const out = new Float64Array(OBB_STRIDE);
          for (let v = 0; v < 4; v++) {
            const x = src[o + 3 * v], y = src[o + 3 * v + 1], z = src[o + 3 * v + 2];
            for (let c = 0; c < 3; c++) out[3 * v + c] = m[c] * x + m[3 + c] * y + m[6 + c] * z + (v === 0 ? shift[c] : 0);
          }
          out.set(src.subarray(o + 12, o + 15), 12);
          return out;
        };
        const t: Tally = { pairs: 0, compared: 0, overlapping: 0, failures: [] };
        for (let p = 0; p < pairs.count; p++) {
          const o = p * OBB_STRIDE;
          const a = move(pairs.a, o), b = move(pairs.b, o);
          const { gap } = referenceSeparation(pairs.a, o, pairs.b, o);
          if (Math.abs(gap) > referenceBand(a, 0, b, 0) && obbOverlap(a, 0, b, 0) !== obbOverlap(pairs.a, o, pairs.b, o)) {
            fail(t, `#${p}: motion changed the answer (gap ${gap})`);
          }
          checkPair(t, a, 0, b, 0, pairs.expected[p], `moved ${seed} #${p}`);
        }
        expect(t.failures).toEqual([]);
      }),
      { numRuns: 25, seed: 12 },
    );
  });

  it('Float32 stores: rounded axes stay within the parallel-edge slack', () => {
    const pairs = generateObbPairs('parallelEdges', 4000, 5);
    const t = checkPairs({ ...pairs, a: Float64Array.from(new Float32Array(pairs.a)), b: Float64Array.from(new Float32Array(pairs.b)) }, 'f64 of f32');
    expect(t.failures).toEqual([]);
    const a32 = new Float32Array(pairs.a), b32 = new Float32Array(pairs.b);
    let same = 0;
    for (let p = 0; p < pairs.count; p++) {
      const o = p * OBB_STRIDE;
      if (obbSeparatingAxis(a32, o, b32, o) === obbSeparatingAxis(Float64Array.from(a32.subarray(o, o + 15)), 0, Float64Array.from(b32.subarray(o, o + 15)), 0)) same++;
    }
    expect(same).toBe(pairs.count);
  });

  it('exact touching and parallel cases by hand', () => {
    const box = (c: number[], axes: number[], h: number[]) => Float64Array.from([...c, ...axes, ...h]);
    const I = [1, 0, 0, 0, 1, 0, 0, 0, 1];
    const a = box([0, 0, 0], I, [1, 1, 1]);
    expect(obbSeparatingAxis(a, 0, box([2, 0, 0], I, [1, 1, 1]), 0)).toBe(-1); // face to face
    expect(obbSeparatingAxis(a, 0, box([2, 2, 2], I, [1, 1, 1]), 0)).toBe(-1); // corner to corner
    expect(obbSeparatingAxis(a, 0, box([2 + 1e-3, 0, 0], I, [1, 1, 1]), 0)).toBe(0);
    expect(obbSeparatingAxis(a, 0, box([0, -2.5, 0], I, [1, 1, 1]), 0)).toBe(1);
    // Only an edge-cross axis separates: two cubes turned 45° about different axes, edges
    // crossing at right angles with a gap along A2 × B0 ... found after all 6 faces.
    const s = Math.SQRT1_2;
    const turnedZ = [s, s, 0, -s, s, 0, 0, 0, 1];
    const turnedX = [1, 0, 0, 0, s, s, 0, -s, s];
    const e = box([0, 0, 0], turnedZ, [1, 1, 1]);
    const apart = box([0, 2 * Math.SQRT2 + 0.01, 0], turnedX, [1, 1, 1]);
    const sep = obbSeparatingAxis(e, 0, apart, 0);
    expect(sep).toBeGreaterThanOrEqual(6);
    expect(referenceAxisGap(e, 0, apart, 0, sep)).toBeGreaterThan(0);
    expect(obbOverlapLite(e, 0, apart, 0)).toBe(true); // SAT-lite misses it, conservatively
    expect(obbSeparatingAxis(e, 0, box([0, 2 * Math.SQRT2 - 0.01, 0], turnedX, [1, 1, 1]), 0)).toBe(-1);
    // Flat boxes: two unit squares in the same plane sharing an edge, and a point box on a face.
    expect(obbOverlap(box([0, 0, 0], I, [1, 1, 0]), 0, box([2, 0, 0], I, [1, 1, 0]), 0)).toBe(true);
    expect(obbOverlap(a, 0, box([1, 0.5, 0.5], I, [0, 0, 0]), 0)).toBe(true);
    expect(obbOverlap(a, 0, box([1.01, 0.5, 0.5], I, [0, 0, 0]), 0)).toBe(false);
    expect(SAT_AXIS_SLACK).toBeLessThan(1e-5);
  });
});

describe('obbSphereOverlap', () => {
  it('matches the clamped-distance reference outside the band, and sampled box points (20,000 cases)', () => {
    const rand = mulberry32(3);
    const pairs = generateObbPairs('random', 10_000, 3);
    const flat = generateObbPairs('flat', 10_000, 4);
    const failures: string[] = [];
    let hits = 0, compared = 0;
    const sphere = new Float64Array(4);
    for (const set of [pairs, flat]) {
      for (let p = 0; p < set.count; p++) {
        const box = set.a, o = p * OBB_STRIDE;
        const size = box[o + 12] + box[o + 13] + box[o + 14];
        for (let c = 0; c < 3; c++) sphere[c] = set.b[o + c];
        sphere[3] = (0.1 + rand()) * 1.2;
        const got = obbSphereOverlap(box, o, sphere, 0);
        if (got) hits++;
        const d = referencePointBoxDistance(box, o, sphere);
        const band = 1e-9 * (size + sphere[3]);
        if (Math.abs(d - sphere[3]) > band) {
          compared++;
          if (got !== d < sphere[3]) failures.push(`#${p}: got ${got}, distance ${d}, radius ${sphere[3]}`);
        }
        // Sampling: a box point inside the sphere proves overlap; the clamped distance is a minimum.
        if (p % 4 === 0) {
          const pts = sampleBoxPoints(box, o, 5);
          let nearest = Infinity;
          for (let i = 0; i < pts.length; i += 3) {
            nearest = Math.min(nearest, Math.hypot(pts[i] - sphere[0], pts[i + 1] - sphere[1], pts[i + 2] - sphere[2]));
          }
          if (nearest < sphere[3] - band && !got) failures.push(`#${p}: sampled point inside, test says apart`);
          if (nearest < d - band) failures.push(`#${p}: sampled point nearer (${nearest}) than clamped distance ${d}`);
        }
      }
    }
    expect(failures.slice(0, 10)).toEqual([]);
    expect(compared).toBeGreaterThan(19_900);
    expect(hits).toBeGreaterThan(3000);
    expect(hits).toBeLessThan(17_000);
  });
});

describe('obbAabbOverlap', () => {
  it('matches the corner reference and the OBB test on the identity box (20,000 cases)', () => {
    const rand = mulberry32(9);
    const failures: string[] = [];
    let hits = 0, compared = 0;
    const kinds: ObbPairKind[] = ['random', 'hugeCoordinates', 'thin', 'flat'];
    const aabb = new Float64Array(8);
    for (const kind of kinds) {
      const pairs = generateObbPairs(kind, 5000, 21);
      for (let p = 0; p < pairs.count; p++) {
        const o = p * OBB_STRIDE;
        // AABB around B's centre with B's half-extents, stored at offset 2; sometimes flat.
        for (let k = 0; k < 3; k++) {
          const h = rand() < 0.05 ? 0 : pairs.b[o + 12 + k];
          aabb[2 + k] = pairs.b[o + k] - h;
          aabb[5 + k] = pairs.b[o + k] + h;
        }
        const got = obbAabbOverlap(pairs.a, o, aabb, 2);
        if (got) hits++;
        const asObb = obbOfAabb(aabb, 2);
        if (got !== obbOverlap(pairs.a, o, asObb, 0)) failures.push(`${kind} #${p}: differs from obbOverlap on the identity box`);
        const { gap } = referenceSeparation(pairs.a, o, asObb, 0);
        if (Math.abs(gap) > referenceBand(pairs.a, o, asObb, 0)) {
          compared++;
          if (got !== gap < 0) failures.push(`${kind} #${p}: got ${got}, reference gap ${gap}`);
        }
      }
    }
    expect(failures.slice(0, 10)).toEqual([]);
    expect(compared).toBeGreaterThan(19_900);
    expect(hits).toBeGreaterThan(4000);
    expect(hits).toBeLessThan(16_000);
  });
});
