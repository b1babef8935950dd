import type { FastifyInstance, FastifyRequest } from 'fastify';
import { HttpError } from '../http/http-error.js';
import type { LoginAttemptPolicy } from '../identity/identity-store.js';

export interface RateLimit {
  readonly max: number;
  readonly timeWindowMs: number;
}

/**
 * How hard guessing is made. Address limits are lower than account limits ("per address first"): one
 * source runs into its own limit long before it could lock an account for everybody, and every lock ends.
 */
export interface SignInLimits {
  /** Sign-in requests per client address, any account (@fastify/rate-limit, in process). */
  readonly perAddress: RateLimit;
  /** Sign-in requests per account, any address (@fastify/rate-limit, in process). */
  readonly perAccount: RateLimit;
  /** Attempts on one account from one address before that address is locked out of it (in the store). */
  readonly addressLockout: LoginAttemptPolicy;
  /** Attempts on one account from all addresses before it is locked for everyone (in the store). */
  readonly accountLockout: LoginAttemptPolicy;
  /** Current-password checks per user when changing the password. */
  readonly passwordCheck: RateLimit;
}

const MINUTE = 60_000;

export const DEFAULT_SIGN_IN_LIMITS: SignInLimits = {
  perAddress: { max: 20, timeWindowMs: MINUTE },
  perAccount: { max: 100, timeWindowMs: MINUTE },
  addressLockout: { maxAttempts: 5, windowMs: 15 * MINUTE, lockMs: 15 * MINUTE },
  accountLockout: { maxAttempts: 50, windowMs: 15 * MINUTE, lockMs: 15 * MINUTE },
  passwordCheck: { max: 5, timeWindowMs: 15 * MINUTE },
};

export type Limiter = (request: FastifyRequest, key: string) => Promise<void>;

/** One limiter from the rate-limit plugin; a request over the limit gets a 429 with Retry-After. */
export function createLimiter(server: FastifyInstance, limit: RateLimit, what: string): Limiter {
  const keys = new WeakMap<FastifyRequest, string>();
  const check = server.createRateLimit({
    max: limit.max,
    timeWindow: limit.timeWindowMs,
    keyGenerator: (request) => keys.get(request) ?? request.ip,
  });
  return async (request, key) => {
    keys.set(request, `${what}:${key}`);
    const result = await check(request);
    if (!result.isAllowed && result.isExceeded) {
      const seconds = Math.max(1, result.ttlInSeconds);
      throw new HttpError(429, 'TooManyRequests', `Too many ${what} attempts; retry in ${seconds} s.`, [], {
        'retry-after': String(seconds),
      });
    }
  };
}
