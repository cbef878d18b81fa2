/**
 * Timing harness for the benchmarks. Cases that are compared are timed interleaved (A, B, C,
 * A, B, C, ...) so that machine noise, which on small shared machines comes in bursts, falls on
 * all of them alike; we report medians of many samples and ratios from the same run.
 */

export interface BenchCase {
  name: string;
  /** Runs one sample's worth of work and returns a checksum (kept so the JIT cannot drop the work). */
  run: () => number;
  /** Operations performed by one call of `run`. */
  ops: number;
  /** Untimed work before each sample (e.g. writing the next frame's input). */
  setup?: () => void;
}

export interface BenchResult {
  name: string;
  ops: number;
  samples: number;
  medianMs: number;
  p95Ms: number;
  /** Operations per second at the median sample time. */
  opsPerSecond: number;
  checksum: number;
}

export interface BenchOptions {
  warmupSamples?: number;
  samples?: number;
}

export function percentile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return NaN;
  const i = Math.min(sorted.length - 1, Math.max(0, Math.ceil(p * sorted.length) - 1));
  return sorted[i];
}

export function median(values: readonly number[]): number {
  return percentile([...values].sort((a, b) => a - b), 0.5);
}

/** Times every case `samples` times, interleaved, after `warmupSamples` untimed rounds. */
export function runInterleaved(cases: BenchCase[], options: BenchOptions = {}): BenchResult[] {
  const warmup = options.warmupSamples ?? 5;
  const samples = options.samples ?? 25;
  const times = cases.map(() => [] as number[]);
  const checksums = cases.map(() => 0);
  for (let round = 0; round < warmup + samples; round++) {
    for (let k = 0; k < cases.length; k++) {
      // Rotate the starting case each round so no case always runs right after a GC-heavy one.
      const i = (k + round) % cases.length;
      cases[i].setup?.();
      const t0 = performance.now();
      const sum = cases[i].run();
      const dt = performance.now() - t0;
      checksums[i] = sum;
      if (round >= warmup) times[i].push(dt);
    }
  }
  return cases.map((c, i) => {
    const sorted = times[i].sort((a, b) => a - b);
    const medianMs = percentile(sorted, 0.5);
    return {
      name: c.name,
      ops: c.ops,
      samples,
      medianMs,
      p95Ms: percentile(sorted, 0.95),
      opsPerSecond: (c.ops / medianMs) * 1000,
      checksum: checksums[i],
    };
  });
}

/** Formats a number of operations per second as millions with 1 decimal. */
export function millions(x: number): string {
  return (x / 1e6).toFixed(1);
}

/** Renders a markdown table. */
export function markdownTable(header: string[], rows: (string | number)[][]): string {
  const line = (cells: (string | number)[]) => `| ${cells.join(' | ')} |`;
  return [line(header), line(header.map(() => '---')), ...rows.map(line)].join('\n');
}

/** What a benchmark module's `run` returns: its section of docs/benchmarks.md and its raw data. */
export interface BenchReport {
  /** Marker name of its section in docs/benchmarks.md. */
  name: string;
  markdown: string;
  data: unknown;
}

/**
 * Amdahl's law from a job's one- and two-thread times: its serial share s = 1 - 2(1 - t2/t1)
 * (clamped to [0, 1]), and its predicted time on n cores, t1·(s + (1 - s)/n). The model ignores
 * memory bandwidth, which a machine's cores share.
 */
export function amdahl(t1: number, t2: number): { serial: number; at: (cores: number) => number } {
  const parallel = Math.min(1, Math.max(0, 2 * (1 - t2 / t1)));
  return { serial: 1 - parallel, at: (cores) => t1 * (1 - parallel + parallel / cores) };
}
