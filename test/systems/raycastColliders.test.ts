// raycastColliders against a reference that casts every collider, with no culling, on world
// shapes rebuilt here in doubles from each collider's description and transform; characters
// against raycastHitboxes (the grid walk, an independent path to the same hitboxes).
import { addEntity, createWorld } from 'bitecs';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { SHAPE_AABB, SHAPE_CAPSULE, SHAPE_OBB, SHAPE_SPHERE, SHAPE_STRIDE } from '../../components/collider';
import { createRayQuery } from '../../src/query/rayQuery';
import { buildBoundingTree, type BoundingTree } from '../../src/tree/build';
import { addCharacterHitboxes, createHitboxStore } from '../../src/character/hitboxStore';
import { createCharacterRayGrid } from '../../src/character/rayGrid';
import { createHitboxRayHit, raycastHitboxes } from '../../src/character/hitboxRaycast';
import { fitBoneHitboxes } from '../../src/character/hitboxFit';
import { CollideInputError } from '../../src/errors';
import { kdopFromPoints } from '../../src/volumes/kdop';
import { poseFromTranslationQuaternion } from '../../src/tree/pose';
import { raycastTree } from '../../src/tree/raycastTree';
import { TreeQueryResult } from '../../src/tree/queryResult';
import { raycastAabb, raycastCapsule, raycastKdop, raycastObb, raycastSphere } from '../../src/query/raycast';
import { addCharacter, createSkeletonStore, defineSkeleton } from '../../src/character/skeleton';
import { defineSkin } from '../../src/character/skin';
import { addCharacterCollider, addCollider, addKdopCollider, addMeshCollider, createCollisionPipeline, setTransform } from '../../systems/index';
import { createColliderRayHit, raycastColliders } from '../../systems/raycastColliders';
import { buildHumanoid } from '../../scenes/humanoid';
import { mulberry32, quaternionToAxes, randomQuaternion } from '../../scenes/random';
import { torusKnot } from '../../scenes/torusKnot';
import { rayQueryOf } from '../support/rays';
import { leastBytesPerCall } from '../support/allocation';
import { primitiveScene } from '../support/primitiveScene';

type Vec = [number, number, number];

/** One collider as the reference sees it: its cast, from shapes computed here. */
interface RefCollider {
  eid: number;
  layer: number;
  cast: (out: Float64Array, o: Vec, d: Vec, maxT: number) => boolean;
}

/** World point of local point p under (position, axes, scale). */
function toWorld(p: Vec, position: Vec, axes: number[], scale: number): Vec {
  const out: Vec = [0, 0, 0];
  for (let i = 0; i < 3; i++) out[i] = position[i] + scale * (axes[i] * p[0] + axes[3 + i] * p[1] + axes[6 + i] * p[2]);
  return out;
}

function buildScene(seed: number, tree: BoundingTree) {
  const rand = mulberry32(seed);
  const world = createWorld();
  const p = createCollisionPipeline(world);
  const refs: RefCollider[] = [];
  const kinds = ['sphere', 'aabb', 'obb', 'capsule', 'kdop'] as const;
  for (let i = 0; i < 60; i++) {
    const eid = addEntity(world);
    const kind = kinds[i % kinds.length];
    const position: Vec = [20 * rand(), 20 * rand(), 20 * rand()];
    const q = randomQuaternion(rand);
    const axes = quaternionToAxes(q);
    const scale = 0.5 + 1.5 * rand();
    const layer = 1 << Math.floor(3 * rand());
    const size = (): number => 0.2 + 1.3 * rand();
    let cast: RefCollider['cast'];
    if (kind === 'sphere') {
      const center: Vec = [rand() - 0.5, rand() - 0.5, rand() - 0.5], radius = size();
      addCollider(world, eid, { shape: 'sphere', center, radius, layer });
      const s = new Float64Array([...toWorld(center, position, axes, scale), scale * radius]);
      cast = (out, o, d, maxT) => raycastSphere(out, ...o, ...d, maxT, s, 0);
    } else if (kind === 'aabb') {
      const half: Vec = [size(), size(), size()];
      addCollider(world, eid, { shape: 'aabb', halfExtents: half, layer });
      // An AABB collider stays axis-aligned: the box around its rotated local box.
      const box = new Float64Array([Infinity, Infinity, Infinity, -Infinity, -Infinity, -Infinity]);
      for (let corner = 0; corner < 8; corner++) {
        const w = toWorld([corner & 1 ? half[0] : -half[0], corner & 2 ? half[1] : -half[1], corner & 4 ? half[2] : -half[2]], position, axes, scale);
        for (let c = 0; c < 3; c++) {
          box[c] = Math.min(box[c], w[c]);
          box[3 + c] = Math.max(box[3 + c], w[c]);
        }
      }
      cast = (out, o, d, maxT) => raycastAabb(out, ...o, ...d, maxT, box, 0);
    } else if (kind === 'obb') {
      const half: Vec = [size(), size(), size()];
      addCollider(world, eid, { shape: 'obb', halfExtents: half, layer });
      const box = new Float64Array([...position, ...axes, ...half.map((h) => scale * h)]);
      cast = (out, o, d, maxT) => raycastObb(out, ...o, ...d, maxT, box, 0);
    } else if (kind === 'capsule') {
      const p0: Vec = [-size(), 0, 0], p1: Vec = [size(), 0, 0], radius = 0.5 * size();
      addCollider(world, eid, { shape: 'capsule', p0, p1, radius, layer });
      const capsule = new Float64Array([...toWorld(p0, position, axes, scale), ...toWorld(p1, position, axes, scale), scale * radius]);
      cast = (out, o, d, maxT) => raycastCapsule(out, ...o, ...d, maxT, capsule, 0);
    } else {
      const points = Array.from({ length: 8 * 3 }, () => 2 * size() * (rand() - 0.5));
      addKdopCollider(world, eid, points, { layer });
      const worldPoints: number[] = [];
      for (let k = 0; k < 8; k++) worldPoints.push(...toWorld([points[3 * k], points[3 * k + 1], points[3 * k + 2]], position, axes, scale));
      const kdop = kdopFromPoints(new Float64Array(14), 0, 14, worldPoints, 8);
      cast = (out, o, d, maxT) => raycastKdop(out, ...o, ...d, maxT, kdop, 0, 14);
    }
    setTransform(world, eid, position, q, scale);
    refs.push({ eid, layer, cast });
  }
  // A mesh collider (scale 1), cast through its tree at the same pose.
  const meshEid = addEntity(world);
  const meshPosition: Vec = [10, 10, 10], meshQ = randomQuaternion(rand);
  addMeshCollider(world, meshEid, tree, { layer: 1 });
  setTransform(world, meshEid, meshPosition, meshQ);
  const pose = poseFromTranslationQuaternion(new Float64Array(12), 0, ...meshPosition, meshQ);
  const result = new TreeQueryResult();
  refs.push({
    eid: meshEid,
    layer: 1,
    cast: (out, o, d, maxT) => {
      if (!raycastTree(result, tree, pose, 0, ...o, ...d, maxT)) return false;
      out.set(result.hit.subarray(0, 4));
      return true;
    },
  });
  p.step(world);
  return { world, p, refs, rand, meshEid };
}

describe('raycastColliders', () => {
  const knot = torusKnot({ tubularSegments: 64, radialSegments: 8, radius: 3, tube: 0.8 });
  const tree = buildBoundingTree(knot.positions, knot.indices);

  it('finds the nearest collider of every kind like an unculled cast of every collider, with masks and an ignored entity', () => {
    const out = new Float64Array(4);
    const hit = createColliderRayHit();
    let hits = 0, meshHits = 0, misses = 0, checked = 0;
    for (let seed = 1; seed <= 4; seed++) {
      const { world, refs, rand, meshEid } = buildScene(seed, tree);
      for (let r = 0; r < 250; r++) {
        const o: Vec = [-5 + 30 * rand(), -5 + 30 * rand(), -5 + 30 * rand()];
        // Half the rays aimed at a collider's neighbourhood, half random.
        const target = r % 2 === 0 ? [10 + 10 * (rand() - 0.5), 10 + 10 * (rand() - 0.5), 10 + 10 * (rand() - 0.5)] : [o[0] + rand() - 0.5, o[1] + rand() - 0.5, o[2] + rand() - 0.5];
        const d: Vec = [target[0] - o[0], target[1] - o[1], target[2] - o[2]];
        const maxT = 0.5 + 2 * rand();
        const mask = r % 5 === 0 ? 1 + Math.floor(7 * rand()) : 0xffffffff;
        const ignore = r % 7 === 0 ? refs[Math.floor(rand() * refs.length)].eid : -1;
        // Reference: every collider cast, nearest kept; every hit within the tolerance of the nearest may be the answer.
        const found: { eid: number; t: number }[] = [];
        for (const ref of refs) {
          if (ref.eid === ignore || (ref.layer & mask) === 0) continue;
          if (ref.cast(out, o, d, maxT)) found.push({ eid: ref.eid, t: out[0] });
        }
        const bestT = Math.min(...found.map((f) => f.t));
        const tol = 1e-4 * (1 + maxT);
        const got = raycastColliders(world, hit, rayQueryOf(...o, ...d, maxT, mask, ignore));
        checked++;
        if (found.length === 0) {
          expect(got).toBe(false);
          expect(hit.entity).toBe(-1);
          misses++;
          continue;
        }
        // A hit grazing the end of the ray can fall either side of maxT with Float32 shapes.
        if (!got) {
          expect(bestT).toBeGreaterThan(maxT - tol);
          continue;
        }
        hits++;
        if (hit.entity === meshEid) meshHits++;
        expect(Math.abs(hit.t - bestT)).toBeLessThanOrEqual(tol);
        expect(found.filter((f) => f.t <= bestT + tol).map((f) => f.eid)).toContain(hit.entity);
        expect(Math.hypot(...hit.normal)).toBeCloseTo(1, 6);
        expect(hit.normal[0] * d[0] + hit.normal[1] * d[1] + hit.normal[2] * d[2]).toBeLessThanOrEqual(1e-9);
        for (let k = 0; k < 3; k++) expect(hit.point[k]).toBeCloseTo(o[k] + hit.t * d[k], 9);
        expect(hit.triangle >= 0).toBe(hit.entity === meshEid);
        expect(hit.hitbox).toBe(-1);
      }
    }
    expect(checked).toBe(1000);
    expect(hits).toBeGreaterThan(200);
    expect(misses).toBeGreaterThan(50);
    expect(meshHits).toBeGreaterThan(5);
  });

  it('walks the broad phase along rays of any length, from far outside the colliders too, as exactly as casting every collider', () => {
    // The colliders sit on an integer lattice spread over up to 400 units (touching and
    // face-aligned boxes; walks of the most legs), and rays start inside, next to or far outside
    // them, unlimited or not, axis-aligned along the lattice's planes or not. The reference casts
    // every collider with the same kernels on the pipeline's own shapes: the same entity, the same t.
    const kinds = [SHAPE_SPHERE, SHAPE_AABB, SHAPE_OBB, SHAPE_CAPSULE];
    const scene = fc.record({ seed: fc.integer({ min: 1, max: 1 << 30 }), count: fc.integer({ min: 1, max: 150 }), spread: fc.constantFrom(4, 40, 400) });
    const rayArb = fc.record({
      from: fc.constantFrom('inside', 'outside', 'far'),
      axis: fc.constantFrom(-1, 0, 1, 2),
      unlimited: fc.boolean(),
      seed: fc.integer({ min: 1, max: 1 << 30 }),
    });
    const out = new Float64Array(4);
    const hit = createColliderRayHit();
    let hits = 0, misses = 0;
    fc.assert(
      fc.property(scene, fc.array(rayArb, { minLength: 8, maxLength: 8 }), ({ seed, count, spread }, rays) => {
        const rand = mulberry32(seed);
        const world = createWorld();
        const p = createCollisionPipeline(world);
        const lattice = () => Math.round(spread * rand());
        for (let i = 0; i < count; i++) {
          const e = addEntity(world), kind = kinds[i % 4], h = 0.5 + Math.floor(2 * rand()) * 0.5;
          if (kind === SHAPE_SPHERE) addCollider(world, e, { shape: 'sphere', radius: h });
          else if (kind === SHAPE_AABB) addCollider(world, e, { shape: 'aabb', halfExtents: [h, 0.5, 1] });
          else if (kind === SHAPE_OBB) addCollider(world, e, { shape: 'obb', halfExtents: [h, 1, 0.5] });
          else addCollider(world, e, { shape: 'capsule', p0: [-h, 0, 0], p1: [h, 0, 0], radius: 0.5 });
          setTransform(world, e, [lattice(), lattice(), lattice()], kind === SHAPE_OBB && rand() < 0.5 ? randomQuaternion(rand) : [0, 0, 0, 1]);
        }
        p.step(world);
        const c = p.collider;
        for (const ray of rays) {
          const r = mulberry32(ray.seed);
          const far = ray.from === 'far' ? 1e4 : ray.from === 'outside' ? spread + 5 : 0;
          const o: Vec = [Math.round(spread * r()), Math.round(spread * r()), Math.round(spread * r())];
          const target: Vec = [spread * r(), spread * r(), spread * r()];
          let d: Vec;
          const axis: number = ray.axis;
          if (axis >= 0) {
            // Along a lattice line (through box faces and edges), from beyond the colliders when outside.
            d = [0, 0, 0];
            d[axis] = r() < 0.5 ? 1 : -1;
            o[axis] -= d[axis] * far;
          } else {
            const dir = [target[0] - o[0], target[1] - o[1], target[2] - o[2]];
            const len = Math.hypot(...dir) || 1;
            for (let k = 0; k < 3; k++) o[k] -= (far * dir[k]) / len;
            d = [target[0] - o[0], target[1] - o[1], target[2] - o[2]];
          }
          const maxT = ray.unlimited ? Infinity : (0.5 + r()) * (far + spread) / Math.max(Math.hypot(...d), 1e-9);
          let refEntity = -1, refT = Infinity;
          for (let i = 0; i < c.count; i++) {
            const e = c.ids[i], o5 = SHAPE_STRIDE * e, kind = c.kind[e];
            const cast = kind === SHAPE_SPHERE ? raycastSphere : kind === SHAPE_AABB ? raycastAabb : kind === SHAPE_OBB ? raycastObb : raycastCapsule;
            if (!cast(out, ...o, ...d, maxT, c.world, o5)) continue;
            if (out[0] < refT || (out[0] === refT && e < refEntity)) {
              refT = out[0];
              refEntity = e;
            }
          }
          const q = createRayQuery({ origin: o, direction: d, maxDistance: ray.unlimited ? Infinity : maxT * Math.hypot(...d) });
          const got = raycastColliders(world, hit, q);
          if (refEntity < 0) {
            misses++;
            expect(got).toBe(false);
            continue;
          }
          hits++;
          expect(got).toBe(true);
          expect(hit.entity).toBe(refEntity);
          expect(hit.t).toBe(refT);
        }
        p.destroy();
      }),
      { numRuns: 60 },
    );
    expect(hits).toBeGreaterThan(50);
    expect(misses).toBeGreaterThan(20);
  });

  it('leaves little garbage per ray (no objects)', () => {
    // A sparse scene of the four primitive kinds; rays up to 17 units long, in any direction.
    const rand = mulberry32(7);
    const { world } = primitiveScene(rand);
    const query = createRayQuery({ maxDistance: 17 });
    const hit = createColliderRayHit();
    const rays = new Float64Array(6 * 256).map((_, i) => (i % 6 < 3 ? 30 * rand() : rand() - 0.5));
    const run = (n: number): number => {
      let total = 0;
      for (let i = 0; i < n; i++) {
        const o = 6 * (i & 255);
        for (let k = 0; k < 3; k++) {
          query.origin[k] = rays[o + k];
          query.direction[k] = rays[o + 3 + k];
        }
        if (raycastColliders(world, hit, query)) total++;
      }
      return total;
    };
    run(30_000);
    // Bytes of heap a ray leaves, least of four runs of 10,000, under vitest (from sources). The
    // walk, its entry tests, the ray kernels and their helpers (finishSlabs, writeHit, ballEntry)
    // take their numbers from arrays, and the distance comes from writeHypot (Math.hypot
    // allocates): measured 2 to 25 in most runs, 100 to 120 in about one run of four (180
    // before; bundled, 0.1 to 16). No object, array or string (docs/design/shape-queries.md).
    expect(leastBytesPerCall(run, 10_000, 4, 2000)).toBeLessThan(160);
  });

  it('breaks ties by the lowest entity id whatever the creation order, starts inside at t = 0, and rejects bad input', () => {
    for (const order of [[0, 1, 2], [2, 1, 0]]) {
      const world = createWorld();
      const p = createCollisionPipeline(world);
      const eids = [addEntity(world), addEntity(world), addEntity(world)];
      for (const i of order) {
        addCollider(world, eids[i], { shape: 'sphere', radius: 1 });
        setTransform(world, eids[i], [5, 0, 0]);
      }
      p.step(world);
      const hit = createColliderRayHit();
      expect(raycastColliders(world, hit, rayQueryOf(0, 0, 0, 1, 0, 0, 10))).toBe(true);
      expect(hit.entity).toBe(Math.min(...eids));
      expect(hit.t).toBe(4);
      expect(Array.from(hit.normal)).toEqual([-1, 0, 0]);
      // Ignoring it hands the hit to the next id; inside a sphere the hit is at t = 0.
      expect(raycastColliders(world, hit, rayQueryOf(0, 0, 0, 1, 0, 0, 10, 0xffffffff, Math.min(...eids)))).toBe(true);
      expect(hit.entity).toBe([...eids].sort((a, b) => a - b)[1]);
      expect(raycastColliders(world, hit, rayQueryOf(5, 0, 0, 0, 1, 0, 10))).toBe(true);
      expect(hit.t).toBe(0);
      expect(raycastColliders(world, hit, rayQueryOf(0, 0, 0, -1, 0, 0, 10))).toBe(false);
      expect(hit.entity).toBe(-1);
      expect(raycastColliders(world, hit, rayQueryOf(0, 0, 0, 1, 0, 0, 3.9))).toBe(false);
      expect(() => raycastColliders(world, hit, rayQueryOf(NaN, 0, 0, 1, 0, 0, 1))).toThrow(CollideInputError);
      expect(() => raycastColliders(world, hit, rayQueryOf(0, 0, 0, Infinity, 0, 0, 1))).toThrow(/query.direction\[0\] is not finite \(Infinity\)/);
      expect(() => raycastColliders(world, hit, rayQueryOf(0, 0, 0, 1, 0, 0, -1))).toThrow(/query.maxDistance must be >= 0/);
      expect(() => raycastColliders(world, hit, rayQueryOf(0, 0, 0, 1, 0, 0, NaN))).toThrow(/query.maxDistance must be >= 0/);
      expect(() => raycastColliders(world, hit, rayQueryOf(0, 0, 0, 1, 0, 0, 1, -1))).toThrow(/mask must be a uint32/);
      expect(() => raycastColliders(createWorld(), hit, rayQueryOf(0, 0, 0, 1, 0, 0, 1))).toThrow(/no collision pipeline/);
    }
  });

  it('hits character colliders in the hitbox raycastHitboxes finds through its grid', () => {
    const humanoid = buildHumanoid();
    const definition = defineSkeleton(humanoid.skeleton);
    const fitted = fitBoneHitboxes(definition, defineSkin(definition, humanoid.skin));
    const world = createWorld();
    const skeletons = createSkeletonStore();
    const hitboxes = createHitboxStore();
    const rayGrid = createCharacterRayGrid();
    const p = createCollisionPipeline(world, { characters: { skeletons, hitboxes, rayGrid } });
    const rand = mulberry32(8);
    for (let i = 0; i < 3; i++) {
      const eid = addEntity(world);
      const c = addCharacter(skeletons, definition, eid);
      addCharacterHitboxes(hitboxes, skeletons, c, fitted);
      addCharacterCollider(world, eid, c);
      skeletons.characterMatrix[16 * c + 12] = 2 * i;
    }
    const bones = definition.boneCount;
    humanoid.animate(0.3, skeletons.translation, skeletons.rotation, skeletons.scale);
    for (let c = 1; c < 3; c++) {
      skeletons.translation.copyWithin(3 * c * bones, 0, 3 * bones);
      skeletons.rotation.copyWithin(4 * c * bones, 0, 4 * bones);
      skeletons.scale.copyWithin(3 * c * bones, 0, 3 * bones);
    }
    p.step(world);
    const hit = createColliderRayHit();
    const reference = createHitboxRayHit();
    let hits = 0;
    for (let r = 0; r < 300; r++) {
      const o: Vec = [-0.5 + 5 * rand(), 0.2 + 1.6 * rand(), 3];
      const d: Vec = [(rand() - 0.5) * 0.5, (rand() - 0.5) * 0.5, -1];
      const got = raycastColliders(world, hit, rayQueryOf(...o, ...d, 10));
      const want = raycastHitboxes(reference, hitboxes, rayGrid, rayQueryOf(...o, ...d, 10));
      expect(got).toBe(want);
      if (!got) continue;
      hits++;
      expect(hit.entity).toBe(reference.entity);
      expect(hit.t).toBeCloseTo(reference.t, 9);
      // Equal t on two boxes (shared faces) may be reported by either.
      if (hit.hitbox !== reference.hitbox) {
        expect(raycastObbAt(hitboxes.world, hit.hitbox, o, d)).toBeCloseTo(reference.t, 9);
      }
      expect(hit.triangle).toBe(-1);
    }
    expect(hits).toBeGreaterThan(50);
  });
});

function raycastObbAt(boxes: Float32Array, h: number, o: Vec, d: Vec): number {
  const out = new Float64Array(4);
  return raycastObb(out, ...o, ...d, 10, boxes, 15 * h) ? out[0] : NaN;
}
