// The packed package as a user installs it: `npm pack`, unpacked into a fresh project with its own
// strict tsconfig, where the README's two quick starts (taken from README.md as written) typecheck
// and run, a CommonJS file require()s the entries, and `instanceof CollideInputError` holds across
// entries, and a Vite build of a page that starts worker threads emits the worker script and
// points the pool at it. Then the sizes: the tarball, a bundle of the OBB test alone, and a bundle of the quick
// start. Run by `npm test` after the build; exits 1 on any failure.
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { build } from 'esbuild';
import { build as viteBuild } from 'vite';

const root = dirname(dirname(fileURLToPath(import.meta.url)));
/**
 * Size limits, bytes. The quick start's is 64 KiB: a module pulled in by mistake (a broad phase,
 * the thread code, the queries: several kB each) goes over it, while its own code can change (the
 * checks of dynamic colliders' stored poses and of arguments took it from 61.4 to 63.5 kB).
 */
const LIMITS = { tarball: 300_000, obbOverlapGzip: 3_000, quickStartMin: 65_536 };
const failures = [];
const run = (cmd, args, cwd) => execFileSync(cmd, args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });

const dir = mkdtempSync(join(tmpdir(), 'bitecs-collide-consumer-'));
try {
  // The tarball, exactly what npm would publish.
  const packed = JSON.parse(run('npm', ['pack', '--json', '--pack-destination', dir], root))[0];
  const tarball = join(dir, packed.filename);
  const tarballBytes = statSync(tarball).size;
  console.log(`tarball: ${(tarballBytes / 1000).toFixed(1)} kB packed, ${(packed.unpackedSize / 1000).toFixed(1)} kB unpacked, ${packed.files.length} files`);
  if (tarballBytes > LIMITS.tarball) failures.push(`tarball ${tarballBytes} B > ${LIMITS.tarball} B`);

  // A fresh project: the package unpacked into node_modules, its dependencies linked from ours.
  const project = join(dir, 'project');
  const modules = join(project, 'node_modules');
  mkdirSync(join(modules, 'bitecs-collide'), { recursive: true });
  mkdirSync(join(modules, '@gltf-transform'), { recursive: true });
  run('tar', ['-xzf', tarball, '-C', join(modules, 'bitecs-collide'), '--strip-components=1'], project);
  for (const dep of ['bitecs', 'gl-matrix', '@gltf-transform/core', '@types/node']) {
    mkdirSync(dirname(join(modules, dep)), { recursive: true });
    symlinkSync(join(root, 'node_modules', dep), join(modules, dep), 'dir');
  }
  writeFileSync(join(project, 'package.json'), JSON.stringify({ name: 'consumer', private: true, type: 'module' }));
  writeFileSync(join(project, 'tsconfig.json'), JSON.stringify({
    compilerOptions: {
      target: 'ES2022', module: 'NodeNext', moduleResolution: 'NodeNext', strict: true, outDir: 'out',
      lib: ['ES2022', 'ESNext.Float16'], types: ['node'], skipLibCheck: false,
    },
    include: ['*.ts', '*.cts'],
  }));

  // The README's code blocks, as written; the Fox from this repository.
  const blocks = [...readFileSync(join(root, 'README.md'), 'utf8').matchAll(/```ts\n([\s\S]*?)```/g)].map((m) => m[1]);
  if (blocks.length < 2) failures.push('README.md: expected two TypeScript quick starts');
  writeFileSync(join(project, 'quickStart.ts'), blocks[0] ?? '');
  writeFileSync(join(project, 'characterQuickStart.ts'), (blocks[1] ?? '').replace("'Fox.glb'", JSON.stringify(join(root, 'scenes', 'assets', 'Fox.glb'))));
  writeFileSync(join(project, 'errors.ts'), `
import { addEntity, createWorld } from 'bitecs';
import { CollideInputError } from 'bitecs-collide';
import { addCollider, createCollisionPipeline } from 'bitecs-collide/ecs';
const world = createWorld();
createCollisionPipeline(world);
const e = addEntity(world);
try {
  addCollider(world, e, { shape: 'sphere', radius: -1 });
  throw new Error('a negative radius was accepted');
} catch (error) {
  if (!(error instanceof CollideInputError)) throw new Error('an error from bitecs-collide/ecs is not a CollideInputError of bitecs-collide');
  console.log('instanceof across entries:', error.message);
}
`);
  writeFileSync(join(project, 'workers.ts'), `
import { addEntity, createWorld } from 'bitecs';
import { addCollider, createCollisionPipeline, createWorkerPool, setPosition } from 'bitecs-collide/ecs';
const world = createWorld();
const collision = createCollisionPipeline(world, { workers: createWorkerPool(1) });
const count = 6000;
for (let i = 0; i < count; i++) {
  const e = addEntity(world);
  addCollider(world, e, { shape: 'sphere', radius: 0.6 });
  setPosition(world, e, i, 0, 0);
}
collision.step(world);
if (collision.workers !== 1 || collision.touchingPairs.count !== count - 1) throw new Error(\`workers: \${collision.workers}, pairs \${collision.touchingPairs.count}\`);
collision.destroy();
console.log('worker thread from the package: pairs', collision.touchingPairs.count);
`);
  writeFileSync(join(project, 'commonjs.cts'), `
const { addEntity, createWorld } = require('bitecs');
const { CollideInputError, obbOverlap } = require('bitecs-collide');
const { addCollider, createCollisionPipeline, setPosition } = require('bitecs-collide/ecs');
const world = createWorld();
const collision = createCollisionPipeline(world);
const a = addEntity(world), b = addEntity(world);
addCollider(world, a, { shape: 'obb', halfExtents: [1, 1, 1] });
addCollider(world, b, { shape: 'sphere', radius: 1 });
setPosition(world, b, 1.5, 0, 0);
collision.step(world);
if (collision.touchingPairs.count !== 1) throw new Error('CommonJS: the pair was not found');
try {
  setPosition(world, b, NaN, 0, 0);
  throw new Error('NaN accepted');
} catch (error) {
  if (!(error instanceof CollideInputError)) throw new Error('CommonJS: not a CollideInputError');
}
const box = [0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1, 0.5, 0.5, 0.5];
console.log('CommonJS require: pairs', collision.touchingPairs.count, 'overlap', obbOverlap(box, 0, box, 0));
`);
  try {
    run(process.execPath, [join(root, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', project], project);
    console.log('consumer project: strict typecheck passed');
  } catch (error) {
    failures.push(`consumer typecheck failed:\n${error.stdout}${error.stderr}`);
  }
  for (const file of ['quickStart.js', 'characterQuickStart.js', 'errors.js', 'workers.js', 'commonjs.cjs']) {
    try {
      const out = run(process.execPath, [join('out', file)], project);
      console.log(`${file}: ${out.trim().split('\n').slice(-1)[0]}`);
    } catch (error) {
      failures.push(`${file} failed:\n${error.stdout ?? ''}${error.stderr ?? error.message}`);
    }
  }

  // A browser build: Vite finds the pool's new Worker(new URL('./worker.js', import.meta.url)) in
  // the package, emits the worker script (with what it imports) and rewrites the URL to it.
  const web = join(project, 'web');
  mkdirSync(web);
  writeFileSync(join(web, 'index.html'), '<!doctype html><script type="module" src="./main.js"></script>\n');
  writeFileSync(join(web, 'main.js'), `
import { createWorld } from 'bitecs';
import { createCollisionPipeline, createWorkerPool } from 'bitecs-collide/ecs';
const workers = createWorkerPool(1);
const collision = createCollisionPipeline(createWorld(), { workers });
workers.ready.then(() => console.log('threads', collision.workers + 1));
`);
  const webOut = join(web, 'dist');
  await viteBuild({ root: web, logLevel: 'silent', build: { outDir: webOut, emptyOutDir: true } });
  const assets = readdirSync(join(webOut, 'assets'));
  const workerAsset = assets.find((file) => readFileSync(join(webOut, 'assets', file), 'utf8').includes('a test of fault reporting'));
  const pointsAtWorker = assets.some((file) => file !== workerAsset && readFileSync(join(webOut, 'assets', file), 'utf8').includes(`/${workerAsset}`));
  if (workerAsset === undefined) failures.push(`a Vite build of a page with worker threads emits no worker script (assets: ${assets.join(', ')})`);
  else if (!pointsAtWorker) failures.push(`a Vite build's page does not point the pool at its worker script ${workerAsset}`);
  else console.log(`Vite build of a page with worker threads: worker script ${workerAsset}`);

  // Bundle sizes, minified, bitecs and gl-matrix left to the application (they are its own).
  const bundle = async (name, source) => {
    const file = join(project, `${name}.entry.js`);
    writeFileSync(file, source);
    const result = await build({
      entryPoints: [file], bundle: true, minify: true, format: 'esm', platform: 'neutral', write: false,
      external: ['bitecs', 'gl-matrix', '@gltf-transform/core'], absWorkingDir: project, logLevel: 'silent',
      mainFields: ['module', 'main'],
    });
    const code = result.outputFiles[0].contents;
    return { min: code.length, gzip: gzipSync(code).length, text: new TextDecoder().decode(code) };
  };
  /** The broad phases whose names (each instance's `name`) appear in a bundle: those it holds. */
  const broadPhasesIn = (text) => ['spatialHash', 'sweepAndPrune', 'dynamicAabbTree', 'kdTree', 'octree', 'bruteForce'].filter((n) => text.includes(`"${n}"`));
  const obb = await bundle('obb', "import { obbOverlap } from 'bitecs-collide';\nconsole.log(obbOverlap);\n");
  console.log(`bundle of obbOverlap alone: ${obb.min} B minified, ${obb.gzip} B gzipped`);
  if (obb.gzip > LIMITS.obbOverlapGzip) failures.push(`obbOverlap alone bundles to ${obb.gzip} B gzipped > ${LIMITS.obbOverlapGzip} B`);
  const quickStart = blocks[0] ?? '';
  const quick = await bundle('quick', quickStart);
  console.log(`bundle of the README quick start: ${quick.min} B minified, ${quick.gzip} B gzipped; broad phases: ${broadPhasesIn(quick.text).join(', ')}`);
  if (quick.min > LIMITS.quickStartMin) failures.push(`the README quick start bundles to ${quick.min} B minified > ${LIMITS.quickStartMin} B`);
  if (broadPhasesIn(quick.text).join() !== 'spatialHash') failures.push(`the quick start bundles broad phases ${broadPhasesIn(quick.text).join(', ')}, not just the default spatialHash`);
  // The same with a broad phase chosen by its factory: it joins the default, the others stay out.
  const withSap = `import { createSweepAndPrune } from 'bitecs-collide';\n${quickStart
    .replace('createCollisionPipeline(world)', 'createCollisionPipeline(world, { broadPhase: createSweepAndPrune() })')}`;
  const sap = await bundle('quickSap', withSap);
  console.log(`  with broadPhase: createSweepAndPrune(): ${sap.min} B minified; broad phases: ${broadPhasesIn(sap.text).join(', ')}`);
  if (!withSap.includes('createSweepAndPrune()') || broadPhasesIn(sap.text).join() !== 'spatialHash,sweepAndPrune') {
    failures.push(`a quick start choosing sweep and prune by its factory bundles broad phases ${broadPhasesIn(sap.text).join(', ')}`);
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}

if (failures.length > 0) {
  console.error(failures.join('\n'));
  process.exit(1);
}
