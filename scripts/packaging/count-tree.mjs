#!/usr/bin/env node
// Counts the packages an install pulls for the given root packages: walks dependencies, optional dependencies and
// required peer dependencies from each root with Node's resolution (nearest node_modules upwards), as the
// runtime would load them. Usage: node count-tree.mjs <app dir> <max> <root package>...  Prints the count and
// fails when it is over <max>.
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

const [appDir, maxText, ...roots] = process.argv.slice(2);
const max = Number(maxText);
if (!appDir || !Number.isInteger(max) || roots.length === 0) {
  console.error('usage: count-tree.mjs <app dir> <max> <root package>...');
  process.exit(2);
}

/** The folder of `name` as seen from `fromDir` (a package folder), or null when it is not installed. */
function locate(name, fromDir) {
  for (let dir = fromDir; ; dir = dirname(dir)) {
    const candidate = join(dir, 'node_modules', name);
    if (existsSync(join(candidate, 'package.json'))) return candidate;
    if (dirname(dir) === dir) return null;
  }
}

const seen = new Map();
const missing = [];
function visit(dir) {
  if (seen.has(dir)) return;
  const manifest = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'));
  seen.set(dir, `${manifest.name}@${manifest.version}`);
  // Optional peers are what the app chooses (a SQL driver, a dev tool): `npm install <root>` does not pull them,
  // so they count only when they are roots themselves.
  const optionalPeers = new Set(
    Object.entries(manifest.peerDependenciesMeta ?? {})
      .filter(([, meta]) => meta?.optional)
      .map(([name]) => name),
  );
  const optional = new Set(Object.keys(manifest.optionalDependencies ?? {}));
  const names = new Set([
    ...Object.keys(manifest.dependencies ?? {}),
    ...Object.keys(manifest.optionalDependencies ?? {}),
    ...Object.keys(manifest.peerDependencies ?? {}).filter((name) => !optionalPeers.has(name)),
  ]);
  for (const name of names) {
    const found = locate(name, dir);
    if (found) visit(found);
    else if (!optional.has(name)) missing.push(`${name} (wanted by ${manifest.name})`);
  }
}
for (const root of roots) {
  const dir = join(appDir, 'node_modules', root);
  if (!existsSync(join(dir, 'package.json'))) {
    console.error(`${root} is not installed in ${appDir}`);
    process.exit(1);
  }
  visit(dir);
}
const count = seen.size;
console.log(`${roots.join(' + ')}: ${count} packages (limit ${max})`);
if (missing.length > 0) {
  console.error(`missing required dependencies: ${missing.join(', ')}`);
  process.exit(1);
}
if (count > max) {
  console.error(`${roots.join(' + ')} pulls ${count} packages, more than ${max}:`);
  console.error([...seen.values()].sort().join('\n'));
  process.exit(1);
}
