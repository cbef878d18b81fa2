import { defineConfig } from 'tsup';

export default defineConfig({
  entry: { index: 'src/index.ts', ecs: 'systems/index.ts', gltf: 'gltf/index.ts' },
  format: ['esm', 'cjs'],
  // Shared code in chunks for CommonJS too, so the three entries share one copy of each class
  // (`instanceof CollideInputError` holds across them) and nothing ships twice.
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
