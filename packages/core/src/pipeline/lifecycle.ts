import type { Logger } from '../logger.js';

/** Identity of a message as observers see it; every field is read without throwing. */
export interface LifecycleContext {
  readonly messageId: string | null;
  readonly eventId: string | null;
  readonly eventTypeId: string | null;
  readonly correlationId: string | null;
  readonly sessionId: string | null;
  readonly endpointId: string;
  readonly messageType: string | null;
  readonly enqueuedAt: Date | null;
  readonly isReplay: boolean;
  readonly timestamp: Date;
}

/**
 * Notified with the real outcome of each message, after it was settled. Every method is optional; an
 * observer that throws is logged and does not affect processing.
 */
export interface LifecycleObserver {
  onMessageReceived?(context: LifecycleContext): void | Promise<void>;
  onMessageCompleted?(context: LifecycleContext): void | Promise<void>;
  onMessageFailed?(context: LifecycleContext, error: unknown): void | Promise<void>;
  onMessageDeadLettered?(context: LifecycleContext, reason: string, error: unknown): void | Promise<void>;
  onSessionBlocked?(context: LifecycleContext, blockedByEventId: string | null): void | Promise<void>;
  /**
   * The inbox found that this endpoint already handled the message: the handler did not run and a
   * `SkipResponse` (DuplicateDetected) was sent. Called before `onMessageCompleted`.
   */
  onDuplicateDetected?(context: LifecycleContext): void | Promise<void>;
}

export type LifecycleEvent =
  | { readonly kind: 'received' }
  | { readonly kind: 'completed' }
  | { readonly kind: 'failed'; readonly error: unknown }
  | { readonly kind: 'deadLettered'; readonly reason: string; readonly error: unknown }
  | { readonly kind: 'sessionBlocked'; readonly blockedByEventId: string | null }
  | { readonly kind: 'duplicateDetected' };

/** Calls every observer in registration order; failures are logged, never thrown. */
export async function notifyObservers(
  observers: readonly LifecycleObserver[],
  context: LifecycleContext,
  event: LifecycleEvent,
  logger: Logger,
): Promise<void> {
  for (const observer of observers) {
    try {
      switch (event.kind) {
        case 'received':
          await observer.onMessageReceived?.(context);
          break;
        case 'completed':
          await observer.onMessageCompleted?.(context);
          break;
        case 'failed':
          await observer.onMessageFailed?.(context, event.error);
          break;
        case 'deadLettered':
          await observer.onMessageDeadLettered?.(context, event.reason, event.error);
          break;
        case 'sessionBlocked':
          await observer.onSessionBlocked?.(context, event.blockedByEventId);
          break;
        case 'duplicateDetected':
          await observer.onDuplicateDetected?.(context);
          break;
      }
    } catch (error) {
      logger.warn(
        { event: event.kind, messageId: context.messageId, error: String(error) },
        'A lifecycle observer failed; processing continues.',
      );
    }
  }
}
