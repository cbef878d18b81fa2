/**
 * Shape casts: nanoseconds per cast for sphere–sphere, sphere–OBB, capsule–OBB, OBB–OBB and
 * box–triangle kernels on random motions aimed near the target (about half hit), and for sphere,
 * capsule and box casts against the 10,000-triangle torus knot's tree. Pre-generated inputs,
 * medians of interleaved samples.
 */
import { buildBoundingTree } from '../src/tree/build';
import { POSE_STRIDE, poseFromTranslationQuaternion } from '../src/tree/pose';
import { TreeQueryResult } from '../src/tree/queryResult';
import { shapecastTree, type ShapeCastMover } from '../src/tree/shapecastTree';
import { castSphereObb, castSphereSphere } from '../src/query/shapeCast';
import { castCapsuleObb } from '../src/query/shapeCastCapsule';
import { castObbObb, castObbTriangle } from '../src/query/shapeCastBox';
import { SHAPE_CAST_HIT_STRIDE } from '../src/query/shapeCastHit';
import { OBB_STRIDE } from '../src/layout';
import { mulberry32, quaternionToAxes, randomQuaternion } from '../scenes/random';
import { torusKnot } from '../scenes/torusKnot';
import { markdownTable, runInterleaved, type BenchCase, type BenchReport } from './harness';

const N = 4096;
const MESH_CASTS = 512;

/** N random boxes (OBB layout) near the origin, half-extents 0.2..1. */
function boxes(rand: () => number, spread: number): Float64Array {
  const out = new Float64Array(N * OBB_STRIDE);
  for (let i = 0; i < N; i++) {
    const o = i * OBB_STRIDE;
    for (let k = 0; k < 3; k++) out[o + k] = (rand() - 0.5) * spread;
    out.set(quaternionToAxes(randomQuaternion(rand)), o + 3);
    for (let k = 0; k < 3; k++) out[o + 12 + k] = 0.2 + 0.8 * rand();
  }
  return out;
}

export function run(): BenchReport {
  const rand = mulberry32(17);
  const movers = boxes(rand, 6), targets = boxes(rand, 1);
  const spheres = new Float64Array(4 * N), targetSpheres = new Float64Array(4 * N), capsules = new Float64Array(7 * N), d = new Float64Array(3 * N), tris = new Float64Array(9 * N);
  for (let i = 0; i < N; i++) {
    for (let k = 0; k < 3; k++) {
      const c = movers[i * OBB_STRIDE + k];
      spheres[4 * i + k] = c;
      targetSpheres[4 * i + k] = targets[i * OBB_STRIDE + k];
      capsules[7 * i + k] = c;
      capsules[7 * i + 3 + k] = c + (rand() - 0.5) * 2;
      // Aimed at the target's centre, with a miss distance of up to 2.
      d[3 * i + k] = targets[i * OBB_STRIDE + k] - c + (rand() - 0.5) * 4;
      for (let v = 0; v < 3; v++) tris[9 * i + 3 * v + k] = targets[i * OBB_STRIDE + k] + (rand() - 0.5) * 2;
    }
    spheres[4 * i + 3] = 0.2 + 0.8 * rand();
    targetSpheres[4 * i + 3] = 0.2 + 0.8 * rand();
    capsules[7 * i + 6] = 0.2 + 0.5 * rand();
  }
  const out = new Float64Array(SHAPE_CAST_HIT_STRIDE);
  const kernel = (name: string, cast: (i: number) => boolean): BenchCase => ({
    name,
    ops: N,
    run: () => {
      let hits = 0;
      for (let i = 0; i < N; i++) if (cast(i)) hits++;
      return hits;
    },
  });
  const cases: BenchCase[] = [
    kernel('sphere–sphere', (i) => castSphereSphere(out, 0, spheres[4 * i], spheres[4 * i + 1], spheres[4 * i + 2], spheres[4 * i + 3], d[3 * i], d[3 * i + 1], d[3 * i + 2], 1, targetSpheres, 4 * i)),
    kernel('sphere–OBB', (i) => castSphereObb(out, 0, spheres[4 * i], spheres[4 * i + 1], spheres[4 * i + 2], spheres[4 * i + 3], d[3 * i], d[3 * i + 1], d[3 * i + 2], 1, targets, i * OBB_STRIDE)),
    kernel('capsule–OBB', (i) => castCapsuleObb(out, 0, capsules, 7 * i, d[3 * i], d[3 * i + 1], d[3 * i + 2], 1, targets, i * OBB_STRIDE)),
    kernel('OBB–OBB', (i) => castObbObb(out, 0, movers, i * OBB_STRIDE, d[3 * i], d[3 * i + 1], d[3 * i + 2], 1, targets, i * OBB_STRIDE)),
    kernel('OBB–triangle', (i) => castObbTriangle(out, 0, movers, i * OBB_STRIDE, d[3 * i], d[3 * i + 1], d[3 * i + 2], 1, tris, 9 * i)),
  ];

  const knot = torusKnot();
  const tree = buildBoundingTree(knot.positions, knot.indices);
  const pose = poseFromTranslationQuaternion(new Float64Array(POSE_STRIDE), 0, 0, 0, 0, [0, 0, 0, 1]);
  const result = new TreeQueryResult();
  const meshMovers = { sphere: new Float64Array(4 * MESH_CASTS), capsule: new Float64Array(7 * MESH_CASTS), obb: new Float64Array(OBB_STRIDE * MESH_CASTS) };
  const md = new Float64Array(3 * MESH_CASTS);
  for (let i = 0; i < MESH_CASTS; i++) {
    const v = 3 * Math.floor(rand() * knot.vertexCount);
    for (let k = 0; k < 3; k++) {
      const c = (rand() - 0.5) * 6;
      meshMovers.sphere[4 * i + k] = meshMovers.capsule[7 * i + k] = meshMovers.obb[OBB_STRIDE * i + k] = c;
      meshMovers.capsule[7 * i + 3 + k] = c + (rand() - 0.5) * 0.4;
      md[3 * i + k] = 1.5 * (knot.positions[v + k] - c);
    }
    meshMovers.sphere[4 * i + 3] = meshMovers.capsule[7 * i + 6] = 0.05 + 0.1 * rand();
    meshMovers.obb.set(quaternionToAxes(randomQuaternion(rand)), OBB_STRIDE * i + 3);
    for (let k = 0; k < 3; k++) meshMovers.obb[OBB_STRIDE * i + 12 + k] = 0.05 + 0.1 * rand();
  }
  const stride = { sphere: 4, capsule: 7, obb: OBB_STRIDE };
  const meshCase = (kind: ShapeCastMover): BenchCase => ({
    name: `${kind} vs torus knot tree (${knot.triangleCount} triangles)`,
    ops: MESH_CASTS,
    run: () => {
      let hits = 0;
      for (let i = 0; i < MESH_CASTS; i++) {
        if (shapecastTree(result, tree, pose, 0, kind, meshMovers[kind], stride[kind] * i, md[3 * i], md[3 * i + 1], md[3 * i + 2], 1)) hits++;
      }
      return hits;
    },
  });
  const results = runInterleaved([...cases, meshCase('sphere'), meshCase('capsule'), meshCase('obb')], { warmupSamples: 10, samples: 40 });
  return {
    name: 'shapeCast',
    markdown: markdownTable(
      ['cast', 'ns per cast (median)', 'p95 ms per sample', 'casts per sample', 'hits'],
      results.map((r) => [r.name, ((r.medianMs * 1e6) / r.ops).toFixed(0), r.p95Ms.toFixed(3), r.ops, r.checksum]),
    ),
    data: results,
  };
}

if (process.argv[1]?.endsWith('shapeCast.bench.ts')) console.log(run().markdown);
