import type { TransportMessage } from '@nimbus/core';
import { HANDOFF_SUB_STATUS, ResolutionStatus, type UnresolvedEvent } from '@nimbus/message-store';
import type { ApiDeps } from '../app/api-deps.js';
import { authorize } from '../auth/authorize.js';
import type { Principal } from '../auth/principal.js';
import { conflict, notFound } from '../http/http-error.js';
import { Role } from '../identity/roles.js';
import { latestPayloadMessage } from '../routes/event-routes.js';
import { AUDIT_TYPE_OF, type OperatorAction } from './audit-types.js';
import {
  handoffCompletedRequest,
  handoffFailedRequest,
  processDeferredRequest,
  resubmissionRequest,
  skipRequest,
} from './control-messages.js';
import { assertValidEditedPayload } from './edited-payload.js';
import { requireOutOfOrderAcknowledgement } from './out-of-order.js';

const RESUBMITTABLE = new Set<string>([
  ResolutionStatus.Failed,
  ResolutionStatus.DeadLettered,
  ResolutionStatus.Unsupported,
]);

export interface ActionTarget {
  readonly endpointId: string;
  readonly eventId: string;
}

export interface ActionResult {
  readonly action: OperatorAction;
  readonly endpointId: string;
  readonly eventId: string | null;
  readonly sessionId: string;
  /** Id of the control message sent, when the action sends one. */
  readonly messageId: string | null;
}

/**
 * Operator actions. Each checks Contributor on the endpoint (a refusal writes its denied audit row), finds
 * the stored row, writes exactly one audit row and only then sends a control message through the transport
 * (the engine and the Resolver do the rest): an action whose audit row cannot be stored is not performed.
 */
export class OperatorActions {
  constructor(private readonly deps: ApiDeps) {}

  /** Authorisation first (after the endpoint is known), so a Reader gets 403 whether or not the event exists. */
  async authorize(
    principal: Principal,
    action: OperatorAction,
    endpointId: string,
    eventId: string | null,
    data?: unknown,
  ) {
    await authorize(this.deps.auditLog, principal, Role.Contributor, endpointId, {
      type: AUDIT_TYPE_OF[action],
      eventId,
      data: { action, ...(data && typeof data === 'object' ? data : {}) },
    });
  }

  async loadRow(target: ActionTarget): Promise<UnresolvedEvent> {
    const row = await this.deps.store.getEvent({ endpointId: target.endpointId, eventId: target.eventId });
    if (!row) throw notFound(`Event '${target.eventId}' not found on endpoint '${target.endpointId}'.`);
    return row;
  }

  async resubmit(
    principal: Principal,
    row: UnresolvedEvent,
    editedJson?: { eventJson: string; eventTypeId?: string | undefined },
    comment?: string | null,
    context?: Record<string, unknown>,
    acknowledgeOutOfOrder = false,
  ) {
    const action: OperatorAction = editedJson ? 'resubmitWithChanges' : 'resubmit';
    this.#requireStatus(row, RESUBMITTABLE, action);
    await requireOutOfOrderAcknowledgement(this.deps.store, row, acknowledgeOutOfOrder);
    const content = editedJson
      ? {
          eventTypeId:
            editedJson.eventTypeId ?? (await this.#payloadOf(row))?.eventTypeId ?? row.eventTypeId ?? '',
          eventJson: editedJson.eventJson,
        }
      : await this.#payloadOf(row);
    if (!content || content.eventTypeId === '') {
      throw conflict(`Event '${row.eventId}' has no stored payload to resubmit; use resubmit with changes.`);
    }
    if (editedJson) assertValidEditedPayload(this.deps.platform, content.eventTypeId, content.eventJson);
    const message = resubmissionRequest(row, content, this.deps.clock.now(), acknowledgeOutOfOrder);
    return this.#done(principal, action, row, message, {
      ...withComment(comment),
      ...context,
      ...(acknowledgeOutOfOrder ? { acknowledgeOutOfOrder: true } : {}),
      ...(editedJson ? { eventTypeId: content.eventTypeId, eventJson: content.eventJson } : {}),
    });
  }

  async skip(
    principal: Principal,
    row: UnresolvedEvent,
    comment?: string | null,
    context?: Record<string, unknown>,
  ) {
    this.#requireStatus(row, RESUBMITTABLE, 'skip');
    const message = skipRequest(row, this.deps.clock.now());
    return this.#done(principal, 'skip', row, message, { ...withComment(comment), ...context });
  }

  /** An operator's note on the event ("called the ERP team"): one Comment audit row, nothing sent. */
  async comment(principal: Principal, row: UnresolvedEvent, text: string) {
    // The store notifies an endpoint update for a Comment audit: other operators looking at the event see the note.
    return this.#done(principal, 'comment', row, null, { comment: text });
  }

  async completeHandoff(principal: Principal, row: UnresolvedEvent, note: string | null) {
    this.#requireHandoff(row);
    const result = note === null ? null : JSON.stringify({ note, completedBy: principal.name });
    const message = handoffCompletedRequest(row, result, this.deps.clock.now());
    return this.#done(principal, 'completeHandoff', row, message, note === null ? undefined : { note });
  }

  async failHandoff(principal: Principal, row: UnresolvedEvent, reason: string, errorType: string | null) {
    this.#requireHandoff(row);
    const message = handoffFailedRequest(row, reason, errorType, this.deps.clock.now());
    return this.#done(principal, 'failHandoff', row, message, { reason, errorType });
  }

  /** Marks a stuck Pending row Completed, only if nobody changed it since the operator looked. */
  async reconcile(principal: Principal, row: UnresolvedEvent, expectedLastMessageId: string | null) {
    if (row.resolutionStatus !== ResolutionStatus.Pending) {
      throw conflict(
        `Event '${row.eventId}' is ${row.resolutionStatus}; only Pending events can be reconciled.`,
      );
    }
    const stale = () =>
      conflict(
        `Event '${row.eventId}' changed since it was read (or is no longer Pending); reload it and decide again.`,
      );
    // Checked on the row first so a stale request is refused before anything is audited; the store's
    // conditional write below stays the authority.
    if (row.lastMessageId !== expectedLastMessageId) throw stale();
    return this.#done(principal, 'reconcile', row, null, { expectedLastMessageId }, async () => {
      const replaced = await this.deps.store.tryCompletePending({
        key: { endpointId: row.endpointId, eventId: row.eventId, sessionId: row.sessionId },
        expectedLastMessageId: expectedLastMessageId,
        content: { ...row, reason: `Reconciled by ${principal.name}` },
      });
      if (!replaced) throw stale();
    });
  }

  async deleteEvent(principal: Principal, row: UnresolvedEvent) {
    return this.#done(principal, 'deleteEvent', row, null, { sessionId: row.sessionId }, async () => {
      const removed = await this.deps.store.removeMessage({
        endpointId: row.endpointId,
        eventId: row.eventId,
        sessionId: row.sessionId,
      });
      if (!removed) throw notFound(`Event '${row.eventId}' was already removed.`);
    });
  }

  async reprocessDeferred(principal: Principal, endpointId: string, sessionId: string) {
    await this.#refuseWhileSessionFailed(endpointId, sessionId);
    const message = processDeferredRequest(endpointId, sessionId, this.deps.clock.now());
    await this.deps.auditLog.write({
      type: AUDIT_TYPE_OF.reprocessDeferred,
      principal,
      endpointId,
      data: { action: 'reprocessDeferred', sessionId },
    });
    await this.#send(endpointId, message);
    return {
      action: 'reprocessDeferred' as const,
      endpointId,
      eventId: null,
      sessionId,
      messageId: message.messageId,
    };
  }

  /**
   * Replaying parked events while the event that blocks them is unresolved would let them overtake it. The
   * engine holding the session refuses such a request too; this answers the operator at once, naming the event.
   */
  async #refuseWhileSessionFailed(endpointId: string, sessionId: string) {
    const { events } = await this.deps.store.getEventsByFilter({
      filter: { endpointId, sessionId, resolutionStatus: [...RESUBMITTABLE] as ResolutionStatus[] },
      continuationToken: null,
      maxItems: 1,
    });
    const blocker = events[0];
    if (!blocker) return;
    throw conflict(
      `Session '${sessionId}' is blocked by event '${blocker.eventId}' (${blocker.resolutionStatus}); ` +
        'resubmit or skip that event first, and the parked events replay after it in order. ' +
        'Reprocessing them now would let them overtake it.',
    );
  }

  async #payloadOf(row: UnresolvedEvent) {
    const history = await this.deps.store.getEventHistory(row.eventId);
    const request = latestPayloadMessage(history, row.endpointId);
    const content = request?.messageContent.eventContent ?? row.messageContent.eventContent;
    if (!content || content.eventJson === '') return null;
    return { eventTypeId: content.eventTypeId || row.eventTypeId || '', eventJson: content.eventJson };
  }

  #requireStatus(row: UnresolvedEvent, allowed: ReadonlySet<string>, action: OperatorAction) {
    if (!allowed.has(row.resolutionStatus)) {
      throw conflict(
        `Event '${row.eventId}' is ${row.resolutionStatus}; ${action} needs ${[...allowed].join(', ')}.`,
      );
    }
  }

  #requireHandoff(row: UnresolvedEvent) {
    if (row.resolutionStatus !== ResolutionStatus.Pending || row.pendingSubStatus !== HANDOFF_SUB_STATUS) {
      throw conflict(`Event '${row.eventId}' is not a pending handoff (status ${row.resolutionStatus}).`);
    }
  }

  async #send(endpointId: string, message: TransportMessage) {
    await this.deps.transport.publish([{ source: endpointId, messages: [message] }]);
  }

  async #done(
    principal: Principal,
    action: OperatorAction,
    row: UnresolvedEvent,
    message: TransportMessage | null,
    data?: Record<string, unknown>,
    perform: () => Promise<void> = async () => {
      if (message) await this.#send(row.endpointId, message);
    },
  ): Promise<ActionResult> {
    // The audit row first: if it cannot be stored, the action is not performed.
    await this.deps.auditLog.write({
      type: AUDIT_TYPE_OF[action],
      principal,
      eventId: row.eventId,
      endpointId: row.endpointId,
      eventTypeId: row.eventTypeId,
      data: { action, ...data },
    });
    await perform();
    return {
      action,
      endpointId: row.endpointId,
      eventId: row.eventId,
      sessionId: row.sessionId,
      messageId: message?.messageId ?? null,
    };
  }
}

/** The operator's optional comment first in the audit data, so truncating a long payload never cuts it. */
function withComment(comment: string | null | undefined): Record<string, unknown> {
  return comment ? { comment } : {};
}
