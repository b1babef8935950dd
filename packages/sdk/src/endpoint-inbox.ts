import { type MessageEngineOptions, NimBusError, NimBusErrorCode } from '@nimbus/core';

/**
 * The inbox an endpoint host deduplicates with: `createInbox({ store, retentionMs, cleanupIntervalMs })` of
 * `@nimbus/reliability` fits. Typed structurally so the SDK does not depend on that package.
 */
export interface EndpointInbox extends NonNullable<MessageEngineOptions['inbox']> {
  /** Where records live; an inbox without one cannot deduplicate anything. */
  readonly store: unknown;
  /** Starts purging this endpoint's expired records; returns the function that stops it. */
  startCleanup?(endpointId: string): () => Promise<void>;
}

/** The endpoint host was given options it cannot run with. */
export class EndpointHostConfigurationError extends NimBusError<typeof NimBusErrorCode.InvalidOption> {
  override readonly name = 'EndpointHostConfigurationError';
  constructor(message: string, options?: { cause?: unknown }) {
    super(NimBusErrorCode.InvalidOption, message, options);
  }
}

/** Fails fast when the inbox is turned on but cannot work, naming the endpoint and what to pass. */
export function assertEndpointInbox(inbox: unknown, endpointId: string): asserts inbox is EndpointInbox {
  const where = `The inbox of endpoint '${endpointId}'`;
  const guidance =
    'pass inbox: createInbox({ store: new MemoryInboxStore() | createSqliteInboxStore(db) | createPostgresInboxStore(pool) }) from @nimbus/reliability';
  if (typeof inbox !== 'object' || inbox === null) {
    throw new EndpointHostConfigurationError(`${where} is enabled but is not an inbox: ${guidance}`);
  }
  const candidate = inbox as Partial<EndpointInbox>;
  if (!candidate.store) {
    throw new EndpointHostConfigurationError(`${where} is enabled but has no store: ${guidance}`);
  }
  for (const method of ['check', 'record'] as const) {
    if (typeof candidate[method] !== 'function') {
      throw new EndpointHostConfigurationError(`${where} has no ${method}() function: ${guidance}`);
    }
  }
}
