import { type Transport, uuidv7 } from '@nimbus/core';
import { createPublisher } from '@nimbus/sdk';
import { CustomerUpserted, InvoiceIssued } from './events.js';
import { Crm, Erp } from './platform.js';

/** The customer whose first update the ERP rejects, so a newcomer finds a blocked session to fix. */
export const BLOCKED_DEMO_CUSTOMER = 'C-2001';
export const BLOCKED_DEMO_INVALID_VAT = 'DK-12AB5678';
export const BLOCKED_DEMO_VALID_VAT = 'DK12345678';

const CUSTOMERS = [
  ['C-1001', 'Ada Ltd', 'DK10000001'],
  ['C-1002', 'Babbage & Sons', 'SE100000000002'],
  ['C-1003', 'Curie Labs', 'FR10000000003'],
  ['C-1004', 'Dijkstra BV', 'NL100000004B01'],
  ['C-1005', 'Euler GmbH', 'DE100000005'],
  ['C-1006', 'Fermat SARL', 'FR10000000006'],
] as const;

export interface TrafficOptions {
  readonly transport: Transport;
  /** Time between generated messages; default 3 000 ms. */
  readonly intervalMs?: number;
  /** Publish the blocked-session scenario first (three revisions of {@link BLOCKED_DEMO_CUSTOMER}). Default true. */
  readonly blockedScenario?: boolean;
  /** Stop after this many generated messages (the scenario not counted); default unlimited. */
  readonly maxMessages?: number;
  readonly random?: () => number;
  readonly log?: (line: string) => void;
}

export interface TrafficGenerator {
  /** Messages published so far, the scenario included. */
  readonly published: number;
  stop(): Promise<void>;
}

/**
 * Plays the CRM and the ERP: customer updates from the CRM (now and then with a VAT number the ERP rejects)
 * and invoices from the ERP. Publishes through the SDK publisher, like a real adapter would.
 */
export async function startTrafficGenerator(options: TrafficOptions): Promise<TrafficGenerator> {
  const crm = createPublisher({ transport: options.transport, endpoint: Crm });
  const erp = createPublisher({ transport: options.transport, endpoint: Erp });
  const random = options.random ?? Math.random;
  const log = options.log ?? (() => undefined);
  const revisions = new Map<string, number>();
  let published = 0;
  let generated = 0;

  if (options.blockedScenario ?? true) {
    const base = { customerId: BLOCKED_DEMO_CUSTOMER, name: 'Nordic Widgets' };
    const revisions = [
      { email: 'ap@nordic.example', vatNumber: BLOCKED_DEMO_INVALID_VAT, revision: 1 },
      { email: 'billing@nordic.example', vatNumber: BLOCKED_DEMO_VALID_VAT, revision: 2 },
      {
        email: 'billing@nordic.example',
        vatNumber: BLOCKED_DEMO_VALID_VAT,
        revision: 3,
        name: 'Nordic Widgets A/S',
      },
    ];
    const correlationId = uuidv7();
    // One at a time, in order: they share the customer's session, so the ERP sees them in this order.
    for (const change of revisions) {
      await crm.publish(CustomerUpserted, { ...base, ...change }, { correlationId });
    }
    published += 3;
    log(`Traffic published 3 revisions of ${BLOCKED_DEMO_CUSTOMER}; revision 1 has an invalid VAT number`);
  }

  const tick = async () => {
    const [customerId, name, vatNumber] = CUSTOMERS[Math.floor(random() * CUSTOMERS.length)] ?? CUSTOMERS[0];
    if (random() < 0.3 && revisions.has(customerId)) {
      const invoiceId = `INV-${Date.now().toString(36)}-${published}`;
      await erp.publish(InvoiceIssued, {
        invoiceId,
        customerId,
        amount: Math.round(random() * 5000),
        currency: 'EUR',
      });
    } else {
      const revision = (revisions.get(customerId) ?? 0) + 1;
      revisions.set(customerId, revision);
      const invalid = random() < 0.05;
      await crm.publish(CustomerUpserted, {
        customerId,
        name,
        email: `contact+r${revision}@${customerId.toLowerCase()}.example`,
        vatNumber: invalid ? `${vatNumber.slice(0, 2)}-INVALID` : vatNumber,
        revision,
      });
    }
    published += 1;
    generated += 1;
  };

  let timer: NodeJS.Timeout | null = null;
  let running: Promise<void> = Promise.resolve();
  let stopped = false;
  const schedule = () => {
    if (stopped || (options.maxMessages !== undefined && generated >= options.maxMessages)) return;
    timer = setTimeout(() => {
      running = tick()
        .catch((error: unknown) => log(`Traffic could not publish: ${(error as Error).message}`))
        .finally(schedule);
    }, options.intervalMs ?? 3_000);
  };
  schedule();

  return {
    get published() {
      return published;
    },
    async stop() {
      stopped = true;
      if (timer) clearTimeout(timer);
      await running;
    },
  };
}
