import { ManualClock, MessageType } from '@nimbus/core';
// docs:start
import {
  createMemoryMessageStore,
  InProcessStateChangeNotifier,
  memoryStorageProvider,
  ResolutionStatus,
  resolveSingleProvider,
  withStateChangeNotifications,
} from '@nimbus/message-store';
import { expect, it } from 'vitest';

export async function example(clock: ManualClock) {
  // Exactly one provider per application; zero or several fail fast, naming what is registered.
  const provider = resolveSingleProvider([
    memoryStorageProvider({ clock, retention: { unresolvedRetentionDays: 180 } }),
  ]);
  const notifier = new InProcessStateChangeNotifier();
  const store = withStateChangeNotifications(await provider.open(), notifier);
  const changed: string[] = [];
  notifier.subscribe((change) => {
    if (change.kind === 'endpoint') changed.push(change.endpointId);
  });

  const row = (messageType: MessageType, lastMessageId: string) => ({
    enqueuedTimeUtc: new Date(clock.now()),
    messageType,
    lastMessageId,
    eventTypeId: 'OrderPlaced',
  });

  // The outcome arrives first (e.g. auto-forward lag) ...
  await store.writeStatus({
    key: { endpointId: 'billing', eventId: 'evt-1', sessionId: 'order-42' },
    status: ResolutionStatus.Completed,
    content: row(MessageType.ResolutionResponse, 'm2'),
  });
  // ... then the late copy of the request: the guard refuses it, and `false` means "already settled".
  const written = await store.writeStatus({
    key: { endpointId: 'billing', eventId: 'evt-1', sessionId: 'order-42' },
    status: ResolutionStatus.Pending,
    content: row(MessageType.EventRequest, 'm1'),
  });

  const current = await store.getEvent({ endpointId: 'billing', eventId: 'evt-1' });
  const missing = await store.getEventInStatus({
    key: { endpointId: 'billing', eventId: 'evt-1', sessionId: 'order-42' },
    status: ResolutionStatus.Failed,
  }); // null, not an exception
  await store.close();
  return { written, status: current?.resolutionStatus, missing, changed };
}
// docs:end

it('the documentation example runs as described', async () => {
  const result = await example(new ManualClock());
  expect(result).toEqual({
    written: false,
    status: ResolutionStatus.Completed,
    missing: null,
    changed: ['billing'],
  });
});

it('a direct memory store also honours the environment setting', () => {
  expect(() => createMemoryMessageStore({ env: { NIMBUS_STORE_UNRESOLVED_RETENTION_DAYS: '400' } })).toThrow(
    /400/,
  );
});
