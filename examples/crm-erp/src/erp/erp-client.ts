import { ErpRejectedError, ErpThrottledError, ErpUnavailableError } from './erp-errors.js';
import type { ErpCustomerRecord, FakeErpApi } from './fake-erp-api.js';

/** What applying a customer revision did. */
export type UpsertOutcome = 'applied' | 'already-applied';

/**
 * The ERP client the adapter uses. It maps the ERP's answers to typed errors (the failure mapping lives
 * here, at the boundary) and makes the upsert idempotent: a revision at or below the stored one is a no-op,
 * so redeliveries, retries and replays never move a customer backwards.
 */
export class ErpClient {
  constructor(private readonly api: FakeErpApi) {}

  upsertCustomer(customer: ErpCustomerRecord): UpsertOutcome {
    const current = this.api.getCustomer(customer.customerId);
    if (current && current.revision >= customer.revision) return 'already-applied';
    const response = this.api.putCustomer(customer);
    switch (response.status) {
      case 200:
        return 'applied';
      case 429:
        throw new ErpThrottledError(Number(response.body.retryAfterMs ?? 1000));
      case 503:
        throw new ErpUnavailableError(
          `The ERP is unavailable: ${String(response.body.message ?? 'no detail')}.`,
        );
      case 422:
        throw new ErpRejectedError(String(response.body.field), String(response.body.problem));
    }
  }

  revisionOf(customerId: string): number | null {
    return this.api.getCustomer(customerId)?.revision ?? null;
  }
}
