/**
 * `npm run debug`: serves the debug view (debug/index.html) on localhost. The page imports the
 * library sources and the Fox fixture from the repository, so the server may read the whole
 * project. `base: './'` keeps a build (the e2e test's) servable from any directory.
 */
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';

const root = fileURLToPath(new URL('.', import.meta.url));

export default defineConfig({
  root,
  base: './',
  server: { host: 'localhost', fs: { allow: [fileURLToPath(new URL('..', import.meta.url))] } },
  build: { outDir: fileURLToPath(new URL('../scratch/debug-dist', import.meta.url)), emptyOutDir: true, chunkSizeWarningLimit: 2000 },
});
