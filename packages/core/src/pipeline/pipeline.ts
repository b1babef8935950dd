import type { MessageEnvelope } from '../envelope/envelope.js';

/** What a behaviour sees of the message being processed. */
export interface PipelineContext {
  readonly message: MessageEnvelope;
  readonly endpointId: string;
  /** True while a parked message is replayed inside its session. */
  readonly isReplay: boolean;
  readonly deliveryCount: number;
  /** Free-form values behaviours can share for one message. */
  readonly items: Map<string, unknown>;
}

/**
 * Wraps the engine's work for one message. Call `next()` to continue; exceptions thrown here are treated
 * as processing failures (dead-letter with a notification). A behaviour that never calls `next()` leaves
 * the message unprocessed: the engine abandons it so that it is delivered again.
 */
export interface PipelineBehaviour {
  readonly name: string;
  handle(context: PipelineContext, next: () => Promise<void>): Promise<void>;
}

/** Runs `terminal` inside the behaviours; the first registered behaviour is the outermost. */
export function runPipeline(
  behaviours: readonly PipelineBehaviour[],
  context: PipelineContext,
  terminal: () => Promise<void>,
): Promise<void> {
  const step = (index: number): Promise<void> => {
    const behaviour = behaviours[index];
    if (behaviour === undefined) return terminal();
    return behaviour.handle(context, () => step(index + 1));
  };
  return step(0);
}
