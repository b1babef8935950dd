// Builds the UI (npm run build:ui) only when its inputs changed since the last build: `npm start` on an
// unchanged, built clone must not spend two minutes rebuilding the same bundle. The inputs are every source the
// bundle or its generated API types can depend on (the workspace's package sources, the UI, the scripts, the
// package manifests and the lockfile); their hash is stamped into ui/dist after a build. A missing or
// different stamp (or a missing bundle) builds again. NIMBUS_FORCE_UI_BUILD=1 always builds. `--stamp` only
// writes the stamp: `npm run build:ui` ends with it, so the bundle `npm ci` (its prepare step: npm run build) made
// is known to be current and the first `npm start` after it does not build it again.
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const webapp = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const root = resolve(webapp, '../..');
const dist = join(webapp, 'ui/dist');
const stamp = join(dist, '.inputs-sha256');
const SKIP = new Set(['node_modules', 'dist', '.git', 'generated', 'test', '.nimbus']);

function files(dir) {
  if (!existsSync(dir)) return [];
  const out = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (SKIP.has(entry.name)) continue;
    const path = join(dir, entry.name);
    if (entry.isDirectory()) out.push(...files(path));
    else if (entry.isFile()) out.push(path);
  }
  return out;
}

function inputsHash() {
  const packages = readdirSync(join(root, 'packages')).map((name) => join(root, 'packages', name));
  const inputs = [
    ...packages.flatMap((dir) => [...files(join(dir, 'src')), join(dir, 'package.json')]),
    ...files(join(webapp, 'ui')),
    ...files(join(webapp, 'scripts')),
    join(root, 'package.json'),
    join(root, 'package-lock.json'),
  ].filter((path) => existsSync(path) && statSync(path).isFile());
  const hash = createHash('sha256');
  for (const path of inputs.sort()) {
    hash.update(relative(root, path));
    hash.update('\0');
    hash.update(readFileSync(path));
    hash.update('\0');
  }
  return hash.digest('hex');
}

const current = inputsHash();
if (process.argv.includes('--stamp')) {
  writeFileSync(stamp, `${current}\n`);
  process.exit(0);
}
const built =
  existsSync(join(dist, 'index.html')) && existsSync(stamp) ? readFileSync(stamp, 'utf8').trim() : '';
if (built === current && process.env.NIMBUS_FORCE_UI_BUILD !== '1') {
  console.log('WebApp UI is up to date (inputs unchanged since its last build); not rebuilding.');
} else {
  // build:ui stamps the bundle when it is written.
  execFileSync('npm', ['run', 'build:ui'], { cwd: webapp, stdio: 'inherit' });
}
