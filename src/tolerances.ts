/**
 * Every tolerance of the library, named once, with its unit and the reason for its value. Kernels
 * import them from here; none defines a threshold of its own. Units: "relative" tolerances are
 * fractions of a size stated in each comment (a set's extent, a box's half-extents, a coordinate's
 * magnitude); sines and cosines are of the angle named; the rest are in user units.
 *
 * The exactness bands these give each kernel are collected in docs/precision.md.
 */

/**
 * Rounding carried by coordinates and by differences of coordinates, in units of the largest
 * |coordinate| involved: far from the origin the inputs themselves carry that much error, whatever
 * the extent of the set, so size-relative tolerances add this much of the coordinates' magnitude.
 * 16 ulps: a few roundings of a dot product or a projection, with room to spare.
 */
export const ROUNDING_ALLOWANCE = 16 * Number.EPSILON;

// ---- Number formats and coordinate range ----

/** Largest relative spacing of Float32 values (2^-23): one step of it moves any value by at least one Float32 ulp. */
export const FLOAT32_RELATIVE_STEP = 2 ** -23;

/**
 * A rotation read from the Float32 transform store whose squared length is within this of 1 is
 * used as it is (a unit quaternion rounded to Float32 lands within a few steps); farther, it is
 * normalised in doubles first, so boxes stay rigid whatever was written into the store.
 */
export const STORED_ROTATION_UNIT_SLACK = 16 * FLOAT32_RELATIVE_STEP;

/**
 * Largest magnitude accepted for a coordinate, extent, radius or scale at the public API boundary
 * (user units). Stores are Float32 (largest finite value about 3.4e38): with every input within
 * ±1e18, a derived world volume (|position| + scale × (|centre| + extent): sums of products of at
 * most two inputs, below 1e37) stays finite, and squared distances computed in doubles never
 * overflow. Float32 spacing at 1e18 is already about 1e11, so no meaningful input is refused.
 */
export const MAX_COORDINATE = 1e18;

/**
 * Below this largest component, a motion's squared length (a ray direction's, a cast's
 * displacement's) loses its digits to underflow: the ball entry (ray against a sphere or a
 * capsule, sphere casts) then solves with the motion scaled up by powers of two, exactly, and
 * scales its time back, so a tiny direction hits as a unit one does. 2^-500 squared is still
 * far above the smallest normal double.
 */
export const TINY_MOTION = 2 ** -500;
/** The power of two a tiny motion is scaled by, step by step, until it reaches TINY_MOTION. */
export const TINY_MOTION_SCALE = 2 ** 100;

// ---- Separating-axis tests ----

/**
 * How far stored box axes may be from orthonormal: |Ai·Aj − δij| ≤ this, for every pair of one
 * box's axes. Float32 rounding of an orthonormal frame stays below 2.5e-7. Every axis test below
 * in src/query/sat.ts
 * adds this fraction of the two boxes' summed half-extents, scaled by the length of the tested
 * axis, to cover that and all double rounding; so the test never separates boxes that touch, and
 * its false-overlap band, in true distance along any axis, is at most SAT_FALSE_OVERLAP_BAND.
 */
export const SAT_AXIS_SLACK = 1e-6;

/**
 * Bound on the false-overlap band of every box-box test here, as a fraction of the sum of the two
 * boxes' six half-extents: boxes reported overlapping are never farther apart than this, along
 * any axis, edge-cross axes of nearly parallel edges included. (Face axes: 1× SAT_AXIS_SLACK;
 * edge axes: √2× it, since the slack is scaled by the cross product's length; the early overlap
 * answer: about 2× it; 3× leaves room for rounding.)
 */
export const SAT_FALSE_OVERLAP_BAND = 3 * SAT_AXIS_SLACK;

// ---- Bounding volumes and fits ----

/**
 * Welzl treats a point as inside the current sphere when it lies within this fraction of the set's
 * extent beyond the surface. Without it, duplicates and co-spherical points would be "outside" by
 * rounding and force spurious, ill-conditioned support sets.
 */
export const WELZL_RELATIVE_TOLERANCE = 1e-10;

/**
 * A support set whose squared sine (triangle) or normalised volume (tetrahedron) falls below this is
 * treated as collinear / coplanar: its circumsphere would be dominated by rounding, so the current
 * sphere is grown instead (in exact arithmetic such a set only arises when the new point already
 * lies on the sphere).
 */
export const WELZL_DEGENERATE_SUPPORT = 1e-20;

/**
 * Two dot products closer than this fraction of |d|₁ · (largest |coordinate| of the two vertices)
 * count as tied: the rounding of dot(p, d) scales with both, so exactly coplanar vertices of a
 * face, even far from the origin, stay on one plateau.
 */
export const EXTREME_VERTEX_RELATIVE_TOLERANCE = 1e-12;

/**
 * A box whose thinnest side is below this fraction of its largest counts as flat: its volume is
 * rounding noise, so the refinement compares such boxes by surface area instead.
 */
export const OBB_FLAT_RELATIVE_TOLERANCE = 1e-9;

/**
 * Triangle heights and edge lengths below this fraction of the largest extremal-pair distance
 * count as zero: such triangles and edges give no reliable direction and are skipped.
 */
export const DITO_RELATIVE_TOLERANCE = 1e-9;

/**
 * Points closer than this fraction of the set's largest bounding-box side to a hull face count as
 * on it: they are not made hull vertices, so flat facets and duplicates do not create slivers.
 */
export const HULL_RELATIVE_TOLERANCE = 1e-10;

/**
 * The closed form answers only when both eigenvalue gaps exceed this fraction of the spectral
 * norm. Its eigenvalue error is about ε‖A‖·(spread / gap) and its vector error that over the gap,
 * so at 1e-3 the vectors are good to ~1e-10 and the Rayleigh quotients taken from them to ~1e-16.
 */
export const EIGEN_CLOSED_FORM_MIN_GAP = 1e-3;

/**
 * Jacobi sweeps stop once the off-diagonal norm falls below this fraction of the matrix norm:
 * beyond that the rotations only move rounding noise. Jacobi converges quadratically, so this is
 * reached in a handful of sweeps.
 */
export const EIGEN_OFF_DIAGONAL_TOLERANCE = Number.EPSILON;

// ---- Closest points, triangles, rays and time of impact ----

/**
 * A triangle whose width (twice its area over its longest edge) is below this fraction of its
 * longest edge is treated as zero-area, i.e. as that longest edge. Near this width the plane of
 * the triangle is known only to about ulp / ratio, so the two errors (flattening vs a noisy
 * plane) balance near sqrt(machine epsilon).
 */
export const ZERO_AREA_TRIANGLE_RATIO = 1e-8;

/**
 * A segment shorter than this fraction of the sizes involved (both lengths and the gap between
 * the segments) is handled as a point: its direction is rounding noise, and treating it as a
 * point moves the answer by less than its length.
 */
export const POINT_SEGMENT_RATIO = 1e-12;

/**
 * Two segments whose directions make an angle with squared sine below this are handled as
 * parallel. Below it the line-line formula's rounding error (about ulp / sin) exceeds the error of
 * the parallel fallback (about sin). Either way the pair returned lies on the segments, so the
 * distance can only come out long: by at most about sin × the longer segment's length, i.e.
 * √(this) ≈ 3.2e-8 of it at the switch (measured: under 5e-8 of it, angles 1e-10..1e-1 rad).
 */
export const SEGMENTS_PARALLEL_SINE_SQUARED = 1e-15;

/**
 * Distances below this fraction of the larger triangle's longest edge count as zero: vertices
 * that close to a plane are on it, points that close to an edge touch it. Keeps touching
 * configurations (shared vertices and edges) intersecting despite rounding. So the tests report
 * touching only triangles within about this fraction of the longest edge (in true distance). No
 * edge-cross axes are built, so nearly parallel edges widen nothing: triangles whose closest
 * features are edges 1e-9..1e-1 rad apart are never reported apart when they touch, nor touching
 * when farther than this (test/kernelBands.test.ts).
 */
export const TRI_TRI_TOUCH_TOLERANCE = 1e-12;

/**
 * A triangle whose edges make an angle with sine below this is treated as zero-area: its plane
 * (and so its normal) is numerical noise. Relative, so it holds at any scale.
 */
export const DEGENERATE_TRIANGLE_SINE = 1e-12;

/**
 * Separating-axis margin, relative to the sizes involved (centre distance, displacement and the
 * half-extents): an axis separates only by more than this, so rounding can never turn a touch
 * into a miss. It makes the box tests conservative by about 1e-10 of the scene's scale.
 */
export const TOI_SEPARATION_MARGIN = 1e-10;

/**
 * Edge-edge axes (cross products of unit box axes) shorter than this are skipped: the edges are
 * parallel and their face axes already decide. Skipping only ever reports more contact.
 */
export const TOI_PARALLEL_SINE = 1e-9;

/**
 * Swept contact (src/query/sweep.ts): two moving shapes count as touching once their separation
 * falls below this fraction of their sizes (the two boxes' half-diagonals plus the capsule
 * radius). Conservative advancement converges on contact only asymptotically, so it stops there:
 * 1 mm for a 1 m sword against a limb, far below what a melee hit can tell apart, and few
 * steps even for a blade grazing a box.
 */
export const SWEEP_CONTACT_TOLERANCE = 1e-3;

/**
 * Conservative advancement steps after which a sweep stops and reports contact at the time
 * reached (never later than the true contact): only motions that stay within a few
 * SWEEP_CONTACT_TOLERANCE of touching over a long stretch get there (measured in the tests: none
 * of the random and adversarial motions).
 */
export const SWEEP_MAX_STEPS = 1000;

/**
 * A capsule's two directions closer than this to opposite (1 + cos below it) turn half a circle
 * about a perpendicular chosen from the first frame: the shortest arc between them is undefined,
 * and its closed form divides by 1 + cos.
 */
export const SWEEP_ANTIPARALLEL_GAP = 1e-12;

/**
 * Box axes handed to a sweep must be unit and orthogonal to within this (|ui·uj − δij|): a
 * Float32 store's frames are within 1e-6; a frame off by more is not a rotation, and the motion
 * between two of them (a quaternion slerp) would not be defined.
 */
export const SWEEP_AXES_ORTHONORMAL = 1e-4;

/**
 * Shape casts of boxes report as contact point the moving box's supporting feature (its point
 * farthest along −normal, clamped onto the target): a box axis whose cosine with the normal is
 * below this counts as perpendicular to it, so a face or edge lying on the target gives the
 * feature's centre, not whichever corner rounding favours. Picks a point only, never whether or
 * when the shapes touch.
 */
export const SHAPE_CAST_FEATURE_COSINE = 1e-6;

// ---- Contact manifolds ----

/**
 * Edge-edge axes whose length (the sine of the edges' angle) is below this are skipped: the edges
 * are parallel, the face axes cover that direction, and the depth error of skipping is at most
 * about this fraction of the box sizes. Above it the axis is built as in src/query/sat.ts, exact for
 * the stored axes however small the sine, so the contact's band matches the SAT's.
 */
export const EDGE_AXIS_MIN_SINE = 1e-9;

/**
 * Hysteresis between candidate axes, so that contacts do not flicker between frames: an edge
 * axis replaces the best face axis, and a face of B replaces the best face of A, only when its
 * depth is smaller by more than this fraction of the incumbent's depth...
 */
export const AXIS_PREFERENCE_DEPTH = 0.02;
/** ...plus this fraction of the shapes' size (which absorbs rounding when resting, at depth ~ 0). */
export const AXIS_PREFERENCE_SIZE = 1e-6;

/**
 * Clipped points up to this fraction of the box sizes above the reference face still count as
 * touching: resting boxes sit at depth ~ 0, where rounding alone would drop their points.
 */
export const CONTACT_SLACK = 1e-9;

/**
 * A segment whose direction makes an angle with sine below this with a face (capsule-box) or with
 * another segment (capsule-capsule) is treated as parallel to it and gets two contact points, the
 * ends of the overlap, so that a capsule lying on a box or on another capsule rests stably. It
 * only picks the number of points, never whether the shapes touch: no band of its own (that is
 * closestPtSegmentSegment's, see src/query/closestPoints.ts).
 */
export const PARALLEL_SEGMENT_SINE = 1e-3;

/**
 * A sphere or capsule contact moved off an inactive feature keeps its triangle only when the point
 * measured lies over the triangle, up to this fraction of the magnitudes involved (coordinates,
 * radius, edge): exactly over a shared edge, rounding may put it just outside both triangles.
 */
export const OVER_FACE_SLACK = 1e-7;

/**
 * `contactObbTriangle` separates only past a band of SAT_FALSE_OVERLAP_BAND × (h0 + h1 + h2) plus
 * this many units of the magnitudes involved (the largest |coordinate| of the triangle in the box
 * frame plus the three half-extents), and keeps the contact at depth 0 inside it. The mesh tree's
 * leaf test (obbTriangleOverlap, src/tree/overlapVolume.ts) reports triangles up to √3 × (SAT_AXIS_SLACK ×
 * (h0 + h1 + h2) + ROUNDING_ALLOWANCE × those magnitudes) away, measuring the same axes from the
 * same box-frame vertices, but unnormalised and from one vertex (a few ulps of those magnitudes
 * apart from this test's numbers). The band covers both, so a manifold comes out wherever the
 * tree reports the triangle: 4 × ROUNDING_ALLOWANCE (64 ulps) ≥ √3 × ROUNDING_ALLOWANCE plus a
 * normalisation and two projections, and SAT_FALSE_OVERLAP_BAND = 3 × SAT_AXIS_SLACK ≥ √3 × it.
 */
export const BOX_TRIANGLE_ROUNDING = 4 * ROUNDING_ALLOWANCE;

/**
 * Default bend (radians, 4°) up to which an internal edge is flat. Below the manifold merge
 * angle (systems/meshCollider.ts, about 5.7°), so the face normals that replace flat edges merge.
 */
export const DEFAULT_FLAT_EDGE_ANGLE = (4 * Math.PI) / 180;

/**
 * Triangle contacts whose normal is within this cosine (about 5.7 degrees, above the 4° flat-edge
 * default of src/contacts/meshEdges.ts) of the deepest one's add their points to the pair's manifold:
 * neighbours on a flat or gently curved surface share the load; a contact across a crease (a wall
 * met at the same time as the floor) is left out, since one manifold has one normal.
 */
export const MESH_CONTACT_NORMAL_COS = 0.995;

/**
 * Points from different triangles closer than this fraction of the mesh's scale are one point
 * (the deeper kept): a body on an edge or vertex shared by triangles meets each of them there,
 * at places that differ by the Float32 rounding of the stored shapes (about 6e-8 relative).
 */
export const MESH_POINT_MERGE = 1e-6;

// ---- Bounding trees and meshes ----

/**
 * Volume tests are widened by this fraction of the magnitudes involved (mesh coordinates, pose
 * translation), far above the rounding of the relative transforms and of the touching tolerance
 * of the triangle tests, so rounding never culls a touching pair. Culling stays tight: 1e-9.
 */
export const TREE_SLACK_RELATIVE = 1e-9;

/**
 * Float32 steps by which a mesh's box is widened. The narrow phase tests the tree itself, whose
 * outermost vertices lie on the root box's faces; the box as stored (local and world, centre and
 * axes each rounded to Float32) can fall a few ulps inside them, and the broad phase must not
 * cull a graze there.
 */
export const MESH_BOX_ROUNDING_STEPS = 8;

// ---- Broad phase ----

/**
 * Relative slack of the x window of cross-level scans: covers the Float32 rounding of the stored
 * lower-x keys (2^-23 relative) with room to spare.
 */
export const HASH_WINDOW_SLACK = 2 ** -20;

/**
 * Slack of the walk along a ray or a cast through the broad phase (systems/legWalk.ts), as a
 * fraction of the walk's scale: its extent in t plus its coordinates' largest magnitude (plus one
 * user unit) over the motion's length. A candidate is tested exactly unless its box is entered more
 * than this after the best hit (a box's entry and its shape's exact time are computed apart: a
 * shape touching its box, or a grazing ray's ill-conditioned root, can put the exact time a few
 * ulps, or up to the square root of an ulp, before the entry); and `raycastColliders` widens the
 * bounds of every collider's box by this fraction of their size and magnitude before clipping a
 * ray to them. It only adds exact tests, never a hit.
 */
export const WALK_SLACK_RELATIVE = 1e-6;

// ---- Characters ----

/**
 * Two mapped extent vectors count as orthogonal when (a_i·a_j)² is below this fraction of
 * |a_i|²·|a_j|² (cosine below 1e-9): rounding leaves ~1e-16 for rigid and uniformly scaled
 * bones, while a shear worth a conservative box is far above.
 */
export const HITBOX_ORTHOGONAL_AXES_RELATIVE = 1e-18;

/**
 * A world axis whose squared length after removing the first axis is below this fraction of its
 * squared length is parallel to it (a sheared or zero-scaled bone): the frame then falls back to
 * the world axes, so the rounding of a near-zero vector never becomes an axis.
 */
export const HITBOX_PARALLEL_AXES_RELATIVE = 1e-12;

/**
 * Cluster AABBs grow per axis by this fraction of (largest coordinate + size) and bounding radii
 * by this fraction of themselves: they are computed in doubles from the extent vectors, while
 * rays and the narrow phase read the stored Float32 box (centre, axes and half-extents each
 * rounded, which moves a corner by at most ~2 Float32 steps of that scale), and a ray grazing a
 * box corner must never be filtered out by a rounding. Eight steps also cover the rounding of the
 * bound itself when stored, so no explicit outward rounding is needed (it cost 15% of the update).
 */
export const HITBOX_ROUNDING_MARGIN_RELATIVE = 8 * FLOAT32_RELATIVE_STEP;

/** Below this |cos| gap from 1, slerp's sin(angle) is too small to divide by: interpolate linearly and renormalise. */
export const SLERP_LINEAR_GAP = 1e-6;

/**
 * The character ray grid walks cells while a hit found so far could still tie with a character
 * first met in a later cell; boundary parameters are summed step by step, so it keeps walking
 * within this fraction of the ray's extent in t and of the coordinates' magnitude over the
 * direction's length: far above their rounding, far below any gap that matters.
 */
export const RAY_GRID_BOUNDARY_SLACK = 1e-9;

/**
 * glTF root joints must sit under one placement: two parents' world matrices count as the same
 * when every entry agrees to this fraction of (1 + |entry|), far above the rounding of the
 * matrix products that build them and far below any real difference of placement.
 */
export const ROOT_PLACEMENT_TOLERANCE = 1e-9;
