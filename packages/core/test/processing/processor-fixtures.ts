import { createMemoryTransport } from '@nimbus/transport-memory';
import { afterEach, vi } from 'vitest';
import {
  Header,
  ManualClock,
  SessionProcessor,
  type SessionProcessorOptions,
  silentLogger,
  type TransportMessage,
  uuidv7,
} from '../../src/index.js';

export const INPUT = 'Erp';

export async function memorySetup(options: { lockDurationMs?: number } = {}) {
  const clock = new ManualClock();
  const transport = createMemoryTransport({ clock, ...options });
  await transport.applyTopology({ endpoints: [INPUT], routes: [] });
  const send = (sessionId: string, ...bodies: string[]) =>
    transport.publish([{ source: INPUT, messages: bodies.map((body) => message(sessionId, body)) }]);
  return { clock, transport, send };
}

export function message(sessionId: string, body: string): TransportMessage {
  return { messageId: uuidv7(), sessionId, correlationId: null, headers: { [Header.To]: INPUT }, body };
}

/** Lets promise chains and transport wake-ups run without moving any clock. */
export function settleTicks(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

export async function until(predicate: () => boolean, what: string): Promise<void> {
  await vi.waitFor(
    () => {
      if (!predicate()) throw new Error(`still waiting for: ${what}`);
    },
    { timeout: 3_000, interval: 5 },
  );
}

export function deferred(): { promise: Promise<void>; resolve: () => void } {
  let resolve!: () => void;
  const promise = new Promise<void>((r) => {
    resolve = r;
  });
  return { promise, resolve };
}

export const quietLogger = silentLogger;

/**
 * A `createProcessor` for one test file (quiet, no error back-off unless given): every processor it creates is
 * stopped after each test.
 */
export function processorsStoppedAfterEach(): (options: SessionProcessorOptions) => SessionProcessor {
  const processors: SessionProcessor[] = [];
  afterEach(async () => {
    await Promise.all(processors.splice(0).map((p) => p.stop()));
  });
  return (options) => {
    const processor = new SessionProcessor({ logger: quietLogger, errorBackoffMs: 0, ...options });
    processors.push(processor);
    return processor;
  };
}
