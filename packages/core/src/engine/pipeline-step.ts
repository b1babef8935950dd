import { NimBusErrorCode } from '../errors/error-codes.js';
import { isNimBusError } from '../errors/nimbus-error.js';
import { type PipelineBehaviour, runPipeline } from '../pipeline/pipeline.js';
import { failureVerdict } from './engine-support.js';
import { HandlerFailedError } from './errors.js';
import type { StepVerdict, Verdict } from './plan.js';
import { dispatch } from './procedures.js';
import type { Step } from './step.js';

/**
 * Runs `step` through the behaviours and its procedure and returns the verdict. Behaviours see a failed handler
 * as `next()` rejecting with `HandlerFailedError` (public, docs/errors.md); when they pass that on, the
 * procedure's own verdict stands. Anything else they or the procedure throw becomes a verdict by its kind.
 */
export async function runStep(step: Step, behaviours: readonly PipelineBehaviour[]): Promise<Verdict> {
  let decided = null as StepVerdict | null;
  const context = {
    message: step.message,
    endpointId: step.deps.endpointId,
    isReplay: step.isReplay,
    deliveryCount: step.deliveryCount,
    items: new Map<string, unknown>(),
  };
  try {
    await runPipeline(behaviours, context, async () => {
      decided = await dispatch(step);
      if (decided.kind === 'failed') throw new HandlerFailedError(decided.error);
    });
    return decided ?? { kind: 'skipped' };
  } catch (error) {
    return isNimBusError(error, NimBusErrorCode.HandlerFailed) && decided !== null
      ? decided
      : failureVerdict(error);
  }
}
