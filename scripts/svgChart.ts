/**
 * Hand-made SVG charts for the benchmark plots (no chart library): a line chart of series over a
 * numeric x (linear or log axes) and a horizontal bar chart, each with title, axis labels, ticks
 * and a legend. Pure string building, so tests can check the geometry.
 */

/** A named series of (x, y) points. */
export interface Series {
  name: string;
  points: [number, number][];
}

export interface LineChartSpec {
  title: string;
  xLabel: string;
  yLabel: string;
  series: Series[];
  /** Small second line under the title (e.g. the machine). */
  subtitle?: string;
  xLog?: boolean;
  yLog?: boolean;
  width?: number;
  height?: number;
}

export interface BarChartSpec {
  title: string;
  /** Label of the value axis. */
  xLabel: string;
  bars: { label: string; value: number }[];
  subtitle?: string;
  width?: number;
}

/** A value-to-pixel mapping of one axis, with its tick values. */
export interface AxisScale {
  map(value: number): number;
  ticks: number[];
  log: boolean;
}

/** Plot margins: room for the title, tick labels and axis labels (left, right, top, bottom). */
export const MARGIN = { left: 72, right: 20, top: 44, bottom: 96 } as const;

/** Distinct colours for series and bars (colour-blind-friendly Okabe-Ito order). */
export const PALETTE = ['#0072b2', '#d55e00', '#009e73', '#cc79a7', '#e69f00', '#56b4e9', '#f0e442', '#000000'];

/** Text content escaped for XML. */
export function escapeXml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

/** Rounds a pixel coordinate to 0.1 px (compact files, no visible difference). */
const px = (v: number) => String(Math.round(v * 10) / 10);

/** A tick label: plain for ordinary magnitudes, 1e6 style for huge or tiny ones. */
export function formatTick(v: number): string {
  if (v === 0) return '0';
  const a = Math.abs(v);
  if (a >= 1e5 || a < 1e-3) return v.toExponential(0).replace('e+', 'e');
  return String(Number(v.toPrecision(3)));
}

/** "Nice" linear tick step (1, 2 or 5 times a power of ten) giving about `count` ticks over span. */
function niceStep(span: number, count: number): number {
  const raw = span / Math.max(1, count);
  const power = 10 ** Math.floor(Math.log10(raw));
  const f = raw / power;
  return (f <= 1 ? 1 : f <= 2 ? 2 : f <= 5 ? 5 : 10) * power;
}

/**
 * Scale mapping [min, max] (data range) onto [p0, p1] pixels (p1 < p0 for a y axis, so larger
 * values go up). Linear axes extend to nice ticks (1, 2 or 5 times a power of ten), from 0 when
 * `fromZero` and the data are positive; log axes extend to whole decades and tick at 1, 2, 5 per
 * decade when there are few decades. Log axes need min > 0.
 */
export function axisScale(min: number, max: number, p0: number, p1: number, log: boolean, fromZero = true): AxisScale {
  if (log) {
    const lo = Math.floor(Math.log10(min)), hi = Math.max(lo + 1, Math.ceil(Math.log10(max)));
    const ticks: number[] = [];
    const multiples = hi - lo <= 3 ? [1, 2, 5] : [1];
    for (let e = lo; e <= hi; e++) for (const m of multiples) if (e < hi || m === 1) ticks.push(m * 10 ** e);
    return { log, ticks, map: (v) => p0 + ((Math.log10(v) - lo) / (hi - lo)) * (p1 - p0) };
  }
  const from = fromZero ? Math.min(0, min) : min;
  let to = max > from ? max : from + 1;
  let step = niceStep(to - from, 5);
  let lo = Math.floor(from / step) * step, hi = Math.ceil(to / step) * step;
  // A span too small for a power-of-ten step (denormal data) or near the values' own resolution
  // (a few ulps apart: the ends round to one tick, or past the data) reads as a flat line on a
  // unit axis; a billionth of the values is far below a pixel.
  if (!(step > 0 && Number.isFinite(step)) || !(hi > lo) || step < 1e-9 * Math.max(Math.abs(from), Math.abs(to))) {
    to = from + 1;
    step = niceStep(1, 5);
    lo = Math.floor(from / step) * step;
    hi = Math.ceil(to / step) * step;
  }
  const ticks: number[] = [];
  for (let k = 0; lo + k * step <= hi + step * 1e-9; k++) ticks.push(Number((lo + k * step).toPrecision(12)));
  return { log, ticks, map: (v) => p0 + ((v - lo) / (hi - lo)) * (p1 - p0) };
}

function frame(width: number, height: number, title: string, subtitle: string | undefined, body: string[]): string {
  return [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" font-family="sans-serif" font-size="12">`,
    `<rect width="${width}" height="${height}" fill="#ffffff"/>`,
    `<text x="${px(width / 2)}" y="20" text-anchor="middle" font-size="15" font-weight="bold">${escapeXml(title)}</text>`,
    subtitle ? `<text x="${px(width / 2)}" y="33" text-anchor="middle" font-size="10" fill="#666666">${escapeXml(subtitle)}</text>` : '',
    ...body,
    '</svg>',
    '',
  ].join('\n');
}

/** Upper estimate of a legend character's width in pixels at the chart's font size. */
const LEGEND_CHAR_WIDTH = 7;

/** Line chart of every series with at least one point whose coordinates the axes can show. */
export function lineChart(spec: LineChartSpec): string {
  const width = spec.width ?? 640, height = spec.height ?? 400;
  const usable = (x: number, y: number) => Number.isFinite(x) && Number.isFinite(y) && (!spec.xLog || x > 0) && (!spec.yLog || y > 0);
  const series = spec.series
    .map((s) => ({ name: s.name, points: s.points.filter(([x, y]) => usable(x, y)).sort((a, b) => a[0] - b[0]) }))
    .filter((s) => s.points.length > 0);
  const xs = series.flatMap((s) => s.points.map((p) => p[0]));
  const ys = series.flatMap((s) => s.points.map((p) => p[1]));
  const left = MARGIN.left, right = width - MARGIN.right, top = MARGIN.top, bottom = height - MARGIN.bottom;
  const body: string[] = [];
  if (xs.length === 0) {
    body.push(`<text x="${px(width / 2)}" y="${px(height / 2)}" text-anchor="middle">no data</text>`);
    return frame(width, height, spec.title, spec.subtitle, body);
  }
  let xMin = Math.min(...xs), xMax = Math.max(...xs);
  if (xMin === xMax) {
    // One x value: widen so the point sits inside the axis.
    xMin = spec.xLog ? xMin / 2 : xMin - 1;
    xMax = spec.xLog ? xMax * 2 : xMax + 1;
  }
  // The x axis shows the measured range (no forced 0); the y axis starts at 0 when linear.
  const xAxis = axisScale(xMin, xMax, left, right, spec.xLog ?? false, false);
  const yScale = axisScale(Math.min(...ys), Math.max(...ys), bottom, top, spec.yLog ?? false);
  body.push(`<g stroke="#dddddd">`);
  for (const t of yScale.ticks) body.push(`<line x1="${left}" x2="${right}" y1="${px(yScale.map(t))}" y2="${px(yScale.map(t))}"/>`);
  body.push('</g>');
  body.push(`<g font-size="11">`);
  for (const t of yScale.ticks) body.push(`<text x="${left - 6}" y="${px(yScale.map(t) + 4)}" text-anchor="end">${formatTick(t)}</text>`);
  for (const t of xAxis.ticks) body.push(`<text x="${px(xAxis.map(t))}" y="${bottom + 16}" text-anchor="middle">${formatTick(t)}</text>`);
  body.push('</g>');
  body.push(`<path d="M${left},${top}V${bottom}H${right}" fill="none" stroke="#333333"/>`);
  body.push(`<text x="${px((left + right) / 2)}" y="${bottom + 36}" text-anchor="middle">${escapeXml(spec.xLabel)}${spec.xLog ? ' (log scale)' : ''}</text>`);
  body.push(`<text transform="translate(16 ${px((top + bottom) / 2)}) rotate(-90)" text-anchor="middle">${escapeXml(spec.yLabel)}${spec.yLog ? ' (log scale)' : ''}</text>`);
  series.forEach((s, i) => {
    const color = PALETTE[i % PALETTE.length];
    const coords = s.points.map(([x, y]) => `${px(xAxis.map(x))},${px(yScale.map(y))}`);
    body.push(`<g class="series" data-name="${escapeXml(s.name)}" stroke="${color}" fill="${color}">`);
    if (coords.length > 1) body.push(`<polyline points="${coords.join(' ')}" fill="none" stroke-width="2"/>`);
    for (const c of coords) {
      const [cx, cy] = c.split(',');
      body.push(`<circle cx="${cx}" cy="${cy}" r="3"/>`);
    }
    body.push('</g>');
  });
  // Legend below the axis label, entries flowing into rows; widths from a generous estimate of
  // the text (SVG cannot measure it), so long names never overlap the next entry.
  let x = left, y = bottom + 56;
  series.forEach((s, i) => {
    const entryWidth = 16 + LEGEND_CHAR_WIDTH * s.name.length + 18;
    if (x > left && x + entryWidth > width - MARGIN.right / 2) {
      x = left;
      y += 16;
    }
    body.push(`<rect x="${x}" y="${y - 9}" width="12" height="10" fill="${PALETTE[i % PALETTE.length]}"/>`);
    body.push(`<text x="${x + 16}" y="${y}">${escapeXml(s.name)}</text>`);
    x += entryWidth;
  });
  return frame(width, height, spec.title, spec.subtitle, body);
}

/** Horizontal bars with their labels on the left and values at the bar ends; linear axis from 0. */
export function barChart(spec: BarChartSpec): string {
  const width = spec.width ?? 640;
  const bars = spec.bars.filter((b) => Number.isFinite(b.value) && b.value >= 0);
  const barHeight = 22, gap = 8, labelWidth = 300;
  const left = labelWidth, right = width - MARGIN.right - 40, top = MARGIN.top + 4;
  const bottom = top + Math.max(1, bars.length) * (barHeight + gap);
  const height = bottom + 48;
  const body: string[] = [];
  const scale = axisScale(0, Math.max(0, ...bars.map((b) => b.value)), left, right, false);
  body.push(`<g stroke="#dddddd">`);
  for (const t of scale.ticks) body.push(`<line x1="${px(scale.map(t))}" x2="${px(scale.map(t))}" y1="${top}" y2="${bottom}"/>`);
  body.push('</g>');
  bars.forEach((b, i) => {
    const y = top + gap / 2 + i * (barHeight + gap);
    const w = scale.map(b.value) - left;
    body.push(`<rect x="${left}" y="${y}" width="${px(w)}" height="${barHeight}" fill="${PALETTE[i % PALETTE.length]}"/>`);
    body.push(`<text x="${left - 6}" y="${y + 15}" text-anchor="end">${escapeXml(b.label)}</text>`);
    body.push(`<text x="${px(left + w + 4)}" y="${y + 15}">${formatTick(b.value)}</text>`);
  });
  body.push(`<g font-size="11">`);
  for (const t of scale.ticks) body.push(`<text x="${px(scale.map(t))}" y="${bottom + 16}" text-anchor="middle">${formatTick(t)}</text>`);
  body.push('</g>');
  body.push(`<path d="M${left},${top}V${bottom}H${right}" fill="none" stroke="#333333"/>`);
  body.push(`<text x="${px((left + right) / 2)}" y="${bottom + 36}" text-anchor="middle">${escapeXml(spec.xLabel)}</text>`);
  return frame(width, height, spec.title, spec.subtitle, body);
}
