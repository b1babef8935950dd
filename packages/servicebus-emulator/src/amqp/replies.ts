import type { BrokerError } from '../wire/errors.js';
import type { RheaConnection, RheaLink } from './rhea.js';

const REPLY_LINKS = Symbol('reply links');

/**
 * The client's reply receivers per connection. The SDK sends `reply_to` = the name (and target address) of the
 * receiver link it attached for replies, so a reply is routed by that name.
 */
export function registerReplyLink(connection: RheaConnection, link: RheaLink): void {
  if (!connection[REPLY_LINKS]) connection[REPLY_LINKS] = new Map<string, RheaLink>();
  const links = connection[REPLY_LINKS] as Map<string, RheaLink>;
  links.set(link.name, link);
  const target = link.remote.attach?.target?.address;
  if (typeof target === 'string') links.set(target, link);
}

export function replyLink(connection: RheaConnection, replyTo: string | undefined): RheaLink | undefined {
  const links = connection[REPLY_LINKS] as Map<string, RheaLink> | undefined;
  return replyTo === undefined ? undefined : links?.get(replyTo);
}

/**
 * Sends a reply. Both status keys are set: `$cbs` replies are read by `status-code`, `$management` replies by
 * `statusCode` (the SDK checks `statusCode !== 204` itself).
 */
export function sendReply(
  link: RheaLink,
  requestId: unknown,
  status: number,
  body: unknown,
  error?: BrokerError,
): void {
  const description = error?.message ?? (status === 204 ? 'No Content' : 'OK');
  const application_properties: Record<string, unknown> = {
    statusCode: status,
    'status-code': status,
    statusDescription: description,
    'status-description': description,
  };
  if (error) application_properties['error-condition'] = error.condition;
  link.send({ correlation_id: requestId, application_properties, body });
}
