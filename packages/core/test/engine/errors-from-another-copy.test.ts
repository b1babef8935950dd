import { describe, expect, it } from 'vitest';
import { MessageType, NimBusErrorCode } from '../../src/index.js';
import { setup } from './engine-fixture.js';
import { event } from './fake-session.js';

/**
 * What a NimBus error thrown by a second copy of @nimbus/core (a bundled adapter beside a hoisted engine) looks
 * like to this copy: the same name, code and fields, but not an instance of this copy's classes. The engine
 * must steer by the code, as `isNimBusError` does, or a permanent failure would be retried as an unknown one.
 */
class ForeignNimBusError extends Error {
  readonly isRetryable = false;
  constructor(
    override readonly name: string,
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

describe('engine: errors from another copy of @nimbus/core are recognised by their code', () => {
  it('a PermanentFailureError dead-letters at once with its message, never retried', async () => {
    let consulted = 0;
    const retryPolicyFor = () => {
      consulted++;
      return null;
    };
    const f = setup({ retryPolicies: { retryPolicyFor } });
    f.handler.script = () => {
      throw new ForeignNimBusError(
        'PermanentFailureError',
        NimBusErrorCode.PermanentFailure,
        'bad VAT number',
      );
    };
    await f.deliver(event());
    const last = f.session.last;
    expect(last?.kind === 'deadLetter' && last.reason).toBe('Permanent failure: bad VAT number');
    expect(consulted).toBe(0);
    expect(f.session.blockedBy()).toBeNull();
  });

  it('an EventHandlerNotFoundError answers Unsupported and completes', async () => {
    const f = setup();
    f.handler.script = () => {
      throw new ForeignNimBusError(
        'EventHandlerNotFoundError',
        NimBusErrorCode.HandlerNotFound,
        'no handler',
      );
    };
    await f.deliver(event());
    expect(f.session.responses(MessageType.UnsupportedResponse)).toHaveLength(1);
    expect(f.session.last?.kind).toBe('complete');
  });
});
