import { expect } from 'vitest';

/**
 * Bytes of heap a call of `run(n)` leaves per unit of work (each of the n calls), the least over
 * `reps` runs after a full collection each: the first run after a collection also pays for V8's
 * own bookkeeping. `run` returns how many calls found something; each run must find more than
 * `minFound`, so a run that does nothing cannot pass for allocation-free. Needs --expose-gc
 * (vitest.config.ts execArgv).
 */
export function leastBytesPerCall(run: (n: number) => number, n: number, reps: number, minFound: number): number {
  const gc = (globalThis as { gc?: () => void }).gc;
  expect(gc, 'run vitest with --expose-gc (vitest.config.ts execArgv)').toBeDefined();
  let perCall = Infinity;
  for (let rep = 0; rep < reps; rep++) {
    gc!();
    const before = process.memoryUsage().heapUsed;
    expect(run(n)).toBeGreaterThan(minFound);
    perCall = Math.min(perCall, (process.memoryUsage().heapUsed - before) / n);
  }
  return perCall;
}
