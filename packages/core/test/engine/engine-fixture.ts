import {
  type FailureClassifier,
  type LifecycleObserver,
  ManualClock,
  MessageEngine,
  type MessageEngineOptions,
  type MessageEnvelope,
  type PipelineBehaviour,
  type RetryPolicyProvider,
  silentLogger,
} from '../../src/index.js';
import { FakeSession, ScriptedHandler } from './fake-session.js';

export interface Fixture {
  engine: MessageEngine;
  session: FakeSession;
  handler: ScriptedHandler;
  clock: ManualClock;
  lifecycle: string[];
  deliver(envelope: MessageEnvelope): Promise<void>;
}

export function setup(
  options: {
    retryPolicies?: RetryPolicyProvider;
    failureClassifier?: FailureClassifier;
    behaviours?: PipelineBehaviour[];
    observers?: LifecycleObserver[];
    extra?: Partial<MessageEngineOptions>;
  } = {},
): Fixture {
  const clock = new ManualClock();
  const handler = new ScriptedHandler();
  const session = new FakeSession();
  const lifecycle: string[] = [];
  const recorder: LifecycleObserver = {
    onMessageReceived: (c) => void lifecycle.push(`received:${c.eventId}`),
    onMessageCompleted: (c) => void lifecycle.push(`completed:${c.eventId}`),
    onMessageFailed: (c) => void lifecycle.push(`failed:${c.eventId}`),
    onMessageDeadLettered: (c) => void lifecycle.push(`deadLettered:${c.eventId}`),
    onSessionBlocked: (c) => void lifecycle.push(`blocked:${c.eventId}`),
    onDuplicateDetected: (c) => void lifecycle.push(`duplicate:${c.eventId}`),
  };
  const engine = new MessageEngine({
    endpointId: 'Billing',
    handler,
    clock,
    logger: silentLogger,
    retryPolicies: options.retryPolicies ?? null,
    failureClassifier: options.failureClassifier,
    behaviours: options.behaviours,
    observers: [recorder, ...(options.observers ?? [])],
    random: () => 0.5,
    ...options.extra,
  });
  return {
    engine,
    session,
    handler,
    clock,
    lifecycle,
    deliver: (envelope) => engine.handleMessage(session, session.deliver(envelope)),
  };
}
