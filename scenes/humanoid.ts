/**
 * A procedurally built humanoid (68 bones: spine, head, eyes, jaw, arms with five 4-joint fingers,
 * legs) with a skinned mesh of tubes around the bones, blended with the parent near each joint,
 * and a procedural walk-like animation. Also the independent references the hitbox tests check
 * against: recursive world matrices and CPU skinning, both with gl-matrix.
 */
import { mat4, quat } from 'gl-matrix';
import type { SkeletonInput } from '../src/character/skeleton';
import type { SkinInput } from '../src/character/skin';

export interface ProceduralCharacter {
  skeleton: SkeletonInput & { names: string[]; translation: Float64Array; rotation: Float64Array; scale: Float64Array };
  skin: SkinInput;
  /** Seconds per animation cycle. */
  duration: number;
  /** Writes the local TRS of every bone (input order) at time t. */
  animate(t: number, translation: Float64Array, rotation: Float64Array, scale: Float64Array): void;
}

interface BoneSpec {
  name: string;
  parent: number;
  /** Offset in the parent's space. */
  at: [number, number, number];
  /** Rest rotation as Euler angles (degrees, XYZ). */
  euler: [number, number, number];
  /** Segment along the bone's local +Y (0: an end bone without vertices). */
  length: number;
  radius: number;
  /** Swing amplitude (radians) about local X and Z in the animation. */
  swing: number;
}

/** Rings along each bone and vertices per ring. */
const RINGS = 11;
const AROUND = 8;
/**
 * Share of a bone's length, from each end, over which the neighbour's weight falls from 1/2 at the
 * joint to 0 (the parent's at the start; the chain child's, the one attached at the tip, at the end).
 */
const BLEND = 0.3;

function buildSpecs(): BoneSpec[] {
  const specs: BoneSpec[] = [];
  const add = (name: string, parent: number, at: [number, number, number], euler: [number, number, number], length: number, radius: number, swing: number) => {
    specs.push({ name, parent, at, euler, length, radius, swing });
    return specs.length - 1;
  };
  const hips = add('Hips', -1, [0, 1.0, 0], [0, 0, 0], 0.12, 0.16, 0.1);
  const spine = add('Spine', hips, [0, 0.12, 0], [4, 0, 0], 0.14, 0.15, 0.15);
  const spine1 = add('Spine1', spine, [0, 0.14, 0], [-3, 0, 0], 0.14, 0.16, 0.15);
  const chest = add('Spine2', spine1, [0, 0.14, 0], [-2, 0, 0], 0.16, 0.18, 0.1);
  const neck = add('Neck', chest, [0, 0.16, 0], [10, 0, 0], 0.1, 0.05, 0.3);
  const head = add('Head', neck, [0, 0.1, 0], [-10, 0, 0], 0.22, 0.1, 0.4);
  add('HeadTop_End', head, [0, 0.22, 0], [0, 0, 0], 0, 0, 0);
  add('Jaw', head, [0, 0.03, 0.04], [100, 0, 0], 0.08, 0.035, 0.3);
  add('LeftEye', head, [0.035, 0.1, 0.08], [90, 0, 0], 0.02, 0.012, 0.2);
  add('RightEye', head, [-0.035, 0.1, 0.08], [90, 0, 0], 0.02, 0.012, 0.2);
  for (const side of [1, -1]) {
    const s = side > 0 ? 'Left' : 'Right';
    const shoulder = add(`${s}Shoulder`, chest, [side * 0.05, 0.13, 0], [0, 0, -side * 90], 0.14, 0.05, 0.1);
    const arm = add(`${s}Arm`, shoulder, [0, 0.14, 0], [0, 0, side * 20], 0.28, 0.05, 0.7);
    const fore = add(`${s}ForeArm`, arm, [0, 0.28, 0], [0, 0, 0], 0.25, 0.04, 0.8);
    const hand = add(`${s}Hand`, fore, [0, 0.25, 0], [0, 30, 0], 0.08, 0.035, 0.4);
    const fingers = ['Thumb', 'Index', 'Middle', 'Ring', 'Pinky'];
    fingers.forEach((f, i) => {
      let p = add(`${s}Hand${f}1`, hand, [(i - 2) * 0.018, 0.08, 0.01], [i === 0 ? 30 : 0, 0, side * (i - 2) * 8], 0.035, 0.009, 0.6);
      p = add(`${s}Hand${f}2`, p, [0, 0.035, 0], [15, 0, 0], 0.028, 0.008, 0.7);
      p = add(`${s}Hand${f}3`, p, [0, 0.028, 0], [15, 0, 0], 0.022, 0.007, 0.7);
      add(`${s}Hand${f}4`, p, [0, 0.022, 0], [0, 0, 0], 0, 0, 0);
    });
    const upLeg = add(`${s}UpLeg`, hips, [side * 0.1, 0, 0], [0, 0, 180], 0.45, 0.08, 0.6);
    const leg = add(`${s}Leg`, upLeg, [0, 0.45, 0], [0, 0, 0], 0.43, 0.06, 0.7);
    const foot = add(`${s}Foot`, leg, [0, 0.43, 0], [-70, 0, 0], 0.14, 0.045, 0.4);
    const toe = add(`${s}ToeBase`, foot, [0, 0.14, 0], [-20, 0, 0], 0.06, 0.035, 0.3);
    add(`${s}Toe_End`, toe, [0, 0.06, 0], [0, 0, 0], 0, 0, 0);
  }
  return specs;
}

/** A double-precision matrix (gl-matrix's create() gives Float32Array). */
const mat4f64 = (): mat4 => new Float64Array(16) as unknown as mat4;

/** World matrices by recursion over parents (independent of the library's linear pass). */
export function referenceWorldMatrices(
  parents: ArrayLike<number>,
  translation: ArrayLike<number>,
  rotation: ArrayLike<number>,
  scale: ArrayLike<number>,
  root: mat4 = mat4.identity(mat4f64()),
): mat4[] {
  const memo: (mat4 | undefined)[] = [];
  const world = (i: number): mat4 => {
    const known = memo[i];
    if (known) return known;
    const local = mat4.fromRotationTranslationScale(
      mat4f64(),
      [rotation[4 * i], rotation[4 * i + 1], rotation[4 * i + 2], rotation[4 * i + 3]],
      [translation[3 * i], translation[3 * i + 1], translation[3 * i + 2]],
      [scale[3 * i], scale[3 * i + 1], scale[3 * i + 2]],
    );
    const m = mat4.multiply(mat4f64(), parents[i] < 0 ? root : world(parents[i]), local);
    memo[i] = m;
    return m;
  };
  return Array.from({ length: parents.length }, (_, i) => world(i));
}

/**
 * CPU linear-blend skinning: v' = Σ w_k · world[j_k] · inverseBind[j_k] · v. Joint indices and
 * matrices in the same (input) order; weights normalised here.
 */
export function referenceSkin(skin: SkinInput, world: mat4[], inverseBind: ArrayLike<number>): Float64Array {
  const influences = skin.influences ?? 4;
  const n = skin.positions.length / 3;
  const out = new Float64Array(3 * n);
  const skinMatrices = world.map((w, j) => mat4.multiply(mat4f64(), w, Array.from({ length: 16 }, (_, k) => inverseBind[16 * j + k]) as unknown as mat4));
  for (let v = 0; v < n; v++) {
    let sum = 0;
    for (let k = 0; k < influences; k++) sum += skin.weights[v * influences + k];
    const x = skin.positions[3 * v], y = skin.positions[3 * v + 1], z = skin.positions[3 * v + 2];
    for (let k = 0; k < influences; k++) {
      const w = skin.weights[v * influences + k] / sum;
      if (w === 0) continue;
      const m = skinMatrices[skin.joints[v * influences + k]];
      out[3 * v] += w * (m[0] * x + m[4] * y + m[8] * z + m[12]);
      out[3 * v + 1] += w * (m[1] * x + m[5] * y + m[9] * z + m[13]);
      out[3 * v + 2] += w * (m[2] * x + m[6] * y + m[10] * z + m[14]);
    }
  }
  return out;
}

/** The 68-bone humanoid, its tube mesh (2 influences per vertex, padded to 4) and its animation. */
export function buildHumanoid(): ProceduralCharacter {
  const specs = buildSpecs();
  const n = specs.length;
  const names = specs.map((s) => s.name);
  const parents = specs.map((s) => s.parent);
  const translation = new Float64Array(3 * n);
  const rotation = new Float64Array(4 * n);
  const scale = new Float64Array(3 * n).fill(1);
  const q = new Float64Array(4) as unknown as quat;
  specs.forEach((s, i) => {
    translation.set(s.at, 3 * i);
    quat.fromEuler(q, s.euler[0], s.euler[1], s.euler[2]);
    rotation.set(q, 4 * i);
  });
  const bind = referenceWorldMatrices(parents, translation, rotation, scale);

  const positions: number[] = [];
  const joints: number[] = [];
  const weights: number[] = [];
  // The chain child of a bone: the first child attached at its tip, whose joint it shares.
  const chainChild = specs.map((s, b) => specs.findIndex((c) => c.parent === b && c.length > 0 && c.at[0] === 0 && c.at[1] === s.length && c.at[2] === 0));
  specs.forEach((s, b) => {
    if (s.length === 0) return;
    for (let r = 0; r < RINGS; r++) {
      const f = r / (RINGS - 1);
      // A capsule-ish tube: radius narrows toward both ends.
      const radius = s.radius * (0.7 + 0.3 * Math.sin(Math.PI * f));
      for (let a = 0; a < AROUND; a++) {
        const angle = (2 * Math.PI * a) / AROUND;
        const lx = radius * Math.cos(angle), ly = f * s.length, lz = radius * Math.sin(angle);
        const m = bind[b];
        positions.push(m[0] * lx + m[4] * ly + m[8] * lz + m[12], m[1] * lx + m[5] * ly + m[9] * lz + m[13], m[2] * lx + m[6] * ly + m[10] * lz + m[14]);
        const parentWeight = s.parent >= 0 && f < BLEND ? 0.5 * (1 - f / BLEND) : 0;
        const childWeight = chainChild[b] >= 0 && f > 1 - BLEND ? 0.5 * (1 - (1 - f) / BLEND) : 0;
        joints.push(b, Math.max(s.parent, 0), Math.max(chainChild[b], 0), 0);
        weights.push(1 - parentWeight - childWeight, parentWeight, childWeight, 0);
      }
    }
  });

  const restRotation = rotation.slice();
  const swingQ = new Float64Array(4) as unknown as quat;
  const duration = 1.2;
  return {
    skeleton: { parents, names, translation, rotation, scale },
    skin: { positions: Float64Array.from(positions), joints: Int32Array.from(joints), weights: Float64Array.from(weights), influences: 4 },
    duration,
    animate(t, outT, outR, outS) {
      const phase = (2 * Math.PI * t) / duration;
      outT.set(translation);
      outS.set(scale);
      // Root bobs and turns; every bone swings about its local X and Z with its own phase.
      outT[1] += 0.04 * Math.sin(2 * phase);
      outT[0] += 0.3 * Math.sin(phase);
      specs.forEach((s, i) => {
        const side = s.name.startsWith('Left') ? 1 : -1;
        const a = s.swing * Math.sin(phase + side * 0.5 * Math.PI + 0.3 * i);
        const b = 0.5 * s.swing * Math.cos(phase + 0.7 * i);
        quat.fromEuler(swingQ, (a * 180) / Math.PI, i === 0 ? 40 * Math.sin(phase) : 0, (b * 180) / Math.PI);
        const r = quat.multiply(q, [restRotation[4 * i], restRotation[4 * i + 1], restRotation[4 * i + 2], restRotation[4 * i + 3]], swingQ);
        outR.set(r, 4 * i);
      });
    },
  };
}

/** Coverage and tightness of a character's world hitboxes over a set of skinned vertices. */
export interface FrameFit {
  /** Vertices inside at least one box. */
  inside: number;
  total: number;
  /** Sum of box volumes over the volume of the vertices' AABB. */
  volumeRatio: number;
}

/**
 * Counts skinned vertices (xyz) inside the union of `count` world OBBs (stride 15 from `first`),
 * with a tolerance relative to the mesh size, by brute force.
 */
export function measureFrame(vertices: Float64Array, boxes: ArrayLike<number>, first: number, count: number, relativeTolerance = 1e-6): FrameFit {
  const n = vertices.length / 3;
  const min = [Infinity, Infinity, Infinity];
  const max = [-Infinity, -Infinity, -Infinity];
  for (let i = 0; i < n; i++) {
    for (let a = 0; a < 3; a++) {
      min[a] = Math.min(min[a], vertices[3 * i + a]);
      max[a] = Math.max(max[a], vertices[3 * i + a]);
    }
  }
  const size = Math.max(max[0] - min[0], max[1] - min[1], max[2] - min[2]);
  const tol = relativeTolerance * size;
  let inside = 0;
  for (let i = 0; i < n; i++) {
    const x = vertices[3 * i], y = vertices[3 * i + 1], z = vertices[3 * i + 2];
    for (let h = first; h < first + count; h++) {
      if (boxContains(boxes, 15 * h, x, y, z, tol)) {
        inside++;
        break;
      }
    }
  }
  let volume = 0;
  for (let h = first; h < first + count; h++) volume += 8 * boxes[15 * h + 12] * boxes[15 * h + 13] * boxes[15 * h + 14];
  return { inside, total: n, volumeRatio: volume / ((max[0] - min[0]) * (max[1] - min[1]) * (max[2] - min[2])) };
}

/** Point in OBB by projection on its axes (kept here so the reference does not use the code under test). */
export function boxContains(box: ArrayLike<number>, o: number, x: number, y: number, z: number, tol: number): boolean {
  const dx = x - box[o], dy = y - box[o + 1], dz = z - box[o + 2];
  for (let k = 0; k < 3; k++) {
    const a = o + 3 + 3 * k;
    if (Math.abs(dx * box[a] + dy * box[a + 1] + dz * box[a + 2]) > box[o + 12 + k] + tol) return false;
  }
  return true;
}
