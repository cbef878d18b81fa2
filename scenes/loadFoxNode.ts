/** The Fox character kind read from scenes/assets/Fox.glb with NodeIO (Node only). */
import { NodeIO } from '@gltf-transform/core';
import { foxKind } from './foxKind';
import type { CharacterKind } from './demo';
import { FOX_PATH } from './meshes';

/** Reads the Fox and returns it as a character kind. */
export async function loadFoxNode(): Promise<CharacterKind> {
  return foxKind(await new NodeIO().read(FOX_PATH));
}
