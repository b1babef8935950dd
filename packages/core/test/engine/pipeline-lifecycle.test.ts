import { describe, expect, it } from 'vitest';
import {
  type Logger,
  loggingBehaviour,
  MessageType,
  type PipelineBehaviour,
  silentLogger,
  validationBehaviour,
} from '../../src/index.js';
import { setup } from './engine-fixture.js';
import { event } from './fake-session.js';

function recorder(name: string, log: string[]): PipelineBehaviour {
  return {
    name,
    async handle(_context, next) {
      log.push(`${name}:before`);
      await next();
      log.push(`${name}:after`);
    },
  };
}

// Reference §7.7 PipelineAndLifecycle (52–61) and §7.3 built-in middleware.
describe('engine: pipeline behaviours and lifecycle', () => {
  it('7.7-52/53 behaviours wrap handling in registration order (first is outermost)', async () => {
    const log: string[] = [];
    const f = setup({ behaviours: [recorder('outer', log), recorder('inner', log)] });
    f.handler.script = () => void log.push('handler');
    await f.deliver(event());
    expect(log).toEqual(['outer:before', 'inner:before', 'handler', 'inner:after', 'outer:after']);
  });

  it('7.7-54 (fixed: nothing is dropped) a short-circuit skips the handler and the message is abandoned for redelivery', async () => {
    const f = setup({ behaviours: [{ name: 'gate', handle: async () => undefined }] });
    await f.deliver(event());
    expect(f.handler.calls).toHaveLength(0);
    expect(f.session.settlements.map((s) => s.kind)).toEqual(['abandon']);
  });

  it('7.7-55 success: received 1, completed 1, failed 0', async () => {
    const f = setup();
    const e = event();
    await f.deliver(e);
    expect(f.lifecycle).toEqual([`received:${e.eventId}`, `completed:${e.eventId}`]);
  });

  it('7.7-56 (fixed: observers see the real outcome) a throwing handler is reported as failed, never completed', async () => {
    const f = setup();
    f.handler.script = () => {
      throw new Error('x');
    };
    const e = event();
    await f.deliver(e);
    expect(f.lifecycle).toEqual([`received:${e.eventId}`, `failed:${e.eventId}`]);
  });

  it('7.7-57 pipeline and lifecycle together', async () => {
    const log: string[] = [];
    const f = setup({ behaviours: [recorder('b', log)] });
    await f.deliver(event());
    expect(log).toEqual(['b:before', 'b:after']);
    expect(f.lifecycle.map((l) => l.split(':')[0])).toEqual(['received', 'completed']);
  });

  it('7.7-58 an unhandled message type: received, failed, dead-lettered; no completed', async () => {
    const f = setup();
    const e = event({ messageType: MessageType.DeferralResponse });
    await f.deliver(e);
    expect(f.lifecycle.map((l) => l.split(':')[0])).toEqual(['received', 'failed', 'deadLettered']);
    expect(f.session.last?.kind).toBe('deadLetter');
  });

  it('7.7-59 (fixed: real outcome) a behaviour that swallows a handler failure still reports failed; the error response stands', async () => {
    const swallow: PipelineBehaviour = {
      name: 'swallow',
      async handle(_c, next) {
        try {
          await next();
        } catch {
          // swallowed on purpose
        }
      },
    };
    const f = setup({ behaviours: [swallow] });
    f.handler.script = () => {
      throw new Error('x');
    };
    const e = event();
    await f.deliver(e);
    expect(f.lifecycle).toEqual([`received:${e.eventId}`, `failed:${e.eventId}`]);
    expect(f.session.responses(MessageType.ErrorResponse)).toHaveLength(1);
    expect(f.session.blockedBy()).toBe(e.eventId);
  });

  it('7.7-60/61 a behaviour throwing before next: handler not run, dead-lettered, notification names the behaviour', async () => {
    class TenantGuardError extends Error {
      override name = 'TenantGuardError';
    }
    const f = setup({
      behaviours: [
        {
          name: 'tenant-guard',
          handle: async () => {
            throw new TenantGuardError('tenant-guard refused the message');
          },
        },
      ],
    });
    await f.deliver(event());
    expect(f.handler.calls).toHaveLength(0);
    expect(f.lifecycle.map((l) => l.split(':')[0])).toEqual(['received', 'failed', 'deadLettered']);
    const [notice] = f.session.responses(MessageType.ErrorResponse);
    expect(notice?.deadLetterReason).toBe('Failed to handle message.');
    expect(notice?.deadLetterErrorDescription).toContain('tenant-guard refused the message');
    expect(notice?.deadLetterErrorDescription).toContain('TenantGuardError');
  });

  it('validation behaviour dead-letters an EventRequest without EventTypeId with a reason naming the field', async () => {
    const f = setup({ behaviours: [validationBehaviour()] });
    await f.deliver({ ...event(), eventTypeId: null, content: { eventContent: null, errorContent: null } });
    const last = f.session.last;
    expect(last?.kind === 'deadLetter' && last.reason).toBe(
      'Validation failed: EventTypeId is required for EventRequest',
    );
  });

  it('logging behaviour logs start and completion and rethrows failures unchanged', async () => {
    const lines: string[] = [];
    const logger: Logger = {
      ...silentLogger,
      info: (_f, m) => void lines.push(m),
      warn: (_f, m) => void lines.push(m),
    };
    const f = setup({ behaviours: [loggingBehaviour(logger)] });
    await f.deliver(event());
    f.handler.script = () => {
      throw new Error('x');
    };
    await f.deliver(event({ sessionId: 's2' }));
    expect(lines).toEqual([
      'Processing message',
      'Processed message',
      'Processing message',
      'Processing message failed',
    ]);
  });

  it('an observer that throws does not affect processing', async () => {
    const f = setup({
      observers: [
        {
          onMessageCompleted: () => {
            throw new Error('observer');
          },
        },
      ],
    });
    await f.deliver(event());
    expect(f.session.last?.kind).toBe('complete');
  });
});
