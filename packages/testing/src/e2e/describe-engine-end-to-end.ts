import { NimBusError, NimBusErrorCode } from '@nimbus/core';
import { afterEach, beforeEach, describe } from 'vitest';
import { createTestBus, type TestBus } from '../test-bus.js';
import type { EngineEndToEnd } from './cases/billing.js';
import { deliveryCases } from './cases/delivery.js';
import { failureCases } from './cases/failures.js';
import { type EndToEndFixture, type EndToEndTransportFactory, NEEDS_MANUAL_CLOCK } from './fixture.js';
import { platform } from './platform.js';

/**
 * Registers the engine end-to-end suite (reference §7.7: publish, route, block, park, replay, resubmit, skip,
 * retry, handoff, dead-letter) as `Engine end to end [name]`: the real publisher, engines and operator
 * clients over the transport `factory` gives for each case. Cases that jump time are skipped, with the
 * reason, when the transport has no manual clock.
 */
export function describeEngineEndToEnd(name: string, factory: EndToEndTransportFactory): void {
  describe(`Engine end to end [${name}]`, () => {
    let fixture: EndToEndFixture | undefined;
    let bus: TestBus | undefined;

    beforeEach(async () => {
      fixture = await factory();
    });

    afterEach(async () => {
      const [opened, given] = [bus, fixture];
      bus = undefined;
      fixture = undefined;
      await (opened ? opened.close() : given?.transport.close());
      await given?.cleanup();
    });

    const e2e: EngineEndToEnd = {
      async open() {
        if (!fixture)
          throw new NimBusError(
            NimBusErrorCode.ExpectationFailed,
            'the engine end-to-end suite opened a bus outside a case',
          );
        if (bus)
          throw new NimBusError(
            NimBusErrorCode.ExpectationFailed,
            'one bus per case: the suite closes it after the case',
          );
        bus = createTestBus({ platform, transport: fixture });
        await bus.ready();
        return bus;
      },
      requireManualClock(context) {
        if (!fixture?.clock) context.skip(NEEDS_MANUAL_CLOCK);
      },
    };

    deliveryCases(e2e);
    failureCases(e2e);
  });
}
