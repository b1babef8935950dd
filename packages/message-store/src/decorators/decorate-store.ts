/** One call through the store: the method's name and its (named) parameters. */
export interface StoreCall {
  readonly method: string;
  readonly params: readonly unknown[];
}

/**
 * One link of the store's decorator chain: it may act before and after `proceed` (which runs the rest of
 * the chain and then the store method), change the error, or inspect the result.
 */
export type StoreDecorator = (call: StoreCall, proceed: () => Promise<unknown>) => Promise<unknown>;

/** The lifecycle members (`ServiceLifecycle`): not store calls, so neither traced, translated nor notified. */
const LIFECYCLE_METHODS: ReadonlySet<string> = new Set(['start', 'stop', 'close']);

/**
 * The store with every method routed through `decorators`, the first one outermost. Properties that are
 * not functions (the provider name, flags, `state`) and the lifecycle methods pass through untouched.
 * Providers build their chain once when they open (tracing → error translation → notification).
 */
export function decorateStore<T extends object>(store: T, decorators: readonly StoreDecorator[]): T {
  if (decorators.length === 0) return store;
  // Keyed by the method itself, not its name: a store that hands out another function later (a test double
  // switching to a failing method) is decorated afresh.
  const wrapped = new WeakMap<object, unknown>();
  return new Proxy(store, {
    get(target, property, receiver) {
      const value: unknown = Reflect.get(target, property, receiver);
      if (typeof value !== 'function' || typeof property !== 'string' || LIFECYCLE_METHODS.has(property))
        return value;
      let decorated = wrapped.get(value);
      if (decorated === undefined) {
        const method = value as (...args: unknown[]) => Promise<unknown>;
        decorated = (...params: unknown[]) => {
          const call: StoreCall = { method: property, params };
          const run = (index: number): Promise<unknown> =>
            index === decorators.length
              ? Promise.resolve().then(() => method.apply(target, params))
              : decorators[index]!(call, () => run(index + 1));
          return run(0);
        };
        wrapped.set(value, decorated);
      }
      return decorated;
    },
  });
}
