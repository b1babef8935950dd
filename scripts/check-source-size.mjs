#!/usr/bin/env node
// Fails when a source file under packages/*/src or examples/*/src has more than 400 lines (one concept a file).
// Usage: node scripts/check-source-size.mjs [repo-root]
import { readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { sourceFiles, workspaceFolders } from './lib/source-files.mjs';

export const LIMIT = 400;

/** The source files under `root` with more than `LIMIT` lines, as `path (N lines)`. */
export function oversizedSourceFiles(root) {
  const tooLong = [];
  for (const { dir } of workspaceFolders(root)) {
    for (const file of sourceFiles(join(dir, 'src'))) {
      const lines = readFileSync(file, 'utf8').split('\n').length - 1;
      if (lines > LIMIT) tooLong.push(`${relative(root, file)} (${lines} lines)`);
    }
  }
  return tooLong;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const tooLong = oversizedSourceFiles(process.argv[2] ?? process.cwd());
  if (tooLong.length > 0) {
    console.error(`Source files over ${LIMIT} lines (split them by concept):`);
    for (const line of tooLong) console.error(`- ${line}`);
    process.exit(1);
  }
  console.log(`Source size check passed: no source file over ${LIMIT} lines.`);
}
