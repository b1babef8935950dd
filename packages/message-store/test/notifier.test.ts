import { ManualClock, MessageType, silentLogger } from '@nimbus/core';
import { MessageAuditType, ResolutionStatus } from '@nimbus/message-store';
import { describe, expect, it } from 'vitest';
import {
  createMemoryMessageStore,
  InProcessStateChangeNotifier,
  type StateChange,
  withStateChangeNotifications,
} from '../src/index.js';

const row = (clock: ManualClock) => ({
  enqueuedTimeUtc: new Date(clock.now()),
  messageType: MessageType.EventRequest,
});

describe('InProcessStateChangeNotifier', () => {
  it('delivers to subscribers until they unsubscribe', async () => {
    const notifier = new InProcessStateChangeNotifier({ logger: silentLogger });
    const seen: StateChange[] = [];
    const unsubscribe = notifier.subscribe((c) => {
      seen.push(c);
    });
    await notifier.notify({ kind: 'endpoint', endpointId: 'crm' });
    await notifier.notify({ kind: 'serviceHealth', serviceId: 'Resolver' });
    unsubscribe();
    await notifier.notify({ kind: 'heartbeat', endpointId: 'crm' });
    expect(seen).toEqual([
      { kind: 'endpoint', endpointId: 'crm' },
      { kind: 'serviceHealth', serviceId: 'Resolver' },
    ]);
    expect(notifier.listenerCount).toBe(0);
  });

  it('a failing listener is logged and does not stop the others', async () => {
    const errors: string[] = [];
    const notifier = new InProcessStateChangeNotifier({
      logger: { ...silentLogger, error: (_f, m) => errors.push(m) },
    });
    const seen: string[] = [];
    notifier.subscribe(() => {
      throw new Error('listener broke');
    });
    notifier.subscribe((c) => {
      seen.push(c.kind);
    });
    await notifier.notify({ kind: 'endpoint', endpointId: 'crm' });
    expect(seen).toEqual(['endpoint']);
    expect(errors).toHaveLength(1);
  });
});

describe('withStateChangeNotifications', () => {
  it('fires after persisted writes only, never for a refused write', async () => {
    const clock = new ManualClock();
    const notifier = new InProcessStateChangeNotifier({ logger: silentLogger });
    const store = withStateChangeNotifications(createMemoryMessageStore({ clock, env: {} }), notifier);
    const seen: StateChange[] = [];
    notifier.subscribe(async (c) => {
      // The write is visible by the time listeners run.
      if (c.kind === 'endpoint')
        expect(await store.getEvent({ endpointId: c.endpointId, eventId: 'e1' })).not.toBeNull();
      seen.push(c);
    });
    await store.writeStatus({
      key: { endpointId: 'crm', eventId: 'e1', sessionId: 's1' },
      status: ResolutionStatus.Completed,
      content: row(clock),
    });
    expect(
      await store.writeStatus({
        key: { endpointId: 'crm', eventId: 'e1', sessionId: 's1' },
        status: ResolutionStatus.Pending,
        content: row(clock),
      }),
    ).toBe(false);
    await store.getEvent({ endpointId: 'crm', eventId: 'e1' });
    await store.setHeartbeat({
      endpointId: 'crm',
      heartbeat: {
        messageId: 'p1',
        startTime: new Date(clock.now()),
        receivedTime: new Date(clock.now()),
        endTime: new Date(clock.now()),
        intervalSeconds: 300,
        sdkVersion: null,
        endpointHeartbeatStatus: 'On',
      },
    });
    expect(seen).toEqual([
      { kind: 'endpoint', endpointId: 'crm' },
      { kind: 'heartbeat', endpointId: 'crm' },
    ]);
  });

  it('notifies an endpoint for an operator Comment audit only, never for the other audits', async () => {
    const clock = new ManualClock();
    const notifier = new InProcessStateChangeNotifier({ logger: silentLogger });
    const store = withStateChangeNotifications(createMemoryMessageStore({ clock, env: {} }), notifier);
    const seen: StateChange[] = [];
    notifier.subscribe((c) => {
      seen.push(c);
    });
    const audit = (auditType: MessageAuditType) =>
      store.storeMessageAudit({
        eventId: 'e1',
        endpointId: 'crm',
        audit: { auditorName: 'ann', auditTimestamp: new Date(clock.now()), auditType },
      });
    for (const type of [MessageAuditType.Retry, MessageAuditType.Resubmit, MessageAuditType.Skip])
      await audit(type);
    expect(seen).toEqual([]);
    await audit(MessageAuditType.Comment);
    expect(seen).toEqual([{ kind: 'endpoint', endpointId: 'crm' }]);
  });

  it('tells the notifier after the write committed; a failing notifier is logged, the write stands', async () => {
    const clock = new ManualClock();
    const warnings: string[] = [];
    const memory = createMemoryMessageStore({ clock, env: {} });
    const store = withStateChangeNotifications(
      memory,
      {
        notify: async () => {
          throw new Error('push hub down');
        },
      },
      { logger: { ...silentLogger, warn: (_fields, message) => warnings.push(message) } },
    );
    await expect(
      store.writeStatus({
        key: { endpointId: 'crm', eventId: 'e1', sessionId: 's1' },
        status: ResolutionStatus.Completed,
        content: row(clock),
      }),
    ).resolves.toBe(true);
    expect(await memory.getEvent({ endpointId: 'crm', eventId: 'e1' })).not.toBeNull();
    expect(warnings).toEqual(['message store: state-change notifier failed after a committed write']);
  });
});
