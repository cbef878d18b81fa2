import { addEntity, createWorld, type World } from 'bitecs';
import { addCollider, setTransform } from '../../systems/colliderApi';
import { createCollisionPipeline } from '../../systems/pipeline';
import type { CollisionPipeline } from '../../systems/collisionState';
import { randomQuaternion } from '../../scenes/random';

/**
 * A stepped pipeline over a sparse scene of the four primitive kinds (400 colliders, sphere, OBB,
 * AABB and capsule in turn, placed and turned by `rand` in a 30-unit cube): where a query meets
 * about one exact test, for the allocation tests of the world queries.
 */
export function primitiveScene(rand: () => number): { world: World; p: CollisionPipeline } {
  const world = createWorld();
  const p = createCollisionPipeline(world);
  const shapes = [
    { shape: 'sphere', radius: 1 },
    { shape: 'obb', halfExtents: [1, 0.6, 0.8] },
    { shape: 'aabb', halfExtents: [0.7, 1, 0.5] },
    { shape: 'capsule', radius: 0.4, p0: [0, -0.8, 0], p1: [0, 0.8, 0] },
  ] as const;
  for (let i = 0; i < 400; i++) {
    const e = addEntity(world);
    addCollider(world, e, shapes[i % 4] as never);
    setTransform(world, e, [30 * rand(), 30 * rand(), 30 * rand()], randomQuaternion(rand));
  }
  p.step(world);
  return { world, p };
}
