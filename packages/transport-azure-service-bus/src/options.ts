import type { TokenCredential } from '@azure/core-auth';

export interface ServiceBusTransportOptions {
  /** A connection string (`Endpoint=sb://…`); for the emulator it ends in `UseDevelopmentEmulator=true`. */
  readonly connectionString?: string;
  /** Or a fully qualified namespace (`name.servicebus.windows.net`) with a credential (DefaultAzureCredential by default). */
  readonly namespace?: string;
  readonly credential?: TokenCredential;
  /** Lock duration of the subscriptions this transport provisions (and the lease of a session). */
  readonly lockDurationMs?: number;
  readonly maxDeliveryCount?: number;
  /** The CA of a management endpoint with a private certificate (the emulator's). */
  readonly managementCa?: string;
  /** Time the SDK may take for one operation before it fails it. */
  readonly operationTimeoutMs?: number;
  /** Server-side wait of one "next session" ask; an accept asks again until its own wait is over. */
  readonly acceptPollMs?: number;
  /**
   * Longest single wait of a session's receive. Service Bus does not tell a holder that another session got
   * work, so an idle receive comes back at least this often and its session processor can give the session up.
   */
  readonly receiveSliceMs?: number;
}

export const DEFAULT_OPTIONS = {
  lockDurationMs: 30_000,
  maxDeliveryCount: 10,
  operationTimeoutMs: 30_000,
  acceptPollMs: 500,
  receiveSliceMs: 500,
} as const;

/** Budget for one publish call; the publisher still pages each topic's messages to the sender's real batch size. */
export const MAX_BATCH_BYTES = 192 * 1024;
