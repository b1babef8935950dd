/**
 * The event search's filters as the URL holds them, so a link opens the same search: `/search?payload=NL-BAD
 * &status=Failed,DeadLettered&endpointId=Erp&updatedAtFrom=2026-01-01T09:00:00.000Z`. Times are UTC in the
 * URL (a link means the same moment in every time zone) and local in the inputs.
 */
export const STATUSES = [
  'Failed',
  'DeadLettered',
  'Unsupported',
  'Deferred',
  'Pending',
  'Completed',
  'Skipped',
] as const;
export type Status = (typeof STATUSES)[number];

export interface SearchFilters {
  readonly payload: string;
  readonly status: readonly Status[];
  readonly eventTypeId: string;
  readonly endpointId: string;
  readonly eventId: string;
  readonly sessionId: string;
  /** ISO-8601 UTC, or "". */
  readonly updatedAtFrom: string;
  readonly updatedAtTo: string;
}

const TEXT_KEYS = [
  'payload',
  'eventTypeId',
  'endpointId',
  'eventId',
  'sessionId',
  'updatedAtFrom',
  'updatedAtTo',
] as const;

export function filtersOf(search: URLSearchParams): SearchFilters {
  const text = Object.fromEntries(TEXT_KEYS.map((key) => [key, search.get(key) ?? ''])) as Record<
    (typeof TEXT_KEYS)[number],
    string
  >;
  const status = (search.get('status') ?? '')
    .split(',')
    .filter((s): s is Status => (STATUSES as readonly string[]).includes(s));
  return { ...text, status };
}

/** The URL of a search: only the filters that are set, in a fixed order. */
export function searchUrl(filters: SearchFilters): string {
  const params = new URLSearchParams();
  if (filters.payload) params.set('payload', filters.payload);
  if (filters.status.length > 0)
    params.set('status', STATUSES.filter((s) => filters.status.includes(s)).join(','));
  for (const key of TEXT_KEYS) if (key !== 'payload' && filters[key]) params.set(key, filters[key]);
  const query = params.toString();
  return query ? `/search?${query}` : '/search';
}

/** The API query of a search (empty filters left out). */
export function apiQueryOf(filters: SearchFilters) {
  return {
    ...(filters.payload ? { payload: filters.payload } : {}),
    ...(filters.status.length > 0 ? { status: filters.status.join(',') } : {}),
    ...(filters.eventTypeId ? { eventTypeId: filters.eventTypeId } : {}),
    ...(filters.endpointId ? { endpointId: filters.endpointId } : {}),
    ...(filters.eventId ? { eventId: filters.eventId } : {}),
    ...(filters.sessionId ? { sessionId: filters.sessionId } : {}),
    ...(filters.updatedAtFrom ? { updatedAtFrom: filters.updatedAtFrom } : {}),
    ...(filters.updatedAtTo ? { updatedAtTo: filters.updatedAtTo } : {}),
    pageSize: 50,
  };
}

/** `datetime-local` value (local time, minutes) ↔ ISO UTC. */
export function localInputOf(iso: string): string {
  if (!iso) return '';
  const at = new Date(iso);
  if (Number.isNaN(at.getTime())) return '';
  const local = new Date(at.getTime() - at.getTimezoneOffset() * 60_000);
  return local.toISOString().slice(0, 16);
}

export function isoOfLocalInput(local: string): string {
  if (!local) return '';
  const at = new Date(local);
  return Number.isNaN(at.getTime()) ? '' : at.toISOString();
}
