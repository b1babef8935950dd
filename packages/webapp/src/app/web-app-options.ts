import type { Clock, Logger, Platform, Transport } from '@nimbus/core';
import type {
  HeartbeatHistoryStore,
  NimBusMessageStore,
  StorageProviderCapabilities,
} from '@nimbus/message-store';
import type { AlertOptions } from '../alerts/alerting.js';
import type { OidcOptions } from '../auth/oidc/oidc-options.js';
import type { SignInLimits } from '../auth/sign-in-limits.js';
import type { IdentityStore } from '../identity/identity-store.js';
import type { SubscribableNotifier } from '../live/live-update-hub.js';
import type { MetricsAccess, MetricsEndpoint } from '../observability/probe-routes.js';
import type { BulkJobStore } from '../operator/bulk-job-store.js';

export interface WebAppOptions {
  /** The message store (any provider). Its `providerName` is shown when it has one. */
  readonly store: NimBusMessageStore &
    Partial<HeartbeatHistoryStore> & {
      readonly providerName?: string;
      readonly capabilities?: StorageProviderCapabilities;
    };
  /** Operator actions are sent as messages through this transport. */
  readonly transport: Transport;
  readonly platform?: Platform;
  readonly identityStore: IdentityStore;
  /**
   * The state-change notifier that feeds the SSE stream: the one `store` tells after each committed write (give
   * it to the store: `createSqlMessageStore({ notifier })`, `withStateChangeNotifications(store, notifier)`).
   * Default: a new in-process notifier, exposed as `notifier`, and `store` wrapped to tell it.
   */
  readonly notifier?: SubscribableNotifier;
  readonly storageCapabilities?: StorageProviderCapabilities;
  readonly logger?: Logger;
  readonly clock?: Clock;
  /** Where NIMBUS_IDENTITY_ADMIN_EMAIL / _PASSWORD are read (default `process.env`). */
  readonly env?: Readonly<Record<string, string | undefined>>;
  /** Generate the bootstrap password instead of using the public default (when the env gives none). */
  readonly generateBootstrapPassword?: boolean;
  /** Secure cookies: `'auto'` (default) marks them Secure on https requests. */
  readonly secureCookies?: boolean | 'auto';
  readonly trustProxy?: boolean;
  readonly sessionTtlMs?: number;
  /** Built UI directory (default `packages/webapp/ui/dist`). */
  readonly uiDistDir?: string;
  /** Enables the storage-hook routes for out-of-process notifiers. */
  readonly storageHookKey?: string;
  readonly environment?: string;
  /** Endpoint ids to list even without a platform definition or stored metadata. */
  readonly extraEndpoints?: readonly string[];
  readonly sseKeepAliveMs?: number;
  /** Sign-in rate limits and lockouts (defaults: `DEFAULT_SIGN_IN_LIMITS`). */
  readonly signInLimits?: Partial<SignInLimits>;
  /**
   * Where bulk jobs are kept (default: in memory). Give every instance the same SQL one
   * (`createSqlBulkJobStore`) so a job's progress is visible from each of them and outlasts a restart.
   * The WebApp does not close it.
   */
  readonly bulkJobStore?: BulkJobStore;
  /** Alert subscriptions: where their state lives, SMTP for e-mail, how often they are evaluated. */
  readonly alerts?: AlertOptions;
  /** Serves `/metrics` (Prometheus text) when given. */
  readonly metrics?: MetricsEndpoint;
  /** A bearer token that may read `/metrics` (besides any credential with a site role). */
  readonly metricsToken?: string;
  /** Who may read `/metrics` here (default `'signed-in'`; `'anonymous'` for a port only Prometheus reaches). */
  readonly metricsAccess?: MetricsAccess;
  /** Sign-in with an OpenID Connect provider (Entra ID or any standard one); see `oidcOptionsFromEnv`. */
  readonly oidc?: OidcOptions;
  /** E-mail and password accounts (default `true`); `false` needs `oidc`, and no bootstrap admin is made. */
  readonly localAccounts?: boolean;
}
