/**
 * The split spatial hash under load: many pipelines, each on its own worker pool (1 to 3 workers,
 * every other one polling between jobs, every system split however small the frame), stepped in turn on the benchmark scene, so their
 * threads outnumber the cores many times over and are preempted mid-job. Every stage the pool
 * splits (the radix sort, the classification, the bucket fill, the scans) is checked after it
 * ran against a grid built on one thread from the same boxes, and the candidates are checked to
 * be sorted; a failure names the pipeline, the frame and the first array that differs.
 *
 * `node --import tsx scripts/threadStress.ts [frames] [pipelines]` (defaults 2000 and 9); run two
 * or three at once on a two-core machine. Exits non-zero on any failure.
 */
import { addEntity, createWorld } from 'bitecs';
import { fileURLToPath } from 'node:url';
import { advanceScene, createScene, sizeForDensity } from '../scenes/movingBoxes';
import { addCollider, setTransform } from '../systems/colliderApi';
import { createCollisionPipeline } from '../systems/pipeline';
import { createWorkerPool } from '../systems/parallel/workerPool';
import { ColumnGrid, WHOLE_GRID, createSpatialHash, scanPart, type ScanSplitter } from '../src/broadphase/spatialHash';
import { PairList } from '../src/broadphase/pairList';
import { injectTouchingPairs } from './pipelineExactness';

/** Boxes in the scene. */
const BOXES = 2000;
/** Worker counts of the pipelines, in turn. */
const WORKER_COUNTS = [1, 2, 3];
/** How long the polling pipelines' threads poll between jobs (ms). */
const POLL_MS = 0.5;
/** A run stops after this many failures. */
const MAX_FAILURES = 20;

/** Index of the first of `n` entries where `a` and `b` differ, or -1. */
function firstDifference(a: ArrayLike<number>, b: ArrayLike<number>, n: number): number {
  for (let i = 0; i < n; i++) if (a[i] !== b[i]) return i;
  return -1;
}

/** `inner`, with each split stage compared with a one-thread grid of the same boxes; `report` receives the differences. */
function checkedSplitter(inner: ScanSplitter, report: (what: string) => void): ScanSplitter {
  let tags = new Uint32Array(0);
  let maxCells = 0, inv = 0;
  const reference = new ColumnGrid();
  const referencePairs = new PairList();
  return {
    splits: (dynamics) => inner.splits(dynamics),
    sort(grid, input, ids) {
      tags = Uint32Array.from({ length: grid.count }, (_, i) => ids[i]);
      inner.sort(grid, input, ids);
    },
    classify(grid, input, cells) {
      maxCells = cells;
      inv = grid.levelInv[0];
      return inner.classify(grid, input, cells);
    },
    fill(grid, input) {
      inner.fill(grid, input);
      const r = reference;
      r.build(input.boxes, tags, grid.count, inv, maxCells);
      if (grid.entries !== r.entries || grid.slots !== r.slots || grid.top !== r.top || grid.bottom !== r.bottom) {
        report(`grid counts: entries ${grid.entries} / ${r.entries}, slots ${grid.slots} / ${r.slots}, levels ${grid.bottom}-${grid.top} / ${r.bottom}-${r.top}`);
        return;
      }
      const n = grid.count, e = grid.entries;
      const arrays: [string, ArrayLike<number>, ArrayLike<number>, number][] = [
        ['order', grid.byLowerX.order, r.byLowerX.order, n], ['boxLowerX', grid.boxLowerX, r.boxLowerX, n], ['boxLevel', grid.boxLevel, r.boxLevel, n],
        ['columnLo', grid.columnLo, r.columnLo, 2 * n], ['columnN', grid.columnN, r.columnN, 2 * n],
        ['levelBoxes', grid.levelBoxes, r.levelBoxes, grid.levelBoxes.length], ['levelWidthX', grid.levelWidthX, r.levelWidthX, grid.levelWidthX.length],
        ['bucketStart', grid.bucketStart, r.bucketStart, grid.slots], ['entryId', grid.entryId, r.entryId, e], ['entryColumn', grid.entryColumn, r.entryColumn, 2 * e],
        ['entryLevel', grid.entryLevel, r.entryLevel, e], ['entryFirst', grid.entryFirst, r.entryFirst, e], ['entryLowerX', grid.entryLowerX, r.entryLowerX, e],
      ];
      for (const [name, split, one, length] of arrays) {
        const at = firstDifference(split, one, length);
        if (at >= 0) report(`${name} differs at ${at} of ${length}: ${split[at]}, one thread ${one[at]}`);
      }
    },
    scan(grid, input, out) {
      const passed = inner.scan(grid, input, out);
      referencePairs.clear();
      scanPart(reference, input, referencePairs, 0, WHOLE_GRID);
      referencePairs.sort();
      const at = Math.max(firstDifference(out.a, referencePairs.a, out.count), firstDifference(out.b, referencePairs.b, out.count));
      if (out.count !== referencePairs.count || at >= 0) report(`scan pairs: ${out.count}, one thread ${referencePairs.count}; first difference at ${at}`);
      return passed;
    },
    sortAfter: (out, sorted) => inner.sortAfter(out, sorted),
  };
}

/** Runs the stress; returns the failures (empty when every stage of every frame agreed). */
export function runThreadStress(frames: number, pipelines: number, onProgress?: (frame: number, failures: number) => void): string[] {
  const scene = createScene(BOXES, sizeForDensity(BOXES), 1);
  injectTouchingPairs(scene);
  const failures: string[] = [];
  let frame = 0;
  const runs = Array.from({ length: pipelines }, (_, r) => {
    const workers = WORKER_COUNTS[r % WORKER_COUNTS.length];
    // Every other pipeline's threads poll between jobs instead of sleeping: both hand-overs run.
    const spinMs = r % 2 === 0 ? 0 : POLL_MS;
    const label = `pipeline ${r} (${workers} worker${workers > 1 ? 's' : ''}${spinMs > 0 ? ', polling' : ''})`;
    const report = (what: string) => failures.push(`${label}, frame ${frame}: ${what}`);
    const world = createWorld();
    const broadPhase = createSpatialHash();
    const install = broadPhase.splitScans.bind(broadPhase);
    broadPhase.splitScans = (splitter) => install(splitter === undefined ? undefined : checkedSplitter(splitter, report));
    const p = createCollisionPipeline(world, { broadPhase, workers: createWorkerPool(workers, { spinMs }) });
    p.parallel!.minRefit = 1;
    p.parallel!.minNarrow = 1;
    p.parallel!.minBroad = 1;
    const eidOf = new Int32Array(BOXES);
    for (let i = 0; i < BOXES; i++) {
      eidOf[i] = addEntity(world);
      addCollider(world, eidOf[i], { shape: 'obb', halfExtents: [scene.half[3 * i], scene.half[3 * i + 1], scene.half[3 * i + 2]], sensor: true });
    }
    return { world, p, eidOf, report };
  });
  const position = new Float64Array(3), rotation = new Float64Array(4);
  try {
    for (; frame < frames && failures.length < MAX_FAILURES; frame++) {
      for (const run of runs) {
        for (let i = 0; i < BOXES; i++) {
          for (let c = 0; c < 3; c++) position[c] = scene.position[3 * i + c];
          for (let c = 0; c < 4; c++) rotation[c] = scene.rotation[4 * i + c];
          setTransform(run.world, run.eidOf[i], position, rotation);
        }
        run.p.step(run.world);
        const t = run.p.candidates;
        for (let k = 1; k < t.count; k++) {
          if (t.a[k - 1] > t.a[k] || (t.a[k - 1] === t.a[k] && t.b[k - 1] >= t.b[k])) {
            run.report(`candidates not sorted at ${k}`);
            break;
          }
        }
      }
      advanceScene(scene);
      if ((frame + 1) % 200 === 0) onProgress?.(frame + 1, failures.length);
    }
  } finally {
    for (const run of runs) run.p.destroy();
  }
  return failures;
}

function main(): void {
  const frames = Number(process.argv[2] ?? 2000), pipelines = Number(process.argv[3] ?? 9);
  const t0 = performance.now();
  const failures = runThreadStress(frames, pipelines, (frame, failed) =>
    console.error(`  ${frame}/${frames} frames, ${failed} failures, ${((performance.now() - t0) / 1000).toFixed(0)} s`));
  console.log(`${pipelines} pooled pipelines, ${frames} frames of ${BOXES} boxes: ${failures.length === 0 ? 'every split stage agreed with one thread' : `${failures.length} FAILURES`}`);
  for (const f of failures) console.log(`  ${f}`);
  process.exit(failures.length === 0 ? 0 : 1);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) main();
