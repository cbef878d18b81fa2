/**
 * A THREE.Points over a preallocated position buffer, refilled every frame (begin, point, end);
 * points past the capacity are dropped, so drawing never allocates. Screen-sized dots.
 */
import * as THREE from 'three';

export class PointBatch {
  readonly object: THREE.Points;
  readonly capacity: number;
  count = 0;
  private readonly positions: Float32Array;
  private readonly attribute: THREE.BufferAttribute;

  constructor(capacity: number, color: number, pixels: number) {
    this.capacity = capacity;
    this.positions = new Float32Array(3 * capacity);
    this.attribute = new THREE.BufferAttribute(this.positions, 3).setUsage(THREE.DynamicDrawUsage);
    const geometry = new THREE.BufferGeometry();
    geometry.setAttribute('position', this.attribute);
    geometry.setDrawRange(0, 0);
    this.object = new THREE.Points(geometry, new THREE.PointsMaterial({ color, size: pixels, sizeAttenuation: false }));
    this.object.frustumCulled = false;
  }

  begin(): void {
    this.count = 0;
  }

  point(x: number, y: number, z: number): void {
    if (this.count === this.capacity) return;
    const o = 3 * this.count++;
    this.positions[o] = x; this.positions[o + 1] = y; this.positions[o + 2] = z;
  }

  end(): void {
    this.object.geometry.setDrawRange(0, this.count);
    this.attribute.clearUpdateRanges();
    this.attribute.addUpdateRange(0, 3 * this.count);
    this.attribute.needsUpdate = true;
  }
}
