import type { paths } from '@nimbus/client';

type AuditQuery = NonNullable<paths['/api/audits']['get']['parameters']['query']>;
type AuditAction = NonNullable<AuditQuery['auditType']>;

/** The form's values: all strings, `from`/`to` as `datetime-local` values in the browser's time zone. */
export interface AuditFilters {
  auditorName: string;
  auditType: string;
  endpointId: string;
  from: string;
  to: string;
  text: string;
}

const KEYS = ['auditorName', 'auditType', 'endpointId', 'from', 'to', 'text'] as const;

/** The actions an operator filters by most; the API takes every audit type. */
export const AUDIT_ACTIONS: readonly AuditAction[] = [
  'Resubmit',
  'ResubmitWithChanges',
  'Skip',
  'Comment',
  'DeleteEvent',
  'ReprocessDeferred',
  'RequeueDeadLetters',
  'PurgeDeadLetters',
  'GrantRole',
  'RevokeRole',
  'DisableUser',
  'EnableUser',
  'DeleteUser',
  'ResetPassword',
  'ChangePassword',
  'UpdateHeartbeatSettings',
  'ManageSubscription',
  'SignIn',
  'SignInFailed',
  'SignInLockedOut',
  'SignOut',
  'CreateApiToken',
  'RevokeApiToken',
  'AccessDenied',
];

export function filtersFromUrl(search: string): AuditFilters {
  const params = new URLSearchParams(search);
  return Object.fromEntries(KEYS.map((key) => [key, params.get(key) ?? ''])) as unknown as AuditFilters;
}

/** The API query: empty fields left out, local times sent as UTC instants. */
export function filtersToQuery(filters: AuditFilters): AuditQuery {
  const instant = (local: string) => (local ? new Date(local).toISOString() : undefined);
  const query: AuditQuery = {};
  if (filters.auditorName) query.auditorName = filters.auditorName;
  if (filters.auditType) query.auditType = filters.auditType as AuditAction;
  if (filters.endpointId) query.endpointId = filters.endpointId;
  if (filters.text) query.text = filters.text;
  const from = instant(filters.from);
  const to = instant(filters.to);
  if (from) query.from = from;
  if (to) query.to = to;
  return query;
}
