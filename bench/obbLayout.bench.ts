/**
 * World OBB storage for the pipeline: one interleaved Float32 array of stride 15 (what the
 * collider store uses) against one Float32 array per field (15 arrays, the usual bitecs SoA
 * style). Two access patterns, timed interleaved on the same data:
 * - refit: world OBB of 10,000 boxes from their local boxes (obbTransform), written to the store;
 *   the SoA variant writes through a stride-15 scratch, as it must to use the shared kernels;
 * - narrow phase: the 15-axis SAT over the sorted candidate pairs of a scene (what the broad
 *   phase hands over); the SoA variant gathers both boxes into scratch first.
 */
import { aabbTransformMat3 } from '../src/volumes/aabb';
import { PairList } from '../src/broadphase/pairList';
import { createSweepAndPrune } from '../src/broadphase/sweepAndPrune';
import { OBB_AXES, OBB_STRIDE } from '../src/layout';
import { obbTransform } from '../src/volumes/obb';
import { obbSeparatingAxis } from '../src/query/sat';
import { mulberry32, quaternionToAxes, randomQuaternion } from '../scenes/random';
import { markdownTable, millions, runInterleaved, type BenchCase } from './harness';
import type { BenchReport } from './harness';

const BOXES = 10_000;
/** Scene edge: about 9 candidate pairs per box with half-extents in [0.5, 2] (a dense, SAT-heavy frame). */
const SCENE_SIZE = 60;
const SEED = 77;

function makeScene() {
  const rand = mulberry32(SEED);
  const local = new Float64Array(BOXES * OBB_STRIDE);
  const rotations = new Float64Array(BOXES * 4);
  const positions = new Float64Array(BOXES * 3);
  const q = [0, 0, 0, 1];
  for (let i = 0; i < BOXES; i++) {
    const o = i * OBB_STRIDE;
    const axes = quaternionToAxes(randomQuaternion(rand, q));
    for (let k = 0; k < 9; k++) local[o + OBB_AXES + k] = axes[k];
    for (let k = 0; k < 3; k++) local[o + 12 + k] = 0.5 + 1.5 * rand();
    randomQuaternion(rand, q);
    for (let k = 0; k < 4; k++) rotations[4 * i + k] = q[k];
    for (let k = 0; k < 3; k++) positions[3 * i + k] = SCENE_SIZE * rand();
  }
  return { local, rotations, positions };
}

export function run(): BenchReport {
  const { local, rotations, positions } = makeScene();
  const interleaved = new Float32Array(BOXES * OBB_STRIDE);
  const fields = Array.from({ length: OBB_STRIDE }, () => new Float32Array(BOXES));
  const scratch = new Float64Array(OBB_STRIDE);
  const gatherA = new Float64Array(OBB_STRIDE);
  const gatherB = new Float64Array(OBB_STRIDE);
  const q = new Float64Array(4);
  const t = new Float64Array(3);

  const refitInterleaved = (): number => {
    for (let i = 0; i < BOXES; i++) {
      for (let k = 0; k < 4; k++) q[k] = rotations[4 * i + k];
      for (let k = 0; k < 3; k++) t[k] = positions[3 * i + k];
      obbTransform(interleaved, i * OBB_STRIDE, local, i * OBB_STRIDE, q, t, 1);
    }
    return interleaved[7];
  };
  const refitFields = (): number => {
    for (let i = 0; i < BOXES; i++) {
      for (let k = 0; k < 4; k++) q[k] = rotations[4 * i + k];
      for (let k = 0; k < 3; k++) t[k] = positions[3 * i + k];
      obbTransform(scratch, 0, local, i * OBB_STRIDE, q, t, 1);
      for (let f = 0; f < OBB_STRIDE; f++) fields[f][i] = scratch[f];
    }
    return fields[7][0];
  };
  refitInterleaved();
  refitFields();

  // Candidate pairs: the sorted output of the broad phase over the world boxes.
  const ids = new Uint32Array(BOXES).map((_, i) => i);
  const boxes = new Float64Array(BOXES * 6);
  const centredBox = new Float64Array(6); // the box in its own frame, min-max
  for (let i = 0; i < BOXES; i++) {
    const o = i * OBB_STRIDE;
    for (let k = 0; k < 3; k++) {
      centredBox[k] = -interleaved[o + 12 + k];
      centredBox[3 + k] = interleaved[o + 12 + k];
      t[k] = interleaved[o + k];
    }
    aabbTransformMat3(boxes, 6 * i, centredBox, 0, interleaved, t, 1, o + OBB_AXES);
  }
  const pairs = new PairList();
  createSweepAndPrune().findPairs(
    { ids, count: BOXES, boxes, isStatic: new Uint8Array(BOXES), layer: new Uint32Array(BOXES).fill(1), mask: new Uint32Array(BOXES).fill(1) },
    pairs,
  );
  const first = pairs.a.slice(0, pairs.count), second = pairs.b.slice(0, pairs.count);

  const satInterleaved = (): number => {
    let overlaps = 0;
    for (let i = 0; i < first.length; i++) {
      if (obbSeparatingAxis(interleaved, first[i] * OBB_STRIDE, interleaved, second[i] * OBB_STRIDE) < 0) overlaps++;
    }
    return overlaps;
  };
  const satFields = (): number => {
    let overlaps = 0;
    for (let i = 0; i < first.length; i++) {
      const a = first[i], b = second[i];
      for (let f = 0; f < OBB_STRIDE; f++) {
        gatherA[f] = fields[f][a];
        gatherB[f] = fields[f][b];
      }
      if (obbSeparatingAxis(gatherA, 0, gatherB, 0) < 0) overlaps++;
    }
    return overlaps;
  };

  const cases: BenchCase[] = [
    { name: 'refit: interleaved stride 15', run: refitInterleaved, ops: BOXES },
    { name: 'refit: 15 field arrays', run: refitFields, ops: BOXES },
    { name: 'SAT pairs: interleaved stride 15', run: satInterleaved, ops: first.length },
    { name: 'SAT pairs: 15 field arrays (gather)', run: satFields, ops: first.length },
  ];
  const results = runInterleaved(cases, { warmupSamples: 10, samples: 40 });
  const rows = results.map((r) => [r.name, millions(r.opsPerSecond), r.medianMs.toFixed(3), r.checksum]);
  const ratio = (x: number, y: number) => (results[x].opsPerSecond / results[y].opsPerSecond).toFixed(2);
  const markdown = [
    `${BOXES} OBBs, ${first.length} candidate pairs (sorted, from sweep and prune).`,
    '',
    markdownTable(['case', 'M ops/s', 'median ms', 'checksum'], rows),
    '',
    `Interleaved / field arrays: refit ${ratio(0, 1)}x, SAT ${ratio(2, 3)}x.`,
  ].join('\n');
  return { name: 'obbLayout', markdown, data: { boxes: BOXES, pairs: first.length, results } };
}
