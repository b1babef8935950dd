import { lifecycleCases } from '@nimbus/core/conformance';
import { describe } from 'vitest';
import type { OpenMessageStore } from '../contracts/nimbus-message-store.js';
import type { ConformanceStoreFactory } from './factory.js';
import { storeOpener } from './harness.js';

/** The lifecycle shape every provider's store has (`ServiceLifecycle`, shared with the transports). */
export function describeStoreLifecycleConformance(
  providerName: string,
  factory: ConformanceStoreFactory<OpenMessageStore>,
): void {
  describe(`Store lifecycle conformance [${providerName}]`, () => {
    const open = storeOpener(factory);
    lifecycleCases(async () => {
      const { store } = await open();
      return { component: store, use: () => store.getHeartbeatSettings() };
    });
  });
}
