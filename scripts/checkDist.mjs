// Checks the built package the way a user meets it: the ESM and CJS entries load, agree on their
// exports, compute, ship declarations, and pull in no Node built-ins (the core must run in browsers).
import { readFileSync, existsSync } from 'node:fs';
import { createRequire } from 'node:module';

const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));
const require = createRequire(import.meta.url);
const failures = [];

for (const [entry, conditions] of Object.entries(pkg.exports)) {
  if (typeof conditions === 'string') continue;
  const esmPath = new URL(`../${conditions.import.default}`, import.meta.url);
  const esm = await import(esmPath.href);
  const cjs = require(`../${conditions.require.default}`);
  const esmNames = Object.keys(esm).filter((k) => k !== 'default').sort();
  const cjsNames = Object.keys(cjs).sort();
  if (esmNames.join() !== cjsNames.join()) failures.push(`${entry}: ESM and CJS export different names`);
  if (esmNames.length === 0) failures.push(`${entry}: no exports`);
  for (const types of [conditions.import.types, conditions.require.types]) {
    if (!existsSync(new URL(`../${types}`, import.meta.url))) failures.push(`${entry}: missing ${types}`);
  }
  for (const file of [conditions.import.default, conditions.require.default]) {
    const code = readFileSync(new URL(`../${file}`, import.meta.url), 'utf8');
    const builtin = code.match(/(?:from\s*|require\()\s*["'](node:[\w/]+|fs|path|os|crypto|url|module)["']/);
    if (builtin) failures.push(`${file} imports the Node built-in ${builtin[1]}`);
  }
  if (entry === '.') {
    // Two unit cubes, one shifted by 1.5 along x: separate; shifted by 0.5: overlap.
    const box = (x) => [x, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1, 0.5, 0.5, 0.5];
    for (const lib of [esm, cjs]) {
      if (lib.obbOverlap(box(0), 0, box(1.5), 0) !== false || lib.obbOverlap(box(0), 0, box(0.5), 0) !== true) {
        failures.push('obbOverlap from the built entry gives wrong answers');
      }
    }
  }
  console.log(`dist ${entry}: ${esmNames.length} exports, ESM = CJS`);
}

if (failures.length > 0) {
  console.error(failures.join('\n'));
  process.exit(1);
}
