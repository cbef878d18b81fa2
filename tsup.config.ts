import { defineConfig } from 'tsup';

export default defineConfig({
  entry: { index: 'src/index.ts', ecs: 'systems/index.ts', gltf: 'gltf/index.ts', advanced: 'src/advanced.ts' },
  // ESM only: the entries share chunks, so each class exists once (`instanceof CollideInputError`
  // holds across entries), and the package is half the size of a dual build. CommonJS code loads
  // it with require() on Node 20.19 and newer (require of ES modules), and bundlers take ESM.
  format: ['esm'],
  splitting: true,
  dts: true,
  clean: true,
  sourcemap: true,
  // Maps point at the sources; embedding them would triple the package for nothing.
  esbuildOptions(options) {
    options.sourcesContent = false;
  },
  target: 'es2022',
  platform: 'neutral',
  external: ['bitecs', 'gl-matrix', '@gltf-transform/core'],
});
