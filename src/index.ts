/**
 * bitecs-collide kernels: pure geometry over typed arrays, usable without bitecs. The ECS
 * components and systems build on these.
 */
export * from './layout';
export { CollideInputError } from './errors';
export {
  obbFromAxes, obbVolume, obbSurfaceArea, obbContainsPoint, obbTransform, obbTransformCentered, obbCorners, interpolateObb,
} from './volumes/obb';
export {
  sphereFromAabb, ritterSphere, welzlSphere, sphereOverlap, sphereTransform, sphereContainsPoint,
} from './volumes/sphere';

export {
  AABB_MIN_WIDTH_STRIDE, AABB_CENTER_RADIUS_STRIDE, aabbMinMaxToMinWidth, aabbMinWidthToMinMax,
  aabbMinMaxToCenterRadius, aabbCenterRadiusToMinMax, aabbMinWidthToCenterRadius, aabbCenterRadiusToMinWidth,
  aabbOverlap, aabbOverlapMinWidth, aabbOverlapCenterRadius, aabbOverlapCenterRadiusInt, aabbFromPoints,
  extremePointAlongDirection, aabbFromPointsExtreme, aabbFromSphere, aabbTransformMat3, aabbTransform,
  aabbTransformCenterRadiusMat3, aabbTransformCenterRadius,
} from './volumes/aabb';
export { quaternionToMat3 } from './rotation';
export {
  extremeVertex, createExtremeVertexTracker, aabbFromHullTracking, HULL_EXTREME_CACHE_STRIDE,
  type ExtremeVertexTracker,
} from './volumes/extremeVertex';

export { symmetricEigen3 } from './fit/eigen3';
export {
  fitObb, fitObbPcaPoints, fitObbPcaHull, fitObbHullTriangles, fitObbTriangles, fitObbSegments,
  fitObbRefined, refineObb, type ObbFitMethod, type ObbRefineOptions,
} from './fit/obbFit';

export { quickhull, type ConvexHull } from './fit/quickhull';

export {
  KDOP_DIRECTIONS, kdopFromPoints, kdopOverlap, kdopRefit, kdopFromAabb, kdopContainsPoint,
} from './volumes/kdop';
export { ditoObb } from './fit/dito';

export {
  CLOSEST_ON_SEGMENT_STRIDE, CLOSEST_ON_TRIANGLE_STRIDE, CLOSEST_SEGMENTS_STRIDE, RECT_STRIDE, RECT_CENTER,
  RECT_AXES, RECT_HALF, closestPtPointSegment, closestPtPointTriangle, closestPtPointObb, closestPtPointRect,
  closestPtPointAabb, closestPtSegmentSegment,
} from './query/closestPoints';

export {
  TRI_TRI_DISJOINT, TRI_TRI_SEGMENT, TRI_TRI_COPLANAR, triTriIntersectionSegment, triTriOverlap,
} from './query/triTri';
export {
  raycastSphere, raycastAabb, raycastObb, raycastKdop, raycastCapsule, raycastTriangle, RAY_HIT_STRIDE,
} from './query/raycast';
export {
  CONTACT_STRIDE, CONTACT_NORMAL, CONTACT_DEPTH, CONTACT_COUNT, CONTACT_FEATURE_A, CONTACT_FEATURE_B,
  CONTACT_POINTS, CONTACT_POINT_STRIDE, FEATURE_BOX_FACE, FEATURE_BOX_EDGE, FEATURE_BOX_VERTEX,
  FEATURE_SPHERE, FEATURE_CAPSULE_P0, FEATURE_CAPSULE_P1, FEATURE_CAPSULE_SIDE,
} from './contacts/manifold';

export { contactSphereSphere, contactCapsuleSphere, contactCapsuleCapsule } from './contacts/round';
export { contactSphereObb, contactSphereAabb } from './contacts/sphereBox';
export { contactAabbAabb, contactObbObb } from './contacts/boxBox';
export { contactCapsuleObb } from './contacts/capsuleBox';
export { FEATURE_TRIANGLE_VERTEX, FEATURE_TRIANGLE_EDGE, FEATURE_TRIANGLE_FACE } from './contacts/triangles';
export { contactSphereTriangle, contactCapsuleTriangle } from './contacts/roundTriangle';
export { contactObbTriangle } from './contacts/boxTriangle';

export {
  EDGE_FLAGS_BACK, EDGE_FLAGS_ALL_ACTIVE, computeEdgeFlags, setMeshEdges, meshEdgeFlags,
  type MeshEdgeOptions,
} from './contacts/meshEdges';

export { sphereSphereToi, obbToi, obbSweptOverlap } from './query/toi';
export { responseStop, responseSlide, responseReflect, responseImpulse } from './query/response';
export { type BroadPhase, type BroadPhaseInput } from './broadphase/broadPhase';
export { PairList } from './broadphase/pairList';
export { createBruteForce } from './broadphase/bruteForce';
export { createSweepAndPrune, type SweepAndPruneOptions } from './broadphase/sweepAndPrune';
export {
  createSpatialHash, type SpatialHash, type SpatialHashOptions, type SpatialHashStatistics,
} from './broadphase/spatialHash';
export { createDynamicAabbTree, type DynamicAabbTreeOptions } from './broadphase/dynamicAabbTree';
export { createKdTree } from './broadphase/kdTree';
export { createOctree, type OctreeOptions } from './broadphase/octree';

export {
  SAT_FIRST_EDGE_AXIS, obbSeparatingAxis, obbOverlap, obbOverlapLite, obbSeparatingAxisCached,
  obbBoundingSpheresOverlap, obbOverlapWithSpherePrecheck, obbSphereOverlap, obbAabbOverlap,
} from './query/sat';
export {
  buildBoundingTree, TREE_NODE_STRIDE, TREE_TRIANGLE_STRIDE, type BoundingTree, type BoundingTreeOptions,
  type BoundingNodeKind, type ObbNodeFit, type TreeSplitRule,
} from './tree/build';
export { collideTrees } from './tree/collideTrees';
export { overlapTreeObb, overlapTreeSphere, overlapTreeCapsule } from './tree/overlapVolume';
export { raycastTree } from './tree/raycastTree';
export { shapecastTree, SHAPE_CAST_MOVER_STRIDE, type ShapeCastMover } from './tree/shapecastTree';
export { poseFromTranslationQuaternion, POSE_STRIDE } from './tree/pose';
export {
  TreeQueryResult, TREE_CONTACT_STRIDE, TREE_RAY_HIT_STRIDE, type TreeQueryMode, type TreeBoxTest,
} from './tree/queryResult';

export {
  MAT4_STRIDE, orderBonesParentsFirst, defineSkeleton, createSkeletonStore, addCharacter,
  computeWorldMatrices, boneRefusal, type SkeletonDefinition, type SkeletonInput, type SkeletonStore,
} from './character/skeleton';
export { defineSkin, skinWeight, skinVertex, type SkinDefinition, type SkinInput } from './character/skin';
export {
  HIT_GROUP_HEAD, HIT_GROUP_TORSO, HIT_GROUP_ARMS, HIT_GROUP_LEGS, HIT_GROUP_TAIL, HIT_GROUP_OTHER,
  HIT_GROUP_NAMES, hitGroupFromBoneName,
} from './character/hitGroups';
export { fitBoneHitboxes, type HitboxFitMethod, type HitboxFitOptions, type BoneHitboxes } from './character/hitboxFit';
export { createHitboxStore, addCharacterHitboxes, retireCharacter } from './character/hitboxStore';
export { type HitboxStore } from './character/hitboxLayout';
export { updateHitboxes } from './character/hitboxUpdate';
export { createCharacterRayGrid, buildCharacterRayGrid, type CharacterRayGrid } from './character/rayGrid';
export { createHitboxRayHit, createHitboxRayHits, raycastHitboxes, raycastHitboxesBatch, type HitboxRayHit, type HitboxRayHits } from './character/hitboxRaycast';
export { raycastHitboxesAt, raycastHitboxesBatchAt } from './character/hitboxRaycast';
export { createHitboxHistory, recordHitboxHistory, clearHitboxHistory, hitboxesAt, MAX_HISTORY_FRAMES, type HitboxHistory } from './character/hitboxHistory';
export { createRayBatch, createRayQuery, setRay, type RayBatch, type RayQuery, type RayQueryInit } from './query/rayQuery';
export { createShapeQueryBatch, setShapeQueryAt, type ShapeQueryBatch } from './query/shapeQueryBatch';
export { createColliderHits, createOverlapHits, type ColliderHits, type OverlapHits } from './query/colliderHits';
export { createSweepBatch, setSweepAt, type SweepBatch } from './character/sweepBatch';
export {
  createShapeQuery, setSphereQuery, setCapsuleQuery, setObbQuery, setAabbQuery, setShapeCast,
  type ShapeQuery, type ShapeQueryInit, type ShapeQueryShape,
} from './query/shapeQuery';
export { SHAPE_CAST_HIT_STRIDE } from './query/shapeCastHit';
export { castSphereSphere, castSphereCapsule, castSphereAabb, castSphereObb, castSphereTriangle, castSphereKdop } from './query/shapeCast';
export { castCapsuleSphere, castCapsuleCapsule, castCapsuleAabb, castCapsuleObb, castCapsuleTriangle, castCapsuleKdop } from './query/shapeCastCapsule';
export { castObbObb, castObbAabb, castObbSphere, castObbCapsule, castObbTriangle, castObbKdop } from './query/shapeCastBox';
export { obbSweep, capsuleObbSweep, SWEEP_HIT_STRIDE } from './query/sweep';
export { createHitboxHit, type HitboxHit } from './character/hitboxHit';
export { createHitboxMotion, beginHitboxMotion, beginHitboxMotionAt, finishHitboxMotion, type HitboxMotion } from './character/hitboxMotion';
export {
  createSweepQuery, setSweepObb, setSweepCapsule, createHitboxSweepHits, MAX_SWEEP_HITS, sweepHitboxes, sweepHitboxesAll,
  type SweepQuery, type SweepQueryInit, type SweepWeaponKind,
} from './character/hitboxSweep';
