// overlapColliders against a reference that tests every collider, with no culling: world shapes
// rebuilt from each collider's description and Float32 transform (pipelineScene.ts), decided by
// other formulations (corner-projection SAT, clamping distances), compared outside a band around
// zero gap; k-DOPs by their k-DOPs built here from support values; character hitboxes as boxes
// from the hitbox store; the mesh by its tree over all triangles at the entity's pose. Every
// broad phase, static and moving colliders, several frames.
import fc from 'fast-check';
import { addEntity, createWorld } from 'bitecs';
import { describe, expect, it } from 'vitest';
import { buildBoundingTree } from '../../src/tree/build';
import { addCharacterHitboxes, createHitboxStore } from '../../src/character/hitboxStore';
import { fitBoneHitboxes } from '../../src/character/hitboxFit';
import { addCharacter, createSkeletonStore, defineSkeleton } from '../../src/character/skeleton';
import { defineSkin } from '../../src/character/skin';
import { KDOP_DIRECTIONS } from '../../src/volumes/kdop';
import { poseFromTranslationQuaternion } from '../../src/tree/pose';
import { TreeQueryResult } from '../../src/tree/queryResult';
import { overlapTreeCapsule, overlapTreeObb, overlapTreeSphere } from '../../src/tree/overlapVolume';
import { createShapeQuery, setAabbQuery, setCapsuleQuery, setObbQuery, setShapeCast, setSphereQuery, assertShapeQuery, type ShapeQuery } from '../../src/query/shapeQuery';
import { addCharacterCollider, addCollider, addKdopCollider, addMeshCollider, createCollisionPipeline, removeCollider, setTransform } from '../../systems/index';
import { resolveBroadPhase, BROAD_PHASE_NAMES } from '../../systems/broadPhaseNames';
import type { BroadPhaseName } from '../../systems/collisionState';
import { overlapColliders } from '../../systems/shapeQueries';
import { buildHumanoid } from '../../scenes/humanoid';
import { mulberry32, quaternionToAxes, randomQuaternion } from '../../scenes/random';
import { torusKnot } from '../../scenes/torusKnot';
import { randomBody, referenceBand, referenceGap, referenceShape, type Body, type RefShape } from '../support/pipelineScene';
import { boxFromStore, norm, scale as scaleV, add, sub, type V } from '../support/contactReference';
import { refusal } from '../support/refusal';
import { leastBytesPerCall } from '../support/allocation';

const knot = torusKnot({ tubularSegments: 48, radialSegments: 8, radius: 3, tube: 0.8 });
const tree = buildBoundingTree(knot.positions, knot.indices);
const humanoid = buildHumanoid();
const definition = defineSkeleton(humanoid.skeleton);
const fitted = fitBoneHitboxes(definition, defineSkin(definition, humanoid.skin));
const KDOP_POINTS = 8;

/** How the reference decides one collider: a signed gap and its band, or an exact yes/no. */
type Ref = { eid: number; layer: number; decide: (q: RefQuery) => { gap: number; band: number } | boolean };

interface RefQuery {
  shape: RefShape;
  query: ShapeQuery;
}

interface Scene {
  world: ReturnType<typeof createWorld>;
  refs: Ref[];
  move(): void;
  step(): void;
}

/** k-DOP (k = 14) of a reference shape from its support values. */
function shapeKdop(s: RefShape): number[] {
  const dirs = KDOP_DIRECTIONS[14], out = new Array<number>(14);
  for (let i = 0; i < 7; i++) {
    const d: V = [dirs[3 * i], dirs[3 * i + 1], dirs[3 * i + 2]];
    let points: V[], r = 0;
    if (s.kind === 'sphere') { points = [s.centre]; r = s.r; }
    else if (s.kind === 'capsule') { points = [s.p0, s.p1]; r = s.r; }
    else {
      points = [];
      for (const a of [-1, 1]) for (const b of [-1, 1]) for (const c of [-1, 1]) {
        points.push(add(s.box.c, add(scaleV(s.box.u[0], a * s.box.h[0]), add(scaleV(s.box.u[1], b * s.box.h[1]), scaleV(s.box.u[2], c * s.box.h[2])))));
      }
    }
    const proj = points.map((p) => p[0] * d[0] + p[1] * d[1] + p[2] * d[2]);
    out[i] = Math.min(...proj) - r * norm(d);
    out[7 + i] = Math.max(...proj) + r * norm(d);
  }
  return out;
}

function buildScene(seed: number, broadPhase: BroadPhaseName, withMesh = true, kinds: readonly Body['kind'][] = ['sphere', 'aabb', 'obb', 'capsule']): Scene {
  const rand = mulberry32(seed);
  const world = createWorld();
  const skeletons = createSkeletonStore();
  const hitboxes = createHitboxStore();
  const p = createCollisionPipeline(world, { broadPhase: resolveBroadPhase(broadPhase), characters: { skeletons, hitboxes } });
  const refs: Ref[] = [];
  const bodies: { eid: number; body: Body }[] = [];
  const place = (): V => [12 * rand(), 12 * rand(), 12 * rand()];
  for (let i = 0; i < 48; i++) {
    const eid = addEntity(world);
    const layer = 1 << Math.floor(3 * rand());
    const body = randomBody(rand, kinds[i % kinds.length], { count: 1, kinds, size: 12 });
    // A third static (the spatial hash's static grid), the rest moving.
    addCollider(world, eid, { ...body.desc, layer, isStatic: i % 3 === 0 });
    setTransform(world, eid, body.position, body.rotation);
    bodies.push({ eid, body });
    refs.push({
      eid, layer,
      decide: (q) => {
        const s = referenceShape(body.desc, p.transform, eid);
        return { gap: referenceGap(q.shape, s), band: referenceBand(q.shape, s) };
      },
    });
  }
  for (let i = 0; i < 8; i++) {
    const eid = addEntity(world);
    const points = Array.from({ length: 3 * KDOP_POINTS }, () => 3 * (rand() - 0.5));
    addKdopCollider(world, eid, points, { layer: 1 });
    const position = place(), q = randomQuaternion(rand);
    setTransform(world, eid, position, q);
    refs.push({
      eid, layer: 1,
      decide: (query) => {
        const a = shapeKdop(query.shape), c = p.collider.kdop, o = 14 * eid;
        let gap = -Infinity;
        for (let k = 0; k < 7; k++) gap = Math.max(gap, c[o + k] - a[7 + k], a[k] - c[o + 7 + k]);
        return { gap, band: 1e-9 * (1 + norm(query.shape.centre)) };
      },
    });
  }
  // A mesh (scale 1), decided by its tree over all triangles at the same pose.
  if (withMesh) addMesh();
  function addMesh(): void {
  const meshEid = addEntity(world);
  const meshPosition: V = [6, 6, 6], meshQ = randomQuaternion(rand);
  addMeshCollider(world, meshEid, tree, { layer: 1 });
  setTransform(world, meshEid, meshPosition, meshQ);
  const result = new TreeQueryResult();
  refs.push({
    eid: meshEid, layer: 1,
    decide: ({ query }) => {
      const t = p.transform, e = meshEid;
      const quat = [t.rotation[4 * e], t.rotation[4 * e + 1], t.rotation[4 * e + 2], t.rotation[4 * e + 3]];
      const n = Math.hypot(...quat);
      const pose = poseFromTranslationQuaternion(new Float64Array(12), 0, t.position[3 * e], t.position[3 * e + 1], t.position[3 * e + 2], quat.map((v) => v / n));
      const d = query.data;
      if (query.shape === 'sphere') return overlapTreeSphere(result, tree, pose, 0, d, 0) > 0;
      if (query.shape === 'capsule') return overlapTreeCapsule(result, tree, pose, 0, d, 0) > 0;
      if (query.shape === 'obb') return overlapTreeObb(result, tree, pose, 0, d, 0) > 0;
      const box = [(d[0] + d[3]) / 2, (d[1] + d[4]) / 2, (d[2] + d[5]) / 2, 1, 0, 0, 0, 1, 0, 0, 0, 1, (d[3] - d[0]) / 2, (d[4] - d[1]) / 2, (d[5] - d[2]) / 2];
      return overlapTreeObb(result, tree, pose, 0, box, 0) > 0;
    },
  });
  }
  // A character, decided by each of its hitboxes as a reference box.
  const charEid = addEntity(world);
  const c = addCharacter(skeletons, definition, charEid);
  addCharacterHitboxes(hitboxes, skeletons, c, fitted);
  addCharacterCollider(world, charEid, c);
  skeletons.characterMatrix.set([5, 2, 5], 16 * c + 12);
  humanoid.animate(0.3, skeletons.translation, skeletons.rotation, skeletons.scale);
  refs.push({
    eid: charEid, layer: 1,
    decide: (q) => {
      let best = { gap: Infinity, band: 0 };
      const first = hitboxes.firstHitbox[c];
      for (let h = first; h < first + hitboxes.hitboxCount[c]; h++) {
        const box = boxFromStore(hitboxes.world, 15 * h);
        const s: RefShape = { kind: 'box', box, centre: box.c, radius: norm(box.h) };
        const gap = referenceGap(q.shape, s);
        if (gap < best.gap) best = { gap, band: referenceBand(q.shape, s) };
      }
      return best;
    },
  });
  return {
    world,
    refs,
    move(): void {
      for (const { eid, body } of bodies) {
        if (p.collider.isStatic[eid] === 1) continue;
        body.position = [body.position[0] + 3 * (rand() - 0.5), body.position[1] + 3 * (rand() - 0.5), body.position[2] + 3 * (rand() - 0.5)];
        setTransform(world, eid, body.position, randomQuaternion(rand));
      }
      skeletons.characterMatrix.set([12 * rand(), 12 * rand(), 12 * rand()], 16 * c + 12);
    },
    step(): void {
      p.step(world);
    },
  };
}

/** The reference shape of a query. */
function refShapeOf(q: ShapeQuery): RefShape {
  const d = q.data;
  const at = (o: number): V => [d[o], d[o + 1], d[o + 2]];
  if (q.shape === 'sphere') return { kind: 'sphere', centre: at(0), r: d[3], radius: d[3] };
  if (q.shape === 'capsule') {
    const p0 = at(0), p1 = at(3);
    return { kind: 'capsule', p0, p1, r: d[6], centre: scaleV(add(p0, p1), 0.5), radius: 0.5 * norm(sub(p1, p0)) + d[6] };
  }
  if (q.shape === 'obb') {
    const box = boxFromStore(d, 0);
    return { kind: 'box', box, centre: box.c, radius: norm(box.h) };
  }
  const lo = at(0), hi = at(3);
  const c = scaleV(add(lo, hi), 0.5), h = scaleV(sub(hi, lo), 0.5);
  return { kind: 'box', box: { c, u: [[1, 0, 0], [0, 1, 0], [0, 0, 1]], h }, centre: c, radius: norm(h) };
}

/** Checks overlapColliders against the reference; returns [colliders found, colliders decided inside the band]. */
function checkQuery(scene: Scene, q: ShapeQuery): [number, number] {
  const got = [] as number[];
  const n = overlapColliders(scene.world, got, q);
  expect(got.length).toBe(n);
  for (let i = 1; i < n; i++) expect(got[i]).toBeGreaterThan(got[i - 1]);
  const set = new Set(got);
  const rq = { shape: refShapeOf(q), query: q };
  let undecided = 0;
  for (const ref of scene.refs) {
    const excluded = ref.eid === q.ignore || (ref.layer & q.mask) === 0;
    if (excluded) {
      expect(set.has(ref.eid)).toBe(false);
      continue;
    }
    const verdict = ref.decide(rq);
    if (typeof verdict === 'boolean') {
      expect(set.has(ref.eid), `entity ${ref.eid}`).toBe(verdict);
    } else if (verdict.gap < -verdict.band) {
      expect(set.has(ref.eid), `entity ${ref.eid} gap ${verdict.gap}`).toBe(true);
    } else if (verdict.gap > verdict.band) {
      expect(set.has(ref.eid), `entity ${ref.eid} gap ${verdict.gap}`).toBe(false);
    } else undecided++;
  }
  return [n, undecided];
}

/** Uniform doubles in [lo, hi] (fast-check's doubles lean to the bounds and to tiny values). */
const between = (lo: number, hi: number) => fc.integer({ min: 0, max: 1 << 30 }).map((i) => lo + ((hi - lo) * i) / (1 << 30));
const vec = (lo: number, hi: number) => fc.tuple(between(lo, hi), between(lo, hi), between(lo, hi));

/** Random query shapes over the scene (and beyond its edges), any of the four. */
const queryArbitrary = fc.record({
  shape: fc.constantFrom('sphere', 'capsule', 'obb', 'aabb'),
  c: vec(0, 12),
  e: vec(-3, 3),
  size: vec(0, 4),
  q: fc.tuple(between(-1, 1), between(-1, 1), between(-1, 1), between(0.1, 1)),
  mask: fc.constantFrom(0xffffffff, 1, 2, 4, 6),
  ignore: fc.integer({ min: -1, max: 70 }),
});

type QueryRecord = typeof queryArbitrary extends fc.Arbitrary<infer T> ? T : never;

function setQuery(q: ShapeQuery, r: QueryRecord): void {
  const [x, y, z] = r.c, [ex, ey, ez] = r.e, [a, b, cc] = r.size;
  if (r.shape === 'sphere') setSphereQuery(q, x, y, z, a);
  else if (r.shape === 'capsule') setCapsuleQuery(q, x, y, z, x + ex, y + ey, z + ez, 0.5 * a);
  else if (r.shape === 'aabb') setAabbQuery(q, x, y, z, x + a, y + b, z + cc);
  else {
    const n = Math.hypot(...r.q);
    setObbQuery(q, [x, y, z, ...quaternionToAxes(r.q.map((v) => v / n)), a, b, cc]);
  }
  q.mask = r.mask;
  q.ignore = r.ignore;
}

describe('overlapColliders', () => {
  for (const broadPhase of BROAD_PHASE_NAMES.filter((n) => n !== 'sweepAndPrune')) {
    it(`equals an unculled reference over every collider kind (${broadPhase})`, () => {
      const scene = buildScene(broadPhase.length, broadPhase);
      const q = createShapeQuery();
      let found = 0, queries = 0, undecided = 0;
      for (let frame = 0; frame < 3; frame++) {
        scene.step();
        fc.assert(fc.property(queryArbitrary, (r) => {
          setQuery(q, r);
          const [n, u] = checkQuery(scene, q);
          found += n;
          undecided += u;
          queries++;
        }), { numRuns: 150 });
        scene.move();
      }
      // The queries must meet colliders, most of them decided outside the band.
      expect(found).toBeGreaterThan(queries / 2);
      expect(undecided).toBeLessThan(queries / 10);
    });
  }

  it('counts exactly touching shapes, through the broad phase of every kind', () => {
    for (const broadPhase of ['spatialHash', 'sap', 'dynamicAabbTree'] as const) {
      const world = createWorld();
      const p = createCollisionPipeline(world, { broadPhase: resolveBroadPhase(broadPhase) });
      const ids: number[] = [];
      // Unit AABB, sphere r 1, capsule along x of radius 1, unit OBB; each along x at 10 units apart.
      const descs = [
        { shape: 'aabb', halfExtents: [1, 1, 1] },
        { shape: 'sphere', radius: 1 },
        { shape: 'capsule', p0: [-1, 0, 0], p1: [1, 0, 0], radius: 1 },
        { shape: 'obb', halfExtents: [1, 1, 1] },
      ] as const;
      descs.forEach((desc, i) => {
        const eid = addEntity(world);
        addCollider(world, eid, { ...desc, isStatic: i === 0 } as never);
        setTransform(world, eid, [10 * i, 0, 0]);
        ids.push(eid);
      });
      p.step(world);
      const q = createShapeQuery();
      const out: number[] = [];
      for (let i = 0; i < descs.length; i++) {
        const x = 10 * i;
        // Each shape reaches y = ±1 at x (capsule and sphere at their axis): touched from above and from the side.
        setSphereQuery(q, x, 1.5, 0, 0.5);
        expect(overlapColliders(world, out, q), `${broadPhase} sphere on ${descs[i].shape}`).toBe(1);
        expect(out).toEqual([ids[i]]);
        setAabbQuery(q, x - 0.25, 1, -0.25, x + 0.25, 1.5, 0.25);
        expect(overlapColliders(world, out, q), `${broadPhase} aabb on ${descs[i].shape}`).toBe(1);
        setCapsuleQuery(q, x, 3, 0, x, 1.25, 0, 0.25);
        expect(overlapColliders(world, out, q), `${broadPhase} capsule on ${descs[i].shape}`).toBe(1);
        setObbQuery(q, [x, 1.5, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1, 0.25, 0.5, 0.25]);
        expect(overlapColliders(world, out, q), `${broadPhase} obb on ${descs[i].shape}`).toBe(1);
        // Apart by a Float32 step beyond the top: none.
        setSphereQuery(q, x, 1.5 + 2 ** -20, 0, 0.5);
        expect(overlapColliders(world, out, q), `${broadPhase} sphere above ${descs[i].shape}`).toBe(0);
      }
      // One query over all four, sorted by id; a full Int32Array keeps the lowest ids and returns the total.
      setAabbQuery(q, -5, -5, -5, 40, 5, 5);
      expect(overlapColliders(world, out, q)).toBe(4);
      expect(out).toEqual([...ids].sort((a, b) => a - b));
      const small = new Int32Array(2).fill(-7);
      expect(overlapColliders(world, small, q)).toBe(4);
      expect(Array.from(small)).toEqual([...ids].sort((a, b) => a - b).slice(0, 2));
      // Mask, ignore, and a removed collider (gone at once, before the next step).
      q.mask = 2;
      expect(overlapColliders(world, out, q)).toBe(0);
      q.mask = 0xffffffff;
      q.ignore = ids[1];
      expect(overlapColliders(world, out, q)).toBe(3);
      q.ignore = -1;
      removeCollider(world, ids[2]);
      expect(overlapColliders(world, out, q)).toBe(3);
      expect(out).not.toContain(ids[2]);
    }
  });

  it('finds a collider added since the step from the next step on, on every broad phase', () => {
    for (const broadPhase of BROAD_PHASE_NAMES) {
      const world = createWorld();
      const p = createCollisionPipeline(world, { broadPhase: resolveBroadPhase(broadPhase) });
      const first = addEntity(world);
      addCollider(world, first, { shape: 'sphere', radius: 1 });
      p.step(world);
      const removed = addEntity(world);
      addCollider(world, removed, { shape: 'sphere', radius: 1 });
      setTransform(world, removed, [3, 0, 0]);
      p.step(world);
      // Removed, then another added in its place, before the first query after the step (the
      // query grid of the broad phases without one of their own is built then).
      removeCollider(world, removed);
      const added = addEntity(world);
      addCollider(world, added, { shape: 'sphere', radius: 1 });
      setTransform(world, added, [-3, 0, 0]);
      const q = createShapeQuery({ shape: 'sphere', center: [0, 0, 0], radius: 10 });
      const out: number[] = [];
      expect(overlapColliders(world, out, q), broadPhase).toBe(1);
      expect(out).toEqual([first]);
      p.step(world);
      expect(overlapColliders(world, out, q)).toBe(2);
      expect(out).toEqual([first, added].sort((a, b) => a - b));
    }
  });

  it('sees a scene of statics only, and an empty scene, after their steps', () => {
    const world = createWorld();
    const p = createCollisionPipeline(world);
    const eid = addEntity(world);
    addCollider(world, eid, { shape: 'sphere', radius: 1, isStatic: true });
    setTransform(world, eid, [3, 0, 0]);
    const other = addEntity(world);
    addCollider(world, other, { shape: 'sphere', radius: 1 });
    setTransform(world, other, [-3, 0, 0]);
    p.step(world);
    const q = createShapeQuery({ shape: 'sphere', center: [0, 0, 0], radius: 10 });
    const out: number[] = [];
    expect(overlapColliders(world, out, q)).toBe(2);
    // The moving one removed: the step has statics alone, and the old dynamic grid must not answer.
    removeCollider(world, other);
    p.step(world);
    expect(overlapColliders(world, out, q)).toBe(1);
    expect(out).toEqual([eid]);
    removeCollider(world, eid);
    p.step(world);
    expect(overlapColliders(world, out, q)).toBe(0);
  });

  it('allocates no objects per query (sphere, AABB and OBB queries on boxes, k-DOPs, a character)', () => {
    // Some kernels box a few doubles per call in V8 (numbers passed to calls that are not
    // inlined, 16 bytes each): that much is allowed; an object, array or string per query is not.
    const scene = buildScene(3, 'spatialHash', false, ['obb', 'aabb']);
    scene.step();
    const q = createShapeQuery();
    const out = new Int32Array(64);
    const box = new Float64Array([0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1, 1, 1, 1]);
    const rand = mulberry32(5);
    const shapes = new Float64Array(4 * 256).map((_, i) => (i % 4 === 3 ? 3 : 12) * rand());
    const run = (n: number): number => {
      let total = 0;
      for (let i = 0; i < n; i++) {
        const o = 4 * (i & 255), x = shapes[o], y = shapes[o + 1], z = shapes[o + 2], r = shapes[o + 3];
        if (i % 3 === 0) setSphereQuery(q, x, y, z, r);
        else if (i % 3 === 1) setAabbQuery(q, x, y, z, x + r, y + r, z + r);
        else {
          box[0] = x; box[1] = y; box[2] = z; box[12] = r;
          setObbQuery(q, box, 0);
        }
        total += overlapColliders(scene.world, out, q);
      }
      return total;
    };
    run(30_000);
    const perQuery = leastBytesPerCall(run, 10_000, 3, 5000);
    expect(perQuery).toBeLessThan(64);
  });
});

describe('shape query refusals', () => {
  it('names the field and value of every bad input', () => {
    expect(refusal(() => createShapeQuery({ shape: 'cone' as never }))).toMatch(/shape must be 'sphere', 'capsule', 'obb' or 'aabb', got cone/);
    expect(refusal(() => createShapeQuery({ shape: 'sphere', halfExtents: [1, 1, 1] }))).toMatch(/unknown option 'halfExtents'/);
    expect(refusal(() => createShapeQuery({ radius: 1, colour: 2 } as never))).toMatch(/unknown option 'colour'/);
    expect(refusal(() => createShapeQuery({ radius: -1 }))).toMatch(/query.radius must be in \[0, 1e\+18\], got -1/);
    expect(refusal(() => createShapeQuery({ radius: NaN }))).toMatch(/query.radius must be in .*got NaN/);
    expect(refusal(() => createShapeQuery({ center: [0, Infinity, 0] }))).toMatch(/query.center\[1\] is not finite \(Infinity\)/);
    expect(refusal(() => createShapeQuery({ center: [0, 0, 2e18] }))).toMatch(/query.center\[2\] is 2000000000000000000, outside ±1e\+18/);
    expect(refusal(() => createShapeQuery({ center: [0, 0] }))).toMatch(/center must hold 3 numbers/);
    expect(refusal(() => createShapeQuery({ shape: 'capsule', p1: [0, NaN, 0] }))).toMatch(/query.p1\[1\] is not finite/);
    expect(refusal(() => createShapeQuery({ shape: 'capsule', radius: 2e18 }))).toMatch(/query.radius must be in/);
    expect(refusal(() => createShapeQuery({ shape: 'obb', halfExtents: [1, -1, 1] }))).toMatch(/query.halfExtents\[1\] must be in .*got -1/);
    expect(refusal(() => createShapeQuery({ shape: 'obb', axes: [1, 0, 0, 0, 2, 0, 0, 0, 1] }))).toMatch(/query.axes must be orthonormal \(u1·u1 = 4\)/);
    expect(refusal(() => createShapeQuery({ shape: 'obb', axes: [1, 0, 0, 1, 0, 0, 0, 0, 1] }))).toMatch(/orthonormal \(u0·u1 = 1\)/);
    expect(refusal(() => createShapeQuery({ shape: 'obb', axes: [1, 0, 0, 0, 1, 0, 0, 0, NaN] }))).toMatch(/query.axes\[8\] is not finite/);
    expect(refusal(() => createShapeQuery({ shape: 'aabb', min: [0, 2, 0], max: [1, 1, 1] }))).toMatch(/query.min\[1\] = 2 exceeds query.max\[1\] = 1/);
    expect(refusal(() => createShapeQuery({ mask: -1 }))).toMatch(/query.mask must be a uint32, got -1/);
    expect(refusal(() => createShapeQuery({ mask: 2 ** 32 }))).toMatch(/query.mask must be a uint32/);
    expect(refusal(() => createShapeQuery({ ignore: 1.5 }))).toMatch(/query.ignore must be an entity id or -1, got 1.5/);
    expect(refusal(() => createShapeQuery({ displacement: [0, 0, 0] }))).toMatch(/query.displacement must not be zero/);
    expect(refusal(() => createShapeQuery({ displacement: [NaN, 0, 0] }))).toMatch(/query.displacement\[0\] is not finite/);
    expect(refusal(() => createShapeQuery(null as never))).toMatch(/init must be an object/);

    // The same checks on a query whose fields were written after creation.
    const world = createWorld();
    createCollisionPipeline(world);
    const q = createShapeQuery();
    const out: number[] = [];
    setSphereQuery(q, 0, 0, NaN, 1);
    expect(refusal(() => overlapColliders(world, out, q))).toMatch(/overlapColliders: query.center\[2\] is not finite/);
    setSphereQuery(q, 0, 0, 0, -0.5);
    expect(refusal(() => overlapColliders(world, out, q))).toMatch(/overlapColliders: query.radius must be in .*got -0.5/);
    setCapsuleQuery(q, 0, 0, 0, 1e19, 0, 0, 1);
    expect(refusal(() => overlapColliders(world, out, q))).toMatch(/query.p1\[0\] is 10000000000000000000, outside ±1e\+18/);
    setAabbQuery(q, 1, 0, 0, 0, 1, 1);
    expect(refusal(() => overlapColliders(world, out, q))).toMatch(/query.min\[0\] = 1 exceeds query.max\[0\] = 0/);
    setObbQuery(q, [0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1.001, 1, 1, 1]);
    expect(refusal(() => overlapColliders(world, out, q))).toMatch(/query.axes must be orthonormal/);
    setSphereQuery(q, 0, 0, 0, 1);
    q.mask = 0.5;
    expect(refusal(() => overlapColliders(world, out, q))).toMatch(/query.mask must be a uint32, got 0.5/);
    q.mask = 1;
    q.ignore = -2;
    expect(refusal(() => overlapColliders(world, out, q))).toMatch(/query.ignore must be an entity id or -1, got -2/);
    q.ignore = -1;
    expect(refusal(() => overlapColliders(world, new Float64Array(2) as never, q))).toMatch(/out must be an Int32Array or a number\[\]/);
    expect(refusal(() => overlapColliders(world, out, { ...q, data: [0, 0, 0, 1] } as never))).toMatch(/must come from createShapeQuery/);
    expect(refusal(() => overlapColliders(createWorld(), out, q))).toMatch(/no collision pipeline/);
    // Casts also need a non-zero, finite displacement; overlap queries ignore it.
    setShapeCast(q, 0, 0, 0);
    expect(overlapColliders(world, out, q)).toBe(0);
    expect(refusal(() => assertShapeQuery(q, 'cast', true))).toMatch(/cast: query.displacement must not be zero/);
    setShapeCast(q, 0, -Infinity, 0);
    expect(refusal(() => assertShapeQuery(q, 'cast', true))).toMatch(/query.displacement\[1\] is not finite/);
  });
});
