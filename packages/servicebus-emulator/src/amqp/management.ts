import type { Namespace } from '../broker/namespace.js';
import type { Queue } from '../broker/queue.js';
import { peekQueue, sessionIds } from '../broker/queue-views.js';
import type { LockHolder } from '../broker/session-record.js';
import { Rule, type RuleDefinition } from '../rules/rule.js';
import { lockTokenOf, longBuffer, readLong, ticksBuffer } from '../wire/encoding.js';
import { BrokerError, Condition, notImplemented } from '../wire/errors.js';
import { renderEntry, renderScheduled } from './render.js';
import { messageCodec, types, type Untyped } from './rhea.js';
import { addRuleDefinition, enumerateRules } from './rule-descriptions.js';

export interface ManagementRequest {
  readonly operation: string;
  readonly address: string;
  readonly body: Record<string, Untyped>;
  /** The receiver link the request acts for (`associated-link-name`), when the client named one. */
  readonly holder: LockHolder | null;
}

export interface ManagementReply {
  readonly status: number;
  readonly body: unknown;
}

/** Holds the locks of deferred messages received outside sessions without a named receiver link. */
const ENTITY_LOCK_HOLDER: LockHolder = { name: '$management' };

const OK = (body: unknown = {}): ManagementReply => ({ status: 200, body });

function queueOf(namespace: Namespace, address: string): Queue {
  const entity = namespace.resolve(address);
  if (entity.kind !== 'queue')
    throw new BrokerError(Condition.invalidField, `${address} is not a subscription`);
  return entity.queue;
}

function sessionIdOf(body: Record<string, Untyped>): string {
  const id = body['session-id'];
  if (typeof id !== 'string') throw new BrokerError(Condition.invalidField, 'session-id is required');
  return id;
}

function tokensOf(body: Record<string, Untyped>): string[] {
  const tokens = body['lock-tokens'];
  if (!Array.isArray(tokens)) throw new BrokerError(Condition.invalidField, 'lock-tokens is required');
  return tokens.map(lockTokenOf);
}

function sequencesOf(body: Record<string, Untyped>): number[] {
  const sequences = body['sequence-numbers'];
  if (!Array.isArray(sequences))
    throw new BrokerError(Condition.invalidField, 'sequence-numbers is required');
  return sequences.map(readLong);
}

/** Handles one `$management` request on an entity (the operations NimBus and the SDK's receivers use). */
export function handleManagement(namespace: Namespace, request: ManagementRequest): ManagementReply {
  const { body, holder } = request;
  const entityAddress = request.address.replace(/\/\$management$/i, '');
  switch (request.operation) {
    case 'com.microsoft:renew-lock': {
      const queue = queueOf(namespace, entityAddress);
      const expirations = tokensOf(body).map((token) => new Date(queue.renewMessageLock(token, null)));
      return OK({ expirations });
    }
    case 'com.microsoft:renew-session-lock': {
      const until = queueOf(namespace, entityAddress).renewSessionLock(sessionIdOf(body), holder);
      return OK({ expiration: new Date(until) });
    }
    case 'com.microsoft:get-session-state': {
      const state = queueOf(namespace, entityAddress).getSessionState(sessionIdOf(body), holder);
      return OK({ 'session-state': state ? types.wrap_binary(state) : null });
    }
    case 'com.microsoft:set-session-state': {
      const raw = body['session-state'];
      const state = Buffer.isBuffer(raw) ? raw : raw == null ? null : Buffer.from(String(raw));
      queueOf(namespace, entityAddress).setSessionState(sessionIdOf(body), holder, state);
      return OK();
    }
    case 'com.microsoft:get-message-sessions': {
      const since = body['last-updated-time'] instanceof Date ? body['last-updated-time'].getTime() : 0;
      const skip = Number(body.skip ?? 0);
      const top = Number(body.top ?? 100);
      const ids = sessionIds(queueOf(namespace, entityAddress), since).slice(skip, skip + top);
      return ids.length === 0 ? { status: 204, body: {} } : OK({ skip, 'sessions-ids': ids });
    }
    case 'com.microsoft:peek-message':
      return peek(namespace, entityAddress, body);
    case 'com.microsoft:schedule-message': {
      const topic = namespace.resolveForSend(entityAddress);
      const entries = (body.messages ?? []) as Record<string, Untyped>[];
      const decoded = entries.map((entry) => messageCodec.decode(entry.message as Buffer));
      const at = decoded.map((m) => (m.message_annotations as Untyped)?.['x-opt-scheduled-enqueue-time']);
      const when = at[0] instanceof Date ? at[0].getTime() : Date.now();
      const sequences = topic.schedule(decoded, when);
      return OK({ 'sequence-numbers': types.wrap_array(sequences.map(longBuffer), 0x81) });
    }
    case 'com.microsoft:cancel-scheduled-message': {
      const topic = namespace.resolveForSend(entityAddress);
      for (const sequence of sequencesOf(body)) topic.cancel(sequence);
      return OK();
    }
    case 'com.microsoft:receive-by-sequence-number': {
      const queue = queueOf(namespace, entityAddress);
      const sessionId = typeof body['session-id'] === 'string' ? body['session-id'] : null;
      if (!holder && sessionId !== null)
        throw new BrokerError(
          Condition.invalidField,
          'receive-by-sequence-number in a session needs its receiver link',
        );
      // Outside sessions the lock belongs to the entity: settled through $management by any client.
      const entries = queue.receiveDeferred(sequencesOf(body), holder ?? ENTITY_LOCK_HOLDER, sessionId);
      const messages = entries.map((entry) => ({
        // Not reordered: the SDK reads a lock token from this reply without the .NET byte swap of delivery tags.
        'lock-token': types.wrap_uuid(Buffer.from(entry.lock!.token.replace(/-/g, ''), 'hex')),
        message: types.wrap_binary(messageCodec.encode(renderEntry(entry, entry.lock!.until))),
      }));
      return OK({ messages });
    }
    case 'com.microsoft:update-disposition':
      return updateDisposition(queueOf(namespace, entityAddress), body);
    case 'com.microsoft:add-rule':
      return addRule(namespace, entityAddress, body);
    case 'com.microsoft:enumerate-rules': {
      const entity = namespace.resolve(entityAddress);
      if (entity.kind !== 'queue' || entity.queue !== entity.subscription.queue)
        throw new BrokerError(Condition.invalidField, 'rules live on subscriptions');
      return enumerateRules(entity.subscription, Number(body.skip ?? 0), Number(body.top ?? 100));
    }
    case 'com.microsoft:remove-rule': {
      const entity = namespace.resolve(entityAddress);
      if (entity.kind !== 'queue')
        throw new BrokerError(Condition.invalidField, 'rules live on subscriptions');
      entity.subscription.removeRule(String(body['rule-name']));
      namespace.ruleChanged();
      return OK();
    }
    default:
      throw notImplemented(`$management operation '${request.operation}'`);
  }
}

function peek(namespace: Namespace, address: string, body: Record<string, Untyped>): ManagementReply {
  const from = readLong(body['from-sequence-number'] ?? 1);
  const max = Number(body['message-count'] ?? 1);
  const sessionId = typeof body['session-id'] === 'string' ? body['session-id'] : null;
  const entity = namespace.resolve(address);
  if (entity.kind !== 'queue') return { status: 204, body: {} };
  const queue = entity.queue;
  const rendered: { sequence: number; message: object }[] = peekQueue(
    queue,
    from,
    max,
    queue.options.requiresSession ? sessionId : null,
  ).map((entry) => ({ sequence: entry.sequence, message: renderEntry(entry, null) }));
  if (queue === entity.subscription.queue) {
    // Scheduled messages wait on the topic; a subscription they will reach shows them in state `scheduled`.
    for (const scheduled of entity.topic.scheduled()) {
      if (scheduled.sequence < from) continue;
      for (const copy of entity.subscription.select(scheduled.message)) {
        if (sessionId !== null && copy.group_id !== sessionId) continue;
        rendered.push({
          sequence: scheduled.sequence,
          message: renderScheduled(scheduled.sequence, copy, scheduled.at),
        });
      }
    }
  }
  const page = rendered.sort((a, b) => a.sequence - b.sequence).slice(0, max);
  if (page.length === 0) return { status: 204, body: {} };
  const messages = page.map((m) => ({ message: types.wrap_binary(messageCodec.encode(m.message)) }));
  return OK({ messages });
}

function updateDisposition(queue: Queue, body: Record<string, Untyped>): ManagementReply {
  const status = body['disposition-status'];
  for (const token of tokensOf(body)) {
    if (status === 'completed') queue.complete(token, null);
    else if (status === 'abandoned') queue.abandon(token, null);
    else if (status === 'defered') queue.defer(token, null);
    else if (status === 'suspended') {
      queue.deadLetter(token, null, body['deadletter-reason'], body['deadletter-description']);
    } else throw new BrokerError(Condition.invalidField, `unknown disposition-status '${String(status)}'`);
  }
  return OK();
}

function addRule(namespace: Namespace, address: string, body: Record<string, Untyped>): ManagementReply {
  const entity = namespace.resolve(address);
  if (entity.kind !== 'queue') throw new BrokerError(Condition.invalidField, 'rules live on subscriptions');
  const definition: RuleDefinition = addRuleDefinition(body);
  new Rule(definition); // validates before the subscription changes
  entity.subscription.addRule(definition);
  namespace.ruleChanged();
  return OK();
}

/** `com.microsoft:locked-until-utc` for a session receiver's attach. */
export function lockedUntilProperty(until: number): unknown {
  return types.wrap_long(ticksBuffer(until));
}
