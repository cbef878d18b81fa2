import { readFile } from 'node:fs/promises';
import { defineConfig } from 'tsup';

/**
 * Kernels keep their scratch arrays at module level (`const scratch = new Float64Array(9)`), so
 * hot paths never allocate. A bundler cannot tell that such a `new` (or a `create…()` call) has no
 * side effects, and would keep every module the entry file holds, with the classes and functions
 * those allocations reach. Marking them pure in the output (the package already declares
 * `sideEffects: false`) lets a program's bundle drop the modules it does not use: typed-array
 * allocations anywhere, and module-level `new` and `create…()` initialisers.
 */
const PURE = '/* @__PURE__ */ ';
const MODULE_LEVEL_INITIALISER = /^((?:export )?(?:const|let) [A-Za-z0-9_$]+(?:: [^=\n]+)? = )(?=new |create[A-Z]\w*\()/gm;
const TYPED_ARRAY_NEW = /(?<!@__PURE__ \*\/ )\bnew (?=(?:Float64|Float32|Int32|Uint32|Int16|Uint16|Int8|Uint8)Array\()/g;
const pureAllocations = {
  name: 'pure-allocations',
  setup(build: { onLoad(options: { filter: RegExp }, callback: (args: { path: string }) => Promise<{ contents: string; loader: 'ts' }>): void }) {
    build.onLoad({ filter: /\/(src|systems|components|gltf)\/.*\.ts$/ }, async ({ path }) => {
      const contents = (await readFile(path, 'utf8')).replace(MODULE_LEVEL_INITIALISER, `$1${PURE}`).replace(TYPED_ARRAY_NEW, `${PURE}new `);
      return { contents, loader: 'ts' };
    });
  },
};

export default defineConfig({
  // worker: the pool's worker thread script, loaded by URL next to the chunk that starts it.
  entry: { index: 'src/index.ts', ecs: 'systems/index.ts', gltf: 'gltf/index.ts', advanced: 'src/advanced.ts', worker: 'systems/parallel/worker.ts' },
  // ESM only: the entries share chunks, so each class exists once (`instanceof CollideInputError`
  // holds across entries), and the package is half the size of a dual build. CommonJS code loads
  // it with require() on Node 20.19 and newer (require of ES modules), and bundlers take ESM.
  format: ['esm'],
  splitting: true,
  dts: true,
  clean: true,
  // No source maps: the output is not minified, so stack traces already name our functions and
  // read as the source, and maps would point at sources the package does not ship.
  sourcemap: false,
  esbuildPlugins: [pureAllocations],
  target: 'es2022',
  platform: 'neutral',
  external: ['bitecs', 'gl-matrix', '@gltf-transform/core'],
});
