import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { expect, it } from 'vitest';
import { classifyDriverError } from '../src/index.js';

const docs = readFileSync(fileURLToPath(new URL('../../../docs/sql.md', import.meta.url)), 'utf8');

it('docs/sql.md example: a 57P01 is retryable, reason unavailable', () => {
  // --- example start ---
  const outcome = classifyDriverError(Object.assign(new Error('terminating connection'), { code: '57P01' }));
  // { isRetryable: true, reason: 'unavailable', code: '57P01' }
  // --- example end ---
  expect(outcome).toEqual({ isRetryable: true, reason: 'unavailable', code: '57P01' });
  expect(docs).toContain(
    "const outcome = classifyDriverError(Object.assign(new Error('terminating connection'), { code: '57P01' }));",
  );
  expect(docs).toContain("// { isRetryable: true, reason: 'unavailable', code: '57P01' }");
});
