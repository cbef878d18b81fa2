/**
 * Crowd sensing on every core: 2,000 agents walk a walled courtyard with pillars; each step, every
 * agent looks ahead (a ray), checks the space it is about to move through (a sphere cast) and
 * counts its neighbours (an overlap query): thousands of world queries a frame, given to the
 * collision pipeline as three batches that its worker threads share. Each answer is the one the
 * single query (raycastColliders, castShapeColliders, overlapColliders) gives.
 *
 * Run: `npm run build && node --import tsx examples/crowdSensing.ts`
 */
import { addEntity, createWorld } from 'bitecs';
import { createColliderHits, createOverlapHits, createRayBatch, createShapeQuery, createShapeQueryBatch, setShapeCast, setShapeQueryAt, setSphereQuery } from 'bitecs-collide';
import {
  addCollider, castShapeCollidersBatch, createCollisionPipeline, createWorkerPool, overlapCollidersBatch, raycastCollidersBatch, setPosition,
} from 'bitecs-collide/ecs';

const AGENTS = 2000;
const SIDE = 200; // the courtyard, metres
const RADIUS = 0.4; // an agent
const SIGHT = 15; // how far an agent looks ahead, metres
const HEARING = 4; // the neighbourhood an agent counts, metres
const STEP = 1 / 30; // seconds per step
const AGENT = 1, WALL = 2; // collision layers

const world = createWorld();
const workers = createWorkerPool('auto'); // one thread per further core
const collision = createCollisionPipeline(world, { workers });
await workers.ready;
const shared = collision.workers > 0; // batches on SharedArrayBuffers, for the threads to read

// Walls around the courtyard and a grid of pillars: static colliders.
for (const [x, z, hx, hz] of [[SIDE / 2, -1, SIDE / 2, 1], [SIDE / 2, SIDE + 1, SIDE / 2, 1], [-1, SIDE / 2, 1, SIDE / 2], [SIDE + 1, SIDE / 2, 1, SIDE / 2]]) {
  const wall = addEntity(world);
  addCollider(world, wall, { shape: 'aabb', halfExtents: [hx, 3, hz], isStatic: true, layer: WALL });
  setPosition(world, wall, x, 3, z);
}
for (let x = 20; x < SIDE; x += 20) {
  for (let z = 20; z < SIDE; z += 20) {
    const pillar = addEntity(world);
    addCollider(world, pillar, { shape: 'capsule', p0: [0, -3, 0], p1: [0, 3, 0], radius: 1.5, isStatic: true, layer: WALL });
    setPosition(world, pillar, x, 3, z);
  }
}

// Agents: spheres at head height, each walking its own way.
let seed = 7;
const random = () => ((seed = (seed * 16807) % 2147483647) - 1) / 2147483646;
const agents = new Int32Array(AGENTS);
const position = new Float64Array(3 * AGENTS);
const heading = new Float64Array(2 * AGENTS);
for (let i = 0; i < AGENTS; i++) {
  agents[i] = addEntity(world);
  addCollider(world, agents[i], { shape: 'sphere', radius: RADIUS, layer: AGENT, sensor: true });
  position.set([5 + (SIDE - 10) * random(), 1.7, 5 + (SIDE - 10) * random()], 3 * i);
  const a = 2 * Math.PI * random();
  heading.set([Math.cos(a), Math.sin(a)], 2 * i);
}

// The three batches and their answers, made once.
const sight = createRayBatch(AGENTS, shared), seen = createColliderHits(AGENTS, shared);
const moves = createShapeQueryBatch(AGENTS, shared), blocked = createColliderHits(AGENTS, shared);
const ears = createShapeQueryBatch(AGENTS, shared), heard = createOverlapHits(AGENTS, 16, shared);
const query = createShapeQuery();

let turns = 0, sawAgents = 0, crowded = 0;
const started = performance.now();
for (let frame = 0; frame < 60; frame++) {
  for (let i = 0; i < AGENTS; i++) setPosition(world, agents[i], position[3 * i], position[3 * i + 1], position[3 * i + 2]);
  collision.step(world);

  sight.count = moves.count = ears.count = AGENTS;
  for (let i = 0; i < AGENTS; i++) {
    const x = position[3 * i], y = position[3 * i + 1], z = position[3 * i + 2], hx = heading[2 * i], hz = heading[2 * i + 1];
    sight.origin.set([x, y, z], 3 * i);
    sight.direction.set([hx, 0, hz], 3 * i);
    sight.maxDistance[i] = SIGHT;
    sight.ignore[i] = agents[i]; // an agent's ray starts inside itself
    setShapeQueryAt(moves, i, setShapeCast(setSphereQuery(query, x, y, z, RADIUS), hx * 1.4 * STEP, 0, hz * 1.4 * STEP));
    moves.mask[i] = WALL; // agents may brush past each other, not through walls
    moves.ignore[i] = agents[i];
    setShapeQueryAt(ears, i, setSphereQuery(query, x, y, z, HEARING));
    ears.mask[i] = AGENT;
    ears.ignore[i] = agents[i];
  }
  raycastCollidersBatch(world, seen, sight);
  castShapeCollidersBatch(world, blocked, moves);
  overlapCollidersBatch(world, heard, ears);

  for (let i = 0; i < AGENTS; i++) {
    if (seen.entity[i] >= 0 && collision.collider.layer[seen.entity[i]] === AGENT) sawAgents++;
    if (heard.count[i] > 8) crowded++;
    // Blocked this step: stop short and turn away from the wall or pillar.
    const t = blocked.entity[i] >= 0 ? blocked.t[i] : 1;
    position[3 * i] += heading[2 * i] * 1.4 * STEP * t;
    position[3 * i + 2] += heading[2 * i + 1] * 1.4 * STEP * t;
    if (t < 1) {
      const n = blocked.normal.subarray(3 * i, 3 * i + 3); // from the wall towards the agent
      const d = heading[2 * i] * n[0] + heading[2 * i + 1] * n[2];
      heading[2 * i] -= 2 * d * n[0];
      heading[2 * i + 1] -= 2 * d * n[2];
      const l = Math.hypot(heading[2 * i], heading[2 * i + 1]) || 1;
      heading[2 * i] /= l;
      heading[2 * i + 1] /= l;
      turns++;
    }
  }
}
const ms = performance.now() - started;
console.log(`${AGENTS} agents, 60 steps on ${collision.workers + 1} thread(s): ${(3 * 60 * AGENTS).toLocaleString('en-US')} world queries in ${ms.toFixed(0)} ms (steps included)`);
console.log(`turned at walls and pillars ${turns} times; saw another agent ahead ${sawAgents} times; ${crowded} agent-steps with more than 8 neighbours`);
collision.destroy();
