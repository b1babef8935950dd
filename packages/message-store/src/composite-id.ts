/** The id operator views hand out for one resolver row: `{eventId}_{sessionId}`. */
export function compositeEventId(eventId: string, sessionId: string | null | undefined): string {
  return `${eventId}_${sessionId ?? ''}`;
}
