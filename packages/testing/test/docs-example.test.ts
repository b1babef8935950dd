// The examples quoted in docs/sdk.md, docs/retries-and-failures.md and docs/testing-adapters.md.
// Keep the regions between `// #region` markers in sync with the docs.
import {
  DefaultRetryPolicyProvider,
  defineEndpoint,
  defineEvent,
  definePlatform,
  MessageType,
  PermanentFailureClassifier,
  RetryPolicy,
  silentLogger,
  topologyFromPlatform,
} from '@nimbus/core';
import { createEndpointHost, createOperatorClient, createSubscriber, Publisher } from '@nimbus/sdk';
import { createMemoryTransport } from '@nimbus/transport-memory';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createTestBus } from '../src/index.js';

// #region platform
const AccountCreated = defineEvent('AccountCreated', {
  schema: z.object({ accountId: z.string().min(1), name: z.string() }),
  sessionKey: 'accountId', // events of one account are handled in order
});
const Crm = defineEndpoint('CrmEndpoint', { produces: [AccountCreated] });
const Erp = defineEndpoint('ErpEndpoint', { consumes: [AccountCreated] });
const platform = definePlatform([Crm, Erp]);
// #endregion platform

class ErpUnavailableError extends Error {
  override name = 'ErpUnavailableError';
  constructor(readonly retryAfterMs?: number) {
    super('ERP is unavailable');
  }
}
class InvalidAccountError extends Error {
  override name = 'InvalidAccountError';
}

// #region retries
const retryPolicies = new DefaultRetryPolicyProvider()
  // typed rule: the error or any error in its `cause` chain, subclasses too
  .addErrorRule(
    ErpUnavailableError,
    new RetryPolicy({
      maxRetries: 5,
      strategy: 'exponential',
      baseDelayMs: 30_000,
      maxDelayMs: 10 * 60_000,
      jitter: 'bounded',
    }),
  )
  // a policy for every failure of one event type
  .addEventTypePolicy('AccountCreated', new RetryPolicy({ maxRetries: 1, baseDelayMs: 60_000 }));

// dead-letter bad payloads at once instead of burning retries
const failureClassifier = new PermanentFailureClassifier({ errorTypes: [InvalidAccountError] });
// #endregion retries

describe('docs examples', () => {
  it('sdk.md: publish from one endpoint, handle at another', async () => {
    const transport = createMemoryTransport();
    await transport.applyTopology(topologyFromPlatform(platform));
    const created: string[] = [];

    // #region subscriber
    const subscriber = createSubscriber().on(AccountCreated, async (account, context) => {
      // `account` is typed from the schema: { accountId: string; name: string }
      created.push(`${account.accountId}:${account.name} (${context.eventId})`);
    });

    const host = createEndpointHost({
      platform,
      endpoint: 'ErpEndpoint',
      transport,
      subscriber,
      retryPolicies,
      failureClassifier,
      processor: { maxConcurrentSessions: 8 },
    });
    await host.start();
    // #endregion subscriber

    // #region publisher
    const publisher = new Publisher({ transport, endpoint: 'CrmEndpoint', platform });
    const receipt = await publisher.publish(
      AccountCreated,
      { accountId: 'acc-1', name: 'Contoso' },
      { messageId: 'crm-account-created-acc-1-v1' }, // a natural idempotency key
    );
    // #endregion publisher

    const deadline = Date.now() + 5_000;
    while (created.length === 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 5));
    await host.stop();
    await transport.close();
    expect(receipt.sessionId).toBe('acc-1');
    expect(created[0]).toMatch(/^acc-1:Contoso \(/);
  });

  it('testing-adapters.md: the test bus', async () => {
    // #region test-bus
    const bus = createTestBus({ platform });
    const erpCalls: string[] = [];
    let erpDown = true;
    bus.endpoint('ErpEndpoint', {
      subscriber: createSubscriber().on(AccountCreated, async (account) => {
        if (erpDown) throw new ErpUnavailableError();
        erpCalls.push(account.accountId);
      }),
      retryPolicies,
    });

    await bus.publisher('CrmEndpoint').publish(AccountCreated, { accountId: 'acc-1', name: 'Contoso' });
    await bus.deliverAll(); // runs until nothing is left; the first attempt fails
    expect(bus.outcomes().get(bus.requestsTo('ErpEndpoint')[0]!.eventId!)).toBe(MessageType.ErrorResponse);

    erpDown = false;
    const report = await bus.deliverAll({ advanceTime: true }); // the clock jumps to the scheduled retry
    expect(report.advancedMs).toBeGreaterThanOrEqual(30_000);
    expect(erpCalls).toEqual(['acc-1']);
    expect([...bus.outcomes().values()]).toEqual([MessageType.ResolutionResponse]);
    // #endregion test-bus
  });

  it('sdk.md: operator actions', async () => {
    const bus = createTestBus({ platform, logger: silentLogger });
    bus.endpoint('ErpEndpoint', {
      subscriber: createSubscriber().on(AccountCreated, async (account) => {
        if (account.name === '') throw new Error('name is required by the ERP');
      }),
    });
    await bus.publisher('CrmEndpoint').publish(AccountCreated, { accountId: 'acc-2', name: '' });
    await bus.deliverAll();
    const [failed] = bus.responses({ type: MessageType.ErrorResponse });
    // #region operator
    const operator = createOperatorClient(bus.transport);
    // run the handler again with a corrected payload (or: operator.skip(failed))
    await operator.resubmit(failed!, { eventJson: JSON.stringify({ accountId: 'acc-2', name: 'Fabrikam' }) });
    // #endregion operator
    await bus.deliverAll();
    expect([...bus.outcomes().values()]).toEqual([MessageType.ResolutionResponse]);
  });
});
