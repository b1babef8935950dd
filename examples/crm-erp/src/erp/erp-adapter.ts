import { createSubscriber, type Subscriber } from '@nimbus/sdk';
import { CustomerUpserted, RequestCreditCheck } from '../events.js';
import type { ErpClient } from './erp-client.js';

/** Opening credit line the ERP asks the bureau to approve for a new customer. */
export const INITIAL_CREDIT_LINE = 10_000;

/**
 * The ERP adapter: applies customer revisions from the CRM and, for a customer it sees for the first time,
 * asks the credit bureau for a check. Failures surface as the client's typed errors.
 */
export function erpSubscriber(erp: ErpClient, log: (line: string) => void): Subscriber {
  return createSubscriber().on(CustomerUpserted, async (customer, context) => {
    const isNew = erp.revisionOf(customer.customerId) === null;
    const outcome = erp.upsertCustomer(customer);
    if (outcome === 'already-applied') {
      log(`Erp skipped customer ${customer.customerId} revision ${customer.revision} (already applied)`);
      return;
    }
    log(`Erp applied customer ${customer.customerId} revision ${customer.revision}`);
    if (isNew) {
      await context.publish(
        RequestCreditCheck,
        { customerId: customer.customerId, amount: INITIAL_CREDIT_LINE },
        { messageId: `${context.eventId}-credit-check` },
      );
    }
  });
}
