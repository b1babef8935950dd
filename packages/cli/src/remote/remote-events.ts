import type { ResponseBody } from '@nimbus/client';
import { eventStateText } from '../commands/event-state.js';
import { applyEdits } from '../commands/payload-input.js';
import { CliError } from '../exit-codes.js';
import { type WebAppClient, WebAppRefusal } from './webapp-client.js';

type EventPage = ResponseBody<'/api/endpoints/{endpointId}/events'>;
type EventDto = EventPage['events'][number];
type ActionDto = ResponseBody<'/api/endpoints/{endpointId}/events/{eventId}/skip', 'post'>;

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
    eventStateText(row.status, row.retry).padEnd(12),
    (row.sessionId || '-').padEnd(16),
    (row.eventTypeId ?? '-').padEnd(20),
    row.eventId,
  ].join('  ');
}

/** `nimbus events …` against a remote WebApp: the same operations through its REST API. */
export class RemoteEvents {
  constructor(private readonly client: WebAppClient) {}

  async list(filter: RemoteListFilter): Promise<EventDto[]> {
    const { api } = this.client;
    const endpoints = filter.endpoint
      ? [filter.endpoint]
      : (await this.client.call(api.GET('/api/endpoints'))).map((e) => e.endpointId);
    const query = {
      pageSize: Math.min(filter.limit, 200),
      ...(filter.status ? { status: filter.status } : {}),
      ...(filter.session ? { sessionId: filter.session } : {}),
      ...(filter.eventType ? { eventTypeId: filter.eventType } : {}),
    };
    const rows: EventDto[] = [];
    for (const endpointId of endpoints) {
      const page = await this.client.call(
        api.GET('/api/endpoints/{endpointId}/events', { params: { path: { endpointId }, query } }),
      );
      rows.push(...page.events);
    }
    return rows.sort((a, b) => b.updatedAt.localeCompare(a.updatedAt)).slice(0, filter.limit);
  }

  async show(endpointId: string, eventId: string) {
    const { api } = this.client;
    const params = { path: { endpointId, eventId } };
    const details = await this.client.call(
      api.GET('/api/endpoints/{endpointId}/events/{eventId}', { params }),
    );
    const history = await this.client.call(
      api.GET('/api/endpoints/{endpointId}/events/{eventId}/history', { params }),
    );
    const audits = await this.client.call(
      api.GET('/api/endpoints/{endpointId}/events/{eventId}/audits', { params }),
    );
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
    let eventJson = edited;
    if (edits.length > 0) {
      const stored = eventJson ?? (await this.show(endpointId, eventId)).payload;
      if (stored === null)
        throw new CliError(`Event '${eventId}' has no stored payload to edit; use --payload.`);
      eventJson = applyEdits(stored, edits);
    }
    const { api } = this.client;
    const params = { path: { endpointId, eventId } };
    const acknowledgement = outOfOrder ? { acknowledgeOutOfOrder: true } : {};
    try {
      return eventJson === null
        ? await this.client.call(
            api.POST('/api/endpoints/{endpointId}/events/{eventId}/resubmit', {
              params,
              body: { comment, ...acknowledgement },
            }),
          )
        : await this.client.call(
            api.POST('/api/endpoints/{endpointId}/events/{eventId}/resubmit-with-changes', {
              params,
              body: { eventJson, comment, ...acknowledgement },
            }),
          );
    } catch (error) {
      if (error instanceof WebAppRefusal && error.code === 'OutOfOrderNotAcknowledged')
        throw new CliError(`${error.message} Pass --out-of-order to confirm.`);
      throw error;
    }
  }

  skip(endpointId: string, eventId: string, comment: string | null): Promise<ActionDto> {
    return this.client.call(
      this.client.api.POST('/api/endpoints/{endpointId}/events/{eventId}/skip', {
        params: { path: { endpointId, eventId } },
        body: { comment },
      }),
    );
  }
}

export function remoteActionLine(outcome: ActionDto): string {
  return `${outcome.action} of event ${outcome.eventId} on ${outcome.endpointId} (session ${outcome.sessionId || '-'}) accepted by the WebApp; control message ${outcome.messageId ?? '-'}`;
}
