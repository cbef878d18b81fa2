/**
 * Random broad-phase scenes for the tests: boxes on a half-unit grid (so faces touch exactly),
 * zero-size and huge boxes, duplicates, mixed static flags and layer/mask bits, sparse large ids,
 * and a frame-to-frame mutation (motion, removals, re-additions, new ids, static toggles).
 */
import type { BroadPhaseInput } from '../src/broadphase/broadPhase';
import { mulberry32 } from './random';

/** Ids go up to here (sparse, beyond 100,000); per-id buffers are shared by all scenes. */
export const MAX_TEST_ID = 250_000;

const boxes64 = new Float64Array(MAX_TEST_ID * 6);
const boxes32 = new Float32Array(MAX_TEST_ID * 6);
const isStatic = new Uint8Array(MAX_TEST_ID);
const layer = new Uint32Array(MAX_TEST_ID);
const mask = new Uint32Array(MAX_TEST_ID);

/** Shape of a random scene. */
export interface SceneParams {
  seed: number;
  count: number;
  /** World edge in grid units; smaller means denser. */
  world: number;
  /** Probability a proxy is static (1 = all static). */
  staticRate: number;
  /** 0: everything collides; 1: few layer bits, random masks; 2: including zero masks and full 32-bit masks. */
  layerMode: number;
  /** Added to every coordinate (tests precision far from the origin). */
  offset: number;
  /** Multiplies every coordinate. */
  scale: number;
  float32: boolean;
}

/** A mutable scene: the ids in play plus the shared per-id arrays. */
export interface Scene extends BroadPhaseInput {
  ids: number[];
  rand: () => number;
  params: SceneParams;
  boxes: Float64Array | Float32Array;
}

function randomId(rand: () => number, used: Set<number>): number {
  for (;;) {
    const r = rand();
    // Mostly small ids, some beyond 100,000, a few near the top of the buffer.
    const id = r < 0.6 ? Math.floor(rand() * 400) : r < 0.95 ? 100_000 + Math.floor(rand() * 2000) : MAX_TEST_ID - 1 - Math.floor(rand() * 50);
    if (!used.has(id)) return id;
  }
}

const snap = (x: number) => Math.round(x * 2) / 2;

/** Writes a random box for `id` in the scene, sometimes copying or touching the box of `other`. */
function writeBox(scene: Scene, id: number, other: number): void {
  const { rand, boxes, params } = scene;
  const w = params.world;
  const o = id * 6;
  const kind = rand();
  const place = (k: number, lo: number, hi: number) => {
    boxes[o + k] = params.offset + lo * params.scale;
    boxes[o + 3 + k] = params.offset + hi * params.scale;
  };
  if (other >= 0 && kind < 0.25) {
    // Same box, or one sharing a face with it exactly (shifted by its width on one axis).
    const axis = kind < 0.1 ? -1 : Math.floor(rand() * 3);
    for (let k = 0; k < 3; k++) {
      const lo = boxes[other * 6 + k];
      const hi = boxes[other * 6 + 3 + k];
      const shift = k === axis ? (rand() < 0.5 ? hi - lo : lo - hi) : 0;
      boxes[o + k] = lo + shift;
      boxes[o + 3 + k] = hi + shift;
    }
    return;
  }
  for (let k = 0; k < 3; k++) {
    const lo = snap(rand() * w);
    if (kind < 0.35) place(k, lo, lo); // zero-size (a point)
    else if (kind < 0.4) place(k, snap(-w * rand()), snap(w * (1 + rand()))); // huge
    else if (kind < 0.45 && k === 0) place(k, lo, lo); // flat
    else place(k, lo, lo + snap(rand() * 3));
  }
}

function writeFilter(scene: Scene, id: number): void {
  const { rand, params } = scene;
  isStatic[id] = rand() < params.staticRate ? 1 : 0;
  if (params.layerMode === 0) {
    layer[id] = 1;
    mask[id] = 0xffffffff;
  } else if (params.layerMode === 1) {
    layer[id] = 1 << Math.floor(rand() * 3);
    mask[id] = Math.floor(rand() * 8);
  } else {
    const r = rand();
    layer[id] = r < 0.2 ? 0x80000000 : r < 0.3 ? 0 : 1 << Math.floor(rand() * 32);
    mask[id] = r < 0.5 ? 0xffffffff : rand() < 0.2 ? 0x80000000 : Math.floor(rand() * 0x100000000);
  }
}

function addProxy(scene: Scene, id: number): void {
  const other = scene.ids.length > 0 ? scene.ids[Math.floor(scene.rand() * scene.ids.length)] : -1;
  scene.ids.push(id);
  scene.count = scene.ids.length;
  writeBox(scene, id, other);
  writeFilter(scene, id);
}

/** Builds a random scene from its parameters (deterministic in the seed). */
export function makeScene(params: SceneParams): Scene {
  const scene: Scene = {
    ids: [],
    count: 0,
    boxes: params.float32 ? boxes32 : boxes64,
    isStatic,
    layer,
    mask,
    rand: mulberry32(params.seed),
    params,
  };
  const used = new Set<number>();
  for (let i = 0; i < params.count; i++) {
    const id = randomId(scene.rand, used);
    used.add(id);
    addProxy(scene, id);
  }
  return scene;
}

/**
 * One frame of change: most boxes move a little, some jump anywhere, some proxies leave (their
 * ids may come back later), new ids arrive, a few flip between static and dynamic.
 */
export function stepScene(scene: Scene, removed: number[]): void {
  const { rand, boxes, params } = scene;
  const moveAll = rand() < 0.1;
  for (const id of scene.ids) {
    const r = rand();
    if (moveAll || r < 0.05) {
      writeBox(scene, id, scene.ids[Math.floor(rand() * scene.ids.length)]);
      if (boxes[id * 6] > boxes[id * 6 + 3]) throw new Error('bad box');
    } else if (r < 0.6) {
      const d = snap((rand() - 0.5) * 2) * params.scale;
      const k = Math.floor(rand() * 3);
      boxes[id * 6 + k] += d;
      boxes[id * 6 + 3 + k] += d;
    }
    if (rand() < 0.03) isStatic[id] ^= 1;
  }
  const leave = Math.floor(rand() * Math.min(scene.ids.length, 1 + scene.ids.length / 5));
  for (let i = 0; i < leave; i++) {
    const j = Math.floor(rand() * scene.ids.length);
    removed.push(scene.ids[j]);
    scene.ids.splice(j, 1);
  }
  const used = new Set(scene.ids);
  const back = Math.floor(rand() * Math.min(removed.length + 1, 6));
  for (let i = 0; i < back; i++) {
    const j = Math.floor(rand() * removed.length);
    const id = removed[j];
    removed.splice(j, 1);
    if (!used.has(id)) {
      used.add(id);
      addProxy(scene, id);
    }
  }
  const fresh = Math.floor(rand() * 6);
  for (let i = 0; i < fresh; i++) {
    const id = randomId(rand, used);
    used.add(id);
    addProxy(scene, id);
  }
  // Random order of ids each frame: algorithms must not depend on it.
  for (let i = scene.ids.length - 1; i > 0; i--) {
    const j = Math.floor(rand() * (i + 1));
    [scene.ids[i], scene.ids[j]] = [scene.ids[j], scene.ids[i]];
  }
  scene.count = scene.ids.length;
}

/**
 * One frame in which only dynamic boxes move (and the ids come in a new order): broad phases keep
 * their static structure. With `changeStatic`, one change of the statics too, chosen at random:
 * a static box moves, a static turns dynamic, a dynamic one turns static, a static leaves, or a
 * new static arrives.
 */
export function stepDynamicOnly(scene: Scene, changeStatic: boolean): void {
  const { rand, boxes, params } = scene;
  for (const id of scene.ids) {
    if (isStatic[id] === 1 || rand() < 0.4) continue;
    const d = snap((rand() - 0.5) * 2) * params.scale;
    const k = Math.floor(rand() * 3);
    boxes[id * 6 + k] += d;
    boxes[id * 6 + 3 + k] += d;
  }
  const statics = scene.ids.filter((id) => isStatic[id] === 1);
  const dynamics = scene.ids.filter((id) => isStatic[id] !== 1);
  const pick = (list: number[]) => list[Math.floor(rand() * list.length)];
  if (changeStatic) {
    const change = Math.floor(rand() * 5);
    if (change === 0 && statics.length > 0) {
      const id = pick(statics);
      const k = Math.floor(rand() * 3);
      boxes[id * 6 + k] -= 0.5 * params.scale;
      boxes[id * 6 + 3 + k] -= 0.5 * params.scale;
    } else if (change === 1 && statics.length > 0) {
      isStatic[pick(statics)] = 0;
    } else if (change === 2 && dynamics.length > 0) {
      isStatic[pick(dynamics)] = 1;
    } else if (change === 3 && statics.length > 0) {
      scene.ids.splice(scene.ids.indexOf(pick(statics)), 1);
    } else {
      const id = randomId(rand, new Set(scene.ids));
      addProxy(scene, id);
      isStatic[id] = 1;
    }
  }
  for (let i = scene.ids.length - 1; i > 0; i--) {
    const j = Math.floor(rand() * (i + 1));
    [scene.ids[i], scene.ids[j]] = [scene.ids[j], scene.ids[i]];
  }
  scene.count = scene.ids.length;
}

/**
 * Independent reference: every pair tested with the closed-interval rule written out, filtered
 * by the contract's rule, as sorted "a,b" keys.
 */
export function referencePairs(s: BroadPhaseInput): number[] {
  const keys: number[] = [];
  const ids = Array.from({ length: s.count }, (_, i) => s.ids[i]).sort((x, y) => x - y);
  for (let i = 0; i < ids.length; i++) {
    for (let j = i + 1; j < ids.length; j++) {
      const a = ids[i];
      const b = ids[j];
      let hit = true;
      for (let k = 0; k < 3; k++) {
        if (Math.max(s.boxes[a * 6 + k], s.boxes[b * 6 + k]) > Math.min(s.boxes[a * 6 + 3 + k], s.boxes[b * 6 + 3 + k])) hit = false;
      }
      if (!hit) continue;
      if (s.isStatic[a] && s.isStatic[b]) continue;
      if (((s.layer[a] & s.mask[b]) >>> 0) === 0 || ((s.layer[b] & s.mask[a]) >>> 0) === 0) continue;
      keys.push(a * 2 ** 24 + b);
    }
  }
  return keys;
}
