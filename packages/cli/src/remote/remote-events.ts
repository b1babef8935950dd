import { applyEdits } from '../commands/payload-input.js';
import { CliError } from '../exit-codes.js';
import { segment, type WebAppClient, WebAppRefusal } from './webapp-client.js';

interface EventDto {
  endpointId: string;
  eventId: string;
  sessionId: string;
  status: string;
  eventTypeId: string | null;
  updatedAt: string;
  errorContent: { errorText: string } | null;
  deadLetterReason: string | null;
  correlationId: string | null;
}

interface ActionDto {
  action: string;
  endpointId: string;
  eventId: string | null;
  sessionId: string;
  messageId: string | null;
}

export interface RemoteListFilter {
  readonly endpoint?: string | undefined;
  readonly status?: string | undefined;
  readonly session?: string | undefined;
  readonly eventType?: string | undefined;
  readonly limit: number;
}

export function remoteSummaryLine(row: EventDto): string {
  return [
    row.updatedAt,
    row.endpointId.padEnd(12),
    row.status.padEnd(12),
    (row.sessionId || '-').padEnd(16),
    (row.eventTypeId ?? '-').padEnd(20),
    row.eventId,
  ].join('  ');
}

/** `nimbus events …` against a remote WebApp: the same operations through its REST API. */
export class RemoteEvents {
  constructor(private readonly client: WebAppClient) {}

  async list(filter: RemoteListFilter): Promise<EventDto[]> {
    const endpoints = filter.endpoint
      ? [filter.endpoint]
      : (await this.client.request<{ endpointId: string }[]>('GET', '/api/endpoints')).map(
          (e) => e.endpointId,
        );
    const query = new URLSearchParams({ pageSize: String(Math.min(filter.limit, 200)) });
    if (filter.status) query.set('status', filter.status);
    if (filter.session) query.set('sessionId', filter.session);
    if (filter.eventType) query.set('eventTypeId', filter.eventType);
    const rows: EventDto[] = [];
    for (const endpointId of endpoints) {
      const page = await this.client.request<{ events: EventDto[] }>(
        'GET',
        `/api/endpoints/${segment(endpointId)}/events?${query}`,
      );
      rows.push(...page.events);
    }
    return rows.sort((a, b) => b.updatedAt.localeCompare(a.updatedAt)).slice(0, filter.limit);
  }

  async show(endpointId: string, eventId: string) {
    const base = `/api/endpoints/${segment(endpointId)}/events/${segment(eventId)}`;
    const details = await this.client.request<{ event: EventDto; payload: string | null }>('GET', base);
    const history = await this.client.request<Record<string, unknown>[]>('GET', `${base}/history`);
    const audits = await this.client.request<Record<string, unknown>[]>('GET', `${base}/audits`);
    return { ...details, history, audits };
  }

  async resubmit(
    endpointId: string,
    eventId: string,
    edited: string | null,
    edits: readonly string[],
    comment: string | null,
    outOfOrder = false,
  ): Promise<ActionDto> {
    const base = `/api/endpoints/${segment(endpointId)}/events/${segment(eventId)}`;
    let eventJson = edited;
    if (edits.length > 0) {
      const stored = eventJson ?? (await this.show(endpointId, eventId)).payload;
      if (stored === null)
        throw new CliError(`Event '${eventId}' has no stored payload to edit; use --payload.`);
      eventJson = applyEdits(stored, edits);
    }
    const acknowledgement = outOfOrder ? { acknowledgeOutOfOrder: true } : {};
    try {
      return eventJson === null
        ? await this.client.request<ActionDto>('POST', `${base}/resubmit`, { comment, ...acknowledgement })
        : await this.client.request<ActionDto>('POST', `${base}/resubmit-with-changes`, {
            eventJson,
            comment,
            ...acknowledgement,
          });
    } catch (error) {
      if (error instanceof WebAppRefusal && error.code === 'OutOfOrderNotAcknowledged')
        throw new CliError(`${error.message} Pass --out-of-order to confirm.`);
      throw error;
    }
  }

  skip(endpointId: string, eventId: string, comment: string | null): Promise<ActionDto> {
    return this.client.request<ActionDto>(
      'POST',
      `/api/endpoints/${segment(endpointId)}/events/${segment(eventId)}/skip`,
      { comment },
    );
  }
}

export function remoteActionLine(outcome: ActionDto): string {
  return `${outcome.action} of event ${outcome.eventId} on ${outcome.endpointId} (session ${outcome.sessionId || '-'}) accepted by the WebApp; control message ${outcome.messageId ?? '-'}`;
}
