// Transport conformance suite: every transport's tests run it (see docs/transports.md); the lifecycle suite runs
// on every long-running component (see docs/architecture.md).

export {
  describeInputControlConformance,
  type InputControlFixture,
} from './cases/input-control.js';
// The lifecycle cases, shared with the message-store conformance suite.
export { type LifecycleSubject, lifecycleCases } from './cases/lifecycle.js';
export {
  describeLifecycleConformance,
  type HeldWork,
  type LifecycleConformanceFactory,
  type LifecycleConformanceFixture,
} from './describe-lifecycle-conformance.js';
export { describeTransportConformance } from './describe-transport-conformance.js';
export {
  CONFORMANCE_TOPOLOGY,
  MAX_REAL_TIME_LOCK_MS,
  type TransportConformanceFactory,
  type TransportConformanceFixture,
} from './harness.js';
export { type HoldingCalls, holdingCalls } from './holding-calls.js';
