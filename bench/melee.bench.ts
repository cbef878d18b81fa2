/**
 * Melee sweeps: per frame, 100 walking 68-bone humanoids (55 hitboxes each) and 1,000 sword
 * swings, each a blade 0.9 m long turning 90 to 180 degrees in one frame next to a random
 * character (so most swings reach someone). Measured: (a) the hitboxes' motion over the frame
 * (beginHitboxMotion + finishHitboxMotion: the start copy and the swept bounds), (b) 1,000
 * sweepHitboxes (first hit over all characters), (c) 1,000 sweepHitboxesAll, (d) the swings of (b)
 * as one batch (sweepCharactersBatch's loop) and (e) that batch split between the calling thread
 * and one worker (the same hits, checked to the bit); then the kernel alone
 * on the (weapon, hitbox) pairs that pass the culling: conservative advancement (obbSweep, as
 * shipped) against the swept-SAT alternative (the frame cut into N sub-steps, each an exact
 * translation time of impact, obbToi, with the rotation frozen at the sub-step's start and every
 * box grown by how far the turn and the size change can move its points over the sub-step),
 * with their misses and false hits against a reference sampling 2,048 times per frame.
 */
import { addCharacterHitboxes, createHitboxStore } from '../src/character/hitboxStore';
import { addCharacter, computeWorldMatrices, createSkeletonStore, defineSkeleton } from '../src/character/skeleton';
import { defineSkin } from '../src/character/skin';
import { fitBoneHitboxes } from '../src/character/hitboxFit';
import { updateHitboxes } from '../src/character/hitboxUpdate';
import { beginHitboxMotion, createHitboxMotion, finishHitboxMotion } from '../src/character/hitboxMotion';
import { createHitboxSweepHits, createSweepQuery, hitboxCandidate, prepareSweep, setSweepObb, sweepHitboxes, sweepHitboxesAll } from '../src/character/hitboxSweep';
import { createHitboxHit } from '../src/character/hitboxHit';
import { obbSweep, SWEEP_HIT_STRIDE } from '../src/query/sweep';
import { obbToi } from '../src/query/toi';
import { obbQuaternion, interpolateObb } from '../src/volumes/obb';
import { quaternionToMat3, slerpQuaternion } from '../src/rotation';
import { SWEEP_CONTACT_TOLERANCE } from '../src/tolerances';
import { referenceSeparation } from '../scenes/satReference';
import { buildHumanoid } from '../scenes/humanoid';
import { mulberry32, quaternionToAxes } from '../scenes/random';
import { amdahl, markdownTable, runInterleaved, type BenchReport } from './harness';
import { createSweepBatch, setSweepAt } from '../src/character/sweepBatch';
import { createHitboxRayHits } from '../src/character/hitboxRaycast';
import { sweepRange } from '../systems/characterSweep';
import { WorkerPool } from '../systems/parallel/pool';
import { createQueryJobs } from '../systems/parallel/queryJobs';

const CHARACTERS = 100;
const SWEEPS = 1000;
const POSE_FRAMES = 16;
const FPS = 30;
const REFERENCE_SAMPLES = 2048;
const REFERENCE_PAIRS = 400;

/** The swept-SAT alternative: `steps` sub-steps of obbToi with the turn frozen and the boxes grown by it. */
function createSubsteps(steps: number) {
  const q = new Float64Array(16);
  const boxes = new Float64Array(60); // A and B at the sub-step's start (grown), their velocities
  const v = new Float64Array(6);
  const turn = new Float64Array(4);
  /**
   * Box `which` (0: A, 1: B) at time s into boxes[15·which], grown by e: interpolateObb's motion
   * from the quaternions taken once per pair (interpolateObb would take them again at every
   * sub-step, which measured the alternative about 40% slower than it needs to be).
   */
  const pose = (which: number, b0: ArrayLike<number>, o0: number, b1: ArrayLike<number>, o1: number, s: number, e: number) => {
    slerpQuaternion(turn, 0, q, 8 * which, q, 8 * which + 4, s);
    const o = 15 * which;
    quaternionToMat3(boxes, o + 3, turn);
    for (let k = 0; k < 3; k++) {
      boxes[o + k] = b0[o0 + k] + s * (b1[o1 + k] - b0[o0 + k]);
      boxes[o + 12 + k] = b0[o0 + 12 + k] + s * (b1[o1 + 12 + k] - b0[o0 + 12 + k]) + e;
    }
  };
  /** How far a point of the box moves off the frozen-turn translation over a sub-step: |H|·2 sin(Δθ/2) + |ΔH|/steps. */
  const growth = (which: number, b0: ArrayLike<number>, o0: number, b1: ArrayLike<number>, o1: number) => {
    let dot = 0;
    for (let k = 0; k < 4; k++) dot += q[8 * which + k] * q[8 * which + 4 + k];
    const theta = 2 * Math.acos(Math.min(1, Math.abs(dot)));
    const h = Math.max(Math.hypot(b0[o0 + 12], b0[o0 + 13], b0[o0 + 14]), Math.hypot(b1[o1 + 12], b1[o1 + 13], b1[o1 + 14]));
    const dh = Math.hypot(b1[o1 + 12] - b0[o0 + 12], b1[o1 + 13] - b0[o0 + 13], b1[o1 + 14] - b0[o0 + 14]);
    return h * 2 * Math.sin(theta / (2 * steps)) + dh / steps;
  };
  return (a0: ArrayLike<number>, ao0: number, a1: ArrayLike<number>, ao1: number, b0: ArrayLike<number>, bo0: number, b1: ArrayLike<number>, bo1: number): number => {
    obbQuaternion(q, 0, a0, ao0);
    obbQuaternion(q, 4, a1, ao1);
    obbQuaternion(q, 8, b0, bo0);
    obbQuaternion(q, 12, b1, bo1);
    const ea = growth(0, a0, ao0, a1, ao1), eb = growth(1, b0, bo0, b1, bo1);
    for (let k = 0; k < 3; k++) {
      v[k] = (a1[ao1 + k] - a0[ao0 + k]) / steps;
      v[3 + k] = (b1[bo1 + k] - b0[bo0 + k]) / steps;
    }
    for (let i = 0; i < steps; i++) {
      const s = i / steps;
      pose(0, a0, ao0, a1, ao1, s, ea);
      pose(1, b0, bo0, b1, bo1, s, eb);
      const t = obbToi(boxes, 0, v, 0, boxes, 15, v, 3);
      if (t >= 0) return (i + t) / steps;
    }
    return -1;
  };
}

export function run(): BenchReport {
  const humanoid = buildHumanoid();
  const def = defineSkeleton(humanoid.skeleton);
  const fitted = fitBoneHitboxes(def, defineSkin(def, humanoid.skin));
  const rand = mulberry32(77);
  // Shared stores (as with the pipeline's workers option), so the same stores serve one and two threads.
  const skeletons = createSkeletonStore(true);
  const store = createHitboxStore(true);
  const side = Math.sqrt(10 * CHARACTERS);
  for (let c = 0; c < CHARACTERS; c++) {
    addCharacter(skeletons, def, c);
    addCharacterHitboxes(store, skeletons, c, fitted);
    skeletons.characterMatrix[16 * c + 12] = rand() * side;
    skeletons.characterMatrix[16 * c + 14] = rand() * side;
  }
  const n = skeletons.boneCount, bones = def.boneCount;
  // Pre-sampled walk poses 1/30 s apart, each character at its own phase.
  const frames = Array.from({ length: POSE_FRAMES }, (_, f) => {
    const t = new Float64Array(3 * n), r = new Float64Array(4 * n), s = new Float64Array(3 * n);
    for (let c = 0; c < CHARACTERS; c++) {
      const phase = (c * 0.618 * humanoid.duration + f / FPS) % humanoid.duration;
      humanoid.animate(phase, t.subarray(3 * c * bones), r.subarray(4 * c * bones), s.subarray(3 * c * bones));
    }
    return { t, r, s };
  });
  let frame = 0;
  const motion = createHitboxMotion(true);
  const advanceFrame = () => {
    beginHitboxMotion(motion, store);
    const p = frames[frame++ % POSE_FRAMES];
    skeletons.translation = p.t;
    skeletons.rotation = p.r;
    skeletons.scale = p.s;
    computeWorldMatrices(skeletons);
    updateHitboxes(store, skeletons);
    finishHitboxMotion(motion, store);
  };
  advanceFrame();
  advanceFrame();

  // Swings: a blade 0.9 m long (half-extents 0.45, 0.004, 0.02), its centre 0.6 m from a hand
  // 1 m from a random character at 1.2 m height, turning 90 to 180 degrees about the vertical.
  const swings = new Float64Array(30 * SWEEPS);
  for (let i = 0; i < SWEEPS; i++) {
    const c = Math.floor(rand() * CHARACTERS);
    const dir = rand() * 2 * Math.PI;
    const hx = skeletons.characterMatrix[16 * c + 12] + Math.cos(dir), hz = skeletons.characterMatrix[16 * c + 14] + Math.sin(dir);
    const a0 = dir + Math.PI - 0.5 * Math.PI - rand(), sweep = 0.5 * Math.PI * (1 + rand());
    for (let e = 0; e < 2; e++) {
      const a = a0 + e * sweep;
      const ux = Math.cos(a), uz = Math.sin(a);
      const axes = quaternionToAxes([0, Math.sin(-a / 2), 0, Math.cos(-a / 2)]);
      swings.set([hx + 0.6 * ux, 1.2 + (rand() - 0.5) * 0.4, hz + 0.6 * uz, ...axes, 0.45, 0.004, 0.02], 30 * i + 15 * e);
    }
  }
  const query = createSweepQuery();
  const rest = createHitboxMotion();
  const hit = createHitboxHit();
  const hits = createHitboxSweepHits(8);
  let hitCount = 0, allCount = 0;
  const batch = createSweepBatch(SWEEPS, true), batchHits = createHitboxRayHits(SWEEPS, true);
  batch.count = SWEEPS;
  for (let i = 0; i < SWEEPS; i++) setSweepAt(batch, i, setSweepObb(query, swings, 30 * i, swings, 30 * i + 15));
  batch.ignoreCharacter.fill(-1);
  const pool = new WorkerPool(1);
  const jobs = createQueryJobs(pool);
  // The batch on one thread and on two gives every swing the hit of (b), to the bit.
  for (const pooled of [false, true]) {
    if (!pooled) sweepRange(batchHits, store, motion, batch, 0, SWEEPS);
    else if (jobs.sweeps(batchHits, batch, store, motion) < 0) throw new Error('the batch did not run on the worker pool');
    for (let i = 0; i < SWEEPS; i++) {
      setSweepObb(query, swings, 30 * i, swings, 30 * i + 15);
      const found = sweepHitboxes(hit, store, motion, query);
      if ((found ? hit.hitbox : -1) !== batchHits.hitbox[i] || (found && !Object.is(hit.t, batchHits.t[i]))) throw new Error(`swing ${i}: the batch${pooled ? ' on two threads' : ''} disagrees with sweepHitboxes`);
    }
  }
  const results = runInterleaved([
    // On a motion of its own: begin + finish on the swept one would leave its characters at rest.
    { name: '(a) hitbox motion: begin + finish, 100 characters', ops: 1, run: () => { beginHitboxMotion(rest, store); finishHitboxMotion(rest, store); return rest.characterAabb[0]; } },
    {
      name: '(b) 1,000 sweepHitboxes (first hit)', ops: SWEEPS, run: () => {
        let sum = 0;
        hitCount = 0;
        for (let i = 0; i < SWEEPS; i++) {
          setSweepObb(query, swings, 30 * i, swings, 30 * i + 15);
          if (sweepHitboxes(hit, store, motion, query)) { sum += hit.t; hitCount++; }
        }
        return sum;
      },
    },
    {
      name: '(c) 1,000 sweepHitboxesAll (first hit per character)', ops: SWEEPS, run: () => {
        let sum = 0;
        allCount = 0;
        for (let i = 0; i < SWEEPS; i++) {
          setSweepObb(query, swings, 30 * i, swings, 30 * i + 15);
          const k = sweepHitboxesAll(hits, store, motion, query);
          allCount += k;
          sum += k;
        }
        return sum;
      },
    },
    { name: '(d) the swings of (b) as one batch, one thread', ops: SWEEPS, run: () => sweepRange(batchHits, store, motion, batch, 0, SWEEPS) },
    { name: '(e) the batch of (d) on two threads (calling thread + 1 worker)', ops: SWEEPS, run: () => jobs.sweeps(batchHits, batch, store, motion) },
  ], { warmupSamples: 5, samples: 30 });
  pool.destroy();

  // The kernel alone on the pairs that pass the culling of the frame.
  const pairs: number[] = [];
  for (let i = 0; i < SWEEPS; i++) {
    // The culling of sweepHitboxes.
    setSweepObb(query, swings, 30 * i, swings, 30 * i + 15);
    prepareSweep(store, motion, query, 'bench');
    for (let h = 0; h < store.count; h++) if (hitboxCandidate(motion, h)) pairs.push(i, h);
  }
  const pairCount = pairs.length / 2;
  const out = new Float64Array(SWEEP_HIT_STRIDE);
  const sub8 = createSubsteps(8), sub32 = createSubsteps(32);
  const kernels: [string, (i: number, h: number) => number][] = [
    ['conservative advancement (obbSweep)', (i, h) => obbSweep(out, 0, swings, 30 * i, swings, 30 * i + 15, motion.start, 15 * h, motion.end, 15 * h)],
    ['swept SAT, 8 sub-steps', (i, h) => sub8(swings, 30 * i, swings, 30 * i + 15, motion.start, 15 * h, motion.end, 15 * h)],
    ['swept SAT, 32 sub-steps', (i, h) => sub32(swings, 30 * i, swings, 30 * i + 15, motion.start, 15 * h, motion.end, 15 * h)],
  ];
  const kernelResults = runInterleaved(kernels.map(([name, f]) => ({
    name, ops: pairCount, run: () => {
      let sum = 0;
      for (let p = 0; p < pairs.length; p += 2) sum += f(pairs[p], pairs[p + 1]);
      return sum;
    },
  })), { warmupSamples: 3, samples: 15 });

  // Misses and false hits against the sampled reference, on a subset of the pairs.
  const a = new Float64Array(15), b = new Float64Array(15);
  const reference = (i: number, h: number) => {
    for (let s = 0; s <= REFERENCE_SAMPLES; s++) {
      interpolateObb(a, 0, swings, 30 * i, swings, 30 * i + 15, s / REFERENCE_SAMPLES);
      interpolateObb(b, 0, motion.start, 15 * h, motion.end, 15 * h, s / REFERENCE_SAMPLES);
      const gap = referenceSeparation(a, 0, b, 0).gap;
      if (gap <= 0) return { t: s / REFERENCE_SAMPLES, min: gap };
    }
    return { t: -1, min: 0 };
  };
  const gapAt = (i: number, h: number, t: number) => {
    interpolateObb(a, 0, swings, 30 * i, swings, 30 * i + 15, t);
    interpolateObb(b, 0, motion.start, 15 * h, motion.end, 15 * h, t);
    return referenceSeparation(a, 0, b, 0).gap;
  };
  const quality = kernels.map(() => ({ misses: 0, falseHits: 0, hits: 0 }));
  let referenceHits = 0, checked = 0;
  for (let p = 0; p < pairs.length && checked < REFERENCE_PAIRS; p += 2 * Math.max(1, Math.floor(pairCount / REFERENCE_PAIRS)), checked++) {
    const i = pairs[p], h = pairs[p + 1];
    const ref = reference(i, h);
    if (ref.t >= 0) referenceHits++;
    const size = Math.hypot(0.45, 0.004, 0.02) + Math.hypot(motion.start[15 * h + 12], motion.start[15 * h + 13], motion.start[15 * h + 14]);
    kernels.forEach(([, f], k) => {
      const t = f(i, h);
      if (t >= 0) quality[k].hits++;
      if (ref.t >= 0 && t < 0) quality[k].misses++;
      // A false hit: reported where the boxes are farther apart than the contact tolerance.
      if (t >= 0 && gapAt(i, h, t) > SWEEP_CONTACT_TOLERANCE * size) quality[k].falseHits++;
    });
  }

  const rows = results.map((r) => [r.name, r.medianMs.toFixed(3), r.p95Ms.toFixed(3)]);
  const batchOne = results[3].medianMs, batchTwo = results[4].medianMs, scaling = amdahl(batchOne, batchTwo);
  const kernelRows = kernelResults.map((r, k) => [r.name, ((r.medianMs * 1e6) / pairCount).toFixed(0), `${quality[k].misses} / ${referenceHits}`, `${quality[k].falseHits} / ${quality[k].hits}`]);
  const markdown = [
    `${CHARACTERS} characters × ${fitted.count} hitboxes, ${SWEEPS} swings per frame: ${hitCount} hit someone; ${allCount} character hits in all.`,
    '',
    markdownTable(['case', 'median ms', 'p95 ms'], rows),
    '',
    `Scaling model of the batch (Amdahl's law from (d) and (e): serial share s = 1 - 2(1 - t2/t1), then t1·(s + (1 - s)/n) on n cores; memory bandwidth ignored): serial share ${Math.round(100 * scaling.serial)}%; 1,000 sweeps predicted in ${scaling.at(4).toFixed(2)} ms on 4 cores, ${scaling.at(8).toFixed(2)} on 8, ${scaling.at(16).toFixed(2)} on 16.`,
    '',
    `Kernel alone on the ${pairCount} (swing, hitbox) pairs the culling leaves (${(pairCount / SWEEPS).toFixed(1)} per swing); misses and false hits on ${checked} of them against a reference sampling ${REFERENCE_SAMPLES} times:`,
    '',
    markdownTable(['kernel', 'ns per pair', 'misses / reference hits', 'false hits / hits'], kernelRows),
  ].join('\n');
  return { name: 'melee', markdown, data: { results, kernelResults, quality, pairCount, hitCount, allCount, referenceHits, checked } };
}
