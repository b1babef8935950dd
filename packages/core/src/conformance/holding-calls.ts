/** A dependency whose chosen calls wait for held work once armed (`describeLifecycleConformance` fixtures). */
export interface HoldingCalls<T extends object> {
  /** Use this in place of the target. */
  readonly proxy: T;
  /** The next call of one of the methods first runs `work()` (once per `arm()`); then it goes through. */
  arm(): void;
}

/**
 * Wraps a real dependency (a store, an outbox) so a component's own call of it becomes the work the lifecycle
 * suite holds: for components whose work takes no signal of its own (schedulers, dispatchers, the Resolver).
 */
export function holdingCalls<T extends object>(
  target: T,
  methods: readonly (keyof T)[],
  work: () => Promise<void>,
): HoldingCalls<T> {
  const held = new Set<PropertyKey>(methods);
  let armed = false;
  const proxy = new Proxy(target, {
    get(object, property) {
      // The target as receiver: its getters may read private fields, which a proxy has not.
      const value = Reflect.get(object, property, object);
      if (!held.has(property) || typeof value !== 'function') return value;
      return async (...args: unknown[]) => {
        if (armed) {
          armed = false;
          await work();
        }
        return value.apply(object, args);
      };
    },
  });
  return {
    proxy,
    arm: () => {
      armed = true;
    },
  };
}
