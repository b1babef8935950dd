/**
 * Typed failures at the ERP client boundary. The adapter's retry policy provider matches on these classes,
 * so the handler code never decides about retries itself.
 */
export class ErpThrottledError extends Error {
  override readonly name = 'ErpThrottledError';
  constructor(readonly retryAfterMs: number) {
    super(`The ERP throttled the request; it asks to retry after ${retryAfterMs} ms.`);
  }
}

/** The ERP is down or timed out; trying again later is expected to work. */
export class ErpUnavailableError extends Error {
  override readonly name = 'ErpUnavailableError';
}

/** The ERP refused the data itself; retrying the same payload can never succeed, an operator must act. */
export class ErpRejectedError extends Error {
  override readonly name = 'ErpRejectedError';
  constructor(
    readonly field: string,
    readonly problem: string,
  ) {
    super(`The ERP rejected the customer: ${field} ${problem}.`);
  }
}
