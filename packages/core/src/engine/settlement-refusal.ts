import type { Logger } from '../logger.js';
import { countMetric } from '../telemetry/metrics.js';
import { MetricName, TelemetryAttribute, TelemetryScope } from '../telemetry/names.js';
import type { SessionHandle } from '../transport/transport.js';
import { isTransportError, TransportErrorCode } from '../transport/transport-error.js';

/** A settlement the transport refused because this process no longer holds the message or its session. */
export function isLeaseRefusal(error: unknown): boolean {
  return (
    isTransportError(error, TransportErrorCode.SessionLockLost) ||
    isTransportError(error, TransportErrorCode.MessageLockLost)
  );
}

let refusedSoFar = 0;

/**
 * Logs and counts (`nimbus.message.settlement_refused`) settlements the transport refused because the session's
 * lease lapsed or was taken over: nothing of them was applied, the messages belong to the new holder.
 */
export function reportRefusedSettlement(
  logger: Logger,
  endpointId: string,
  session: Pick<SessionHandle, 'input' | 'sessionId'>,
  messages: number,
  error: unknown,
): void {
  refusedSoFar += messages;
  countMetric(
    TelemetryScope.Consumer,
    MetricName.SettlementRefused,
    { [TelemetryAttribute.Endpoint]: endpointId },
    messages,
  );
  logger.warn(
    {
      input: session.input,
      sessionId: session.sessionId,
      messages,
      refusedSoFar,
      error: error instanceof Error ? error.message : String(error),
    },
    'Settlement refused by the transport: the session lease lapsed or was taken over; nothing of it was applied',
  );
}

/**
 * The lease was lost in the middle of a batch (the fence refused the next handler start): the messages whose
 * handlers already ran are still offered for settlement. The transport applies it only while the lease holds
 * (checked in the settling statement), so a lease that merely came close to its end loses nothing, and one that
 * was taken over is refused (logged and counted by the batch) and never applied.
 */
export async function settleWhatRan(
  batch: { commit(): Promise<void> },
  sessionId: string,
  logger: Logger,
): Promise<void> {
  try {
    await batch.commit();
  } catch (error) {
    if (!isLeaseRefusal(error))
      logger.warn(
        { sessionId, error: String(error) },
        'Could not settle the messages handled before the session lease was lost; they are delivered again.',
      );
  }
}
