import { type Logger, silentLogger, type Transport } from '@nimbus/core';
import { createEndpointHost, type EndpointHost } from '@nimbus/sdk';
import { creditSubscriber } from './credit/credit-adapter.js';
import { FakeCreditBureau } from './credit/fake-credit-bureau.js';
import { CrmInvoiceBook, crmSubscriber } from './crm/crm-adapter.js';
import { erpSubscriber } from './erp/erp-adapter.js';
import { ErpClient } from './erp/erp-client.js';
import { erpRetryPolicies } from './erp/erp-retry-policies.js';
import { type ErpFaultPlan, FakeErpApi, sampleFaultPlan } from './erp/fake-erp-api.js';
import { Credit, Crm, Erp, platform } from './platform.js';

export interface SampleAdapterOptions {
  readonly transport: Transport;
  /** One line per business effect (what a newcomer watches in the terminal). */
  readonly log?: (line: string) => void;
  readonly logger?: Logger;
  readonly erpFaults?: ErpFaultPlan;
  readonly creditAnswerDelayMs?: number;
  /** How often the hosts renew their session leases (`nimbus dev --lease-renew-ms`); default a third of the lease. */
  readonly leaseRenewalIntervalMs?: number;
}

export interface SampleAdapters {
  readonly hosts: readonly EndpointHost[];
  readonly erpApi: FakeErpApi;
  readonly invoices: CrmInvoiceBook;
  stop(): Promise<void>;
}

/** Starts the Crm, Erp and Credit endpoint hosts of the sample platform on the given transport. */
export async function startSampleAdapters(options: SampleAdapterOptions): Promise<SampleAdapters> {
  const log = options.log ?? (() => undefined);
  const logger = options.logger ?? silentLogger;
  const erpApi = new FakeErpApi(options.erpFaults ?? sampleFaultPlan);
  const invoices = new CrmInvoiceBook();
  const bureau = new FakeCreditBureau(options.creditAnswerDelayMs ?? 2_000);
  const processor = {
    maxConcurrentSessions: 4,
    sessionIdleTimeoutMs: 1_000,
    acceptWaitMs: 1_000,
    ...(options.leaseRenewalIntervalMs === undefined
      ? {}
      : { leaseRenewalIntervalMs: options.leaseRenewalIntervalMs }),
  };
  const common = { platform, transport: options.transport, logger, processor };

  const erp = createEndpointHost({
    ...common,
    endpoint: Erp,
    subscriber: erpSubscriber(new ErpClient(erpApi), log),
    retryPolicies: erpRetryPolicies(),
    // Shown on the console's Monitoring page; needs a transport with control state (SQL, memory).
    ...(options.transport.control
      ? {
          customChecks: [
            {
              name: 'erp-api',
              intervalMs: 5_000,
              run: () =>
                erpApi.lastStatus === 503
                  ? { healthy: false, reason: 'the ERP answered 503 (maintenance window) to the last call' }
                  : { healthy: true, reason: `last answer ${erpApi.lastStatus ?? 'none yet'}` },
            },
          ],
        }
      : {}),
  });
  const crm = createEndpointHost({ ...common, endpoint: Crm, subscriber: crmSubscriber(invoices, log) });
  const credit: EndpointHost = createEndpointHost({
    ...common,
    endpoint: Credit,
    subscriber: creditSubscriber(bureau, () => credit.handoff, log),
  });
  const hosts = [erp, crm, credit];
  await Promise.all(hosts.map((host) => host.start()));
  return {
    hosts,
    erpApi,
    invoices,
    async stop() {
      bureau.stop();
      await Promise.all(hosts.map((host) => host.stop()));
    },
  };
}
