/**
 * Exactness of the whole pipeline on the benchmark scene (scenes/movingBoxes.ts): at every frame, the
 * touching pairs of every broad phase + narrow phase must equal an all-pairs brute-force
 * reference, be identical across two runs, and not depend on entity creation order.
 *
 * The reference shares nothing with the pipeline: it rebuilds each world box from the pipeline's
 * own Float32 transform arrays (the values the pipeline really saw) with quaternionToAxes, tests
 * every pair's world AABB (computed here from the axes) by brute force, and decides survivors with
 * the corner-projection SAT of test/support/satReference.ts. Pairs whose reference gap lies inside
 * the band of satReference's `referenceBand` may go either way (Float32 rounding, the SAT's
 * parallel-edge slack) and are counted as "touching"; pairs at an exact zero gap (boxes injected
 * face to face on a 1/64 grid, where every number is exact) must be reported.
 *
 * With `workers`, every broad phase also runs once per listed worker count (a pool from
 * createWorkerPool, every system split between threads however small the frame), and those runs
 * must give exactly the pairs of the one-thread run, frame by frame.
 *
 * `node --import tsx scripts/pipelineExactness.ts [frames] [counts...] [--workers 1,2,3]` prints a
 * summary and exits non-zero on any mismatch. The checker is also used by
 * test/systems/pipelineExactness.test.ts.
 */
import { addEntity, createWorld, type World } from 'bitecs';
import { fileURLToPath } from 'node:url';
import { createScene, sizeForDensity, advanceScene, type Scene } from '../scenes/movingBoxes';
import { BROAD_PHASE_NAMES, resolveBroadPhase } from '../systems/broadPhaseNames';
import { addCollider, setTransform } from '../systems/colliderApi';
import type { BroadPhaseName, CollisionPipeline } from '../systems/collisionState';
import { createCollisionPipeline } from '../systems/pipeline';
import { createWorkerPool } from '../systems/parallel/workerPool';
import { OBB_STRIDE } from '../src/layout';
import { referenceBand, referenceSeparation } from '../scenes/satReference';
import { mulberry32, quaternionToAxes } from '../scenes/random';

/** Every algorithm once ('sweepAndPrune' is an alias of 'sap'). */
export const EXACTNESS_BROAD_PHASES = BROAD_PHASE_NAMES.filter((n) => n !== 'sweepAndPrune');

/** Pairs injected face to face at the start, so exactly touching frames occur. */
const INJECTED_PAIRS = 8;
/** Grid on which injected boxes live, fine enough to vary, coarse enough that sums stay exact. */
const GRID = 1 / 64;
/** Pair keys pack two box indices below 2^24. */
const KEY_BASE = 0x1000000;

export interface ExactnessOptions {
  count: number;
  frames: number;
  seed?: number;
  broadPhases?: readonly BroadPhaseName[];
  /** Worker counts to run every broad phase with as well (none by default). */
  workers?: readonly number[];
  /** Called every `progressEvery` frames (long runs report progress). */
  onProgress?: (frame: number, result: ExactnessResult) => void;
  progressEvery?: number;
}

export interface ExactnessResult {
  count: number;
  frames: number;
  /** Mismatch descriptions (empty when exact); capped. */
  mismatches: string[];
  /** Sum over frames of the reference's certain pairs. */
  pairFrames: number;
  /** Sum over frames of pairs inside the ambiguity band (just touching). */
  touchingPairFrames: number;
  /** Frames with at least one just-touching pair. */
  touchingFrames: number;
  /** Sum over frames of pairs at an exact zero gap (required to be reported). */
  exactTouchPairFrames: number;
  seconds: number;
}

/** Snaps the first 2·INJECTED_PAIRS boxes of `scene` into face-to-face pairs on an exact grid, moving together without spin. */
export function injectTouchingPairs(scene: Scene): void {
  const snap = (x: number) => Math.round(x / GRID) * GRID;
  for (let k = 0; k < INJECTED_PAIRS && 2 * k + 1 < scene.count; k++) {
    const a = 2 * k, b = a + 1, axis = k % 3;
    for (const i of [a, b]) {
      for (let c = 0; c < 3; c++) scene.half[3 * i + c] = snap(scene.half[3 * i + c]);
      scene.rotation.set([0, 0, 0, 1], 4 * i);
      scene.spin.set([0, 0, 0, 1], 4 * i);
    }
    for (let c = 0; c < 3; c++) {
      scene.position[3 * a + c] = snap(0.25 * scene.size + 0.5 * scene.size * (k / INJECTED_PAIRS));
      scene.velocity[3 * a + c] = snap(scene.velocity[3 * a + c] * 0.25);
      scene.position[3 * b + c] = scene.position[3 * a + c];
      scene.velocity[3 * b + c] = scene.velocity[3 * a + c];
    }
    // Face to face along `axis`: centres apart by exactly the sum of the half-extents.
    scene.position[3 * b + axis] += scene.half[3 * a + axis] + scene.half[3 * b + axis];
  }
}

/** One pipeline over the scene, with its entity ↔ box-index maps. */
interface Run {
  label: string;
  world: World;
  p: CollisionPipeline;
  /** entity of box i */
  eidOf: Int32Array;
  /** box of entity e */
  boxOf: Int32Array;
  keys: Float64Array;
}

function createRun(label: string, name: BroadPhaseName, scene: Scene, order: Int32Array, workers = 0): Run {
  const world = createWorld();
  const p = createCollisionPipeline(world, { broadPhase: resolveBroadPhase(name), ...(workers > 0 ? { workers: createWorkerPool(workers) } : {}) });
  if (p.parallel !== undefined) {
    // Split every frame, not only the large ones the pool takes by default.
    p.parallel.minRefit = 1;
    p.parallel.minNarrow = 1;
    p.parallel.minBroad = 1;
  }
  const eidOf = new Int32Array(scene.count);
  const eids: number[] = [];
  for (const i of order) {
    const e = addEntity(world);
    eidOf[i] = e;
    eids.push(e);
    const h = scene.half;
    addCollider(world, e, { shape: 'obb', halfExtents: [h[3 * i], h[3 * i + 1], h[3 * i + 2]], sensor: true });
  }
  const boxOf = new Int32Array(Math.max(...eids) + 1).fill(-1);
  for (let i = 0; i < scene.count; i++) boxOf[eidOf[i]] = i;
  return { label, world, p, eidOf, boxOf, keys: new Float64Array(64) };
}

const position = new Float64Array(3);
const rotation = new Float64Array(4);

/** Writes the scene's poses, steps, returns the touching pairs as sorted box-index keys (count in the return, keys in run.keys). */
function stepRun(run: Run, scene: Scene): number {
  for (let i = 0; i < scene.count; i++) {
    for (let c = 0; c < 3; c++) position[c] = scene.position[3 * i + c];
    for (let c = 0; c < 4; c++) rotation[c] = scene.rotation[4 * i + c];
    setTransform(run.world, run.eidOf[i], position, rotation);
  }
  run.p.step(run.world);
  const t = run.p.touchingPairs;
  if (run.keys.length < t.count) run.keys = new Float64Array(2 * t.count);
  for (let k = 0; k < t.count; k++) {
    const a = t.a[k], b = t.b[k];
    if (!(a < b) || (k > 0 && (t.a[k - 1] > a || (t.a[k - 1] === a && t.b[k - 1] >= b)))) {
      throw new Error(`${run.label}: touching pairs not sorted (a < b) at ${k}`);
    }
    const i = run.boxOf[a], j = run.boxOf[b];
    run.keys[k] = i < j ? i * KEY_BASE + j : j * KEY_BASE + i;
  }
  run.keys.subarray(0, t.count).sort();
  return t.count;
}

/** Independent reference over all pairs: world OBBs from the Float32 transforms of `run`. */
class Reference {
  readonly obb: Float64Array;
  readonly lo: Float64Array;
  readonly hi: Float64Array;
  sure: number[] = [];
  either = new Set<number>();
  exact: number[] = [];

  constructor(readonly count: number) {
    this.obb = new Float64Array(OBB_STRIDE * count);
    this.lo = new Float64Array(3 * count);
    this.hi = new Float64Array(3 * count);
  }

  update(run: Run, scene: Scene): void {
    const { position: tp, rotation: tr } = run.p.transform;
    const { obb, lo, hi } = this;
    this.sure = [];
    this.either.clear();
    this.exact = [];
    for (let i = 0; i < this.count; i++) {
      const e = run.eidOf[i], o = OBB_STRIDE * i;
      const ax = quaternionToAxes([tr[4 * e], tr[4 * e + 1], tr[4 * e + 2], tr[4 * e + 3]]);
      for (let c = 0; c < 3; c++) obb[o + c] = tp[3 * e + c];
      for (let c = 0; c < 9; c++) obb[o + 3 + c] = ax[c];
      for (let c = 0; c < 3; c++) obb[o + 12 + c] = scene.half[3 * i + c];
      // AABB half-width on world axis c: sum over box axes of |u_k[c]| h_k, widened by the band so no touching pair is lost.
      const pad = referenceBand(obb, o, obb, o);
      for (let c = 0; c < 3; c++) {
        let r = pad;
        for (let k = 0; k < 3; k++) r += Math.abs(ax[3 * k + c]) * obb[o + 12 + k];
        lo[3 * i + c] = obb[o + c] - r;
        hi[3 * i + c] = obb[o + c] + r;
      }
    }
    for (let i = 0; i < this.count; i++) {
      const lx = lo[3 * i], ly = lo[3 * i + 1], lz = lo[3 * i + 2];
      const hx = hi[3 * i], hy = hi[3 * i + 1], hz = hi[3 * i + 2];
      for (let j = i + 1; j < this.count; j++) {
        const b = 3 * j;
        if (lo[b] > hx || hi[b] < lx || lo[b + 1] > hy || hi[b + 1] < ly || lo[b + 2] > hz || hi[b + 2] < lz) continue;
        const { gap } = referenceSeparation(obb, OBB_STRIDE * i, obb, OBB_STRIDE * j);
        const band = referenceBand(obb, OBB_STRIDE * i, obb, OBB_STRIDE * j);
        const key = i * KEY_BASE + j;
        if (gap < -band) this.sure.push(key);
        else if (gap <= band) {
          this.either.add(key);
          if (gap === 0) this.exact.push(key);
        }
      }
    }
  }
}

function describeKey(key: number): string {
  return `(${Math.floor(key / KEY_BASE)}, ${key % KEY_BASE})`;
}

/** Compares `keys[0..n)` with the reference; returns a description of the first difference, or null. */
function compareWithReference(keys: Float64Array, n: number, ref: Reference): string | null {
  // Both lists ascending (sure is built in (i, j) order); walk them, allowing band pairs in between.
  let s = 0;
  for (let k = 0; k < n; k++) {
    const key = keys[k];
    if (s < ref.sure.length && ref.sure[s] === key) {
      s++;
      continue;
    }
    if (s < ref.sure.length && ref.sure[s] < key) return `missing ${describeKey(ref.sure[s])}`;
    if (!ref.either.has(key)) return `extra ${describeKey(key)}`;
  }
  if (s < ref.sure.length) return `missing ${describeKey(ref.sure[s])}`;
  const have = new Set(keys.subarray(0, n));
  for (const key of ref.exact) if (!have.has(key)) return `missing exactly touching ${describeKey(key)}`;
  return null;
}

function sameKeys(a: Float64Array, na: number, b: Float64Array, nb: number): boolean {
  if (na !== nb) return false;
  for (let k = 0; k < na; k++) if (a[k] !== b[k]) return false;
  return true;
}

/**
 * Runs the check: for each broad phase a pipeline in creation order, one in shuffled order and,
 * for the first broad phase, a second identical run; every frame every run is compared with the
 * reference and with its twins.
 */
export function checkPipelineExactness(options: ExactnessOptions): ExactnessResult {
  const t0 = performance.now();
  const { count, frames } = options;
  const scene = createScene(count, sizeForDensity(count), options.seed ?? 1);
  injectTouchingPairs(scene);
  const identity = Int32Array.from({ length: count }, (_, i) => i);
  const shuffled = identity.slice();
  const rand = mulberry32((options.seed ?? 1) + 7);
  for (let i = count - 1; i > 0; i--) {
    const j = Math.floor(rand() * (i + 1));
    [shuffled[i], shuffled[j]] = [shuffled[j], shuffled[i]];
  }
  const names = options.broadPhases ?? EXACTNESS_BROAD_PHASES;
  const groups = names.map((name, g) => {
    const runs = [createRun(name, name, scene, identity), createRun(`${name} shuffled`, name, scene, shuffled)];
    if (g === 0) runs.push(createRun(`${name} rerun`, name, scene, identity));
    for (const w of options.workers ?? []) runs.push(createRun(`${name} ${w} worker${w > 1 ? 's' : ''}`, name, scene, identity, w));
    return runs;
  });
  const ref = new Reference(count);
  const result: ExactnessResult = {
    count, frames, mismatches: [], pairFrames: 0, touchingPairFrames: 0, touchingFrames: 0, exactTouchPairFrames: 0, seconds: 0,
  };
  const counts = groups.map((runs) => runs.map(() => 0));
  for (let frame = 0; frame < frames && result.mismatches.length < 20; frame++) {
    for (let g = 0; g < groups.length; g++) for (let r = 0; r < groups[g].length; r++) counts[g][r] = stepRun(groups[g][r], scene);
    ref.update(groups[0][0], scene);
    result.pairFrames += ref.sure.length;
    result.touchingPairFrames += ref.either.size;
    result.exactTouchPairFrames += ref.exact.length;
    if (ref.either.size > 0) result.touchingFrames++;
    for (let g = 0; g < groups.length; g++) {
      const [main, ...twins] = groups[g];
      const diff = compareWithReference(main.keys, counts[g][0], ref);
      if (diff !== null) result.mismatches.push(`N=${count} frame ${frame} ${main.label}: ${diff}`);
      twins.forEach((twin, r) => {
        if (!sameKeys(main.keys, counts[g][0], twin.keys, counts[g][r + 1])) {
          result.mismatches.push(`N=${count} frame ${frame} ${twin.label}: pairs differ from ${main.label}`);
        }
      });
    }
    if (options.onProgress && (frame + 1) % (options.progressEvery ?? 100) === 0) {
      result.seconds = (performance.now() - t0) / 1000;
      options.onProgress(frame + 1, result);
    }
    advanceScene(scene);
  }
  for (const runs of groups) for (const run of runs) run.p.destroy();
  result.seconds = (performance.now() - t0) / 1000;
  return result;
}

function main(): void {
  const args = process.argv.slice(2);
  const flag = args.indexOf('--workers');
  const workers = flag >= 0 ? args.splice(flag, 2)[1].split(',').map(Number) : [];
  const frames = Number(args[0] ?? 1000);
  const counts = args.length > 1 ? args.slice(1).map(Number) : [2000, 10000];
  let failed = false;
  for (const count of counts) {
    const r = checkPipelineExactness({
      count,
      frames,
      workers,
      onProgress: (frame, partial) =>
        console.error(`  N=${count}: ${frame}/${frames} frames, ${partial.mismatches.length} mismatches, ${partial.seconds.toFixed(0)} s`),
    });
    console.log(
      `N=${count}, ${frames} frames, broad phases ${EXACTNESS_BROAD_PHASES.join('/')} (+ shuffled creation order each, + rerun` +
        `${workers.length > 0 ? `, + ${workers.join('/')} workers each` : ''}): ` +
        `${r.mismatches.length === 0 ? 'EXACT' : 'MISMATCH'}; ${r.pairFrames} pair-frames, ${r.touchingPairFrames} just-touching ` +
        `pair-frames in ${r.touchingFrames} frames (${r.exactTouchPairFrames} at exact zero gap, all required); ${r.seconds.toFixed(1)} s`,
    );
    for (const m of r.mismatches) console.log(`  ${m}`);
    failed ||= r.mismatches.length > 0;
  }
  process.exit(failed ? 1 : 0);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) main();
