import { describeTransportConformance } from '@nimbus/core/conformance';
import { emulatedTransport } from './fixtures.js';

// Emulator-verified: the unmodified @azure/service-bus client against nimbus-sb-emulator.
describeTransportConformance('azure service bus (emulator)', async () => {
  const { transport, cleanup } = await emulatedTransport();
  return { transport, cleanup };
});
