/**
 * Arguments of the wrong kind at the public entry points (a missing record, a plain object where
 * a store or query is expected, null options, a world that is not a bitecs world) get a
 * CollideInputError naming the argument, never a TypeError from deep inside.
 */
import { addEntity, createWorld } from 'bitecs';
import { Document } from '@gltf-transform/core';
import { describe, expect, it } from 'vitest';
import {
  addCharacter, addCharacterHitboxes, beginHitboxMotion, createDynamicAabbTree, createOctree, createSpatialHash, createSweepAndPrune, buildBoundingTree, buildCharacterRayGrid, computeWorldMatrices,
  createCharacterRayGrid, createExtremeVertexTracker, createHitboxMotion, createHitboxStore, createRayQuery, createShapeQuery,
  createSkeletonStore, createSweepQuery, defineSkeleton, defineSkin, finishHitboxMotion, fitBoneHitboxes, setMeshEdges,
  setObbQuery, setRay, setShapeCast, setSphereQuery, setSweepObb, updateHitboxes,
  fitObb, fitObbPcaPoints, welzlSphere, aabbFromPoints, quickhull, kdopFromPoints, computeEdgeFlags, overlapTreeSphere, overlapTreeObb,
  overlapTreeCapsule, raycastTree, collideTrees, shapecastTree, poseFromTranslationQuaternion, POSE_STRIDE, TreeQueryResult,
  createHitboxHistory, createHitboxSweepHits, PairList, retireCharacter, boneRefusal, clearHitboxHistory, beginHitboxMotionAt,
  hitGroupFromBoneName, skinWeight, skinVertex,
} from '../../src/index';
import { CollideInputError } from '../../src/errors';
import { addCharacterCollider, addCollider, contactsOf, createCollisionPipeline, touching, updateBoneHitboxes } from '../../systems/index';
import { animateCharacter, loadGltfCharacter, sampleGltfAnimation, sampleGltfPoses, slerpKeys, type GltfAnimation } from '../../gltf/index';
import { def, fitted, humanoid } from '../support/hitboxRays';

const box = new Float64Array([0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1, 1, 1, 1]);
const points = Float64Array.of(0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1);
const mesh = { positions: Float64Array.of(0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1), indices: Uint32Array.of(0, 1, 2, 0, 1, 3) };
const tree = () => buildBoundingTree(mesh.positions, mesh.indices);
/** An animation turning bone 0 a quarter turn about z over a second. */
const oneChannel: GltfAnimation = {
  name: 'turn', duration: 1,
  channels: [{ bone: 0, path: 'rotation', interpolation: 'LINEAR', times: Float64Array.of(0, 1), values: Float64Array.of(0, 0, 0, 1, 0, 0, Math.SQRT1_2, Math.SQRT1_2) }],
};
const pose = poseFromTranslationQuaternion(new Float64Array(POSE_STRIDE), 0, 0, 0, 0, [0, 0, 0, 1]);

/** A skeleton and hitbox store with one humanoid. */
function stores() {
  const skeletons = createSkeletonStore(), hitboxes = createHitboxStore();
  addCharacter(skeletons, def, 0);
  addCharacterHitboxes(hitboxes, skeletons, 0, fitted);
  return { skeletons, hitboxes };
}

const cases: [string, () => unknown, RegExp][] = [
  ['createCollisionPipeline, not a world', () => createCollisionPipeline({} as never), /createCollisionPipeline: world must be a bitecs world \(createWorld\(\)\), got \[object Object\]/],
  ['touching, no out array', () => {
    const world = createWorld();
    createCollisionPipeline(world);
    const e = addEntity(world);
    addCollider(world, e, { shape: 'sphere', radius: 1 });
    return touching(world, e, undefined as never);
  }, /touching: out must be an array to fill, got undefined/],
  ['contactsOf, a bad entity', () => {
    const world = createWorld();
    createCollisionPipeline(world);
    return contactsOf(world, -1, []);
  }, /contactsOf: entity -1 is not an integer id/],
  ['buildBoundingTree, no positions', () => buildBoundingTree(undefined as never, [0, 1, 2]), /buildBoundingTree: positions must be an array of numbers \(typed or plain\), got undefined/],
  ['buildBoundingTree, indices a string', () => buildBoundingTree([0, 0, 0, 1, 0, 0, 0, 1, 0], '012' as never), /buildBoundingTree: indices must be an array of numbers \(typed or plain\), got '012'/],
  ['createSpatialHash, null options', () => createSpatialHash(null as never), /createSpatialHash: options must be an object, got null/],
  ['createSpatialHash, unknown option', () => createSpatialHash({ cellsize: 1 } as never), /createSpatialHash: unknown option 'cellsize'/],
  ['createSweepAndPrune, bad ratio', () => createSweepAndPrune({ axisSwitchRatio: 0.5 }), /createSweepAndPrune: axisSwitchRatio must be >= 1, got 0\.5/],
  ['createOctree, bad leaf size', () => createOctree({ leafSize: 0 }), /createOctree: leafSize must be >= 1, got 0/],
  ['createDynamicAabbTree, NaN margin', () => createDynamicAabbTree({ marginRatio: NaN }), /createDynamicAabbTree: marginRatio must be >= 0, got NaN/],
  ['defineSkeleton, no input', () => defineSkeleton(undefined as never), /defineSkeleton: input must be an object/],
  ['defineSkeleton, parents a number', () => defineSkeleton({ parents: 3 } as never), /defineSkeleton: parents must be an array of numbers/],
  ['defineSkin, not a skeleton', () => defineSkin({} as never, humanoid.skin), /defineSkin: skeleton must come from defineSkeleton/],
  ['fitBoneHitboxes, not a skin', () => fitBoneHitboxes(def, {} as never), /fitBoneHitboxes: skin must come from defineSkin/],
  ['createExtremeVertexTracker, negative', () => createExtremeVertexTracker(-1), /createExtremeVertexTracker: vertexCount must be an integer in \[0, 2\^30\], got -1/],
  ['setRay, no query', () => setRay(undefined as never, 0, 0, 0, 1, 0, 0), /setRay: the query must come from createRayQuery, got undefined/],
  ['setSphereQuery, a plain object', () => setSphereQuery({} as never, 0, 0, 0, 1), /setSphereQuery: the query must come from createShapeQuery/],
  ['setObbQuery, no box', () => setObbQuery(createShapeQuery(), undefined as never), /setObbQuery: box must be an array of numbers/],
  ['setShapeCast, null', () => setShapeCast(null as never, 1, 0, 0), /setShapeCast: the query must come from createShapeQuery, got null/],
  ['setSweepObb, no start', () => setSweepObb(createSweepQuery(), undefined as never, 0, box, 0), /setSweepObb: start must be an array of numbers/],
  ['loadGltfCharacter, no document', () => loadGltfCharacter(undefined as never), /loadGltfCharacter: doc must be a glTF-Transform Document/],
  ['loadGltfCharacter, null options', () => loadGltfCharacter(new Document(), null as never), /loadGltfCharacter: options must be an object, got null/],
  ['sampleGltfAnimation, NaN time', () => {
    const s = createSkeletonStore();
    return sampleGltfAnimation({ name: 'a', duration: 1, channels: [] }, NaN, s.translation, s.rotation, s.scale);
  }, /sampleGltfAnimation: time NaN is not finite/],
  ['updateBoneHitboxes, no state', () => updateBoneHitboxes(undefined as never), /updateBoneHitboxes: state must be an object, got undefined/],
  ['updateBoneHitboxes, not a hitbox store', () => updateBoneHitboxes({ skeletons: stores().skeletons, hitboxes: {} as never }), /updateBoneHitboxes: store must come from createHitboxStore/],
  ['beginHitboxMotion, no motion', () => beginHitboxMotion(undefined as never, stores().hitboxes), /beginHitboxMotion: motion must come from createHitboxMotion/],
  ['finishHitboxMotion, not a store', () => finishHitboxMotion(createHitboxMotion(), {} as never), /finishHitboxMotion: store must come from createHitboxStore/],
  ['buildCharacterRayGrid, not a grid', () => buildCharacterRayGrid({} as never, stores().hitboxes), /buildCharacterRayGrid: grid must come from createCharacterRayGrid/],
  ['buildCharacterRayGrid, no store', () => buildCharacterRayGrid(createCharacterRayGrid(), undefined as never), /buildCharacterRayGrid: store must come from createHitboxStore/],
  ['computeWorldMatrices, characters beyond the store', () => computeWorldMatrices(stores().skeletons, 0, 5), /computeWorldMatrices: characters 0 \+ 5 are not within the store's 1/],
  ['computeWorldMatrices, not a store', () => computeWorldMatrices({} as never), /computeWorldMatrices: store must come from createSkeletonStore/],
  ['updateHitboxes, a negative first character', () => {
    const { skeletons, hitboxes } = stores();
    return updateHitboxes(hitboxes, skeletons, -1, 1);
  }, /updateHitboxes: characters -1 \+ 1 are not within the store's 1/],
  ['addCharacter, not a store', () => addCharacter({} as never, def, 0), /addCharacter: store must come from createSkeletonStore/],
  ['addCharacter, a fractional entity', () => addCharacter(createSkeletonStore(), def, 1.5), /addCharacter: entity must be an integer, got 1\.5/],
  ['addCharacterHitboxes, not fitted hitboxes', () => {
    const s = createSkeletonStore();
    addCharacter(s, def, 0);
    return addCharacterHitboxes(createHitboxStore(), s, 0, {} as never);
  }, /addCharacterHitboxes: fitted must come from fitBoneHitboxes/],
  ['setMeshEdges, not a tree', () => setMeshEdges({} as never), /setMeshEdges: tree must come from buildBoundingTree/],
  ['buildBoundingTree, null options', () => buildBoundingTree(mesh.positions, mesh.indices, null as never), /buildBoundingTree: options must be an object, got null/],
  ['buildBoundingTree, unknown option', () => buildBoundingTree(mesh.positions, mesh.indices, { maxLeaf: 4 } as never), /buildBoundingTree: unknown option 'maxLeaf'/],
  ['fitObbPcaPoints, no out', () => fitObbPcaPoints(undefined as never, 0, points, 4), /fitObbPcaPoints: out must be an array of numbers \(typed or plain\), got undefined/],
  ['fitObb, out too short', () => fitObb(new Float64Array(14), 0, points, 4, 'dito26'), /ditoObb: out holds 14 numbers, 15 needed \(15 at offset 0\)/],
  ['welzlSphere, a negative out offset', () => welzlSphere(new Float64Array(8), -1, points, 4), /welzlSphere: the out offset must be a non-negative integer, got -1/],
  ['aabbFromPoints, no points', () => aabbFromPoints(new Float64Array(6), 0, null as never, 4), /aabbFromPoints: points must be an array of numbers \(typed or plain\), got null/],
  ['quickhull, a fractional offset', () => quickhull(points, 2, 1.5), /quickhull: offset must be a non-negative integer, got 1\.5/],
  ['kdopFromPoints, out too short', () => kdopFromPoints(new Float64Array(13), 0, 14, points, 4), /kdopFromPoints: out holds 13 numbers, 14 needed/],
  ['computeEdgeFlags, out not a Uint16Array', () => computeEdgeFlags([] as never, new Float64Array(9), 1), /computeEdgeFlags: out must be a Uint16Array, got /],
  ['computeEdgeFlags, short triangles', () => computeEdgeFlags(new Uint16Array(2), new Float64Array(9), 2), /computeEdgeFlags: 2 triangles need 18 numbers, triangles has 9/],
  ['computeEdgeFlags, a NaN corner', () => computeEdgeFlags(new Uint16Array(1), Float64Array.of(0, 0, 0, 1, 0, 0, NaN, 1, 0), 1), /computeEdgeFlags: triangles: value 6 is not finite \(NaN\)/],
  ['overlapTreeSphere, no result', () => overlapTreeSphere(undefined as never, tree(), pose, 0, [0, 0, 0, 1], 0), /overlapTreeSphere: result must come from new TreeQueryResult\(\), got undefined/],
  ['overlapTreeObb, not a tree', () => overlapTreeObb(new TreeQueryResult(), {} as never, pose, 0, box, 0), /overlapTreeObb: tree must come from buildBoundingTree/],
  ['overlapTreeCapsule, short capsule', () => overlapTreeCapsule(new TreeQueryResult(), tree(), pose, 0, [0, 0, 0, 1, 0, 0], 0), /overlapTreeCapsule: capsule: 7 numbers from offset 0 needed, it holds 6/],
  ['raycastTree, no pose', () => raycastTree(new TreeQueryResult(), tree(), null as never, 0, 0, 0, -1, 0, 0, 1, 5), /raycastTree: pose must be an array of numbers \(typed or plain\), got null/],
  ['collideTrees, the second pose past its end', () => collideTrees(new TreeQueryResult(), tree(), pose, 0, tree(), pose, 1), /collideTrees: pose: 12 numbers from offset 1 needed, it holds 12/],
  ['shapecastTree, an unknown mover', () => shapecastTree(new TreeQueryResult(), tree(), pose, 0, 'cone' as never, box, 0, 1, 0, 0, 1), /shapecastTree: kind must be 'sphere', 'capsule' or 'obb', got 'cone'/],
  ['poseFromTranslationQuaternion, no quaternion', () => poseFromTranslationQuaternion(new Float64Array(12), 0, 0, 0, 0, undefined as never), /poseFromTranslationQuaternion: q must be an array of numbers/],
  ['createHitboxHistory, frames beyond the maximum', () => createHitboxHistory(2 ** 31), /createHitboxHistory: frames must be an integer in \[2, 65536\], got 2147483648/],
  ['createHitboxSweepHits, capacity beyond the maximum', () => createHitboxSweepHits(2 ** 31), /createHitboxSweepHits: capacity must be an integer in \[0, 65536\], got 2147483648/],
  ['PairList, an infinite capacity', () => new PairList(Infinity), /PairList: capacity Infinity is too large to allocate/],
  ['PairList, a negative capacity', () => new PairList(-1), /PairList: capacity must be a non-negative number, got -1/],
  ['animateCharacter, no animation', () => {
    const world = createWorld();
    createCollisionPipeline(world);
    const e = addEntity(world);
    addCharacterCollider(world, e, { skeleton: def, hitboxes: fitted });
    return animateCharacter(world, e, undefined as never, 0);
  }, /animateCharacter: animation must come from loadGltfCharacter, got undefined/],
  ['sampleGltfAnimation, no rotation array', () => {
    const s = createSkeletonStore();
    return sampleGltfAnimation(oneChannel, 0.5, s.translation, undefined as never, s.scale);
  }, /sampleGltfAnimation: rotation must be an array of numbers \(typed or plain\), got undefined/],
  ['sampleGltfAnimation, arrays too short for the bone', () => sampleGltfAnimation(oneChannel, 0.5, new Float64Array(3), new Float64Array(4), new Float64Array(3), 1), /sampleGltfAnimation: the animation drives bone 1, its rotation array holds 1 bones/],
  ['sampleGltfPoses, animations not an array', () => sampleGltfPoses(def, undefined as never, 2), /sampleGltfPoses: animations must be an array/],
  ['sampleGltfPoses, too many samples', () => sampleGltfPoses(def, [oneChannel], 2 ** 31), /sampleGltfPoses: samplesPerAnimation must be an integer in \[1, 4096\], got 2147483648/],
  ['slerpKeys, no out', () => slerpKeys(undefined as never, 0, Float64Array.of(0, 0, 0, 1, 0, 0, 1, 0), 0, 4, 0.5), /slerpKeys: out must be an array of numbers/],
  ['retireCharacter, not a store', () => retireCharacter({} as never, 0), /retireCharacter: store must come from createHitboxStore/],
  ['retireCharacter, a fractional character', () => retireCharacter(stores().hitboxes, 0.5), /retireCharacter: character must be an integer, got 0\.5/],
  ['boneRefusal, a bone beyond the store', () => boneRefusal(stores().skeletons, 1e6), /boneRefusal: bone 1000000 is not in \[0, 68\)/],
  ['clearHitboxHistory, no history', () => clearHitboxHistory(undefined as never), /clearHitboxHistory: history must come from createHitboxHistory, got undefined/],
  ['beginHitboxMotionAt, no history', () => beginHitboxMotionAt(createHitboxMotion(), null as never, stores().hitboxes, 1), /beginHitboxMotionAt: history must come from createHitboxHistory, got null/],
  ['hitGroupFromBoneName, not a string', () => hitGroupFromBoneName(7 as never), /hitGroupFromBoneName: name must be a string, got 7/],
  ['skinWeight, not a skin', () => skinWeight({} as never, 0, 0), /skinWeight: skin must come from defineSkin/],
  ['skinVertex, a vertex beyond the skin', () => skinVertex(new Float64Array(3), 0, defineSkin(def, humanoid.skin), -1, new Float64Array(16 * 68)), /skinVertex: vertex -1 is not in \[0, \d+\)/],
  ['skinVertex, too few matrices', () => {
    const skin = defineSkin(def, humanoid.skin);
    // A vertex weighted on a bone past the first: one matrix is too few for it.
    const v = Math.floor(skin.bones.findIndex((b, i) => b > 0 && skin.weights[i] > 0) / skin.influences);
    return skinVertex(new Float64Array(3), 0, skin, v, new Float64Array(16));
  }, /skinVertex: vertex \d+ is weighted on bone \d+, skinMatrices holds 1 matrices/],
  ['skinVertex, no out', () => skinVertex(undefined as never, 0, defineSkin(def, humanoid.skin), 0, new Float64Array(16 * 68)), /skinVertex: out must be an array of numbers/],
  ['slerpKeys, key b past the values', () => slerpKeys(new Float64Array(4), 0, Float64Array.of(0, 0, 0, 1, 0, 0, 1, 0), 0, 8, 0.5), /slerpKeys: values at key b: 4 numbers from offset 8 needed, it holds 8/],
];

describe('arguments of the wrong kind', () => {
  it.each(cases)('%s: CollideInputError naming it', (_, call, message) => {
    let error: unknown;
    try {
      call();
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(CollideInputError);
    expect((error as Error).message).toMatch(message);
  });

  it('the checked calls still work with good arguments', () => {
    const { skeletons, hitboxes } = stores();
    expect(computeWorldMatrices(skeletons, 0, 1)).toBe(-1);
    updateHitboxes(hitboxes, skeletons, 0, 1);
    const motion = createHitboxMotion();
    beginHitboxMotion(motion, hitboxes);
    finishHitboxMotion(motion, hitboxes);
    const grid = createCharacterRayGrid();
    buildCharacterRayGrid(grid, hitboxes);
    expect(setRay(createRayQuery(), 0, 0, 0, 1, 0, 0).direction[0]).toBe(1);
    expect(setObbQuery(createShapeQuery(), box).shape).toBe('obb');
    expect(setSweepObb(createSweepQuery(), box, 0, box, 0).kind).toBe('obb');
    expect(createExtremeVertexTracker(4).stamp.length).toBe(4);
    expect(fitObb([], 0, points, 4, 'dito26').length).toBe(15); // a plain array grows to take the result
    expect(welzlSphere(new Float64Array(8), 4, points, 4)[7]).toBeGreaterThan(0);
    expect(computeEdgeFlags(new Uint16Array(2), Float64Array.of(0, 0, 0, 1, 0, 0, 0, 1, 0, 1, 0, 0, 1, 1, 0, 0, 1, 0), 2).length).toBe(2);
    expect(overlapTreeSphere(new TreeQueryResult(), tree(), pose, 0, [0, 0, 0, 0.5], 0)).toBeGreaterThan(0);
    expect(raycastTree(new TreeQueryResult(), tree(), pose, 0, 0.2, 0.2, -1, 0, 0, 1, 5)).toBe(true);
    expect(new PairList(0).count).toBe(0);
    const turned = new Float64Array(4);
    slerpKeys(turned, 0, oneChannel.channels[0].values, 0, 4, 0.5);
    expect(turned[3]).toBeCloseTo(Math.cos(Math.PI / 8), 12);
    const s = createSkeletonStore();
    addCharacter(s, def, 0);
    sampleGltfAnimation(oneChannel, 1, s.translation, s.rotation, s.scale);
    expect(s.rotation[3]).toBeCloseTo(Math.SQRT1_2, 12);
    expect(sampleGltfPoses(def, [oneChannel], 3).length).toBe(3);
    expect(hitGroupFromBoneName('LeftUpperArm')).toBe(2);
    const skin = defineSkin(def, humanoid.skin), identity = new Float64Array(16 * def.boneCount);
    for (let b = 0; b < def.boneCount; b++) for (let k = 0; k < 4; k++) identity[16 * b + 5 * k] = 1;
    expect(Array.from(skinVertex(new Float64Array(3), 0, skin, 0, identity))).toEqual(Array.from(skin.positions.subarray(0, 3)).map((x) => expect.closeTo(x, 12)));
    expect(skinWeight(skin, 0, skin.bones[0])).toBeGreaterThan(0);
  });
});
