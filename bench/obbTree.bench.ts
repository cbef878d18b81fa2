/**
 * Mesh trees: two 10,000-triangle torus knots in five pose classes (far apart; bounding boxes
 * overlapping without touching; grazing; half overlap; nearly coincident). For OBB, AABB and sphere
 * trees: volume tests Nv, triangle tests Np and time, to first hit and to all pairs; and
 * three-mesh-bvh's `bvhcast` (its default MeshBVH build, triangle test ExtendedTriangle.
 * intersectsTriangle) on the same poses in the same interleaved run, plus build times. Trees are
 * built with one triangle per leaf, and the OBB tree also with up to 10 (three-mesh-bvh's default
 * leaf size), so queries and builds compare at both. The build table names the targets for the
 * AABB and OBB trees with up to 10 triangles per leaf: no slower than three-mesh-bvh for AABB,
 * within 2x of it for OBB; the same trees are also built on a pipeline's worker pool
 * (buildMeshTree, one worker: two threads), interleaved with the others.
 */
import { BufferAttribute, BufferGeometry, Matrix4, Quaternion, Vector3 } from 'three';
import { MeshBVH } from 'three-mesh-bvh';
import { createWorld } from 'bitecs';
import { buildBoundingTree, type BoundingNodeKind, type BoundingTree } from '../src/tree/build';
import { POSE_STRIDE, poseFromTranslationQuaternion } from '../src/tree/pose';
import { TreeQueryResult } from '../src/tree/queryResult';
import { collideTrees } from '../src/tree/collideTrees';
import { torusKnot } from '../scenes/torusKnot';
import { createCollisionPipeline } from '../systems/pipeline';
import { createWorkerPool } from '../systems/parallel/workerPool';
import { buildMeshTree } from '../systems/meshCollider';
import { setTreeBuildWasm } from '../src/wasm/treeBuild';
import { markdownTable, runInterleaved, type BenchCase } from './harness';
import type { BenchReport } from './harness';

const KINDS: BoundingNodeKind[] = ['obb', 'aabb', 'sphere'];
/** three-mesh-bvh's default maxLeafSize. */
const BVH_LEAF = 10;

/** A tree configuration: node kind and leaf size. */
interface TreeConfig {
  name: string;
  kind: BoundingNodeKind;
  leaf: number;
}

const QUERY_TREES: TreeConfig[] = [
  ...KINDS.map((kind) => ({ name: kind, kind, leaf: 1 })),
  { name: `obb ≤${BVH_LEAF}`, kind: 'obb', leaf: BVH_LEAF },
];
/** The OBB trees compared with three-mesh-bvh query by query. */
const PEER_TREES = QUERY_TREES.filter((c) => c.kind === 'obb');
const BUILD_TREES: TreeConfig[] = [1, BVH_LEAF].flatMap((leaf) => KINDS.map((kind) => ({ name: leaf === 1 ? kind : `${kind} ≤${leaf}`, kind, leaf })));
/** The builds of the targets also run on the JavaScript loops alone, to show what the WebAssembly kernels give. */
const SCRIPT_TREES: TreeConfig[] = (['aabb', 'obb'] as const).map((kind) => ({ name: `${kind} ≤${BVH_LEAF} JavaScript`, kind, leaf: BVH_LEAF }));
/** The builds also run on a worker pool: the leaf size of the targets. */
const POOLED_TREES: TreeConfig[] = KINDS.map((kind) => ({ name: `${kind} ≤${BVH_LEAF} pooled`, kind, leaf: BVH_LEAF }));
/** Build speed targets against three-mesh-bvh at its leaf size (speed ratio: its time over ours), on one thread and on the pool. */
const BUILD_TARGETS: Record<string, number> = {
  [`aabb ≤${BVH_LEAF}`]: 1.0, [`obb ≤${BVH_LEAF}`]: 0.5, [`aabb ≤${BVH_LEAF} pooled`]: 1.0, [`obb ≤${BVH_LEAF} pooled`]: 0.5,
};
/**
 * Untimed build rounds: the builds' first rounds run while V8 still compiles and re-compiles both
 * libraries (three-mesh-bvh's bounds pass bails out of optimized code repeatedly at first).
 */
const BUILD_WARMUP = 10;

interface PoseClass {
  name: string;
  pose: Float64Array;
}

function geometryOf(positions: Float64Array, indices: Uint32Array): BufferGeometry {
  const g = new BufferGeometry();
  g.setAttribute('position', new BufferAttribute(new Float32Array(positions), 3));
  g.setIndex(new BufferAttribute(indices, 1));
  return g;
}

function matrixOf(pose: Float64Array): Matrix4 {
  const m = new Matrix4();
  // Matrix4.set takes row-major arguments; the pose stores rotation columns.
  m.set(
    pose[3], pose[6], pose[9], pose[0],
    pose[4], pose[7], pose[10], pose[1],
    pose[5], pose[8], pose[11], pose[2],
    0, 0, 0, 1,
  );
  return m;
}

/** B's pose slid along `dir` by s from a start pose. */
function slid(start: Float64Array, dir: Vector3, s: number): Float64Array {
  const p = Float64Array.from(start);
  p[0] += s * dir.x;
  p[1] += s * dir.y;
  p[2] += s * dir.z;
  return p;
}

function poseClasses(tree: BoundingTree, identity: Float64Array, size: number): PoseClass[] {
  const result = new TreeQueryResult();
  const q = new Quaternion().setFromAxisAngle(new Vector3(1, 2, 3).normalize(), 0.9);
  const start = poseFromTranslationQuaternion(new Float64Array(POSE_STRIDE), 0, 0.05 * size, -0.03 * size, 0.02 * size, [q.x, q.y, q.z, q.w]) as Float64Array;
  const dir = new Vector3(0.3, 1, 0.2).normalize();
  const touches = (s: number) => collideTrees(result, tree, identity, 0, tree, slid(start, dir, s), 0, 'first') > 0;
  // Bisection for the slide at which B just stops touching A.
  let lo = 0, hi = 4 * size;
  for (let i = 0; i < 50; i++) {
    const mid = 0.5 * (lo + hi);
    if (touches(mid)) lo = mid;
    else hi = mid;
  }
  const nearQ = new Quaternion().setFromAxisAngle(new Vector3(-2, 1, 0.5).normalize(), 1e-4);
  const near = poseFromTranslationQuaternion(new Float64Array(POSE_STRIDE), 0, 1e-4 * size, 0, -0.5e-4 * size, [nearQ.x, nearQ.y, nearQ.z, nearQ.w]) as Float64Array;
  return [
    { name: 'far', pose: slid(start, dir, 3 * size) },
    { name: 'boxes overlap, no contact', pose: slid(start, dir, hi + 0.03 * size) },
    // Grazing: 1e-4 of the size deeper than first contact, so both libraries (ours in doubles,
    // three-mesh-bvh in Float32 vertex storage) see the same few pairs.
    { name: 'grazing', pose: slid(start, dir, lo - 1e-4 * size) },
    { name: 'half overlap', pose: slid(start, dir, 0.5 * lo) },
    { name: 'nearly coincident', pose: near },
  ];
}

function ms(x: number): string {
  return x < 0.1 ? x.toFixed(4) : x < 10 ? x.toFixed(3) : x.toFixed(1);
}

export function run(): BenchReport {
  const knot = torusKnot({ tubularSegments: 250, radialSegments: 20 });
  // Both libraries get the same Float32-rounded vertices.
  const mesh = { ...knot, positions: new Float64Array(new Float32Array(knot.positions)) };
  let size = 0;
  for (let i = 0; i < mesh.positions.length; i++) size = Math.max(size, Math.abs(mesh.positions[i]));
  size *= 2;
  const geometry = geometryOf(mesh.positions, mesh.indices);
  const build = (c: TreeConfig) => buildBoundingTree(mesh.positions, mesh.indices, { kind: c.kind, maxLeafTriangles: c.leaf });
  const trees = new Map(QUERY_TREES.map((c) => [c.name, build(c)]));
  const bvh = new MeshBVH(geometry);
  const identity = poseFromTranslationQuaternion(new Float64Array(POSE_STRIDE), 0, 0, 0, 0, [0, 0, 0, 1]) as Float64Array;
  const classes = poseClasses(trees.get('obb')!, identity, size);
  const result = new TreeQueryResult();

  // Counters per class and kind (all-pairs and first-hit descents).
  const counters = classes.map((c) =>
    QUERY_TREES.map(({ name: k }) => {
      const tree = trees.get(k)!;
      const pairs = collideTrees(result, tree, identity, 0, tree, c.pose, 0, 'all');
      const all = { nv: result.boxTests, np: result.triangleTests };
      collideTrees(result, tree, identity, 0, tree, c.pose, 0, 'first');
      return { pairs, all, first: { nv: result.boxTests, np: result.triangleTests } };
    }),
  );

  const bvhPairs = (m: Matrix4, firstOnly: boolean): number => {
    let n = 0;
    bvh.bvhcast(bvh, m, {
      intersectsTriangles(t1, t2) {
        if (t1.intersectsTriangle(t2)) {
          n++;
          return firstOnly;
        }
        return false;
      },
    });
    return n;
  };

  const cases: BenchCase[] = [];
  const index: Record<string, number> = {};
  const add = (name: string, runCase: () => number) => {
    index[name] = cases.length;
    cases.push({ name, run: runCase, ops: 1 });
  };
  classes.forEach((c) => {
    const m = matrixOf(c.pose);
    for (const { name: k } of QUERY_TREES) {
      const tree = trees.get(k)!;
      add(`${c.name}|${k}|first`, () => collideTrees(result, tree, identity, 0, tree, c.pose, 0, 'first'));
      add(`${c.name}|${k}|all`, () => collideTrees(result, tree, identity, 0, tree, c.pose, 0, 'all'));
    }
    add(`${c.name}|bvh|first`, () => bvhPairs(m, true));
    add(`${c.name}|bvh|all`, () => bvhPairs(m, false));
  });
  const timed = runInterleaved(cases, { warmupSamples: 3, samples: 15 });
  // One worker besides the calling thread: two threads, the benchmark machine's cores.
  const pipeline = createCollisionPipeline(createWorld(), { workers: createWorkerPool(1) });
  const pooled = (c: TreeConfig) => buildMeshTree(pipeline, mesh.positions, mesh.indices, { kind: c.kind, maxLeafTriangles: c.leaf });
  const scripted = (c: TreeConfig) => {
    setTreeBuildWasm(false);
    try {
      return build(c);
    } finally {
      setTreeBuildWasm(true);
    }
  };
  const builds = runInterleaved(
    [
      ...BUILD_TREES.map((c) => ({ name: c.name, run: () => build(c).nodeCount, ops: 1 })),
      ...SCRIPT_TREES.map((c) => ({ name: c.name, run: () => scripted(c).nodeCount, ops: 1 })),
      ...POOLED_TREES.map((c) => ({ name: c.name, run: () => pooled(c).nodeCount, ops: 1 })),
      { name: 'three-mesh-bvh', run: () => new MeshBVH(geometry).geometry.index!.count, ops: 1 },
    ],
    { warmupSamples: BUILD_WARMUP, samples: 15 },
  );
  pipeline.destroy();
  const t = (name: string) => timed[index[name]];

  const kindRows = classes.flatMap((c, ci) =>
    QUERY_TREES.map(({ name: k }, ki) => {
      const cnt = counters[ci][ki];
      return [
        c.name, k, cnt.pairs,
        cnt.first.nv, cnt.first.np, ms(t(`${c.name}|${k}|first`).medianMs),
        cnt.all.nv, cnt.all.np, ms(t(`${c.name}|${k}|all`).medianMs),
      ];
    }),
  );
  const peerRows = classes.flatMap((c) => PEER_TREES.map(({ name: k }) => {
    const of = t(`${c.name}|${k}|first`), bf = t(`${c.name}|bvh|first`);
    const oa = t(`${c.name}|${k}|all`), ba = t(`${c.name}|bvh|all`);
    return [
      c.name, k, `${oa.checksum} / ${ba.checksum}`,
      ms(of.medianMs), ms(bf.medianMs), (bf.medianMs / of.medianMs).toFixed(2),
      ms(oa.medianMs), ms(ba.medianMs), (ba.medianMs / oa.medianMs).toFixed(2),
    ];
  }));
  const buildBvh = builds[builds.length - 1].medianMs;
  const buildMs = (name: string) => builds.find((b) => b.name === name)!.medianMs;
  const kernelGain = (kind: string) => (buildMs(`${kind} ≤${BVH_LEAF} JavaScript`) / buildMs(`${kind} ≤${BVH_LEAF}`)).toFixed(2);
  const markdown = [
    `Two ${mesh.triangleCount}-triangle torus knots, trees with one triangle per leaf (\`obb ≤${BVH_LEAF}\`: up to ${BVH_LEAF}), full SAT per node pair. Nv = volume tests, Np = triangle tests; times are medians (ms) of 15 interleaved samples.`,
    '',
    markdownTable(['pose', 'tree', 'pairs', 'first: Nv', 'first: Np', 'first ms', 'all: Nv', 'all: Np', 'all ms'], kindRows),
    '',
    'Against three-mesh-bvh `bvhcast` (default build: CENTER split, up to 10 triangles per leaf) on the same poses; ratio > 1 means the OBB tree is faster.',
    '',
    markdownTable(['pose', 'tree', 'pairs (OBB / bvh)', 'first: OBB ms', 'first: bvh ms', 'first: bvh/OBB', 'all: OBB ms', 'all: bvh ms', 'all: bvh/OBB'], peerRows),
    '',
    `Builds of the same mesh, medians of 15 interleaved samples after ${BUILD_WARMUP} untimed rounds (\`≤${BVH_LEAF}\`: up to ${BVH_LEAF} triangles per leaf, three-mesh-bvh's default; \`pooled\`: \`buildMeshTree\` on a pipeline with \`createWorkerPool(1)\`, two threads, the same tree); ratio > 1 means faster than three-mesh-bvh (which builds on one thread). The target column judges the single-thread rows and the pooled rows each against the same target. \`JavaScript\`: the same one-thread build with \`setTreeBuildWasm(false)\`, without the WebAssembly kernels (the same tree); the kernels make AABB ≤${BVH_LEAF} builds ${kernelGain('aabb')}x and OBB ≤${BVH_LEAF} builds ${kernelGain('obb')}x faster here.`,
    '',
    markdownTable(
      ['build', 'median ms', 'vs three-mesh-bvh', 'target'],
      builds.map((b) => {
        const target = BUILD_TARGETS[b.name];
        const ratio = buildBvh / b.medianMs;
        return [
          b.name, ms(b.medianMs), ratio.toFixed(2),
          target === undefined ? '' : `${ratio >= target ? 'met' : 'not met'} (target: ≥ ${target.toFixed(1)}x)`,
        ];
      }),
    ),
  ].join('\n');
  return { name: 'obbTree', markdown, data: { counters, timed, builds } };
}
