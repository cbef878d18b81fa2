// The SVG writer of the benchmark plots (scripts/svgChart.ts) and the tolerant reading of benchmark
// results (scripts/benchSeries.ts): well-formed markup, every point inside the axes, mappings
// monotonic and proportional, checked against plain interpolation over random data.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { findRows, rateBars, timeSeries } from '../../scripts/benchSeries';
import { MARGIN, axisScale, barChart, escapeXml, lineChart, type Series } from '../../scripts/svgChart';

/** Checks that tags nest and close (self-closing allowed) and that text holds no raw '<' or '&'. */
function assertWellFormed(svg: string): void {
  const stack: string[] = [];
  const tag = /<(\/?)([a-zA-Z][\w-]*)((?:\s+[\w:-]+="[^"<]*")*)\s*(\/?)>/g;
  let last = 0;
  for (let m = tag.exec(svg); m; m = tag.exec(svg)) {
    const between = svg.slice(last, m.index);
    expect(between, `text before ${m[0]}`).not.toMatch(/[<>]|&(?!amp;|lt;|gt;|quot;)/);
    last = m.index + m[0].length;
    const [, closing, name, , selfClosing] = m;
    if (closing) expect(stack.pop(), `closing </${name}>`).toBe(name);
    else if (!selfClosing) stack.push(name);
  }
  expect(svg.slice(last).trim()).toBe('');
  expect(stack).toEqual([]);
  expect(svg.startsWith('<svg xmlns="http://www.w3.org/2000/svg"')).toBe(true);
}

function size(svg: string): { width: number; height: number } {
  const m = /<svg[^>]*width="(\d+)" height="(\d+)"/.exec(svg)!;
  return { width: Number(m[1]), height: Number(m[2]) };
}

/** Circle centres per series, in document order. */
function circles(svg: string): Map<string, [number, number][]> {
  const out = new Map<string, [number, number][]>();
  for (const group of svg.matchAll(/<g class="series" data-name="([^"]*)"[^>]*>([\s\S]*?)<\/g>/g)) {
    out.set(group[1], [...group[2].matchAll(/<circle cx="([-\d.]+)" cy="([-\d.]+)"/g)].map((c) => [Number(c[1]), Number(c[2])]));
  }
  return out;
}

const positive = fc.double({ min: 1e-4, max: 1e6, noNaN: true });
const seriesArb = (log: boolean) =>
  fc.array(
    fc.record({
      name: fc.string({ minLength: 1, maxLength: 12 }),
      points: fc.uniqueArray(fc.tuple(log ? positive : fc.double({ min: -1e4, max: 1e4, noNaN: true }), log ? positive : fc.double({ min: 0, max: 1e4, noNaN: true })), {
        minLength: 1,
        maxLength: 8,
        selector: (p) => p[0],
      }),
    }),
    { minLength: 1, maxLength: 5 },
  );

describe('axisScale', () => {
  it('is strictly monotonic, keeps the data range inside the pixel range and ticks around it (linear and log, x and y)', () => {
    fc.assert(
      fc.property(positive, positive, fc.boolean(), fc.boolean(), fc.double({ min: 0, max: 1, noNaN: true }), fc.double({ min: 0, max: 1, noNaN: true }), (a, b, log, flip, u, v) => {
        fc.pre(a !== b);
        const min = Math.min(a, b), max = Math.max(a, b);
        const [p0, p1] = flip ? [400, 40] : [60, 600];
        const s = axisScale(min, max, p0, p1, log);
        const lo = Math.min(p0, p1), hi = Math.max(p0, p1);
        const slack = 1e-9 * hi;
        for (const x of [min, max]) {
          expect(s.map(x)).toBeGreaterThanOrEqual(lo - slack);
          expect(s.map(x)).toBeLessThanOrEqual(hi + slack);
        }
        // Two values inside the range, in geometric (log) or arithmetic order.
        const at = (t: number) => (log ? min * (max / min) ** t : min + t * (max - min));
        const x1 = at(Math.min(u, v)), x2 = at(Math.max(u, v));
        // Values apart by more than rounding map strictly in order.
        const t0 = s.ticks[0], t1 = s.ticks[s.ticks.length - 1];
        const share = log ? Math.log(x2 / x1) / Math.log(t1 / t0) : (x2 - x1) / (t1 - t0);
        if (share > 1e-9) expect(Math.sign(s.map(x2) - s.map(x1))).toBe(Math.sign(p1 - p0));
        expect(s.ticks[0]).toBeLessThanOrEqual(min * (1 + 1e-12));
        expect(s.ticks[s.ticks.length - 1]).toBeGreaterThanOrEqual(max * (1 - 1e-12));
        // The axis ends are ticks: they map onto the pixel range's ends.
        expect(s.map(s.ticks[0])).toBeCloseTo(p0, 6);
        expect(s.map(s.ticks[s.ticks.length - 1])).toBeCloseTo(p1, 6);
      }),
      { numRuns: 400 },
    );
  });

  it('linear ticks are evenly spaced; log ticks of whole decades are evenly spaced', () => {
    const lin = axisScale(3, 87, 0, 500, false);
    const gaps = lin.ticks.slice(1).map((t, i) => lin.map(t) - lin.map(lin.ticks[i]));
    for (const g of gaps) expect(g).toBeCloseTo(gaps[0], 9);
    const log = axisScale(0.3, 4e5, 0, 600, true);
    const decades = log.ticks.filter((t) => Number.isInteger(Math.log10(t)));
    const steps = decades.slice(1).map((t, i) => log.map(t) - log.map(decades[i]));
    for (const g of steps) expect(g).toBeCloseTo(steps[0], 9);
  });
});

describe('lineChart', () => {
  it('writes well-formed SVG with every point inside the axes, in data order along both axes', () => {
    for (const xLog of [false, true]) {
      for (const yLog of [false, true]) {
        fc.assert(
          fc.property(seriesArb(xLog || yLog), (raw) => {
            // Distinct series names (a chart's legend needs them).
            const series: Series[] = raw.map((s, i) => ({ name: `${i}:${s.name}`, points: s.points as [number, number][] }));
            const svg = lineChart({ title: 'T <&> "q"', xLabel: 'N', yLabel: 'ms', series, xLog, yLog });
            assertWellFormed(svg);
            const { width, height } = size(svg);
            const found = circles(svg);
            expect(found.size).toBe(series.length);
            for (const s of series) {
              const dots = found.get(escapeXml(s.name))!;
              const points = [...s.points].sort((a, b) => a[0] - b[0]);
              expect(dots.length).toBe(points.length);
              for (const [cx, cy] of dots) {
                expect(cx).toBeGreaterThanOrEqual(MARGIN.left - 0.05);
                expect(cx).toBeLessThanOrEqual(width - MARGIN.right + 0.05);
                expect(cy).toBeGreaterThanOrEqual(MARGIN.top - 0.05);
                expect(cy).toBeLessThanOrEqual(height - MARGIN.bottom + 0.05);
              }
              // Monotonic mapping: larger x further right, larger y higher up (pixels rounded to 0.1).
              for (let i = 1; i < points.length; i++) {
                expect(dots[i][0]).toBeGreaterThanOrEqual(dots[i - 1][0]);
                for (let j = 0; j < points.length; j++) {
                  if (points[i][1] > points[j][1]) expect(dots[i][1]).toBeLessThanOrEqual(dots[j][1]);
                }
              }
            }
          }),
          { numRuns: 60 },
        );
      }
    }
  });

  it('keeps points a few ulps apart inside the axes instead of dividing by a zero span', () => {
    const near = 1000.0000000000001; // the double just above 1000
    const cases: Series[] = [
      { name: 's', points: [[1000, 1], [near, 2]] },
      { name: 's', points: [[1, 1000], [2, near]] },
      // Found by the property test: x values three ulps apart, whose nice step (1e-20) is below
      // their resolution, so the rounded axis ends fell past the data.
      { name: 's', points: [[0.00010000000000000013, 0.0001], [0.0001000000000000001, 0.0001]] },
    ];
    for (const series of cases) {
      const svg = lineChart({ title: 't', xLabel: 'x', yLabel: 'y', series: [series] });
      assertWellFormed(svg);
      const { width, height } = size(svg);
      const dots = circles(svg).get('s')!;
      expect(dots.length).toBe(2);
      for (const [cx, cy] of dots) {
        expect(Number.isFinite(cx) && Number.isFinite(cy)).toBe(true);
        expect(cx).toBeGreaterThanOrEqual(MARGIN.left - 0.05);
        expect(cx).toBeLessThanOrEqual(width - MARGIN.right + 0.05);
        expect(cy).toBeGreaterThanOrEqual(MARGIN.top - 0.05);
        expect(cy).toBeLessThanOrEqual(height - MARGIN.bottom + 0.05);
      }
    }
  });

  it('places points by plain interpolation between the axis ends on a linear chart', () => {
    const svg = lineChart({ title: 't', xLabel: 'x', yLabel: 'y', series: [{ name: 's', points: [[10, 0], [20, 5], [30, 10]] }] });
    const dots = circles(svg).get('s')!;
    // Equal steps in x and y give equal steps in pixels; y = 0 sits on the x axis (y starts at 0).
    expect(dots[1][0] - dots[0][0]).toBeCloseTo(dots[2][0] - dots[1][0], 0);
    expect(dots[1][1] - dots[0][1]).toBeCloseTo(dots[2][1] - dots[1][1], 0);
    expect(dots[0][1]).toBeCloseTo(size(svg).height - MARGIN.bottom, 1);
    expect(dots[2][1]).toBeLessThan(dots[0][1]);
  });

  it('drops points a log axis cannot show and says "no data" when nothing is left', () => {
    const svg = lineChart({ title: 't', xLabel: 'x', yLabel: 'y', yLog: true, series: [{ name: 's', points: [[1, 0], [2, -3], [3, 5]] }] });
    assertWellFormed(svg);
    expect(circles(svg).get('s')!.length).toBe(1);
    const empty = lineChart({ title: 't', xLabel: 'x', yLabel: 'y', series: [] });
    assertWellFormed(empty);
    expect(empty).toContain('no data');
  });

  it('lays legend entries out without overlap, wrapping rows inside the chart', () => {
    const names = ['ours spatialHash +contacts', 'Rapier', 'a much longer implementation name here', 'x', 'cannon-es', 'ours sap'];
    const svg = lineChart({ title: 't', xLabel: 'x', yLabel: 'y', series: names.map((name, i) => ({ name, points: [[1, i + 1]] })) });
    assertWellFormed(svg);
    const { width } = size(svg);
    // Legend swatches: <rect x y width="12" height="10">, each followed by its label.
    const entries = [...svg.matchAll(/<rect x="([\d.]+)" y="([\d.]+)" width="12" height="10"[^>]*\/>\s*<text[^>]*>([^<]*)<\/text>/g)]
      .map((m) => ({ x: Number(m[1]), y: Number(m[2]), name: m[3] }));
    expect(entries.map((e) => e.name)).toEqual(names);
    for (let i = 1; i < entries.length; i++) {
      const prev = entries[i - 1], cur = entries[i];
      if (cur.y === prev.y) expect(cur.x).toBeGreaterThanOrEqual(prev.x + 16 + 6 * prev.name.length);
      else expect(cur.y).toBeGreaterThan(prev.y);
    }
    for (const e of entries) expect(e.x + 16 + 6 * e.name.length).toBeLessThanOrEqual(width);
    expect(new Set(entries.map((e) => e.y)).size).toBeGreaterThan(1);
  });
});

describe('barChart', () => {
  it('draws bars with lengths proportional to their values', () => {
    fc.assert(
      fc.property(fc.array(fc.double({ min: 0.01, max: 1e4, noNaN: true }), { minLength: 1, maxLength: 10 }), (values) => {
        const svg = barChart({ title: 'b', xLabel: 'v', bars: values.map((value, i) => ({ label: `bar <${i}>`, value })) });
        assertWellFormed(svg);
        const widths = [...svg.matchAll(/<rect x="[\d.]+" y="[\d.]+" width="([\d.]+)" height="22"/g)].map((m) => Number(m[1]));
        expect(widths.length).toBe(values.length);
        const k = values.indexOf(Math.max(...values));
        for (let i = 0; i < values.length; i++) {
          // Widths are rounded to 0.1 px.
          expect(Math.abs(widths[i] - (widths[k] * values[i]) / values[k])).toBeLessThanOrEqual(0.11);
        }
      }),
      { numRuns: 100 },
    );
  });
});

describe('benchSeries', () => {
  const broadphase = [
    { algorithm: 'sap', boxes: 10000, medianMs: 8, p95Ms: 9, pairs: 1 },
    { algorithm: 'sap', boxes: 2000, medianMs: 1, p95Ms: 2, pairs: 1 },
    { algorithm: 'hash', boxes: 2000, medianMs: 0.5, p95Ms: 1, pairs: 1 },
  ];

  it('reads series from rows of objects, sorted by N', () => {
    const { series, problem } = timeSeries(broadphase);
    expect(problem).toBeUndefined();
    expect(series).toEqual([
      { name: 'sap', points: [[2000, 1], [10000, 8]] },
      { name: 'hash', points: [[2000, 0.5]] },
    ]);
  });

  it('finds rows nested in an object or keyed by series name', () => {
    expect(timeSeries({ machine: 'x', rows: [{ library: 'ours', n: 100, msPerFrame: 2 }] }).series).toEqual([{ name: 'ours', points: [[100, 2]] }]);
    const byName = timeSeries({ ours: [{ n: 1, ms: 3 }, { n: 2, ms: 4 }], rapier: [{ n: 1, ms: 5 }] }).series;
    expect(byName.map((s) => s.name).sort()).toEqual(['ours', 'rapier']);
    const perSize = timeSeries([{ boxes: 1000, results: [{ name: 'ours', medianMs: 1 }, { name: 'cannon-es', medianMs: 9 }] }, { boxes: 4000, results: [{ name: 'ours', medianMs: 3 }] }]).series;
    expect(perSize).toEqual([{ name: 'ours', points: [[1000, 1], [4000, 3]] }, { name: 'cannon-es', points: [[1000, 9]] }]);
    expect(findRows('nothing')).toEqual([]);
  });

  it('plots the pipeline benchmark\'s constant-density scenes against N, leaving the dense scene out', () => {
    const scene = (count: number, ours: number, rapier: number) => ({
      setup: `${count}`, count, size: 100, frames: 100,
      stats: [{ name: 'ours spatialHash', medianMs: ours, p95Ms: ours, pairs: 1 }, { name: 'Rapier', medianMs: rapier, p95Ms: rapier, pairs: 1 }],
      breakdown: { refit: 0, broad: 0, narrow: 0 },
    });
    const { series } = timeSeries({ scenes: [scene(1000, 0.5, 1.5), scene(2000, 0.9, 3)], denseScene: scene(10000, 9, 35) });
    expect(series).toEqual([
      { name: 'ours spatialHash', points: [[1000, 0.5], [2000, 0.9]] },
      { name: 'Rapier', points: [[1000, 1.5], [2000, 3]] },
    ]);
  });

  it('reports unusable entries instead of throwing', () => {
    expect(timeSeries(undefined).problem).toBeDefined();
    expect(timeSeries([{ algorithm: 'a', note: 'no numbers' }]).problem).toContain('none with a numeric size');
    expect(rateBars([{ name: 'SAT', opsPerSecond: 2e6 }, { name: 'bad' }], 1e-6)).toEqual([{ label: 'SAT', value: 2 }]);
  });
});
