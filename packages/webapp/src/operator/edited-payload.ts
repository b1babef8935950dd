import { type Platform, tryValidate } from '@nimbus/core';
import { badRequest } from '../http/http-error.js';

/**
 * Refuses an edited payload that its event type's schema rejects, before anything is sent: an invalid edit
 * would only be dead-lettered by the consumer. Each field error names its path under `body.eventJson`.
 * Without a platform (a WebApp started without `--platform`) the schemas are unknown and nothing is checked.
 */
export function assertValidEditedPayload(
  platform: Platform | null,
  eventTypeId: string,
  eventJson: string,
): void {
  if (!platform) return;
  const eventType = platform.getEventType(eventTypeId);
  if (!eventType) {
    throw badRequest(`Event type '${eventTypeId}' is not part of the platform.`, [
      { path: 'body.eventTypeId', message: `unknown event type '${eventTypeId}'` },
    ]);
  }
  let payload: unknown;
  try {
    payload = JSON.parse(eventJson);
  } catch (error) {
    throw badRequest('The edited payload is not valid JSON.', [
      { path: 'body.eventJson', message: (error as Error).message },
    ]);
  }
  const result = tryValidate(eventType, payload);
  if (result.valid) return;
  const issues = result.errors.map((error) => ({
    path: error.path ? `body.eventJson.${error.path}` : 'body.eventJson',
    message: error.message,
  }));
  throw badRequest(
    `The edited payload does not match event type '${eventTypeId}': ${issues
      .map((issue) => `${issue.path.replace(/^body\.eventJson\.?/, '') || '(payload)'}: ${issue.message}`)
      .join('; ')}. Nothing was sent.`,
    issues,
  );
}
