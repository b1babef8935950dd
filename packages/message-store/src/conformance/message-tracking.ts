import { describe } from 'vitest';
import type { MessageTrackingStore } from '../contracts/message-tracking-store.js';
import type { ConformanceStoreFactory } from './factory.js';
import { storeOpener } from './harness.js';
import { registerBatchCases } from './tracking-batch.js';
import { registerTryCompleteCases } from './tracking-complete.js';
import { registerFailureGroupCases } from './tracking-failure-groups.js';
import { registerGuardCases } from './tracking-guard.js';
import { registerHistoryAndAuditCases } from './tracking-history.js';
import { registerLookupCases } from './tracking-lookups.js';
import { registerRetentionCases } from './tracking-retention.js';
import { registerRetryStateCases } from './tracking-retry-state.js';
import { registerSearchCases } from './tracking-search.js';
import { registerSessionViewCases } from './tracking-session-views.js';
import { registerStatusWriteCases } from './tracking-status.js';
import { registerEndpointViewCases } from './tracking-views.js';

/** The shared MessageTrackingStore suite: every provider's tests call this with their factory. */
export function describeMessageTrackingStoreConformance(
  providerName: string,
  factory: ConformanceStoreFactory<MessageTrackingStore>,
): void {
  describe(`MessageTrackingStore conformance [${providerName}]`, () => {
    const open = storeOpener(factory);
    registerStatusWriteCases(() => open());
    registerEndpointViewCases(() => open());
    registerSessionViewCases(() => open());
    registerGuardCases(() => open());
    registerTryCompleteCases(() => open());
    registerBatchCases(() => open());
    registerLookupCases(() => open());
    registerHistoryAndAuditCases(() => open());
    registerSearchCases(() => open());
    registerFailureGroupCases(() => open());
    registerRetryStateCases(() => open());
    registerRetentionCases(open);
  });
}
