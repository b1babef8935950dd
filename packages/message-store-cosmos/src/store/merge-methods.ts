/** The methods of several store parts (own function fields and prototype methods) bound into one object. */
export function mergeMethods<T>(...parts: object[]): T {
  const merged: Record<string, unknown> = {};
  for (const part of parts) {
    const names = new Set(Object.keys(part));
    for (
      let proto = Object.getPrototypeOf(part);
      proto && proto !== Object.prototype;
      proto = Object.getPrototypeOf(proto)
    ) {
      for (const name of Object.getOwnPropertyNames(proto)) if (name !== 'constructor') names.add(name);
    }
    for (const name of names) {
      const value = (part as Record<string, unknown>)[name];
      merged[name] = typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(part) : value;
    }
  }
  return merged as T;
}
