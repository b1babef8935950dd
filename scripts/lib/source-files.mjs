import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

const SOURCE = /\.(ts|tsx|mts|js|mjs)$/;

/**
 * Every source file below `dir` (TypeScript and JavaScript, no declarations, no dist or node_modules, and no
 * `generated` folder: code written by a generator at build, such as @nimbus/client's types, is not committed).
 */
export function* sourceFiles(dir) {
  let entries;
  try {
    entries = readdirSync(dir);
  } catch {
    return;
  }
  for (const entry of entries) {
    if (entry === 'node_modules' || entry === 'dist' || entry === 'generated') continue;
    const path = join(dir, entry);
    if (statSync(path).isDirectory()) yield* sourceFiles(path);
    else if (SOURCE.test(entry) && !entry.endsWith('.d.ts')) yield path;
  }
}

/** The package folders of the workspace: `{ dir, group }` for each folder under packages/ and examples/. */
export function workspaceFolders(root) {
  const folders = [];
  for (const group of ['packages', 'examples']) {
    let names = [];
    try {
      names = readdirSync(join(root, group));
    } catch {
      continue;
    }
    for (const name of names) folders.push({ dir: join(root, group, name), group });
  }
  return folders;
}
