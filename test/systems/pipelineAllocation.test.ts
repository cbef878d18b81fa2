// A frame of moving colliders (poses written with setTransform, then step) allocates nothing per
// collider or pair once the pipeline's pools have grown: per-frame results go to pooled buffers,
// and the hot kernels take their numbers from arrays where V8 would box doubles passed to a call
// it does not inline (16 bytes each). What is left is a few boxed numbers per frame; these tests
// run the modules untransformed by a bundler, where V8 inlines less than in the built package.
import { addEntity, createWorld } from 'bitecs';
import { describe, expect, it } from 'vitest';
import { addCollider, setTransform } from '../../systems/colliderApi';
import { createCollisionPipeline } from '../../systems/pipeline';
import { advanceScene, createScene } from '../../scenes/movingBoxes';
import { leastBytesPerCall } from '../support/allocation';

const BOXES = 1500;
const POSES = 16;

function movingBoxes(sensor: boolean) {
  const scene = createScene(BOXES, 60);
  const world = createWorld();
  const p = createCollisionPipeline(world);
  const eids = new Int32Array(BOXES);
  for (let i = 0; i < BOXES; i++) {
    eids[i] = addEntity(world);
    addCollider(world, eids[i], { shape: 'obb', halfExtents: [scene.half[3 * i], scene.half[3 * i + 1], scene.half[3 * i + 2]], sensor });
  }
  // Poses sampled up front: the scene's own stepping allocates, and is not what is measured.
  const positions: Float64Array[] = [], rotations: Float64Array[] = [];
  for (let f = 0; f < POSES; f++) {
    positions.push(Float64Array.from(scene.position));
    rotations.push(Float64Array.from(scene.rotation));
    advanceScene(scene);
  }
  const position = new Float64Array(3), rotation = new Float64Array(4);
  let frame = 0;
  return (frames: number): number => {
    let pairs = 0;
    for (let k = 0; k < frames; k++, frame++) {
      const sp = positions[frame % POSES], sr = rotations[frame % POSES];
      for (let i = 0; i < BOXES; i++) {
        position[0] = sp[3 * i]; position[1] = sp[3 * i + 1]; position[2] = sp[3 * i + 2];
        rotation[0] = sr[4 * i]; rotation[1] = sr[4 * i + 1]; rotation[2] = sr[4 * i + 2]; rotation[3] = sr[4 * i + 3];
        setTransform(world, eids[i], position, rotation);
      }
      p.step(world);
      pairs += p.touchingPairs.count;
    }
    return pairs;
  };
}

describe('per-frame allocation', () => {
  // Long warm-ups and the least of several runs: while other test files load the machine, V8
  // optimises later, and code it has not optimised yet boxes far more.
  it('a frame of moving boxes, pairs only, allocates a few bytes per box at most', () => {
    const run = movingBoxes(true);
    run(2000);
    // About 0.45 KB a frame here on a quiet machine, 2.4 KB seen in a loaded test run; before the
    // SAT's cached-axis test and setTransform stopped boxing, about 26 KB.
    expect(leastBytesPerCall(run, 100, 6, 100 * 500)).toBeLessThan(4 * BOXES);
  });

  it('a frame of moving boxes with contact manifolds allocates less than 24 bytes per manifold', () => {
    const run = movingBoxes(false);
    run(2000);
    const manifolds = run(1);
    expect(manifolds).toBeGreaterThan(500);
    // 0.2 to 0.4 bytes per manifold on a quiet machine (7 before the query kernels' array forms,
    // 48 before the box-box contacts read their numbers from arrays). In a loaded full test run
    // one measurement saw 35, V8 running the frame unoptimised for a while: the least of more
    // runs looks past such a stretch.
    expect(leastBytesPerCall(run, 100, 12, 100 * 500)).toBeLessThan(24 * manifolds);
  });
});
