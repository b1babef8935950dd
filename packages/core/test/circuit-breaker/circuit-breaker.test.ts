import { describe, expect, it } from 'vitest';
import {
  CircuitBreakerOptionsError,
  CircuitState,
  type CircuitStateChange,
  EndpointCircuitBreaker,
  ManualClock,
  silentLogger,
} from '../../src/index.js';

class UnavailableError extends Error {}
class ThrottledError extends Error {}
class RejectedError extends Error {}

const options = {
  minimumThroughput: 10,
  failurePercentageThreshold: 50,
  samplingWindowMs: 60_000,
  breakDurationMs: 30_000,
  halfOpenProbeCount: 2,
  excludedErrors: [ThrottledError, RejectedError],
  logger: silentLogger,
};

function breaker(clock = new ManualClock(), overrides: Partial<typeof options> = {}) {
  return new EndpointCircuitBreaker('D365SalesEndpoint', { ...options, ...overrides, clock });
}

function openBreaker(clock: ManualClock) {
  const b = breaker(clock);
  for (let i = 0; i < 10; i++) b.recordFailure(new UnavailableError('503'));
  return b;
}

describe('EndpointCircuitBreaker', () => {
  it('opens once the window holds the minimum throughput and the failure percentage reaches the threshold', () => {
    const b = breaker();
    for (let i = 0; i < 5; i++) b.recordSuccess();
    for (let i = 0; i < 4; i++) b.recordFailure(new UnavailableError('503'));
    expect(b.state).toBe(CircuitState.Closed); // 9 outcomes: below the minimum throughput
    b.recordFailure(new UnavailableError('503'));
    expect(b.state).toBe(CircuitState.Open); // 5 of 10 = 50 %
    expect(b.allowRequest()).toBe(false);
  });

  it('stays closed below the failure percentage', () => {
    const b = breaker();
    for (let i = 0; i < 6; i++) b.recordSuccess();
    for (let i = 0; i < 4; i++) b.recordFailure(new UnavailableError('503'));
    expect(b.state).toBe(CircuitState.Closed);
  });

  it('forgets outcomes older than the sampling window', () => {
    const clock = new ManualClock();
    const b = breaker(clock);
    for (let i = 0; i < 9; i++) b.recordFailure(new UnavailableError('503'));
    clock.advance(60_000);
    b.recordFailure(new UnavailableError('503'));
    expect(b.state).toBe(CircuitState.Closed);
  });

  it('stays closed for excluded errors, also when wrapped as a cause, and for isExcluded matches', () => {
    const b = breaker(new ManualClock(), {});
    for (let i = 0; i < 10; i++) expect(b.recordFailure(new ThrottledError('429'))).toBe(false);
    for (let i = 0; i < 10; i++)
      b.recordFailure(new Error('handler failed', { cause: new RejectedError('400') }));
    expect(b.state).toBe(CircuitState.Closed);
    const custom = new EndpointCircuitBreaker('E', {
      ...options,
      isExcluded: (e) => e instanceof Error && e.message === 'ignore me',
    });
    for (let i = 0; i < 10; i++) custom.recordFailure(new Error('ignore me'));
    expect(custom.state).toBe(CircuitState.Closed);
  });

  it('goes half-open after the break duration and closes after the probe successes', () => {
    const clock = new ManualClock();
    const b = openBreaker(clock);
    clock.advance(29_999);
    expect(b.state).toBe(CircuitState.Open);
    clock.advance(1);
    expect(b.state).toBe(CircuitState.HalfOpen);
    expect(b.allowRequest()).toBe(true);
    expect(b.allowRequest()).toBe(true);
    expect(b.allowRequest()).toBe(false); // two probes in flight
    b.recordSuccess();
    expect(b.state).toBe(CircuitState.HalfOpen);
    b.recordSuccess();
    expect(b.state).toBe(CircuitState.Closed);
    expect(b.allowRequest()).toBe(true);
  });

  it('reopens on a counted probe failure, for a fresh break duration', () => {
    const clock = new ManualClock();
    const b = openBreaker(clock);
    clock.advance(30_000);
    expect(b.allowRequest()).toBe(true);
    b.recordFailure(new UnavailableError('still down'));
    expect(b.state).toBe(CircuitState.Open);
    expect(b.halfOpenAt?.getTime()).toBe(clock.now() + 30_000);
  });

  it('gives back a probe slot for an excluded failure or an unused request', () => {
    const clock = new ManualClock();
    const b = openBreaker(clock);
    clock.advance(30_000);
    expect(b.allowRequest()).toBe(true);
    expect(b.allowRequest()).toBe(true);
    b.recordFailure(new ThrottledError('429'));
    expect(b.state).toBe(CircuitState.HalfOpen);
    expect(b.allowRequest()).toBe(true);
    b.releaseRequest();
    expect(b.allowRequest()).toBe(true);
  });

  it('reports every state change to listeners', () => {
    const clock = new ManualClock();
    const changes: CircuitStateChange[] = [];
    const b = breaker(clock);
    b.onStateChange((c) => changes.push(c));
    for (let i = 0; i < 10; i++) b.recordFailure(new UnavailableError('503'));
    clock.advance(30_000);
    b.allowRequest();
    b.recordSuccess();
    b.allowRequest();
    b.recordSuccess();
    expect(changes.map((c) => `${c.from}->${c.to}`)).toEqual([
      'closed->open',
      'open->halfOpen',
      'halfOpen->closed',
    ]);
    expect(changes[0]?.endpointId).toBe('D365SalesEndpoint');
  });

  it('waitUntilClosedOrHalfOpen resolves when the break duration passes, or on abort', async () => {
    const clock = new ManualClock();
    const b = openBreaker(clock);
    let woke = false;
    const waiting = b.waitUntilClosedOrHalfOpen().then(() => {
      woke = true;
    });
    await Promise.resolve();
    clock.advance(10_000);
    await new Promise((r) => setImmediate(r));
    expect(woke).toBe(false);
    clock.advance(20_000);
    await waiting;
    expect(b.state).toBe(CircuitState.HalfOpen);

    const reopened = openBreaker(clock);
    const abort = new AbortController();
    const aborted = reopened.waitUntilClosedOrHalfOpen(abort.signal);
    abort.abort();
    await aborted;
    expect(reopened.state).toBe(CircuitState.Open);
  });

  it('refuses invalid options with an error naming the option', () => {
    expect(() => new EndpointCircuitBreaker('E', { failurePercentageThreshold: 0 })).toThrow(
      CircuitBreakerOptionsError,
    );
    expect(() => new EndpointCircuitBreaker('E', { minimumThroughput: 1.5 })).toThrow(/minimumThroughput/);
    expect(() => new EndpointCircuitBreaker('', {})).toThrow(/endpoint id/);
  });
});
