import type { Socket } from 'node:net';
import { quotaExceeded } from '../broker/limits.js';
import type { Namespace } from '../broker/namespace.js';
import type { Queue } from '../broker/queue.js';
import { asBrokerError, BrokerError, Condition } from '../wire/errors.js';
import { attachIncoming } from './incoming-link.js';
import { handleManagement } from './management.js';
import { OutgoingLink } from './outgoing-link.js';
import { registerReplyLink, replyLink, sendReply } from './replies.js';
import { type RheaConnection, type RheaContext, type RheaLink, rhea, type Untyped } from './rhea.js';
import { attachSessionReceiver } from './session-attach.js';

const SESSION_FILTER = 'com.microsoft:session-filter';
const OVER_QUOTA = Symbol('connection over the quota');
const RECEIVERS = Symbol('receivers by link name');

function receiversOf(connection: RheaConnection): Map<string, OutgoingLink> {
  if (!connection[RECEIVERS]) connection[RECEIVERS] = new Map<string, OutgoingLink>();
  return connection[RECEIVERS] as Map<string, OutgoingLink>;
}

function isRequestAddress(address: string): boolean {
  return address === '$cbs' || /\/?\$management$/i.test(address);
}

/**
 * Service Bus refuses a receiver that does not match the entity: a receiver without a session filter on an
 * entity that requires sessions, and a session receiver on one that does not.
 */
function assertReceiverKind(queue: Queue, filter: Record<string, unknown> | undefined): void {
  const sessionReceiver = filter != null && SESSION_FILTER in filter;
  if (queue.options.requiresSession && !sessionReceiver) {
    throw new BrokerError(
      Condition.notAllowed,
      `It is not possible for an entity that requires sessions to create a non-sessionful message receiver (${queue.path}).`,
    );
  }
  if (!queue.options.requiresSession && sessionReceiver) {
    throw new BrokerError(
      Condition.notAllowed,
      `It is not possible to create a session receiver on ${queue.path}: it does not require sessions.`,
    );
  }
}

function refusedOverQuota(connection: RheaConnection, link: RheaLink): boolean {
  const error = connection[OVER_QUOTA] as BrokerError | undefined;
  if (error === undefined) return false;
  link.close(error.toAmqp());
  return true;
}

/** The AMQP 1.0 side of the emulator: SASL ANONYMOUS, `$cbs`, `$management`, senders and receivers. */
export class AmqpFront {
  readonly #container = rhea.create_container({ id: 'nimbus-sb-emulator' }) as Untyped;
  readonly #connections = new Set<Untyped>();

  constructor(readonly namespace: Namespace) {
    const container = this.#container;
    container.sasl_server_mechanisms.enable_anonymous();
    container.on('sender_open', (context: RheaContext) => this.#onClientReceiver(context));
    container.on('receiver_open', (context: RheaContext) => this.#onClientSender(context));
    container.on('sender_close', (context: RheaContext) => this.#linkGone(context.sender!));
    container.on('connection_close', (context: RheaContext) =>
      this.#connectionGone(context.connection, false),
    );
    container.on('disconnected', (context: RheaContext) => this.#connectionGone(context.connection, true));
    container.on('error', () => undefined);
  }

  /** Open AMQP connections (the connection quota counts these). */
  get connectionCount(): number {
    return this.#connections.size;
  }

  /** Serves one accepted socket (the first byte was not a TLS handshake). */
  accept(socket: Socket): void {
    socket.setNoDelay(true);
    const connection = this.#container.create_connection({
      id: `client-${this.#connections.size + 1}`,
      container_id: 'nimbus-sb-emulator',
      treat_modified_as_released: false,
      autoaccept: false,
      max_frame_size: 65536,
    });
    if (this.#connections.size >= this.namespace.quotas.maxConnections) {
      // Over the namespace's connection quota: every link it attaches is refused with the quota error.
      connection[OVER_QUOTA] = quotaExceeded(
        `the namespace has ${this.#connections.size} connections`,
        this.namespace.quotas.maxConnections,
      );
    }
    this.#connections.add(connection);
    connection.accept(socket);
  }

  close(): void {
    for (const connection of this.#connections) {
      try {
        connection.close();
        connection.socket?.destroy();
      } catch {
        // the socket is already gone
      }
    }
    this.#connections.clear();
  }

  #onClientReceiver(context: RheaContext): void {
    const link = context.sender!;
    const source = link.remote.attach?.source ?? {};
    const address = String(source.address ?? '');
    link.set_source(source);
    link.set_target(link.remote.attach?.target ?? {});
    if (refusedOverQuota(context.connection, link)) return;
    if (isRequestAddress(address)) {
      registerReplyLink(context.connection, link);
      return;
    }
    try {
      const entity = this.namespace.resolve(address);
      if (entity.kind !== 'queue') {
        throw new BrokerError(
          Condition.invalidField,
          `cannot receive from topic '${address}': receive from a subscription`,
        );
      }
      const filter = source.filter as Record<string, unknown> | undefined;
      assertReceiverKind(entity.queue, filter);
      const receiver = new OutgoingLink(link, entity.queue);
      receiversOf(context.connection).set(link.name, receiver);
      if (entity.queue.options.requiresSession) {
        attachSessionReceiver(receiver, filter, link.remote.attach?.properties ?? {});
      } else {
        receiver.start();
      }
    } catch (error) {
      link.set_source(null);
      link.close(asBrokerError(error).toAmqp());
    }
  }

  #onClientSender(context: RheaContext): void {
    const link = context.receiver!;
    const address = String(link.remote.attach?.target?.address ?? '');
    link.set_target(link.remote.attach?.target ?? {});
    link.set_source(link.remote.attach?.source ?? {});
    if (refusedOverQuota(context.connection, link)) return;
    if (isRequestAddress(address)) {
      link.on('message', (request) => this.#onRequest(request, address));
      return;
    }
    try {
      const topic = this.namespace.resolveForSend(address);
      attachIncoming(link, topic, this.namespace.maxMessageBytes(topic));
    } catch (error) {
      link.set_target(null);
      link.close(asBrokerError(error).toAmqp());
    }
  }

  #onRequest(context: RheaContext, address: string): void {
    const request = context.message!;
    context.delivery?.accept();
    const reply = replyLink(context.connection, request.reply_to);
    if (!reply) return; // nowhere to answer: the client times out, which is what a namespace does too
    const properties = (request.application_properties ?? {}) as Record<string, unknown>;
    const operation = String(properties.operation ?? '');
    if (address === '$cbs') {
      // Tokens are not checked (loopback only); the put-token reply carries `status-code`.
      if (operation === 'put-token') sendReply(reply, request.message_id, 202, undefined);
      else
        sendReply(
          reply,
          request.message_id,
          400,
          undefined,
          new BrokerError(Condition.invalidField, `$cbs operation '${operation}'`),
        );
      return;
    }
    const linkName = properties['associated-link-name'];
    const holder =
      typeof linkName === 'string' ? (receiversOf(context.connection).get(linkName) ?? null) : null;
    try {
      const result = handleManagement(this.namespace, {
        operation,
        address,
        body: (request.body ?? {}) as Record<string, Untyped>,
        holder,
      });
      sendReply(reply, request.message_id, result.status, result.body);
    } catch (error) {
      const failure = asBrokerError(error);
      sendReply(reply, request.message_id, failure.status, undefined, failure);
    }
  }

  #linkGone(link: RheaLink): void {
    const receivers = receiversOf(link.connection);
    const receiver = receivers.get(link.name);
    if (receiver?.link === link) {
      receivers.delete(link.name);
      receiver.detached();
    }
  }

  #connectionGone(connection: RheaConnection, abrupt: boolean): void {
    const receivers = receiversOf(connection);
    for (const receiver of receivers.values()) receiver.detached(abrupt);
    receivers.clear();
    this.#connections.delete(connection);
  }
}
