/**
 * `npm run plots [-- results.json [outDir]]`: turns bench/results/latest.json (written by
 * `npm run bench`) into SVG charts in docs/plots/: pipeline ms/frame against N for this library
 * and the peers, broad-phase ms/frame against N, and overlap tests per second. Entries missing
 * from the results are skipped with a message; the other charts are still written.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { rateBars, timeSeries } from './benchSeries';
import { barChart, lineChart } from './svgChart';

const root = fileURLToPath(new URL('..', import.meta.url));
const input = process.argv[2] ?? join(root, 'bench/results/latest.json');
const outDir = process.argv[3] ?? join(root, 'docs/plots');

let results: Record<string, unknown>;
try {
  results = JSON.parse(readFileSync(input, 'utf8')) as Record<string, unknown>;
} catch (error) {
  console.error(`plots: cannot read ${input} (${(error as Error).message}); run \`npm run bench\` first.`);
  process.exit(1);
}
mkdirSync(outDir, { recursive: true });
const subtitle = [results.machine, results.date].filter((v) => typeof v === 'string').join(', ') || undefined;
let written = 0;

function write(file: string, svg: string): void {
  writeFileSync(join(outDir, file), svg);
  console.log(`plots: wrote ${join(outDir, file)}`);
  written++;
}

function timePlot(entry: string, file: string, title: string): void {
  if (!(entry in results)) {
    console.log(`plots: no '${entry}' entry in ${input}; ${file} skipped.`);
    return;
  }
  const { series, problem } = timeSeries(results[entry]);
  if (problem) {
    console.log(`plots: '${entry}' entry unusable (${problem}); ${file} skipped.`);
    return;
  }
  const xs = series.flatMap((s) => s.points.map((p) => p[0]));
  const ys = series.flatMap((s) => s.points.map((p) => p[1]));
  // Log scales once the values span more than a decade, so small and large N (and fast and slow
  // implementations) both stay readable.
  const spans = (v: number[]) => Math.min(...v) > 0 && Math.max(...v) / Math.min(...v) > 10;
  write(file, lineChart({ title, xLabel: 'N (colliders)', yLabel: 'ms per frame (median)', series, subtitle, xLog: spans(xs), yLog: spans(ys) }));
}

timePlot('pipeline', 'pipeline.svg', 'Collision pipeline: ms per frame against N');
timePlot('broadphase', 'broadphase.svg', 'Broad phase: ms per frame against N');

if ('overlap' in results) {
  const overlap = results.overlap as { results?: unknown } | undefined;
  const bars = rateBars(overlap?.results, 1e-6);
  if (bars.length === 0) console.log(`plots: 'overlap' entry has no results with opsPerSecond; overlap.svg skipped.`);
  else write('overlap.svg', barChart({ title: 'Overlap tests per second (one core)', xLabel: 'million tests per second (median)', bars, subtitle }));
} else {
  console.log(`plots: no 'overlap' entry in ${input}; overlap.svg skipped.`);
}
console.log(`plots: ${written} chart(s) in ${outDir}`);
