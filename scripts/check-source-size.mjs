#!/usr/bin/env node
// Fails when a source file under packages/*/src or examples/*/src has more than 400 lines (one concept a file).
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';

const LIMIT = 400;
const root = process.argv[2] ?? process.cwd();

function* files(dir) {
  let entries;
  try {
    entries = readdirSync(dir);
  } catch {
    return;
  }
  for (const entry of entries) {
    if (entry === 'node_modules' || entry === 'dist') continue;
    const path = join(dir, entry);
    if (statSync(path).isDirectory()) yield* files(path);
    else if (/\.(ts|tsx|mts|js|mjs)$/.test(entry) && !entry.endsWith('.d.ts')) yield path;
  }
}

const tooLong = [];
for (const group of ['packages', 'examples']) {
  let names = [];
  try {
    names = readdirSync(join(root, group));
  } catch {
    continue;
  }
  for (const name of names) {
    for (const file of files(join(root, group, name, 'src'))) {
      const lines = readFileSync(file, 'utf8').split('\n').length - 1;
      if (lines > LIMIT) tooLong.push(`${relative(root, file)} (${lines} lines)`);
    }
  }
}
if (tooLong.length > 0) {
  console.error(`Source files over ${LIMIT} lines (split them by concept):`);
  for (const line of tooLong) console.error(`- ${line}`);
  process.exit(1);
}
console.log(`Source size check passed: no source file over ${LIMIT} lines.`);
