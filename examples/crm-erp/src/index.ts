export { type CreditDecision, type CreditJob, FakeCreditBureau } from './credit/fake-credit-bureau.js';
export { CrmInvoiceBook } from './crm/crm-adapter.js';
export { ErpClient, type UpsertOutcome } from './erp/erp-client.js';
export { ErpRejectedError, ErpThrottledError, ErpUnavailableError } from './erp/erp-errors.js';
export { erpRetryPolicies } from './erp/erp-retry-policies.js';
export {
  type ErpCustomerRecord,
  type ErpFaultPlan,
  type ErpResponse,
  FakeErpApi,
  noFaults,
  sampleFaultPlan,
} from './erp/fake-erp-api.js';
export { CustomerUpserted, InvoiceIssued, RequestCreditCheck } from './events.js';
export { Credit, Crm, Erp, platform } from './platform.js';
export { type SampleAdapterOptions, type SampleAdapters, startSampleAdapters } from './sample-adapters.js';
export {
  BLOCKED_DEMO_CUSTOMER,
  BLOCKED_DEMO_INVALID_VAT,
  BLOCKED_DEMO_VALID_VAT,
  startTrafficGenerator,
  type TrafficGenerator,
  type TrafficOptions,
} from './traffic.js';
