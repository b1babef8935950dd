import type { Clock, Logger } from '@nimbus/core';
import { MessageAuditType } from '@nimbus/message-store';
import type { FastifyRequest } from 'fastify';
import type { AuditLog } from '../audit/audit-log.js';
import { HttpError, unauthorized } from '../http/http-error.js';
import { type IdentityStore, type IdentityUser, normalizeEmail } from '../identity/identity-store.js';
import { hashPassword, needsRehash, verifyAgainstDummy, verifyPassword } from './password.js';
import type { Limiter, SignInLimits } from './sign-in-limits.js';

export interface SignInDeps {
  readonly identityStore: IdentityStore;
  readonly auditLog: AuditLog;
  readonly clock: Clock;
  readonly logger: Logger;
  readonly limits: SignInLimits;
  readonly perAddress: Limiter;
  readonly perAccount: Limiter;
}

/**
 * Checks e-mail and password. Unknown and real accounts get the same answers and the same work: attempts
 * are counted per e-mail (so unknown ones lock out too), and an unknown account is checked against a dummy
 * hash. Each attempt is counted before the password is checked, so parallel guesses cannot overtake the
 * lockout. Every outcome writes one audit row.
 */
export async function signIn(
  deps: SignInDeps,
  request: FastifyRequest,
  rawEmail: string,
  password: string,
): Promise<IdentityUser> {
  const { identityStore, auditLog, clock, limits } = deps;
  const email = normalizeEmail(rawEmail);
  const address = request.ip;
  const audit = (type: MessageAuditType, data: Record<string, unknown>) =>
    auditLog.write({
      type,
      auditorName: email,
      subject: `account:${email}`,
      accessDenied: type !== MessageAuditType.SignIn,
      data,
    });
  try {
    await deps.perAddress(request, address);
    await deps.perAccount(request, email);
  } catch (error) {
    // A rate-limited attempt is a refused one: it is audited like the others (then answered 429).
    await audit(MessageAuditType.SignInFailed, { address, reason: (error as Error).message });
    throw error;
  }

  const now = new Date(clock.now());
  const addressKey = `address:${address}|${email}`;
  const accountKey = `account:${email}`;
  let count = await identityStore.countLoginAttempt(addressKey, now, limits.addressLockout);
  let scope = 'from this address';
  if (count.lockedUntil === null) {
    count = await identityStore.countLoginAttempt(accountKey, now, limits.accountLockout);
    scope = 'from all addresses';
  }
  if (count.lockedUntil !== null) {
    await audit(count.lockStarted ? MessageAuditType.SignInLockedOut : MessageAuditType.SignInFailed, {
      address,
      reason: `locked ${scope} until ${count.lockedUntil.toISOString()}`,
    });
    throw new HttpError(
      401,
      'LockedOut',
      `Too many sign-in attempts for this account ${scope}; try again after ${count.lockedUntil.toISOString()}.`,
    );
  }

  const user = await identityStore.findUserByEmail(email);
  const valid = user ? await verifyPassword(password, user.passwordHash) : await verifyAgainstDummy(password);
  if (!user || !valid) {
    await audit(MessageAuditType.SignInFailed, { address, reason: 'invalid email or password' });
    deps.logger.info({ ip: address }, 'Sign-in refused: invalid email or password');
    throw unauthorized('Invalid email or password.');
  }
  if (user.disabledAt !== null) {
    // Only said to someone who knows the password: it does not tell strangers which accounts exist.
    await audit(MessageAuditType.SignInFailed, { address, reason: 'account disabled' });
    throw new HttpError(401, 'AccountDisabled', 'This account is disabled; ask an administrator.');
  }
  await identityStore.clearLoginAttempts([addressKey, accountKey]);
  await audit(MessageAuditType.SignIn, { address });
  if (needsRehash(user.passwordHash)) {
    // Hashes made with an older, cheaper cost are upgraded while the password is at hand.
    const at = new Date(clock.now());
    await identityStore.updatePassword(user.id, await hashPassword(password), at, user.mustChangePassword);
    deps.logger.info({ userId: user.id }, 'Password hash upgraded to the current scrypt cost');
  }
  return user;
}
