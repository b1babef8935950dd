export {
  determineEndpoint,
  type ResolvedEndpoint,
  resultingStatus,
  UnmappedMessageTypeError,
} from '@nimbus/message-store';
export {
  type HealthRoutesOptions,
  type HealthServer,
  type HealthServerOptions,
  healthRequestListener,
  startHealthServer,
} from './health/health-server.js';
export {
  foldHeartbeatHistory,
  type HeartbeatFoldResult,
} from './heartbeat/fold-heartbeat-history.js';
export { type HeartbeatPayload, parseHeartbeatPayload } from './heartbeat/heartbeat-payload.js';
export {
  ENDPOINT_PROBE_SESSION,
  heartbeatProbe,
  RESOLVER_PROBE_SESSION,
} from './heartbeat/heartbeat-probe.js';
export {
  createHeartbeatScheduler,
  HEARTBEAT_TICK_MS,
  type HeartbeatScheduler,
  type HeartbeatSchedulerArgs,
  type HeartbeatSchedulerStore,
  type HeartbeatTickResult,
} from './heartbeat/heartbeat-scheduler.js';
export { isHeartbeatTraffic } from './heartbeat/heartbeat-traffic.js';
export { HEARTBEAT_HISTORY_DAYS, runHeartbeatHistoryFold } from './heartbeat/history-fold-run.js';
export { RESOLVER_ORIGINAL_TO_HEADER } from './redelivery.js';
export {
  type CreateResolverArgs,
  createResolver,
  type Resolver,
  type ResolverOptions,
  ResolverOptionsError,
} from './resolver.js';
export {
  DeadLetterReasons,
  ResolverHandler,
  type ResolverHandlerDeps,
  type ResolverStats,
} from './resolver-handler.js';
export type { ResolverStore } from './resolver-store.js';
export { CONTENTION_RETRY_MS, isStoreContention } from './store-retry.js';
export { MAX_THROTTLE_RETRIES, throttleDelayMs } from './throttle.js';
export { RESOLVER_SERVICE_ID, RESOLVER_VERSION } from './version.js';
