/** A plain object holding `instance`'s methods (not its fields) bound to it, so sub-stores merge into one. */
export function bindMethods<T extends object>(instance: T): T {
  const bound: Record<string, unknown> = {};
  for (
    let proto = Object.getPrototypeOf(instance);
    proto && proto !== Object.prototype;
    proto = Object.getPrototypeOf(proto)
  ) {
    for (const name of Object.getOwnPropertyNames(proto)) {
      const value = (instance as Record<string, unknown>)[name];
      if (name !== 'constructor' && typeof value === 'function' && !(name in bound)) {
        bound[name] = (value as (...args: unknown[]) => unknown).bind(instance);
      }
    }
  }
  return bound as T;
}
