import type { Transport } from '@nimbus/core';
import {
  MessageAuditType,
  type MessageTrackingStore,
  ResolutionStatus,
  type UnresolvedEvent,
} from '@nimbus/message-store';
import { createOperatorClient } from '@nimbus/sdk';
import { CliError, notFound } from '../exit-codes.js';
import { failedEnvelopeOf } from './failed-envelope.js';

const ACTIONABLE = new Set<string>([
  ResolutionStatus.Failed,
  ResolutionStatus.DeadLettered,
  ResolutionStatus.Unsupported,
]);

export interface ActionOutcome {
  readonly action: 'resubmit' | 'resubmitWithChanges' | 'skip';
  readonly endpointId: string;
  readonly eventId: string;
  readonly sessionId: string;
  readonly messageId: string;
  readonly auditor: string;
}

/** Statuses whose event does not block its session: a resubmit runs it after later events of the session. */
const OUT_OF_ORDER = new Set<string>([ResolutionStatus.DeadLettered, ResolutionStatus.Unsupported]);

type Store = Pick<
  MessageTrackingStore,
  'getEvent' | 'getLatestEventRequestMessage' | 'storeMessageAudit' | 'getEventsByFilter'
>;

/** How many later events of the session the refusal looks at (it says "or more" past that). */
const LATER_LIMIT = 100;

/**
 * What the session did after `row`, told as it is: how many later events went on and how many are still parked
 * (Deferred) behind it — "went on without it" only when none is parked.
 */
async function laterEventsLine(store: Store, row: UnresolvedEvent): Promise<string> {
  const { events } = await store.getEventsByFilter({
    filter: { endpointId: row.endpointId, sessionId: row.sessionId, enqueuedAtFrom: row.enqueuedTimeUtc },
    continuationToken: null,
    maxItems: LATER_LIMIT + 1,
  });
  const later = events.filter(
    (e) =>
      e.sessionId === row.sessionId &&
      e.eventId !== row.eventId &&
      e.enqueuedTimeUtc.getTime() > row.enqueuedTimeUtc.getTime(),
  );
  const parked = later.filter((e) => e.resolutionStatus === ResolutionStatus.Deferred).length;
  const wentOn = later.length - parked;
  const more = later.length > LATER_LIMIT ? ' (or more)' : '';
  const session = `its session '${row.sessionId || '-'}'`;
  if (parked === 0)
    return `${session} went on without it (${wentOn} later event${wentOn === 1 ? '' : 's'}${more} since), so resubmitting runs it after later events of the session`;
  return `${session} has ${parked} later event${parked === 1 ? '' : 's'}${more} still parked (Deferred) behind it${wentOn > 0 ? ` and ${wentOn} that went on without it` : ''}; resubmitting runs it ahead of the parked ones${wentOn > 0 ? ' but after the ones that went on' : ''}`;
}

export async function loadEvent(
  store: Pick<MessageTrackingStore, 'getEvent'>,
  endpointId: string,
  eventId: string,
): Promise<UnresolvedEvent> {
  const row = await store.getEvent({ endpointId, eventId });
  if (!row) throw notFound(`Event '${eventId}' was not found on endpoint '${endpointId}'.`);
  return row;
}

/** The payload the event was last sent with (null when none was stored). */
export async function storedPayload(
  store: Pick<MessageTrackingStore, 'getLatestEventRequestMessage'>,
  row: UnresolvedEvent,
): Promise<string | null> {
  return (await failedEnvelopeOf(store, row)).content.eventContent?.eventJson ?? null;
}

/**
 * Resubmit and skip from the command line: the same control messages the WebApp sends (built by the SDK
 * operator client), each followed by one audit row naming the CLI user.
 */
export class CliOperatorActions {
  constructor(
    private readonly store: Store,
    private readonly transport: Transport,
    private readonly auditor: string,
  ) {}

  load(endpointId: string, eventId: string): Promise<UnresolvedEvent> {
    return loadEvent(this.store, endpointId, eventId);
  }

  storedPayload(row: UnresolvedEvent): Promise<string | null> {
    return storedPayload(this.store, row);
  }

  /**
   * A dead-lettered or unsupported event left its session's order (later events went on): resubmitting it runs
   * it after them, so it needs `outOfOrder` (`--out-of-order`); the endpoint refuses it otherwise.
   */
  async resubmit(
    row: UnresolvedEvent,
    editedJson: string | null,
    comment: string | null,
    outOfOrder = false,
  ): Promise<ActionOutcome> {
    const action = editedJson === null ? 'resubmit' : 'resubmitWithChanges';
    this.#requireActionable(row, action);
    if (!outOfOrder && OUT_OF_ORDER.has(row.resolutionStatus)) {
      throw new CliError(
        `Event '${row.eventId}' on '${row.endpointId}' is ${row.resolutionStatus}: ${await laterEventsLine(this.store, row)}. Pass --out-of-order to confirm, or skip it. Nothing was sent.`,
      );
    }
    const failed = await failedEnvelopeOf(this.store, row);
    if (editedJson === null && !failed.content.eventContent?.eventJson) {
      throw new CliError(
        `Event '${row.eventId}' has no stored payload to resubmit; give the payload with --payload or --payload-file.`,
      );
    }
    const sent = await createOperatorClient(this.transport).resubmit(failed, {
      endpointId: row.endpointId,
      ...(editedJson === null ? {} : { eventJson: editedJson }),
      acknowledgeOutOfOrder: outOfOrder,
    });
    return this.#audit(row, action, sent.messageId, comment, {
      ...(outOfOrder ? { acknowledgeOutOfOrder: true } : {}),
      ...(editedJson === null ? {} : { eventJson: editedJson }),
    });
  }

  async skip(row: UnresolvedEvent, comment: string | null): Promise<ActionOutcome> {
    this.#requireActionable(row, 'skip');
    const failed = await failedEnvelopeOf(this.store, row);
    const sent = await createOperatorClient(this.transport).skip(failed, { endpointId: row.endpointId });
    return this.#audit(row, 'skip', sent.messageId, comment, {});
  }

  #requireActionable(row: UnresolvedEvent, action: string): void {
    if (!ACTIONABLE.has(row.resolutionStatus)) {
      throw new CliError(
        `Cannot ${action} event '${row.eventId}' on '${row.endpointId}': it is ${row.resolutionStatus}; only Failed, DeadLettered or Unsupported events can be acted on.`,
      );
    }
  }

  async #audit(
    row: UnresolvedEvent,
    action: ActionOutcome['action'],
    messageId: string,
    comment: string | null,
    data: Record<string, unknown>,
  ): Promise<ActionOutcome> {
    const auditType =
      action === 'skip'
        ? MessageAuditType.Skip
        : action === 'resubmit'
          ? MessageAuditType.Resubmit
          : MessageAuditType.ResubmitWithChanges;
    await this.store.storeMessageAudit({
      eventId: row.eventId,
      audit: {
        auditorName: this.auditor,
        auditTimestamp: new Date(),
        auditType,
        comment,
        data: JSON.stringify({ action, messageId, sessionId: row.sessionId, via: 'cli', ...data }).slice(
          0,
          4096,
        ),
        eventId: row.eventId,
        endpointId: row.endpointId,
      },
      endpointId: row.endpointId,
      eventTypeId: row.eventTypeId,
    });
    return {
      action,
      endpointId: row.endpointId,
      eventId: row.eventId,
      sessionId: row.sessionId,
      messageId,
      auditor: this.auditor,
    };
  }
}
