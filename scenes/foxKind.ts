/**
 * The Fox (scenes/assets/Fox.glb; CC0 model by PixelMannen, CC-BY 4.0 rigging and animation by
 * @tomkranis, glTF by @AsoboStudio and @scurest) as a demo character kind, playing its Walk
 * animation. Takes a @gltf-transform document, so Node (NodeIO) and the browser (WebIO) share it.
 */
import type { Document } from '@gltf-transform/core';
import { loadGltfCharacter, sampleGltfAnimation } from '../gltf/index';
import type { CharacterKind } from './demo';

/** The Fox is modelled in centimetre-like units (about 155 long): this makes it about 7.7 long. */
const FOX_SCALE = 0.05;

/** The Fox of `doc` as a character kind (Walk animation, looped). */
export function foxKind(doc: Document): CharacterKind {
  const fox = loadGltfCharacter(doc);
  const walk = fox.animations.find((a) => a.name === 'Walk') ?? fox.animations[0];
  // base = scale · rootMatrix (column-major product with a uniform scale: scale the first three rows).
  const base = Float64Array.from(fox.rootMatrix);
  for (let col = 0; col < 4; col++) for (let row = 0; row < 3; row++) base[4 * col + row] *= FOX_SCALE;
  return {
    name: 'Fox',
    skeleton: fox.skeleton,
    hitboxes: fox.hitboxes,
    base,
    animate(t, store, firstBone) {
      if (walk) sampleGltfAnimation(walk, t % walk.duration, store.translation, store.rotation, store.scale, firstBone);
    },
  };
}
