/**
 * The tree builder's WebAssembly kernels (src/wasm/treeBuild.wat) against its JavaScript loops:
 * every array of every tree the same to the bit, over random and adversarial meshes and every
 * option; the fallback where WebAssembly cannot be used; and the assembled bytes up to date with
 * the text.
 */
import { spawnSync } from 'node:child_process';
import fc from 'fast-check';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { buildBoundingTree, type BoundingTree, type BoundingTreeOptions } from '../../src/tree/build';
import { CollideInputError } from '../../src/errors';
import { releaseTreeBuildArena, setTreeBuildWasm, treeBuildArena, treeBuildWasmAvailable } from '../../src/wasm/treeBuild';
import { TREE_BUILD_WASM } from '../../src/wasm/treeBuildBytes';
import { loadBunny } from '../../scenes/meshes';
import { packageRoot } from '../../scenes/packageRoot';
import { torusKnot } from '../../scenes/torusKnot';
import { BAD_TREE_INPUTS } from '../support/badMeshes';

type Mesh = { positions: ArrayLike<number>; indices: ArrayLike<number> };

/** The tree's arrays and numbers, each typed array as its bytes. */
function snapshot(tree: BoundingTree): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(tree)) {
    out[key] = ArrayBuffer.isView(value) ? Array.from(new Uint8Array(value.buffer, value.byteOffset, value.byteLength)) : Object.is(value, -0) ? '-0' : value;
  }
  return out;
}

function buildWith(wasm: boolean, mesh: Mesh, options: BoundingTreeOptions): BoundingTree {
  setTreeBuildWasm(wasm);
  try {
    return buildBoundingTree(mesh.positions, mesh.indices, options);
  } finally {
    setTreeBuildWasm(true);
  }
}

const optionsArb: fc.Arbitrary<BoundingTreeOptions> = fc.record({
  kind: fc.constantFrom('obb' as const, 'aabb' as const, 'sphere' as const),
  fit: fc.constantFrom('covariance' as const, 'hull' as const, 'dito' as const),
  split: fc.constantFrom('mean' as const, 'centroid' as const, 'median' as const),
  maxLeafTriangles: fc.integer({ min: 1, max: 12 }),
});

/** A lattice coordinate; -0 apart from 0, since the kernels' min and max must order them as the loops do. */
const latticeArb = fc.oneof(fc.integer({ min: -3, max: 3 }), fc.constant(-0));

/**
 * Meshes that stress the kernels' comparisons and sums: vertices on a coarse lattice (ties between
 * centroids and corners, zero-area and repeated triangles, ±0), some nudged off it, at scales
 * from 1e-6 to 1e6 and offsets up to 1e3, in Float32, Float64 or plain arrays.
 */
const meshArb: fc.Arbitrary<Mesh> = fc
  .record({
    vertices: fc.array(fc.tuple(latticeArb, latticeArb, latticeArb), { minLength: 1, maxLength: 40 }),
    triangles: fc.array(fc.tuple(fc.nat(), fc.nat(), fc.nat()), { minLength: 1, maxLength: 120 }),
    scale: fc.constantFrom(1e-6, 0.1, 1, 0.75, 1e6),
    offset: fc.constantFrom(0, 5.5, -1e3),
    jitter: fc.double({ min: 0, max: 0.49, noNaN: true }),
    storage: fc.constantFrom('f64', 'f32', 'plain'),
  })
  .map(({ vertices, triangles, scale, offset, jitter, storage }) => {
    // Adding 0 would turn -0 into 0: only nonzero nudges and offsets are added.
    const place = (c: number, nudged: boolean): number => {
      const v = (nudged && jitter > 0 ? c + jitter : c) * scale;
      return offset === 0 ? v : v + offset;
    };
    const coords = vertices.flatMap(([x, y, z], i) => [x, y, z].map((c, k) => place(c, i % 3 === k)));
    const indices = triangles.flatMap(([a, b, c]) => [a % vertices.length, b % vertices.length, c % vertices.length]);
    const positions = storage === 'f32' ? Float32Array.from(coords) : storage === 'f64' ? Float64Array.from(coords) : coords;
    return { positions, indices };
  });

describe('tree builds in WebAssembly', () => {
  afterEach(() => setTreeBuildWasm(true));

  it('loads on this platform', () => {
    expect(treeBuildWasmAvailable()).toBe(true);
  });

  it('builds the trees of the JavaScript loops, to the bit, on random meshes and options', () => {
    fc.assert(
      fc.property(meshArb, optionsArb, (mesh, options) => {
        expect(snapshot(buildWith(true, mesh, options))).toEqual(snapshot(buildWith(false, mesh, options)));
      }),
      { numRuns: 400 },
    );
  });

  it('builds the trees of the JavaScript loops on real meshes, every kind, split and leaf size', () => {
    const meshes: Mesh[] = [torusKnot({ tubularSegments: 60, radialSegments: 12 }), loadBunny()];
    for (const mesh of meshes) {
      // Sphere nodes' minimal spheres take most of a build's time and no kernel: the knot is enough.
      for (const kind of mesh === meshes[0] ? ['obb', 'aabb', 'sphere'] as const : ['obb', 'aabb'] as const) {
        for (const split of ['mean', 'centroid', 'median'] as const) {
          for (const maxLeafTriangles of mesh === meshes[0] ? [1, 10] : [10]) {
            const options: BoundingTreeOptions = { kind, split, maxLeafTriangles };
            expect(snapshot(buildWith(true, mesh, options))).toEqual(snapshot(buildWith(false, mesh, options)));
          }
        }
      }
    }
  });

  it('gives each tree arrays of its own, which later builds leave alone', () => {
    const knot = torusKnot({ tubularSegments: 40, radialSegments: 8 });
    for (const kind of ['obb', 'aabb'] as const) {
      const first = buildBoundingTree(knot.positions, knot.indices, { kind, maxLeafTriangles: 4 });
      const before = snapshot(first);
      buildBoundingTree(loadBunny().positions, loadBunny().indices, { kind, maxLeafTriangles: 4 });
      expect(snapshot(first)).toEqual(before);
    }
  });

  it('refuses bad meshes with the same errors as the JavaScript loops', () => {
    for (const [positions, indices, options] of BAD_TREE_INPUTS) {
      const messages = [true, false].map((wasm) => {
        setTreeBuildWasm(wasm);
        try {
          buildBoundingTree(positions, indices, options);
          return 'built';
        } catch (error) {
          expect(error).toBeInstanceOf(CollideInputError);
          return (error as Error).message;
        }
      });
      expect(messages[0]).not.toBe('built');
      expect(messages[0]).toBe(messages[1]);
    }
  });

  it('does not keep the memory of a large build', () => {
    const large = treeBuildArena(400_000, 'covariance')!;
    expect(large.ids.buffer.byteLength).toBeGreaterThan(64 << 20);
    releaseTreeBuildArena();
    const small = treeBuildArena(100, 'boxes')!;
    expect(small.ids.buffer.byteLength).toBeLessThan(1 << 20);
    releaseTreeBuildArena();
  });

  it('falls back to the JavaScript loops where WebAssembly cannot compile', async () => {
    const knot = torusKnot({ tubularSegments: 30, radialSegments: 6 });
    const expected = snapshot(buildBoundingTree(knot.positions, knot.indices, { kind: 'obb', maxLeafTriangles: 3 }));
    for (const stub of [undefined, { ...WebAssembly, Module: function refused() { throw new Error('compilation refused by the page'); } }]) {
      vi.resetModules();
      vi.stubGlobal('WebAssembly', stub);
      try {
        const fresh = await import('../../src/wasm/treeBuild');
        const build = await import('../../src/tree/build');
        expect(fresh.treeBuildWasmAvailable()).toBe(false);
        expect(snapshot(build.buildBoundingTree(knot.positions, knot.indices, { kind: 'obb', maxLeafTriangles: 3 }))).toEqual(expected);
      } finally {
        vi.unstubAllGlobals();
      }
    }
  });

  it('stays small enough for a browser to compile it on the main thread', () => {
    // Chromium refuses synchronous compilation of modules over 4 KB on the main thread; a larger
    // module would leave pages on the JavaScript loops (the debug page's browser test checks it loads).
    expect(atob(TREE_BUILD_WASM).length).toBeLessThanOrEqual(4096);
  });

  it('ships the bytes that src/wasm/treeBuild.wat assembles to', () => {
    const run = spawnSync(process.execPath, ['scripts/assembleWasm.mjs', '--check'], { cwd: packageRoot(import.meta.url), encoding: 'utf8' });
    expect(run.stderr).toBe('');
    expect(run.status).toBe(0);
  });
});
