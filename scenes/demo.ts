/**
 * The demo scene shared by `npm start` (examples/demo.ts), the browser debug view (debug/) and its
 * end-to-end test: moving boxes, spheres and capsules (the benchmark scene's motion) over a static
 * triangle-mesh floor, animated
 * characters with bone hitboxes walking circles through them, and rays shot at the characters
 * every frame. Everything follows from the seed, so Node and the browser step the same frames.
 */
import { addEntity, createWorld, type World } from 'bitecs';
import { addCharacterHitboxes, createHitboxStore } from '../src/character/hitboxStore';
import { type HitboxStore } from '../src/character/hitboxLayout';
import { createCharacterRayGrid, type CharacterRayGrid } from '../src/character/rayGrid';
import { createHitboxRayHit, raycastHitboxes } from '../src/character/hitboxRaycast';
import { createRayQuery, setRay } from '../src/query/rayQuery';
import { fitBoneHitboxes, type BoneHitboxes } from '../src/character/hitboxFit';
import { buildBoundingTree } from '../src/tree/build';
import { addCharacter, createSkeletonStore, defineSkeleton, type SkeletonDefinition, type SkeletonStore } from '../src/character/skeleton';
import { defineSkin } from '../src/character/skin';
import { addCharacterCollider, addCollider, addMeshCollider, createCollisionPipeline, setTransform, updateBoneHitboxes, type CollisionPipeline, type CollisionWorkers } from '../systems/index';
import { createSweepAndPrune } from '../src/broadphase/sweepAndPrune';
import { advanceScene, createScene, type Scene } from './movingBoxes';
import { buildHumanoid } from './humanoid';
import { mulberry32 } from './random';

/** Shape kinds of the moving bodies, by body index modulo 3. */
export const BODY_KINDS = ['box', 'sphere', 'capsule'] as const;
export type BodyKind = (typeof BODY_KINDS)[number];

/** Fixed time step of the scene (seconds per frame). */
export const FRAME_SECONDS = 1 / 60;

/** A kind of animated character: its skeleton, fitted hitboxes and animation. */
export interface CharacterKind {
  name: string;
  skeleton: SkeletonDefinition;
  hitboxes: BoneHitboxes;
  /** Writes the local TRS of the character's bones at time t into the store, from `firstBone`. */
  animate(t: number, store: SkeletonStore, firstBone: number): void;
  /** Matrix (column-major) between the placement and the root bones: unit scale and any glTF root matrix. */
  base: Float64Array;
}

/** Options of `createDemoScene`. */
export interface DemoSceneOptions {
  seed?: number;
  /** Moving bodies (a third each boxes, spheres, capsules). Default 300. */
  bodies?: number;
  /** Edge of the cubic world the bodies bounce in. Default 40. */
  size?: number;
  /** Procedural humanoids. Default 4. */
  humanoids?: number;
  /** Further characters, one each (e.g. the Fox, loaded by the caller). */
  extraCharacters?: readonly CharacterKind[];
  /** Rays shot at the characters per frame. Default 12. */
  raysPerFrame?: number;
  /** A static wavy triangle-mesh floor under the bodies. Default true. */
  floor?: boolean;
  /** The pipeline's worker threads (its `workers` option). Default: one thread. */
  workers?: CollisionWorkers;
}

/** The static level: a triangle mesh (world frame) and its collider entity. */
export interface DemoFloor {
  entity: number;
  /** Vertices xyz and triangle indices. */
  positions: Float64Array;
  indices: Uint32Array;
}

/** Per-frame ray results (preallocated, overwritten every frame). */
export interface DemoRays {
  count: number;
  /** Origin and end (hit point, or the end of the ray when it missed), 3 each per ray. */
  origin: Float64Array;
  end: Float64Array;
  /** Per ray: hitbox index hit, or -1; its character, global bone and hit group (or -1). */
  hitbox: Int32Array;
  character: Int32Array;
  bone: Int32Array;
  group: Int32Array;
}

/** A running demo scene. */
export interface DemoScene {
  readonly world: World;
  readonly pipeline: CollisionPipeline;
  readonly skeletons: SkeletonStore;
  readonly hitboxes: HitboxStore;
  readonly rayGrid: CharacterRayGrid;
  readonly bodies: Scene;
  /** Entity of each body. */
  readonly bodyEntity: Int32Array;
  /** Name per character index ("Humanoid 1", "Fox"). */
  readonly characterName: readonly string[];
  /** Name of each global bone of the skeleton store. */
  readonly boneName: readonly string[];
  readonly rays: DemoRays;
  readonly floor: DemoFloor | undefined;
  /** Frames stepped so far. */
  frame: number;
  /** Milliseconds of the last frame's ray casts. */
  rayMs: number;
  /** Advances one fixed step: bodies move, characters animate and walk, the pipeline runs, rays are cast. */
  step(): void;
  /** "box#12", "Humanoid 2#301": a readable name of an entity of the scene. */
  label(eid: number): string;
}

/** Height of the procedural humanoid is about 1.9; the scene shows them as giants among the boxes. */
const HUMANOID_SCALE = 3;

/** The procedural humanoid of test/support/humanoid.ts as a character kind. */
export function humanoidKind(): CharacterKind {
  const humanoid = buildHumanoid();
  const skeleton = defineSkeleton(humanoid.skeleton);
  const hitboxes = fitBoneHitboxes(skeleton, defineSkin(skeleton, humanoid.skin));
  const n = skeleton.boneCount;
  const base = new Float64Array(16);
  for (let k = 0; k < 3; k++) base[5 * k] = HUMANOID_SCALE;
  base[15] = 1;
  return {
    name: 'Humanoid',
    skeleton,
    hitboxes,
    base,
    animate(t, store, first) {
      // The humanoid's input order is already parents-first, so its bones map one to one.
      humanoid.animate(
        t % humanoid.duration,
        store.translation.subarray(3 * first, 3 * (first + n)),
        store.rotation.subarray(4 * first, 4 * (first + n)),
        store.scale.subarray(3 * first, 3 * (first + n)),
      );
    },
  };
}

/** Floor cells per side (two triangles each). */
const FLOOR_CELLS = 24;

/**
 * A heightfield over [0, size]² in x and z, waving between about 0.3 and 2.7 units high, where the
 * bodies' centres bounce (at y = 0), so the bodies that come down touch it.
 */
function floorMesh(size: number): { positions: Float64Array; indices: Uint32Array } {
  const n = FLOOR_CELLS + 1;
  const positions = new Float64Array(3 * n * n);
  for (let i = 0; i < n; i++) {
    for (let j = 0; j < n; j++) {
      const x = (size * i) / FLOOR_CELLS, z = (size * j) / FLOOR_CELLS;
      positions.set([x, 1.5 + 1.2 * Math.sin(0.3 * x) * Math.cos(0.25 * z), z], 3 * (i * n + j));
    }
  }
  const indices = new Uint32Array(6 * FLOOR_CELLS * FLOOR_CELLS);
  let k = 0;
  for (let i = 0; i < FLOOR_CELLS; i++) {
    for (let j = 0; j < FLOOR_CELLS; j++) {
      const a = i * n + j, b = a + n;
      indices.set([a, a + 1, b, b, a + 1, b + 1], k);
      k += 6;
    }
  }
  return { positions, indices };
}

/** Walking speed of the characters along their circles (world units per second). */
const WALK_SPEED = 4;

/** Writes out = translate(x, y, z) · rotateY(heading) · base. */
function placementMatrix(out: Float64Array, o: number, x: number, y: number, z: number, heading: number, base: Float64Array): void {
  const c = Math.cos(heading), s = Math.sin(heading);
  for (let col = 0; col < 4; col++) {
    const bx = base[4 * col], by = base[4 * col + 1], bz = base[4 * col + 2], bw = base[4 * col + 3];
    out[o + 4 * col] = c * bx + s * bz + x * bw;
    out[o + 4 * col + 1] = by + y * bw;
    out[o + 4 * col + 2] = -s * bx + c * bz + z * bw;
    out[o + 4 * col + 3] = bw;
  }
}

/** Builds the scene: world, pipeline (with timings), bodies, characters and ray buffers. */
export function createDemoScene(options: DemoSceneOptions = {}): DemoScene {
  const seed = options.seed ?? 7;
  const bodyCount = options.bodies ?? 300;
  const size = options.size ?? 40;
  const humanoidCount = options.humanoids ?? 4;
  const raysPerFrame = options.raysPerFrame ?? 12;
  const world = createWorld();
  const skeletons = createSkeletonStore();
  const hitboxes = createHitboxStore();
  const rayGrid = createCharacterRayGrid();
  const pipeline = createCollisionPipeline(world, { broadPhase: createSweepAndPrune(), characters: { skeletons, hitboxes, rayGrid }, timings: true, workers: options.workers });

  const bodies = createScene(bodyCount, size, seed);
  const bodyEntity = new Int32Array(bodyCount);
  const positionOf: Float64Array[] = [];
  const rotationOf: Float64Array[] = [];
  const labels = new Map<number, string>();
  for (let i = 0; i < bodyCount; i++) {
    const eid = addEntity(world);
    bodyEntity[i] = eid;
    const hx = bodies.half[3 * i], hy = bodies.half[3 * i + 1], hz = bodies.half[3 * i + 2];
    const kind = BODY_KINDS[i % 3];
    if (kind === 'box') addCollider(world, eid, { shape: 'obb', halfExtents: [hx, hy, hz] });
    else if (kind === 'sphere') addCollider(world, eid, { shape: 'sphere', radius: hx });
    else addCollider(world, eid, { shape: 'capsule', p0: [0, -hy, 0], p1: [0, hy, 0], radius: 0.5 * hx });
    labels.set(eid, `${kind}#${eid}`);
    // Views made once, so the per-frame transform updates allocate nothing.
    positionOf.push(bodies.position.subarray(3 * i, 3 * i + 3));
    rotationOf.push(bodies.rotation.subarray(4 * i, 4 * i + 4));
  }

  let floor: DemoFloor | undefined;
  if (options.floor ?? true) {
    const mesh = floorMesh(size);
    const entity = addEntity(world);
    setTransform(world, entity, [0, 0, 0]);
    addMeshCollider(world, entity, buildBoundingTree(mesh.positions, mesh.indices), { isStatic: true });
    labels.set(entity, `floor#${entity}`);
    floor = { entity, ...mesh };
  }

  const kinds: CharacterKind[] = [];
  if (humanoidCount > 0) {
    const humanoid = humanoidKind();
    for (let i = 0; i < humanoidCount; i++) kinds.push(humanoid);
  }
  kinds.push(...(options.extraCharacters ?? []));
  const characterName: string[] = [];
  const boneName: string[] = [];
  let humanoidNumber = 0;
  kinds.forEach((kind) => {
    const eid = addEntity(world);
    const c = addCharacter(skeletons, kind.skeleton, eid);
    addCharacterHitboxes(hitboxes, skeletons, c, kind.hitboxes);
    addCharacterCollider(world, eid, c);
    const name = kind.name === 'Humanoid' ? `Humanoid ${++humanoidNumber}` : kind.name;
    characterName.push(name);
    labels.set(eid, `${name}#${eid}`);
    boneName.push(...kind.skeleton.names);
  });
  // Circle of each character: centre at the middle of the world, its own radius, height and phase.
  const characterCount = kinds.length;
  const radius = new Float64Array(characterCount);
  const height = new Float64Array(characterCount);
  const phase = new Float64Array(characterCount);
  const direction = new Float64Array(characterCount);
  for (let c = 0; c < characterCount; c++) {
    radius[c] = size * (0.18 + (0.22 * (c + 0.5)) / characterCount);
    height[c] = size * (0.15 + (0.6 * (c + 0.5)) / characterCount);
    phase[c] = (2 * Math.PI * c) / characterCount;
    direction[c] = c % 2 === 0 ? 1 : -1;
  }

  const rays: DemoRays = {
    count: 0,
    origin: new Float64Array(3 * raysPerFrame),
    end: new Float64Array(3 * raysPerFrame),
    hitbox: new Int32Array(raysPerFrame),
    character: new Int32Array(raysPerFrame),
    bone: new Int32Array(raysPerFrame),
    group: new Int32Array(raysPerFrame),
  };
  const rayRandom = mulberry32(seed ^ 0x5eed);
  const hit = createHitboxRayHit();
  const shot = createRayQuery();

  function moveCharacters(t: number): void {
    for (let c = 0; c < characterCount; c++) {
      const kind = kinds[c];
      kind.animate(t + 0.37 * c, skeletons, skeletons.firstBone[c]);
      const angle = phase[c] + (direction[c] * WALK_SPEED * t) / radius[c];
      const x = size / 2 + radius[c] * Math.cos(angle);
      const z = size / 2 + radius[c] * Math.sin(angle);
      // Face along the circle: the tangent is (-sin, 0, cos) times the direction; local +Z forward.
      const heading = Math.atan2(-direction[c] * Math.sin(angle), direction[c] * Math.cos(angle));
      placementMatrix(skeletons.characterMatrix, 16 * c, x, height[c], z, heading, kind.base);
    }
  }

  function castRays(): void {
    const t0 = performance.now();
    const aabb = hitboxes.characterAabb;
    rays.count = characterCount === 0 ? 0 : raysPerFrame;
    for (let r = 0; r < rays.count; r++) {
      const c = r % characterCount;
      // From a random point on a sphere around the world towards a jittered point of the character's box.
      const u = 2 * rayRandom() - 1, phi = 2 * Math.PI * rayRandom(), s = Math.sqrt(1 - u * u);
      const ox = size / 2 + size * s * Math.cos(phi), oy = size / 2 + size * u, oz = size / 2 + size * s * Math.sin(phi);
      const a = 6 * c;
      const tx = aabb[a] + (aabb[a + 3] - aabb[a]) * rayRandom();
      const ty = aabb[a + 1] + (aabb[a + 4] - aabb[a + 1]) * rayRandom();
      const tz = aabb[a + 2] + (aabb[a + 5] - aabb[a + 2]) * rayRandom();
      // Direction to the target, reaching 1.5 times as far.
      const dx = tx - ox, dy = ty - oy, dz = tz - oz;
      const maxT = 1.5;
      rays.origin[3 * r] = ox; rays.origin[3 * r + 1] = oy; rays.origin[3 * r + 2] = oz;
      setRay(shot, ox, oy, oz, dx, dy, dz).maxDistance = maxT * Math.hypot(dx, dy, dz);
      if (raycastHitboxes(hit, hitboxes, rayGrid, shot)) {
        rays.end.set(hit.point, 3 * r);
        rays.hitbox[r] = hit.hitbox;
        rays.character[r] = hit.character;
        rays.bone[r] = hit.bone;
        rays.group[r] = hit.group;
      } else {
        rays.end[3 * r] = ox + maxT * dx; rays.end[3 * r + 1] = oy + maxT * dy; rays.end[3 * r + 2] = oz + maxT * dz;
        rays.hitbox[r] = rays.character[r] = rays.bone[r] = rays.group[r] = -1;
      }
    }
    scene.rayMs = performance.now() - t0;
  }

  const scene: DemoScene = {
    world,
    pipeline,
    skeletons,
    hitboxes,
    rayGrid,
    bodies,
    bodyEntity,
    characterName,
    boneName,
    rays,
    floor,
    frame: 0,
    rayMs: 0,
    step() {
      scene.frame++;
      advanceScene(bodies);
      for (let i = 0; i < bodyCount; i++) setTransform(world, bodyEntity[i], positionOf[i], rotationOf[i]);
      moveCharacters(scene.frame * FRAME_SECONDS);
      pipeline.step(world);
      castRays();
    },
    label: (eid) => labels.get(eid) ?? `#${eid}`,
  };
  // Characters start posed, with bones, hitboxes and the ray grid computed, so a view of frame 0
  // (before any step) already shows them in place.
  moveCharacters(0);
  updateBoneHitboxes({ skeletons, hitboxes, rayGrid });
  return scene;
}
