import { createHash } from 'node:crypto';
import type { ServiceBusMessage, ServiceBusReceivedMessage } from '@azure/service-bus';
import type { InputState, StoredCustomCheck } from '@nimbus/core';

// How the console's control state is kept on Service Bus (see docs/transport-azure-service-bus.md, "Where the
// pause state lives"): one queue, a message per version of each document, the newest version of a key wins.

/** The queue holding the control documents (topics and queues share one name space: no endpoint may take it). */
export const CONTROL_QUEUE = 'nimbus.input-control';
export const CONTROL_KEY_PROPERTY = 'NimBusControlKey';
export const CONTROL_VERSION_PROPERTY = 'NimBusControlVersion';
/** How many of the latest writes a document remembers, so a writer can tell its own write was taken. */
export const REMEMBERED_WRITES = 16;

export type InputDocument = Omit<InputState, 'changedAt'> & { readonly changedAt: string | null };
export type CheckDocument = Omit<StoredCustomCheck, 'checkedAt' | 'endpointId'> & {
  readonly checkedAt: string;
};

export interface ControlDocument {
  /** Set on the `input/…` documents. */
  readonly input?: InputDocument;
  /** Set on the `checks/…` documents: the endpoint's checks by name. */
  readonly checks?: { readonly endpointId: string; readonly results: readonly CheckDocument[] };
  /** Ids of the latest writes, newest last: each version carries its predecessors' ids on. */
  readonly writes: readonly string[];
}

export interface StoredDocument {
  readonly key: string;
  readonly version: number;
  readonly sequenceNumber: bigint;
  readonly document: ControlDocument;
}

export const inputKey = (input: string): string => `input/${input.toLowerCase()}`;
export const checksKey = (endpointId: string): string => `checks/${endpointId}`;

/**
 * A version's message id: duplicate detection drops a second write of the same version of the same key, so of two
 * writers who read the same version only the first one's next version is stored.
 */
export function versionMessageId(key: string, version: number): string {
  return `${createHash('sha256').update(key).digest('hex').slice(0, 40)}.${version}`;
}

export function toControlMessage(key: string, version: number, document: ControlDocument): ServiceBusMessage {
  return {
    messageId: versionMessageId(key, version),
    contentType: 'application/json',
    body: Buffer.from(JSON.stringify(document), 'utf8'),
    applicationProperties: { [CONTROL_KEY_PROPERTY]: key, [CONTROL_VERSION_PROPERTY]: version },
  };
}

function bodyText(body: unknown): string {
  if (Buffer.isBuffer(body)) return body.toString('utf8');
  if (body instanceof Uint8Array) return Buffer.from(body).toString('utf8');
  return typeof body === 'string' ? body : JSON.stringify(body);
}

/** The document a peeked message holds, or null for a message that is not one (nothing else is sent there). */
export function fromControlMessage(message: ServiceBusReceivedMessage): StoredDocument | null {
  const key = message.applicationProperties?.[CONTROL_KEY_PROPERTY];
  const version = Number(message.applicationProperties?.[CONTROL_VERSION_PROPERTY]);
  if (typeof key !== 'string' || !Number.isSafeInteger(version) || !message.sequenceNumber) return null;
  let document: ControlDocument;
  try {
    document = JSON.parse(bodyText(message.body)) as ControlDocument;
  } catch {
    return null; // not written by this transport: ignored like any other foreign message
  }
  return { key, version, sequenceNumber: BigInt(message.sequenceNumber.toString()), document };
}

/** The newest version of each key (a later sequence breaks a tie, which only a write after the window makes). */
export function latestByKey(stored: readonly StoredDocument[]): Map<string, StoredDocument> {
  const latest = new Map<string, StoredDocument>();
  for (const item of stored) {
    const current = latest.get(item.key);
    const newer =
      !current ||
      item.version > current.version ||
      (item.version === current.version && item.sequenceNumber > current.sequenceNumber);
    if (newer) latest.set(item.key, item);
  }
  return latest;
}

export const byText = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);
