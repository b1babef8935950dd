/**
 * A dead-lettered or unsupported event left its session's order (later events went on): a resubmit runs it
 * after them. The API answers 409 unless the request says `acknowledgeOutOfOrder: true`, which the operator
 * gives by confirming this warning.
 */
export function resubmitRunsOutOfOrder(status: string): boolean {
  return status === 'DeadLettered' || status === 'Unsupported';
}

export function OutOfOrderWarning({ status, sessionId }: { status: string; sessionId: string }) {
  if (!resubmitRunsOutOfOrder(status)) return null;
  return (
    <p className="error" data-testid="out-of-order-warning">
      This event is {status}: session {sessionId} went on without it, so resubmitting runs it{' '}
      <b>after later events of its session</b>, out of order. Confirm only if that is safe.
    </p>
  );
}
