import type { OpenMessageStore } from '@nimbus/message-store';

export interface Fault {
  /** Store method to fail. */
  readonly method: string;
  readonly error: () => unknown;
  /** How many calls fail before the method works again (default: all). */
  times?: number;
}

/** The real memory store with injected failures on named methods (a provider outage, a bug). */
export function withFaults(store: OpenMessageStore, faults: Fault[]): OpenMessageStore {
  return new Proxy(store, {
    get(target, property, receiver) {
      const value = Reflect.get(target, property, receiver);
      const fault = faults.find((f) => f.method === property);
      if (!fault || typeof value !== 'function') return value;
      return async (...args: unknown[]) => {
        if (fault.times === undefined || fault.times > 0) {
          if (fault.times !== undefined) fault.times -= 1;
          throw fault.error();
        }
        return value.apply(target, args);
      };
    },
  });
}
