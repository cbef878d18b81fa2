/**
 * Contacts: manifolds per second for overlapping OBB pairs (random orientations and sizes,
 * pre-generated, so only the kernel is timed), capsule-OBB manifolds, and ray-OBB casts per
 * second on random rays through a field of boxes. Medians of interleaved samples.
 */
import { CONTACT_STRIDE, contactCapsuleObb, contactObbObb } from '../src/contacts';
import { OBB_STRIDE } from '../src/layout';
import { RAY_HIT_STRIDE, raycastObb } from '../src/raycast';
import { contactObbTriangle } from '../src/triangleContacts';
import { mulberry32, quaternionToAxes, randomQuaternion } from '../test/support/random';
import { markdownTable, millions, runInterleaved, type BenchCase } from './harness';
import type { BenchReport } from './run';

const PAIRS = 4096;
const RAYS = 4096;

function randomObbs(rand: () => number, count: number, spread: number): Float64Array {
  const boxes = new Float64Array(count * OBB_STRIDE);
  const axes = new Array(9).fill(0);
  for (let i = 0; i < count; i++) {
    const o = i * OBB_STRIDE;
    for (let k = 0; k < 3; k++) boxes[o + k] = (2 * rand() - 1) * spread;
    quaternionToAxes(randomQuaternion(rand), axes);
    for (let k = 0; k < 9; k++) boxes[o + 3 + k] = axes[k];
    for (let k = 0; k < 3; k++) boxes[o + 12 + k] = 0.3 + rand();
  }
  return boxes;
}

export function run(): BenchReport {
  const rand = mulberry32(2024);
  // Pairs whose centres are close enough that nearly all overlap.
  const a = randomObbs(rand, PAIRS, 0);
  const b = randomObbs(rand, PAIRS, 0.6);
  const capsules = new Float64Array(PAIRS * 7);
  for (let i = 0; i < PAIRS; i++) {
    for (let k = 0; k < 6; k++) capsules[i * 7 + k] = (2 * rand() - 1) * 1.2;
    capsules[i * 7 + 6] = 0.1 + 0.4 * rand();
  }
  // Triangles around the boxes of `a` (the per-triangle step of mesh manifolds).
  const triangles = new Float64Array(PAIRS * 9);
  for (let i = 0; i < PAIRS * 9; i++) triangles[i] = (2 * rand() - 1) * 1.2;
  const field = randomObbs(rand, RAYS, 10);
  const rays = new Float64Array(RAYS * 6);
  for (let i = 0; i < RAYS; i++) {
    for (let k = 0; k < 3; k++) rays[i * 6 + k] = (2 * rand() - 1) * 15;
    // Aim near a box (within 2 units of its centre), so that a good share of the casts hit.
    for (let k = 0; k < 3; k++) rays[i * 6 + 3 + k] = field[i * OBB_STRIDE + k] + (2 * rand() - 1) * 2 - rays[i * 6 + k];
  }
  const manifold = new Float64Array(CONTACT_STRIDE);
  const hit = new Float64Array(RAY_HIT_STRIDE);
  const cases: BenchCase[] = [
    {
      name: 'contactObbObb (overlapping pairs)',
      ops: PAIRS,
      run: () => {
        let points = 0;
        for (let i = 0; i < PAIRS; i++) points += contactObbObb(manifold, 0, a, i * OBB_STRIDE, b, i * OBB_STRIDE);
        return points;
      },
    },
    {
      name: 'contactCapsuleObb',
      ops: PAIRS,
      run: () => {
        let points = 0;
        for (let i = 0; i < PAIRS; i++) points += contactCapsuleObb(manifold, 0, capsules, i * 7, a, i * OBB_STRIDE);
        return points;
      },
    },
    {
      name: 'raycastObb (random rays)',
      ops: RAYS,
      run: () => {
        let hits = 0;
        for (let i = 0; i < RAYS; i++) {
          const r = i * 6;
          if (raycastObb(hit, rays[r], rays[r + 1], rays[r + 2], rays[r + 3], rays[r + 4], rays[r + 5], 2, field, i * OBB_STRIDE)) hits++;
        }
        return hits;
      },
    },
    {
      name: 'contactObbTriangle (triangles around the box)',
      ops: PAIRS,
      run: () => {
        let points = 0;
        for (let i = 0; i < PAIRS; i++) points += contactObbTriangle(manifold, 0, a, i * OBB_STRIDE, triangles, 9 * i);
        return points;
      },
    },
  ];
  const results = runInterleaved(cases, { warmupSamples: 10, samples: 40 });
  const contactsPerPair = results[0].checksum / PAIRS;
  return {
    name: 'contacts',
    markdown: [
      markdownTable(
        ['kernel', 'million per second (median)', 'median ms per sample', 'p95 ms', 'ops per sample'],
        results.map((r) => [r.name, millions(r.opsPerSecond), r.medianMs.toFixed(3), r.p95Ms.toFixed(3), r.ops]),
      ),
      '',
      `OBB pairs: ${contactsPerPair.toFixed(2)} contact points per pair on average; ray hits: ${results[2].checksum} of ${RAYS}; box-triangle: ${(results[3].checksum / PAIRS).toFixed(2)} points per pair on average (0 where they miss).`,
    ].join('\n'),
    data: results,
  };
}
