/** The timestamps a heartbeat probe and its answer carry (wire `NimBus.Platform.Heartbeat`). */
export interface HeartbeatPayload {
  readonly forwardSendTime: Date | null;
  readonly forwardReceivedTime: Date | null;
  readonly backwardSendTime: Date | null;
  readonly backwardReceivedTime: Date | null;
  readonly endpoint: string;
  readonly sdkVersion: string;
}

function field(source: Record<string, unknown>, camel: string): unknown {
  // Older senders wrote PascalCase members; accept both.
  return source[camel] ?? source[camel.charAt(0).toUpperCase() + camel.slice(1)];
}

function date(value: unknown): Date | null {
  if (typeof value !== 'string' && typeof value !== 'number') return null;
  const parsed = new Date(value);
  return Number.isNaN(parsed.getTime()) || parsed.getTime() <= 0 ? null : parsed;
}

function text(value: unknown): string {
  return typeof value === 'string' ? value : '';
}

/** Reads a payload leniently: a blank or malformed body is an empty payload, never an error. */
export function parseHeartbeatPayload(eventJson: string | null | undefined): HeartbeatPayload {
  let source: Record<string, unknown> = {};
  try {
    const parsed: unknown = JSON.parse(eventJson ?? '');
    if (parsed && typeof parsed === 'object' && !Array.isArray(parsed))
      source = parsed as Record<string, unknown>;
  } catch {
    // Malformed bodies still count as an answer; they just carry no timings.
  }
  return {
    forwardSendTime: date(field(source, 'forwardSendTime')),
    forwardReceivedTime: date(field(source, 'forwardReceivedTime')),
    backwardSendTime: date(field(source, 'backwardSendTime')),
    backwardReceivedTime: date(field(source, 'backwardReceivedTime')),
    endpoint: text(field(source, 'endpoint')),
    sdkVersion: text(field(source, 'sdkVersion')),
  };
}

export function probePayloadJson(sentAt: Date): string {
  return JSON.stringify({ forwardSendTime: sentAt.toISOString() });
}
