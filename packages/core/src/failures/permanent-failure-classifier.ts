import { causeChain } from '../errors/cause-chain.js';
import { NimBusErrorCode } from '../errors/error-codes.js';
import { NimBusError } from '../errors/nimbus-error.js';
import type { ErrorClass } from '../retry/retry-policy-provider.js';
import type { FailureClassifier, FailureDisposition } from './failure-disposition.js';

export interface PermanentFailureOptions {
  /** Error classes (and their subclasses) that are permanent. */
  readonly errorTypes?: readonly ErrorClass[];
  /** Case-insensitive fragments of error names that are permanent. */
  readonly namePatterns?: readonly string[];
  /** Include the JavaScript defaults (`SyntaxError`, names containing Validation/Serialization/Deserialization). Default true. */
  readonly includeDefaults?: boolean;
}

const DEFAULT_TYPES: readonly ErrorClass[] = [SyntaxError];
const DEFAULT_PATTERNS = ['validation', 'serialization', 'deserialization'];

/**
 * Opt-in classifier: failures that no retry can fix (bad payloads, schema violations) are dead-lettered at
 * once with a readable reason; everything else is retried. Only the thrown error itself is examined.
 */
export class PermanentFailureClassifier implements FailureClassifier {
  readonly name = 'PermanentFailureClassifier';
  readonly #types: ErrorClass[];
  readonly #patterns: string[];

  constructor(options: PermanentFailureOptions = {}) {
    const defaults = options.includeDefaults ?? true;
    this.#types = [...(defaults ? DEFAULT_TYPES : []), ...(options.errorTypes ?? [])];
    this.#patterns = defaults ? [...DEFAULT_PATTERNS] : [];
    for (const pattern of options.namePatterns ?? []) this.addNamePattern(pattern);
  }

  addErrorType(errorClass: ErrorClass): this {
    if (typeof errorClass !== 'function')
      throw new NimBusError(NimBusErrorCode.InvalidArgument, 'addErrorType needs an error class.');
    if (!this.#types.includes(errorClass)) this.#types.push(errorClass);
    return this;
  }

  addNamePattern(pattern: string): this {
    if (typeof pattern !== 'string' || pattern.trim() === '') {
      throw new NimBusError(
        NimBusErrorCode.InvalidArgument,
        'A permanent-failure name pattern must be non-blank.',
      );
    }
    const lower = pattern.toLowerCase();
    if (!this.#patterns.includes(lower)) this.#patterns.push(lower);
    return this;
  }

  isPermanent(error: unknown): boolean {
    const [first] = causeChain(error);
    if (!(first instanceof Error)) return false;
    if (this.#types.some((type) => first instanceof type)) return true;
    const name = `${first.name} ${first.constructor.name}`.toLowerCase();
    return this.#patterns.some((pattern) => name.includes(pattern));
  }

  classify(error: unknown): FailureDisposition {
    return this.isPermanent(error) ? 'deadLetter' : 'retry';
  }
}
