export {
  FunctionsBindingError,
  heldSession,
  type ServiceBusBinding,
  withSentBody,
} from './held-session.js';
export { type EndpointFunctionsOptions, registerEndpointFunctions } from './register-endpoint.js';
export {
  type FunctionsApp,
  registerSessionTrigger,
  type SessionAdopter,
  type SessionTriggerOptions,
  subscriptionOf,
} from './session-trigger.js';
