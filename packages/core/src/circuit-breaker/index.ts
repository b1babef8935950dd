export { gateTransport, withCircuitBreaker } from './breaker-gate.js';
export {
  CircuitBreakerOpenError,
  CircuitState,
  type CircuitStateChange,
  EndpointCircuitBreaker,
} from './circuit-breaker.js';
export {
  type CircuitBreakerOptions,
  CircuitBreakerOptionsError,
  type ErrorClass,
} from './circuit-breaker-options.js';
