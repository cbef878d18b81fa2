/**
 * Collisions in your own bitecs game: the game keeps its own Position / Velocity components and
 * the collision pipeline reads Position in place (no copying, no marking); the game reacts to the
 * begin events, asks bitecs for the entities tagged Touching, and reads one ball's contacts.
 *
 * Run: `npm run build && node --import tsx examples/collisions.ts`
 */
import { addComponent, addEntity, createWorld, hasComponent, query } from 'bitecs';
import { CONTACT_DEPTH, CONTACT_STRIDE } from 'bitecs-collide';
import { addCollider, contactsOf, createCollisionPipeline, markTransformChanged } from 'bitecs-collide/ecs';

// The game's own components: struct-of-arrays, bitecs style.
const MAX = 1024;
const Position = { x: new Float32Array(MAX), y: new Float32Array(MAX), z: new Float32Array(MAX) };
const Velocity = { x: new Float32Array(MAX), y: new Float32Array(MAX), z: new Float32Array(MAX) };

const world = createWorld();
// Poses come from Position (rotation and scale default to none and 1); Touching tags on.
const collision = createCollisionPipeline(world, { transform: { position: Position }, tags: true });
const Touching = collision.Touching!;

const WALL = 1, BALL = 2; // layers
const arena = 20;
for (const [x, z, hx, hz] of [[-arena, 0, 0.5, arena], [arena, 0, 0.5, arena], [0, -arena, arena, 0.5], [0, arena, arena, 0.5]]) {
  const wall = addEntity(world);
  addComponent(world, wall, Position);
  Position.x[wall] = x;
  Position.z[wall] = z;
  addCollider(world, wall, { shape: 'aabb', halfExtents: [hx, 2, hz], layer: WALL, mask: BALL, isStatic: true });
  markTransformChanged(world, wall); // statics are read when marked; dynamic colliders every step
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

const dt = 1 / 60;
const mine: number[] = [];
let begun = 0, ended = 0, wallHits = 0;
for (let frame = 0; frame < 300; frame++) {
  for (const e of query(world, [Position, Velocity])) {
    Position.x[e] += Velocity.x[e] * dt;
    Position.z[e] += Velocity.z[e] * dt;
  }
  collision.step(world);
  const { begin, end } = collision.events;
  begun += begin.count;
  ended += end.count;
  // A ball that starts touching a wall bounces off it.
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
    const touchingBalls = query(world, [Touching, Velocity]);
    let deepest = 0;
    if (touchingBalls.length > 0) {
      for (const i of contactsOf(world, touchingBalls[0], mine)) deepest = Math.max(deepest, collision.contacts.manifold[i * CONTACT_STRIDE + CONTACT_DEPTH]);
    }
    console.log(`t = ${((frame + 1) / 60).toFixed(0)} s: ${touchingBalls.length} balls touching something (deepest contact of the first: ${deepest.toFixed(3)}); so far ${begun} began, ${ended} ended, ${wallHits} wall hits`);
  }
}
if (begun === 0 || wallHits === 0) throw new Error('no collision happened');
