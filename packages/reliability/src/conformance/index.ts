// Store conformance suites: every inbox/outbox provider's tests run them (see docs/reliability.md).
export { describeInboxStoreConformance, type InboxConformanceFixture } from './inbox-conformance.js';
export {
  conformanceMessage,
  describeOutboxStoreConformance,
  type OutboxConformanceFixture,
} from './outbox-conformance.js';
