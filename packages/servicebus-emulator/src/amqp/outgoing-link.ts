import type { Entry } from '../broker/message.js';
import type { Consumer, Queue } from '../broker/queue.js';
import { asBrokerError, BrokerError, Condition } from '../wire/errors.js';
import { renderEntry } from './render.js';
import { messageCodec, type RheaContext, type RheaDelivery, type RheaLink } from './rhea.js';

const LOCK_TOKEN = Symbol('lock token');

interface RheaSenderState {
  _draining: boolean;
  _drained: boolean;
  credit: number;
  delivery_count: number;
  _get_drain(): boolean;
}

/**
 * rhea (3.0) sets the drain flag on its answer only while credit is left, but the credit may already be spent by
 * transfers written between the client's drain and the answer. The answer then goes out without the flag; the
 * SDK waits for a drained reply until its drain timeout and closes the receiver, and a session receiver's lease
 * goes with it (seen as receives of 10 s in `npm run bench:servicebus`). AMQP 1.0 (2.6.7): a sender that is
 * asked to drain answers with a flow carrying drain, whatever credit is left. This answers every drain once.
 */
function answerEveryDrain(link: RheaLink): void {
  const sender = link as unknown as RheaSenderState;
  sender._get_drain = function (this: RheaSenderState) {
    if (!this._draining || !this._drained) return false;
    this.delivery_count += this.credit;
    this.credit = 0;
    this._draining = false;
    return true;
  };
}

/**
 * A client's receiver link on a subscription (or its dead-letter sub-queue): delivers on credit, answers drain,
 * and settles every disposition itself with the outcome or an error condition.
 */
export class OutgoingLink implements Consumer {
  sessionId: string | null = null;
  #closed = false;

  constructor(
    readonly link: RheaLink,
    readonly queue: Queue,
  ) {}

  get name(): string {
    return this.link.name;
  }

  /**
   * Credit not yet spent: rhea lowers `credit` only when it writes a transfer (later, on its own tick), so the
   * deliveries queued on this link's session but not yet written count against it too.
   */
  credit(): number {
    if (this.#closed || !this.link.is_open() || !this.link.sendable()) return 0;
    const outgoing = (
      this.link as unknown as {
        session: { outgoing: { next_delivery_id: number; next_pending_delivery: number } };
      }
    ).session.outgoing;
    return this.link.credit - (outgoing.next_delivery_id - outgoing.next_pending_delivery);
  }

  start(): void {
    const link = this.link;
    link.on('sendable', () => this.queue.pump());
    // Drain: deliver what there is, then give the remaining credit back so the SDK's receive returns.
    answerEveryDrain(link);
    link.on('sender_draining', () => {
      this.queue.pump();
      link.set_drained(true);
    });
    link.on('accepted', (context) => this.#settle(context, (token) => this.queue.complete(token, this)));
    link.on('released', (context) => this.#settle(context, (token) => this.queue.release(token, this)));
    link.on('modified', (context) => {
      const state = context.delivery?.remote_state ?? {};
      this.#settle(context, (token) => {
        if (state.undeliverable_here) this.queue.defer(token, this);
        else this.queue.abandon(token, this, state.message_annotations);
      });
    });
    link.on('rejected', (context) => {
      const error = context.delivery?.remote_state?.error ?? {};
      const info = (error.info ?? {}) as Record<string, unknown>;
      const { DeadLetterReason, DeadLetterErrorDescription, ...extra } = info;
      this.#settle(context, (token) =>
        this.queue.deadLetter(
          token,
          this,
          DeadLetterReason as string | undefined,
          DeadLetterErrorDescription as string | undefined,
          extra,
        ),
      );
    });
    this.queue.addConsumer(this);
  }

  deliver(entry: Entry, tag: Buffer, lockedUntil: number): void {
    const delivery = this.link.send(renderEntry(entry, lockedUntil), tag);
    delivery[LOCK_TOKEN] = entry.lock!.token;
  }

  onSessionLockLost(sessionId: string): void {
    this.close({
      condition: Condition.sessionLockLost,
      description: `the lock on session '${sessionId}' expired`,
    });
  }

  close(error?: { condition: string; description: string }): void {
    if (this.#closed) return;
    this.detached();
    if (!this.link.is_closed()) this.link.close(error);
  }

  /**
   * The link is gone. Closed by the client: its locks end and messages stay in place without counting a delivery.
   * Lost with its connection (a crashed client): like the service, the locks are kept until they expire, and the
   * expiry counts a delivery.
   */
  detached(abrupt = false): void {
    if (this.#closed) return;
    this.#closed = true;
    this.queue.cancelSessionWait(this);
    if (abrupt) this.queue.forgetConsumer(this);
    else this.queue.removeConsumer(this);
  }

  /** Applies a disposition and settles the delivery: the outcome on success, `rejected` with the condition otherwise. */
  #settle(context: RheaContext, apply: (token: string) => void): void {
    const delivery = context.delivery as RheaDelivery;
    const token = delivery[LOCK_TOKEN] as string | undefined;
    try {
      if (!token) throw new BrokerError(Condition.messageLockLost, 'unknown delivery');
      apply(token);
      delivery.update(true, messageCodec.accepted().described());
    } catch (error) {
      delivery.update(true, messageCodec.rejected({ error: asBrokerError(error).toAmqp() }).described());
    }
    // The outcome is final (the client settles second and says nothing more), so rhea may free the slot;
    // otherwise its 2,048-delivery session buffer fills and the link stalls.
    (delivery as { remote_settled?: boolean }).remote_settled = true;
  }
}
