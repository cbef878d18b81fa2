/**
 * Bone hitboxes: per-frame cost, for 1,000 animated 68-bone humanoids (55 hitboxes each), of
 * (a) the bone world matrices from local TRS (the skeleton step a renderer needs anyway), (b) the
 * hitbox update proper (world OBBs and character AABBs), (c) the ray grid rebuild and (d) that
 * rebuild plus 10,000 rays (nearest hit), (e) the same with 10,000 aimed shots between characters,
 * (f) the rays of (d) cut to 10 m (the cost follows the distance walked before the first hit),
 * (g) the rays of (d) as one batch (raycastHitboxesBatch) and (h) split between the calling thread
 * and one worker, (i) the character stage, (a) then (b), and (o) that stage split between the
 * threads by runs of characters (each its bone matrices and hitboxes), (j)-(m) lag compensation: the
 * rays of (g) at the present time next to the same rays each at a random time of a 64-frame
 * hitbox history of the crowd walking, the history's record per frame, the rays at times
 * between the two newest frames only, and (n) the rewound rays split between two threads,
 * next to the three.js way: CPU-skin every character's mesh (4,840 vertices, with three's
 * Vector3/Matrix4) and refit a THREE.Box3 each frame, then cast the rays against those boxes with
 * THREE.Ray.intersectBox (box-level hits only, so three's ray numbers are a lower bound of its
 * real cost, which would also test triangles).
 *
 * The crowd stands on a square of ~10 m² per character; poses are 16 pre-sampled frames of the
 * procedural walk, each character at its own phase, swapped in by array reference so animation
 * sampling stays out of the timings. Rays: half aimed from a random point at chest height at a
 * random character's chest (with jitter), half random horizontal directions, 100 m long.
 */
import { createRayQuery, setRay } from '../src/query/rayQuery';
import * as THREE from 'three';
import { addCharacterHitboxes, createHitboxStore } from '../src/character/hitboxStore';
import { buildCharacterRayGrid, createCharacterRayGrid } from '../src/character/rayGrid';
import { createHitboxRayHit, createHitboxRayHits, prepareHitboxRayBatch, raycastHitboxes, raycastHitboxesBatch } from '../src/character/hitboxRaycast';
import { createRayBatch } from '../src/query/rayQuery';
import { createHitboxHistory, recordHitboxHistory } from '../src/character/hitboxHistory';
import { prepareHitboxRayBatchAt, preparedRayFrames, raycastHitboxesBatchAt } from '../src/character/hitboxRaycast';
import { WorkerPool } from '../systems/parallel/pool';
import { createHitboxJobs } from '../systems/parallel/hitboxJobs';
import { fitBoneHitboxes } from '../src/character/hitboxFit';
import { updateHitboxes } from '../src/character/hitboxUpdate';
import { addCharacter, computeWorldMatrices, createSkeletonStore, defineSkeleton } from '../src/character/skeleton';
import { defineSkin } from '../src/character/skin';
import { updateBoneHitboxes, type BoneHitboxState } from '../systems/updateBoneHitboxes';
import { buildHumanoid } from '../scenes/humanoid';
import { mulberry32 } from '../scenes/random';
import { markdownTable, runInterleaved, type BenchResult } from './harness';
import type { BenchReport } from './harness';

const CHARACTERS = 1000;
const RAYS = 10000;
const POSE_FRAMES = 16;
const RAY_LENGTH = 100;
const SHORT_RAY_LENGTH = 10;
const AIMED_RANGE = 30;
const HISTORY_FRAMES = 64;
/** Steps per second of the recorded history (a 64-frame window is about a second). */
const TICK_RATE = 60;
/** Walking speed of the crowd while the history is recorded, m/s. */
const WALK_SPEED = 1.4;

export function run(): BenchReport {
  const humanoid = buildHumanoid();
  const def = defineSkeleton(humanoid.skeleton);
  const skin = defineSkin(def, humanoid.skin);
  const fitted = fitBoneHitboxes(def, skin);
  const rand = mulberry32(2024);
  // Shared stores (as with the pipeline's workers option), so the same stores serve one and two threads.
  const skeletons = createSkeletonStore(true);
  const hitboxes = createHitboxStore(true);
  const side = Math.sqrt(10 * CHARACTERS);
  for (let c = 0; c < CHARACTERS; c++) {
    addCharacter(skeletons, def, c);
    addCharacterHitboxes(hitboxes, skeletons, c, fitted);
    skeletons.characterMatrix[16 * c + 12] = rand() * side;
    skeletons.characterMatrix[16 * c + 14] = rand() * side;
  }
  const n = skeletons.boneCount;
  const bones = def.boneCount;
  // Pre-sampled pose frames for the whole crowd (each character at its own phase).
  const frames = Array.from({ length: POSE_FRAMES }, (_, f) => {
    const t = new Float64Array(3 * n), r = new Float64Array(4 * n), s = new Float64Array(3 * n);
    for (let c = 0; c < CHARACTERS; c++) {
      const phase = ((f / POSE_FRAMES + c * 0.618) % 1) * humanoid.duration;
      humanoid.animate(phase, t.subarray(3 * c * bones), r.subarray(4 * c * bones), s.subarray(3 * c * bones));
    }
    return { t, r, s };
  });
  let frame = 0;
  // Animation writing the poses into the store (untimed: each case that reads them sets one first).
  const setFrame = () => {
    const p = frames[frame++ % POSE_FRAMES];
    skeletons.translation.set(p.t);
    skeletons.rotation.set(p.r);
    skeletons.scale.set(p.s);
  };
  const state: BoneHitboxState = { skeletons, hitboxes, rayGrid: createCharacterRayGrid(1, true) };

  // Rays, fixed for the run.
  const rays = new Float64Array(6 * RAYS);
  for (let i = 0; i < RAYS; i++) {
    const ox = rand() * side, oy = 1.3, oz = rand() * side;
    let dx: number, dy: number, dz: number;
    if (i % 2 === 0) {
      const c = Math.floor(rand() * CHARACTERS);
      dx = skeletons.characterMatrix[16 * c + 12] + (rand() - 0.5) * 0.4 - ox;
      dy = 1.3 + (rand() - 0.5) * 0.4 - oy;
      dz = skeletons.characterMatrix[16 * c + 14] + (rand() - 0.5) * 0.4 - oz;
    } else {
      const a = rand() * 2 * Math.PI;
      dx = Math.cos(a);
      dy = (rand() - 0.5) * 0.1;
      dz = Math.sin(a);
    }
    const len = Math.hypot(dx, dy, dz);
    rays.set([ox, oy, oz, dx / len, dy / len, dz / len], 6 * i);
  }
  // Aimed shots: from 0.6 m in front of a shooter's head (1.6 m) at the chest of another character
  // within AIMED_RANGE, each ray 1 m longer than the distance, ignoring the shooter (origin, unit
  // direction, length, shooter).
  const aimed = new Float64Array(8 * RAYS);
  for (let i = 0; i < RAYS; i++) {
    const s = Math.floor(rand() * CHARACTERS);
    const sx = skeletons.characterMatrix[16 * s + 12], sz = skeletons.characterMatrix[16 * s + 14];
    let tx = sx, tz = sz;
    for (let tries = 0; tries < 50 && (Math.hypot(tx - sx, tz - sz) > AIMED_RANGE || (tx === sx && tz === sz)); tries++) {
      const c = Math.floor(rand() * CHARACTERS);
      tx = skeletons.characterMatrix[16 * c + 12];
      tz = skeletons.characterMatrix[16 * c + 14];
    }
    const h = Math.hypot(tx - sx, tz - sz) || 1;
    const ox = sx + (0.6 * (tx - sx)) / h, oy = 1.6, oz = sz + (0.6 * (tz - sz)) / h;
    const dx = tx - ox, dy = 1.3 - oy, dz = tz - oz;
    const len = Math.hypot(dx, dy, dz);
    aimed.set([ox, oy, oz, dx / len, dy / len, dz / len, len + 1, s], 8 * i);
  }
  // The rays of (d) as a batch, on shared arrays for the worker.
  const batch = createRayBatch(RAYS, true);
  const batchHits = createHitboxRayHits(RAYS, true);
  batch.count = RAYS;
  for (let i = 0; i < RAYS; i++) {
    batch.origin.set(rays.subarray(6 * i, 6 * i + 3), 3 * i);
    batch.direction.set(rays.subarray(6 * i + 3, 6 * i + 6), 3 * i);
    batch.maxDistance[i] = RAY_LENGTH;
  }
  const pool = new WorkerPool(1);
  const jobs = createHitboxJobs(pool);
  const castBatchTwoThreads = () => {
    prepareHitboxRayBatch(batchHits, hitboxes, batch, 'bench');
    return jobs.cast(batchHits, hitboxes, state.rayGrid!, batch);
  };
  const hit = createHitboxRayHit();
  const query = createRayQuery();
  // Directions are unit vectors: maxDistance is the ray length.
  const castAll = (length = RAY_LENGTH) => {
    let hits = 0;
    const grid = state.rayGrid!;
    for (let i = 0; i < RAYS; i++) {
      const o = 6 * i;
      setRay(query, rays[o], rays[o + 1], rays[o + 2], rays[o + 3], rays[o + 4], rays[o + 5]);
      query.maxDistance = length;
      query.ignore = -1;
      if (raycastHitboxes(hit, hitboxes, grid, query)) hits++;
    }
    return hits;
  };
  const castAimed = () => {
    let hits = 0;
    const grid = state.rayGrid!;
    for (let i = 0; i < RAYS; i++) {
      const o = 8 * i;
      setRay(query, aimed[o], aimed[o + 1], aimed[o + 2], aimed[o + 3], aimed[o + 4], aimed[o + 5]);
      query.maxDistance = aimed[o + 6];
      query.ignore = hitboxes.characterEntity[aimed[o + 7]]; // the shooter
      if (raycastHitboxes(hit, hitboxes, grid, query)) hits++;
    }
    return hits;
  };

  // three.js way: skin with three's math types, refit Box3, rays against boxes.
  const boneMatrices = Array.from({ length: bones }, () => new THREE.Matrix4());
  const inverseBind = Array.from({ length: bones }, (_, b) => new THREE.Matrix4().fromArray(def.inverseBind, 16 * b));
  const boxes3 = Array.from({ length: CHARACTERS }, () => new THREE.Box3());
  const p = new THREE.Vector3(), q = new THREE.Vector3(), acc = new THREE.Vector3();
  const threeSkinAndRefit = () => {
    let sum = 0;
    for (let c = 0; c < CHARACTERS; c++) {
      const first = skeletons.firstBone[c];
      for (let b = 0; b < bones; b++) boneMatrices[b].fromArray(skeletons.world, 16 * (first + b)).multiply(inverseBind[b]);
      const box = boxes3[c].makeEmpty();
      for (let v = 0; v < skin.vertexCount; v++) {
        p.fromArray(skin.positions, 3 * v);
        acc.set(0, 0, 0);
        for (let k = 0; k < 4; k++) {
          const w = skin.weights[4 * v + k];
          if (w === 0) continue;
          acc.addScaledVector(q.copy(p).applyMatrix4(boneMatrices[skin.bones[4 * v + k]]), w);
        }
        box.expandByPoint(acc);
      }
      sum += box.max.y;
    }
    return sum;
  };
  const ray3 = new THREE.Ray();
  const at = new THREE.Vector3();
  const threeRays = () => {
    let hits = 0;
    for (let i = 0; i < RAYS; i++) {
      const o = 6 * i;
      ray3.origin.set(rays[o], rays[o + 1], rays[o + 2]);
      ray3.direction.set(rays[o + 3], rays[o + 4], rays[o + 5]);
      let best = RAY_LENGTH;
      let found = false;
      for (let c = 0; c < CHARACTERS; c++) {
        if (ray3.intersectBox(boxes3[c], at) && at.distanceTo(ray3.origin) <= best) {
          best = at.distanceTo(ray3.origin);
          found = true;
        }
      }
      if (found) hits++;
    }
    return hits;
  };

  const grid = state.rayGrid!;
  const ours = runInterleaved([
    { name: '(a) computeWorldMatrices: bone world matrices from local TRS (animation step, a renderer needs it too)', ops: CHARACTERS, setup: setFrame, run: () => { computeWorldMatrices(skeletons); return skeletons.world[12]; } },
    { name: '(b) updateHitboxes: world OBBs + character AABBs (target: under 1 ms)', ops: CHARACTERS, run: () => { updateHitboxes(hitboxes, skeletons); return hitboxes.world[0]; } },
    { name: '(c) buildCharacterRayGrid alone', ops: CHARACTERS, run: () => { buildCharacterRayGrid(grid, hitboxes); return grid.cellItems[0]; } },
    { name: '(d) buildCharacterRayGrid + raycastHitboxes x 10,000 (target: under 3 ms)', ops: RAYS, run: () => { buildCharacterRayGrid(grid, hitboxes); return castAll(); } },
    { name: `(e) buildCharacterRayGrid + 10,000 aimed shots (shooter to a character <= ${AIMED_RANGE} m)`, ops: RAYS, run: () => { buildCharacterRayGrid(grid, hitboxes); return castAimed(); } },
    { name: `(f) buildCharacterRayGrid + the rays of (d) cut to ${SHORT_RAY_LENGTH} m`, ops: RAYS, run: () => { buildCharacterRayGrid(grid, hitboxes); return castAll(SHORT_RAY_LENGTH); } },
    { name: '(g) buildCharacterRayGrid + raycastHitboxesBatch of the 10,000 rays of (d), one thread (target: under 3 ms)', ops: RAYS, run: () => { buildCharacterRayGrid(grid, hitboxes); return raycastHitboxesBatch(batchHits, hitboxes, grid, batch); } },
    { name: '(h) the batch of (g) on two threads (calling thread + 1 worker) (target: under 3 ms)', ops: RAYS, run: () => { buildCharacterRayGrid(grid, hitboxes); return castBatchTwoThreads(); } },
    { name: '(i) (a) then (b) on one thread: the pipeline\'s character stage', ops: CHARACTERS, setup: setFrame, run: () => { computeWorldMatrices(skeletons); updateHitboxes(hitboxes, skeletons); return hitboxes.world[0]; } },
    { name: '(o) the stage of (i) on two threads (calling thread + 1 worker), each thread the matrices and hitboxes of the characters it claims', ops: CHARACTERS, setup: setFrame, run: () => { jobs.update(hitboxes, skeletons); return hitboxes.world[0]; } },
  ], { warmupSamples: 5, samples: 25 });
  // Lag compensation on a crowd that walks: a case set of its own, since the cases above rewrite the stores.
  const lag = lagCompensation();
  const lagResults = runInterleaved(lag.cases, { warmupSamples: 5, samples: 25 });
  pool.destroy();
  const [present, rewound, , rewoundNewest, rewoundTwoThreads] = lagResults;
  // three's way is two orders of magnitude slower: fewer samples, same run, interleaved with ours.
  setFrame();
  updateBoneHitboxes(state);
  const threeCases = runInterleaved([
    { name: 'three.js: CPU skin + Box3 refit', ops: CHARACTERS, run: threeSkinAndRefit },
    { name: 'three.js: Ray.intersectBox x 10,000 over Box3s', ops: RAYS, run: threeRays },
  ], { warmupSamples: 1, samples: 5 });
  const hitsOurs = castAll();
  const hitsThree = threeRays();
  const results: BenchResult[] = [...ours, ...lagResults, ...threeCases];
  const rows = results.map((r) => [r.name, r.medianMs.toFixed(3), r.p95Ms.toFixed(3)]);
  const ratio = (a: BenchResult, b: BenchResult) => (b.medianMs / a.medianMs).toFixed(0);
  const markdown = [
    `${CHARACTERS} humanoids x ${bones} bones (${fitted.count} hitboxes each), ${RAYS} rays of ${RAY_LENGTH} m; per frame, ms:`,
    '',
    markdownTable(['case', 'median ms', 'p95 ms'], rows),
    '',
    `Rays: origins at random points of the crowd square at chest height (1.3 m); half aimed at a random character's chest (±0.2 m jitter), half random near-horizontal directions; all ${RAY_LENGTH} m long, nearest hit kept. (e): from 0.6 m in front of a random character's head toward the chest of a character within ${AIMED_RANGE} m, 1 m longer than that distance, the shooter ignored. (f): the rays of (d), ${SHORT_RAY_LENGTH} m long. (d), (e) and (f) include the per-frame grid rebuild.`,
    '',
    `(g) gives every ray the hit raycastHitboxes gives it, (h) and (o) the results of one thread to the bit. Threads share the stores (SharedArrayBuffers); a batch and the character stage are split into chunks of rays or characters that the threads claim. The character stage on two threads (o) is ${(ours[8].medianMs / ours[9].medianMs).toFixed(2)}x faster than on one (i).`,
    '',
    `Lag compensation: the crowd walks at ${WALK_SPEED} m/s, each character its own way and turning, while ${HISTORY_FRAMES} frames at ${TICK_RATE} Hz are recorded (history memory ${(lag.bytes / CHARACTERS / HISTORY_FRAMES).toFixed(0)} bytes per character per frame, ${(lag.bytes / 2 ** 20).toFixed(0)} MB in all). (j) casts the rays of (g) at the newest frame, (k) each at its own random time of the window (target: within 1.3x of (j)): ${(rewound.medianMs / present.medianMs).toFixed(2)}x here; both hit ${lag.hits[0]} and ${lag.hits[1]} times. (l) is what the pipeline adds to a step with the history option. (m) casts the rays of (k) between the two newest frames only: ${(rewoundNewest.medianMs / present.medianMs).toFixed(2)}x of (j), the cost of rewinding itself; the rest of (k) is reading the memory of 64 frames (${(lag.bytes / 2 ** 20).toFixed(0)} MB) instead of one. (n) casts (k) split between two threads in runs of the rays sorted by frame (${(rewound.medianMs / rewoundTwoThreads.medianMs).toFixed(2)}x faster than (k)), with the hits of one thread to the bit.`,
    '',
    `Hitbox update (b) is ${ratio(ours[1], threeCases[0])}x faster than skinning + Box3 (both start from bone world matrices); rays with grid (d) ${ratio(ours[3], threeCases[1])}x faster than box-only three rays. Rays hitting: hitboxes ${hitsOurs}, three Box3 ${hitsThree} (boxes are looser).`,
  ].join('\n');
  return { name: 'hitboxes', markdown, data: { results, hitsOurs, hitsThree, hitboxesPerCharacter: fitted.count, bones, rewoundOverPresent: rewound.medianMs / present.medianMs, rewoundNewestOverPresent: rewoundNewest.medianMs / present.medianMs, rewoundTwoThreadsSpeedup: rewound.medianMs / rewoundTwoThreads.medianMs, historyBytesPerCharacterFrame: lag.bytes / CHARACTERS / HISTORY_FRAMES } };

  /**
   * Records HISTORY_FRAMES frames of the crowd walking (and turning) into a history; returns the
   * cases (j)-(n), the history's bytes and the hits of (j) and (k). The stores are left at the
   * newest frame, so (j) casts at the newest frame's boxes.
   */
  function lagCompensation() {
    // Shared, as a pipeline with workers keeps it: case (n) casts on two threads.
    const history = createHitboxHistory(HISTORY_FRAMES, true);
    const heading = Float64Array.from({ length: CHARACTERS }, () => rand() * 2 * Math.PI);
    const start = skeletons.characterMatrix.slice(0, 16 * CHARACTERS);
    const tick = 1 / TICK_RATE;
    for (let k = 0; k < HISTORY_FRAMES; k++) {
      setFrame();
      const m = skeletons.characterMatrix;
      for (let c = 0; c < CHARACTERS; c++) {
        const a = heading[c] + 0.5 * k * tick, o = 16 * c;
        m[o] = Math.cos(a); m[o + 2] = -Math.sin(a); m[o + 8] = Math.sin(a); m[o + 10] = Math.cos(a);
        m[o + 12] = start[o + 12] + WALK_SPEED * k * tick * Math.sin(a);
        m[o + 14] = start[o + 14] + WALK_SPEED * k * tick * Math.cos(a);
      }
      computeWorldMatrices(skeletons);
      updateHitboxes(hitboxes, skeletons);
      recordHitboxHistory(history, hitboxes, k * tick);
    }
    buildCharacterRayGrid(grid, hitboxes);
    const times = Float64Array.from({ length: RAYS }, () => rand() * (HISTORY_FRAMES - 1) * tick);
    // The same rays between the two newest frames: the cost of rewinding apart from that of reading 64 frames' memory.
    const newestTimes = Float64Array.from({ length: RAYS }, () => (HISTORY_FRAMES - 2 + rand()) * tick);
    // The record case writes its own two-frame history (a frame's cost does not depend on K).
    const recorder = createHitboxHistory(2);
    let recordTime = 0;
    // Every typed array of every frame, its ray grid's included.
    const arraysOf = (o: object) => Object.values(o).filter(ArrayBuffer.isView) as ArrayBufferView[];
    let bytes = history.time.byteLength;
    for (const f of history.slots) for (const a of [...arraysOf(f), ...arraysOf(f.grid)]) bytes += a.byteLength;
    const hits = [raycastHitboxesBatch(batchHits, hitboxes, grid, batch), raycastHitboxesBatchAt(batchHits, history, hitboxes, batch, times)];
    return {
      bytes,
      hits,
      cases: [
        { name: '(j) raycastHitboxesBatch of the rays of (g) at the present time (newest frame)', ops: RAYS, run: () => raycastHitboxesBatch(batchHits, hitboxes, grid, batch) },
        { name: `(k) raycastHitboxesBatchAt: the same rays, each at a random time of a ${HISTORY_FRAMES}-frame history (target: within 1.3x of (j))`, ops: RAYS, run: () => raycastHitboxesBatchAt(batchHits, history, hitboxes, batch, times) },
        { name: '(l) recordHitboxHistory: one frame of the history', ops: CHARACTERS, run: () => { recordHitboxHistory(recorder, hitboxes, recordTime++); return recorder.count; } },
        { name: '(m) raycastHitboxesBatchAt: the same rays, each at a random time between the two newest frames', ops: RAYS, run: () => raycastHitboxesBatchAt(batchHits, history, hitboxes, batch, newestTimes) },
        { name: '(n) the rays of (k) on two threads (calling thread + 1 worker)', ops: RAYS, run: () => jobs.castAt(batchHits, hitboxes, history, batch, times, prepareHitboxRayBatchAt(batchHits, history, hitboxes, batch, times, 'bench'), preparedRayFrames()) },
      ],
    };
  }
}
