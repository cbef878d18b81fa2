/**
 * Hit detection on an animated character: the Fox (a skinned glTF) walks in place while shots
 * are fired at it from around; every hit is reported with the bone's name and its hit group.
 *
 * Run: `npm run build && node --import tsx examples/characterHits.ts`
 */
import { NodeIO } from '@gltf-transform/core';
import { addEntity, createWorld } from 'bitecs';
import { createRayQuery, setRay } from 'bitecs-collide';
import { addCharacterCollider, createColliderRayHit, createCollisionPipeline, raycastColliders, setPosition } from 'bitecs-collide/ecs';
import { animateCharacter, loadGltfCharacter } from 'bitecs-collide/gltf';

const doc = await new NodeIO().read(new URL('../scenes/assets/Fox.glb', import.meta.url).pathname);
const fox = loadGltfCharacter(doc); // skeleton, skin, one fitted box per bone, animations
const walk = fox.animations.find((a) => a.name === 'Walk') ?? fox.animations[0];

const world = createWorld();
const collision = createCollisionPipeline(world);
const entity = addEntity(world);
addCharacterCollider(world, entity, fox); // placed by the entity's transform
setPosition(world, entity, 40, 0, -25);

const shot = createRayQuery({ maxDistance: 600 });
const hit = createColliderRayHit();
const byGroup = new Map<string, number>();
let shots = 0, hits = 0;
for (let frame = 0; frame < 120; frame++) {
  animateCharacter(world, entity, walk, (frame / 60) % walk.duration);
  collision.step(world); // places the character, updates its hitboxes, then broad and narrow phase
  // Aim at a point of the character's box from 300 units away, around it.
  const box = collision.characters!.hitboxes.characterAabb;
  const tx = (box[0] + box[3]) / 2, ty = box[1] + (box[4] - box[1]) * ((frame * 0.37) % 1), tz = (box[2] + box[5]) / 2;
  const angle = frame * 2.4;
  const ox = tx + 300 * Math.cos(angle), oz = tz + 300 * Math.sin(angle);
  setRay(shot, ox, ty, oz, tx - ox, 0, tz - oz);
  shots++;
  if (raycastColliders(world, hit, shot)) {
    hits++;
    byGroup.set(hit.groupName, (byGroup.get(hit.groupName) ?? 0) + 1);
    if (hits <= 8) console.log(`frame ${frame}: hit ${hit.boneName} (${hit.groupName}) at distance ${hit.distance.toFixed(1)}`);
  }
}
console.log(`${hits} of ${shots} shots hit; by hit group: ${[...byGroup].map(([g, n]) => `${g} ${n}`).join(', ')}`);
if (hits === 0) throw new Error('no shot hit the character');
