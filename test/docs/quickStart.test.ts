// The README's quick start, run as written (relative imports instead of the package name), so the
// first code a user copies is known to work.
import { addEntity, createWorld } from 'bitecs';
import { describe, expect, it } from 'vitest';
import { CONTACT_DEPTH, CONTACT_NORMAL, CONTACT_STRIDE } from '../../src/index';
import { addCollider, createCollisionPipeline, setTransform, touching } from '../../systems/index';

describe('README quick start', () => {
  it('reports the box-ball pair with a contact pushing the ball along +x', () => {
    const world = createWorld();
    const collision = createCollisionPipeline(world);
    const box = addEntity(world);
    addCollider(world, box, { shape: 'obb', halfExtents: [1, 0.5, 2] });
    const ball = addEntity(world);
    addCollider(world, ball, { shape: 'sphere', radius: 0.75, layer: 2, mask: 1 });
    setTransform(world, box, [0, 0, 0], [0, 0, 0, 1]);
    setTransform(world, ball, [1.5, 0, 0]);
    collision.step(world);

    const { begin } = collision.events;
    expect(begin.count).toBe(1);
    expect([begin.a[0], begin.b[0]]).toEqual([box, ball]);
    const c = collision.contacts;
    expect(c.count).toBe(1);
    const m = 0 * CONTACT_STRIDE;
    expect(c.manifold[m + CONTACT_DEPTH]).toBeCloseTo(0.25, 6);
    expect(c.manifold[m + CONTACT_NORMAL]).toBeCloseTo(1, 6);
    expect(touching(world, ball, [])).toEqual([box]);

    // Moving the ball away ends the pair.
    setTransform(world, ball, [3, 0, 0]);
    collision.step(world);
    expect(collision.events.end.count).toBe(1);
    expect(touching(world, ball, [])).toEqual([]);
  });
});
