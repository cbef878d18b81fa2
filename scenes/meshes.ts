/**
 * Real meshes for tests and benchmarks, as flat xyz positions plus triangle indices.
 * Node-only (reads files), so it lives with the scenes, never in src/.
 */
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { NodeIO } from '@gltf-transform/core';
import { packageRoot } from './packageRoot';

export interface TestMesh {
  name: string;
  positions: Float64Array;
  vertexCount: number;
  indices: Uint32Array;
  triangleCount: number;
}

const require = createRequire(import.meta.url);

function fromCells(name: string, positions: number[][], cells: number[][]): TestMesh {
  return {
    name,
    positions: Float64Array.from(positions.flat()),
    vertexCount: positions.length,
    indices: Uint32Array.from(cells.flat()),
    triangleCount: cells.length,
  };
}

/** The Stanford bunny from the npm `bunny` package. */
export function loadBunny(): TestMesh {
  const b = require('bunny') as { positions: number[][]; cells: number[][] };
  return fromCells('bunny', b.positions, b.cells);
}

/** The Utah teapot from the npm `teapot` package. */
export function loadTeapot(): TestMesh {
  const t = require('teapot') as { positions: number[][]; cells: number[][] };
  return fromCells('teapot', t.positions, t.cells);
}

export const FOX_PATH = join(packageRoot(import.meta.url), 'scenes', 'assets', 'Fox.glb');

/** The Fox's bind-pose mesh (non-indexed triangles in the file; indices made explicit here). */
export async function loadFox(): Promise<TestMesh> {
  const doc = await new NodeIO().read(FOX_PATH);
  const prim = doc.getRoot().listMeshes()[0].listPrimitives()[0];
  const pos = prim.getAttribute('POSITION');
  if (!pos) throw new Error('Fox.glb has no POSITION attribute');
  const vertexCount = pos.getCount();
  const positions = new Float64Array(pos.getArray() as Float32Array);
  const idx = prim.getIndices();
  const indices = idx ? Uint32Array.from(idx.getArray() as ArrayLike<number>) : Uint32Array.from({ length: vertexCount }, (_, i) => i);
  return { name: 'fox', positions, vertexCount, indices, triangleCount: indices.length / 3 };
}
