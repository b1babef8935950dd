import { SessionProcessor, silentLogger } from '@nimbus/core';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { direct, type SqliteFixture, sqliteFixture, topology } from './fixtures.js';

let fixture: SqliteFixture | undefined;
let processor: SessionProcessor | undefined;
afterEach(async () => {
  await processor?.stop();
  processor = undefined;
  await fixture?.cleanup();
  fixture = undefined;
});

describe('fair turns over the SQL transport (SQLite)', () => {
  it('with more active sessions than slots, every session gets its first turn within one round of turns', async () => {
    fixture = sqliteFixture();
    const transport = await fixture.open({ lockDurationMs: 10_000 });
    await transport.applyTopology(topology);
    const sessions = 40;
    const perSession = 8;
    const budget = 2;
    for (let i = 0; i < perSession; i++) {
      await transport.publish([
        {
          source: 'Erp',
          messages: Array.from({ length: sessions }, (_, s) => direct('Erp', `key-${s}`, { i })),
        },
      ]);
    }
    const handled: string[] = [];
    const order = new Map<string, number[]>();
    processor = new SessionProcessor({
      transport,
      input: 'Erp',
      logger: silentLogger,
      maxConcurrentSessions: 4,
      maxMessagesPerTurn: budget,
      handler: {
        async handleMessage(session, message) {
          handled.push(session.sessionId);
          const { i } = JSON.parse(message.body) as { i: number };
          order.set(session.sessionId, [...(order.get(session.sessionId) ?? []), i]);
          await session.complete(message);
        },
      },
    });
    await processor.start();
    await vi.waitFor(
      () => {
        if (handled.length < sessions * perSession) throw new Error(`handled ${handled.length}`);
      },
      { timeout: 20_000, interval: 20 },
    );
    const first = new Map<string, number>();
    handled.forEach((sessionId, index) => {
      if (!first.has(sessionId)) first.set(sessionId, index);
    });
    expect(first.size).toBe(sessions);
    // One round is sessions × budget messages; the slots' turns overlap by at most one turn each.
    expect(Math.max(...first.values())).toBeLessThan(sessions * budget + 4 * budget);
    const inOrder = Array.from({ length: perSession }, (_, i) => i);
    for (const list of order.values()) expect(list).toEqual(inOrder);
  });
});
