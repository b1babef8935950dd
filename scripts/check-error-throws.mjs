#!/usr/bin/env node
// Fails when packages/*/src creates a plain Error, TypeError or RangeError (or a class extends one directly)
// outside the allow-list next to this script (scripts/check-error-throws.json: path prefix → reason). Public
// boundaries throw NimBusError codes (docs/errors.md). Usage: node scripts/check-error-throws.mjs [repo-root]
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';

const root = process.argv[2] ?? process.cwd();
const allowed = JSON.parse(readFileSync(new URL('./check-error-throws.json', import.meta.url), 'utf8'));
const PLAIN = /\bnew (Error|TypeError|RangeError)\(|\bextends (Error|TypeError|RangeError)\b(?!\w)/g;

function* sources(dir) {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) yield* sources(path);
    else if (/\.tsx?$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name) && !entry.name.endsWith('.d.ts'))
      yield path;
  }
}

const offenders = [];
let allowedCount = 0;
for (const pkg of readdirSync(join(root, 'packages'))) {
  const src = join(root, 'packages', pkg, 'src');
  let files;
  try {
    files = [...sources(src)];
  } catch {
    continue;
  }
  for (const file of files) {
    const path = relative(root, file).split('\\').join('/');
    const lines = readFileSync(file, 'utf8').split('\n');
    lines.forEach((line, index) => {
      if (/^\s*(\/\/|\*)/.test(line)) return;
      for (const match of line.matchAll(PLAIN)) {
        if (Object.keys(allowed).some((prefix) => path.startsWith(prefix))) allowedCount += 1;
        else offenders.push(`${path}:${index + 1}: ${match[0]}`);
      }
    });
  }
}

for (const offender of offenders) console.error(offender);
console.log(
  `plain Error/TypeError/RangeError in packages/*/src: ${offenders.length} outside the allow-list, ` +
    `${allowedCount} allowed (${Object.keys(allowed).length} entries in scripts/check-error-throws.json)`,
);
if (offenders.length > 0) {
  console.error(
    'throw a NimBusError with a code (docs/errors.md), or add the path with its reason to the allow-list',
  );
  process.exit(1);
}
