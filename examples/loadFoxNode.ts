/** The Fox character kind read from test/fixtures/Fox.glb with NodeIO (Node only). */
import { NodeIO } from '@gltf-transform/core';
import { fileURLToPath } from 'node:url';
import { foxKind } from './foxKind';
import type { CharacterKind } from './demoScene';

/** Path of the Fox fixture. */
export const FOX_PATH = fileURLToPath(new URL('../test/fixtures/Fox.glb', import.meta.url));

/** Reads the Fox and returns it as a character kind. */
export async function loadFoxNode(): Promise<CharacterKind> {
  return foxKind(await new NodeIO().read(FOX_PATH));
}
