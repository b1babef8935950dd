import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
// @ts-expect-error plain ESM script without type declarations
import { LIMIT, oversizedSourceFiles } from '../scripts/check-source-size.mjs';

const repo = join(dirname(fileURLToPath(import.meta.url)), '..');
const roots: string[] = [];

function workspace(files: Record<string, string>): string {
  const root = mkdtempSync(join(tmpdir(), 'source-checks-'));
  roots.push(root);
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), text);
  }
  return root;
}

afterEach(() => {
  for (const root of roots.splice(0)) rmSync(root, { recursive: true, force: true });
});

const linesOf = (count: number) =>
  Array.from({ length: count }, (_, i) => `export const v${i} = ${i};\n`).join('');

describe('source size check (scripts/check-source-size.mjs)', () => {
  it(`passes a file of exactly ${LIMIT} lines`, () => {
    const root = workspace({ 'packages/core/src/ok.ts': linesOf(LIMIT) });
    expect(oversizedSourceFiles(root)).toEqual([]);
  });

  it('fails on a source file one line over the limit, naming it', () => {
    const root = workspace({
      'packages/core/src/ok.ts': linesOf(10),
      'packages/core/src/deep/too-long.ts': linesOf(LIMIT + 1),
      // Tests are not source files: a long test is not reported.
      'packages/core/test/long.test.ts': linesOf(LIMIT + 50),
    });
    expect(oversizedSourceFiles(root)).toEqual([`packages/core/src/deep/too-long.ts (${LIMIT + 1} lines)`]);
  });
});

/** A function of `lines` lines whose statements differ only by their index (enough tokens to count). */
function block(name: string, lines: number): string {
  const body = Array.from(
    { length: lines - 3 },
    (_, i) => `  total += input[${i}] ?? ${i} * 3 + Math.max(total, ${i});`,
  );
  return [
    `export function ${name}(input: readonly number[]): number {`,
    '  let total = 0;',
    ...body,
    '  return total;',
    '}',
    '',
  ].join('\n');
}

/** Runs the repository's jscpd configuration (`npm run check:copies`) over `root`. */
function checkCopies(root: string): { status: number | null; output: string } {
  copyFileSync(join(repo, '.jscpd.json'), join(root, '.jscpd.json'));
  // Every folder the configuration names must exist, as in the repository.
  for (const path of ['packages', 'test']) mkdirSync(join(root, path), { recursive: true });
  const result = spawnSync(
    process.execPath,
    [join(repo, 'node_modules/jscpd/dist/bin/jscpd.js'), '--config', '.jscpd.json', '--silent'],
    { cwd: root, encoding: 'utf8' },
  );
  return { status: result.status, output: `${result.stdout}${result.stderr}` };
}

describe('copy check (npm run check:copies, .jscpd.json)', () => {
  it('passes when packages share no block over 10 lines', () => {
    const root = workspace({
      'packages/a/src/a.ts': `export const a = 'first';\n${block('sumA', 6)}`,
      'packages/b/src/b.ts': `export const b = 'second';\n${block('sumB', 6)}`,
    });
    expect(checkCopies(root)).toMatchObject({ status: 0 });
  });

  it('fails on a block of 14 lines copied between two packages', () => {
    const root = workspace({
      'packages/a/src/a.ts': `export const a = 'first';\n${block('sum', 14)}`,
      'packages/b/src/b.ts': `export const b = 'second';\n${block('sum', 14)}`,
    });
    const { status, output } = checkCopies(root);
    expect(status).toBe(1);
    expect(output).toContain('too many duplicates');
  });

  /** A workspace where the same 14-line block stands in the two files. */
  const copiedBetween = (first: string, second: string) =>
    workspace({
      [first]: `export const a = 'first';\n${block('sum', 14)}`,
      [second]: `export const b = 'second';\n${block('sum', 14)}`,
    });

  it.each([
    ["two packages' tests", 'packages/a/test/a.test.ts', 'packages/b/test/support/b.ts'],
    ['a package and the top-level test folder', 'packages/a/src/a.ts', 'test/chaos/b.ts'],
    ['two UI .tsx files', 'packages/webapp/ui/src/A.tsx', 'packages/webapp/ui/src/pages/B.tsx'],
  ])('fails on a block copied between %s', (_where, first, second) => {
    expect(checkCopies(copiedBetween(first, second))).toMatchObject({ status: 1 });
  });

  it('passes a copy between jscpd ignore markers (the few intentional ones, each with its reason)', () => {
    const marked = (name: string) =>
      `export const ${name} = 1;\n/* jscpd:ignore-start */ // a docs example, kept whole\n${block('sum', 14)}/* jscpd:ignore-end */\n`;
    const root = workspace({
      'packages/a/test/a.test.ts': marked('a'),
      'packages/b/test/b.test.ts': marked('b'),
    });
    expect(checkCopies(root)).toMatchObject({ status: 0 });
  });
});
