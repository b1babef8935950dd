#!/usr/bin/env node
// Fails when packages/*/src creates a plain Error, TypeError or RangeError (or a class extends one directly)
// outside the allow-list next to this script (scripts/check-error-throws.json: path prefix → reason). Public
// boundaries throw NimBusError codes (docs/errors.md). It also fails on `instanceof` against a NimBusError class:
// guards check the code (`isNimBusError(error, code)`), which still holds when two copies of a package meet in
// one process (an adapter's bundled @nimbus/core beside the host's). Usage: node scripts/check-error-throws.mjs [root]
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

const files = readdirSync(join(root, 'packages')).flatMap((pkg) => {
  try {
    return [...sources(join(root, 'packages', pkg, 'src'))];
  } catch {
    return [];
  }
});

/** Every class that extends NimBusError, directly or through another of ours. */
function nimbusErrorClasses() {
  const parents = new Map();
  for (const file of files) {
    for (const match of readFileSync(file, 'utf8').matchAll(/\bclass (\w+)(?:<[^{]*?>)? extends (\w+)/g))
      parents.set(match[1], match[2]);
  }
  const classes = new Set(['NimBusError']);
  let grew = true;
  while (grew) {
    grew = false;
    for (const [name, parent] of parents) {
      if (classes.has(parent) && !classes.has(name)) {
        classes.add(name);
        grew = true;
      }
    }
  }
  return classes;
}
const guarded = nimbusErrorClasses();

const offenders = [];
const instanceGuards = [];
let allowedCount = 0;
for (const file of files) {
  const path = relative(root, file).split('\\').join('/');
  const lines = readFileSync(file, 'utf8').split('\n');
  lines.forEach((line, index) => {
    if (/^\s*(\/\/|\*)/.test(line)) return;
    for (const match of line.matchAll(/\binstanceof (\w+)/g)) {
      if (guarded.has(match[1])) instanceGuards.push(`${path}:${index + 1}: ${match[0]}`);
    }
    for (const match of line.matchAll(PLAIN)) {
      if (Object.keys(allowed).some((prefix) => path.startsWith(prefix))) allowedCount += 1;
      else offenders.push(`${path}:${index + 1}: ${match[0]}`);
    }
  });
}

for (const offender of offenders) console.error(offender);
for (const guard of instanceGuards) console.error(`${guard} (check the code with isNimBusError instead)`);
console.log(`instanceof against a NimBusError class in packages/*/src: ${instanceGuards.length}`);
console.log(
  `plain Error/TypeError/RangeError in packages/*/src: ${offenders.length} outside the allow-list, ` +
    `${allowedCount} allowed (${Object.keys(allowed).length} entries in scripts/check-error-throws.json)`,
);
if (instanceGuards.length > 0) process.exitCode = 1;
if (offenders.length > 0) {
  console.error(
    'throw a NimBusError with a code (docs/errors.md), or add the path with its reason to the allow-list',
  );
  process.exit(1);
}
