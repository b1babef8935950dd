import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
// @ts-expect-error plain ESM script without type declarations
import { LAYERS } from '../scripts/check-layers.mjs';
// @ts-expect-error plain ESM script without type declarations
import { sourceFiles } from '../scripts/lib/source-files.mjs';

/**
 * docs/architecture.md makes claims a reader acts on; the ones the code can answer are checked here, so the
 * page cannot drift from the code unnoticed (issue #30: 3 of 8 sampled claims had become false).
 */
const root = join(import.meta.dirname, '..');
// Fenced blocks (the layer diagram) hold no inline code, and their ``` would pair the backticks wrongly.
const doc = readFileSync(join(root, 'docs/architecture.md'), 'utf8').replace(/^```[\s\S]*?^```$/gm, '');
const packageFolders = readdirSync(join(root, 'packages'));

function manifestOf(folder: string): { name: string; exports?: Record<string, unknown> } {
  return JSON.parse(readFileSync(join(root, 'packages', folder, 'package.json'), 'utf8'));
}

function backticked(text: string): string[] {
  return [...text.matchAll(/`([^`]+)`/g)].map((match) => match[1] as string);
}

/** The packages named in the doc line that starts with `label` (a sentence the test keeps true). */
function claimedPackages(label: string): string[] {
  const line = doc.split('\n').find((candidate) => candidate.includes(label));
  if (!line) throw new Error(`docs/architecture.md has no line with "${label}"`);
  return backticked(line.slice(line.indexOf(label) + label.length)).sort();
}

/** Folder names of the packages whose src matches `pattern` in at least one file. */
function packagesWhoseSource(pattern: RegExp): string[] {
  return packageFolders
    .filter((folder) =>
      [...(sourceFiles(join(root, 'packages', folder, 'src')) as Iterable<string>)].some((file) =>
        pattern.test(readFileSync(file, 'utf8')),
      ),
    )
    .sort();
}

describe('docs/architecture.md tells the truth', () => {
  it('its layer table is the one scripts/check-layers.mjs enforces', () => {
    const rows = doc.split('\n').filter((line) => /^\| \d — /.test(line));
    const documented = rows.map((row) => {
      const layerColumn = row.split('|')[2] ?? '';
      return backticked(layerColumn).map((name) => `@nimbus/${name}`);
    });
    expect(documented).toEqual(LAYERS);
  });

  it('every @nimbus entry point it names exists in that package’s exports map', () => {
    const named = new Set(
      backticked(doc).flatMap((text) =>
        [...text.matchAll(/@nimbus\/[a-z-]+(?:\/[a-z-]+)?/g)].map((m) => m[0]),
      ),
    );
    const missing: string[] = [];
    for (const specifier of named) {
      const [, name, subpath] = /^@nimbus\/([a-z-]+)(?:\/([a-z-]+))?$/.exec(specifier) ?? [];
      const folder = packageFolders.find((candidate) => manifestOf(candidate).name === `@nimbus/${name}`);
      const exportsMap = folder ? (manifestOf(folder).exports ?? {}) : undefined;
      if (!exportsMap || !((subpath ? `./${subpath}` : '.') in exportsMap)) missing.push(specifier);
    }
    expect(named.size).toBeGreaterThan(5);
    expect(missing).toEqual([]);
  });

  it('names the packages that load a database driver at run time', () => {
    // A value import of the driver, or its name handed to a loader (type-only imports load nothing).
    const loaders = packagesWhoseSource(
      /^import (?!type )[^;]*from '(pg|better-sqlite3)'|\(\s*'(pg|better-sqlite3)'/m,
    );
    expect(claimedPackages('Packages that load a database driver at run time:')).toEqual(loaders);
  });

  it('names the packages that create a Kysely instance', () => {
    expect(claimedPackages('Packages that create a Kysely instance:')).toEqual(
      packagesWhoseSource(/new Kysely\b/),
    );
  });

  it('names the packages that emit state changes and the ones that use the one tracing wrapper', () => {
    expect(claimedPackages('Packages that emit state changes (`notifyAfterCommit`):')).toEqual(
      packagesWhoseSource(/\bnotifyAfterCommit\(/),
    );
    expect(claimedPackages('Packages that wrap calls in `tracedCall`:')).toEqual(
      packagesWhoseSource(/\btracedCall\(/),
    );
  });

  it('names the services that use no provider package (written against the two SPIs only)', () => {
    const providers =
      /from '@nimbus\/(transport-sql|transport-azure-service-bus|message-store-sql|message-store-cosmos)['/]/;
    const services = ['resolver', 'webapp'];
    const spiOnly = services.filter((folder) => !packagesWhoseSource(providers).includes(folder)).sort();
    expect(claimedPackages('Services written against the two SPIs only:')).toEqual(spiOnly);
  });
});
