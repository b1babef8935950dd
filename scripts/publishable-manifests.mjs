#!/usr/bin/env node
// Keeps every packages/*/package.json publishable: not private, licensed, truthful engines, one version for
// all NimBus packages, SQL drivers as optional peer dependencies, a README and a LICENSE (identical to the root
// one) beside it, its sources shipped so the source maps in dist resolve, and `repository`, `homepage` and
// `bugs` copied from the root manifest when it has them (it has none until the project has a public address).
// `--check` (CI) fails naming each manifest that is off; without it the manifests are rewritten in place.
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const root = process.cwd();
const check = process.argv.includes('--check');
const rootManifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
const VERSION = rootManifest.version;
const NODE_RANGE = rootManifest.engines.node;
/** Drivers the user picks: installing NimBus for PostgreSQL must not build a native SQLite module. */
const OPTIONAL_PEERS = { pg: '^8.16.0', 'better-sqlite3': '^12.11.1 || ^13.0.0' };

function normalised(manifest, name) {
  const next = structuredClone(manifest);
  delete next.private;
  next.version = VERSION;
  next.license = 'MIT';
  next.engines = { node: NODE_RANGE };
  for (const field of ['dependencies', 'devDependencies', 'peerDependencies']) {
    for (const name of Object.keys(next[field] ?? {})) {
      if (name.startsWith('@nimbus/') && field !== 'devDependencies') next[field][name] = VERSION;
    }
  }
  for (const [name, range] of Object.entries(OPTIONAL_PEERS)) {
    const used = next.dependencies?.[name] ?? next.peerDependencies?.[name];
    if (used === undefined) continue;
    delete next.dependencies[name];
    next.peerDependencies = { ...(next.peerDependencies ?? {}), [name]: range };
    next.peerDependenciesMeta = { ...(next.peerDependenciesMeta ?? {}), [name]: { optional: true } };
    next.devDependencies = { ...(next.devDependencies ?? {}), [name]: next.devDependencies?.[name] ?? used };
  }
  for (const field of ['repository', 'homepage', 'bugs']) {
    if (rootManifest[field] === undefined) continue;
    next[field] =
      field === 'repository' && typeof rootManifest.repository === 'object'
        ? { ...rootManifest.repository, directory: `packages/${name}` }
        : rootManifest[field];
  }
  const files = new Set(next.files ?? ['dist']);
  // dist/*.js.map and *.d.ts.map point at ../src: ship it, or the maps (and the `source` export) dangle.
  if (files.has('dist')) files.add('src');
  files.add('README.md');
  files.add('LICENSE');
  next.files = [...files];
  return next;
}

const problems = [];
if (!existsSync(join(root, 'LICENSE'))) {
  console.error('- LICENSE is missing at the root');
  process.exit(1);
}
const rootLicense = readFileSync(join(root, 'LICENSE'), 'utf8');
for (const name of readdirSync(join(root, 'packages'))) {
  const dir = join(root, 'packages', name);
  const path = join(dir, 'package.json');
  if (!existsSync(path)) continue;
  const text = readFileSync(path, 'utf8');
  const manifest = JSON.parse(text);
  const next = `${JSON.stringify(normalised(manifest, name), null, 2)}\n`;
  if (!existsSync(join(dir, 'README.md'))) problems.push(`packages/${name}: has no README.md`);
  const license = join(dir, 'LICENSE');
  if (!existsSync(license) || readFileSync(license, 'utf8') !== rootLicense) {
    if (check) problems.push(`packages/${name}/LICENSE is missing or differs from the root LICENSE`);
    else writeFileSync(license, rootLicense);
  }
  if (next !== text) {
    if (check)
      problems.push(
        `packages/${name}/package.json is not publishable as it is (run node scripts/publishable-manifests.mjs)`,
      );
    else writeFileSync(path, next);
  }
}
if (problems.length > 0) {
  console.error(problems.map((problem) => `- ${problem}`).join('\n'));
  process.exit(1);
}
console.log(check ? 'Manifests are publishable.' : 'Manifests normalised.');
