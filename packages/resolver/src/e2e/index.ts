// The Resolver end-to-end suite, shipped for store and transport implementers (see docs/testing-adapters.md).
export { Bus, CONSUMER, CUSTOMER_CHANGED, type Mode, type Payload, PRODUCER } from './bus.js';
export {
  describeResolverEndToEnd,
  type ResolverEndToEndOptions,
} from './describe-resolver-end-to-end.js';
export { type Fault, withFaults } from './faulty-store.js';
