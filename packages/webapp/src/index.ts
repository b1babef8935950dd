export type { RetryPolicy } from './alerts/alert-sender.js';
export {
  type AlertDelivery,
  type AlertStore,
  AlertTrigger,
  createMemoryAlertStore,
  type DeliveryAttempt,
} from './alerts/alert-store.js';
export type { AlertOptions } from './alerts/alerting.js';
export type { SmtpSettings } from './alerts/mailer.js';
export { createSqlAlertStore, type SqlAlertStoreOptions } from './alerts/sql-alert-store.js';
export {
  DELIVERY_HEADER,
  SIGNATURE_HEADER,
  SIGNATURE_TOLERANCE_SECONDS,
  signAlertBody,
  TIMESTAMP_HEADER,
  verifyAlertSignature,
} from './alerts/webhook-signature.js';
export { createWebApp, type RegisteredRoute, type WebApp, type WebAppOptions } from './app/create-web-app.js';
export type { ListeningServer } from './app/listening-server.js';
export { type WebAppOpenApiDocument, webAppOpenApiDocument } from './app/openapi-document.js';
export { type BootstrapResult, DEFAULT_ADMIN_EMAIL, DEFAULT_ADMIN_PASSWORD } from './auth/bootstrap-admin.js';
export { CSRF_COOKIE, CSRF_HEADER, SESSION_COOKIE } from './auth/cookies.js';
export {
  mapRoles,
  type OidcOptions,
  type OidcRoleMapping,
  oidcOptionsFromEnv,
} from './auth/oidc/oidc-options.js';
export { hashPassword, SCRYPT_COST, verifyPassword } from './auth/password.js';
export { MIN_PASSWORD_LENGTH, passwordProblems } from './auth/password-policy.js';
export { DEFAULT_SIGN_IN_LIMITS, type SignInLimits } from './auth/sign-in-limits.js';
export {
  type ApiTokenRecord,
  DuplicateEmailError,
  type EndpointRoleGrant,
  type IdentitySession,
  type IdentityStore,
  type IdentityUser,
  type LoginAttemptPolicy,
  type NewIdentityUser,
} from './identity/identity-store.js';
export { createMemoryIdentityStore } from './identity/memory-identity-store.js';
export { GRANTABLE_ROLES, type GrantableRole, Role } from './identity/roles.js';
export { createSqlIdentityStore, type SqlIdentityStoreOptions } from './identity/sql-identity-store.js';
export {
  type LiveUpdate,
  LiveUpdateHub,
  type LiveUpdateListener,
  type SubscribableNotifier,
} from './live/live-update-hub.js';
export {
  type MetricsAccess,
  type MetricsEndpoint,
  type ProbeRouteOptions,
  registerProbeRoutes,
} from './observability/probe-routes.js';
export {
  type BulkJobStore,
  createMemoryBulkJobStore,
  type StoredBulkJob,
} from './operator/bulk-job-store.js';
export { createSqlBulkJobStore, type SqlBulkJobStoreOptions } from './operator/sql-bulk-job-store.js';
export {
  migrateWebAppTables,
  WEBAPP_TABLE_SETS,
  type WebAppTableSet,
  webAppMigrationNames,
} from './sql/migrate-webapp-tables.js';
export type { WebAppDatabaseOptions } from './sql/open-webapp-database.js';
