import { ManualClock, MessageType, silentLogger } from '@nimbus/core';
import { describe, expect, it } from 'vitest';
import {
  assertInboxConfigured,
  createInbox,
  InboxConfigurationError,
  type InboxStore,
  InboxStoreError,
  inboxGuard,
  MemoryInboxStore,
} from '../src/index.js';

const DAY = 24 * 3_600_000;

function setup(store?: InboxStore) {
  const clock = new ManualClock();
  const inboxStore = store ?? new MemoryInboxStore({ clock });
  return {
    clock,
    inbox: createInbox({
      store: inboxStore,
      retentionMs: 2 * DAY,
      cleanupIntervalMs: 15 * 60_000,
      clock,
      logger: silentLogger,
    }),
  };
}

describe('createInbox', () => {
  it('processes a new message, then reports the redelivery as a duplicate once recorded', async () => {
    const { inbox } = setup();
    expect(await inbox.check('Erp', 'm1')).toBe('process');
    await inbox.record('Erp', 'm1');
    expect(await inbox.check('Erp', 'm1')).toBe('duplicate');
    expect(await inbox.check('Crm', 'm1')).toBe('process');
  });

  it('bypasses ids that cannot be deduplicated, and never records them', async () => {
    const { inbox } = setup();
    expect(await inbox.check('Erp', '')).toBe('bypass');
    expect(await inbox.check('Erp', 'x'.repeat(513))).toBe('bypass');
    expect(await inbox.check('e'.repeat(261), 'm1')).toBe('bypass');
    await inbox.record('Erp', 'x'.repeat(513));
    expect(await inbox.check('Erp', 'x'.repeat(513))).toBe('bypass');
  });

  it('wraps store failures as transient InboxStoreError naming the operation', async () => {
    const broken: InboxStore = {
      provider: 'broken',
      hasProcessed: async () => {
        throw new Error('connection refused (secret host details)');
      },
      recordProcessed: async () => {
        throw new Error('disk full');
      },
      purgeExpired: async () => 0,
    };
    const { inbox } = setup(broken);
    const check = await inbox.check('Erp', 'm1').catch((e: unknown) => e);
    expect(check).toBeInstanceOf(InboxStoreError);
    expect(check).toMatchObject({ operation: 'check' });
    expect((check as Error).message).not.toMatch(/secret/);
    await expect(inbox.record('Erp', 'm1')).rejects.toMatchObject({
      name: 'InboxStoreError',
      operation: 'record',
    });
  });

  it('purges only records older than the retention, periodically, for its endpoint only', async () => {
    const { clock, inbox } = setup();
    await inbox.record('Erp', 'old');
    await inbox.record('Crm', 'old');
    clock.advance(DAY + 1);
    await inbox.record('Erp', 'new');
    const stop = inbox.startCleanup('Erp');
    await new Promise((r) => setImmediate(r));
    expect(await inbox.check('Erp', 'old')).toBe('duplicate'); // not yet expired
    clock.advance(DAY);
    clock.advance(15 * 60_000);
    await new Promise((r) => setImmediate(r));
    await new Promise((r) => setImmediate(r));
    expect(await inbox.check('Erp', 'old')).toBe('process');
    expect(await inbox.check('Erp', 'new')).toBe('duplicate');
    expect(await inbox.check('Crm', 'old')).toBe('duplicate');
    await stop();
  });
});

describe('inboxGuard', () => {
  it('skips a duplicate request with reason DuplicateDetected and guards a fresh one', async () => {
    const { inbox } = setup();
    const request = { messageId: 'm1', messageType: MessageType.EventRequest };
    expect(await inboxGuard(inbox, 'Erp', request)).toEqual({ action: 'process', guarded: true });
    await inbox.record('Erp', 'm1');
    expect(await inboxGuard(inbox, 'Erp', request)).toEqual({ action: 'skip', reason: 'DuplicateDetected' });
    expect(
      await inboxGuard(inbox, 'Erp', { ...request, messageType: MessageType.RetryRequest }),
    ).toMatchObject({
      action: 'skip',
    });
  });

  it('does not guard message types that do not run the handler', async () => {
    const { inbox } = setup();
    await inbox.record('Erp', 'm1');
    for (const messageType of [
      MessageType.SkipRequest,
      MessageType.HandoffCompletedRequest,
      MessageType.ResolutionResponse,
    ]) {
      expect(await inboxGuard(inbox, 'Erp', { messageId: 'm1', messageType })).toEqual({
        action: 'process',
        guarded: false,
      });
    }
  });
});

describe('assertInboxConfigured', () => {
  it('fails fast when the inbox is enabled without a store, naming the endpoint and the fix', () => {
    expect(() => assertInboxConfigured({}, 'Erp')).toThrow(InboxConfigurationError);
    expect(() => assertInboxConfigured(undefined, 'Erp')).toThrow(
      /Inbox of endpoint Erp is enabled but has no store/,
    );
    expect(() => assertInboxConfigured({ store: {} as InboxStore }, 'Erp')).toThrow(
      /no hasProcessed function/,
    );
    expect(() => assertInboxConfigured({ store: new MemoryInboxStore(), retentionMs: 0 }, 'Erp')).toThrow(
      /retentionMs/,
    );
    expect(() => assertInboxConfigured({ store: new MemoryInboxStore() }, 'Erp')).not.toThrow();
  });
});
