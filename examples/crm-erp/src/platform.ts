import { defineEndpoint, definePlatform } from '@nimbus/core';
import { CustomerUpserted, InvoiceIssued, RequestCreditCheck } from './events.js';

export const Crm = defineEndpoint('Crm', {
  description: 'Customer relationship management adapter',
  system: 'CRM',
  produces: [CustomerUpserted],
  consumes: [InvoiceIssued],
});

export const Erp = defineEndpoint('Erp', {
  description: 'Enterprise resource planning adapter',
  system: 'ERP',
  produces: [InvoiceIssued, RequestCreditCheck],
  consumes: [CustomerUpserted],
});

export const Credit = defineEndpoint('Credit', {
  description: 'Credit bureau adapter (answers through a pending handoff)',
  system: 'CreditBureau',
  consumes: [RequestCreditCheck],
});

export const platform = definePlatform([Crm, Erp, Credit]);
