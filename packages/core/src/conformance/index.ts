// Transport conformance suite: every transport's tests run it (see docs/transports.md).
export { describeTransportConformance } from './describe-transport-conformance.js';
export {
  CONFORMANCE_TOPOLOGY,
  MAX_REAL_TIME_LOCK_MS,
  type TransportConformanceFactory,
  type TransportConformanceFixture,
} from './harness.js';
