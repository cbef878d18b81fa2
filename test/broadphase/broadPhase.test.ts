import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { acceptPair, assertBroadPhaseInput, type BroadPhase } from '../../src/broadphase/broadPhase';
import { createBruteForce } from '../../src/broadphase/bruteForce';
import { PairList } from '../../src/broadphase/pairList';
import { createDynamicAabbTree } from '../../src/broadphase/dynamicAabbTree';
import { createKdTree } from '../../src/broadphase/kdTree';
import { createOctree } from '../../src/broadphase/octree';
import { createSpatialHash, scanPart, type ColumnGrid, type ScanSplitter } from '../../src/broadphase/spatialHash';
import { createSweepAndPrune } from '../../src/broadphase/sweepAndPrune';
import { CollideInputError } from '../../src/errors';
import { partStart } from '../../systems/parallel/protocol';
import { PartSplit } from '../../systems/parallel/partSplit';
import { FLOAT32_ORDER_DIGITS, FLOAT32_ORDER_RADIX, float32OrderPass } from '../../src/broadphase/float32Order';
import { mergeGridCounts, mergeGridLevels, mergeSortedPairs, sortPairsAfter } from '../../src/broadphase/splitGrid';
import { radixCount, radixPlaces, radixScatter } from '../../src/broadphase/radixPass';
import { makeScene, referencePairs, stepDynamicOnly, stepScene, type Scene, type SceneParams } from '../../scenes/broadphase';
import { mulberry32 } from '../../scenes/random';

/** Every algorithm, with option variants that push them into their less common code paths. */
const ALGORITHMS: { name: string; create: () => BroadPhase }[] = [
  { name: 'bruteForce', create: () => createBruteForce() },
  { name: 'sweepAndPrune', create: () => createSweepAndPrune() },
  // Switches axis at any change of the best axis and always falls back to a full sort.
  { name: 'sweepAndPrune (eager)', create: () => createSweepAndPrune({ axisSwitchRatio: 1, insertionShiftsPerEndpoint: 0 }) },
  { name: 'spatialHash', create: () => createSpatialHash() },
  // Tiny cells and a low cap: most boxes span many cells and many go to the oversize list.
  { name: 'spatialHash (fine cells)', create: () => createSpatialHash({ cellSizeFactor: 0.3, maxCellsPerBox: 8 }) },
  { name: 'spatialHash (fixed cell)', create: () => createSpatialHash({ cellSize: 1.5 }) },
  { name: 'spatialHash (split in parts, as on threads)', create: () => splitSpatialHash(3) },
  { name: 'dynamicAabbTree', create: () => createDynamicAabbTree() },
  // No margin: every moved proxy is reinserted (maximal tree churn).
  { name: 'dynamicAabbTree (tight)', create: () => createDynamicAabbTree({ marginRatio: 0 }) },
  { name: 'dynamicAabbTree (loose)', create: () => createDynamicAabbTree({ marginRatio: 2, marginAbsolute: 3 }) },
  { name: 'kdTree', create: () => createKdTree() },
  { name: 'octree', create: () => createOctree() },
  // Splits down to single boxes: deep descents and long ancestor lists.
  { name: 'octree (deep)', create: () => createOctree({ leafSize: 1, maxDepth: 30 }) },
];

const sceneParams: fc.Arbitrary<SceneParams> = fc.record({
  seed: fc.integer(),
  count: fc.oneof(fc.integer({ min: 0, max: 4 }), fc.integer({ min: 5, max: 90 })),
  world: fc.constantFrom(4, 12, 40),
  staticRate: fc.constantFrom(0, 0.3, 1),
  layerMode: fc.constantFrom(0, 1, 2),
  offset: fc.constantFrom(0, -1e6, 1e6),
  scale: fc.constantFrom(1, 1e-3, 1e3),
  float32: fc.boolean(),
});

function pairsOf(list: PairList): number[] {
  return Array.from({ length: list.count }, (_, i) => list.a[i] * 2 ** 24 + list.b[i]);
}

function describeScene(scene: Scene, frame: number): string {
  return `seed ${scene.params.seed}, frame ${frame}, ${scene.count} proxies`;
}

/**
 * Runs `frames` frames of `scene`, checking the pairs against the reference at each, then
 * stepping it: `step(frame)` when given, else motion with churn (stepScene).
 */
function expectExactFrames(algorithm: BroadPhase, out: PairList, scene: Scene, frames: number, step?: (frame: number) => void): void {
  const removed: number[] = [];
  for (let f = 0; f < frames; f++) {
    algorithm.findPairs(scene, out);
    expect(pairsOf(out), describeScene(scene, f)).toEqual(referencePairs(scene));
    if (step) step(f);
    else stepScene(scene, removed);
  }
}

/**
 * A spatial hash whose classification, bucket fill and scans run in `parts` parts one after the
 * other, merged as the worker pool merges them: the partitioned kernels against the reference.
 * The parts' bounds are drawn anew each frame, uneven (a part may be empty), as the pool's
 * rebalancing moves them.
 */
function splitSpatialHash(parts: number): BroadPhase {
  const rand = mulberry32(7);
  const split = new PartSplit(parts), bounds = split.bounds;
  const range = (n: number, part: number): [number, number] => [partStart(n, bounds, part), partStart(n, bounds, part + 1)];
  const stride = 32, levelBoxes = new Int32Array(stride * parts), levelWidthX = new Float64Array(stride * parts);
  const counts = Array.from({ length: parts }, () => new Int32Array(0));
  const digitCounts = Array.from({ length: parts }, () => new Uint32Array(FLOAT32_ORDER_RADIX));
  const partPairs = new PairList(), merged = new PairList();
  const splitter: ScanSplitter = {
    splits: () => true,
    sort(grid: ColumnGrid, _input, tags) {
      split.scramble(rand);
      const order = grid.byLowerX;
      order.prepare(grid.count, tags);
      for (let pass = 0; pass < FLOAT32_ORDER_DIGITS.length; pass++) {
        const [shift, bits] = FLOAT32_ORDER_DIGITS[pass], arrays = float32OrderPass(order, pass);
        for (let part = 0; part < parts; part++) radixCount(arrays[0], shift, bits, ...range(grid.count, part), digitCounts[part]);
        radixPlaces(digitCounts, parts, bits);
        for (let part = 0; part < parts; part++) radixScatter(arrays[0], shift, bits, ...range(grid.count, part), digitCounts[part], arrays[0], arrays[1], arrays[2], arrays[3]);
      }
    },
    classify(grid: ColumnGrid, input, maxCells) {
      split.scramble(rand);
      levelBoxes.fill(0);
      levelWidthX.fill(0);
      let entries = 0;
      for (let part = 0; part < parts; part++) {
        const at = part * stride;
        entries += grid.classifyRange(input.boxes, maxCells, ...range(grid.count, part), levelBoxes.subarray(at, at + stride), levelWidthX.subarray(at, at + stride));
      }
      mergeGridLevels(grid, levelBoxes, levelWidthX, stride, parts);
      return entries;
    },
    fill(grid: ColumnGrid) {
      for (let part = 0; part < parts; part++) {
        counts[part] = new Int32Array(grid.slots + 1);
        grid.fillBuckets(0, counts[part], ...range(grid.count, part));
      }
      mergeGridCounts(grid, counts, parts);
      for (let part = 0; part < parts; part++) grid.fillBuckets(1, counts[part], ...range(grid.count, part));
    },
    scan(grid: ColumnGrid, input, out) {
      // Each part's pairs sorted apart and merged in, as the pool's threads leave them.
      let passed = 0;
      for (let part = 0; part < parts; part++) {
        partPairs.clear();
        passed += scanPart(grid, input, partPairs, part, bounds);
        partPairs.sort();
        mergeSortedPairs(out, merged, partPairs.a, partPairs.b, 0, partPairs.count);
      }
      return passed;
    },
    sortAfter(out, sorted) {
      sortPairsAfter(out, sorted, partPairs, merged);
    },
  };
  const hash = createSpatialHash();
  hash.splitScans(splitter);
  return hash;
}

describe.each(ALGORITHMS)('$name', ({ create }) => {
  it('finds exactly the reference pairs in random scenes (touching, zero-size, huge, duplicate, static, layered)', () => {
    const algorithm = create();
    const out = new PairList(2);
    fc.assert(
      fc.property(sceneParams, (params) => {
        const scene = makeScene(params);
        algorithm.clear();
        algorithm.findPairs(scene, out);
        expect(pairsOf(out), describeScene(scene, 0)).toEqual(referencePairs(scene));
      }),
      { numRuns: 300 },
    );
  });

  it('tracks multi-frame sequences with motion and churn, matching the reference at every frame', () => {
    fc.assert(
      fc.property(sceneParams, fc.integer({ min: 2, max: 12 }), (params, frames) => {
        const algorithm = create();
        const out = new PairList(2);
        expectExactFrames(algorithm, out, makeScene(params), frames);
      }),
      { numRuns: 120 },
    );
  });

  it('keeps exact pairs while only dynamic boxes move, and after each change of the statics (kept static structures)', () => {
    fc.assert(
      fc.property(fc.integer(), fc.constantFrom(0.3, 0.7), fc.constantFrom(4, 12), (seed, staticRate, world) => {
        const algorithm = create();
        const out = new PairList(2);
        const scene = makeScene({ seed, count: 80, world, staticRate, layerMode: 0, offset: 0, scale: 1, float32: false });
        expectExactFrames(algorithm, out, scene, 10, (f) => stepDynamicOnly(scene, f % 3 === 2));
      }),
      { numRuns: 60 },
    );
  });

  it('matches the reference on larger scenes over several frames (radix-sorted output, deep structures)', () => {
    const algorithm = create();
    const out = new PairList();
    for (const seed of [1, 2]) {
      const scene = makeScene({ seed, count: 700, world: 30, staticRate: 0.2, layerMode: 1, offset: 1e6, scale: 1, float32: seed === 2 });
      expectExactFrames(algorithm, out, scene, 4);
    }
  });

  it('starts over after clear() and after an empty frame', () => {
    const algorithm = create();
    const out = new PairList();
    const scene = makeScene({ seed: 7, count: 40, world: 10, staticRate: 0.2, layerMode: 0, offset: 0, scale: 1, float32: false });
    algorithm.findPairs(scene, out);
    const first = pairsOf(out);
    expect(first.length).toBeGreaterThan(0);
    algorithm.findPairs({ ...scene, count: 0 }, out);
    expect(out.count).toBe(0);
    algorithm.findPairs(scene, out);
    expect(pairsOf(out)).toEqual(first);
    algorithm.clear();
    algorithm.findPairs(scene, out);
    expect(pairsOf(out)).toEqual(first);
  });
});

/**
 * Property: the spatial hash (one instance across runs, so its adapted width carries over) finds
 * exactly the reference pairs of `fill`'s boxes, in Float32 or Float64 stores, for up to
 * `maxCount` boxes.
 */
function assertHashFindsPairs(maxCount: number, fill: (rand: () => number, boxes: Float32Array | Float64Array, n: number) => void): void {
  // The hash, and the hash split in parts as on threads.
  const hashes = [createSpatialHash(), splitSpatialHash(3)];
  const out = new PairList();
  fc.assert(
    fc.property(fc.integer(), fc.integer({ min: 2, max: maxCount }), fc.boolean(), (seed, n, float32) => {
      const boxes = float32 ? new Float32Array(6 * n) : new Float64Array(6 * n);
      fill(mulberry32(seed), boxes, n);
      const input = {
        ids: Int32Array.from({ length: n }, (_, i) => i), count: n, boxes,
        isStatic: new Uint8Array(n), layer: new Uint32Array(n).fill(1), mask: new Uint32Array(n).fill(1),
      };
      const expected = referencePairs(input);
      for (const hash of hashes) {
        hash.findPairs(input, out);
        expect(pairsOf(out)).toEqual(expected);
      }
    }),
    { numRuns: 200 },
  );
}

describe('spatialHash levels and columns', () => {
  it('finds the pairs of boxes whose sizes span five decades, touching across levels included', () => {
    assertHashFindsPairs(300, (rand, boxes, n) => {
      for (let i = 0; i < n; i++) {
        // Sizes log-uniform in [1/64, 1024] on a 1/64 grid, so faces touch exactly.
        const size = Math.round(64 * 2 ** (16 * rand() - 6)) / 64;
        for (let k = 0; k < 3; k++) {
          const lo = Math.round(64 * 200 * rand()) / 64;
          boxes[6 * i + k] = lo;
          boxes[6 * i + 3 + k] = lo + size * (0.5 + rand() / 2);
        }
        // Every third box set face to face against an earlier one, often of another size.
        if (i > 0 && i % 3 === 0) {
          const j = Math.floor(rand() * i), axis = Math.floor(rand() * 3);
          const width = boxes[6 * i + 3 + axis] - boxes[6 * i + axis];
          boxes[6 * i + axis] = boxes[6 * j + 3 + axis];
          boxes[6 * i + 3 + axis] = boxes[6 * i + axis] + width;
        }
      }
    });
  });

  it('finds the pairs of elongated boxes (aspect up to 1:2000 on any axis) mixed with small ones, touching end to end included', () => {
    assertHashFindsPairs(250, (rand, boxes, n) => {
      for (let i = 0; i < n; i++) {
        // Sides log-uniform in [1/32, 32] per axis (at least 1/64, on a 1/64 grid): rods, slabs and cubes of every size.
        for (let k = 0; k < 3; k++) {
          const side = Math.max(1, Math.round(64 * 2 ** (10 * rand() - 5))) / 64;
          const lo = Math.round(64 * 60 * rand()) / 64;
          boxes[6 * i + k] = lo;
          boxes[6 * i + 3 + k] = lo + side;
        }
        // Every other box continues an earlier one end to end along x, where column scans and
        // their cross-level windows decide alone.
        if (i > 0 && i % 2 === 0) {
          const j = Math.floor(rand() * i);
          const width = boxes[6 * i + 3] - boxes[6 * i];
          boxes[6 * i] = boxes[6 * j + 3];
          boxes[6 * i + 3] = boxes[6 * i] + width;
        }
      }
    });
  });

  it('stays exact frame after frame while its column width adapts, from a sparse scene into a dense one', () => {
    // A sparse and then a dense phase of one scene: the hill climb moves the width every frame,
    // so every frame runs at a different width, each checked against the reference.
    const hash = createSpatialHash();
    const out = new PairList();
    for (const world of [60, 12]) {
      const scene = makeScene({ seed: 11, count: 400, world, staticRate: 0, layerMode: 0, offset: 0, scale: 1, float32: false });
      expectExactFrames(hash, out, scene, 12);
    }
  });
});

describe('spatialHash statics', () => {
  /** 400 identical static boxes (all overlapping one another) at the origin, and 3 small dynamic boxes. */
  function pile() {
    const n = 403;
    const boxes = new Float64Array(6 * n);
    const isStatic = new Uint8Array(n);
    for (let i = 0; i < 400; i++) {
      boxes.set([0, 0, 0, 2, 2, 2], 6 * i);
      isStatic[i] = 1;
    }
    for (let i = 400; i < n; i++) boxes.set([10 + 3 * i, 10, 10, 11 + 3 * i, 11, 11], 6 * i);
    return {
      ids: Int32Array.from({ length: n }, (_, i) => i), count: n, boxes, isStatic,
      layer: new Uint32Array(n).fill(1), mask: new Uint32Array(n).fill(1),
    };
  }

  it('never tests statics against each other and rebuilds their grid only when they change', () => {
    const hash = createSpatialHash();
    const out = new PairList();
    const input = pile();
    hash.findPairs(input, out);
    expect(hash.statistics.staticRebuilt).toBe(true);
    expect(out.count).toBe(0);
    // The statics' 79,800 mutual overlaps are never visited: only the 3 dynamic boxes look.
    expect(hash.statistics.boxTests).toBeLessThan(50);
    // Dynamic motion and a new id order keep the static grid.
    input.boxes.set([-1, -1, -1, 0, 0, 0], 6 * 401);
    input.ids.reverse();
    hash.findPairs(input, out);
    expect(hash.statistics.staticRebuilt).toBe(false);
    expect(out.count).toBe(400);
    expect(hash.statistics.boxTests).toBeLessThan(450);
    expect(pairsOf(out)).toEqual(referencePairs(input));
    // One static moving off the pile is a change.
    input.boxes.set([5, 5, 5, 6, 6, 6], 6 * 7);
    hash.findPairs(input, out);
    expect(hash.statistics.staticRebuilt).toBe(true);
    expect(pairsOf(out)).toEqual(referencePairs(input));
    hash.findPairs(input, out);
    expect(hash.statistics.staticRebuilt).toBe(false);
  });
});

describe('acceptPair', () => {
  it('drops static-static pairs and applies layer/mask both ways', () => {
    const input = {
      ids: [0, 1, 2],
      count: 3,
      boxes: new Float64Array(18),
      isStatic: [1, 1, 0],
      layer: [1, 2, 0x80000000],
      mask: [0xffffffff, 0xffffffff, 1],
    };
    expect(acceptPair(input, 0, 1)).toBe(false); // both static
    expect(acceptPair(input, 0, 2)).toBe(true);
    expect(acceptPair(input, 1, 2)).toBe(false); // 2's mask lacks layer 2
    expect(acceptPair(input, 2, 0)).toBe(true);
  });
});

describe('assertBroadPhaseInput', () => {
  const base = () => ({
    ids: [0, 1],
    count: 2,
    boxes: new Float64Array([0, 0, 0, 1, 1, 1, 2, 2, 2, 3, 3, 3]),
    isStatic: [0, 0],
    layer: [1, 1],
    mask: [1, 1],
  });
  it('accepts valid input and names the fault otherwise', () => {
    expect(() => assertBroadPhaseInput(base())).not.toThrow();
    expect(() => assertBroadPhaseInput({ ...base(), ids: [0, 0] })).toThrow(/twice/);
    expect(() => assertBroadPhaseInput({ ...base(), ids: [0, 2 ** 24] })).toThrow(CollideInputError);
    expect(() => assertBroadPhaseInput({ ...base(), count: 3 })).toThrow(/count/);
    const nan = base();
    nan.boxes[4] = NaN;
    expect(() => assertBroadPhaseInput(nan)).toThrow(/non-finite/);
    const inverted = base();
    inverted.boxes[0] = 5;
    expect(() => assertBroadPhaseInput(inverted)).toThrow(/min > max/);
  });
});
