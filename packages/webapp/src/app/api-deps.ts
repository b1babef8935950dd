import type { Clock, Logger, Platform, Transport } from '@nimbus/core';
import type {
  HeartbeatHistoryStore,
  NimBusMessageStore,
  StorageProviderCapabilities,
} from '@nimbus/message-store';
import type { Alerting } from '../alerts/alerting.js';
import type { AuditLog } from '../audit/audit-log.js';
import type { IdentityStore } from '../identity/identity-store.js';
import type { LiveUpdateHub } from '../live/live-update-hub.js';
import type { StreamRegistry } from '../live/stream-registry.js';
import type { EndpointCatalog } from './endpoint-catalog.js';

/** Everything the API routes work with; built once by `createWebApp`. */
export interface ApiDeps {
  readonly store: NimBusMessageStore & Partial<HeartbeatHistoryStore>;
  readonly transport: Transport;
  readonly platform: Platform | null;
  readonly catalog: EndpointCatalog;
  readonly identityStore: IdentityStore;
  readonly hub: LiveUpdateHub;
  /** Open live-update streams, ended when the rights they were opened with change. */
  readonly streams: StreamRegistry;
  readonly auditLog: AuditLog;
  /** Alert subscriptions' evaluator, deliveries and SMTP. */
  readonly alerting: Alerting;
  readonly clock: Clock;
  readonly logger: Logger;
  readonly provider: { readonly name: string; readonly capabilities: StorageProviderCapabilities };
  readonly environment: string;
  readonly version: string;
}
