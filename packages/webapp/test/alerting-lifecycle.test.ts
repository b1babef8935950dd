import { silentLogger, systemClock } from '@nimbus/core';
import { describeLifecycleConformance, holdingCalls } from '@nimbus/core/conformance';
import { createMemoryMessageStore } from '@nimbus/message-store';
import { createMemoryAlertStore } from '../src/alerts/alert-store.js';
import { Alerting } from '../src/alerts/alerting.js';
import { EndpointCatalog } from '../src/app/endpoint-catalog.js';

// The held work is the next round's read of the alert threads (a round every 20 ms here; it takes no signal).
describeLifecycleConformance('Alerting', async (work) => {
  const store = createMemoryMessageStore({ env: {} });
  const alertStore = holdingCalls(createMemoryAlertStore(), ['listThreads'], () => work());
  return {
    component: new Alerting(
      { store, catalog: new EndpointCatalog(null, store), clock: systemClock, logger: silentLogger },
      { store: alertStore.proxy, everyMs: 20 },
    ),
    signalsWork: false,
    trigger: async () => alertStore.arm(),
    cleanup: () => store.stop(),
  };
});
