import { type ConformanceSetup, describeMessageStoreConformance } from '@nimbus/message-store/conformance';
import { createMemoryMessageStore } from '../src/index.js';

const memory = async ({ clock, retention }: ConformanceSetup) => ({
  store: createMemoryMessageStore({ clock, retention, env: {} }),
  cleanup: async () => {},
});

describeMessageStoreConformance('memory', memory);
