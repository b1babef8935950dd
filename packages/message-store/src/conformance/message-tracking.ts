import { describe } from 'vitest';
import type { MessageTrackingStore } from '../contracts/message-tracking-store.js';
import type { ConformanceStoreFactory } from './factory.js';
import { storeOpener } from './harness.js';
import { registerBatchCases } from './tracking-batch.js';
import { registerTryCompleteCases } from './tracking-complete.js';
import { registerGuardCases } from './tracking-guard.js';
import { registerHistoryCases } from './tracking-history.js';
import { registerLookupCases } from './tracking-lookups.js';
import { registerRetentionCases } from './tracking-retention.js';
import { registerStatusAndViewCases } from './tracking-status.js';

/** The shared MessageTrackingStore suite: every provider's tests call this with their factory. */
export function describeMessageTrackingStoreConformance(
  providerName: string,
  factory: ConformanceStoreFactory<MessageTrackingStore>,
): void {
  describe(`MessageTrackingStore conformance [${providerName}]`, () => {
    const open = storeOpener(factory);
    registerStatusAndViewCases(() => open());
    registerGuardCases(() => open());
    registerTryCompleteCases(() => open());
    registerBatchCases(() => open());
    registerLookupCases(() => open());
    registerHistoryCases(() => open());
    registerRetentionCases(open);
  });
}
