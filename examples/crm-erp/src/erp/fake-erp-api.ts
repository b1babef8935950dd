/** What the remote ERP answers, shaped like its HTTP API: a status code and a body. */
export interface ErpResponse {
  readonly status: 200 | 422 | 429 | 503;
  readonly body: Record<string, unknown>;
}

export interface ErpCustomerRecord {
  readonly customerId: string;
  readonly name: string;
  readonly email: string;
  readonly vatNumber: string;
  readonly revision: number;
}

/** Decides whether call number `n` (1-based) hits an infrastructure fault. */
export type ErpFaultPlan = (callNumber: number) => 'throttled' | 'unavailable' | null;

/** Every 9th call is throttled and every 13th is unavailable: enough to show automatic retries. */
export const sampleFaultPlan: ErpFaultPlan = (n) =>
  n % 9 === 0 ? 'throttled' : n % 13 === 0 ? 'unavailable' : null;

export const noFaults: ErpFaultPlan = () => null;

/** Two letters followed by 8 to 12 digits or capital letters, e.g. DK12345678 or NL123456789B01. */
const VAT_NUMBER = /^[A-Z]{2}[0-9A-Z]{8,12}$/;

/**
 * A stand-in for the real ERP: it keeps customers in memory, validates VAT numbers like the real one would,
 * and injects throttling and outages according to a fault plan.
 */
export class FakeErpApi {
  readonly #customers = new Map<string, ErpCustomerRecord>();
  #calls = 0;
  #lastStatus: number | null = null;

  constructor(private readonly faults: ErpFaultPlan = sampleFaultPlan) {}

  /** The status of the last answer (`null` before the first call): what the sample's custom check watches. */
  get lastStatus(): number | null {
    return this.#lastStatus;
  }

  putCustomer(customer: ErpCustomerRecord): ErpResponse {
    const response = this.#put(customer);
    this.#lastStatus = response.status;
    return response;
  }

  #put(customer: ErpCustomerRecord): ErpResponse {
    this.#calls += 1;
    const fault = this.faults(this.#calls);
    if (fault === 'throttled') return { status: 429, body: { retryAfterMs: 500 } };
    if (fault === 'unavailable') return { status: 503, body: { message: 'ERP maintenance window' } };
    if (!VAT_NUMBER.test(customer.vatNumber)) {
      return {
        status: 422,
        body: {
          field: 'vatNumber',
          problem: `'${customer.vatNumber}' is not a valid VAT number (e.g. DK12345678)`,
        },
      };
    }
    this.#customers.set(customer.customerId, customer);
    return { status: 200, body: { customerId: customer.customerId, revision: customer.revision } };
  }

  getCustomer(customerId: string): ErpCustomerRecord | null {
    return this.#customers.get(customerId) ?? null;
  }
}
