import { HttpError } from '../http/http-error.js';
import { passwordStrength } from './password-strength.js';

export const MIN_PASSWORD_LENGTH = 10;
export const MAX_PASSWORD_LENGTH = 200;
/** zxcvbn score 0–4; 3 means "safely unguessable: moderate protection from offline slow-hash attacks". */
const MIN_SCORE = 3;

/**
 * Returns what is wrong with a new password, or an empty list when it is acceptable: a length range and
 * a zxcvbn strength estimate (common and breached-list passwords, keyboard walks, dates, the user's own
 * e-mail and name all score low), instead of character-class rules `Password1` satisfies. The estimate runs
 * on a worker thread over a bounded prefix (see password-strength.ts): it never stalls the event loop.
 */
export async function passwordProblems(
  password: string,
  userInputs: readonly string[] = [],
): Promise<string[]> {
  if (password.length < MIN_PASSWORD_LENGTH) return [`at least ${MIN_PASSWORD_LENGTH} characters`];
  if (password.length > MAX_PASSWORD_LENGTH) return [`at most ${MAX_PASSWORD_LENGTH} characters`];
  const result = await passwordStrength(
    password,
    userInputs.flatMap((input) => [input, ...input.split(/[@.\s_-]+/)]).filter((input) => input !== ''),
  );
  if (result.score >= MIN_SCORE) return [];
  const hint = result.warning ? ` (${result.warning.replace(/\.$/, '')})` : '';
  return [`to be harder to guess${hint}: use a longer passphrase of unrelated words`];
}

/** Throws the 400 that names `field` (`body.password`) when the password is not acceptable. */
export async function assertAcceptablePassword(
  password: string,
  field: string,
  userInputs: readonly string[],
): Promise<void> {
  const problems = await passwordProblems(password, userInputs);
  if (problems.length === 0) return;
  const message = `the password needs ${problems.join(', ')}`;
  throw new HttpError(400, 'ValidationError', `${field}: ${message}`, [{ path: field, message }]);
}
