import type { ReadonlyFloats } from './layout';
import { MAX_COORDINATE } from './tolerances';

/** Whether v is a finite number within ±MAX_COORDINATE (false for NaN, and for a value of another type: a string is not coerced). */
export function isCoordinate(v: number): boolean {
  return typeof v === 'number' && Math.abs(v) <= MAX_COORDINATE;
}

/** Why a value is refused, for messages ("is not finite (NaN)", "is 1e+39, outside ±1e+18" or "is not a number ('1')"). */
export function coordinateRefusal(v: unknown): string {
  if (typeof v !== 'number') return `is not a number (${typeof v === 'string' ? `'${v}'` : String(v)})`;
  return Number.isFinite(v) ? `is ${v}, outside ±${MAX_COORDINATE.toExponential()}` : `is not finite (${v})`;
}

/** Thrown at a public API boundary when input cannot produce a defined result. */
export class CollideInputError extends RangeError {
  /** 'CollideInputError', for messages and stack traces. */
  override name = 'CollideInputError';
}

/** Throws unless `count` xyz points starting at `offset` are all finite and within ±MAX_COORDINATE. */
export function assertFinitePoints(
  points: ReadonlyFloats,
  count: number,
  what: string,
  offset = 0,
): void {
  // Tested first so that the name is joined only on failure: fits call this per call.
  if (!isNumberList(points)) assertNumberList(points, `${what}: points`);
  if (!Number.isInteger(offset) || offset < 0) throw new CollideInputError(`${what}: offset must be a non-negative integer, got ${valueName(offset)}`);
  if (!Number.isInteger(count) || count < 0) {
    throw new CollideInputError(`${what}: point count must be a non-negative integer, got ${count}`);
  }
  if (offset + 3 * count > points.length) {
    throw new CollideInputError(
      `${what}: ${count} points from offset ${offset} need ${offset + 3 * count} numbers, array has ${points.length}`,
    );
  }
  for (let i = 0; i < 3 * count; i++) {
    const v = points[offset + i];
    if (!isCoordinate(v)) {
      const reason = Number.isFinite(v) ? `coordinate ${v}, outside ±${MAX_COORDINATE.toExponential()}` : `non-finite coordinate (${v})`;
      throw new CollideInputError(`${what}: point ${Math.floor(i / 3)} has a ${reason}`);
    }
  }
}

/** Throws unless the set holds at least one point. */
export function assertNonEmptyPoints(points: ReadonlyFloats, count: number, what: string, offset = 0): void {
  assertFinitePoints(points, count, what, offset);
  if (count === 0) throw new CollideInputError(`${what}: the point set is empty`);
}

/** Throws unless `n` numbers starting at `offset` are finite and within ±MAX_COORDINATE. */
export function assertFiniteValues(values: ReadonlyFloats, offset: number, n: number, what: string): void {
  for (let i = 0; i < n; i++) {
    const v = values[offset + i];
    if (!isCoordinate(v)) throw new CollideInputError(`${what}: value ${i} ${coordinateRefusal(v)}`);
  }
}

/** Throws unless `v` is a finite number within ±MAX_COORDINATE; `what` names it. */
export function assertCoordinate(v: number, what: string): void {
  if (typeof v !== 'number' || !isCoordinate(v)) throw new CollideInputError(`${what} ${coordinateRefusal(v)}`);
}

/** Throws unless every extent is finite, non-negative and at most MAX_COORDINATE. */
export function assertExtents(values: ReadonlyFloats, offset: number, n: number, what: string): void {
  assertFiniteValues(values, offset, n, what);
  for (let i = 0; i < n; i++) {
    if (values[offset + i] < 0) {
      throw new CollideInputError(`${what}: extent ${i} is negative (${values[offset + i]})`);
    }
  }
}

/**
 * Throws unless every own key of the options object `options` is one of `known`: a misspelt or
 * unsupported option is an error, never silently ignored. The message names the key and the
 * accepted ones.
 */
export function assertKnownKeys(options: object, known: readonly string[], what: string): void {
  for (const key of Object.keys(options)) {
    if (!known.includes(key)) {
      throw new CollideInputError(`${what}: unknown option '${key}' (accepted: ${known.join(', ')})`);
    }
  }
}

/** Whether `v` is an array of numbers as the API takes them: a plain array or a typed array. */
export function isNumberList(v: unknown): v is ArrayLike<number> {
  return Array.isArray(v) || (ArrayBuffer.isView(v) && !(v instanceof DataView));
}

/** Throws CollideInputError unless `v` (named `what`) is a plain or typed array. */
export function assertNumberList(v: unknown, what: string): void {
  if (!isNumberList(v)) throw new CollideInputError(`${what} must be an array of numbers (typed or plain), got ${valueName(v)}`);
}

/**
 * Throws CollideInputError unless `values` is an array of numbers holding `n` of them from offset
 * `o` (a non-negative integer). The message names `what`, then `field` when given (joined only
 * on failure, so a per-call check builds no string).
 */
export function assertNumberRun(values: unknown, o: number, n: number, what: string, field?: string): void {
  const ok = isNumberList(values);
  if (ok && Number.isInteger(o) && o >= 0 && o + n <= values.length) return;
  const name = field === undefined ? what : `${what}: ${field}`;
  if (!ok) throw new CollideInputError(`${name} must be an array of numbers (typed or plain), got ${valueName(values)}`);
  throw new CollideInputError(`${name}: ${n} numbers from offset ${valueName(o)} needed, it holds ${(values as ArrayLike<number>).length}`);
}

/**
 * Throws CollideInputError unless `out` can take a result of `n` numbers at offset `o` (a
 * non-negative integer): a plain array (it grows), or a typed array with room for them, since
 * numbers written past a typed array's end are dropped without a word.
 */
export function assertOutput(out: unknown, o: number, n: number, what: string): void {
  if (!isNumberList(out)) throw new CollideInputError(`${what}: out must be an array of numbers (typed or plain), got ${valueName(out)}`);
  if (!Number.isInteger(o) || o < 0) throw new CollideInputError(`${what}: the out offset must be a non-negative integer, got ${valueName(o)}`);
  if (!Array.isArray(out) && o + n > out.length) throw new CollideInputError(`${what}: out holds ${out.length} numbers, ${o + n} needed (${n} at offset ${o})`);
}

/** Throws CollideInputError unless `record` (named `what`, e.g. 'hits', 'hit') is an object. */
export function assertRecord(record: unknown, caller: string, what: string): void {
  if (record === null || typeof record !== 'object') throw new CollideInputError(`${caller}: ${what} must be an object, got ${valueName(record)}`);
}

/**
 * Throws CollideInputError unless `hit` is a hit record as `maker` makes it: an object whose
 * `point` and `normal` are arrays of at least 3 numbers, which a query writes when it hits.
 */
export function assertHitRecord(hit: unknown, caller: string, maker: string): void {
  if (!isHitRecord(hit)) throw new CollideInputError(`${caller}: hit must come from ${maker} (a record with point and normal arrays of 3 numbers), got ${valueName(hit)}`);
}

/** Whether `hit` is an object whose `point` and `normal` are arrays of at least 3 numbers. */
export function isHitRecord(hit: unknown): boolean {
  const record = hit as { point?: unknown; normal?: unknown } | null;
  return record !== null && typeof record === 'object' && isVector(record.point) && isVector(record.normal);
}

function isVector(v: unknown): boolean {
  return isNumberList(v) && v.length >= 3;
}

/** Throws CollideInputError unless `options` is an object whose keys are all in `known`. */
export function assertOptions(options: unknown, known: readonly string[], what: string): void {
  assertRecord(options, what, 'options');
  assertKnownKeys(options as object, known, what);
}

/** A value in a message: strings quoted, so a '3' is not mistaken for a 3. */
export function valueName(v: unknown): string {
  return typeof v === 'string' ? `'${v}'` : String(v);
}
