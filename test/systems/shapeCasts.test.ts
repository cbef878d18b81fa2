// castShapeColliders against a brute-force loop over every collider (every hitbox of a character;
// a mesh by the tree's own cast) with the cast kernels called directly over the whole motion: the
// world traversal (legs, broad-phase candidates, entry order, pruning) must miss nothing and give
// the same first hit, bit for bit, ties to the lowest entity. Spheres, capsules, OBBs and AABBs as
// movers; every broad phase, static and moving colliders over several frames, colliders removed or
// added since the step, masks and an ignored entity. Some casts are also checked against dense
// sampling of the motion with static overlap queries. (The kernels' own exactness is tested with
// them, in test/query and test/tree.)
import fc from 'fast-check';
import { addEntity, createWorld } from 'bitecs';
import { describe, expect, it } from 'vitest';
import { addCharacterHitboxes, createHitboxStore } from '../../src/character/hitboxStore';
import { fitBoneHitboxes } from '../../src/character/hitboxFit';
import { addCharacter, createSkeletonStore, defineSkeleton } from '../../src/character/skeleton';
import { defineSkin } from '../../src/character/skin';
import { castSphereAabb, castSphereCapsule, castSphereKdop, castSphereObb, castSphereSphere } from '../../src/query/shapeCast';
import { castObbAabb, castObbCapsule, castObbKdop, castObbObb, castObbSphere } from '../../src/query/shapeCastBox';
import { shapecastTree } from '../../src/tree/shapecastTree';
import { entityPose } from '../../systems/entityPose';
import { TreeQueryResult } from '../../src/tree/queryResult';
import { buildBoundingTree } from '../../src/tree/build';
import { torusKnot } from '../../scenes/torusKnot';
import { castCapsuleAabb, castCapsuleCapsule, castCapsuleKdop, castCapsuleObb, castCapsuleSphere } from '../../src/query/shapeCastCapsule';
import { SHAPE_CAST_HIT_STRIDE } from '../../src/query/shapeCastHit';
import type { KdopK } from '../../src/layout';
import { createShapeQuery, setAabbQuery, setCapsuleQuery, setObbQuery, setShapeCast, setSphereQuery, type ShapeQuery } from '../../src/query/shapeQuery';
import { addCharacterCollider, addCollider, addKdopCollider, addMeshCollider, createCollisionPipeline, removeCollider, setTransform } from '../../systems/index';
import { BROAD_PHASE_NAMES, resolveBroadPhase } from '../../systems/broadPhaseNames';
import type { BroadPhaseName, CollisionPipeline } from '../../systems/collisionState';
import { castShapeColliders, createColliderShapeHit, type ColliderShapeHit } from '../../systems/shapeCasts';
import { overlapColliders } from '../../systems/shapeQueries';
import { SHAPE_AABB, SHAPE_CAPSULE, SHAPE_CHARACTER, SHAPE_KDOP, SHAPE_MESH, SHAPE_OBB, SHAPE_SPHERE, SHAPE_STRIDE } from '../../components/collider';
import { buildHumanoid } from '../../scenes/humanoid';
import { mulberry32, quaternionToAxes, randomQuaternion } from '../../scenes/random';
import { randomBody, type Body } from '../support/pipelineScene';
import { refusal } from '../support/refusal';
import { leastBytesPerCall } from '../support/allocation';
import { primitiveScene } from '../support/primitiveScene';

const humanoid = buildHumanoid();
const definition = defineSkeleton(humanoid.skeleton);
const fitted = fitBoneHitboxes(definition, defineSkin(definition, humanoid.skin));
const KINDS: readonly Body['kind'][] = ['sphere', 'aabb', 'obb', 'capsule'];
const knot = torusKnot({ tubularSegments: 48, radialSegments: 8, radius: 3, tube: 0.8 });
const tree = buildBoundingTree(knot.positions, knot.indices);
const treeResult = new TreeQueryResult();

interface Scene {
  world: ReturnType<typeof createWorld>;
  p: CollisionPipeline;
  /** Colliders the last step saw, with their layers. */
  live: Map<number, number>;
  hitboxes: ReturnType<typeof createHitboxStore>;
  /** A point in the character's torso. */
  characterAt(): number[];
  move(): void;
  step(): void;
  /** Removes a random collider (gone at once) and adds one (seen from the next step on). */
  churn(): void;
}

/** Where the scene's mesh collider sits (casts aim at it too). */
const MESH_AT = [6, 6, 6] as const;

function buildScene(seed: number, broadPhase: BroadPhaseName): Scene {
  const rand = mulberry32(seed);
  const world = createWorld();
  const skeletons = createSkeletonStore();
  const hitboxes = createHitboxStore();
  const p = createCollisionPipeline(world, { broadPhase: resolveBroadPhase(broadPhase), characters: { skeletons, hitboxes } });
  const live = new Map<number, number>();
  const pending = new Map<number, number>();
  const bodies: { eid: number; body: Body }[] = [];
  const addBody = (i: number): void => {
    const eid = addEntity(world);
    const layer = 1 << Math.floor(3 * rand());
    const body = randomBody(rand, KINDS[i % KINDS.length], { count: 1, kinds: KINDS, size: 12 });
    // A third static (the spatial hash's static grid), the rest moving.
    addCollider(world, eid, { ...body.desc, layer, isStatic: i % 3 === 0 });
    setTransform(world, eid, body.position, body.rotation);
    bodies.push({ eid, body });
    pending.set(eid, layer);
  };
  for (let i = 0; i < 40; i++) addBody(i);
  for (let i = 0; i < 6; i++) {
    const eid = addEntity(world);
    addKdopCollider(world, eid, Array.from({ length: 24 }, () => 3 * (rand() - 0.5)), { layer: 1 });
    setTransform(world, eid, [12 * rand(), 12 * rand(), 12 * rand()], randomQuaternion(rand));
    pending.set(eid, 1);
  }
  // A mesh, static, at the middle.
  const meshEid = addEntity(world);
  addMeshCollider(world, meshEid, tree, { layer: 1 });
  setTransform(world, meshEid, [...MESH_AT], randomQuaternion(rand));
  pending.set(meshEid, 1);
  const charEid = addEntity(world);
  const c = addCharacter(skeletons, definition, charEid);
  addCharacterHitboxes(hitboxes, skeletons, c, fitted);
  addCharacterCollider(world, charEid, c);
  skeletons.characterMatrix.set([5, 2, 5], 16 * c + 12);
  humanoid.animate(0.3, skeletons.translation, skeletons.rotation, skeletons.scale);
  pending.set(charEid, 1);
  let added = 40;
  return {
    world, p, live, hitboxes,
    characterAt: () => [0, 1, 2].map((k) => skeletons.characterMatrix[16 * c + 12 + k] + (k === 1 ? 1 : 0)),
    move(): void {
      for (const { eid, body } of bodies) {
        if (p.collider.isStatic[eid] === 1 || !live.has(eid)) continue;
        body.position = body.position.map((x) => x + 3 * (rand() - 0.5)) as Body['position'];
        setTransform(world, eid, body.position, randomQuaternion(rand));
      }
      skeletons.characterMatrix.set([12 * rand(), 12 * rand(), 12 * rand()], 16 * c + 12);
    },
    step(): void {
      p.step(world);
      for (const [e, layer] of pending) live.set(e, layer);
      pending.clear();
    },
    churn(): void {
      const victims = bodies.filter(({ eid }) => live.has(eid));
      const { eid } = victims[Math.floor(rand() * victims.length)];
      removeCollider(world, eid);
      live.delete(eid);
      addBody(added++);
    },
  };
}

const scratch = new Float64Array(SHAPE_CAST_HIT_STRIDE);

/** The kernel of the query's shape against a target of collider kind `kind` at store[so], over [0, 1]. */
function kernel(q: ShapeQuery, kind: number, store: ArrayLike<number>, so: number, k = 0): boolean {
  const m = q.data, [dx, dy, dz] = q.displacement;
  if (q.shape === 'sphere') {
    const args = [scratch, 0, m[0], m[1], m[2], m[3], dx, dy, dz, 1, store, so] as const;
    if (kind === SHAPE_KDOP) return castSphereKdop(...args, k as KdopK);
    return ({ [SHAPE_SPHERE]: castSphereSphere, [SHAPE_AABB]: castSphereAabb, [SHAPE_OBB]: castSphereObb, [SHAPE_CAPSULE]: castSphereCapsule })[kind]!(...args);
  }
  if (q.shape === 'capsule') {
    const args = [scratch, 0, m, 0, dx, dy, dz, 1, store, so] as const;
    if (kind === SHAPE_KDOP) return castCapsuleKdop(...args, k as KdopK);
    return ({ [SHAPE_SPHERE]: castCapsuleSphere, [SHAPE_AABB]: castCapsuleAabb, [SHAPE_OBB]: castCapsuleObb, [SHAPE_CAPSULE]: castCapsuleCapsule })[kind]!(...args);
  }
  const args = [scratch, 0, boxOf(q), 0, dx, dy, dz, 1, store, so] as const;
  if (kind === SHAPE_KDOP) return castObbKdop(...args, k as KdopK);
  return ({ [SHAPE_SPHERE]: castObbSphere, [SHAPE_AABB]: castObbAabb, [SHAPE_OBB]: castObbObb, [SHAPE_CAPSULE]: castObbCapsule })[kind]!(...args);
}

/** A box query as an OBB (an AABB with the world axes). */
function boxOf(q: ShapeQuery): Float64Array {
  const d = q.data;
  if (q.shape === 'obb') return d.slice();
  return Float64Array.of((d[0] + d[3]) / 2, (d[1] + d[4]) / 2, (d[2] + d[5]) / 2, 1, 0, 0, 0, 1, 0, 0, 0, 1, (d[3] - d[0]) / 2, (d[4] - d[1]) / 2, (d[5] - d[2]) / 2);
}

/** The cast of `q` against collider e (every hitbox of a character) with the kernels over [0, 1]: t and hit, or null. */
function referenceCast(scene: Scene, e: number, q: ShapeQuery): { t: number; hit: number[]; part: number } | null {
  const c = scene.p.collider, kind = c.kind[e];
  if (kind === SHAPE_CHARACTER) {
    const hb = scene.hitboxes, ch = c.character[e];
    let best: { t: number; hit: number[]; part: number } | null = null;
    for (let h = hb.firstHitbox[ch]; h < hb.firstHitbox[ch] + hb.hitboxCount[ch]; h++) {
      if (kernel(q, SHAPE_OBB, hb.world, 15 * h) && (best === null || scratch[0] < best.t)) best = { t: scratch[0], hit: Array.from(scratch), part: h };
    }
    return best;
  }
  if (kind === SHAPE_MESH) {
    // The tree's own cast at the entity's pose (its triangle-level tests are castk's).
    const pose = new Float64Array(12);
    entityPose(pose, 0, scene.p.transform, e);
    const mover = q.shape === 'sphere' || q.shape === 'capsule' ? q.data : boxOf(q);
    const [dx, dy, dz] = q.displacement;
    if (!shapecastTree(treeResult, c.mesh[e]!, pose, 0, q.shape === 'aabb' ? 'obb' : q.shape, mover, 0, dx, dy, dz, 1)) return null;
    return { t: treeResult.shapeHit[0], hit: Array.from(treeResult.shapeHit), part: treeResult.shapeTriangle };
  }
  const ok = kind === SHAPE_KDOP ? kernel(q, kind, c.kdop, c.kdopK * e, c.kdopK) : kernel(q, kind, c.world, SHAPE_STRIDE * e);
  return ok ? { t: scratch[0], hit: Array.from(scratch), part: -1 } : null;
}

/** Brute force over every collider the last step saw: the first hit, ties to the lowest entity. */
function referenceFirst(scene: Scene, q: ShapeQuery): { entity: number; t: number; hit: number[]; part: number } | null {
  let best: { entity: number; t: number; hit: number[]; part: number } | null = null;
  for (const [e, layer] of [...scene.live].sort((a, b) => a[0] - b[0])) {
    if (e === q.ignore || (layer & q.mask) === 0) continue;
    const r = referenceCast(scene, e, q);
    if (r !== null && (best === null || r.t < best.t)) best = { entity: e, ...r };
  }
  return best;
}

let meshHits = 0;

function checkCast(scene: Scene, q: ShapeQuery, hit: ColliderShapeHit): boolean {
  const got = castShapeColliders(scene.world, hit, q);
  const want = referenceFirst(scene, q);
  expect(got, `cast hit ${hit.entity} at ${hit.t} (kind ${scene.p.collider.kind[hit.entity]}, live ${scene.live.has(hit.entity)}), reference ${want?.entity} at ${want?.t}`).toBe(want !== null);
  if (want === null) {
    expect(hit.entity).toBe(-1);
    return false;
  }
  expect(hit.entity).toBe(want.entity);
  expect(Object.is(hit.t, want.t), `t ${hit.t} vs ${want.t} (kind ${scene.p.collider.kind[want.entity]}, ${q.shape})`).toBe(true);
  expect([...hit.normal, ...hit.point]).toEqual(want.hit.slice(1));
  const d = q.displacement;
  expect(hit.distance).toBe(want.t * Math.hypot(d[0], d[1], d[2]));
  const isCharacter = scene.p.collider.kind[want.entity] === SHAPE_CHARACTER;
  if (scene.p.collider.kind[want.entity] === SHAPE_MESH) meshHits++;
  expect(hit.hitbox).toBe(isCharacter ? want.part : -1);
  expect(hit.boneName !== '').toBe(isCharacter);
  expect(hit.groupName !== '').toBe(isCharacter);
  expect(hit.triangle).toBe(scene.p.collider.kind[want.entity] === SHAPE_MESH ? want.part : -1);
  return true;
}

/** Mover shapes with kernels. */
const MOVERS = ['sphere', 'capsule', 'obb', 'aabb'] as const;

/** Makes q a `shape` at c: a sphere of radius r, a capsule from c to c + e, boxes of half-extents |e| / 2 (turned by rotation `u`). */
function setMover(q: ShapeQuery, shape: (typeof MOVERS)[number], c: readonly number[], e: readonly number[], r: number, u: readonly number[]): void {
  const h = e.map((x) => Math.abs(x) / 2);
  if (shape === 'sphere') setSphereQuery(q, c[0], c[1], c[2], r);
  else if (shape === 'capsule') setCapsuleQuery(q, c[0], c[1], c[2], c[0] + e[0], c[1] + e[1], c[2] + e[2], r);
  else if (shape === 'aabb') setAabbQuery(q, c[0] - h[0], c[1] - h[1], c[2] - h[2], c[0] + h[0], c[1] + h[1], c[2] + h[2]);
  else {
    const n = Math.hypot(...u);
    setObbQuery(q, [...c, ...quaternionToAxes(u.map((v) => v / n)), ...h]);
  }
}

/** Uniform doubles in [lo, hi] (fast-check's doubles lean to the bounds and to tiny values). */
const between = (lo: number, hi: number) => fc.integer({ min: 0, max: 1 << 30 }).map((i) => lo + ((hi - lo) * i) / (1 << 30));
const vec = (lo: number, hi: number) => fc.tuple(between(lo, hi), between(lo, hi), between(lo, hi));

/** Casts from over the scene (and beyond its edges), short and long, small and large spheres, half aimed into the scene. */
const castArbitrary = fc.record({
  shape: fc.constantFrom(...MOVERS),
  c: vec(-2, 14),
  e: vec(-2, 2),
  u: fc.tuple(between(-1, 1), between(-1, 1), between(-1, 1), between(0.1, 1)),
  r: fc.oneof(between(0, 2), fc.constant(0)),
  dir: vec(-1, 1),
  aim: fc.oneof(fc.constant(undefined), vec(2, 10), fc.constant('character' as const), fc.constant('mesh' as const)),
  length: fc.oneof(between(0.1, 3), between(3, 30)),
  mask: fc.constantFrom(0xffffffff, 1, 2, 4, 6),
  ignore: fc.integer({ min: -1, max: 60 }),
  /** 0: also checked by dense sampling (one cast in 25, chosen by the input so shrinking sees the same check). */
  sample: fc.integer({ min: 0, max: 24 }),
});

type CastRecord = typeof castArbitrary extends fc.Arbitrary<infer T> ? T : never;

function setCast(q: ShapeQuery, r: CastRecord, scene: Scene): void {
  let start: readonly number[] = r.c;
  const target = r.aim === 'character' ? scene.characterAt() : r.aim === 'mesh' ? MESH_AT : undefined;
  if (target !== undefined) {
    // From 3 units away (little in between), through it.
    const m = Math.hypot(...r.dir) || 1;
    start = target.map((x, k) => x + (3 * (r.dir[k] || (k === 0 ? 1 : 0))) / m);
  }
  const aim = target ?? (r.aim as readonly number[] | undefined);
  const dir = aim === undefined ? r.dir : aim.map((x, k) => x - start[k]);
  const n = Math.hypot(...dir) || 1;
  const length = target !== undefined ? 1.5 * n : r.length;
  setMover(q, r.shape, start, r.e, r.r, r.u);
  setShapeCast(q, (length * dir[0]) / n || length, (length * dir[1]) / n, (length * dir[2]) / n);
  q.mask = r.mask;
  q.ignore = r.ignore;
}

/**
 * Dense sampling: before t (by a band), the sphere moved there touches nothing the cast may hit
 * (static overlap queries); at t, grown by a hair, it touches the hit entity.
 */
function checkBySampling(scene: Scene, q: ShapeQuery, hit: ColliderShapeHit, hits: boolean): void {
  const probe = createShapeQuery({ mask: q.mask, ignore: q.ignore });
  const m = q.data, d = q.displacement, out: number[] = [];
  const box = q.shape === 'obb' || q.shape === 'aabb' ? boxOf(q) : undefined;
  const place = (s: number, grow: number): void => {
    if (q.shape === 'sphere') setSphereQuery(probe, m[0] + s * d[0], m[1] + s * d[1], m[2] + s * d[2], m[3] + grow);
    else if (q.shape === 'capsule') setCapsuleQuery(probe, m[0] + s * d[0], m[1] + s * d[1], m[2] + s * d[2], m[3] + s * d[0], m[4] + s * d[1], m[5] + s * d[2], m[6] + grow);
    else {
      const b = box!.slice();
      for (let k = 0; k < 3; k++) {
        b[k] += s * d[k];
        b[12 + k] += grow;
      }
      setObbQuery(probe, b);
    }
  };
  const end = hits ? hit.t - 1e-4 : 1;
  for (let i = 0; i <= 400 && end >= 0; i++) {
    const s = (end * i) / 400;
    place(s, 0);
    overlapColliders(scene.world, out, probe);
    // k-DOP colliders aside: overlap queries test the shape's k-DOP against theirs, casts the
    // shape's core against their slabs widened by its radius; both conservative, not alike (but
    // for spheres).
    const touching = out.filter((e) => scene.p.collider.kind[e] !== SHAPE_KDOP || q.shape === 'sphere');
    expect(touching, `touching at ${s} before ${hit.t}`).toEqual([]);
  }
  if (!hits) return;
  const t = hit.t;
  // Grown by the rounding of stored Float32 box axes (not quite orthonormal) at these distances.
  place(t, 1e-6 * (1 + Math.hypot(m[0], m[1], m[2]) + Math.hypot(d[0], d[1], d[2])));
  overlapColliders(scene.world, out, probe);
  expect(out, `kind ${scene.p.collider.kind[hit.entity]} at ${t}`).toContain(hit.entity);
}

function expectNear(v: Float64Array, want: number[]): void {
  for (let k = 0; k < 3; k++) expect(v[k]).toBeCloseTo(want[k], 14);
}

describe('castShapeColliders', () => {
  for (const broadPhase of BROAD_PHASE_NAMES.filter((n) => n !== 'sweepAndPrune')) {
    it(`equals a brute-force loop over every collider and hitbox with the kernels (${broadPhase})`, () => {
      const scene = buildScene(broadPhase.length + 17, broadPhase);
      const q = createShapeQuery();
      const hit = createColliderShapeHit();
      let hits = 0, casts = 0, starts = 0, characters = 0, sampled = 0;
      const meshesBefore = meshHits;
      for (let frame = 0; frame < 3; frame++) {
        scene.step();
        scene.churn();
        fc.assert(fc.property(castArbitrary, (r) => {
          setCast(q, r, scene);
          const h = checkCast(scene, q, hit);
          casts++;
          if (h) {
            hits++;
            if (hit.t === 0) starts++;
            if (hit.hitbox >= 0) characters++;
          }
          if (r.sample === 0) {
            sampled++;
            checkBySampling(scene, q, hit, h);
          }
        }), { numRuns: 150 });
        scene.move();
      }
      // The casts must hit things, some at the start, some the character; most miss nothing by luck.
      expect(hits).toBeGreaterThan(casts / 4);
      expect(hits).toBeLessThan(casts);
      expect(starts, "casts starting in contact").toBeGreaterThan(0);
      expect(characters, "character hits").toBeGreaterThan(0);
      expect(meshHits - meshesBefore, 'mesh hits').toBeGreaterThan(0);
      expect(sampled).toBeGreaterThan(3);
    });
  }

  it('finds grazing and touching contacts, ties to the lowest entity, through every kind of broad phase', () => {
    for (const broadPhase of ['spatialHash', 'sap', 'dynamicAabbTree'] as const) {
      const world = createWorld();
      const p = createCollisionPipeline(world, { broadPhase: resolveBroadPhase(broadPhase) });
      const add = (desc: Parameters<typeof addCollider>[2], at: [number, number, number]): number => {
        const eid = addEntity(world);
        addCollider(world, eid, desc);
        setTransform(world, eid, at);
        return eid;
      };
      const ball = add({ shape: 'sphere', radius: 1 }, [0, 0, 0]);
      const box = add({ shape: 'aabb', halfExtents: [1, 1, 1], isStatic: true }, [20, 0, 0]);
      // Two equal spheres at mirrored places: the higher id comes first along the cast's box order.
      const twinHigh = add({ shape: 'sphere', radius: 1 }, [40, 0, 3]);
      const twinLow = add({ shape: 'sphere', radius: 1 }, [40, 0, -3]);
      p.step(world);
      const q = createShapeQuery();
      const hit = createColliderShapeHit();
      // Grazing the ball's top: the centres 2 apart exactly at x = 0, half way.
      setSphereQuery(q, -5, 2, 0, 1);
      setShapeCast(q, 10, 0, 0);
      expect(castShapeColliders(world, hit, q), broadPhase).toBe(true);
      expect(hit.entity).toBe(ball);
      expect(hit.t).toBeCloseTo(0.5, 15);
      expect(hit.distance).toBeCloseTo(5, 14);
      expectNear(hit.normal, [0, 1, 0]);
      expectNear(hit.point, [0, 1, 0]);
      // A capsule across the path, grazing the same way.
      setCapsuleQuery(q, -5, 2, -1, -5, 2, 1, 1);
      expect(castShapeColliders(world, hit, q), broadPhase).toBe(true);
      expect(hit.entity).toBe(ball);
      expect(hit.t).toBeCloseTo(0.5, 15);
      expectNear(hit.normal, [0, 1, 0]);
      expectNear(hit.point, [0, 1, 0]);
      // Just above it: nothing (the box is beyond the cast).
      setSphereQuery(q, -5, 2 + 2 ** -20, 0, 1);
      expect(castShapeColliders(world, hit, q)).toBe(false);
      expect(hit.entity).toBe(-1);
      // Resting on the box's top face at the start: t = 0, normal up.
      setSphereQuery(q, 20, 1.5, 0, 0.5);
      setShapeCast(q, 0, 0, 3);
      expect(castShapeColliders(world, hit, q)).toBe(true);
      expect(hit.entity).toBe(box);
      expect(hit.t).toBe(0);
      expectNear(hit.normal, [0, 1, 0]);
      // Overlapping at the start, moving away: still t = 0.
      setSphereQuery(q, 20, 0.5, 0, 0.5);
      setShapeCast(q, 0, 10, 0);
      expect(castShapeColliders(world, hit, q)).toBe(true);
      expect(hit.t).toBe(0);
      // A box sliding along the box's top: it meets the box's upper edge at x = 19.
      setAabbQuery(q, 10, 1, -0.5, 11, 2, 0.5);
      setShapeCast(q, 20, 0, 0);
      expect(castShapeColliders(world, hit, q)).toBe(true);
      expect(hit.entity).toBe(box);
      expect(hit.t).toBeCloseTo(0.4, 8);
      expect(hit.point[1]).toBeCloseTo(1, 8);
      // An OBB resting on it, turned 45° about y, moving sideways: t = 0, pushed up.
      const s = Math.SQRT1_2;
      setObbQuery(q, [20, 1.5, 0, s, 0, -s, 0, 1, 0, s, 0, s, 0.5, 0.5, 0.5]);
      setShapeCast(q, 0, 0, 5);
      expect(castShapeColliders(world, hit, q)).toBe(true);
      expect(hit.entity).toBe(box);
      expect(hit.t).toBe(0);
      expectNear(hit.normal, [0, 1, 0]);
      // Down the middle between the twins: both at the same t, the lower id wins.
      setSphereQuery(q, 30, 0, 0, 2);
      setShapeCast(q, 20, 0, 0);
      expect(castShapeColliders(world, hit, q)).toBe(true);
      expect(hit.entity).toBe(Math.min(twinLow, twinHigh));
      // A long cast through everything: the first, the ball.
      setSphereQuery(q, -30, 0, 0, 0.5);
      setShapeCast(q, 100, 0, 0);
      expect(castShapeColliders(world, hit, q)).toBe(true);
      expect(hit.entity).toBe(ball);
      expect(hit.t).toBeCloseTo(0.285, 12);
      // Ignored, masked, removed: the next one along.
      q.ignore = ball;
      expect(castShapeColliders(world, hit, q)).toBe(true);
      expect(hit.entity).toBe(box);
      q.ignore = -1;
      q.mask = 2;
      expect(castShapeColliders(world, hit, q)).toBe(false);
      q.mask = 0xffffffff;
      removeCollider(world, ball);
      expect(castShapeColliders(world, hit, q)).toBe(true);
      expect(hit.entity).toBe(box);
      // Added since the step: seen from the next step on, as by overlapColliders.
      const late = add({ shape: 'sphere', radius: 1 }, [10, 0, 0]);
      expect(castShapeColliders(world, hit, q)).toBe(true);
      expect(hit.entity).toBe(box);
      p.step(world);
      expect(castShapeColliders(world, hit, q)).toBe(true);
      expect(hit.entity).toBe(late);
      // Also when the first query after the step comes after the addition (the query grid is built then).
      p.step(world);
      const later = add({ shape: 'sphere', radius: 1 }, [5, 0, 0]);
      expect(castShapeColliders(world, hit, q)).toBe(true);
      expect(hit.entity).toBe(late);
      p.step(world);
      expect(castShapeColliders(world, hit, q)).toBe(true);
      expect(hit.entity).toBe(later);
    }
  });

  describe('garbage per cast, by mover', () => {
    // A sparse scene of the four primitive kinds, where a cast makes about one exact cast.
    const rand = mulberry32(3);
    const { world } = primitiveScene(rand);
    const hit = createColliderShapeHit();
    const box = new Float64Array([0, 0, 0, 0.8, 0.6, 0, -0.6, 0.8, 0, 0, 0, 1, 0.5, 0.7, 0.9]);
    const casts = new Float64Array(7 * 256).map((_, i) => (i % 7 === 3 ? 1 + rand() : i % 7 > 3 ? 12 * (rand() - 0.5) : 30 * rand()));
    const setMover = [
      (q: ShapeQuery, x: number, y: number, z: number, r: number) => setSphereQuery(q, x, y, z, r),
      (q: ShapeQuery, x: number, y: number, z: number, r: number) => setCapsuleQuery(q, x, y, z, x + r, y + 0.5, z, 0.5 * r),
      (q: ShapeQuery, x: number, y: number, z: number, r: number) => {
        box[0] = x; box[1] = y; box[2] = z; box[14] = r;
        return setObbQuery(q, box, 0);
      },
      (q: ShapeQuery, x: number, y: number, z: number, r: number) => setAabbQuery(q, x - r, y - r, z - r, x + r, y + r, z + r),
    ];
    // The casts made up front: the loop passes the kernels no number of its own (a double passed
    // to a call V8 does not inline is boxed, and would count here).
    const queries = setMover.map((set) => Array.from({ length: 256 }, (_, i) => {
      const o = 7 * i, q = createShapeQuery();
      set(q, casts[o], casts[o + 1], casts[o + 2], casts[o + 3]);
      return setShapeCast(q, casts[o + 4] || 1, casts[o + 5], casts[o + 6]);
    }));
    const run = (mover: number) => (n: number): number => {
      const cast = queries[mover];
      let total = 0;
      for (let i = 0; i < n; i++) if (castShapeColliders(world, hit, cast[i & 255])) total++;
      return total;
    };

    // Bytes of heap a cast leaves, least of four runs of 10,000 after 30,000 to warm up, measured
    // under vitest (from sources, where V8 inlines less than in the bundle). No object, array or
    // string, and the kernels pass their numbers in arrays (V8 boxes a double passed to or
    // returned from a call it does not inline): what remains is the odd double boxed at a call
    // V8 has not inlined yet (docs/design/shape-queries.md). Before: the same casts measured
    // 53 (sphere), 821 (capsule), 363 (OBB) and 327 (AABB) bytes.
    // Measured with this file's other tests run first (they cast the same kernels against meshes,
    // k-DOPs and characters, so V8 optimizes them for more callers), and alone in brackets.
    it.each([
      // measured 1.5 (1.6 to 10)
      ['sphere', 0, 32],
      // measured 70 to 91 (1.4 to 20)
      ['capsule', 1, 160],
      // measured 18 (11 to 26)
      ['OBB', 2, 80],
      // measured 37 (13)
      ['AABB', 3, 96],
    ])('%s', (_name, mover, bound) => {
      run(mover)(30_000);
      expect(leastBytesPerCall(run(mover), 10_000, 4, 2000)).toBeLessThan(bound);
    });
  });

  it('refuses bad input, naming the field', () => {
    const world = createWorld();
    createCollisionPipeline(world);
    const q = createShapeQuery();
    const hit = createColliderShapeHit();
    setShapeCast(q, 0, 0, 0);
    expect(refusal(() => castShapeColliders(world, hit, q))).toMatch(/castShapeColliders: query.displacement must not be zero/);
    setShapeCast(q, 1, NaN, 0);
    expect(refusal(() => castShapeColliders(world, hit, q))).toMatch(/castShapeColliders: query.displacement\[1\] is not finite/);
    setShapeCast(q, 1, 0, 2e18);
    expect(refusal(() => castShapeColliders(world, hit, q))).toMatch(/query.displacement\[2\] is 2000000000000000000, outside ±1e\+18/);
    setShapeCast(q, 1, 0, 0);
    setSphereQuery(q, 0, 0, 0, -1);
    expect(refusal(() => castShapeColliders(world, hit, q))).toMatch(/castShapeColliders: query.radius must be in .*got -1/);
    setSphereQuery(q, 0, Infinity, 0, 1);
    expect(refusal(() => castShapeColliders(world, hit, q))).toMatch(/query.center\[1\] is not finite/);
    setObbQuery(q, [0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1, 1, -1, 1]);
    expect(refusal(() => castShapeColliders(world, hit, q))).toMatch(/castShapeColliders: query.halfExtents\[1\] must be in .*got -1/);
    setObbQuery(q, [0, 0, 0, 1, 0, 0, 1, 0, 0, 0, 0, 1, 1, 1, 1]);
    expect(refusal(() => castShapeColliders(world, hit, q))).toMatch(/query.axes must be orthonormal/);
    setCapsuleQuery(q, 0, 0, 0, 1, 0, 0, NaN);
    expect(refusal(() => castShapeColliders(world, hit, q))).toMatch(/query.radius must be in .*got NaN/);
    setSphereQuery(q, 0, 0, 0, 1);
    q.mask = -3;
    expect(refusal(() => castShapeColliders(world, hit, q))).toMatch(/query.mask must be a uint32, got -3/);
    q.mask = 1;
    expect(castShapeColliders(world, hit, q)).toBe(false);
    expect(refusal(() => castShapeColliders(createWorld(), hit, q))).toMatch(/no collision pipeline/);
  });
});

