/**
 * Collisions in your own bitecs game: the game keeps its own Position / Velocity components; each
 * frame it moves the bodies, hands their poses to the collision pipeline and reacts to the
 * begin / end events (here: counts them and bounces balls that hit a wall).
 *
 * Run: `npm run build && node --import tsx examples/collisions.ts`
 */
import { addComponent, addEntity, createWorld, hasComponent, query } from 'bitecs';
import { addCollider, createCollisionPipeline, setTransform } from 'bitecs-collide/ecs';

// The game's own components: struct-of-arrays, bitecs style.
const MAX = 1024;
const Position = { x: new Float32Array(MAX), y: new Float32Array(MAX), z: new Float32Array(MAX) };
const Velocity = { x: new Float32Array(MAX), y: new Float32Array(MAX), z: new Float32Array(MAX) };

const world = createWorld();
const collision = createCollisionPipeline(world);

const WALL = 1, BALL = 2; // layers
const arena = 20;
for (const [x, z, hx, hz] of [[-arena, 0, 0.5, arena], [arena, 0, 0.5, arena], [0, -arena, arena, 0.5], [0, arena, arena, 0.5]]) {
  const wall = addEntity(world);
  addCollider(world, wall, { shape: 'aabb', halfExtents: [hx, 2, hz], layer: WALL, mask: BALL, isStatic: true });
  setTransform(world, wall, [x, 0, z]);
}

let seed = 1;
const random = () => ((seed = (seed * 16807) % 2147483647) / 2147483647);
for (let i = 0; i < 200; i++) {
  const ball = addEntity(world);
  addComponent(world, ball, Position);
  addComponent(world, ball, Velocity);
  Position.x[ball] = (random() - 0.5) * 30;
  Position.z[ball] = (random() - 0.5) * 30;
  Velocity.x[ball] = (random() - 0.5) * 20;
  Velocity.z[ball] = (random() - 0.5) * 20;
  addCollider(world, ball, { shape: 'sphere', radius: 0.5, layer: BALL, mask: WALL | BALL });
}

const position = new Float64Array(3);
const dt = 1 / 60;
let begun = 0, ended = 0, wallHits = 0;
for (let frame = 0; frame < 300; frame++) {
  for (const e of query(world, [Position, Velocity])) {
    Position.x[e] += Velocity.x[e] * dt;
    Position.z[e] += Velocity.z[e] * dt;
    position[0] = Position.x[e];
    position[1] = Position.y[e];
    position[2] = Position.z[e];
    setTransform(world, e, position);
  }
  collision.step(world);
  const { begin, end } = collision.events;
  begun += begin.count;
  ended += end.count;
  // A ball that starts touching a wall bounces off it, along the contact normal's axis.
  const contacts = collision.contacts;
  for (let i = 0; i < begin.count; i++) {
    const a = begin.a[i], b = begin.b[i];
    const aMoves = hasComponent(world, a, Velocity), bMoves = hasComponent(world, b, Velocity);
    if (aMoves === bMoves) continue; // two balls
    const ball = aMoves ? a : b;
    wallHits++;
    if (Math.abs(Position.x[ball]) > arena - 2) Velocity.x[ball] = -Velocity.x[ball];
    if (Math.abs(Position.z[ball]) > arena - 2) Velocity.z[ball] = -Velocity.z[ball];
  }
  if (frame % 60 === 59) {
    console.log(`t = ${((frame + 1) / 60).toFixed(0)} s: ${collision.touchingPairs.count} pairs touching, ${contacts.count} contacts; so far ${begun} began, ${ended} ended, ${wallHits} wall hits`);
  }
}
if (begun === 0) throw new Error('no collision happened');
