export {
  type CustomCheck,
  type CustomCheckOutcome,
  runCustomCheck,
} from './custom-checks.js';
export { createEndpointHost, EndpointHost, type EndpointHostOptions } from './endpoint-host.js';
export {
  assertEndpointInbox,
  EndpointHostConfigurationError,
  type EndpointInbox,
} from './endpoint-inbox.js';
export type { HandlerContext, MessageLineage } from './handler-context.js';
export { createHandoffClient, HandoffClient, type HandoffCoordinates } from './handoff-client.js';
export { deterministicMessageId } from './message-id.js';
export { createOperatorClient, OperatorClient, type OperatorTarget } from './operator-client.js';
export { readEventJson } from './payload.js';
export {
  type AnyPublishItem,
  createPublisher,
  Publisher,
  type PublisherOptions,
  type PublishItem,
  type PublishOptions,
  type PublishReceipt,
} from './publisher.js';
export {
  createSubscriber,
  type DynamicEventHandler,
  type DynamicHandlerFactory,
  defineHandler,
  type EventHandler,
  type HandlerDefinition,
  HandlerRegistrationError,
  pendingHandoffHandler,
  Subscriber,
} from './subscriber.js';
