import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { silentLogger } from '@nimbus/core';
import type { StateChange } from '@nimbus/message-store';
import { afterEach, describe, expect, it } from 'vitest';
import {
  createSqlStateChangeNotifier,
  decodeChanges,
  encodeChanges,
  MAX_PAYLOAD_BYTES,
  type SqlStateChangeNotifier,
} from '../src/index.js';

async function until(check: () => boolean, timeoutMs = 5_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe('state-change payloads', () => {
  it('round-trips ids and splits batches under the NOTIFY payload limit', () => {
    const changes: StateChange[] = Array.from({ length: 2_000 }, (_, i) => ({
      kind: 'endpoint',
      endpointId: `Endpoint-${i}`,
    }));
    changes.push({ kind: 'heartbeat', endpointId: 'Erp' }, { kind: 'serviceHealth', serviceId: 'Resolver' });
    const payloads = encodeChanges(changes);
    expect(payloads.length).toBeGreaterThan(1);
    for (const payload of payloads) expect(Buffer.byteLength(payload)).toBeLessThanOrEqual(MAX_PAYLOAD_BYTES);
    expect(payloads.flatMap(decodeChanges)).toEqual(changes);
  });

  it('turns an id too long for any payload, and an unreadable payload, into a resync', () => {
    const [payload] = encodeChanges([{ kind: 'endpoint', endpointId: 'x'.repeat(MAX_PAYLOAD_BYTES) }]);
    expect(decodeChanges(payload ?? '')).toEqual([{ kind: 'resync' }]);
    expect(decodeChanges('not json')).toEqual([{ kind: 'resync' }]);
  });
});

describe('SQLite cross-process notifier (two notifiers on one change log, as two processes)', () => {
  let dir: string;
  const open: SqlStateChangeNotifier[] = [];
  afterEach(async () => {
    for (const notifier of open.splice(0)) await notifier.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  async function openTwo(): Promise<[SqlStateChangeNotifier, SqlStateChangeNotifier]> {
    dir = mkdtempSync(join(tmpdir(), 'nimbus-notify-'));
    const options = {
      dialect: 'sqlite' as const,
      filename: join(dir, 'store.db'),
      logger: silentLogger,
      pollMs: 25,
    };
    const a = await createSqlStateChangeNotifier(options);
    const b = await createSqlStateChangeNotifier(options);
    open.push(a, b);
    return [a, b];
  }

  it('a change reported by one is heard by both, coalesced, and changes before start are not replayed', async () => {
    const [writer, reader] = await openTwo();
    const heardByReader: StateChange[] = [];
    const heardByWriter: StateChange[] = [];
    reader.subscribe((change) => void heardByReader.push(change));
    writer.subscribe((change) => void heardByWriter.push(change));
    for (let i = 0; i < 50; i++) await writer.notify({ kind: 'endpoint', endpointId: 'Erp' });
    await writer.notify({ kind: 'heartbeat', endpointId: 'Crm' });
    await writer.notify({ kind: 'serviceHealth', serviceId: 'Resolver' });
    await writer.notify({ kind: 'endpoint', endpointId: '' });
    await writer.flush();
    const expected = [
      { kind: 'endpoint', endpointId: 'Erp' },
      { kind: 'heartbeat', endpointId: 'Crm' },
      { kind: 'serviceHealth', serviceId: 'Resolver' },
    ];
    await until(() => heardByReader.length >= 3 && heardByWriter.length >= 3);
    expect(heardByReader).toEqual(expected);
    expect(heardByWriter).toEqual(expected);

    const late = await createSqlStateChangeNotifier({
      dialect: 'sqlite',
      filename: join(dir, 'store.db'),
      logger: silentLogger,
      pollMs: 25,
    });
    open.push(late);
    const heardLate: StateChange[] = [];
    late.subscribe((change) => void heardLate.push(change));
    await reader.notify({ kind: 'endpoint', endpointId: 'Crm' });
    await reader.flush();
    await until(() => heardLate.length >= 1);
    expect(heardLate).toEqual([{ kind: 'endpoint', endpointId: 'Crm' }]);
  });

  it('has the shared lifecycle shape', async () => {
    const [a] = await openTwo();
    expect(a.state).toBe('running');
    expect(a.listening).toBe(true);
    await a[Symbol.asyncDispose]();
    expect(a.state).toBe('stopped');
    expect(a.listening).toBe(false);
  });
});
