export { RecordingTransport } from './recording-transport.js';
export {
  createTestBus,
  type DeliverAllOptions,
  type DeliveryReport,
  TestBus,
  type TestBusOptions,
  type TestEndpointOptions,
} from './test-bus.js';
