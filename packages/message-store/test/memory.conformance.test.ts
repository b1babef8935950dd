import { describeMessageTrackingStoreConformance } from '@nimbus/message-store/conformance';
import { createMemoryMessageStore } from '../src/index.js';

const memory = async ({
  clock,
  retention,
}: {
  clock: import('@nimbus/core').Clock;
  retention: { unresolvedRetentionDays: number };
}) => ({
  store: createMemoryMessageStore({ clock, retention, env: {} }),
  cleanup: async () => {},
});

describeMessageTrackingStoreConformance('memory', memory);
