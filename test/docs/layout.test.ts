/**
 * The layout the design card promises, checked on the import graph of the sources: kernels in
 * src/ use neither bitecs nor Node built-ins, scenes/ import no tests or benchmarks, examples use
 * only the package entries, no import cycles anywhere, and every tolerance lives in
 * src/tolerances.ts.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { packageRoot } from '../../scenes/packageRoot';

const ROOT = packageRoot(import.meta.url);
const FOLDERS = ['src', 'systems', 'components', 'gltf', 'scenes', 'bench', 'examples', 'scripts', 'debug'];

function sourcesBelow(folder: string): string[] {
  const out: string[] = [];
  const walk = (dir: string): void => {
    for (const name of readdirSync(dir)) {
      if (name.startsWith('.')) continue;
      const path = join(dir, name);
      if (statSync(path).isDirectory()) walk(path);
      else if (path.endsWith('.ts')) out.push(relative(ROOT, path));
    }
  };
  walk(join(ROOT, folder));
  return out;
}

const files = FOLDERS.flatMap(sourcesBelow);

/** Module specifiers of every import and re-export of a file (type-only ones included). */
function specifiers(file: string): string[] {
  const text = readFileSync(join(ROOT, file), 'utf8');
  return [...text.matchAll(/^(?:import|export)\b[^;]*?\bfrom\s+'([^']+)'/gms), ...text.matchAll(/^import\s+'([^']+)'/gm)].map((m) => m[1]);
}

/** The repository file a relative specifier names, or null for a package or an asset. */
function target(from: string, spec: string): string | null {
  if (!spec.startsWith('.')) return null;
  const base = relative(ROOT, resolve(ROOT, dirname(from), spec.split('?')[0]));
  for (const candidate of [`${base}.ts`, join(base, 'index.ts')]) if (files.includes(candidate)) return candidate;
  return null;
}

const edges = new Map(files.map((f) => [f, specifiers(f)]));

describe('layout', () => {
  it('finds the sources it checks', () => {
    expect(files.filter((f) => f.startsWith('src/')).length).toBeGreaterThan(40);
    expect(files).toContain('src/tolerances.ts');
  });

  it('kernels in src/ import neither bitecs nor Node built-ins', () => {
    const offenders = files
      .filter((f) => f.startsWith('src/'))
      .flatMap((f) => edges.get(f)!.filter((s) => s === 'bitecs' || s.startsWith('node:') || s.startsWith('../../systems') || /^\.\.?\/.*(systems|components)\//.test(s)).map((s) => `${f} -> ${s}`));
    expect(offenders).toEqual([]);
  });

  it('scenes import no tests or benchmarks; examples import only the package entries', () => {
    const scenes = files
      .filter((f) => f.startsWith('scenes/'))
      .flatMap((f) => edges.get(f)!.filter((s) => { const t = target(f, s); return t !== null && /^(test|bench)\//.test(t); }).map((s) => `${f} -> ${s}`));
    expect(scenes).toEqual([]);
    const examples = files
      .filter((f) => f.startsWith('examples/') && f !== 'examples/demo.ts')
      .flatMap((f) => edges.get(f)!.filter((s) => s.startsWith('.')).map((s) => `${f} -> ${s}`));
    expect(examples).toEqual([]);
  });

  it('has no import cycles', () => {
    const state = new Map<string, 'open' | 'done'>();
    const cycles: string[] = [];
    const visit = (f: string, path: string[]): void => {
      if (state.get(f) === 'done') return;
      if (state.get(f) === 'open') {
        cycles.push([...path.slice(path.indexOf(f)), f].join(' -> '));
        return;
      }
      state.set(f, 'open');
      for (const s of edges.get(f)!) {
        const t = target(f, s);
        if (t) visit(t, [...path, f]);
      }
      state.set(f, 'done');
    };
    for (const f of files) visit(f, []);
    expect(cycles).toEqual([]);
  });

  it('names every tolerance in src/tolerances.ts only', () => {
    // A tolerance-like constant: a module-level number below 1e-3 written as a literal.
    const strays = files
      .filter((f) => /^(src|systems|components|gltf)\//.test(f) && f !== 'src/tolerances.ts')
      .flatMap((f) => readFileSync(join(ROOT, f), 'utf8').split('\n').map((line, i) => [line, i + 1] as const)
        .filter(([line]) => /^(export )?const [A-Z_0-9]+ = [^;]*\d(\.\d+)?e-\d/.test(line))
        .map(([line, n]) => `${f}:${n}: ${line.trim()}`));
    expect(strays).toEqual([]);
  });
});
