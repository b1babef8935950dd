import {
  Addresses,
  encodeEnvelope,
  type Logger,
  ManualClock,
  type MessageEnvelope,
  RESOLVER_INPUT,
  type TransportMessage,
} from '@nimbus/core';
import {
  createMemoryMessageStore,
  InProcessStateChangeNotifier,
  type MessageStateChangeNotifier,
  type OpenMessageStore,
  type StateChange,
  withStateChangeNotifications,
} from '@nimbus/message-store';
import { ResolverHandler, type ResolverStore } from '@nimbus/resolver';
import { createMemoryTransport, type MemoryTransport } from '@nimbus/transport-memory';

export const ENDPOINTS = ['Crm', 'Billing', 'Erp'];

export interface LogLine {
  readonly level: keyof Logger;
  readonly message: string;
  readonly fields: Record<string, unknown>;
}

export function recordingLogger(lines: LogLine[]): Logger {
  const at =
    (level: keyof Logger) =>
    (fields: Record<string, unknown>, message: string): void => {
      lines.push({ level, message, fields });
    };
  return { debug: at('debug'), info: at('info'), warn: at('warn'), error: at('error') };
}

export interface Harness {
  readonly clock: ManualClock;
  readonly transport: MemoryTransport;
  readonly memoryStore: OpenMessageStore;
  readonly handler: ResolverHandler;
  readonly changes: StateChange[];
  readonly logs: LogLine[];
  /** Puts a message on the Resolver input the way routing would: requests as copies, responses with `From`. */
  send(message: MessageEnvelope | TransportMessage): Promise<void>;
  /** Hands every visible Resolver-input message to the handler, session by session, until none is left. */
  drain(): Promise<number>;
}

export interface HarnessOptions {
  readonly store?: (memory: OpenMessageStore) => ResolverStore;
  /** Replaces the recording notifier the store tells (e.g. one that fails). */
  readonly notifier?: MessageStateChangeNotifier;
}

export async function createHarness(options: HarnessOptions = {}) {
  const clock = new ManualClock(Date.UTC(2026, 5, 1, 12));
  const transport = createMemoryTransport({ clock });
  await transport.applyTopology({ endpoints: ENDPOINTS, routes: [] });
  const memoryStore = createMemoryMessageStore({ clock, env: {} });
  const notifier = new InProcessStateChangeNotifier();
  const changes: StateChange[] = [];
  notifier.subscribe((change) => {
    changes.push(change);
  });
  const logs: LogLine[] = [];
  // The store is the one emitter: its notification link tells the notifier after each committed write.
  const handler = new ResolverHandler({
    store: withStateChangeNotifications(
      options.store ? options.store(memoryStore) : memoryStore,
      options.notifier ?? notifier,
      { logger: recordingLogger(logs) },
    ),
    logger: recordingLogger(logs),
    clock,
    version: '9.9.9-test',
    auditorName: 'Manager',
  });
  const harness: Harness = {
    clock,
    transport,
    memoryStore,
    handler,
    changes,
    logs,
    async send(message) {
      const wire = 'headers' in message ? message : encodeEnvelope(message);
      const to = wire.headers.To;
      const from = wire.headers.From ?? Addresses.manager;
      // `To = Resolver` is stamped with the source as `From`; `To = source` copies to the Resolver.
      const source = to === Addresses.resolver ? from : (to ?? from);
      await transport.publish([{ source, messages: [wire] }]);
    },
    async drain() {
      let handled = 0;
      for (let round = 0; round < 1000; round++) {
        const session = await transport.acceptSession(RESOLVER_INPUT, { waitMs: 0 });
        if (!session) return handled;
        try {
          for (;;) {
            const batch = await session.receive({ max: 50, waitMs: 0 });
            if (batch.length === 0) break;
            for (const message of batch) {
              await handler.handleMessage(session, message);
              handled += 1;
            }
          }
        } finally {
          await session.release();
        }
      }
      throw new Error('drain did not finish in 1000 sessions');
    },
  };
  return harness;
}
