/**
 * A THREE.LineSegments over preallocated position and colour buffers, refilled every frame:
 * begin(), any number of segment() calls, end(). Segments past the capacity are counted in
 * `dropped` and not drawn, so drawing never allocates.
 */
import * as THREE from 'three';

/** Vertices per unit circle of arcs and rings. */
export const CIRCLE_SEGMENTS = 16;
const COS = Float64Array.from({ length: CIRCLE_SEGMENTS + 1 }, (_, i) => Math.cos((2 * Math.PI * i) / CIRCLE_SEGMENTS));
const SIN = Float64Array.from({ length: CIRCLE_SEGMENTS + 1 }, (_, i) => Math.sin((2 * Math.PI * i) / CIRCLE_SEGMENTS));

export class LineBatch {
  readonly object: THREE.LineSegments;
  readonly capacity: number;
  /** Segments written this frame; segments that did not fit. */
  count = 0;
  dropped = 0;
  private readonly positions: Float32Array;
  private readonly colors: Float32Array;
  private readonly positionAttribute: THREE.BufferAttribute;
  private readonly colorAttribute: THREE.BufferAttribute;
  private r = 1;
  private g = 1;
  private b = 1;

  constructor(capacity: number) {
    this.capacity = capacity;
    this.positions = new Float32Array(6 * capacity);
    this.colors = new Float32Array(6 * capacity);
    const geometry = new THREE.BufferGeometry();
    this.positionAttribute = new THREE.BufferAttribute(this.positions, 3).setUsage(THREE.DynamicDrawUsage);
    this.colorAttribute = new THREE.BufferAttribute(this.colors, 3).setUsage(THREE.DynamicDrawUsage);
    geometry.setAttribute('position', this.positionAttribute);
    geometry.setAttribute('color', this.colorAttribute);
    geometry.setDrawRange(0, 0);
    this.object = new THREE.LineSegments(geometry, new THREE.LineBasicMaterial({ vertexColors: true }));
    // The buffers change every frame; a stale bounding sphere must not cull the batch.
    this.object.frustumCulled = false;
  }

  begin(): void {
    this.count = 0;
    this.dropped = 0;
  }

  /** Colour of the following segments (0xRRGGBB). */
  color(hex: number): void {
    this.r = ((hex >> 16) & 255) / 255;
    this.g = ((hex >> 8) & 255) / 255;
    this.b = (hex & 255) / 255;
  }

  segment(ax: number, ay: number, az: number, bx: number, by: number, bz: number): void {
    if (this.count === this.capacity) {
      this.dropped++;
      return;
    }
    const o = 6 * this.count++;
    const p = this.positions, c = this.colors;
    p[o] = ax; p[o + 1] = ay; p[o + 2] = az; p[o + 3] = bx; p[o + 4] = by; p[o + 5] = bz;
    c[o] = c[o + 3] = this.r;
    c[o + 1] = c[o + 4] = this.g;
    c[o + 2] = c[o + 5] = this.b;
  }

  /** Arc of the circle centre + r(cos·u + sin·v), over unit-circle steps [from, to) of CIRCLE_SEGMENTS per turn. */
  arc(cx: number, cy: number, cz: number, ux: number, uy: number, uz: number, vx: number, vy: number, vz: number, r: number, from: number, to: number): void {
    for (let i = from; i < to; i++) {
      const c0 = r * COS[i], s0 = r * SIN[i], c1 = r * COS[i + 1], s1 = r * SIN[i + 1];
      this.segment(
        cx + c0 * ux + s0 * vx, cy + c0 * uy + s0 * vy, cz + c0 * uz + s0 * vz,
        cx + c1 * ux + s1 * vx, cy + c1 * uy + s1 * vy, cz + c1 * uz + s1 * vz,
      );
    }
  }

  end(): void {
    this.object.geometry.setDrawRange(0, 2 * this.count);
    this.positionAttribute.clearUpdateRanges();
    this.positionAttribute.addUpdateRange(0, 6 * this.count);
    this.positionAttribute.needsUpdate = true;
    this.colorAttribute.clearUpdateRanges();
    this.colorAttribute.addUpdateRange(0, 6 * this.count);
    this.colorAttribute.needsUpdate = true;
  }
}
