/**
 * Lag compensation on a game server: foxes run across the map, the server steps at 60 Hz and
 * keeps the last 64 steps of their hitboxes; clients fire at what their screens showed, 100 ms
 * in the past, and the server checks each shot at the time it was fired. Checked against the
 * present instead, most of those shots would miss: a running fox has moved half its body since.
 *
 * Run: `npm run build && node --import tsx examples/lagCompensation.ts`
 */
import { NodeIO } from '@gltf-transform/core';
import { addEntity, createWorld } from 'bitecs';
import { createHitboxRayHit, createHitboxRayHits, createRayBatch, createRayQuery, setRay } from 'bitecs-collide';
import {
  addCharacterCollider, characterHitboxesAt, characterOf, createColliderRayHit, createCollisionPipeline,
  raycastCharactersAt, raycastCharactersBatchAt, raycastColliders, setPosition,
} from 'bitecs-collide/ecs';
import { animateCharacter, loadGltfCharacter } from 'bitecs-collide/gltf';

const TICK = 1 / 60; // seconds per server step
const FRAMES = 64; // steps of hitbox history kept: about a second at 60 Hz
const LATENCY = 0.1; // how far in the past a client's screen is, seconds
const SPEED = 600; // the foxes' running speed, model units (centimetres) per second

const doc = await new NodeIO().read(new URL('../scenes/assets/Fox.glb', import.meta.url).pathname);
const fox = loadGltfCharacter(doc);
const run = fox.animations.find((a) => a.name === 'Run') ?? fox.animations[0];

const world = createWorld();
const collision = createCollisionPipeline(world, { characters: { history: { frames: FRAMES } } });
const foxes = [0, 1, 2, 3, 4].map((k) => {
  const e = addEntity(world);
  addCharacterCollider(world, e, fox);
  return { entity: e, z: 400 * k, direction: k % 2 === 0 ? 1 : -1 };
});
const hitboxes = collision.characters!.hitboxes;
const pastBoxes = new Float64Array(15 * hitboxes.count); // the hitboxes at a past time, OBB layout by hitbox

const shot = createRayQuery({ maxDistance: 5000 });
const rewound = createHitboxRayHit();
const now = createColliderRayHit();
let shots = 0, hitThen = 0, hitNow = 0;
for (let tick = 0; tick < 180; tick++) {
  const time = tick * TICK;
  for (const f of foxes) {
    setPosition(world, f.entity, f.direction * (SPEED * time - 500), 0, f.z);
    animateCharacter(world, f.entity, run, time % run.duration);
  }
  collision.step(world, time); // the step's time goes into the history with its hitboxes

  // Every 10th step a client fires at a fox as its screen showed it LATENCY ago: straight down
  // onto the centre of one of the fox's hitboxes at that time.
  const firedAt = time - LATENCY;
  if (tick % 10 !== 0 || firedAt < collision.hitboxHistory!.oldestTime) continue;
  const target = foxes[(tick / 10) % foxes.length];
  characterHitboxesAt(world, pastBoxes, firedAt, target.entity);
  const c = characterOf(world, target.entity);
  const h = hitboxes.firstHitbox[c] + (tick % hitboxes.hitboxCount[c]);
  setRay(shot, pastBoxes[15 * h], 1000, pastBoxes[15 * h + 2], 0, -1, 0);
  shots++;
  const then = raycastCharactersAt(world, rewound, shot, firedAt);
  const present = raycastColliders(world, now, shot);
  if (then && rewound.entity === target.entity) hitThen++;
  if (present && now.entity === target.entity) hitNow++;
  console.log(
    `t=${time.toFixed(3)} s: shot fired at ${firedAt.toFixed(3)} s at fox ${target.entity}: ` +
      `${then ? `${rewound.boneName} (${rewound.groupName}) of fox ${rewound.entity} then` : 'missed then'}, ` +
      `${present ? `${now.boneName} of entity ${now.entity} now` : 'nothing now'}`,
  );
}
console.log(`${shots} shots: ${hitThen} hit their fox at the time they were fired, ${hitNow} would hit it now`);

// Many clients at once: one batch, each shot at its own client's time (50, 100 and 150 ms ago).
const latencies = [0.05, 0.1, 0.15];
const rays = createRayBatch(foxes.length * latencies.length);
const hits = createHitboxRayHits(foxes.length * latencies.length);
rays.count = foxes.length * latencies.length;
const times = new Float64Array(rays.count);
const latest = collision.hitboxHistory!.newestTime;
foxes.forEach((f, i) => latencies.forEach((latency, j) => {
  const r = i * latencies.length + j;
  times[r] = latest - latency;
  characterHitboxesAt(world, pastBoxes, times[r], f.entity);
  const torso = hitboxes.firstHitbox[characterOf(world, f.entity)]; // the root bone's box
  rays.origin.set([pastBoxes[15 * torso], 1000, pastBoxes[15 * torso + 2]], 3 * r);
  rays.direction.set([0, -1, 0], 3 * r);
}));
const batchHits = raycastCharactersBatchAt(world, hits, rays, times);
console.log(`batch of ${rays.count} shots at their clients' times: ${batchHits} hit`);
if (hitThen !== shots || batchHits !== rays.count) throw new Error('a rewound shot missed the fox it was aimed at');
