/**
 * Contacts: manifolds per second for overlapping OBB pairs (random orientations and sizes,
 * pre-generated, so only the kernel is timed), capsule-OBB manifolds, and ray-OBB casts per
 * second on random rays through a field of boxes; whole mesh-pair manifolds (meshPairContact: the
 * tree query, every triangle's contact and the merge) of boxes resting on a 2,048-triangle floor
 * and on the 10,000-triangle torus knot, with active-edge filtering (the default) and without.
 * Medians of interleaved samples.
 */
import { addEntity, createWorld } from 'bitecs';
import { buildBoundingTree, type BoundingTree } from '../src/tree/build';
import { CONTACT_STRIDE } from '../src/contacts/manifold';
import { contactCapsuleObb } from '../src/contacts/capsuleBox';
import { contactObbObb } from '../src/contacts/boxBox';
import { OBB_STRIDE } from '../src/layout';
import { setMeshEdges } from '../src/contacts/meshEdges';
import { RAY_HIT_STRIDE, raycastObb } from '../src/query/raycast';
import { contactObbTriangle } from '../src/contacts/boxTriangle';
import { meshPairContact } from '../systems/meshCollider';
import { addCollider, addMeshCollider, createCollisionPipeline, setTransform } from '../systems/index';
import { triangulatedFloor } from '../scenes/floors';
import { mulberry32, quaternionToAxes, randomQuaternion } from '../scenes/random';
import { torusKnot } from '../scenes/torusKnot';
import { markdownTable, median, millions, runInterleaved, type BenchCase } from './harness';
import type { BenchReport } from './harness';

const PAIRS = 4096;
const RAYS = 4096;
/** Boxes per mesh scene: each touches the mesh. */
const MESH_BOXES = 512;

/** Median ms of `samples` calls of f. */
function medianMs(f: () => void, samples: number): number {
  const times: number[] = [];
  for (let i = 0; i < samples; i++) {
    const t0 = performance.now();
    f();
    times.push(performance.now() - t0);
  }
  return median(times);
}

/** A box pose touching a mesh: centre, quaternion and half-extents. */
interface BoxPose {
  centre: number[];
  q: number[];
  half: number[];
}

/**
 * One pipeline holding the mesh twice (one tree with active edges, a second build unfiltered) and
 * the boxes, refitted by one step, so that meshPairContact reads ready world shapes; and the
 * median time of computing the edge flags.
 */
function meshScene(positions: Float64Array, indices: Uint32Array, boxes: BoxPose[]) {
  const world = createWorld();
  const collision = createCollisionPipeline(world);
  const trees: BoundingTree[] = [buildBoundingTree(positions, indices), buildBoundingTree(positions, indices)];
  const edgeMs = medianMs(() => setMeshEdges(trees[0]), 15);
  setMeshEdges(trees[1], { filter: false });
  const meshes = trees.map((tree) => {
    const eid = addEntity(world);
    addMeshCollider(world, eid, tree, { isStatic: true });
    setTransform(world, eid, [0, 0, 0], [0, 0, 0, 1]);
    return eid;
  });
  const ids = boxes.map((b) => {
    const eid = addEntity(world);
    addCollider(world, eid, { shape: 'obb', halfExtents: b.half });
    setTransform(world, eid, b.centre, b.q);
    return eid;
  });
  collision.step(world);
  return { collision, meshes, ids, edgeMs, triangles: indices.length / 3 };
}

/** Lowest reach of a box (half-extents `half`, rotation q) along unit n. */
function reach(q: number[], half: number[], n: number[]): number {
  const axes = quaternionToAxes(q);
  let r = 0;
  for (let k = 0; k < 3; k++) r += half[k] * Math.abs(axes[3 * k] * n[0] + axes[3 * k + 1] * n[1] + axes[3 * k + 2] * n[2]);
  return r;
}

function randomObbs(rand: () => number, count: number, spread: number): Float64Array {
  const boxes = new Float64Array(count * OBB_STRIDE);
  const axes = new Array(9).fill(0);
  for (let i = 0; i < count; i++) {
    const o = i * OBB_STRIDE;
    for (let k = 0; k < 3; k++) boxes[o + k] = (2 * rand() - 1) * spread;
    quaternionToAxes(randomQuaternion(rand), axes);
    for (let k = 0; k < 9; k++) boxes[o + 3 + k] = axes[k];
    for (let k = 0; k < 3; k++) boxes[o + 12 + k] = 0.3 + rand();
  }
  return boxes;
}

export function run(): BenchReport {
  const rand = mulberry32(2024);
  // Pairs whose centres are close enough that nearly all overlap.
  const a = randomObbs(rand, PAIRS, 0);
  const b = randomObbs(rand, PAIRS, 0.6);
  const capsules = new Float64Array(PAIRS * 7);
  for (let i = 0; i < PAIRS; i++) {
    for (let k = 0; k < 6; k++) capsules[i * 7 + k] = (2 * rand() - 1) * 1.2;
    capsules[i * 7 + 6] = 0.1 + 0.4 * rand();
  }
  // Triangles around the boxes of `a` (the per-triangle step of mesh manifolds).
  const triangles = new Float64Array(PAIRS * 9);
  for (let i = 0; i < PAIRS * 9; i++) triangles[i] = (2 * rand() - 1) * 1.2;
  const field = randomObbs(rand, RAYS, 10);
  const rays = new Float64Array(RAYS * 6);
  for (let i = 0; i < RAYS; i++) {
    for (let k = 0; k < 3; k++) rays[i * 6 + k] = (2 * rand() - 1) * 15;
    // Aim near a box (within 2 units of its centre), so that a good share of the casts hit.
    for (let k = 0; k < 3; k++) rays[i * 6 + 3 + k] = field[i * OBB_STRIDE + k] + (2 * rand() - 1) * 2 - rays[i * 6 + k];
  }
  const manifold = new Float64Array(CONTACT_STRIDE);
  const hit = new Float64Array(RAY_HIT_STRIDE);
  // Boxes resting on the floor (sunk up to 5% of their size), turned about y and tilted a little.
  const floorMesh = triangulatedFloor(32, { pattern: 'random-diagonal' }, rand);
  const floorBoxes: BoxPose[] = [];
  for (let i = 0; i < MESH_BOXES; i++) {
    const half = [0.3 + 0.7 * rand(), 0.3 + 0.7 * rand(), 0.3 + 0.7 * rand()];
    const yaw = Math.PI * rand(), tilt = 0.2 * (rand() - 0.5);
    const q = [Math.sin(tilt / 2) * Math.cos(yaw / 2), Math.cos(tilt / 2) * Math.sin(yaw / 2), Math.sin(tilt / 2) * Math.sin(yaw / 2), Math.cos(tilt / 2) * Math.cos(yaw / 2)];
    const lift = reach(q, half, [0, 1, 0]) * (1 - 0.05 * rand());
    floorBoxes.push({ centre: [(rand() - 0.5) * 28, lift, (rand() - 0.5) * 28], q, half });
  }
  // Boxes on the knot: over a random triangle's centroid, along its normal, any orientation.
  const knot = torusKnot();
  const knotBoxes: BoxPose[] = [];
  for (let i = 0; i < MESH_BOXES; i++) {
    const t = Math.floor(rand() * knot.triangleCount);
    const v = [0, 1, 2].map((k) => Array.from(knot.positions.subarray(3 * knot.indices[3 * t + k], 3 * knot.indices[3 * t + k] + 3)));
    const e1 = v[1].map((x, k) => x - v[0][k]), e2 = v[2].map((x, k) => x - v[0][k]);
    const n = [e1[1] * e2[2] - e1[2] * e2[1], e1[2] * e2[0] - e1[0] * e2[2], e1[0] * e2[1] - e1[1] * e2[0]];
    const len = Math.hypot(...n);
    const q = randomQuaternion(rand);
    const half = [0.05 + 0.1 * rand(), 0.05 + 0.1 * rand(), 0.05 + 0.1 * rand()];
    const lift = reach(q, half, n.map((x) => x / len)) * (1 - 0.05 * rand());
    knotBoxes.push({ centre: [0, 1, 2].map((k) => (v[0][k] + v[1][k] + v[2][k]) / 3 + (lift * n[k]) / len), q, half });
  }
  const cases: BenchCase[] = [
    {
      name: 'contactObbObb (overlapping pairs)',
      ops: PAIRS,
      run: () => {
        let points = 0;
        for (let i = 0; i < PAIRS; i++) points += contactObbObb(manifold, 0, a, i * OBB_STRIDE, b, i * OBB_STRIDE);
        return points;
      },
    },
    {
      name: 'contactCapsuleObb',
      ops: PAIRS,
      run: () => {
        let points = 0;
        for (let i = 0; i < PAIRS; i++) points += contactCapsuleObb(manifold, 0, capsules, i * 7, a, i * OBB_STRIDE);
        return points;
      },
    },
    {
      name: 'raycastObb (random rays)',
      ops: RAYS,
      run: () => {
        let hits = 0;
        for (let i = 0; i < RAYS; i++) {
          const r = i * 6;
          if (raycastObb(hit, rays[r], rays[r + 1], rays[r + 2], rays[r + 3], rays[r + 4], rays[r + 5], 2, field, i * OBB_STRIDE)) hits++;
        }
        return hits;
      },
    },
    {
      name: 'contactObbTriangle (triangles around the box)',
      ops: PAIRS,
      run: () => {
        let points = 0;
        for (let i = 0; i < PAIRS; i++) points += contactObbTriangle(manifold, 0, a, i * OBB_STRIDE, triangles, 9 * i);
        return points;
      },
    },
  ];
  const results = runInterleaved(cases, { warmupSamples: 10, samples: 40 });
  // Mesh pairs read boxes from Float32 stores: once the shared box helpers have seen them beside
  // the Float64 pairs above, V8 makes their loads dispatch on the type (contactObbObb lost a
  // fifth of its speed), so the mesh rows run second, as the overlap benchmark's Float32 rows do.
  const scenes = [
    { name: 'floor', ...meshScene(floorMesh.positions, floorMesh.indices, floorBoxes) },
    { name: 'torus knot', ...meshScene(knot.positions, knot.indices, knotBoxes) },
  ];
  const meshCases: BenchCase[] = scenes.flatMap((scene) => scene.meshes.map((mesh, filtered) => ({
    name: `meshPairContact, box on the ${scene.name} (${scene.triangles} triangles), ${filtered === 0 ? 'active edges' : 'unfiltered'}`,
    ops: MESH_BOXES,
    run: () => {
      const c = scene.collision;
      let points = 0;
      for (let i = 0; i < MESH_BOXES; i++) points += meshPairContact(c.collider, c.transform, scene.ids[i], mesh, manifold, 0);
      return points;
    },
  })));
  // Floor manifolds whose normal is not the floor's, with and without filtering.
  const ghosts = scenes[0].meshes.map((mesh) => {
    let count = 0;
    for (let i = 0; i < MESH_BOXES; i++) {
      if (meshPairContact(scenes[0].collision.collider, scenes[0].collision.transform, scenes[0].ids[i], mesh, manifold, 0) > 0 && manifold[1] > -1 + 1e-6) count++;
    }
    return count;
  });
  const mesh = runInterleaved(meshCases, { warmupSamples: 10, samples: 40 });
  const contactsPerPair = results[0].checksum / PAIRS;
  return {
    name: 'contacts',
    markdown: [
      markdownTable(
        ['kernel', 'million per second (median)', 'median ms per sample', 'p95 ms', 'ops per sample'],
        // Mesh pairs run near 0.1 million per second: three decimals there.
        [...results, ...mesh].map((r) => [r.name, r.opsPerSecond >= 1e6 ? millions(r.opsPerSecond) : (r.opsPerSecond / 1e6).toFixed(3), r.medianMs.toFixed(3), r.p95Ms.toFixed(3), r.ops]),
      ),
      '',
      `OBB pairs: ${contactsPerPair.toFixed(2)} contact points per pair on average; ray hits: ${results[2].checksum} of ${RAYS}; box-triangle: ${(results[3].checksum / PAIRS).toFixed(2)} points per pair on average (0 where they miss).`,
      '',
      `Mesh pairs (a second interleaved run, after the kernels: their Float32 store boxes would slow the Float64 kernel rows): ${MESH_BOXES} boxes per mesh, each touching it, resting (sunk up to 5% of their reach). Points per manifold, ` +
      `floor: ${(mesh[0].checksum / MESH_BOXES).toFixed(2)} with active edges, ${(mesh[1].checksum / MESH_BOXES).toFixed(2)} unfiltered; ` +
      `knot: ${(mesh[2].checksum / MESH_BOXES).toFixed(2)} and ${(mesh[3].checksum / MESH_BOXES).toFixed(2)}. ` +
      `Floor manifolds with a normal other than the floor's: ${ghosts[0]} with active edges, ${ghosts[1]} unfiltered. ` +
      `Edge flags, computed once per tree: ${scenes.map((sc) => `${sc.edgeMs.toFixed(2)} ms for the ${sc.name}`).join(', ')}.`,
    ].join('\n'),
    data: [...results, ...mesh],
  };
}
