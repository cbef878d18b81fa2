/**
 * `npm run bench [-- name ...]`: runs the benchmarks, writes bench/results/latest.json and
 * replaces each benchmark's table in docs/benchmarks.md between its `<!-- bench:NAME -->`
 * markers, so the page always shows the numbers of the last committed run.
 *
 * npm runs this file bundled by esbuild into bench/.bundle, our sources in one module as in the
 * published dist (tsup bundles each entry), packages (bitecs, the peers) imported as installed.
 * Run from sources (tsx), every call across our files goes through an ES-module import binding
 * that V8 checks at each use: about 8% slower on the pipeline frame, a cost users never pay.
 */
import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync, mkdirSync } from 'node:fs';
import { cpus } from 'node:os';
import { join } from 'node:path';
import { packageRoot } from '../scenes/packageRoot';
import type { BenchReport } from './harness';


type BenchModule = { run: () => Promise<BenchReport> | BenchReport };

const BENCHMARKS: Record<string, () => Promise<BenchModule>> = {
  overlap: () => import('./overlap.bench'),
  fitQuality: () => import('./fitQuality.bench'),
  broadphase: () => import('./broadphase.bench'),
  contacts: () => import('./contacts.bench'),
  obbLayout: () => import('./obbLayout.bench'),
  obbTree: () => import('./obbTree.bench'),
  hitboxes: () => import('./hitboxes.bench'),
  pipeline: () => import('./pipeline.bench'),
  queries: () => import('./queries.bench'),
  shapeCast: () => import('./shapeCast.bench'),
};

const root = packageRoot(import.meta.url);
const pagePath = join(root, 'docs', 'benchmarks.md');
const resultsPath = join(root, 'bench', 'results', 'latest.json');

function replaceSection(page: string, name: string, markdown: string): string {
  const start = `<!-- bench:${name} -->`;
  const end = `<!-- /bench:${name} -->`;
  const i = page.indexOf(start);
  const j = page.indexOf(end);
  if (i < 0 || j < i) {
    console.warn(`docs/benchmarks.md has no ${start} ... ${end} section; table printed only.`);
    return page;
  }
  return `${page.slice(0, i + start.length)}\n${markdown}\n${page.slice(j)}`;
}

/** Runs one benchmark in this process and merges its table and data into docs/benchmarks.md and latest.json. */
async function runOne(name: string): Promise<void> {
  const load = BENCHMARKS[name];
  if (!load) throw new Error(`unknown benchmark ${name}; known: ${Object.keys(BENCHMARKS).join(', ')}`);
  const machine = `${cpus()[0]?.model ?? 'unknown CPU'} x${cpus().length}, Node ${process.version}`;
  console.log(`\n## ${name}`);
  const report = await (await load()).run();
  console.log(report.markdown);
  let previous: Record<string, unknown> = {};
  try {
    previous = JSON.parse(readFileSync(resultsPath, 'utf8')) as Record<string, unknown>;
  } catch {
    // First run: nothing to merge with.
  }
  const results = { ...previous, machine, date: new Date().toISOString(), [report.name]: report.data };
  mkdirSync(join(root, 'bench', 'results'), { recursive: true });
  writeFileSync(resultsPath, `${JSON.stringify(results, null, 2)}\n`);
  writeFileSync(pagePath, replaceSection(readFileSync(pagePath, 'utf8'), report.name, `_${machine}_\n\n${report.markdown}`));
}

/**
 * Each benchmark runs in a fresh process, one after the other: V8 specialises shared kernels to
 * the types they have seen, so a benchmark run after others would pay for their calls (the SAT
 * fed Float64 boxes by one and Float32 by the next dispatches on every load).
 */
async function main(): Promise<void> {
  const wanted = process.argv.slice(2);
  if (wanted.length === 1) return runOne(wanted[0]);
  for (const name of wanted.length > 0 ? wanted : Object.keys(BENCHMARKS)) {
    const child = spawnSync(process.execPath, [process.argv[1], name], { stdio: 'inherit' });
    if (child.status !== 0) throw new Error(`benchmark ${name} failed (exit ${child.status ?? child.signal})`);
  }
}

await main();
