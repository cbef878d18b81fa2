import { createRayQuery, type RayQuery } from '../../src/query/rayQuery';

/**
 * A ray query for the ray o + t·d, t in [0, maxT] (maxT in units of |d|, as the brute-force
 * references count it), with an optional mask and entity to ignore.
 */
export function rayQueryOf(ox: number, oy: number, oz: number, dx: number, dy: number, dz: number, maxT: number, mask = 0xffffffff, ignore = -1): RayQuery {
  const q = createRayQuery({ mask, ignore });
  q.origin.set([ox, oy, oz]);
  q.direction.set([dx, dy, dz]);
  q.maxDistance = maxT * Math.hypot(dx, dy, dz);
  return q;
}
