/**
 * bitecs-collide/ecs: components and systems that register into the user's bitecs world.
 * createCollisionPipeline is the usual entry; the single systems are exported for custom orders.
 */
export { createCollisionPipeline } from './pipeline';
export { refitVolumes } from './refitVolumes';
export { broadPhase } from './broadPhase';
export { resolveBroadPhase, BROAD_PHASE_NAMES } from './broadPhaseNames';
export { narrowPhase } from './narrowPhase';
export { touching, contactsOf } from './touching';
export { shiftWorldOrigin, worldOrigin } from './worldOrigin';
export { raycastColliders, raycastCharactersBatch, createColliderRayHit, type ColliderRayHit } from './raycastColliders';
export { raycastCollidersBatch, castShapeCollidersBatch, overlapCollidersBatch } from './colliderBatches';
export { raycastCharactersAt, raycastCharactersBatchAt, characterHitboxesAt } from './characterHistory';
export { sweepCharacters, sweepCharactersAll, sweepCharactersBatch } from './characterSweep';
export { overlapColliders } from './shapeQueries';
export { castShapeColliders, createColliderShapeHit, type ColliderShapeHit } from './shapeCasts';
export { updateCharacterColliders } from './updateCharacterColliders';
export { addMeshCollider, buildMeshTree } from './meshCollider';
export { addKdopCollider } from './kdopCollider';
export { createWorkerPool, type WorkerPoolOptions, type WorkerHandle } from './parallel/workerPool';
export { addCharacterCollider, characterOf, type CharacterAsset, type CharacterColliderOptions } from './characters';
export { type HitboxPairStore } from '../components/hitboxPairStore';
export { updateBoneHitboxes, type BoneHitboxState } from './updateBoneHitboxes';
export {
  addCollider,
  setTransform,
  setPosition,
  setRotation,
  setScale,
  markTransformChanged,
  removeCollider,
  type ColliderDescription,
  type ColliderOptions,
  type Vec3Like,
  type QuatLike,
} from './colliderApi';
export {
  COLLISION_PIPELINE,
  type CollisionPipeline,
  type CollisionPipelineOptions,
  type CharactersOption,
  type CollisionWorkers,
  type PairEvents,
  type PipelineTimings,
  type BroadPhaseName,
  type System,
} from './collisionState';
export {
  SHAPE_SPHERE,
  SHAPE_AABB,
  SHAPE_OBB,
  SHAPE_CAPSULE,
  SHAPE_KDOP,
  SHAPE_MESH,
  SHAPE_CHARACTER,
  SHAPE_NONE,
  SHAPE_STRIDE,
  DEFAULT_LAYER,
  DEFAULT_MASK,
  type ColliderStore,
} from '../components/collider';
export { type TransformStore } from '../components/transform';
export {
  type TransformComponents, type PositionComponent, type RotationComponent, type NumberArray, type Vec3Fields, type QuatFields,
} from './poseSource';
export { type ContactStore } from '../components/contactStore';
export { MAX_ENTITY_ID } from '../components/capacity';
