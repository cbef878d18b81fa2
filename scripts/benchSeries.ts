/**
 * Reading series out of benchmark results (bench/results/latest.json) without depending on each
 * benchmark's exact field names: rows are objects with a series name (a string field such as
 * `library` or `algorithm`), a size N (a numeric field such as `n` or `boxes`) and a time (such
 * as `medianMs`). Unknown shapes give no series and a reason, never an exception.
 */
import type { Series } from './svgChart';

/** Field names tried, in order, for each role. */
export const NAME_FIELDS = ['library', 'engine', 'peer', 'implementation', 'algorithm', 'broadPhase', 'name', 'case'];
export const N_FIELDS = ['n', 'N', 'boxes', 'bodies', 'entities', 'objects', 'colliders', 'count', 'size'];
export const TIME_FIELDS = ['msPerFrame', 'medianMs', 'meanMs', 'ms', 'timeMs'];

type Row = Record<string, unknown>;

const isRow = (v: unknown): v is Row => typeof v === 'object' && v !== null && !Array.isArray(v);
const firstOf = (row: Row, fields: readonly string[], type: 'string' | 'number') =>
  fields.find((f) => typeof row[f] === type && (type === 'string' || Number.isFinite(row[f] as number)));

/**
 * Rows of `value`: an array of objects; or an object holding such an array (`rows`, `results`,
 * ... : the first array of objects found); or an object of arrays keyed by series name (each row
 * then gets that name as `series`). A row with a size but no time that holds an array of rows
 * (one size, many implementations) is replaced by those rows, each given the size.
 */
export function findRows(value: unknown): Row[] {
  return topRows(value).flatMap((row) => {
    const nField = firstOf(row, N_FIELDS, 'number');
    const nested = Object.values(row).find((v): v is unknown[] => Array.isArray(v) && v.some(isRow));
    if (!nField || firstOf(row, TIME_FIELDS, 'number') || !nested) return [row];
    return nested.filter(isRow).map((inner) => ({ [nField]: row[nField], ...inner }));
  });
}

function topRows(value: unknown): Row[] {
  if (Array.isArray(value)) return value.filter(isRow);
  if (!isRow(value)) return [];
  const arrays = Object.entries(value).filter(([, v]) => Array.isArray(v) && v.some(isRow)) as [string, unknown[]][];
  const withN = arrays.filter(([, v]) => v.filter(isRow).some((r) => firstOf(r, N_FIELDS, 'number')));
  // Several arrays of sized rows without a name field of their own: a map from series name to rows.
  if (withN.length > 1 && withN.every(([, v]) => v.filter(isRow).every((r) => !firstOf(r, NAME_FIELDS, 'string')))) {
    return withN.flatMap(([key, v]) => v.filter(isRow).map((r) => ({ series: key, ...r })));
  }
  const chosen = withN[0] ?? arrays[0];
  return chosen ? chosen[1].filter(isRow) : [];
}

/** Series (name → points (N, ms)) of the rows, sorted by N; `problem` says why there are none. */
export function timeSeries(value: unknown): { series: Series[]; problem?: string } {
  const rows = findRows(value);
  if (rows.length === 0) return { series: [], problem: 'no rows of objects found' };
  const byName = new Map<string, [number, number][]>();
  let unusable = 0;
  for (const row of rows) {
    const nameField = 'series' in row && typeof row.series === 'string' ? 'series' : firstOf(row, NAME_FIELDS, 'string');
    const nField = firstOf(row, N_FIELDS, 'number');
    const timeField = firstOf(row, TIME_FIELDS, 'number');
    if (!nField || !timeField) {
      unusable++;
      continue;
    }
    const name = nameField ? String(row[nameField]) : 'result';
    const points = byName.get(name) ?? [];
    points.push([row[nField] as number, row[timeField] as number]);
    byName.set(name, points);
  }
  const series = [...byName].map(([name, points]) => ({ name, points: points.sort((a, b) => a[0] - b[0]) }));
  if (series.length === 0) return { series, problem: `${unusable} rows, none with a numeric size (${N_FIELDS.join('/')}) and time (${TIME_FIELDS.join('/')})` };
  return { series };
}

/** Bars (name, rate) of rows with a name and a numeric `opsPerSecond`, e.g. the overlap benchmark's `results`. */
export function rateBars(value: unknown, scale = 1): { label: string; value: number }[] {
  return findRows(value)
    .filter((r) => typeof r.name === 'string' && typeof r.opsPerSecond === 'number' && Number.isFinite(r.opsPerSecond))
    .map((r) => ({ label: r.name as string, value: (r.opsPerSecond as number) * scale }));
}
