import { ZxcvbnFactory } from '@zxcvbn-ts/core';
import * as common from '@zxcvbn-ts/language-common';
import * as english from '@zxcvbn-ts/language-en';
import { HttpError } from '../http/http-error.js';

export const MIN_PASSWORD_LENGTH = 10;
export const MAX_PASSWORD_LENGTH = 200;
/** zxcvbn score 0–4; 3 means "safely unguessable: moderate protection from offline slow-hash attacks". */
const MIN_SCORE = 3;

let estimator: ZxcvbnFactory | null = null;

function strength(password: string, userInputs: readonly string[]) {
  estimator ??= new ZxcvbnFactory({
    dictionary: { ...common.dictionary, ...english.dictionary },
    graphs: common.adjacencyGraphs,
    translations: english.translations,
  });
  return estimator.check(password, [...userInputs]);
}

/**
 * Returns what is wrong with a new password, or an empty list when it is acceptable: a minimum length and
 * a zxcvbn strength estimate (common and breached-list passwords, keyboard walks, dates, the user's own
 * e-mail and name all score low), instead of character-class rules `Password1` satisfies.
 */
export function passwordProblems(password: string, userInputs: readonly string[] = []): string[] {
  if (password.length < MIN_PASSWORD_LENGTH) return [`at least ${MIN_PASSWORD_LENGTH} characters`];
  if (password.length > MAX_PASSWORD_LENGTH) return [`at most ${MAX_PASSWORD_LENGTH} characters`];
  const result = strength(
    password,
    userInputs.flatMap((input) => [input, ...input.split(/[@.\s_-]+/)]),
  );
  if (result.score >= MIN_SCORE) return [];
  const hint = result.feedback.warning ? ` (${result.feedback.warning.replace(/\.$/, '')})` : '';
  return [`to be harder to guess${hint}: use a longer passphrase of unrelated words`];
}

/** Throws the 400 that names `field` (`body.password`) when the password is not acceptable. */
export function assertAcceptablePassword(
  password: string,
  field: string,
  userInputs: readonly string[],
): void {
  const problems = passwordProblems(password, userInputs);
  if (problems.length === 0) return;
  const message = `the password needs ${problems.join(', ')}`;
  throw new HttpError(400, 'ValidationError', `${field}: ${message}`, [{ path: field, message }]);
}
