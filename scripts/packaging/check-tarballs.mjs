#!/usr/bin/env node
// Checks unpacked tarballs (one folder per tarball, each holding `package/`): every one has a LICENSE identical to
// the repository's, and every source map's `sources` exist in the same tarball.
// Usage: node check-tarballs.mjs <root LICENSE> <unpacked dir>...
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';

const [licensePath, ...unpacked] = process.argv.slice(2);
const license = readFileSync(licensePath, 'utf8');
const problems = [];
let maps = 0;

function* files(dir) {
  for (const entry of readdirSync(dir)) {
    const path = join(dir, entry);
    if (statSync(path).isDirectory()) yield* files(path);
    else yield path;
  }
}

for (const dir of unpacked) {
  const pkg = join(dir, 'package');
  const name = JSON.parse(readFileSync(join(pkg, 'package.json'), 'utf8')).name;
  const licenseFile = join(pkg, 'LICENSE');
  if (!existsSync(licenseFile)) problems.push(`${name}: the tarball has no LICENSE`);
  else if (readFileSync(licenseFile, 'utf8') !== license)
    problems.push(`${name}: LICENSE differs from the root one`);
  for (const file of files(pkg)) {
    if (!file.endsWith('.map')) continue;
    maps += 1;
    const map = JSON.parse(readFileSync(file, 'utf8'));
    const base = resolve(dirname(file), map.sourceRoot ?? '');
    for (const source of map.sources ?? []) {
      const target = resolve(base, source);
      if (!target.startsWith(`${pkg}/`) || !existsSync(target))
        problems.push(`${name}: ${relative(pkg, file)} points at ${source}, which is not in the tarball`);
    }
  }
}
if (problems.length > 0) {
  console.error(problems.slice(0, 50).join('\n'));
  if (problems.length > 50) console.error(`… and ${problems.length - 50} more`);
  process.exit(1);
}
console.log(`tarballs: ${unpacked.length} with LICENSE, ${maps} source maps resolve inside their tarball`);
