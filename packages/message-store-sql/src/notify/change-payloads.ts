import type { StateChange } from '@nimbus/message-store';

/**
 * A notification carries ids only, never data: subscribers re-read. PostgreSQL caps a NOTIFY payload
 * at 8000 bytes, so a batch is split into payloads of at most this many bytes.
 */
export const MAX_PAYLOAD_BYTES = 7_500;

interface Payload {
  e?: string[];
  h?: string[];
  s?: string[];
  r?: 1;
}

const KEYS = { endpoint: 'e', heartbeat: 'h', serviceHealth: 's' } as const;

/** Distinct changes waiting to be sent, in the order first seen. */
export class PendingChanges {
  readonly #changes = new Map<string, StateChange>();

  add(change: StateChange): void {
    this.#changes.set(keyOf(change), change);
  }

  get size(): number {
    return this.#changes.size;
  }

  /** Takes every pending change out. */
  drain(): StateChange[] {
    const all = [...this.#changes.values()];
    this.#changes.clear();
    return all;
  }
}

function keyOf(change: StateChange): string {
  if (change.kind === 'resync') return 'r';
  return `${KEYS[change.kind]}:${change.kind === 'serviceHealth' ? change.serviceId : change.endpointId}`;
}

/** Encodes changes as JSON payloads of at most `maxBytes` each; an id too long for any payload becomes a resync. */
export function encodeChanges(changes: readonly StateChange[], maxBytes = MAX_PAYLOAD_BYTES): string[] {
  const payloads: string[] = [];
  let current: Payload = {};
  const flush = () => {
    if (Object.keys(current).length > 0) payloads.push(JSON.stringify(current));
    current = {};
  };
  for (const change of changes) {
    const next = withChange(current, change);
    if (Buffer.byteLength(JSON.stringify(next)) <= maxBytes) {
      current = next;
      continue;
    }
    flush();
    const alone = withChange({}, change);
    current = Buffer.byteLength(JSON.stringify(alone)) <= maxBytes ? alone : { r: 1 };
  }
  flush();
  return payloads;
}

function withChange(payload: Payload, change: StateChange): Payload {
  if (change.kind === 'resync') return { ...payload, r: 1 };
  const key = KEYS[change.kind];
  const id = change.kind === 'serviceHealth' ? change.serviceId : change.endpointId;
  return { ...payload, [key]: [...(payload[key] ?? []), id] };
}

/** Reads a payload back; anything unreadable becomes a resync (never dropped silently). */
export function decodeChanges(text: string): StateChange[] {
  let payload: Payload;
  try {
    payload = JSON.parse(text) as Payload;
  } catch {
    return [{ kind: 'resync' }];
  }
  if (payload === null || typeof payload !== 'object') return [{ kind: 'resync' }];
  const changes: StateChange[] = [];
  if (payload.r === 1) changes.push({ kind: 'resync' });
  for (const endpointId of strings(payload.e)) changes.push({ kind: 'endpoint', endpointId });
  for (const endpointId of strings(payload.h)) changes.push({ kind: 'heartbeat', endpointId });
  for (const serviceId of strings(payload.s)) changes.push({ kind: 'serviceHealth', serviceId });
  return changes.length > 0 ? changes : [{ kind: 'resync' }];
}

function strings(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string' && v !== '') : [];
}
