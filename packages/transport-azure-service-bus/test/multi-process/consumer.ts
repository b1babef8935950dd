// A consumer process for the multi-process kill test on Service Bus: the same SessionProcessor and record file
// as the SQL transports' consumer (packages/transport-sql/test/multi-process/recording-consumer.ts).
import {
  requiredEnv,
  runRecordingConsumer,
} from '../../../transport-sql/test/multi-process/recording-consumer.js';
import { ServiceBusTransport } from '../../src/index.js';

await runRecordingConsumer(
  new ServiceBusTransport({
    connectionString: requiredEnv('NIMBUS_SERVICEBUS_CONNECTION_STRING'),
    managementCa: requiredEnv('NIMBUS_SERVICEBUS_CA'),
    lockDurationMs: 2000,
    maxDeliveryCount: 5,
  }),
);
