// End-to-end test of the debug view (debug/) in headless Chromium: build the page with Vite,
// serve the build, and check that it loads without console errors, animates, steps, and shows
// the contact count the library computes in Node for the same seed and number of frames, and that
// the page, served cross-origin isolated (the headers of debug/vite.config.ts), runs the pipeline
// on Web Workers with the single-thread results, and reports a worker script that did not load.
// Needs a Chromium binary (Debian's `chromium` package, or CHROMIUM_PATH); without one the suite
// is skipped with a warning saying so.
import { accessSync, constants, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import type { Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser, type Page } from 'playwright-core';
import { build } from 'vite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDemoScene, type CharacterKind } from '../../scenes/demo';
import { loadFoxNode } from '../../scenes/loadFoxNode';
import { serveDirectory } from './staticServer';
import { CROSS_ORIGIN_ISOLATION } from '../../debug/vite.config';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const ARTIFACTS = join(ROOT, 'test-artifacts');

function executable(path: string): boolean {
  try {
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

const haveChromium = executable(CHROMIUM);
if (!haveChromium) {
  console.warn(`debugPage e2e test SKIPPED: no Chromium at ${CHROMIUM} (install Debian's chromium package or set CHROMIUM_PATH).`);
}

/** Contacts, touching pairs and ray hits after `frames` steps of the demo scene, computed in Node. */
function nodeCounts(seed: number, frames: number, fox: CharacterKind): { contacts: number; touching: number; rayHits: number } {
  const demo = createDemoScene({ seed, extraCharacters: [fox] });
  for (let k = 0; k < frames; k++) demo.step();
  let rayHits = 0;
  for (let r = 0; r < demo.rays.count; r++) if (demo.rays.hitbox[r] >= 0) rayHits++;
  const counts = { contacts: demo.pipeline.contacts.count, touching: demo.pipeline.touchingPairs.count, rayHits };
  demo.pipeline.destroy();
  return counts;
}

describe.skipIf(!haveChromium)('debug page in headless Chromium', () => {
  let outDir = '';
  let server: Server | undefined;
  let baseUrl = '';
  let browser: Browser | undefined;
  let fox: CharacterKind;
  const problems: string[] = [];

  beforeAll(async () => {
    outDir = mkdtempSync(join(tmpdir(), 'bitecs-collide-debug-'));
    await build({ configFile: join(ROOT, 'debug/vite.config.ts'), logLevel: 'error', build: { outDir, emptyOutDir: true } });
    ({ server, url: baseUrl } = await serveDirectory(outDir, CROSS_ORIGIN_ISOLATION));
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'],
    });
    fox = await loadFoxNode();
    mkdirSync(ARTIFACTS, { recursive: true });
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    server?.close();
    if (outDir) rmSync(outDir, { recursive: true, force: true });
  });

  /** A new page whose console errors and uncaught exceptions land in `problems`. */
  async function open(query: string): Promise<Page> {
    const page = await browser!.newPage({ viewport: { width: 960, height: 640 } });
    page.on('console', (message) => {
      if (message.type() === 'error') problems.push(`console error: ${message.text()}`);
    });
    page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
    await page.goto(`${baseUrl}?${query}`);
    await page.waitForFunction(() => document.body.dataset.ready === '1', null, { timeout: 20_000 });
    return page;
  }

  const dataset = (page: Page) => page.evaluate(() => ({ ...document.body.dataset }));

  it('shows the contact count the library computes in Node for the same seed and frames, and steps', async () => {
    const seed = 11, frames = 45;
    const page = await open(`seed=${seed}&frames=${frames}`);
    const state = await dataset(page);
    expect(state.frame).toBe(String(frames));
    expect(state.paused).toBe('1');
    const shown = Number(await page.textContent('#contact-count'));
    const expected = nodeCounts(seed, frames, fox);
    expect(expected.contacts).toBeGreaterThan(0); // a scene without contacts would make the comparison vacuous
    expect(shown).toBe(expected.contacts);
    expect(Number(state.touching)).toBe(expected.touching);
    expect(Number(state.rayHits)).toBe(expected.rayHits);

    // Step advances exactly one frame, still matching Node.
    await page.click('#step');
    await page.waitForFunction(() => document.body.dataset.frame === '46', null, { timeout: 5_000 });
    const next = nodeCounts(seed, frames + 1, fox);
    expect(Number(await page.textContent('#contact-count'))).toBe(next.contacts);
    expect(Number((await dataset(page)).touching)).toBe(next.touching);
    await page.close();
    expect(problems).toEqual([]);
  });

  it('runs the pipeline on Web Workers with the single-thread contacts and pairs, cross-origin isolated', async () => {
    const query = 'seed=3&frames=30';
    const single = await open(query);
    const one = await dataset(single);
    await single.close();
    const parallel = await open(`${query}&workers=2`);
    const two = await dataset(parallel);
    expect(one.isolated).toBe('1');
    expect(two.isolated).toBe('1');
    // The tree builder's WebAssembly module compiles on the page's main thread (under Chromium's
    // 4 KB limit for synchronous compilation there).
    expect(one.treeWasm).toBe('1');
    expect(one.threads).toBe('1');
    expect(two.threads).toBe('3');
    expect(Number(two.jobsOnWorkers)).toBeGreaterThanOrEqual(60); // a refit and a narrow phase per frame
    expect(Number(one.contacts)).toBeGreaterThan(0);
    expect(two.frame).toBe(one.frame);
    expect(two.contacts).toBe(one.contacts);
    expect(two.touching).toBe(one.touching);
    expect(two.pairs).toBe(one.pairs);
    expect(two.contactBits).toBe(one.contactBits);
    expect(two.rayHits).toBe(one.rayHits);

    // Frames stepped after the start match too (the workers receive grown arrays by message).
    await parallel.click('#step');
    await parallel.waitForFunction(() => document.body.dataset.frame === '31', null, { timeout: 5_000 });
    const next = nodeCounts(3, 31, fox);
    expect(Number((await dataset(parallel)).contacts)).toBe(next.contacts);
    expect(Number((await dataset(parallel)).touching)).toBe(next.touching);
    await parallel.close();
    expect(problems).toEqual([]);
  });

  it('says so when a worker script does not load: ready rejects, and the page reports it', async () => {
    const page = await browser!.newPage();
    const errors: string[] = [];
    page.on('console', (message) => {
      if (message.type() === 'error') errors.push(message.text());
    });
    await page.route(/\/worker-[^/]*\.js$/, (route) => route.abort());
    await page.goto(`${baseUrl}?workers=1&fox=0`);
    await page.waitForFunction(() => document.getElementById('status')!.textContent!.startsWith('Failed'), null, { timeout: 20_000 });
    expect(await page.textContent('#status')).toMatch(/a worker thread failed to start/);
    expect(errors.some((text) => /a worker thread failed to start/.test(text))).toBe(true);
    await page.close();
  });

  it('animates: two screenshots taken frames apart differ', async () => {
    const page = await open('seed=5');
    const webgl = (await dataset(page)).webgl === '1';
    if (!webgl) console.warn('debugPage e2e: WebGL unavailable in this Chromium; the page simulates without drawing, so only the counters can change between screenshots.');
    // With WebGL, compare the 3D view beside the panel, so a change of the counters alone cannot pass.
    const clip = webgl ? { x: 400, y: 0, width: 560, height: 640 } : undefined;
    const frameOf = async () => Number((await dataset(page)).frame);
    await page.waitForFunction(() => Number(document.body.dataset.frame) >= 3, null, { timeout: 10_000 });
    const first = await page.screenshot({ clip });
    const frameA = await frameOf();
    await page.waitForFunction((a) => Number(document.body.dataset.frame) >= a + 15, frameA, { timeout: 30_000 });
    const second = await page.screenshot({ clip });
    const frameB = await frameOf();
    writeFileSync(join(ARTIFACTS, 'debug-page-a.png'), first);
    writeFileSync(join(ARTIFACTS, 'debug-page-b.png'), second);
    expect(frameB).toBeGreaterThanOrEqual(frameA + 15);
    expect(first.equals(second)).toBe(false);

    // Pause stops the frame counter.
    await page.click('#pause');
    const pausedAt = await frameOf();
    await page.waitForTimeout(300);
    expect(await frameOf()).toBe(pausedAt);
    await page.close();
    expect(problems).toEqual([]);
  });
});
