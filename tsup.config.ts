import { defineConfig } from 'tsup';

export default defineConfig({
  entry: { index: 'src/index.ts', ecs: 'systems/index.ts', gltf: 'gltf/index.ts' },
  format: ['esm', 'cjs'],
  dts: true,
  clean: true,
  sourcemap: true,
  target: 'es2022',
  platform: 'neutral',
  external: ['bitecs', 'gl-matrix', '@gltf-transform/core'],
});
