import { causeChain, fullErrorText } from '../errors/cause-chain.js';
import { NimBusErrorCode } from '../errors/error-codes.js';
import { NimBusError } from '../errors/nimbus-error.js';
import type { RetryPolicy } from './retry-policy.js';

/** Chooses the retry policy for a failed handler; `null` means no automatic retry. */
export interface RetryPolicyProvider {
  retryPolicyFor(eventTypeId: string | null, error: unknown): RetryPolicy | null;
}

// biome-ignore lint/suspicious/noExplicitAny: any error class may be matched
export type ErrorClass = abstract new (...args: any[]) => Error;

type Rule =
  | { kind: 'type'; errorClass: ErrorClass; policy: RetryPolicy; scope: Set<string> | null }
  | { kind: 'text'; text: string; policy: RetryPolicy; scope: Set<string> | null };

function scopeOf(eventTypeIds: readonly string[]): Set<string> | null {
  return eventTypeIds.length === 0 ? null : new Set(eventTypeIds.map((id) => id.toLowerCase()));
}

/**
 * Resolution order: error rules (typed and text, together, in registration order; first match wins), then
 * the event type's policy, then the default policy, else `null`.
 */
export class DefaultRetryPolicyProvider implements RetryPolicyProvider {
  readonly #rules: Rule[] = [];
  readonly #byEventType = new Map<string, RetryPolicy>();
  #default: RetryPolicy | null = null;

  /** Matches when the error or any error in its `cause` chain is an instance of `errorClass`. */
  addErrorRule(errorClass: ErrorClass, policy: RetryPolicy, ...eventTypeIds: string[]): this {
    if (typeof errorClass !== 'function')
      throw new NimBusError(NimBusErrorCode.InvalidArgument, 'addErrorRule needs an error class.');
    requirePolicy(policy);
    this.#rules.push({ kind: 'type', errorClass, policy, scope: scopeOf(eventTypeIds) });
    return this;
  }

  /**
   * Matches when `text` appears (ignoring case) in the names, messages or stacks of the error and its
   * causes. Prefer {@link addErrorRule}: short fragments can match stack lines or ids by accident.
   */
  addTextRule(text: string, policy: RetryPolicy, ...eventTypeIds: string[]): this {
    if (typeof text !== 'string' || text.trim() === '')
      throw new NimBusError(NimBusErrorCode.InvalidArgument, 'addTextRule needs non-blank text.');
    requirePolicy(policy);
    this.#rules.push({ kind: 'text', text: text.toLowerCase(), policy, scope: scopeOf(eventTypeIds) });
    return this;
  }

  addEventTypePolicy(eventTypeId: string, policy: RetryPolicy): this {
    if (typeof eventTypeId !== 'string' || eventTypeId.trim() === '') {
      throw new NimBusError(
        NimBusErrorCode.InvalidArgument,
        'addEventTypePolicy needs a non-blank event type id.',
      );
    }
    requirePolicy(policy);
    this.#byEventType.set(eventTypeId.toLowerCase(), policy);
    return this;
  }

  setDefaultPolicy(policy: RetryPolicy | null): this {
    if (policy !== null) requirePolicy(policy);
    this.#default = policy;
    return this;
  }

  retryPolicyFor(eventTypeId: string | null, error: unknown): RetryPolicy | null {
    const typeKey = eventTypeId?.toLowerCase() ?? null;
    let text: string | null = null;
    for (const rule of this.#rules) {
      if (rule.scope !== null && (typeKey === null || !rule.scope.has(typeKey))) continue;
      if (rule.kind === 'type') {
        if (causeChain(error).some((link) => link instanceof rule.errorClass)) return rule.policy;
      } else {
        text ??= fullErrorText(error).toLowerCase();
        if (text.includes(rule.text)) return rule.policy;
      }
    }
    if (typeKey !== null) {
      const policy = this.#byEventType.get(typeKey);
      if (policy) return policy;
    }
    return this.#default;
  }
}

function requirePolicy(policy: RetryPolicy): void {
  if (policy === null || typeof policy !== 'object' || typeof policy.delayFor !== 'function') {
    throw new NimBusError(NimBusErrorCode.InvalidArgument, 'A RetryPolicy instance is required.');
  }
}
