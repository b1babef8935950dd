import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

// The dialects only create what the shared core calls: no file under src/dialect/ reaches the core's state
// (sql-core), its leases (held-lease) or its settlement paths (sql-settle-rows), directly or through a helper it
// imports. That keeps the type-only circle dialect ↔ sql-core ↔ held-lease ↔ settle-rows from coming back.

const SRC = resolve(dirname(fileURLToPath(import.meta.url)), '../src');
const FORBIDDEN = ['sql-core.ts', 'held-lease.ts', 'sql-settle-rows.ts'].map((file) => join(SRC, file));

/** Relative imports (`import` and `export … from`, type-only included) of a source text, as .ts paths. */
export function relativeImports(file: string, source: string): string[] {
  const specifiers = [
    ...source.matchAll(/(?:import|export)\s[^'";]*?from\s*'(\.[^']+)'|import\s*'(\.[^']+)'/g),
  ];
  return specifiers.map((match) => resolve(dirname(file), (match[1] ?? match[2])!.replace(/\.js$/, '.ts')));
}

/** For each start file, the chain of imports that reaches a forbidden file, if any. */
export function forbiddenChains(
  starts: readonly string[],
  read: (file: string) => string | null,
  forbidden: readonly string[],
): string[][] {
  const chains: string[][] = [];
  for (const start of starts) {
    const seen = new Set<string>([start]);
    const queue: string[][] = [[start]];
    while (queue.length > 0) {
      const chain = queue.shift()!;
      const file = chain.at(-1)!;
      if (forbidden.includes(file)) {
        chains.push(chain);
        break;
      }
      const source = read(file);
      if (source === null) continue;
      for (const next of relativeImports(file, source)) {
        if (seen.has(next)) continue;
        seen.add(next);
        queue.push([...chain, next]);
      }
    }
  }
  return chains;
}

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory()
      ? filesUnder(join(dir, entry.name))
      : entry.name.endsWith('.ts')
        ? [join(dir, entry.name)]
        : [],
  );
}

const readSource = (file: string) => (existsSync(file) ? readFileSync(file, 'utf8') : null);

describe('dialect imports', () => {
  it('no dialect file reaches sql-core, held-lease or sql-settle-rows, directly or through a helper', () => {
    const dialectFiles = filesUnder(join(SRC, 'dialect'));
    expect(dialectFiles.length).toBeGreaterThan(20);
    const chains = forbiddenChains(dialectFiles, readSource, FORBIDDEN).map((chain) =>
      chain.map((file) => relative(SRC, file)).join(' → '),
    );
    expect(chains).toEqual([]);
  });

  it('finds a chain through a helper, and type-only imports too', () => {
    const files: Record<string, string> = {
      [join(SRC, 'dialect/x/a.ts')]: "import { helper } from '../../helper.js';",
      [join(SRC, 'helper.ts')]: "import type { SqlCore } from './sql-core.js';",
      [join(SRC, 'dialect/x/b.ts')]: "export { thing } from '../../held-lease.js';",
      [join(SRC, 'dialect/x/c.ts')]: "import type { Tables } from '../../tables.js';",
    };
    const starts = Object.keys(files).filter((file) => file.includes('/dialect/'));
    const chains = forbiddenChains(starts, (file) => files[file] ?? null, FORBIDDEN);
    expect(chains.map((chain) => chain.map((file) => relative(SRC, file)))).toEqual([
      ['dialect/x/a.ts', 'helper.ts', 'sql-core.ts'],
      ['dialect/x/b.ts', 'held-lease.ts'],
    ]);
  });
});
