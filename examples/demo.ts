/**
 * `npm start`: a headless scene of moving boxes, spheres and capsules in a user-created bitecs
 * world; prints, per simulated second (60 frames), the pairs that began and ended touching.
 */
import { addEntity, createWorld } from 'bitecs';
import { addCollider, setTransform } from '../systems/colliderApi';
import { createCollisionPipeline } from '../systems/pipeline';
import { advanceScene, createScene } from '../bench/scene';

const COUNT = 300;
const world = createWorld();
const pipeline = createCollisionPipeline(world, { broadPhase: 'sap' });
const scene = createScene(COUNT, 40, 7);
const ids: number[] = [];
for (let i = 0; i < COUNT; i++) {
  const eid = addEntity(world);
  ids.push(eid);
  const h = [scene.half[3 * i], scene.half[3 * i + 1], scene.half[3 * i + 2]];
  if (i % 3 === 0) addCollider(world, eid, { shape: 'obb', halfExtents: h });
  else if (i % 3 === 1) addCollider(world, eid, { shape: 'sphere', radius: h[0] });
  else addCollider(world, eid, { shape: 'capsule', p0: [0, -h[1], 0], p1: [0, h[1], 0], radius: 0.5 * h[0] });
}
const kinds = ['box', 'sphere', 'capsule'];
const label = (eid: number) => `${kinds[ids.indexOf(eid) % 3]}#${eid}`;
for (let second = 1; second <= 5; second++) {
  let began: string[] = [], ended: string[] = [];
  const t0 = performance.now();
  for (let frame = 0; frame < 60; frame++) {
    advanceScene(scene);
    for (let i = 0; i < COUNT; i++) {
      setTransform(world, ids[i], scene.position.subarray(3 * i, 3 * i + 3), scene.rotation.subarray(4 * i, 4 * i + 4));
    }
    pipeline.step(world);
    const { begin, end } = pipeline.events;
    for (let k = 0; k < begin.count; k++) began.push(`${label(begin.a(k))}-${label(begin.b(k))}`);
    for (let k = 0; k < end.count; k++) ended.push(`${label(end.a(k))}-${label(end.b(k))}`);
  }
  const ms = (performance.now() - t0) / 60;
  console.log(`second ${second}: ${began.length} began, ${ended.length} ended, ${pipeline.touchingPairs.count} touching now, ${ms.toFixed(2)} ms/frame`);
  console.log(`  began: ${began.slice(0, 8).join(', ')}${began.length > 8 ? ', ...' : ''}`);
  console.log(`  ended: ${ended.slice(0, 8).join(', ')}${ended.length > 8 ? ', ...' : ''}`);
}
