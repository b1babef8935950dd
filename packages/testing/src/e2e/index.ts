// End-to-end suites shipped for transport implementers (see docs/testing-adapters.md).
export type { EngineEndToEnd } from './cases/billing.js';
export { describeEngineEndToEnd } from './describe-engine-end-to-end.js';
export {
  type EndToEndFixture,
  type EndToEndTransportFactory,
  memoryTransportFixture,
  NEEDS_MANUAL_CLOCK,
} from './fixture.js';
