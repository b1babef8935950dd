import { randomUUID } from 'node:crypto';
import { setTimeout as delay } from 'node:timers/promises';
import type {
  ServiceBusAdministrationClient,
  ServiceBusClient,
  ServiceBusReceivedMessage,
  ServiceBusReceiver,
  ServiceBusSender,
} from '@azure/service-bus';
import {
  type CustomCheckResult,
  type InputControl,
  type InputState,
  type InputThresholds,
  MAX_CHECK_NAME_LENGTH,
  MAX_CHECK_REASON_LENGTH,
  type StoredCustomCheck,
  TransportError,
  TransportErrorCode,
} from '@nimbus/core';
import Long from 'long';
import {
  byText,
  CONTROL_QUEUE,
  type ControlDocument,
  checksKey,
  fromControlMessage,
  type InputDocument,
  inputKey,
  latestByKey,
  REMEMBERED_WRITES,
  type StoredDocument,
  toControlMessage,
} from './control-documents.js';
import { guarded, isCode } from './errors.js';

const PEEK_PAGE = 250;
/** Writers that lose a race to the same version read again; this many lost races in a row fail the change. */
const MAX_ATTEMPTS = 8;
/** Receives of the control queue that take a document to defer it count a delivery; leave room for crashes. */
const CONTROL_MAX_DELIVERY_COUNT = 100;

const NO_STATE = (input: string): InputDocument => ({
  input,
  paused: false,
  changedBy: null,
  changedAt: null,
  maxBacklog: null,
  maxCriticalTimeMs: null,
});

/**
 * `InputControl` on the namespace itself, in the queue `nimbus.input-control`: every change is a new message (a
 * new version of its document: one per input, one per endpoint's checks), the readers peek the queue (no lock, so
 * any number of hosts poll it at once) and take the newest version of each document. A writer reads version n and
 * sends n + 1 under a message id the queue's duplicate detection keeps: of two writers racing from n only the
 * first is stored, and the other, not finding its write id in the stored document, reads again. Superseded
 * versions are deferred, then received by sequence number and completed. Without the queue (a namespace
 * provisioned before it existed) reads find no state and the first write creates it.
 */
export class ServiceBusInputControl implements InputControl {
  #receiver: ServiceBusReceiver | null = null;
  #sender: ServiceBusSender | null = null;
  #queueReady: Promise<void> | null = null;
  /** Changes made by this process go one at a time (races with other processes are settled by versions). */
  #writing: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly client: ServiceBusClient,
    private readonly admin: ServiceBusAdministrationClient,
    private readonly assertUsable: (operation: string) => void,
    private readonly now: () => number = Date.now,
  ) {}

  async inputStates(): Promise<InputState[]> {
    this.assertUsable('inputStates');
    const states: InputState[] = [];
    for (const { document } of (await this.#latest()).values()) {
      if (!document.input) continue;
      const { changedAt, ...rest } = document.input;
      states.push({ ...rest, changedAt: changedAt === null ? null : new Date(changedAt) });
    }
    return states.sort((a, b) => byText(a.input.toLowerCase(), b.input.toLowerCase()));
  }

  async pausedInputs(): Promise<ReadonlySet<string>> {
    return new Set((await this.inputStates()).filter((s) => s.paused).map((s) => s.input));
  }

  async setPaused(input: string, change: { readonly paused: boolean; readonly by: string }): Promise<void> {
    const changedAt = new Date(this.now()).toISOString();
    await this.#change(inputKey(input), 'setPaused', (current) => ({
      input: {
        ...(current?.input ?? NO_STATE(input)),
        input,
        paused: change.paused,
        changedBy: change.by,
        changedAt,
      },
    }));
  }

  async setThresholds(input: string, thresholds: InputThresholds): Promise<void> {
    const { maxBacklog, maxCriticalTimeMs } = thresholds;
    await this.#change(inputKey(input), 'setThresholds', (current) => ({
      input: { ...(current?.input ?? NO_STATE(input)), maxBacklog, maxCriticalTimeMs },
    }));
  }

  async reportChecks(endpointId: string, results: readonly CustomCheckResult[]): Promise<void> {
    if (results.length === 0) return;
    const fresh = results.map((r) => ({
      name: r.name.slice(0, MAX_CHECK_NAME_LENGTH),
      healthy: r.healthy,
      reason: r.reason === null ? null : r.reason.slice(0, MAX_CHECK_REASON_LENGTH),
      checkedAt: r.checkedAt.toISOString(),
    }));
    await this.#change(checksKey(endpointId), 'reportChecks', (current) => {
      const byName = new Map((current?.checks?.results ?? []).map((c) => [c.name, c]));
      for (const check of fresh) byName.set(check.name, check);
      return { checks: { endpointId, results: [...byName.values()] } };
    });
  }

  async customChecks(): Promise<StoredCustomCheck[]> {
    this.assertUsable('customChecks');
    const checks: StoredCustomCheck[] = [];
    for (const { document } of (await this.#latest()).values()) {
      for (const c of document.checks?.results ?? [])
        checks.push({ ...c, endpointId: document.checks!.endpointId, checkedAt: new Date(c.checkedAt) });
    }
    return checks.sort((a, b) => byText(a.endpointId, b.endpointId) || byText(a.name, b.name));
  }

  /** Creates the control queue when missing (also done by `applyTopology`). */
  ensureQueue(): Promise<void> {
    this.#queueReady ??= guarded('create the input control queue', async () => {
      if (await this.admin.queueExists(CONTROL_QUEUE)) return;
      try {
        await this.admin.createQueue(CONTROL_QUEUE, {
          requiresDuplicateDetection: true,
          duplicateDetectionHistoryTimeWindow: 'PT10M',
          maxDeliveryCount: CONTROL_MAX_DELIVERY_COUNT,
        });
      } catch (error) {
        // Another process created it between the check and the create: the queue is there, which is the point.
        if ((error as { code?: string }).code !== 'MessageEntityAlreadyExistsError') throw error;
      }
    }).catch((error: unknown) => {
      this.#queueReady = null;
      throw error;
    });
    return this.#queueReady;
  }

  async close(): Promise<void> {
    await this.#receiver?.close();
    await this.#sender?.close();
  }

  #change(
    key: string,
    operation: string,
    apply: (current: ControlDocument | null) => Omit<ControlDocument, 'writes'>,
  ): Promise<void> {
    this.assertUsable(operation);
    const run = this.#writing.then(() => this.#write(key, operation, apply));
    this.#writing = run.catch(() => undefined); // the caller gets the failure; the next change still runs
    return run;
  }

  async #write(
    key: string,
    operation: string,
    apply: (current: ControlDocument | null) => Omit<ControlDocument, 'writes'>,
  ): Promise<void> {
    await this.ensureQueue();
    for (let attempt = 1; attempt <= MAX_ATTEMPTS; attempt++) {
      const current = (await this.#latest()).get(key);
      const writeId = randomUUID();
      const writes = [...(current?.document.writes ?? []), writeId].slice(-REMEMBERED_WRITES);
      const next: ControlDocument = { ...apply(current?.document ?? null), writes };
      await guarded(operation, () =>
        this.#sendTo().sendMessages(toControlMessage(key, (current?.version ?? 0) + 1, next)),
      );
      if ((await this.#latest()).get(key)?.document.writes.includes(writeId)) {
        await this.#tidy();
        return;
      }
      await delay(Math.round(Math.random() * 20 * attempt));
    }
    throw new TransportError(
      TransportErrorCode.ServiceUnavailable,
      `${operation}: other processes changed '${key}' ${MAX_ATTEMPTS} times while this change was made; try again`,
    );
  }

  async #latest(): Promise<Map<string, StoredDocument>> {
    const stored: StoredDocument[] = [];
    for (const message of await this.#peekAll()) {
      const document = fromControlMessage(message);
      if (document) stored.push(document);
    }
    return latestByKey(stored);
  }

  async #peekAll(): Promise<ServiceBusReceivedMessage[]> {
    const receiver = this.#receive();
    const all: ServiceBusReceivedMessage[] = [];
    let from = Long.fromNumber(1);
    try {
      for (;;) {
        const page = await guarded('read the input control state', () =>
          receiver.peekMessages(PEEK_PAGE, { fromSequenceNumber: from }),
        );
        all.push(...page);
        if (page.length < PEEK_PAGE) return all;
        from = page[page.length - 1]!.sequenceNumber!.add(1);
      }
    } catch (error) {
      // No control queue yet: nothing was ever paused, thresholded or reported.
      if (isCode(error, TransportErrorCode.EntityNotFound)) return [];
      throw error;
    }
  }

  /**
   * Defers what is active (new versions: only ever read by peeking), then removes the versions that are
   * superseded. Another writer tidying at the same time may take a message first; that one is left to it.
   */
  async #tidy(): Promise<void> {
    const receiver = this.#receive();
    for (;;) {
      const batch = await guarded('defer control documents', () =>
        receiver.receiveMessages(PEEK_PAGE, { maxWaitTimeInMs: 200 }),
      );
      for (const message of batch)
        await guarded('defer a control document', () => receiver.deferMessage(message));
      // A short batch took everything that was there: asking again would only wait out the receive.
      if (batch.length < PEEK_PAGE) break;
    }
    const messages = await this.#peekAll();
    const stored = messages.map(fromControlMessage).filter((d): d is StoredDocument => d !== null);
    const newest = new Set([...latestByKey(stored).values()].map((d) => d.sequenceNumber));
    const superseded = messages.filter(
      (m) => m.state === 'deferred' && !newest.has(BigInt(m.sequenceNumber!.toString())),
    );
    for (const message of superseded) {
      try {
        const [taken] = await guarded('remove a superseded control document', () =>
          receiver.receiveDeferredMessages(message.sequenceNumber!),
        );
        if (taken)
          await guarded('remove a superseded control document', () => receiver.completeMessage(taken));
      } catch (error) {
        const raced =
          isCode(error, TransportErrorCode.MessageNotFound) ||
          isCode(error, TransportErrorCode.MessageLockLost);
        if (!raced) throw error;
      }
    }
  }

  #receive(): ServiceBusReceiver {
    this.#receiver ??= this.client.createReceiver(CONTROL_QUEUE, { skipParsingBodyAsJson: true });
    return this.#receiver;
  }

  #sendTo(): ServiceBusSender {
    this.#sender ??= this.client.createSender(CONTROL_QUEUE);
    return this.#sender;
  }
}
