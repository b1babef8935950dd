import { defineCommand, defineEvent } from '@nimbus/core';
import { z } from 'zod';

/** The CRM created or changed a customer. Ordered per customer. */
export const CustomerUpserted = defineEvent('CustomerUpserted', {
  description: 'A customer was created or changed in the CRM.',
  schema: z.object({
    customerId: z.string().min(1),
    name: z.string().min(1),
    email: z.email(),
    vatNumber: z.string().min(1),
    revision: z.number().int().nonnegative(),
  }),
  sessionKey: 'customerId',
  example: {
    customerId: 'C-1001',
    name: 'Ada Ltd',
    email: 'ap@ada.example',
    vatNumber: 'DK12345678',
    revision: 1,
  },
});

/** The ERP issued an invoice to a customer. */
export const InvoiceIssued = defineEvent('InvoiceIssued', {
  description: 'The ERP issued an invoice.',
  schema: z.object({
    invoiceId: z.string().min(1),
    customerId: z.string().min(1),
    amount: z.number().nonnegative(),
    currency: z.string().length(3),
  }),
  sessionKey: 'customerId',
});

/** Ask the credit service to check a customer; it answers later through a handoff. */
export const RequestCreditCheck = defineCommand('RequestCreditCheck', {
  description: 'Check the credit of a customer (handled asynchronously by an external bureau).',
  schema: z.object({ customerId: z.string().min(1), amount: z.number().nonnegative() }),
  sessionKey: 'customerId',
});
