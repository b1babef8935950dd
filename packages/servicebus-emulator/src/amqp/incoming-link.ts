import type { AmqpMessage } from '../broker/message.js';
import type { Topic } from '../broker/topic.js';
import { asBrokerError, BrokerError, Condition } from '../wire/errors.js';
import { messageCodec, type RheaContext, type RheaLink } from './rhea.js';

/** Message format of a batch: each data section holds one encoded message. */
export const BATCH_FORMAT = 0x80013700;

function sections(body: unknown): Buffer[] {
  const list = Array.isArray(body) ? body : [body];
  return list.map((section) => {
    const content = (section as { content?: unknown })?.content ?? section;
    if (!Buffer.isBuffer(content))
      throw new BrokerError(Condition.invalidField, 'a batch holds data sections');
    return content;
  });
}

/** Splits a received transfer into the messages it carries (one, or a batch). */
export function decodeTransfer(context: RheaContext): AmqpMessage[] {
  if (context.delivery?.format !== BATCH_FORMAT) return [context.message as AmqpMessage];
  // rhea hands over non-standard formats undecoded.
  const raw = context.message as unknown;
  const message = (Buffer.isBuffer(raw) ? messageCodec.decode(raw) : raw) as AmqpMessage;
  if (message.body === undefined) return []; // an empty batch
  const body = (message.body as { multiple?: boolean; content?: unknown }) ?? {};
  const parts = body.multiple ? sections(body.content) : sections(body);
  return parts.map((part) => messageCodec.decode(part) as AmqpMessage);
}

/** The encoded size of a transfer's message (a batch is counted whole, as the service counts it). */
function transferSize(context: RheaContext): number {
  const raw = context.message as unknown;
  if (Buffer.isBuffer(raw)) return raw.length;
  return messageCodec.encode(context.message as object).length;
}

/**
 * A client's sender link on a topic: every transfer is enqueued all or nothing, then settled. The link
 * announces the entity's message size limit, and a larger transfer is refused with
 * `amqp:link:message-size-exceeded` (the SDK checks batches itself, but not a single message).
 */
export function attachIncoming(link: RheaLink, topic: Topic, maxMessageBytes: number): void {
  link.local.attach.max_message_size = maxMessageBytes;
  link.on('message', (context) => {
    const delivery = context.delivery!;
    try {
      const size = transferSize(context);
      if (size > maxMessageBytes) {
        throw new BrokerError(
          Condition.tooLarge,
          `The received message (${size} bytes) exceeds the limit of ${maxMessageBytes} bytes on ${topic.name} (MessageSizeExceeded).`,
        );
      }
      topic.send(decodeTransfer(context));
      delivery.accept();
    } catch (error) {
      delivery.reject(asBrokerError(error).toAmqp());
    }
  });
}
