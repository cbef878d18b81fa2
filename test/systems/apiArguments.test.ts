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
} from '../../src/index';
import { CollideInputError } from '../../src/errors';
import { addCollider, contactsOf, createCollisionPipeline, touching, updateBoneHitboxes } from '../../systems/index';
import { loadGltfCharacter, sampleGltfAnimation } from '../../gltf/index';
import { def, fitted, humanoid } from '../support/hitboxRays';

const box = new Float64Array([0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1, 1, 1, 1]);

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
  });
});
