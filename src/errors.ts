import type { ReadonlyFloats } from './layout';

/** Thrown at a public API boundary when input cannot produce a defined result. */
export class CollideInputError extends RangeError {
  override name = 'CollideInputError';
}

/** Throws unless `count` xyz points starting at `offset` are all finite. */
export function assertFinitePoints(
  points: ReadonlyFloats,
  count: number,
  what: string,
  offset = 0,
): void {
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
    if (!Number.isFinite(v)) {
      const p = Math.floor(i / 3);
      throw new CollideInputError(`${what}: point ${p} has a non-finite coordinate (${v})`);
    }
  }
}

/** Throws unless the set holds at least one point. */
export function assertNonEmptyPoints(points: ReadonlyFloats, count: number, what: string, offset = 0): void {
  assertFinitePoints(points, count, what, offset);
  if (count === 0) throw new CollideInputError(`${what}: the point set is empty`);
}

/** Throws unless `n` numbers starting at `offset` are finite. */
export function assertFiniteValues(values: ReadonlyFloats, offset: number, n: number, what: string): void {
  for (let i = 0; i < n; i++) {
    const v = values[offset + i];
    if (!Number.isFinite(v)) throw new CollideInputError(`${what}: value ${i} is not finite (${v})`);
  }
}

/** Throws unless every extent is finite and non-negative. */
export function assertExtents(values: ReadonlyFloats, offset: number, n: number, what: string): void {
  assertFiniteValues(values, offset, n, what);
  for (let i = 0; i < n; i++) {
    if (values[offset + i] < 0) {
      throw new CollideInputError(`${what}: extent ${i} is negative (${values[offset + i]})`);
    }
  }
}
