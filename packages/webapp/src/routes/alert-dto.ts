import { z } from 'zod';
import type { AlertDelivery, DeliveryAttempt } from '../alerts/alert-store.js';
import type { AlertSubscription } from '../alerts/alert-subscriptions.js';

const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());

export const DeliveryDto = z.object({
  id: z.string(),
  trigger: z.string(),
  status: z.string(),
  attempts: z.number(),
  lastError: z.string().nullable(),
  createdAt: z.string(),
  deliveredAt: z.string().nullable(),
  nextAttemptAt: z.string().nullable(),
  summary: z.string(),
  attemptLog: z.array(
    z.object({
      attempt: z.number(),
      at: z.string(),
      ok: z.boolean(),
      error: z.string().nullable(),
      durationMs: z.number(),
    }),
  ),
});

export function deliveryDto({
  delivery,
  attempts,
}: {
  delivery: AlertDelivery;
  attempts: readonly DeliveryAttempt[];
}): z.input<typeof DeliveryDto> {
  const active = delivery.status === 'Pending' || delivery.status === 'Retrying';
  return {
    id: delivery.id,
    trigger: delivery.trigger,
    status: delivery.status,
    attempts: delivery.attempts,
    lastError: delivery.lastError,
    createdAt: new Date(delivery.createdAt).toISOString(),
    deliveredAt: iso(delivery.deliveredAt),
    nextAttemptAt: active ? iso(delivery.nextAttemptAt) : null,
    summary: (JSON.parse(delivery.payloadJson) as { summary?: string }).summary ?? '',
    attemptLog: attempts.map((a) => ({
      attempt: a.attempt,
      at: new Date(a.at).toISOString(),
      ok: a.ok,
      error: a.error,
      durationMs: a.durationMs,
    })),
  };
}

/** A webhook url may hold a token in its path or query: only its origin is shown. */
export function maskedUrl(url: string): string {
  try {
    const parsed = new URL(url);
    return parsed.pathname === '/' && !parsed.search ? parsed.origin : `${parsed.origin}/…`;
  } catch {
    return '…';
  }
}

export const AlertSubscriptionDto = z.object({
  id: z.string(),
  endpointId: z.string(),
  channel: z.string(),
  /** The e-mail address, or the webhook's origin (the rest of its url is not shown). */
  target: z.string(),
  triggers: z.array(z.string()),
  blockedMinutes: z.number(),
  digestMinutes: z.number().nullable(),
  maxPerHour: z.number().nullable(),
  eventTypes: z.array(z.string()),
  payload: z.string(),
  /** Whether a shared secret is set; the secret itself is never returned. */
  signed: z.boolean(),
  createdAt: z.string(),
  lastDelivery: DeliveryDto.nullable(),
});

export function alertSubscriptionDto(
  s: AlertSubscription,
  last: { delivery: AlertDelivery; attempts: DeliveryAttempt[] } | null,
): z.input<typeof AlertSubscriptionDto> {
  return {
    id: s.id,
    endpointId: s.endpointId,
    channel: s.type,
    target: s.type === 'mail' ? s.mail : maskedUrl(s.url),
    triggers: [...s.alert.triggers],
    blockedMinutes: s.alert.blockedMinutes,
    digestMinutes: s.alert.digestMinutes ?? null,
    maxPerHour: s.alert.maxPerHour ?? null,
    eventTypes: [...s.eventTypes],
    payload: s.payload,
    signed: Boolean(s.alert.webhookSecret),
    createdAt: s.alert.createdAt,
    lastDelivery: last ? deliveryDto(last) : null,
  };
}
