/**
 * Hit detection on an animated character: the Fox (a skinned glTF) walks in place while shots
 * are fired at it from around; every hit is reported with the bone's name and its hit group.
 *
 * Run: `npm run build && node --import tsx examples/characterHits.ts`
 */
import { NodeIO } from '@gltf-transform/core';
import { addEntity, createWorld } from 'bitecs';
import {
  HIT_GROUP_NAMES, addCharacter, addCharacterHitboxes, createCharacterRayGrid, createHitboxRayHit,
  createHitboxStore, createSkeletonStore, raycastHitboxes,
} from 'bitecs-collide';
import { addCollider, createCollisionPipeline } from 'bitecs-collide/ecs';
import { loadGltfCharacter, sampleGltfAnimation } from 'bitecs-collide/gltf';

const doc = await new NodeIO().read(new URL('../scenes/assets/Fox.glb', import.meta.url).pathname);
const fox = loadGltfCharacter(doc); // skeleton, skin, one fitted box per bone, animations
const walk = fox.animations.find((a) => a.name === 'Walk') ?? fox.animations[0];

const world = createWorld();
const skeletons = createSkeletonStore();
const hitboxes = createHitboxStore();
const rayGrid = createCharacterRayGrid();
const collision = createCollisionPipeline(world, { characters: { skeletons, hitboxes, rayGrid } });

const entity = addEntity(world);
const character = addCharacter(skeletons, fox.skeleton, entity);
addCharacterHitboxes(hitboxes, skeletons, character, fox.hitboxes);
addCollider(world, entity, { shape: 'character', character });
// Where the character stands: its root matrix (column-major), here the glTF root at the origin.
skeletons.characterMatrix.set(fox.rootMatrix, 16 * character);

const hit = createHitboxRayHit();
const byGroup = new Map<string, number>();
let shots = 0, hits = 0;
for (let frame = 0; frame < 120; frame++) {
  const t = frame / 60;
  sampleGltfAnimation(walk, t % walk.duration, skeletons.translation, skeletons.rotation, skeletons.scale, skeletons.firstBone[character]);
  collision.step(world); // bone matrices, hitboxes, ray grid, then broad and narrow phase
  // Aim at a random point of the character's box from 300 units away.
  const box = hitboxes.characterAabb;
  const tx = (box[0] + box[3]) / 2, ty = box[1] + (box[4] - box[1]) * ((frame * 0.37) % 1), tz = (box[2] + box[5]) / 2;
  const angle = frame * 2.4;
  const ox = tx + 300 * Math.cos(angle), oy = ty, oz = tz + 300 * Math.sin(angle);
  shots++;
  if (raycastHitboxes(hit, hitboxes, rayGrid, ox, oy, oz, tx - ox, ty - oy, tz - oz, 2)) {
    hits++;
    const bone = fox.skeleton.names[hit.bone - skeletons.firstBone[hit.character]];
    const group = HIT_GROUP_NAMES[hit.group];
    byGroup.set(group, (byGroup.get(group) ?? 0) + 1);
    if (hits <= 8) console.log(`frame ${frame}: hit ${bone} (${group}) at distance ${hit.distance.toFixed(1)}`);
  }
}
console.log(`${hits} of ${shots} shots hit; by hit group: ${[...byGroup].map(([g, n]) => `${g} ${n}`).join(', ')}`);
if (hits === 0) throw new Error('no shot hit the character');
