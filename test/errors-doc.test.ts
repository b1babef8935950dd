import { readFileSync } from 'node:fs';
import { NimBusErrorCode, RETRYABLE_BY_DEFAULT } from '@nimbus/core';
import { describe, expect, it } from 'vitest';

const errorsDoc = readFileSync(new URL('../docs/errors.md', import.meta.url), 'utf8');

interface DocumentedCode {
  readonly retryable: string;
  readonly description: string;
}

/** The rows of the `## Codes` table: `| \`Code\` | yes/no | thrown as … |`, by code. */
function documentedCodes(markdown: string): Map<string, DocumentedCode> {
  const section = markdown.split(/^## Codes$/m)[1]?.split(/^## /m)[0] ?? '';
  const rows = new Map<string, DocumentedCode>();
  for (const match of section.matchAll(/^\| `(\w+)` \|([^|]*)\|(.*)\|$/gm)) {
    rows.set(match[1]!, { retryable: match[2]!.trim(), description: match[3]!.trim() });
  }
  return rows;
}

/** What is wrong between the code list and the doc's table, one line each (empty when they agree). */
function docProblems(codes: readonly string[], retryable: ReadonlySet<string>, markdown: string): string[] {
  const documented = documentedCodes(markdown);
  const problems: string[] = [];
  for (const code of codes) {
    const row = documented.get(code);
    if (!row) problems.push(`${code}: missing from docs/errors.md`);
    else {
      if (row.description === '') problems.push(`${code}: no description`);
      const expected = retryable.has(code) ? 'yes' : 'no';
      if (row.retryable !== expected) problems.push(`${code}: retryable column says '${row.retryable}'`);
    }
  }
  for (const code of documented.keys())
    if (!codes.includes(code)) problems.push(`${code}: documented but not a NimBusErrorCode`);
  return problems;
}

describe('docs/errors.md lists every NimBusErrorCode', () => {
  it('has one row per code with a description and the retryable-by-default column of RETRYABLE_BY_DEFAULT', () => {
    expect(docProblems(Object.values(NimBusErrorCode), RETRYABLE_BY_DEFAULT, errorsDoc)).toEqual([]);
  });

  it('reports a code missing from the table, one documented that does not exist, and a wrong column', () => {
    const doc = [
      '## Codes',
      '',
      '| code | retryable by default | thrown as |',
      '|---|---|---|',
      '| `Timeout` | no | `TransportError`: too slow |',
      '| `Vanished` | no | `NimBusError`: a code that was removed |',
      '| `Closed` | no | |',
      '',
      '## After',
      '| `Later` | no | a table of another section is not read |',
    ].join('\n');
    expect(docProblems(['Timeout', 'Closed', 'Missing'], new Set(['Timeout']), doc)).toEqual([
      "Timeout: retryable column says 'no'",
      'Closed: no description',
      'Missing: missing from docs/errors.md',
      'Vanished: documented but not a NimBusErrorCode',
    ]);
  });
});
