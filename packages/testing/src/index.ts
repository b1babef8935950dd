export {
  type DeliverAllOptions,
  type DeliveryReport,
  type DeliveryTiming,
  deliverUntilQuiet,
  deliveryTiming,
  type InputWorker,
} from './delivery.js';
export { RecordingTransport } from './recording-transport.js';
export {
  createTestBus,
  TestBus,
  type TestBusOptions,
  type TestBusTransport,
  type TestEndpointOptions,
} from './test-bus.js';
export { whileAdvancing } from './while-advancing.js';
