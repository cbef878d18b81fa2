/**
 * Fit quality: volume and surface area of the OBB from each fitting method, of the AABB and of
 * the minimal sphere, on real meshes, plus the fit time per method (median of interleaved samples).
 */
import { aabbFromPoints } from '../src/volumes/aabb';
import { OBB_STRIDE } from '../src/layout';
import { obbSurfaceArea, obbVolume } from '../src/volumes/obb';
import { fitObb, type ObbFitMethod } from '../src/fit/obbFit';
import { welzlSphere } from '../src/volumes/sphere';
import { loadBunny, loadFox, loadTeapot, type TestMesh } from '../scenes/meshes';
import { markdownTable, runInterleaved } from './harness';
import type { BenchReport } from './harness';

const METHODS: ObbFitMethod[] = ['pca-points', 'pca-hull', 'hull-triangles', 'dito14', 'dito26', 'refined'];

interface Row {
  mesh: string;
  vertices: number;
  kind: string;
  volumeValue: number;
  area: number;
  microseconds: number;
}

function measureMesh(mesh: TestMesh): Row[] {
  const { positions, vertexCount } = mesh;
  const box = new Float64Array(OBB_STRIDE);
  const aabb = new Float64Array(6);
  const sphere = new Float64Array(4);
  type Fit = { kind: string; fit: () => void; volume: () => number; area: () => number };
  const fits: Fit[] = METHODS.map((m) => ({
    kind: `OBB ${m}`,
    fit: () => void fitObb(box, 0, positions, vertexCount, m),
    volume: () => obbVolume(box),
    area: () => obbSurfaceArea(box),
  }));
  fits.push({
    kind: 'AABB',
    fit: () => void aabbFromPoints(aabb, 0, positions, vertexCount),
    volume: () => (aabb[3] - aabb[0]) * (aabb[4] - aabb[1]) * (aabb[5] - aabb[2]),
    area: () => {
      const [x, y, z] = [aabb[3] - aabb[0], aabb[4] - aabb[1], aabb[5] - aabb[2]];
      return 2 * (x * y + y * z + z * x);
    },
  });
  fits.push({
    kind: 'sphere (Welzl, minimal)',
    fit: () => void welzlSphere(sphere, 0, positions, vertexCount),
    volume: () => (4 / 3) * Math.PI * sphere[3] ** 3,
    area: () => 4 * Math.PI * sphere[3] ** 2,
  });
  const rows: Row[] = [];
  for (const f of fits) {
    // Each case fits repeatedly so one sample lasts long enough to time reliably.
    const repeats = 5;
    const [timing] = runInterleaved(
      [{ name: f.kind, ops: repeats, run: () => { for (let r = 0; r < repeats; r++) f.fit(); return 0; } }],
      { warmupSamples: 3, samples: 15 },
    );
    f.fit();
    rows.push({
      mesh: mesh.name,
      vertices: vertexCount,
      kind: f.kind,
      volumeValue: f.volume(),
      area: f.area(),
      microseconds: (timing.medianMs / repeats) * 1000,
    });
  }
  return rows;
}

export async function run(): Promise<BenchReport> {
  const meshes = [loadBunny(), await loadFox(), loadTeapot()];
  const rows = meshes.flatMap(measureMesh);
  const tables = meshes.map((mesh) => {
    const mine = rows.filter((r) => r.mesh === mesh.name);
    const best = Math.min(...mine.filter((r) => r.kind.startsWith('OBB')).map((r) => r.volumeValue));
    return `**${mesh.name}** (${mesh.vertexCount} vertices)\n\n${markdownTable(
      ['bounding volume', 'volume', 'vs best OBB', 'surface area', 'fit time (µs, median)'],
      mine.map((r) => [
        r.kind,
        r.volumeValue.toPrecision(5),
        (r.volumeValue / best).toFixed(3),
        r.area.toPrecision(5),
        r.microseconds.toFixed(1),
      ]),
    )}`;
  });
  return {
    name: 'fitQuality',
    markdown: tables.join('\n\n'),
    data: rows,
  };
}
