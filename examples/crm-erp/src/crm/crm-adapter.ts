import { createSubscriber, type Subscriber } from '@nimbus/sdk';
import { InvoiceIssued } from '../events.js';

/** The CRM's copy of invoices, keyed by invoice id so a redelivered invoice is stored once. */
export class CrmInvoiceBook {
  readonly #invoices = new Map<string, { customerId: string; amount: number; currency: string }>();

  record(invoiceId: string, customerId: string, amount: number, currency: string): boolean {
    if (this.#invoices.has(invoiceId)) return false;
    this.#invoices.set(invoiceId, { customerId, amount, currency });
    return true;
  }

  get size(): number {
    return this.#invoices.size;
  }
}

/** The CRM adapter: shows invoices issued by the ERP on the customer's page. */
export function crmSubscriber(book: CrmInvoiceBook, log: (line: string) => void): Subscriber {
  return createSubscriber().on(InvoiceIssued, (invoice) => {
    const added = book.record(invoice.invoiceId, invoice.customerId, invoice.amount, invoice.currency);
    log(
      `Crm ${added ? 'recorded' : 'already had'} invoice ${invoice.invoiceId} for customer ${invoice.customerId}`,
    );
  });
}
