/**
 * The moving-boxes scene every pipeline benchmark (ours and the peers') runs, so the numbers
 * compare like with like: seeded mulberry32, N boxes with half-extents uniform in [0.5, 2],
 * uniformly random orientation, centres uniform in [0, size]^3, per-frame velocity uniform in
 * [-0.5, 0.5] per axis with bouncing at the walls, and a per-frame spin of up to 0.05 rad about a
 * random axis fixed per box.
 */
import { mulberry32, randomQuaternion } from './random';

export interface Scene {
  count: number;
  /** Edge of the cubic world. */
  size: number;
  /** Per box: half-extents (3), position (3), velocity (3), rotation quaternion xyzw (4), spin quaternion (4). */
  half: Float64Array;
  position: Float64Array;
  velocity: Float64Array;
  rotation: Float64Array;
  spin: Float64Array;
}

/** Edge length keeping the density of 2,000 boxes in 100^3. */
export function sizeForDensity(count: number): number {
  return 100 * Math.cbrt(count / 2000);
}

export function createScene(count: number, size: number, seed = 1): Scene {
  const rand = mulberry32(seed);
  const scene: Scene = {
    count,
    size,
    half: new Float64Array(3 * count),
    position: new Float64Array(3 * count),
    velocity: new Float64Array(3 * count),
    rotation: new Float64Array(4 * count),
    spin: new Float64Array(4 * count),
  };
  const q = [0, 0, 0, 1];
  for (let i = 0; i < count; i++) {
    for (let c = 0; c < 3; c++) {
      scene.half[3 * i + c] = 0.5 + 1.5 * rand();
      scene.position[3 * i + c] = size * rand();
      scene.velocity[3 * i + c] = rand() - 0.5;
    }
    const r = randomQuaternion(rand);
    for (let c = 0; c < 4; c++) scene.rotation[4 * i + c] = r[c];
    // Spin: angle up to 0.05 rad about a uniformly random axis.
    const angle = 0.05 * rand();
    const z = 2 * rand() - 1, phi = 2 * Math.PI * rand(), s = Math.sqrt(1 - z * z);
    const h = Math.sin(angle / 2);
    q[0] = s * Math.cos(phi) * h;
    q[1] = s * Math.sin(phi) * h;
    q[2] = z * h;
    q[3] = Math.cos(angle / 2);
    for (let c = 0; c < 4; c++) scene.spin[4 * i + c] = q[c];
  }
  return scene;
}

/** One frame of motion: move, bounce off the walls, spin. */
export function advanceScene(scene: Scene): void {
  const { position: p, velocity: v, rotation: r, spin: w, size } = scene;
  for (let i = 0; i < scene.count; i++) {
    for (let c = 3 * i; c < 3 * i + 3; c++) {
      p[c] += v[c];
      if (p[c] < 0) {
        p[c] = -p[c];
        v[c] = -v[c];
      } else if (p[c] > size) {
        p[c] = 2 * size - p[c];
        v[c] = -v[c];
      }
    }
    const o = 4 * i;
    const ax = w[o], ay = w[o + 1], az = w[o + 2], aw = w[o + 3];
    const bx = r[o], by = r[o + 1], bz = r[o + 2], bw = r[o + 3];
    let x = aw * bx + ax * bw + ay * bz - az * by;
    let y = aw * by - ax * bz + ay * bw + az * bx;
    let z = aw * bz + ax * by - ay * bx + az * bw;
    let ww = aw * bw - ax * bx - ay * by - az * bz;
    // Renormalise so rounding drift never accumulates over thousands of frames.
    const l = Math.hypot(x, y, z, ww);
    x /= l; y /= l; z /= l; ww /= l;
    r[o] = x; r[o + 1] = y; r[o + 2] = z; r[o + 3] = ww;
  }
}
