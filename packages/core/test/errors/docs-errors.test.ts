// docs/errors.md: its example is the code below (compiled and run here), its code table is the one in the source.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import * as core from '../../src/index.js';
import {
  causeChain,
  isNimBusError,
  isRetryableError,
  NimBusErrorCode,
  PermanentFailureError,
  RETRYABLE_BY_DEFAULT,
  TransientError,
  TransportError,
  TransportErrorCode,
} from '../../src/index.js';

const docs = readFileSync(fileURLToPath(new URL('../../../../docs/errors.md', import.meta.url)), 'utf8');
const ownSource = readFileSync(fileURLToPath(import.meta.url), 'utf8');

function between(text: string, start: string, end: string): string {
  const from = text.indexOf(start);
  const to = text.indexOf(end, from + start.length);
  if (from < 0 || to < 0) throw new Error(`no '${start}' … '${end}' section`);
  return text.slice(from + start.length, to);
}

function dedent(text: string): string {
  const lines = text
    .split('\n')
    .filter((line, i, all) => line.trim() !== '' || (i > 0 && i < all.length - 1));
  const indent = Math.min(...lines.filter((l) => l.trim()).map((l) => l.match(/^ */)![0].length));
  return lines
    .map((line) => line.slice(indent))
    .join('\n')
    .trim();
}

describe('docs/errors.md', () => {
  it('the example runs as documented', async () => {
    // --- example start ---
    /** A handler's dependency: a 503 of the ERP API is worth another delivery, a 400 is not. */
    async function postOrder(send: () => Promise<Response>): Promise<void> {
      const response = await send();
      if (response.status === 503) {
        throw new TransientError(`ERP answered 503 (${response.statusText})`, {
          cause: new Error(await response.text()),
        });
      }
      if (!response.ok) throw new Error(`ERP refused the order: ${response.status}`);
    }

    const failure = await postOrder(async () => new Response('maintenance', { status: 503 })).catch(
      (error: unknown) => error,
    );
    isRetryableError(failure); // true: the engine abandons the message, it is delivered again
    isNimBusError(failure, NimBusErrorCode.Transient); // true
    causeChain(failure).length; // 2: the TransientError and the ERP's answer
    // --- example end ---
    expect(isRetryableError(failure)).toBe(true);
    expect(isNimBusError(failure, NimBusErrorCode.Transient)).toBe(true);
    expect(causeChain(failure)).toHaveLength(2);
    const refused = await postOrder(async () => new Response('bad', { status: 400 })).catch(
      (e: unknown) => e,
    );
    expect(isRetryableError(refused)).toBe(false);

    const block = between(docs, '```ts\n', '```');
    const body = dedent(between(ownSource, '// --- example start ---', '// --- example end ---'));
    expect(block.trim().endsWith(body)).toBe(true);
    const imported = between(block, 'import {', "} from '@nimbus/core';")
      .split(',')
      .map((name) => name.trim())
      .filter(Boolean);
    for (const name of imported) expect(core, name).toHaveProperty(name);
  });

  it('the code table lists every code once, with its retryable default', () => {
    const rows = [...docs.matchAll(/^\| `(\w+)` \| (yes|no) \|/gm)].map(([, code, retryable]) => ({
      code,
      retryable: retryable === 'yes',
    }));
    expect(rows.map((row) => row.code)).toEqual(Object.values(NimBusErrorCode));
    for (const { code, retryable } of rows) {
      expect(RETRYABLE_BY_DEFAULT.has(code as NimBusErrorCode), code).toBe(retryable);
    }
  });
});

describe('NimBusError', () => {
  it('every transport code keeps its family and its default; an explicit isRetryable wins', () => {
    for (const code of Object.values(TransportErrorCode)) {
      const error = new TransportError(code, 'x');
      expect(isNimBusError(error, code)).toBe(true);
      expect(error.isRetryable).toBe(RETRYABLE_BY_DEFAULT.has(code));
    }
    const cause = new Error('driver');
    const classified = new TransportError(TransportErrorCode.Timeout, 'x', { cause, isRetryable: false });
    expect(classified).toMatchObject({ isRetryable: false, cause, name: 'TransportError' });
  });

  it('only NimBus errors that say so are retryable', () => {
    expect(isRetryableError(new Error('plain'))).toBe(false);
    expect(isRetryableError(Object.assign(new Error('duck'), { isRetryable: true }))).toBe(false);
    expect(isRetryableError(new PermanentFailureError('bad payload'))).toBe(false);
    expect(new PermanentFailureError('bad payload')).toMatchObject({
      code: NimBusErrorCode.PermanentFailure,
      name: 'PermanentFailureError',
    });
  });
});
