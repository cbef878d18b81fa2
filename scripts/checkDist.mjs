// Checks the built package the way a user meets it: every entry loads with import and with
// require() (Node's require of ES modules), exports exactly the committed public names
// (scripts/publicApi.json: a change to the surface is a deliberate edit of that list), computes,
// ships declarations, and pulls in no Node built-ins (the core must run in browsers).
import { readFileSync, existsSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';

const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));
const apiPath = new URL('./publicApi.json', import.meta.url);
const expected = JSON.parse(readFileSync(apiPath, 'utf8'));
const require = createRequire(import.meta.url);
const failures = [];
const found = {};

for (const [entry, target] of Object.entries(pkg.exports)) {
  if (typeof target === 'string') continue;
  const esm = await import(new URL(`../${target.default}`, import.meta.url).href);
  const viaRequire = require(`../${target.default}`);
  const names = Object.keys(esm).filter((k) => k !== 'default').sort();
  found[entry] = names;
  if (Object.keys(viaRequire).filter((k) => k !== 'default' && k !== '__esModule').sort().join() !== names.join()) {
    failures.push(`${entry}: require() sees other names than import`);
  }
  const want = expected[entry] ?? [];
  const added = names.filter((n) => !want.includes(n)), removed = want.filter((n) => !names.includes(n));
  if (added.length || removed.length) {
    failures.push(`${entry}: exports differ from scripts/publicApi.json (added: ${added.join(', ') || 'none'}; removed: ${removed.join(', ') || 'none'})`);
  }
  if (!existsSync(new URL(`../${target.types}`, import.meta.url))) failures.push(`${entry}: missing ${target.types}`);
  const code = readFileSync(new URL(`../${target.default}`, import.meta.url), 'utf8');
  const builtin = code.match(/(?:from\s*|require\()\s*["'](node:[\w/]+|fs|path|os|crypto|url|module)["']/);
  if (builtin) failures.push(`${target.default} imports the Node built-in ${builtin[1]}`);
  if (entry === '.') {
    // Two unit cubes, one shifted by 1.5 along x: separate; shifted by 0.5: overlap.
    const box = (x) => [x, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1, 0.5, 0.5, 0.5];
    for (const lib of [esm, viaRequire]) {
      if (lib.obbOverlap(box(0), 0, box(1.5), 0) !== false || lib.obbOverlap(box(0), 0, box(0.5), 0) !== true) {
        failures.push('obbOverlap from the built entry gives wrong answers');
      }
    }
  }
  console.log(`dist ${entry}: ${names.length} exports, import = require`);
}
for (const entry of Object.keys(expected)) if (!(entry in found)) failures.push(`${entry}: listed in scripts/publicApi.json but not in package.json exports`);

if (process.argv.includes('--write-api')) {
  writeFileSync(apiPath, JSON.stringify(found, null, 2) + '\n');
  console.log('wrote scripts/publicApi.json');
} else if (failures.length > 0) {
  console.error(failures.join('\n'));
  process.exit(1);
}
