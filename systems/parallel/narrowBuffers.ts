/** The narrow phase's buffers for the worker pool (see NarrowBuffers), and what jobs read of the stores. */
import { CONTACT_STRIDE } from '../../src/contacts/manifold';
import { allocate } from '../../src/sharedMemory';
import { resized } from '../../components/capacity';
import type { ColliderStore } from '../../components/collider';
import type { TransformStore } from '../../components/transform';
import { shareAll, type WorkerPool } from './pool';
import { COLLIDER_ARRAYS, NARROW_ARRAYS, TRANSFORM_ARRAYS } from './protocol';

/**
 * Defaults of ParallelState's thresholds (below them, the calling thread alone is faster), for
 * threads that sleep between jobs. The refit on two threads, on a quiet machine: 0.80x of one
 * thread at 5,000 changed colliders, 0.89x to 1.23x at 10,000, 1.13x at 12,000, 1.33x at 15,000
 * (on a busier machine it was slower up to 15,000); the narrow phase faster from 2,180
 * candidates (1.4x to 1.5x).
 */
export const PARALLEL_MIN_COLLIDERS = 12000;
export const PARALLEL_MIN_CANDIDATES = 2048;
/**
 * The spatial hash split on a quiet machine (pairs only, one process, interleaved): slower than
 * one thread at 7,500 and 10,000 boxes of the constant-density scene (0.90x, 0.81x), faster from
 * 12,000 (1.16x; 20,000 1.35x), and 1.05x to 1.07x for 10,000 boxes packed two to five times
 * denser. Earlier runs on a busier machine: 0.85x to 1.2x at 10,000 to 15,000, 1.1x at 20,000 to 25,000.
 */
export const PARALLEL_MIN_DYNAMIC_BOXES = 12000;
/**
 * The same thresholds for threads that poll between jobs (WorkerPoolOptions.spinMs > 0). With
 * frames back to back on a quiet two-core machine, one thread / two on the moving-boxes scene
 * (ms): the refit 0.028 / 0.022 at 500 changed colliders; the narrow phase 0.025 / 0.021 at 218
 * candidates; the spatial hash (about ten jobs a frame) 0.099 / 0.112 at 500 boxes, about even
 * at 750 and 1,000, 0.42 / 0.36 at 1,500 and at 2,000. With other work between the steps (a game;
 * the benchmark's peers), a step's first job finds the worker waking with cold caches, and the
 * whole 1,000-body frame split that way ran 0.76x of one thread's speed: frames that small stay
 * on one thread (docs/design/threads.md).
 */
export const POLLING_MIN_COLLIDERS = 2000;
export const POLLING_MIN_CANDIDATES = 512;
export const POLLING_MIN_DYNAMIC_BOXES = 2000;

/** Hands the stores' arrays the jobs read to the pool (sent again only when a store grew). */
export function shareStores(pool: WorkerPool, collider: ColliderStore, transform: TransformStore): void {
  pool.setKdopK(collider.kdopK);
  shareAll(pool, 'collider', collider, COLLIDER_ARRAYS);
  shareAll(pool, 'transform', transform, TRANSFORM_ARRAYS);
}

/**
 * The narrow phase's per-candidate buffers when it runs on worker threads (SharedArrayBuffer
 * arrays): the candidates with the separating axis each OBB pair's test found, in two sets that
 * alternate as this frame's and last frame's (the axis cache), and each candidate's result with a
 * manifold slot, so every thread writes only its own candidates' entries.
 */
export interface NarrowBuffers {
  a0: Uint32Array;
  b0: Uint32Array;
  axis0: Int8Array;
  a1: Uint32Array;
  b1: Uint32Array;
  axis1: Int8Array;
  /** Per candidate: the narrow phase's result code (apart, touching, touching with a manifold, or left to the calling thread). */
  flags: Uint8Array;
  /** Per candidate: its manifold slot, stride CONTACT_STRIDE. */
  manifolds: Float32Array;
  /** Which set (0 or 1) holds this frame's candidates. */
  current: number;
  /** Candidates of last frame's set. */
  previousCount: number;
}

/** Empty narrow-phase buffers on SharedArrayBuffers. */
export function createNarrowBuffers(): NarrowBuffers {
  return {
    a0: allocate(Uint32Array, 0, true), b0: allocate(Uint32Array, 0, true), axis0: allocate(Int8Array, 0, true),
    a1: allocate(Uint32Array, 0, true), b1: allocate(Uint32Array, 0, true), axis1: allocate(Int8Array, 0, true),
    flags: allocate(Uint8Array, 0, true), manifolds: allocate(Float32Array, 0, true),
    current: 1, previousCount: 0,
  };
}

/** Grows the buffers of `nb` to hold `n` candidates in every set. */
export function reserveNarrowBuffers(nb: NarrowBuffers, n: number): void {
  if (nb.flags.length >= n) return;
  const m = Math.max(n, 2 * nb.flags.length, 1024);
  nb.a0 = resized(nb.a0, m);
  nb.b0 = resized(nb.b0, m);
  nb.axis0 = resized(nb.axis0, m);
  nb.a1 = resized(nb.a1, m);
  nb.b1 = resized(nb.b1, m);
  nb.axis1 = resized(nb.axis1, m);
  nb.flags = allocate(Uint8Array, m, true);
  nb.manifolds = allocate(Float32Array, m * CONTACT_STRIDE, true);
}

/** Hands the buffers of `nb` to the pool's workers (sent again only when replaced). */
export function shareNarrowBuffers(pool: WorkerPool, nb: NarrowBuffers): void {
  shareAll(pool, 'narrow', nb, NARROW_ARRAYS);
}

