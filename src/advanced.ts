/**
 * bitecs-collide/advanced: the tuning constants and building blocks the kernels share, for code
 * that extends the library (a broad phase of your own, a fit that reuses the moments, a test that
 * states its bands): every tolerance (src/tolerances.ts, each with its unit and reason), the
 * input checks, the broad-phase helpers, the moment sums and the switch of the tree builder's
 * WebAssembly kernels. Not needed to use the library; these may change between minor versions as
 * the kernels are tuned.
 */
export * from './tolerances';
export { assertFinitePoints, assertNonEmptyPoints, assertFiniteValues, assertExtents } from './errors';
export { pointMoments, triangleMoments, segmentMoments, MOMENTS_STRIDE } from './fit/moments';
export { COINCIDENT_NORMAL_X } from './contacts/manifold';
export { acceptPair, reportPair, maxProxyId, assertBroadPhaseInput, MAX_PROXY_ID } from './broadphase/broadPhase';
export { AabbTree } from './broadphase/aabbTree';
export { DEFAULT_WEIGHT_THRESHOLD } from './character/hitboxFit';
export { HITBOXES_PER_CLUSTER } from './character/hitboxLayout';
export { obbQuaternion, interpolationReach } from './volumes/obb';
export { MOTION_BOUNDS_STRIDE } from './character/hitboxMotion';
export { assertShapeCast } from './query/shapeCast';
export { IdList, sortIds, isBoxQueryable, type BoxQueryable } from './broadphase/boxQuery';
export { QueryGrid } from './broadphase/gridQuery';
export { aabbSphereOverlap } from './query/sat';
export { setTreeBuildWasm, treeBuildWasmAvailable } from './wasm/treeBuild';
