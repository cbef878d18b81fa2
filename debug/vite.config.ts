/**
 * `npm run debug`: serves the debug view (debug/index.html) on localhost. The page imports the
 * library sources and the Fox fixture from the repository, so the server may read the whole
 * project. `base: './'` keeps a build (the e2e test's) servable from any directory. The dev
 * server and `vite preview` send the COOP and COEP headers that make the page cross-origin
 * isolated: without them a browser gives it no SharedArrayBuffer, and so no worker threads.
 */
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';

const root = fileURLToPath(new URL('.', import.meta.url));

/** The headers a page needs for SharedArrayBuffer (crossOriginIsolated). */
export const CROSS_ORIGIN_ISOLATION = {
  'Cross-Origin-Opener-Policy': 'same-origin',
  'Cross-Origin-Embedder-Policy': 'require-corp',
};

export default defineConfig({
  root,
  base: './',
  server: { host: 'localhost', fs: { allow: [fileURLToPath(new URL('..', import.meta.url))] }, headers: CROSS_ORIGIN_ISOLATION },
  preview: { headers: CROSS_ORIGIN_ISOLATION },
  build: { outDir: fileURLToPath(new URL('../scratch/debug-dist', import.meta.url)), emptyOutDir: true, chunkSizeWarningLimit: 2000 },
});
