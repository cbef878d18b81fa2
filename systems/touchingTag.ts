/**
 * Collision output the bitecs way, as an option (`createCollisionPipeline(world, { tags: true })`):
 * the pipeline's `Touching` component is on exactly the entities that touch something after the
 * last step, so `query(world, [collision.Touching, Health])` works. Components are added and
 * removed only on transitions (an entity's first begin, its last end), from per-entity counts of
 * touching pairs updated with the frame's begin and end events: structural changes cost what the
 * transitions cost, and nothing when the option is off.
 */
import { addComponent, entityExists, hasComponent, removeComponent, type World } from 'bitecs';
import { resized } from '../components/capacity';
import type { CollisionPipeline, TouchingTag } from './collisionState';

/** A fresh tag state. */
export function createTouchingTag(): TouchingTag {
  return { Touching: {}, counts: new Uint32Array(64) };
}

/**
 * Applies the frame's begin and end events to the counts, then tags the entities whose count
 * became positive and untags those whose count became 0. Counting first makes an entity that ends
 * one pair and begins another in the same frame keep its tag untouched, and an id reused by a new
 * entity (its old pairs end, new ones begin) end up tagged exactly when the new entity touches.
 */
export function updateTouchingTag(p: CollisionPipeline, tag: TouchingTag): void {
  const world: World = p.world;
  const { begin, end } = p.events;
  // b is the larger id of each pair, but the list is sorted by a: look at every b.
  let largest = 0;
  for (let i = 0; i < begin.count; i++) if (begin.b[i] > largest) largest = begin.b[i];
  if (largest >= tag.counts.length) tag.counts = resized(tag.counts, Math.max(2 * tag.counts.length, largest + 1));
  const counts = tag.counts;
  for (let i = 0; i < begin.count; i++) {
    counts[begin.a[i]]++;
    counts[begin.b[i]]++;
  }
  for (let i = 0; i < end.count; i++) {
    counts[end.a[i]]--;
    counts[end.b[i]]--;
  }
  for (let i = 0; i < end.count; i++) {
    untagIfIdle(world, tag, end.a[i]);
    untagIfIdle(world, tag, end.b[i]);
  }
  for (let i = 0; i < begin.count; i++) {
    tagIfTouching(world, tag, begin.a[i]);
    tagIfTouching(world, tag, begin.b[i]);
  }
}

/** Untags e when it touches nothing (a removed entity lost its components already). */
function untagIfIdle(world: World, tag: TouchingTag, e: number): void {
  if (tag.counts[e] === 0 && entityExists(world, e) && hasComponent(world, e, tag.Touching)) removeComponent(world, e, tag.Touching);
}

/** Tags e when it touches something and is not tagged yet. */
function tagIfTouching(world: World, tag: TouchingTag, e: number): void {
  if (tag.counts[e] > 0 && !hasComponent(world, e, tag.Touching)) addComponent(world, e, tag.Touching);
}
