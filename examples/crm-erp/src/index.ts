export { CustomerUpserted, InvoiceIssued, RequestCreditCheck } from './events.js';
export { Credit, Crm, Erp, platform } from './platform.js';
