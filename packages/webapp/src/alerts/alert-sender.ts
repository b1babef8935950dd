import { type Clock, isNimBusError, type Logger } from '@nimbus/core';
import type { NimBusMessageStore } from '@nimbus/message-store';
import { redactSecrets } from '../http/redact.js';
import type { AlertDelivery, AlertStore } from './alert-store.js';
import { type AlertSubscription, isAlertSubscription } from './alert-subscriptions.js';
import type { Mailer } from './mailer.js';
import { notificationFailed, postWebhook } from './webhook-destination.js';
import { DELIVERY_HEADER, SIGNATURE_HEADER, signAlertBody, TIMESTAMP_HEADER } from './webhook-signature.js';

export interface RetryPolicy {
  /** Attempts in all, the first included. */
  readonly maxAttempts: number;
  /** The wait after the first failure; it doubles after each further one, up to `maxDelayMs`. */
  readonly baseDelayMs: number;
  readonly maxDelayMs: number;
}

export const DEFAULT_RETRY_POLICY: RetryPolicy = {
  maxAttempts: 6,
  baseDelayMs: 10_000,
  maxDelayMs: 15 * 60_000,
};

export interface AlertSenderDeps {
  readonly store: NimBusMessageStore;
  readonly alertStore: AlertStore;
  readonly mailer: Mailer | null;
  readonly clock: Clock;
  readonly logger: Logger;
  readonly retry: RetryPolicy;
  /** This instance, as the lease owner. */
  readonly owner: string;
  readonly timeoutMs: number;
  /** Webhooks may target loopback, private and link-local addresses (an operator setting; default no). */
  readonly allowPrivateWebhookTargets?: boolean;
}

const MAX_ERROR = 500;

/** Sends the deliveries that are due, one lease each, and records every attempt with its outcome. */
export class AlertSender {
  constructor(private readonly deps: AlertSenderDeps) {}

  /** Returns how many deliveries were attempted. */
  async sendDue(): Promise<number> {
    const { alertStore, clock, owner, timeoutMs } = this.deps;
    const due = await alertStore.leaseDue(owner, clock.now(), timeoutMs * 2 + 5_000, 20);
    for (const delivery of due) await this.attempt(delivery);
    return due.length;
  }

  private async attempt(delivery: AlertDelivery): Promise<void> {
    const { alertStore, clock, retry, logger } = this.deps;
    const started = clock.now();
    const attempt = delivery.attempts + 1;
    let error: string | null = null;
    let final = false;
    try {
      const subscription = (await this.deps.store.getSubscriptionsOnEndpoint(delivery.endpointId))
        .filter(isAlertSubscription)
        .find((s) => s.id === delivery.subscriptionId);
      if (!subscription) {
        error = 'The subscription was deleted; nothing sent.';
        final = true;
      } else {
        await this.send(subscription, delivery);
      }
    } catch (e) {
      // Error texts of failed calls often repeat the url, credentials and query included: never stored so.
      error = redactSecrets(describeError(e)).slice(0, MAX_ERROR);
    }
    const now = clock.now();
    const failed = error !== null;
    const exhausted = final || attempt >= retry.maxAttempts;
    const delay = Math.min(retry.maxDelayMs, retry.baseDelayMs * 2 ** (attempt - 1));
    await alertStore.recordAttempt(
      { deliveryId: delivery.id, attempt, at: started, ok: !failed, error, durationMs: now - started },
      {
        status: !failed ? 'Delivered' : exhausted ? 'Failed' : 'Retrying',
        nextAttemptAt: failed && !exhausted ? now + delay : now,
        deliveredAt: failed ? null : now,
      },
    );
    // Ids only: a target url or an address may carry a secret of its own.
    if (failed)
      logger.warn(
        { deliveryId: delivery.id, subscriptionId: delivery.subscriptionId, attempt, error },
        exhausted ? 'Alert delivery failed for good' : 'Alert delivery failed; retrying',
      );
  }

  private async send(subscription: AlertSubscription, delivery: AlertDelivery): Promise<void> {
    if (subscription.type === 'mail') {
      if (!this.deps.mailer)
        throw notificationFailed('SMTP is not configured for this WebApp; the e-mail was not sent.');
      const payload = JSON.parse(delivery.payloadJson) as { summary: string };
      await this.deps.mailer.send(
        subscription.mail,
        `[NimBus] ${payload.summary}`.slice(0, 200),
        `${payload.summary}\n\n${JSON.stringify(JSON.parse(delivery.payloadJson), null, 2)}\n`,
      );
      return;
    }
    const secret = subscription.alert.webhookSecret ?? '';
    const timestamp = Math.floor(this.deps.clock.now() / 1000);
    const status = await postWebhook(subscription.url, {
      headers: {
        'content-type': 'application/json',
        'user-agent': 'NimBus-Alerts/1',
        [DELIVERY_HEADER]: delivery.id,
        [TIMESTAMP_HEADER]: String(timestamp),
        [SIGNATURE_HEADER]: signAlertBody(secret, timestamp, delivery.payloadJson),
      },
      body: delivery.payloadJson,
      timeoutMs: this.deps.timeoutMs,
      allowPrivateTargets: this.deps.allowPrivateWebhookTargets ?? false,
    });
    if (status < 200 || status >= 300) throw notificationFailed(`The webhook answered HTTP ${status}.`);
  }
}

/**
 * The message, with the cause's (a connection refused, a DNS failure) when the error has one, and a system
 * error's code (`ECONNREFUSED`). Not a NimBus error's code: every failed delivery is `NotificationFailed`, so
 * the operator reads what failed (`The webhook answered HTTP 500.`), not the same word on every attempt.
 */
function describeError(e: unknown): string {
  const error = e as Error & { cause?: unknown; code?: string };
  const message = error?.message || String(e);
  const cause = error?.cause instanceof Error ? `: ${error.cause.message}` : '';
  const systemCode = isNimBusError(error) ? undefined : error?.code;
  const code = systemCode && !message.includes(systemCode) ? ` (${systemCode})` : '';
  return `${message}${code}${cause}`;
}
