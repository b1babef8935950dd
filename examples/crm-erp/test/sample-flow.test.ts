import { Addresses, decodeEnvelope, MessageType, topologyFromPlatform } from '@nimbus/core';
import { createOperatorClient } from '@nimbus/sdk';
import { createMemoryTransport } from '@nimbus/transport-memory';
import { afterEach, describe, expect, it } from 'vitest';
import { noFaults } from '../src/erp/fake-erp-api.js';
import { platform } from '../src/platform.js';
import { type SampleAdapters, startSampleAdapters } from '../src/sample-adapters.js';
import { BLOCKED_DEMO_CUSTOMER, BLOCKED_DEMO_VALID_VAT, startTrafficGenerator } from '../src/traffic.js';

async function until(what: string, condition: () => boolean | Promise<boolean>, timeoutMs = 5_000) {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`Timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

describe('sample adapters with the blocked-session scenario (memory transport)', () => {
  let adapters: SampleAdapters | null = null;
  afterEach(async () => {
    await adapters?.stop();
  });

  it('blocks C-2001 on the rejected VAT number, and an operator resubmit applies revisions 1, 2, 3 in order, then the credit handoff completes', async () => {
    const transport = createMemoryTransport({ lockDurationMs: 5_000 });
    await transport.applyTopology(topologyFromPlatform(platform));
    const lines: string[] = [];
    adapters = await startSampleAdapters({
      transport,
      log: (line) => lines.push(line),
      erpFaults: noFaults,
      creditAnswerDelayMs: 10,
    });
    const traffic = await startTrafficGenerator({
      transport,
      maxMessages: 0,
      log: (line) => lines.push(line),
    });
    expect(traffic.published).toBe(3);

    // The Resolver input receives the Erp's error response for revision 1; 2 and 3 stay parked.
    const failure = await (async () => {
      let found: ReturnType<typeof decodeEnvelope> | undefined;
      await until('the ERP error response', async () => {
        const peeked = await transport.peek(Addresses.resolver, { max: 100 });
        found = peeked
          .map((m) => decodeEnvelope(m))
          .find((e) => e.messageType === MessageType.ErrorResponse && e.sessionId === BLOCKED_DEMO_CUSTOMER);
        return found !== undefined;
      });
      return found!;
    })();
    expect(failure.content.errorContent?.errorText).toContain('not a valid VAT number');
    expect(adapters.erpApi.getCustomer(BLOCKED_DEMO_CUSTOMER)).toBeNull();
    expect(lines.filter((l) => l.startsWith('Erp applied'))).toEqual([]);

    const fixed = {
      customerId: BLOCKED_DEMO_CUSTOMER,
      name: 'Nordic Widgets',
      email: 'ap@nordic.example',
      vatNumber: BLOCKED_DEMO_VALID_VAT,
      revision: 1,
    };
    await createOperatorClient(transport).resubmit(failure, { eventJson: JSON.stringify(fixed) });

    await until(
      'revision 3 applied',
      () => adapters?.erpApi.getCustomer(BLOCKED_DEMO_CUSTOMER)?.revision === 3,
    );
    expect(lines.filter((l) => l.startsWith(`Erp applied customer ${BLOCKED_DEMO_CUSTOMER}`))).toEqual([
      `Erp applied customer ${BLOCKED_DEMO_CUSTOMER} revision 1`,
      `Erp applied customer ${BLOCKED_DEMO_CUSTOMER} revision 2`,
      `Erp applied customer ${BLOCKED_DEMO_CUSTOMER} revision 3`,
    ]);
    expect(adapters.erpApi.getCustomer(BLOCKED_DEMO_CUSTOMER)?.name).toBe('Nordic Widgets A/S');
    await until('the credit bureau answer', () =>
      lines.includes(`Credit answered ${BLOCKED_DEMO_CUSTOMER}: approved`),
    );
    await traffic.stop();
  });
});
