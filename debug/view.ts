/**
 * three.js drawing of a DemoScene: one LineBatch per layer (volumes as wireframes, bone hitboxes
 * coloured by hit group, contact normals, ray segments) plus dots for contact points and ray
 * hits, all over buffers sized once from the scene, refilled from the library's stores.
 */
import * as THREE from 'three';
import { OrbitControls } from 'three/examples/jsm/controls/OrbitControls.js';
import { CONTACT_COUNT, CONTACT_DEPTH, CONTACT_NORMAL, CONTACT_POINT_STRIDE, CONTACT_POINTS, CONTACT_STRIDE } from '../src/contacts/manifold';
import { SHAPE_CAPSULE, SHAPE_OBB, SHAPE_SPHERE, SHAPE_STRIDE } from '../systems/index';
import type { DemoScene } from '../scenes/demo';
import { drawAabb, drawCapsule, drawObb, drawSphere } from './drawVolumes';
import { CONTACT_POINT_COLOR, HIT_GROUP_COLORS, LAYERS, RAY_HIT_COLOR, RAY_HIT_POINT_COLOR, RAY_MISS_COLOR, type LayerKey } from './layers';
import { CIRCLE_SEGMENTS, LineBatch } from './lineBatch';
import { PointBatch } from './pointBatch';

/** Contacts drawn at most (a full manifold has 4 points); the rest are counted on screen, not drawn. */
const MAX_DRAWN_CONTACTS = 4096;
/** Normals are drawn this long relative to the world's edge, so they read at any scale. */
const NORMAL_LENGTH_OF_WORLD = 0.04;

/** Triangle edges of a static mesh, drawn once (each triangle's three edges; shared edges twice). */
function drawStaticMesh(batch: LineBatch, positions: Float64Array, indices: Uint32Array): void {
  batch.begin();
  for (let t = 0; t < indices.length; t += 3) {
    for (let k = 0; k < 3; k++) {
      const a = 3 * indices[t + k], b = 3 * indices[t + ((k + 1) % 3)];
      batch.segment(positions[a], positions[a + 1], positions[a + 2], positions[b], positions[b + 1], positions[b + 2]);
    }
  }
  batch.end();
}

export class DebugView {
  readonly renderer: THREE.WebGLRenderer;
  private readonly scene3 = new THREE.Scene();
  private readonly camera: THREE.PerspectiveCamera;
  private readonly controls: OrbitControls;
  private readonly lines: Record<LayerKey, LineBatch>;
  private readonly contactPoints = new PointBatch(4 * MAX_DRAWN_CONTACTS, CONTACT_POINT_COLOR, 4);
  private readonly rayHits: PointBatch;

  constructor(canvas: HTMLCanvasElement, private readonly demo: DemoScene) {
    // preserveDrawingBuffer: screenshots (the e2e test) read what was drawn last.
    this.renderer = new THREE.WebGLRenderer({ canvas, antialias: true, preserveDrawingBuffer: true });
    this.renderer.setPixelRatio(Math.min(2, window.devicePixelRatio));
    this.renderer.setClearColor(0x111111);
    const size = demo.bodies.size;
    this.camera = new THREE.PerspectiveCamera(50, 1, 0.1, 20 * size);
    this.camera.position.set(1.7 * size, 1.2 * size, 1.5 * size);
    this.controls = new OrbitControls(this.camera, canvas);
    this.controls.target.set(size / 2, size / 2, size / 2);
    this.controls.update();
    const bodies = demo.bodies.count;
    const third = Math.ceil(bodies / 3);
    const capsuleSegments = 2 * CIRCLE_SEGMENTS + 4 + 2 * CIRCLE_SEGMENTS;
    const rays = demo.rays.origin.length / 3;
    const floor = demo.floor;
    this.lines = {
      floor: new LineBatch(floor ? floor.indices.length : 0),
      boxes: new LineBatch(12 * third),
      spheres: new LineBatch(3 * CIRCLE_SEGMENTS * third),
      capsules: new LineBatch(capsuleSegments * third),
      hitboxes: new LineBatch(12 * demo.hitboxes.count),
      characterBoxes: new LineBatch(12 * demo.hitboxes.characterCount),
      contacts: new LineBatch(4 * MAX_DRAWN_CONTACTS),
      rays: new LineBatch(rays),
    };
    this.rayHits = new PointBatch(rays, RAY_HIT_POINT_COLOR, 6);
    for (const layer of LAYERS) {
      const batch = this.lines[layer.key];
      batch.color(layer.color);
      this.scene3.add(batch.object);
      this.setVisible(layer.key, layer.visible);
    }
    this.scene3.add(this.contactPoints.object, this.rayHits.object);
    if (floor) drawStaticMesh(this.lines.floor, floor.positions, floor.indices);
    const bounds = new LineBatch(12);
    bounds.color(0x333333);
    drawAabb(bounds, [0, 0, 0, size, size, size], 0);
    bounds.end();
    this.scene3.add(bounds.object);
  }

  setVisible(key: LayerKey, visible: boolean): void {
    this.lines[key].object.visible = visible;
    if (key === 'contacts') this.contactPoints.object.visible = visible;
    if (key === 'rays') this.rayHits.object.visible = visible;
  }

  /** Refills every batch from the scene's stores and renders. */
  draw(): void {
    const { pipeline, bodyEntity, hitboxes, rays } = this.demo;
    const c = pipeline.collider;
    const { boxes, spheres, capsules } = this.lines;
    boxes.begin(); spheres.begin(); capsules.begin();
    for (let i = 0; i < bodyEntity.length; i++) {
      const e = bodyEntity[i];
      const kind = c.kind[e];
      if (kind === SHAPE_OBB) drawObb(boxes, c.world, SHAPE_STRIDE * e);
      else if (kind === SHAPE_SPHERE) drawSphere(spheres, c.world, SHAPE_STRIDE * e);
      else if (kind === SHAPE_CAPSULE) drawCapsule(capsules, c.world, SHAPE_STRIDE * e);
    }
    boxes.end(); spheres.end(); capsules.end();

    const hb = this.lines.hitboxes;
    hb.begin();
    for (let h = 0; h < hitboxes.count; h++) {
      hb.color(HIT_GROUP_COLORS[hitboxes.group[h]] ?? HIT_GROUP_COLORS[HIT_GROUP_COLORS.length - 1]);
      drawObb(hb, hitboxes.world, 15 * h);
    }
    hb.end();
    const cb = this.lines.characterBoxes;
    cb.begin();
    for (let ch = 0; ch < hitboxes.characterCount; ch++) drawAabb(cb, hitboxes.characterAabb, 6 * ch);
    cb.end();

    const normals = this.lines.contacts;
    const points = this.contactPoints;
    const contacts = pipeline.contacts;
    const normalLength = NORMAL_LENGTH_OF_WORLD * this.demo.bodies.size;
    normals.begin(); points.begin();
    for (let i = 0; i < contacts.count && i < MAX_DRAWN_CONTACTS; i++) {
      const m = contacts.manifold, o = CONTACT_STRIDE * i;
      const nx = m[o + CONTACT_NORMAL], ny = m[o + CONTACT_NORMAL + 1], nz = m[o + CONTACT_NORMAL + 2];
      const len = normalLength + m[o + CONTACT_DEPTH];
      for (let k = 0; k < m[o + CONTACT_COUNT]; k++) {
        const p = o + CONTACT_POINTS + CONTACT_POINT_STRIDE * k;
        points.point(m[p], m[p + 1], m[p + 2]);
        normals.segment(m[p], m[p + 1], m[p + 2], m[p] + len * nx, m[p + 1] + len * ny, m[p + 2] + len * nz);
      }
    }
    normals.end(); points.end();

    const rl = this.lines.rays;
    rl.begin(); this.rayHits.begin();
    for (let r = 0; r < rays.count; r++) {
      const hit = rays.hitbox[r] >= 0;
      rl.color(hit ? RAY_HIT_COLOR : RAY_MISS_COLOR);
      rl.segment(rays.origin[3 * r], rays.origin[3 * r + 1], rays.origin[3 * r + 2], rays.end[3 * r], rays.end[3 * r + 1], rays.end[3 * r + 2]);
      if (hit) this.rayHits.point(rays.end[3 * r], rays.end[3 * r + 1], rays.end[3 * r + 2]);
    }
    rl.end(); this.rayHits.end();
    this.render();
  }

  render(): void {
    const canvas = this.renderer.domElement;
    const w = canvas.clientWidth, h = canvas.clientHeight;
    if (canvas.width !== Math.floor(w * this.renderer.getPixelRatio()) || canvas.height !== Math.floor(h * this.renderer.getPixelRatio())) {
      this.renderer.setSize(w, h, false);
      this.camera.aspect = w / Math.max(1, h);
      this.camera.updateProjectionMatrix();
    }
    this.renderer.render(this.scene3, this.camera);
  }
}
