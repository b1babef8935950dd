/** Where an event stands at one endpoint. Stored by name. */
export const ResolutionStatus = {
  Pending: 'Pending',
  Deferred: 'Deferred',
  Failed: 'Failed',
  DeadLettered: 'DeadLettered',
  Unsupported: 'Unsupported',
  Completed: 'Completed',
  Skipped: 'Skipped',
} as const;
export type ResolutionStatus = (typeof ResolutionStatus)[keyof typeof ResolutionStatus];

export const ALL_RESOLUTION_STATUSES: readonly ResolutionStatus[] = Object.values(ResolutionStatus);

/** Statuses an operator can act on; they are the ones counted and paged as "unresolved". */
export const UNRESOLVED_STATUSES: ReadonlySet<ResolutionStatus> = new Set<ResolutionStatus>([
  ResolutionStatus.Pending,
  ResolutionStatus.Deferred,
  ResolutionStatus.Failed,
  ResolutionStatus.DeadLettered,
  ResolutionStatus.Unsupported,
]);

/** Outcomes whose rows are kept for the short terminal retention. */
export const FINISHED_STATUSES: ReadonlySet<ResolutionStatus> = new Set<ResolutionStatus>([
  ResolutionStatus.Completed,
  ResolutionStatus.Skipped,
]);

/**
 * Outcomes for the stale-write guard: a write of one of these is never refused,
 * and a row holding one of these is "settled" for request-stage writes.
 */
export const TERMINAL_STATUSES: ReadonlySet<ResolutionStatus> = new Set<ResolutionStatus>([
  ResolutionStatus.Failed,
  ResolutionStatus.DeadLettered,
  ResolutionStatus.Unsupported,
  ResolutionStatus.Skipped,
  ResolutionStatus.Completed,
]);

export function isResolutionStatus(value: unknown): value is ResolutionStatus {
  return typeof value === 'string' && (ALL_RESOLUTION_STATUSES as readonly string[]).includes(value);
}

export const EndpointRole = { Publisher: 'Publisher', Subscriber: 'Subscriber' } as const;
export type EndpointRole = (typeof EndpointRole)[keyof typeof EndpointRole];

/** Kinds of operator audit rows. Append only: never reorder or remove. */
export const MessageAuditType = {
  Resubmit: 'Resubmit',
  ResubmitWithChanges: 'ResubmitWithChanges',
  Skip: 'Skip',
  Retry: 'Retry',
  Comment: 'Comment',
  CompleteHandoff: 'CompleteHandoff',
  FailHandoff: 'FailHandoff',
  SearchEvents: 'SearchEvents',
  GetEventDetails: 'GetEventDetails',
  GetEndpointDetails: 'GetEndpointDetails',
  EnableEndpoint: 'EnableEndpoint',
  DisableEndpoint: 'DisableEndpoint',
  EnableEndpointSend: 'EnableEndpointSend',
  DisableEndpointSend: 'DisableEndpointSend',
  PurgeMessages: 'PurgeMessages',
  Compose: 'Compose',
  ReportEvent: 'ReportEvent',
  GrantRole: 'GrantRole',
  RevokeRole: 'RevokeRole',
  ManageSubscription: 'ManageSubscription',
  UpdateHeartbeatSettings: 'UpdateHeartbeatSettings',
  SendHeartbeatNow: 'SendHeartbeatNow',
  EnableEndpointHeartbeat: 'EnableEndpointHeartbeat',
  DisableEndpointHeartbeat: 'DisableEndpointHeartbeat',
  Reconcile: 'Reconcile',
  DeleteEvent: 'DeleteEvent',
  ReprocessDeferred: 'ReprocessDeferred',
  CopyEndpointData: 'CopyEndpointData',
  /** The engine refused an operator request (the event no longer awaited it); `comment` says why. */
  Refused: 'Refused',
  /** Transport dead letters moved back to their input (WebApp or CLI). */
  RequeueDeadLetters: 'RequeueDeadLetters',
  /** Transport dead letters deleted for good. */
  PurgeDeadLetters: 'PurgeDeadLetters',
  /** A read the caller's role does not allow (privileged actions use their own type when refused). */
  AccessDenied: 'AccessDenied',
  SignIn: 'SignIn',
  SignInFailed: 'SignInFailed',
  SignInLockedOut: 'SignInLockedOut',
  SignOut: 'SignOut',
  ChangePassword: 'ChangePassword',
  CreateApiToken: 'CreateApiToken',
  RevokeApiToken: 'RevokeApiToken',
  /** An administrator disabled or enabled a local account, deleted one, or set a new password for one. */
  DisableUser: 'DisableUser',
  EnableUser: 'EnableUser',
  DeleteUser: 'DeleteUser',
  ResetPassword: 'ResetPassword',
  /** An operator paused or resumed an input's consumers from the console (monitoring). */
  PauseInput: 'PauseInput',
  ResumeInput: 'ResumeInput',
  /** An input's monitoring thresholds (backlog, critical time) were changed. */
  UpdateMonitoringThresholds: 'UpdateMonitoringThresholds',
} as const;
export type MessageAuditType = (typeof MessageAuditType)[keyof typeof MessageAuditType];

export const HeartbeatStatus = {
  On: 'On',
  Off: 'Off',
  Pending: 'Pending',
  Unknown: 'Unknown',
  Unsupported: 'Unsupported',
} as const;
export type HeartbeatStatus = (typeof HeartbeatStatus)[keyof typeof HeartbeatStatus];

/** The only value `pendingSubStatus` takes besides null: the row is parked waiting for external work. */
export const HANDOFF_SUB_STATUS = 'Handoff';
