/**
 * A failure signature groups failures that share one cause: the error type plus the error message with its
 * variable parts (ids, numbers, quoted values, urls, e-mail addresses, timestamps) replaced by placeholders,
 * so "VAT number 'DK123' rejected" and "VAT number 'SE987' rejected" land in one group.
 */
export interface FailureSignature {
  /** The error type as reported by the handler (`'Error'` when none was recorded). */
  readonly errorType: string;
  /** The message with its variable parts replaced (`<id>`, `<n>`, `<value>`, …), whitespace collapsed. */
  readonly normalisedMessage: string;
  /** `errorType + ': ' + normalisedMessage`, cut to {@link FAILURE_SIGNATURE_MAX_LENGTH} characters. */
  readonly key: string;
}

export const FAILURE_SIGNATURE_MAX_LENGTH = 400;

const replacements: ReadonlyArray<readonly [RegExp, string]> = [
  [/\b[a-z][a-z0-9+.-]*:\/\/[^\s'"]+/gi, '<url>'],
  [/\b[^\s@'"]+@[^\s@'"]+\.[a-z]{2,}\b/gi, '<email>'],
  [/\b\d{4}-\d{2}-\d{2}[T ][\d:.]+(?:Z|[+-]\d{2}:?\d{2})?/g, '<time>'],
  [/\b[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b/gi, '<id>'],
  [/'[^']*'|"[^"]*"|`[^`]*`/g, '<value>'],
  [/\b(?=[a-z_-]*\d)(?=[a-z0-9_-]*[a-z])[a-z0-9_-]{6,}\b/gi, '<id>'],
  [/\b0x[0-9a-f]+\b/gi, '<n>'],
  [/[-+]?\b\d+(?:[.,]\d+)*\b/g, '<n>'],
];

/**
 * An example the message's author wrote into it ("(e.g. DK12345678)", "for example NL…") is part of the text, the
 * same in every failure: it is kept as written, or the template would show "(e.g. <id>)" and hide the hint.
 */
const AUTHORED_EXAMPLE = /\((?:e\.g\.|for example|such as)\s[^()]*\)/gi;

function replaceVariableParts(text: string): string {
  let out = text;
  for (const [pattern, placeholder] of replacements) out = out.replace(pattern, placeholder);
  return out;
}

/** Replaces the variable parts of an error message so one cause reads the same every time. */
export function normaliseErrorMessage(message: string): string {
  const text = message.split('\n', 1)[0] ?? '';
  const examples = text.match(AUTHORED_EXAMPLE) ?? [];
  const normalised = text
    .split(AUTHORED_EXAMPLE)
    .map((part, i) => replaceVariableParts(part) + (examples[i] ?? ''))
    .join('');
  return normalised.replace(/\s+/g, ' ').trim();
}

/** The signature of one failure (error type + normalised first line of its message). */
export function failureSignature(
  errorType: string | null | undefined,
  errorText: string | null | undefined,
): FailureSignature {
  const type = errorType?.trim() || 'Error';
  const normalisedMessage = normaliseErrorMessage(errorText ?? '');
  const key = `${type}: ${normalisedMessage}`.slice(0, FAILURE_SIGNATURE_MAX_LENGTH);
  return { errorType: type, normalisedMessage, key };
}
