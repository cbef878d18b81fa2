import { CollideInputError, assertKnownKeys, assertNumberList, coordinateRefusal } from '../errors';
import { OBB_AXES, OBB_CENTER, OBB_HALF, OBB_STRIDE, type Floats, type ReadonlyFloats } from '../layout';
import { MAX_COORDINATE, ROUNDING_ALLOWANCE, SAT_AXIS_SLACK } from '../tolerances';

/** Shapes a ShapeQuery can take. */
export type ShapeQueryShape = 'sphere' | 'capsule' | 'obb' | 'aabb';

// ShapeQuery.kind values: the numbers of the collider kinds (SHAPE_SPHERE ... SHAPE_CAPSULE of
// components/collider.ts), so the query's `data` reads like a collider's world shape.
/** ShapeQuery.kind: a sphere, `data` [cx, cy, cz, r]. */
export const QUERY_SPHERE = 0;
/** ShapeQuery.kind: an axis-aligned box, `data` [min (3), max (3)]. */
export const QUERY_AABB = 1;
/** ShapeQuery.kind: an oriented box, `data` in OBB layout (centre, axes as columns, half-extents). */
export const QUERY_OBB = 2;
/** ShapeQuery.kind: a capsule, `data` [p0 (3), p1 (3), r]. */
export const QUERY_CAPSULE = 3;

const SHAPE_NAMES: readonly ShapeQueryShape[] = ['sphere', 'aabb', 'obb', 'capsule'];

/**
 * An overlap query or shape cast: a shape in world coordinates, made once (`createShapeQuery`) and
 * reused, so a query allocates nothing. Move it between queries with setSphereQuery,
 * setCapsuleQuery, setObbQuery or setAabbQuery (which also change its shape), and set a cast's
 * displacement with setShapeCast. Every query validates its fields first.
 */
export interface ShapeQuery {
  /** The shape ('sphere', 'capsule', 'obb', 'aabb'); change it with the setters. */
  readonly shape: ShapeQueryShape;
  /** @internal QUERY_* of `shape`. */
  readonly kind: number;
  /**
   * The shape's numbers in the layout of its kind (see QUERY_SPHERE ... QUERY_AABB): the collider
   * layouts of src/layout.ts, 15 numbers (an OBB's) reserved.
   */
  readonly data: Float64Array;
  /** Translation over a cast (x, y, z): the shape moves from where it is to there plus this. Unused by overlap queries. */
  readonly displacement: Float64Array;
  /** Layers the query meets: a collider counts when its layer shares a bit with this (default all). */
  mask: number;
  /** An entity the query passes through, e.g. the caster itself (default -1: none). */
  ignore: number;
}

/** Initial values of a shape query; only the fields of its shape are accepted. */
export interface ShapeQueryInit {
  /** The shape (default 'sphere'). */
  shape?: ShapeQueryShape;
  /** Sphere and OBB: centre (default the origin). */
  center?: ArrayLike<number>;
  /** Sphere and capsule: radius >= 0 (default 0.5). */
  radius?: number;
  /** Capsule: one end of its segment (default (0, -0.5, 0)). */
  p0?: ArrayLike<number>;
  /** Capsule: the other end (default (0, 0.5, 0)). */
  p1?: ArrayLike<number>;
  /** OBB: half-extents >= 0 (default 0.5 each). */
  halfExtents?: ArrayLike<number>;
  /** OBB: the box's axes as 9 numbers, u0, u1, u2, orthonormal (default the world axes). */
  axes?: ArrayLike<number>;
  /** AABB: lowest corner, min <= max per axis (default −0.5 each). */
  min?: ArrayLike<number>;
  /** AABB: highest corner (default 0.5 each). */
  max?: ArrayLike<number>;
  /** Casts: translation over the cast (default +x, 1 unit). */
  displacement?: ArrayLike<number>;
  /** Layer mask (default all). */
  mask?: number;
  /** Entity to pass through (default -1). */
  ignore?: number;
}

// Written out rather than spread from a common list: a module-level spread is code a bundler
// keeps even in programs that never make a shape query.
const SHAPE_KEYS: Readonly<Record<ShapeQueryShape, readonly string[]>> = {
  sphere: ['shape', 'displacement', 'mask', 'ignore', 'center', 'radius'],
  capsule: ['shape', 'displacement', 'mask', 'ignore', 'p0', 'p1', 'radius'],
  obb: ['shape', 'displacement', 'mask', 'ignore', 'center', 'halfExtents', 'axes'],
  aabb: ['shape', 'displacement', 'mask', 'ignore', 'min', 'max'],
};

/** Numbers of an init field, refused unless `n` of them are given. */
function triple(v: ArrayLike<number> | undefined, fallback: readonly number[], n: number, field: string): ArrayLike<number> {
  if (v === undefined) return fallback;
  if (v === null || typeof v !== 'object' || v.length !== n) throw new CollideInputError(`createShapeQuery: ${field} must hold ${n} numbers, got ${String(v)}`);
  return v;
}

/**
 * A reusable shape query; throws CollideInputError for an unknown field (or one of another shape)
 * or a bad value, naming it.
 */
export function createShapeQuery(init: ShapeQueryInit = {}): ShapeQuery {
  if (init === null || typeof init !== 'object') throw new CollideInputError('createShapeQuery: init must be an object');
  const shape = init.shape ?? 'sphere';
  const kind = SHAPE_NAMES.indexOf(shape);
  if (kind < 0) throw new CollideInputError(`createShapeQuery: shape must be 'sphere', 'capsule', 'obb' or 'aabb', got ${String(shape)}`);
  assertKnownKeys(init, SHAPE_KEYS[shape], `createShapeQuery (shape '${shape}')`);
  const q: ShapeQuery = {
    shape,
    kind,
    data: new Float64Array(OBB_STRIDE),
    displacement: Float64Array.from(triple(init.displacement, [1, 0, 0], 3, 'displacement')),
    mask: init.mask ?? 0xffffffff,
    ignore: init.ignore ?? -1,
  };
  const d = q.data;
  if (kind === QUERY_SPHERE) {
    d.set(triple(init.center, [0, 0, 0], 3, 'center'));
    d[3] = init.radius ?? 0.5;
  } else if (kind === QUERY_CAPSULE) {
    d.set(triple(init.p0, [0, -0.5, 0], 3, 'p0'));
    d.set(triple(init.p1, [0, 0.5, 0], 3, 'p1'), 3);
    d[6] = init.radius ?? 0.5;
  } else if (kind === QUERY_OBB) {
    d.set(triple(init.center, [0, 0, 0], 3, 'center'), OBB_CENTER);
    d.set(triple(init.axes, [1, 0, 0, 0, 1, 0, 0, 0, 1], 9, 'axes'), OBB_AXES);
    d.set(triple(init.halfExtents, [0.5, 0.5, 0.5], 3, 'halfExtents'), OBB_HALF);
  } else {
    d.set(triple(init.min, [-0.5, -0.5, -0.5], 3, 'min'));
    d.set(triple(init.max, [0.5, 0.5, 0.5], 3, 'max'), 3);
  }
  assertShapeQuery(q, 'createShapeQuery', init.displacement !== undefined);
  return q;
}

/** Makes the query a sphere of centre (x, y, z) and radius r (allocation-free); returns it. */
export function setSphereQuery(q: ShapeQuery, x: number, y: number, z: number, r: number): ShapeQuery {
  assertShapeQueryRecord(q, 'setSphereQuery');
  const d = q.data;
  d[0] = x; d[1] = y; d[2] = z; d[3] = r;
  return setKind(q, QUERY_SPHERE);
}

/** Makes the query a capsule around segment (ax, ay, az)-(bx, by, bz) of radius r (allocation-free); returns it. */
export function setCapsuleQuery(q: ShapeQuery, ax: number, ay: number, az: number, bx: number, by: number, bz: number, r: number): ShapeQuery {
  assertShapeQueryRecord(q, 'setCapsuleQuery');
  const d = q.data;
  d[0] = ax; d[1] = ay; d[2] = az; d[3] = bx; d[4] = by; d[5] = bz; d[6] = r;
  return setKind(q, QUERY_CAPSULE);
}

/** Makes the query the OBB at box[offset] (OBB layout: centre, axes u0 u1 u2, half-extents), copied; returns it. */
export function setObbQuery(q: ShapeQuery, box: ReadonlyFloats, offset = 0): ShapeQuery {
  assertShapeQueryRecord(q, 'setObbQuery');
  assertNumberList(box, 'setObbQuery: box');
  const d = q.data;
  for (let i = 0; i < OBB_STRIDE; i++) d[i] = box[offset + i];
  return setKind(q, QUERY_OBB);
}

/** Makes the query the axis-aligned box [min, max] (allocation-free); returns it. */
export function setAabbQuery(q: ShapeQuery, minX: number, minY: number, minZ: number, maxX: number, maxY: number, maxZ: number): ShapeQuery {
  assertShapeQueryRecord(q, 'setAabbQuery');
  const d = q.data;
  d[0] = minX; d[1] = minY; d[2] = minZ; d[3] = maxX; d[4] = maxY; d[5] = maxZ;
  return setKind(q, QUERY_AABB);
}

/** Sets the query's cast displacement (allocation-free); returns it. */
export function setShapeCast(q: ShapeQuery, dx: number, dy: number, dz: number): ShapeQuery {
  assertShapeQueryRecord(q, 'setShapeCast');
  const d = q.displacement;
  d[0] = dx; d[1] = dy; d[2] = dz;
  return q;
}

/** @internal Makes the query of kind `kind` (QUERY_*), its numbers left as they are; returns it. */
export function setKind(q: ShapeQuery, kind: number): ShapeQuery {
  const w = q as { shape: ShapeQueryShape; kind: number };
  w.kind = kind;
  w.shape = SHAPE_NAMES[kind];
  return q;
}

// The checks read the numbers from arrays: numbers passed to a call that V8 does not inline are
// boxed, and a query is validated on every call. Strings are made only to throw. `item` is a
// batch's query index, named in messages (-1: a single query).

/** `caller: query.field[index]`, with the batch query's index when item >= 0. */
function fieldName(caller: string, item: number, field: string, index: number): string {
  return `${caller}${item < 0 ? '' : ` (query ${item})`}: query.${field}${index < 0 ? '' : `[${index}]`}`;
}

/** Throws unless a[i] is a coordinate; the field is `field` or `field[index]` (index >= 0). */
function checkCoordinate(a: Float64Array, i: number, caller: string, item: number, field: string, index: number): void {
  if (!(Math.abs(a[i]) <= MAX_COORDINATE)) throw new CollideInputError(`${fieldName(caller, item, field, index)} ${coordinateRefusal(a[i])}`);
}

function checkPoint(d: Float64Array, o: number, caller: string, item: number, field: string): void {
  for (let k = 0; k < 3; k++) checkCoordinate(d, o + k, caller, item, field, k);
}

/** Throws unless a[i] is in [0, MAX_COORDINATE]. */
function checkLength(a: Float64Array, i: number, caller: string, item: number, field: string, index: number): void {
  if (!(a[i] >= 0 && a[i] <= MAX_COORDINATE)) {
    throw new CollideInputError(`${fieldName(caller, item, field, index)} must be in [0, ${MAX_COORDINATE.toExponential()}], got ${a[i]}`);
  }
}

/** Throws CollideInputError unless `q` has a shape query's arrays and a known kind (createShapeQuery); its numbers are not checked. */
function assertShapeQueryRecord(q: ShapeQuery, caller: string): void {
  if (q === null || typeof q !== 'object') throw new CollideInputError(`${caller}: the query must come from createShapeQuery, got ${String(q)}`);
  const d = q.data, m = q.displacement;
  if (!(d instanceof Float64Array) || d.length !== OBB_STRIDE || !(m instanceof Float64Array) || m.length !== 3 || SHAPE_NAMES[q.kind] !== q.shape) {
    throw new CollideInputError(`${caller}: the query must come from createShapeQuery`);
  }
}

/**
 * Validates a query for an overlap query (`cast` false) or a cast (`cast` true, which also needs a
 * finite, non-zero displacement): CollideInputError naming the field and value. A box's axes must
 * be orthonormal to SAT_AXIS_SLACK, as the stores' boxes are.
 */
export function assertShapeQuery(q: ShapeQuery, caller: string, cast: boolean): void {
  assertShapeQueryRecord(q, caller);
  const d = q.data, m = q.displacement;
  assertShapeQueryFields(q.kind, d, 0, m, 0, caller, cast, -1);
  if (!Number.isInteger(q.mask) || q.mask < 0 || q.mask > 0xffffffff) throw new CollideInputError(`${caller}: query.mask must be a uint32, got ${q.mask}`);
  if (!Number.isInteger(q.ignore) || q.ignore < -1) throw new CollideInputError(`${caller}: query.ignore must be an entity id or -1, got ${q.ignore}`);
}

/**
 * @internal assertShapeQuery's checks of the shape (kind `kind`, QUERY_*, at d[o]) and, for a
 * cast, the displacement (at m[mo]): also a batch's query `item` in place, without a copy.
 */
export function assertShapeQueryFields(kind: number, d: Float64Array, o: number, m: Float64Array, mo: number, caller: string, cast: boolean, item: number): void {
  switch (kind) {
    case QUERY_SPHERE:
      checkPoint(d, o, caller, item, 'center');
      checkLength(d, o + 3, caller, item, 'radius', -1);
      break;
    case QUERY_CAPSULE:
      checkPoint(d, o, caller, item, 'p0');
      checkPoint(d, o + 3, caller, item, 'p1');
      checkLength(d, o + 6, caller, item, 'radius', -1);
      break;
    case QUERY_OBB:
      checkPoint(d, o + OBB_CENTER, caller, item, 'center');
      for (let k = 0; k < 3; k++) checkLength(d, o + OBB_HALF + k, caller, item, 'halfExtents', k);
      for (let k = 0; k < 9; k++) checkCoordinate(d, o + OBB_AXES + k, caller, item, 'axes', k);
      for (let i = 0; i < 3; i++) {
        for (let j = i; j < 3; j++) {
          const a = o + OBB_AXES + 3 * i, b = o + OBB_AXES + 3 * j;
          const dot = d[a] * d[b] + d[a + 1] * d[b + 1] + d[a + 2] * d[b + 2];
          if (!(Math.abs(dot - (i === j ? 1 : 0)) <= SAT_AXIS_SLACK)) {
            throw new CollideInputError(`${fieldName(caller, item, 'axes', -1)} must be orthonormal (u${i}·u${j} = ${dot})`);
          }
        }
      }
      break;
    default:
      checkPoint(d, o, caller, item, 'min');
      checkPoint(d, o + 3, caller, item, 'max');
      for (let k = 0; k < 3; k++) {
        if (!(d[o + k] <= d[o + 3 + k])) throw new CollideInputError(`${fieldName(caller, item, 'min', k)} = ${d[o + k]} exceeds query.max[${k}] = ${d[o + 3 + k]}`);
      }
  }
  if (!cast) return;
  checkPoint(m, mo, caller, item, 'displacement');
  if (m[mo] === 0 && m[mo + 1] === 0 && m[mo + 2] === 0) throw new CollideInputError(`${fieldName(caller, item, 'displacement', -1)} must not be zero`);
}

/** World box (min-max) of the query's shape at out[o]; returns out. */
export function shapeQueryBounds(out: Floats, o: number, q: ShapeQuery): Floats {
  const d = q.data;
  switch (q.kind) {
    case QUERY_SPHERE:
      for (let k = 0; k < 3; k++) {
        out[o + k] = d[k] - d[3];
        out[o + 3 + k] = d[k] + d[3];
      }
      break;
    case QUERY_CAPSULE:
      for (let k = 0; k < 3; k++) {
        out[o + k] = Math.min(d[k], d[3 + k]) - d[6];
        out[o + 3 + k] = Math.max(d[k], d[3 + k]) + d[6];
      }
      break;
    case QUERY_OBB:
      for (let k = 0; k < 3; k++) {
        // Radius along world axis k: Σ_j h_j |u_j[k]|.
        const r = d[OBB_HALF] * Math.abs(d[OBB_AXES + k]) + d[OBB_HALF + 1] * Math.abs(d[OBB_AXES + 3 + k]) + d[OBB_HALF + 2] * Math.abs(d[OBB_AXES + 6 + k]);
        out[o + k] = d[OBB_CENTER + k] - r;
        out[o + 3 + k] = d[OBB_CENTER + k] + r;
      }
      break;
    default:
      for (let k = 0; k < 6; k++) out[o + k] = d[k];
  }
  // Outward by double rounding, so a shape the exact tests find touching is never culled by its box.
  for (let k = 0; k < 3; k++) {
    const slack = ROUNDING_ALLOWANCE * (Math.abs(out[o + k]) + Math.abs(out[o + 3 + k]));
    out[o + k] -= slack;
    out[o + 3 + k] += slack;
  }
  return out;
}
