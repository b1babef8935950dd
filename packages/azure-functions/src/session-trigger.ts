import type { app, InvocationContext } from '@azure/functions';
import type { ServiceBusReceivedMessage } from '@azure/service-bus';
import type { SessionHandle, SessionMessageHandler } from '@nimbus/core';
import type { HeldSession } from '@nimbus/transport-azure-service-bus';
import { FunctionsBindingError, heldSession, type ServiceBusBinding, withSentBody } from './held-session.js';
import { invocationSpan } from './telemetry.js';

/** What builds a NimBus session handle over the host's lease: a `ServiceBusTransport`. */
export interface SessionAdopter {
  adoptSession(input: string, held: HeldSession, messages: ServiceBusReceivedMessage[]): SessionHandle;
}

/** The part of `app` from `@azure/functions` the registration uses. */
export type FunctionsApp = Pick<typeof app, 'serviceBusTopic'>;

export interface SessionTriggerOptions {
  /** The function's name (unique in the app). */
  readonly name: string;
  /** The NimBus input: the endpoint id or its reply input (`<endpoint>-reply`). */
  readonly input: string;
  /** The app setting that holds the Service Bus connection (see docs/azure-functions.md). */
  readonly connection: string;
  readonly sessions: SessionAdopter;
  /** The engine (or any session message handler) that handles and settles each delivery. */
  readonly handler: SessionMessageHandler;
}

const REPLY_SUFFIX = '-reply';

/** The topic and subscription of an input, as the Service Bus transport provisions them. */
export function subscriptionOf(input: string): { topicName: string; subscriptionName: string } {
  const topicName = input.endsWith(REPLY_SUFFIX) ? input.slice(0, -REPLY_SUFFIX.length) : input;
  return { topicName, subscriptionName: input };
}

function bindingOf(value: unknown, functionName: string): ServiceBusBinding {
  const binding = value as Partial<ServiceBusBinding> | null;
  if (!binding || typeof binding !== 'object' || !binding.actions || !binding.messages) {
    throw new FunctionsBindingError(
      `Function '${functionName}' did not receive the Service Bus SDK binding: register it with sdkBinding: true and import '@azure/functions-extensions-servicebus' (docs/azure-functions.md).`,
    );
  }
  return binding as ServiceBusBinding;
}

/**
 * Registers a session-enabled Service Bus trigger on an input's subscription. Every invocation builds a session
 * handle over the host's lease and hands the delivered messages to `handler`, which settles them through the
 * host (autoComplete off): the same engine, with the same block, park, replay, retry and handoff decisions, as
 * the SDK's `EndpointHost`.
 */
export function registerSessionTrigger(app: FunctionsApp, options: SessionTriggerOptions): void {
  const trigger = {
    connection: options.connection,
    ...subscriptionOf(options.input),
    isSessionsEnabled: true,
    sdkBinding: true,
    autoCompleteMessages: false,
    cardinality: 'one' as const,
  };
  app.serviceBusTopic(options.name, {
    ...trigger,
    handler: async (value: unknown, context: InvocationContext) => {
      const binding = bindingOf(value, options.name);
      const messages = (Array.isArray(binding.messages) ? binding.messages : [binding.messages]).map(
        withSentBody,
      );
      const sessionId = messages[0]?.sessionId;
      if (!sessionId) {
        throw new FunctionsBindingError(
          `Function '${options.name}' got a message without a session id: its subscription must be session-enabled.`,
        );
      }
      await invocationSpan(context, options.input, sessionId, async () => {
        const handle = options.sessions.adoptSession(
          options.input,
          heldSession(binding, sessionId, undefined),
          messages,
        );
        try {
          const received = await handle.receive({ max: messages.length, waitMs: 0 });
          for (const message of received) await options.handler.handleMessage(handle, message);
        } finally {
          await handle.release();
        }
      });
    },
  });
}
