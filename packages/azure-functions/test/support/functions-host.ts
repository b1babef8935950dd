import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type { ServiceBusReceivedMessage, ServiceBusSessionReceiver } from '@azure/service-bus';
import * as grpc from '@grpc/grpc-js';
import * as protoLoader from '@grpc/proto-loader';
import rhea from 'rhea';
import { invoke } from './functions-worker.js';

// Plays the Functions host's part for the Service Bus SDK binding: the host holds the session with its own
// receiver, hands each message to the worker as model binding data (lock token + AMQP bytes) and serves the
// settlement channel (settlement.proto of @azure/functions-extensions-servicebus) the binding's actions call.

interface Held {
  readonly receiver: ServiceBusSessionReceiver;
  readonly message: ServiceBusReceivedMessage;
}

const held = new Map<string, Held>();
const receivers = new Map<string, ServiceBusSessionReceiver>();
export const settlementCalls: string[] = [];

type Call<T> = grpc.ServerUnaryCall<T, unknown>;
type Done = grpc.sendUnaryData<unknown>;

function text(value: unknown): string | undefined {
  if (typeof value === 'string') return value;
  if (value && typeof value === 'object' && 'value' in value)
    return String((value as { value: unknown }).value);
  return undefined;
}

function settle(name: string, work: (entry: Held, request: Record<string, unknown>) => Promise<unknown>) {
  return (call: Call<Record<string, unknown>>, done: Done) => {
    const entry = held.get(String(call.request.locktoken));
    settlementCalls.push(name);
    if (!entry) {
      done({ code: grpc.status.NOT_FOUND, details: `no message with lock token ${call.request.locktoken}` });
      return;
    }
    work(entry, call.request).then(
      () => {
        held.delete(String(call.request.locktoken));
        done(null, {});
      },
      (error: unknown) => done({ code: grpc.status.INTERNAL, details: String(error) }),
    );
  };
}

function session(
  name: string,
  work: (receiver: ServiceBusSessionReceiver, request: Record<string, unknown>) => Promise<unknown>,
) {
  return (call: Call<Record<string, unknown>>, done: Done) => {
    settlementCalls.push(name);
    const receiver = receivers.get(String(call.request.sessionId));
    if (!receiver) {
      done({ code: grpc.status.NOT_FOUND, details: `session ${call.request.sessionId} is not held` });
      return;
    }
    work(receiver, call.request).then(
      (response) => done(null, response ?? {}),
      (error: unknown) => done({ code: grpc.status.INTERNAL, details: String(error) }),
    );
  };
}

let started: Promise<number> | null = null;

/** Starts the settlement server once per process and points the binding at it (the host passes --host/--port). */
export function startSettlementServer(): Promise<number> {
  started ??= (async () => {
    const require = createRequire(import.meta.url);
    const protoPath = join(
      dirname(require.resolve('@azure/functions-extensions-servicebus')),
      'proto/settlement.proto',
    );
    const definition = grpc.loadPackageDefinition(protoLoader.loadSync(protoPath, { keepCase: true }));
    const service = (definition.Settlement as unknown as { service: grpc.ServiceDefinition }).service;
    const server = new grpc.Server();
    server.addService(service, {
      Complete: settle('complete', (e) => e.receiver.completeMessage(e.message)),
      Abandon: settle('abandon', (e) => e.receiver.abandonMessage(e.message)),
      Deadletter: settle('deadletter', (e, r) =>
        e.receiver.deadLetterMessage(e.message, {
          deadLetterReason: text(r.deadletterReason) ?? '',
          deadLetterErrorDescription: text(r.deadletterErrorDescription) ?? '',
        }),
      ),
      Defer: settle('defer', (e) => e.receiver.deferMessage(e.message)),
      RenewMessageLock: (_call: Call<unknown>, done: Done) => done(null, {}),
      GetSessionState: session('getSessionState', async (r) => ({
        sessionState: (await r.getSessionState()) ?? Buffer.alloc(0),
      })),
      SetSessionState: session('setSessionState', async (r, q) => {
        const state = q.sessionState as Buffer;
        await r.setSessionState(state.length === 0 ? null : state);
      }),
      ReleaseSession: session('releaseSession', async () => undefined),
      RenewSessionLock: session('renewSessionLock', async (r) => {
        const until = await r.renewSessionLock();
        return {
          lockedUntil: { seconds: Math.floor(until.getTime() / 1000), nanos: (until.getTime() % 1000) * 1e6 },
        };
      }),
    });
    const port = await new Promise<number>((resolve, reject) =>
      server.bindAsync('127.0.0.1:0', grpc.ServerCredentials.createInsecure(), (error, bound) =>
        error ? reject(error) : resolve(bound),
      ),
    );
    process.argv.push(
      '--host',
      '127.0.0.1',
      '--port',
      String(port),
      '--functions-grpc-max-message-length',
      String(4 * 1024 * 1024),
    );
    return port;
  })();
  return started;
}

/** The lock token as the host writes it: the 16 bytes of a .NET Guid. */
function lockTokenBytes(token: string): Buffer {
  const [a, b, c, d, e] = token.split('-') as [string, string, string, string, string];
  return Buffer.concat([
    Buffer.from(a, 'hex').reverse(),
    Buffer.from(b, 'hex').reverse(),
    Buffer.from(c, 'hex').reverse(),
    Buffer.from(d, 'hex'),
    Buffer.from(e, 'hex'),
  ]);
}

function bodyBytes(message: ServiceBusReceivedMessage): Buffer {
  const body = message.body as unknown;
  if (Buffer.isBuffer(body)) return body;
  return Buffer.from(typeof body === 'string' ? body : JSON.stringify(body), 'utf8');
}

/** The model binding data the host sends for one message: lock token, marker, the AMQP message. */
export function modelBindingContent(message: ServiceBusReceivedMessage): Buffer {
  const amqp = rhea.message.encode({
    message_id: message.messageId as string,
    correlation_id: message.correlationId as string | undefined,
    group_id: message.sessionId,
    content_type: message.contentType,
    subject: message.subject,
    application_properties: message.applicationProperties as Record<string, unknown>,
    delivery_count: message.deliveryCount,
    message_annotations: {
      'x-opt-sequence-number': message.sequenceNumber?.toNumber(),
      'x-opt-enqueued-time': message.enqueuedTimeUtc?.getTime(),
    },
    body: rhea.message.data_section(bodyBytes(message)),
  } as never);
  return Buffer.concat([lockTokenBytes(message.lockToken!), Buffer.from('x-opt-lock-token'), amqp]);
}

/**
 * Delivers the messages of one session to a registered function, one invocation each, as the host does with
 * autoComplete off: the function settles through the binding; a message it left unsettled after a failed
 * invocation is abandoned. Resolves with how many invocations ran.
 */
export async function deliverSession(
  functionName: string,
  receiver: ServiceBusSessionReceiver,
  waitMs: number,
): Promise<number> {
  receivers.set(receiver.sessionId, receiver);
  let invocations = 0;
  try {
    for (;;) {
      const [message] = await receiver.receiveMessages(1, { maxWaitTimeInMs: waitMs });
      if (!message) return invocations;
      held.set(message.lockToken!, { receiver, message });
      invocations += 1;
      try {
        await invoke(functionName, {
          content: modelBindingContent(message),
          triggerMetadata: {
            SessionId: message.sessionId,
            MessageId: message.messageId,
            DeliveryCount: (message.deliveryCount ?? 0) + 1,
            LockToken: message.lockToken,
          },
        });
      } finally {
        if (held.delete(message.lockToken!)) await receiver.abandonMessage(message).catch(() => undefined);
      }
    }
  } finally {
    receivers.delete(receiver.sessionId);
    await receiver.close();
  }
}
