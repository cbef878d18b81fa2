/**
 * Mesh trees built on worker threads (buildMeshTree with a pool): the tree of 1 or 2 workers is
 * buildBoundingTree's, every array to the bit, over random meshes (clustered and degenerate
 * triangles, shared and unreferenced vertices, tiny to huge coordinates), every node kind, fit,
 * split rule and leaf sizes 1, 3 and 10, with the WebAssembly kernels on the threads or not; bad
 * input is refused with the same CollideInputError.
 */
import { createWorld } from 'bitecs';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { buildBoundingTree, type BoundingTree, type BoundingTreeOptions } from '../../src/tree/build';
import { CollideInputError } from '../../src/errors';
import type { CollisionPipeline } from '../../systems/collisionState';
import { createCollisionPipeline } from '../../systems/pipeline';
import { createWorkerPool } from '../../systems/parallel/workerPool';
import { buildMeshTree } from '../../systems/meshCollider';
import { setTreeBuildWasm } from '../../src/wasm/treeBuild';
import { mulberry32 } from '../../scenes/random';
import { torusKnot } from '../../scenes/torusKnot';
import { refusal } from '../support/refusal';
import { BAD_TREE_INPUTS } from '../support/badMeshes';

/** Pipelines with 1 and 2 workers, building every mesh on the pool. */
const pipelines: CollisionPipeline[] = [1, 2].map((workers) => {
  const p = createCollisionPipeline(createWorld(), { workers: createWorkerPool(workers) });
  p.parallel!.minTreeTriangles = 1;
  return p;
});
afterAll(() => {
  for (const p of pipelines) p.destroy();
});

const OPTIONS: BoundingTreeOptions[] = [
  ...(['covariance', 'hull', 'dito'] as const).map((fit) => ({ kind: 'obb' as const, fit })),
  { kind: 'aabb' as const },
  { kind: 'sphere' as const },
].flatMap((o) => (['mean', 'centroid', 'median'] as const).flatMap((split) => [1, 3, 10].map((maxLeafTriangles) => ({ ...o, split, maxLeafTriangles }))));

/** Every field of two trees, typed arrays element by element (Object.is: -0 and NaN count). */
function expectSameTree(a: BoundingTree, b: BoundingTree, what: string): void {
  expect(Object.keys(a), what).toEqual(Object.keys(b));
  for (const key of Object.keys(a) as (keyof BoundingTree)[]) {
    const x = a[key], y = b[key];
    if (!ArrayBuffer.isView(x)) {
      expect(Object.is(x, y), `${what} ${key}: ${String(x)} against ${String(y)}`).toBe(true);
      continue;
    }
    const xs = x as unknown as ArrayLike<number>, ys = y as unknown as ArrayLike<number>;
    expect(xs.length, `${what} ${key} length`).toBe(ys.length);
    for (let i = 0; i < xs.length; i++) if (!Object.is(xs[i], ys[i])) expect([key, i, xs[i]], what).toEqual([key, i, ys[i]]);
    expect(x.constructor, `${what} ${key} type`).toBe(y.constructor);
  }
}

/**
 * A random mesh: vertices in a few clusters (so splits are uneven and go deep on one side), at a
 * random scale and offset, with repeated corners, collinear slivers and unreferenced vertices.
 */
function randomMesh(seed: number): { positions: Float64Array; indices: Uint32Array } {
  const rand = mulberry32(seed);
  const vertexCount = 3 + Math.floor(rand() * 400);
  const scale = 10 ** (rand() * 12 - 6), offset = (rand() - 0.5) * 1e3 * scale;
  const clusters = 1 + Math.floor(rand() * 4);
  const centres = Array.from({ length: 3 * clusters }, () => (rand() - 0.5) * 20 * scale);
  const positions = new Float64Array(3 * vertexCount);
  for (let v = 0; v < vertexCount; v++) {
    const c = Math.floor(rand() * clusters);
    for (let k = 0; k < 3; k++) positions[3 * v + k] = offset + centres[3 * c + k] + (rand() - 0.5) * scale;
  }
  const triangleCount = 1 + Math.floor(rand() * 600);
  const indices = new Uint32Array(3 * triangleCount);
  for (let t = 0; t < triangleCount; t++) {
    const a = Math.floor(rand() * vertexCount), roll = rand();
    const b = roll < 0.05 ? a : Math.floor(rand() * vertexCount);
    const c = roll < 0.1 ? b : Math.floor(rand() * vertexCount);
    indices.set([a, b, c], 3 * t);
    // A collinear sliver: its third corner halfway along the first edge.
    if (roll > 0.95 && a !== b) {
      const m = Math.floor(rand() * vertexCount);
      for (let k = 0; k < 3; k++) positions[3 * m + k] = 0.5 * (positions[3 * a + k] + positions[3 * b + k]);
      indices[3 * t + 2] = m;
    }
  }
  return { positions, indices };
}

describe('mesh trees on worker threads', () => {
  it('are the single-thread tree to the bit, with 1 and 2 workers, for every kind, fit, split and leaf size', () => {
    // The reference is the JavaScript loops' tree; the workers grow their subtrees with the
    // WebAssembly kernels, the calling thread with or without them.
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 2 ** 30 }), fc.boolean(), (seed, callerWasm) => {
        const mesh = randomMesh(seed);
        try {
          for (const options of OPTIONS) {
            setTreeBuildWasm(false);
            const single = buildBoundingTree(mesh.positions, mesh.indices, options);
            setTreeBuildWasm(callerWasm);
            for (const p of pipelines) {
              const jobs = p.parallel!.jobsOnWorkers;
              expectSameTree(buildMeshTree(p, mesh.positions, mesh.indices, options), single, `seed ${seed}, ${p.parallel!.workers} workers, ${JSON.stringify(options)}`);
              expect(p.parallel!.jobsOnWorkers).toBe(jobs + 2);
            }
          }
        } finally {
          setTreeBuildWasm(true);
        }
      }),
      { numRuns: 12 },
    );
  });

  it('split large meshes between the threads from the default size, and build small ones on the calling thread', () => {
    const knot = torusKnot();
    const p = createCollisionPipeline(createWorld(), { workers: createWorkerPool(1) });
    try {
      const minimum = p.parallel!.minTreeTriangles;
      expect(knot.indices.length / 3).toBeGreaterThanOrEqual(minimum);
      for (const options of [{ kind: 'obb' }, { kind: 'aabb', maxLeafTriangles: 10 }, { kind: 'sphere', maxLeafTriangles: 3 }] as BoundingTreeOptions[]) {
        const jobs = p.parallel!.jobsOnWorkers;
        expectSameTree(buildMeshTree(p, knot.positions, knot.indices, options), buildBoundingTree(knot.positions, knot.indices, options), JSON.stringify(options));
        expect(p.parallel!.jobsOnWorkers).toBe(jobs + 2);
      }
      const small = knot.indices.subarray(0, 3 * (minimum - 1));
      const jobs = p.parallel!.jobsOnWorkers;
      expectSameTree(buildMeshTree(p, knot.positions, small), buildBoundingTree(knot.positions, small), 'small');
      expect(p.parallel!.jobsOnWorkers).toBe(jobs);
      // Without a pool, on the calling thread.
      const plain = createCollisionPipeline(createWorld());
      expectSameTree(buildMeshTree(plain, knot.positions, knot.indices), buildBoundingTree(knot.positions, knot.indices), 'no pool');
      plain.destroy();
    } finally {
      p.destroy();
    }
  });

  it('refuse bad meshes and options with the CollideInputError of buildBoundingTree', () => {
    const pos = new Float64Array([0, 0, 0, 1, 0, 0, 0, 1, 0]);
    const bad = BAD_TREE_INPUTS;
    for (const p of pipelines) {
      for (const [positions, indices, options] of bad) {
        const expected = refusal(() => buildBoundingTree(positions, indices, options));
        expect(expected).not.toBe('no error');
        expect(refusal(() => buildMeshTree(p, positions, indices, options))).toBe(expected);
      }
      // The pool still builds after a refusal.
      expectSameTree(buildMeshTree(p, pos, [0, 1, 2]), buildBoundingTree(pos, [0, 1, 2]), 'after refusals');
    }
    expect(() => buildMeshTree(createWorld(), pos, [0, 1, 2])).toThrow(CollideInputError);
  });
});
