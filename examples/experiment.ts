/**
 * A data-oriented experiment: the same moving scene through every broad phase, timed frame by
 * frame, with the pair count of each as a check that they all find the same pairs.
 *
 * Run: `npm run build && node --import tsx examples/experiment.ts [bodies]`
 */
import { addEntity, createWorld } from 'bitecs';
import { BROAD_PHASE_NAMES, addCollider, createCollisionPipeline, resolveBroadPhase, setTransform } from 'bitecs-collide/ecs';

const count = Number(process.argv[2] ?? 2000);
const frames = 60;
const size = Math.cbrt(count) * 4;

// One scene: boxes of mixed sizes on straight paths that wrap around a cube.
let seed = 7;
const random = () => ((seed = (seed * 16807) % 2147483647) / 2147483647);
const start = Float64Array.from({ length: 3 * count }, () => random() * size);
const velocity = Float64Array.from({ length: 3 * count }, () => (random() - 0.5) * 0.5);
const half = Float64Array.from({ length: 3 * count }, () => 0.3 + random() * (random() < 0.05 ? 3 : 0.7));
const rotation = [0, 0, 0, 1];

const rows: string[][] = [];
for (const name of BROAD_PHASE_NAMES.filter((n) => n !== 'sweepAndPrune' && (n !== 'bruteForce' || count <= 3000))) {
  const world = createWorld();
  const collision = createCollisionPipeline(world, { broadPhase: resolveBroadPhase(name), timings: true });
  const ids = Array.from({ length: count }, (_, i) => {
    const e = addEntity(world);
    addCollider(world, e, { shape: 'obb', halfExtents: [half[3 * i], half[3 * i + 1], half[3 * i + 2]], sensor: true });
    return e;
  });
  const times: number[] = [];
  const broad: number[] = [];
  const position = new Float64Array(3);
  let pairs = 0;
  for (let frame = 0; frame < frames; frame++) {
    const t0 = performance.now();
    for (let i = 0; i < count; i++) {
      for (let k = 0; k < 3; k++) position[k] = (((start[3 * i + k] + frame * velocity[3 * i + k]) % size) + size) % size;
      setTransform(world, ids[i], position, rotation);
    }
    collision.step(world);
    times.push(performance.now() - t0);
    broad.push(collision.timings.broadPhase);
    pairs += collision.touchingPairs.count;
  }
  const median = (v: number[]) => v.slice().sort((a, b) => a - b)[v.length >> 1];
  rows.push([name, median(times).toFixed(2), median(broad).toFixed(2), String(pairs)]);
  collision.destroy();
}

console.log(`${count} boxes, ${frames} frames, medians in ms`);
console.log('| broad phase | frame | broad phase only | pairs over all frames |');
console.log('| --- | --- | --- | --- |');
for (const row of rows) console.log(`| ${row.join(' | ')} |`);
if (new Set(rows.map((r) => r[3])).size !== 1) throw new Error('the broad phases disagree on the pairs');
