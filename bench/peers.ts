/**
 * The peers run the benchmark scene their own idiomatic way, so the comparison is with what a user
 * of that engine would write:
 * - Rapier, its SIMD build (`@dimforge/rapier3d-simd-compat`, the fastest Rapier for JavaScript):
 *   kinematic position-based bodies with sensor cuboids, poses set with setTranslation /
 *   setRotation, current pairs kept from collision events.
 * - cannon-es: kinematic bodies with Box shapes, SAPBroadphase, pairs kept from beginContact /
 *   endContact events (kinematic-kinematic pairs are overlap-tested, not resolved).
 * A runner's `frame()` writes the scene's current poses, steps the engine and returns the number of
 * overlapping pairs.
 */
import RAPIER from '@dimforge/rapier3d-simd-compat';
import * as CANNON from 'cannon-es';
import type { Scene } from '../scenes/movingBoxes';

export interface SceneRunner {
  readonly name: string;
  frame(): number;
  /** Current pairs as sorted "i,j" box-index keys (i < j), for agreement checks. */
  pairKeys(): string[];
  dispose(): void;
}

function pairKey(i: number, j: number): number {
  return i < j ? i * 0x1000000 + j : j * 0x1000000 + i;
}

function keysOf(pairs: Set<number>): string[] {
  return [...pairs].sort((a, b) => a - b).map((k) => `${Math.floor(k / 0x1000000)},${k % 0x1000000}`);
}

let rapierReady: Promise<void> | null = null;

export async function createRapierRunner(scene: Scene): Promise<SceneRunner> {
  rapierReady ??= RAPIER.init();
  await rapierReady;
  const world = new RAPIER.World({ x: 0, y: 0, z: 0 });
  const events = new RAPIER.EventQueue(true);
  const bodies: RAPIER.RigidBody[] = [];
  const indexOfCollider = new Map<number, number>();
  const { half, position: p, rotation: r } = scene;
  for (let i = 0; i < scene.count; i++) {
    const body = world.createRigidBody(
      RAPIER.RigidBodyDesc.kinematicPositionBased()
        .setTranslation(p[3 * i], p[3 * i + 1], p[3 * i + 2])
        .setRotation({ x: r[4 * i], y: r[4 * i + 1], z: r[4 * i + 2], w: r[4 * i + 3] }),
    );
    const collider = world.createCollider(
      RAPIER.ColliderDesc.cuboid(half[3 * i], half[3 * i + 1], half[3 * i + 2])
        .setSensor(true)
        .setActiveEvents(RAPIER.ActiveEvents.COLLISION_EVENTS)
        .setActiveCollisionTypes(RAPIER.ActiveCollisionTypes.KINEMATIC_KINEMATIC),
      body,
    );
    bodies.push(body);
    indexOfCollider.set(collider.handle, i);
  }
  const pairs = new Set<number>();
  // Reused pose objects: the API takes plain objects; allocating them per body would be unfair.
  const t = { x: 0, y: 0, z: 0 };
  const q = { x: 0, y: 0, z: 0, w: 1 };
  const onEvent = (h1: number, h2: number, started: boolean) => {
    const key = pairKey(indexOfCollider.get(h1)!, indexOfCollider.get(h2)!);
    if (started) pairs.add(key);
    else pairs.delete(key);
  };
  return {
    name: 'Rapier',
    frame() {
      for (let i = 0; i < scene.count; i++) {
        t.x = p[3 * i]; t.y = p[3 * i + 1]; t.z = p[3 * i + 2];
        q.x = r[4 * i]; q.y = r[4 * i + 1]; q.z = r[4 * i + 2]; q.w = r[4 * i + 3];
        bodies[i].setTranslation(t, true);
        bodies[i].setRotation(q, true);
      }
      world.step(events);
      events.drainCollisionEvents(onEvent);
      return pairs.size;
    },
    pairKeys: () => keysOf(pairs),
    dispose() {
      events.free();
      world.free();
    },
  };
}

export function createCannonRunner(scene: Scene): SceneRunner {
  const world = new CANNON.World({ gravity: new CANNON.Vec3(0, 0, 0) });
  world.broadphase = new CANNON.SAPBroadphase(world);
  const bodies: CANNON.Body[] = [];
  const indexOfBody = new Map<number, number>();
  const { half, position: p, rotation: r } = scene;
  for (let i = 0; i < scene.count; i++) {
    const body = new CANNON.Body({
      type: CANNON.Body.KINEMATIC,
      mass: 0,
      shape: new CANNON.Box(new CANNON.Vec3(half[3 * i], half[3 * i + 1], half[3 * i + 2])),
    });
    body.position.set(p[3 * i], p[3 * i + 1], p[3 * i + 2]);
    body.quaternion.set(r[4 * i], r[4 * i + 1], r[4 * i + 2], r[4 * i + 3]);
    world.addBody(body);
    bodies.push(body);
    indexOfBody.set(body.id, i);
  }
  const pairs = new Set<number>();
  world.addEventListener('beginContact', (e: { bodyA: CANNON.Body; bodyB: CANNON.Body }) => {
    pairs.add(pairKey(indexOfBody.get(e.bodyA.id)!, indexOfBody.get(e.bodyB.id)!));
  });
  world.addEventListener('endContact', (e: { bodyA: CANNON.Body; bodyB: CANNON.Body }) => {
    pairs.delete(pairKey(indexOfBody.get(e.bodyA.id)!, indexOfBody.get(e.bodyB.id)!));
  });
  return {
    name: 'cannon-es',
    frame() {
      for (let i = 0; i < scene.count; i++) {
        const b = bodies[i];
        b.position.set(p[3 * i], p[3 * i + 1], p[3 * i + 2]);
        b.quaternion.set(r[4 * i], r[4 * i + 1], r[4 * i + 2], r[4 * i + 3]);
        b.aabbNeedsUpdate = true;
      }
      world.step(1 / 60);
      return pairs.size;
    },
    pairKeys: () => keysOf(pairs),
    dispose() {},
  };
}
