import type { HandlerRun } from './harness/handler-log.js';
import type { WebAppClient } from './harness/webapp-client.js';

interface BlockedSession {
  readonly sessionId: string;
  readonly blockingEventId: string;
  readonly blockingStatus: string;
}

/** How long the operator leaves an event alone after it failed with a retryable error (the bus retries it). */
const HOLD_OFF_RETRYABLE_MS = 25_000;

export type OperatorAction = 'resubmit' | 'resubmit-with-changes' | 'skip';

export interface OperatorFigures {
  resubmits: number;
  editedResubmits: number;
  skips: number;
  /** Two or more actions on the same event at once. */
  concurrentActions: number;
  /** The same action again on an event already acted on. */
  repeatedActions: number;
  refused: number;
  serverErrors: number;
  unreachable: number;
  /** Resubmits of dead-lettered or unsupported events the operator confirmed may run out of order. */
  outOfOrderResubmits: number;
}

/**
 * An operator working the WebApp's blocked-sessions view: resubmits, edited resubmits (turning the payload
 * healthy) and skips, sometimes twice at once or a conflicting pair at once, sometimes again later.
 */
export class ChaosOperator {
  readonly figures: OperatorFigures = {
    resubmits: 0,
    editedResubmits: 0,
    skips: 0,
    concurrentActions: 0,
    repeatedActions: 0,
    refused: 0,
    serverErrors: 0,
    unreachable: 0,
    outOfOrderResubmits: 0,
  };
  /** Why actions were refused (`409 <title>`), with counts: a lagging store or the engine's own refusal. */
  readonly refusals = new Map<string, number>();
  /** Answers other than 503 with a status of 500 or more: the WebApp failed on an operator's request. */
  readonly internalErrors: string[] = [];
  /**
   * Events the operator resubmitted with the out-of-order acknowledgement (accepted by the WebApp), with when
   * it asked: their runs from then on are declared out of order, not reorders.
   */
  readonly declaredOutOfOrder = new Map<string, number>();
  readonly #acted = new Map<string, OperatorAction>();

  constructor(
    private readonly client: WebAppClient,
    private readonly rand: () => number,
    private readonly runsOf: (eventId: string) => HandlerRun | undefined,
    private readonly lastRunOf: (eventId: string) => HandlerRun | undefined = () => undefined,
  ) {}

  /**
   * One pass over the blocked sessions; returns how many are blocked by a Failed event (dead-lettered permanent
   * failures stay listed until someone acts, and are acted on once), or -1 when the WebApp did not answer.
   */
  async pass(): Promise<number> {
    let blocked: BlockedSession[];
    try {
      const response = await this.client.call<BlockedSession[]>(
        'GET',
        '/api/endpoints/Warehouse/blocked-sessions',
      );
      if (response.status !== 200) {
        this.figures.unreachable += 1;
        return -1;
      }
      blocked = response.body;
    } catch {
      this.figures.unreachable += 1;
      return -1;
    }
    await Promise.all(
      blocked.map((session) => this.#work(session.blockingEventId, session.blockingStatus === 'Failed')),
    );
    return blocked.filter((session) => session.blockingStatus === 'Failed').length;
  }

  async #work(eventId: string, failed: boolean): Promise<void> {
    const previous = this.#acted.get(eventId);
    if (previous !== undefined) {
      if (!failed) return;
      // A failure a retry policy matches is the bus's to retry: leave it alone a while (the checker then sees
      // whether the bus did, issue 12.4).
      const last = this.lastRunOf(eventId);
      if (last?.retryable && last.outcome === 'failed' && Date.now() - last.at < HOLD_OFF_RETRYABLE_MS)
        return;
      // The store may lag: acting again must be harmless (refused or a no-op), never a second run out of order.
      if (this.rand() < 0.5) {
        this.figures.repeatedActions += 1;
        await this.#act(eventId, previous);
      }
      return;
    }
    const roll = this.rand();
    // A Failed event blocks its session: resubmit, edit or skip it. A dead-lettered (or unsupported) one left
    // its session's order: skip it, or resubmit it confirming that it runs after later events of the session.
    const action: OperatorAction = failed
      ? roll < 0.4
        ? 'resubmit'
        : roll < 0.7
          ? 'resubmit-with-changes'
          : 'skip'
      : roll < 0.5
        ? 'skip'
        : roll < 0.75
          ? 'resubmit'
          : 'resubmit-with-changes';
    const outOfOrder = !failed && action !== 'skip';
    this.#acted.set(eventId, action);
    const burst = this.rand();
    if (burst < 0.25) {
      this.figures.concurrentActions += 1;
      await Promise.all([this.#act(eventId, action, outOfOrder), this.#act(eventId, action, outOfOrder)]);
    } else if (burst < 0.4) {
      this.figures.concurrentActions += 1;
      const other: OperatorAction = action === 'skip' ? 'resubmit' : 'skip';
      await Promise.all([
        this.#act(eventId, action, outOfOrder),
        this.#act(eventId, other, !failed && other !== 'skip'),
      ]);
    } else {
      await this.#act(eventId, action, outOfOrder);
    }
  }

  async #act(eventId: string, action: OperatorAction, outOfOrder = false): Promise<void> {
    const base = `/api/endpoints/Warehouse/events/${encodeURIComponent(eventId)}`;
    let body: Record<string, unknown> = {
      comment: 'chaos operator',
      ...(outOfOrder ? { acknowledgeOutOfOrder: true } : {}),
    };
    if (action === 'resubmit-with-changes') {
      const run = this.runsOf(eventId);
      if (!run) return;
      body = { ...body, eventJson: JSON.stringify({ orderId: run.orderId, n: run.n, mode: 'ok' }) };
    }
    if (action === 'resubmit') this.figures.resubmits += 1;
    else if (action === 'skip') this.figures.skips += 1;
    else this.figures.editedResubmits += 1;
    const askedAt = Date.now();
    try {
      const { status, body: answer } = await this.client.call<{ title?: string; detail?: string }>(
        'POST',
        `${base}/${action}`,
        body,
      );
      if (outOfOrder && status < 300) {
        this.figures.outOfOrderResubmits += 1;
        if (!this.declaredOutOfOrder.has(eventId)) this.declaredOutOfOrder.set(eventId, askedAt);
      }
      if (status >= 500) this.figures.serverErrors += 1;
      if (status >= 500 && status !== 503)
        this.internalErrors.push(
          `${status} ${action} of ${eventId}: ${JSON.stringify(answer).slice(0, 160)}`,
        );
      else if (status >= 400) this.figures.refused += 1;
      if (status >= 400) {
        const why = `${status} ${action}: ${JSON.stringify(answer).slice(0, 160)}`;
        this.refusals.set(why, (this.refusals.get(why) ?? 0) + 1);
      }
    } catch {
      this.figures.unreachable += 1;
    }
  }
}
