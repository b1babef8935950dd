// `@nimbus/core/transport-spi`: what a transport implementation needs and an application does not — the one
// routing rule, the topology diff, the argument checks every transport applies to its callers, and the
// waiting primitive for accept and receive. The SPI's types (`Transport`, `SessionHandle`, …) are in the main
// entry, since applications hold transports too.

export { describeValue, headerProblems } from './transport/message-validation.js';
export { type Delivery, routeMessage } from './transport/routing.js';
export {
  assertDeadLetterReason,
  assertPublishBatchSize,
  assertPublishSource,
  assertSessionState,
  assertSettledOnce,
  assertSettleEffects,
  assertTransportMessage,
  deadLetterOutcome,
  maxDeliveryDescription,
  parkedMessageNotFound,
  transportMessageSize,
} from './transport/settle-validation.js';
export { diffTopology, holdsMessages, routeKey } from './transport/topology.js';
export { type WakeReason, WorkWaiters } from './transport/work-waiters.js';
