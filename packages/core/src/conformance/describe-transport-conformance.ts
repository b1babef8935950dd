import { afterEach, beforeEach, describe } from 'vitest';
import { NimBusErrorCode } from '../errors/error-codes.js';
import { NimBusError } from '../errors/nimbus-error.js';
import { hasChanges } from '../transport/topology.js';
import { acceptSessionsCases } from './cases/accept-sessions.js';
import { closingCases } from './cases/closing.js';
import { engineReplayCases } from './cases/engine-replay.js';
import { fairnessCases } from './cases/fairness.js';
import { fencingCases } from './cases/fencing.js';
import { lifecycleCases } from './cases/lifecycle.js';
import { operatorViewCases } from './cases/operator-views.js';
import { parkedDeadLetterCases } from './cases/parked-dead-letters.js';
import { parkingCases } from './cases/parking.js';
import { routingCases } from './cases/routing.js';
import { schedulingCases } from './cases/scheduling.js';
import { sessionCases } from './cases/sessions.js';
import { settleManyCases } from './cases/settle-many.js';
import { atomicSettlementCases, settlementCases } from './cases/settlement.js';
import { unreadableMessageCases } from './cases/unreadable-messages.js';
import { CONFORMANCE_TOPOLOGY, Harness, type TransportConformanceFactory } from './harness.js';

/**
 * Registers the transport contract as a vitest suite titled `Transport conformance [name]`. `factory` is called
 * before every case and must return a fresh, empty transport (its `cleanup` runs after the case). Cases that need a
 * capability the transport does not declare are skipped with the reason; time-dependent cases use the fixture's
 * `advance`/`clock` when given, otherwise short real waits (so give real-time transports a lockDurationMs ≤ 1.5 s).
 */
export function describeTransportConformance(name: string, factory: TransportConformanceFactory): void {
  describe(`Transport conformance [${name}]`, () => {
    let harness: Harness | undefined;
    const current = (): Harness => {
      if (!harness)
        throw new NimBusError(NimBusErrorCode.ExpectationFailed, 'conformance harness used outside a test');
      return harness;
    };

    beforeEach(async () => {
      const fixture = await factory();
      harness = new Harness(fixture);
      const changes = await fixture.transport.applyTopology(CONFORMANCE_TOPOLOGY);
      if (!hasChanges(changes))
        throw new NimBusError(
          NimBusErrorCode.ExpectationFailed,
          `the ${name} factory must return an empty transport for each case`,
        );
    });

    afterEach(async () => {
      const fixture = harness?.fixture;
      harness = undefined;
      if (fixture) {
        await fixture.transport.close();
        await fixture.cleanup();
      }
    });

    describe('sessions', () => sessionCases(current));
    describe('fair sessions and wake-ups', () => fairnessCases(current));
    describe('several sessions in one call (optional acceptSessions)', () => acceptSessionsCases(current));
    describe('settlement', () => settlementCases(current));
    describe('fencing: a lapsed or taken-over lease', () => fencingCases(current));
    describe('atomic settle and publish (capability atomicSettleAndPublish)', () =>
      atomicSettlementCases(current));
    describe('settling a batch in one call (capability settleMany)', () => settleManyCases(current));
    describe('scheduling', () => schedulingCases(current));
    describe('routing (design D3)', () => routingCases(current));
    describe('parking', () => parkingCases(current));
    describe('dead-lettering parked messages (SettleEffects.deadLetterParked)', () =>
      parkedDeadLetterCases(current));
    describe('operator views and topology', () => operatorViewCases(current));
    describe('the engine over this transport', () => engineReplayCases(current));
    describe('messages that cannot be read (poison)', () => unreadableMessageCases(current));
    describe('closing: close() drains, abort() now, closed()', () => closingCases(current));
    describe('lifecycle (start, stop, state, Symbol.asyncDispose)', () =>
      lifecycleCases(async () => {
        const h = current();
        return { component: h.transport, use: () => h.sendTo('Erp', 'lifecycle', 'x') };
      }));
  });
}
