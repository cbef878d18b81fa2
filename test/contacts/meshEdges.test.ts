// Active edges: the flags themselves (flat, convex, concave, boundary, non-manifold, zero-area,
// split vertices, mixed winding), and their purpose: a body on a flat floor of many triangles gets
// the floor's normal and plane depth wherever it stands, exactly over internal edges and vertices
// included, while real convex edges (a ramp's crest, a block's corner) keep their edge normals.
import { addEntity, createWorld } from 'bitecs';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { quaternionToMat3 } from '../../src/rotation';
import { buildBoundingTree, type BoundingTree } from '../../src/tree/build';
import { CollideInputError } from '../../src/errors';
import { DEFAULT_FLAT_EDGE_ANGLE } from '../../src/tolerances';
import { EDGE_FLAGS_ALL_ACTIVE, EDGE_FLAGS_BACK, computeEdgeFlags, meshEdgeFlags, setMeshEdges } from '../../src/contacts/meshEdges';
import { SHAPE_STRIDE } from '../../components/collider';
import { addCollider, addMeshCollider, createCollisionPipeline, setTransform } from '../../systems/index';
import { triangulatedFloor, type FloorOptions } from '../../scenes/floors';
import { manifoldOf, type Manifold } from '../support/manifolds';
import { mulberry32 } from '../../scenes/random';

/** Flags of unindexed triangles given as vertex lists. */
function flagsOf(...triangles: number[][][]): number[] {
  const flat = Float64Array.from(triangles.flat(2));
  return Array.from(computeEdgeFlags(new Uint16Array(triangles.length), flat, triangles.length));
}
const FRONT_EDGES = 0o70, BACK_EDGES = FRONT_EDGES << EDGE_FLAGS_BACK;
/** Edge bit of edge e (0: ab, 1: bc, 2: ca) on the front or back. */
const edge = (e: number, back = false) => 1 << (3 + e + (back ? EDGE_FLAGS_BACK : 0));
const vertex = (v: number, back = false) => 1 << (v + (back ? EDGE_FLAGS_BACK : 0));

describe('computeEdgeFlags', () => {
  // Two triangles sharing the edge (0,0,0)-(0,0,1): the first in y = 0 (x <= 0, normal +y; the
  // shared edge is its ca, edge 2), the second bent down (convex) or up (concave) by `angle`
  // beyond it, wound alike (the shared edge is its ab, edge 0) or, flipped, the other way.
  const hinge = (angle: number, flipSecond = false): number[] => {
    const first = [[0, 0, 0], [-1, 0, 0.5], [0, 0, 1]];
    const far = [Math.cos(angle), -Math.sin(angle), 0.5];
    const second = flipSecond ? [[0, 0, 1], [0, 0, 0], far] : [[0, 0, 0], [0, 0, 1], far];
    return flagsOf(first, second);
  };
  const sharedFront = edge(2), sharedBack = edge(2, true);
  const boundary = (FRONT_EDGES | BACK_EDGES) & ~(edge(2) | edge(2, true));

  it('flat and nearly flat internal edges are inactive on both sides; boundary edges active', () => {
    for (const angle of [0, 0.5 * DEFAULT_FLAT_EDGE_ANGLE, -0.99 * DEFAULT_FLAT_EDGE_ANGLE]) {
      const [f, g] = hinge(angle);
      expect(f & (FRONT_EDGES | BACK_EDGES)).toBe(boundary);
      expect(g & (edge(0) | edge(0, true))).toBe(0);
      // Every vertex touches a boundary edge here.
      expect(f & 0o7).toBe(0o7);
    }
    expect(hinge(1.2 * DEFAULT_FLAT_EDGE_ANGLE)[0] & edge(2)).not.toBe(0);
  });

  it('a convex edge is active from the front, a concave one from the back, both past 90°', () => {
    const [convex, convexSecond] = hinge(0.3), [concave, concaveSecond] = hinge(-0.3);
    expect(convex & (sharedFront | sharedBack)).toBe(sharedFront);
    expect(concave & (sharedFront | sharedBack)).toBe(sharedBack);
    // The second, wound alike, sees the same bend.
    expect(convexSecond & (edge(0) | edge(0, true))).toBe(edge(0));
    expect(concaveSecond & (edge(0) | edge(0, true))).toBe(edge(0, true));
    for (const angle of [2, -2]) expect(hinge(angle)[0] & (sharedFront | sharedBack)).toBe(sharedFront | sharedBack);
  });

  it('a vertex is active when an edge at it is, of any triangle', () => {
    // A quad split along its diagonal: each triangle has two boundary edges and the flat diagonal.
    const [f] = flagsOf([[0, 0, 0], [0, 0, 1], [1, 0, 1]], [[0, 0, 0], [1, 0, 1], [1, 0, 0]]);
    expect(f & (FRONT_EDGES | 0o7)).toBe(edge(0) | edge(1) | 0o7);
    // Inside a fan of flat triangles around a vertex, the inner vertex is inactive.
    const fan = [0, 1, 2, 3, 4, 5].map((k) => {
      const p = (i: number) => [Math.cos(((i % 6) * Math.PI) / 3), 0, -Math.sin(((i % 6) * Math.PI) / 3)];
      return [[0, 0, 0], p(k), p(k + 1)];
    });
    for (const g of flagsOf(...fan)) expect(g & (FRONT_EDGES | 0o7 | (0o77 << EDGE_FLAGS_BACK))).toBe(edge(1) | vertex(1) | vertex(2) | ((edge(1) | vertex(1) | vertex(2)) << EDGE_FLAGS_BACK));
  });

  it('mixed winding: each triangle judges the edge from its own front', () => {
    const [first, second] = hinge(0.3, true);
    expect(first & (edge(2) | edge(2, true))).toBe(edge(2));
    // The second's front is the other side: the same convex edge is concave from it.
    expect(second & (edge(0) | edge(0, true))).toBe(edge(0, true));
    const [a, b] = hinge(0, true);
    expect(a & (edge(2) | edge(2, true))).toBe(0);
    expect(b & (edge(0) | edge(0, true))).toBe(0);
  });

  it('non-manifold edges are active for every triangle on them; zero-area triangles are all active and no neighbour', () => {
    const base = [[0, 0, 0], [0, 0, 1]];
    const fins = [[-1, 0, 0.5], [1, 0, 0.5], [0, 1, 0.5]].map((p) => [base[0], base[1], p]);
    for (const f of flagsOf(...fins)) expect(f & (edge(0) | edge(0, true))).toBe(edge(0) | edge(0, true));
    // A sliver on the shared edge of a flat pair changes nothing for them; it is all active.
    const pair = [[[0, 0, 0], [-1, 0, 0.5], [0, 0, 1]], [[0, 0, 1], [1, 0, 0.5], [0, 0, 0]]];
    const flags = flagsOf(...pair, [[0, 0, 0], [0, 0, 1], [0, 0, 0.5]], [[2, 0, 2], [2, 0, 2], [3, 0, 3]]);
    expect(flags[0] & (edge(2) | edge(2, true))).toBe(0);
    expect(flags[2]).toBe(EDGE_FLAGS_ALL_ACTIVE);
    expect(flags[3]).toBe(EDGE_FLAGS_ALL_ACTIVE);
  });

  it('a flat floor: only its rim is active, whether indexed, split into separate vertices or of mixed winding', () => {
    const rand = mulberry32(7);
    const n = 6;
    for (const options of [{ pattern: 'random-diagonal' }, { pattern: 'both-diagonals', splitVertices: true, flipWinding: true }] as FloorOptions[]) {
      const floor = triangulatedFloor(n, options, rand);
      const tree = buildBoundingTree(floor.positions, floor.indices);
      const flags = computeEdgeFlags(new Uint16Array(tree.triangleCount), tree.triangles, tree.triangleCount);
      for (let t = 0; t < tree.triangleCount; t++) {
        for (let e = 0; e < 3; e++) {
          const p = tree.triangles.subarray(9 * t + 3 * e, 9 * t + 3 * e + 3), q = tree.triangles.subarray(9 * t + 3 * ((e + 1) % 3), 9 * t + 3 * ((e + 1) % 3) + 3);
          const onRim = [0, 2].some((k) => Math.abs(p[k]) === n / 2 && p[k] === q[k]);
          expect((flags[t] & edge(e)) !== 0).toBe(onRim);
          expect((flags[t] & edge(e, true)) !== 0).toBe(onRim);
        }
      }
    }
  });
});

describe('setMeshEdges', () => {
  it('validates the angle, computes on first use, can switch the filter off', () => {
    const floor = triangulatedFloor(2, { pattern: 'random-diagonal' }, mulberry32(1));
    const tree = buildBoundingTree(floor.positions, floor.indices);
    expect(() => setMeshEdges(tree, { flatEdgeAngle: -0.1 })).toThrow(CollideInputError);
    expect(() => setMeshEdges(tree, { flatEdgeAngle: Number.NaN })).toThrow(/flatEdgeAngle/);
    const flags = meshEdgeFlags(tree);
    expect(meshEdgeFlags(tree)).toBe(flags);
    expect(Array.from(flags).some((f) => f !== EDGE_FLAGS_ALL_ACTIVE)).toBe(true);
    expect(Array.from(setMeshEdges(tree, { filter: false }))).toEqual(new Array(tree.triangleCount).fill(EDGE_FLAGS_ALL_ACTIVE));
  });
});

/** A pipeline with one body (id below the mesh's, so normals point from the body to the mesh) and a static mesh. */
function meshScene(tree: BoundingTree, at: number[], rotation: number[]) {
  const world = createWorld();
  const collision = createCollisionPipeline(world);
  const body = addEntity(world);
  const level = addEntity(world);
  addMeshCollider(world, level, tree, { isStatic: true });
  setTransform(world, level, at, rotation);
  return { world, collision, body, level };
}

describe('mesh manifolds on a flat floor of many triangles: the floor normal and the plane depth everywhere', () => {
  const rand = mulberry32(11);
  // Unit cells, and cells of 1/8 (a box then covers many triangles, some far smaller than it).
  const floorSpecs: [number, FloorOptions][] = [
    [8, { pattern: 'both-diagonals' }],
    [8, { pattern: 'random-diagonal', flipWinding: true }],
    [8, { pattern: 'random-diagonal', splitVertices: true }],
    [64, { pattern: 'random-diagonal', flipWinding: true, cell: 0.125 }],
  ];
  const floors = floorSpecs.map(([n, options]) => {
    const f = triangulatedFloor(n, options, rand);
    return buildBoundingTree(f.positions, f.indices);
  });
  /** Centres stay this far inside the rim (at ±4): the largest body reaches 1.4 from its centre. */
  const LIMIT = 2;
  // The floor entity's pose: tilted and moved, so the normal is no axis.
  const FLOOR_AT = [3, -1, 2], FLOOR_Q = [Math.sin(0.15), 0, Math.sin(0.1), 1];
  const qn = Math.hypot(...FLOOR_Q);
  for (let k = 0; k < 4; k++) FLOOR_Q[k] /= qn;

  type Kind = 'sphere' | 'obb' | 'capsule';
  /** A floor coordinate in [-LIMIT, LIMIT]: anywhere, or exactly on a grid line (vertices, edges) or a cell's middle. */
  const coordinate = fc.record({ u: fc.double({ min: -1, max: 1, noNaN: true }), snap: fc.constantFrom('none', 'line', 'middle') });
  const unitQuaternion = fc.tuple(fc.double({ min: -1, max: 1, noNaN: true }), fc.double({ min: -1, max: 1, noNaN: true }), fc.double({ min: -1, max: 1, noNaN: true }), fc.double({ min: 0.1, max: 1, noNaN: true }))
    .map((q) => q.map((x) => x / Math.hypot(...q)));
  const placement = fc.record({
    floor: fc.integer({ min: 0, max: floors.length - 1 }),
    x: coordinate, z: coordinate,
    diagonal: fc.boolean(), // move z onto the cell diagonal through x (an internal edge of some triangulations)
    size: fc.double({ min: 0.2, max: 1, noNaN: true }),
    // Times the reach (the body's lowest point below its centre): the centre stays above the floor,
    // where it is pushed up (triangles are two-sided); a steep capsule's segment crosses the floor.
    depth: fc.double({ min: 1e-4, max: 0.6, noNaN: true }),
    rotation: fc.oneof(unitQuaternion, fc.constant([0, 0, 0, 1]), fc.constant([0, Math.sin(Math.PI / 8), 0, Math.cos(Math.PI / 8)])).map((q) => [...q]),
  });
  type Coordinate = { u: number; snap: string };
  const onGrid = (c: Coordinate, cell: number) => {
    const v = c.u * LIMIT;
    return c.snap === 'none' ? v : c.snap === 'line' ? Math.round(v / cell) * cell : (Math.floor(v / cell) + 0.5) * cell;
  };

  type Placement = { floor: number; x: Coordinate; z: Coordinate; diagonal: boolean; size: number; depth: number; rotation: number[] };

  /** Product of unit quaternions a · b. */
  const multiply = (a: number[], b: number[]) => [
    a[3] * b[0] + a[0] * b[3] + a[1] * b[2] - a[2] * b[1],
    a[3] * b[1] - a[0] * b[2] + a[1] * b[3] + a[2] * b[0],
    a[3] * b[2] + a[0] * b[1] - a[1] * b[0] + a[2] * b[3],
    a[3] * b[3] - a[0] * b[0] - a[1] * b[1] - a[2] * b[2],
  ];

  /**
   * Places the body (in floor coordinates: centre over (x, z), sunk by `depth` of its reach) and
   * returns its manifold with the floor and the reference: the floor's normal and the body's
   * penetration of the floor plane, both from the stored (Float32) shapes and transform.
   */
  function place(kind: Kind, p: Placement, scenes: ReturnType<typeof meshScene>[]) {
    const { world, collision, body, level } = scenes[p.floor];
    const cell = floorSpecs[p.floor][1].cell ?? 1;
    const x = onGrid(p.x, cell), zc = onGrid(p.z, cell);
    const z = p.diagonal ? Math.floor(zc / cell) * cell + (x - Math.floor(x / cell) * cell) : zc;
    const local = quaternionToMat3(new Float64Array(9), 0, p.rotation) as Float64Array;
    // Lowest point of the body below its centre, along the floor's y.
    const reach = kind === 'sphere' ? p.size
      : kind === 'obb' ? p.size * (Math.abs(local[1]) + 0.7 * Math.abs(local[4]) + 0.5 * Math.abs(local[7]))
        : 0.4 * p.size + p.size * Math.abs(local[4]);
    const floorAxes = quaternionToMat3(new Float64Array(9), 0, FLOOR_Q) as Float64Array;
    const h = reach * (1 - p.depth);
    const centre = [0, 1, 2].map((i) => FLOOR_AT[i] + floorAxes[i] * x + floorAxes[3 + i] * h + floorAxes[6 + i] * z);
    setTransform(world, body, centre, multiply(FLOOR_Q, p.rotation));
    collision.step(world);
    const t = collision.transform, w = collision.collider.world, o = SHAPE_STRIDE * body;
    const stored = quaternionToMat3(new Float64Array(9), 0, t.rotation.subarray(4 * level, 4 * level + 4)) as Float64Array;
    const up = [stored[3], stored[4], stored[5]];
    const height = (x: number, y: number, zz: number) => up[0] * (x - t.position[3 * level]) + up[1] * (y - t.position[3 * level + 1]) + up[2] * (zz - t.position[3 * level + 2]);
    // Sphere and capsule points lie under the centre or the segment (along the floor normal):
    // horizontal offset from the centre or the segment's vertical plane.
    const a = [w[o], w[o + 1], w[o + 2]], d = kind === 'capsule' ? [w[o + 3] - a[0], w[o + 4] - a[1], w[o + 5] - a[2]] : [0, 0, 0];
    const horizontal = (v: number[]) => {
      const vu = v[0] * up[0] + v[1] * up[1] + v[2] * up[2];
      return v.map((x, k) => x - vu * up[k]);
    };
    const dh = horizontal(d), dl = Math.hypot(...dh);
    const offset = (q: number[]) => {
      const v = horizontal(q.map((x, k) => x - a[k]));
      const along = dl > 1e-9 ? (v[0] * dh[0] + v[1] * dh[1] + v[2] * dh[2]) / dl : 0;
      return Math.sqrt(Math.max(0, v[0] ** 2 + v[1] ** 2 + v[2] ** 2 - along * along));
    };
    let expected: number;
    if (kind === 'sphere') expected = w[o + 3] - height(w[o], w[o + 1], w[o + 2]);
    else if (kind === 'capsule') expected = w[o + 6] - Math.min(height(w[o], w[o + 1], w[o + 2]), height(w[o + 3], w[o + 4], w[o + 5]));
    else {
      let support = 0;
      for (let k = 0; k < 3; k++) support += w[o + 12 + k] * Math.abs(up[0] * w[o + 3 + 3 * k] + up[1] * w[o + 4 + 3 * k] + up[2] * w[o + 5 + 3 * k]);
      expected = support - height(w[o], w[o + 1], w[o + 2]);
    }
    return { m: manifoldOf(collision, body, level), up, expected, offset };
  }

  /** Adds the body's collider at size s (colliders are resized by re-adding). */
  function sized(kind: Kind, s: ReturnType<typeof meshScene>, size: number) {
    if (kind === 'sphere') addCollider(s.world, s.body, { shape: 'sphere', radius: size });
    else if (kind === 'obb') addCollider(s.world, s.body, { shape: 'obb', halfExtents: [size, 0.7 * size, 0.5 * size] });
    else addCollider(s.world, s.body, { shape: 'capsule', p0: [0, -size, 0], p1: [0, size, 0], radius: 0.4 * size });
  }

  /**
   * The property: one manifold, the floor's normal within 1e-6, the plane depth within 1e-6; a
   * sphere's one point under its centre, a capsule's under its segment (Float32-stored points).
   */
  function floorProperty(kind: Kind, trees: BoundingTree[]) {
    const all = trees.map((tree) => meshScene(tree, FLOOR_AT, FLOOR_Q));
    return fc.property(placement, (p) => {
      sized(kind, all[p.floor], p.size);
      const { m, up, expected, offset } = place(kind, p, all);
      expect(m).toBeDefined();
      const { normal, depth, points } = m as Manifold;
      for (let k = 0; k < 3; k++) expect(Math.abs(normal[k] + up[k])).toBeLessThan(1e-6);
      expect(Math.abs(depth - expected)).toBeLessThan(1e-6);
      if (kind === 'sphere') expect(points.length).toBe(1);
      if (kind !== 'obb') for (const q of points) expect(offset(q)).toBeLessThan(1e-5);
    });
  }

  for (const kind of ['sphere', 'obb', 'capsule'] as Kind[]) {
    it(`${kind}: resting or sunk anywhere, exactly over internal edges and vertices included`, () => {
      fc.assert(floorProperty(kind, floors), { numRuns: 300, seed: 20240 });
    });
  }

  it('without the filter the same property fails: ghost normals or depths (so the tests above have teeth)', () => {
    const unfiltered = floors.map((tree) => {
      // A copy of the tree, so the shared one keeps its filter.
      const copy = { ...tree };
      setMeshEdges(copy, { filter: false });
      return copy;
    });
    for (const kind of ['sphere', 'obb', 'capsule'] as Kind[]) {
      expect(() => fc.assert(floorProperty(kind, unfiltered), { numRuns: 300, seed: 20240 })).toThrow();
    }
  });
});

/** Grid over x in [x0, x0 + nx], z in [-nz/2, nz/2] (unit cells, random diagonals) lifted to y = profile(x), normals up. */
function heightfield(x0: number, nx: number, nz: number, profile: (x: number) => number, rand: () => number): BoundingTree {
  const positions: number[] = [], indices: number[] = [];
  for (let i = 0; i <= nx; i++) for (let j = 0; j <= nz; j++) positions.push(x0 + i, profile(x0 + i), j - nz / 2);
  const v = (i: number, j: number) => i * (nz + 1) + j;
  for (let i = 0; i < nx; i++) {
    for (let j = 0; j < nz; j++) {
      const a = v(i, j), b = v(i, j + 1), c = v(i + 1, j + 1), d = v(i + 1, j);
      indices.push(...(rand() < 0.5 ? [a, b, c, a, c, d] : [a, b, d, b, c, d]));
    }
  }
  return buildBoundingTree(Float64Array.from(positions), Uint32Array.from(indices));
}

/** The cube [-1, 1]³, each face a 2 × 2 grid of quads (internal flat edges), normals out. */
function levelBlock(): BoundingTree {
  const positions: number[] = [], indices: number[] = [];
  for (let axis = 0; axis < 3; axis++) {
    for (const side of [-1, 1]) {
      const u = (axis + 1) % 3, w = (axis + 2) % 3;
      const base = positions.length / 3;
      for (let i = 0; i <= 2; i++) {
        for (let j = 0; j <= 2; j++) {
          const p = [0, 0, 0];
          p[axis] = side; p[u] = i - 1; p[w] = j - 1;
          positions.push(...p);
        }
      }
      for (let i = 0; i < 2; i++) {
        for (let j = 0; j < 2; j++) {
          const a = base + 3 * i + j, b = a + 1, c = a + 4, d = a + 3;
          // (u, w, axis) is right-handed: a → d → c runs counter-clockwise seen from +axis.
          indices.push(...(side > 0 ? [a, d, c, a, c, b] : [a, c, d, a, b, c]));
        }
      }
    }
  }
  return buildBoundingTree(Float64Array.from(positions), Uint32Array.from(indices));
}

describe('mesh manifolds where the level geometry really bends', () => {
  const slope = (20 * Math.PI) / 180;
  // Plateau, a 20° ramp down from x = 0 (convex crest) to x = 2 (concave valley), then flat again.
  const ramp = heightfield(-3, 8, 6, (x) => -Math.tan(slope) * Math.min(2, Math.max(0, x)), mulberry32(5));
  const plateau = [0, 1, 0], slopeUp = [Math.sin(slope), Math.cos(slope), 0];
  const bisector = [Math.sin(slope / 2), Math.cos(slope / 2), 0];
  const expectNormal = (m: Manifold | undefined, n: number[]) => {
    expect(m).toBeDefined();
    for (let k = 0; k < 3; k++) expect(Math.abs((m as Manifold).normal[k] - n[k])).toBeLessThan(1e-6);
  };

  it('a sphere and a capsule on the ramp\'s convex crest get the crest\'s normal; on either side, the faces\'', () => {
    const s = meshScene(ramp, [0, 0, 0], [0, 0, 0, 1]);
    const r = 0.5, depth = 0.01;
    addCollider(s.world, s.body, { shape: 'sphere', radius: r });
    setTransform(s.world, s.body, bisector.map((b) => (r - depth) * b), [0, 0, 0, 1]);
    s.collision.step(s.world);
    let m = manifoldOf(s.collision, s.body, s.level);
    expectNormal(m, bisector.map((b) => -b));
    expect(Math.abs((m as Manifold).depth - depth)).toBeLessThan(1e-6);
    // Over the plateau, then over the ramp: their faces.
    setTransform(s.world, s.body, [-0.3, r - depth, 0.2], [0, 0, 0, 1]);
    s.collision.step(s.world);
    expectNormal(manifoldOf(s.collision, s.body, s.level), plateau.map((b) => -b));
    setTransform(s.world, s.body, [1, -Math.tan(slope), 0.2].map((c, k) => c + (r - depth) * slopeUp[k]), [0, 0, 0, 1]);
    s.collision.step(s.world);
    expectNormal(manifoldOf(s.collision, s.body, s.level), slopeUp.map((b) => -b));
    // A capsule lying along the crest (z).
    addCollider(s.world, s.body, { shape: 'capsule', p0: [0, 0, -1], p1: [0, 0, 1], radius: r });
    setTransform(s.world, s.body, bisector.map((b) => (r - depth) * b), [0, 0, 0, 1]);
    s.collision.step(s.world);
    m = manifoldOf(s.collision, s.body, s.level);
    expectNormal(m, bisector.map((b) => -b));
    expect(Math.abs((m as Manifold).depth - depth)).toBeLessThan(1e-6);
  });

  it('bodies in the concave valley get one of its faces\' normals, never one of its edges\'', () => {
    const s = meshScene(ramp, [0, 0, 0], [0, 0, 0, 1]);
    const valley = [2, -2 * Math.tan(slope), 0];
    const floorUp = [0, 1, 0];
    const unit = fc.tuple(fc.double({ min: -1, max: 1, noNaN: true }), fc.double({ min: -1, max: 1, noNaN: true }), fc.double({ min: -1, max: 1, noNaN: true }), fc.double({ min: 0.1, max: 1, noNaN: true }))
      .map((q) => q.map((x) => x / Math.hypot(...q)));
    fc.assert(fc.property(
      fc.constantFrom('sphere', 'obb', 'capsule'), fc.double({ min: -0.5, max: 0.5, noNaN: true }), fc.double({ min: 0.2, max: 0.6, noNaN: true }),
      fc.double({ min: 0.3, max: 1, noNaN: true }), unit,
      (kind, dx, size, lift, q) => {
        if (kind === 'sphere') addCollider(s.world, s.body, { shape: 'sphere', radius: size });
        else if (kind === 'obb') addCollider(s.world, s.body, { shape: 'obb', halfExtents: [size, 0.7 * size, 0.5 * size] });
        else addCollider(s.world, s.body, { shape: 'capsule', p0: [0, -size, 0], p1: [0, size, 0], radius: 0.4 * size });
        // Over the valley line, its centre above the surface under it (so above both planes).
        setTransform(s.world, s.body, [valley[0] + dx, valley[1] + Math.max(0, -dx) * Math.tan(slope) + lift * size, 0.3], q);
        s.collision.step(s.world);
        const m = manifoldOf(s.collision, s.body, s.level);
        if (!m) return;
        const isFace = [floorUp, slopeUp].some((n) => Math.hypot(...n.map((x, k) => x + m.normal[k])) < 1e-6);
        expect(isFace).toBe(true);
      },
    ), { numRuns: 300, seed: 7 });
  });

  it('a block\'s convex edge and corner keep their normals; its faces\' inner edges do not', () => {
    const s = meshScene(levelBlock(), [0, 0, 0], [0, 0, 0, 1]);
    const r = 0.4, depth = 0.02, c = Math.SQRT1_2;
    // A sphere off the corner (1, 1, 1), along its diagonal.
    addCollider(s.world, s.body, { shape: 'sphere', radius: r });
    setTransform(s.world, s.body, [1, 1, 1].map((x) => x + (r - depth) / Math.sqrt(3)), [0, 0, 0, 1]);
    s.collision.step(s.world);
    let m = manifoldOf(s.collision, s.body, s.level);
    expectNormal(m, [-1, -1, -1].map((x) => x / Math.sqrt(3)));
    expect(Math.abs((m as Manifold).depth - depth)).toBeLessThan(1e-6);
    // Exactly over the top face's middle vertex (0, 1, 0) and its inner edge x = 0: the face.
    for (const at of [[0, 1 + r - depth, 0], [0, 1 + r - depth, 0.37]]) {
      setTransform(s.world, s.body, at, [0, 0, 0, 1]);
      s.collision.step(s.world);
      expectNormal(manifoldOf(s.collision, s.body, s.level), [0, -1, 0]);
    }
    // A box turned 45° about z leaning on the top edge (x = y = 1) with a face: that face's normal.
    const half = 0.5;
    addCollider(s.world, s.body, { shape: 'obb', halfExtents: [half, half, half] });
    setTransform(s.world, s.body, [1 + (half - depth) * c, 1 + (half - depth) * c, 0.2], [0, 0, Math.sin(Math.PI / 8), Math.cos(Math.PI / 8)]);
    s.collision.step(s.world);
    m = manifoldOf(s.collision, s.body, s.level);
    expectNormal(m, [-c, -c, 0]);
    expect(Math.abs((m as Manifold).depth - depth)).toBeLessThan(1e-6);
  });
});
