import type { OpenMessageStore, ResolutionStatus, StatusWrite, TrackingBatch } from '@nimbus/message-store';

export interface Fault {
  /** Store method to fail; or `'statusWrite'` for any status write (single or batch) … */
  readonly method: string;
  /** … that writes this status (only with `method: 'statusWrite'`; default any). */
  readonly status?: ResolutionStatus;
  readonly error: () => unknown;
  /** How many calls fail before the method works again (default: all). */
  times?: number;
}

const STATUS_WRITERS = new Set(['writeStatus', 'writeStatuses', 'writeBatch']);

function statusesOf(method: string, args: unknown[]): readonly StatusWrite[] {
  if (method === 'writeStatus') return [args[0] as StatusWrite];
  if (method === 'writeStatuses') return args[0] as StatusWrite[];
  return (args[0] as TrackingBatch).statuses ?? [];
}

function matches(fault: Fault, method: string, args: unknown[]): boolean {
  if (fault.method !== 'statusWrite') return fault.method === method;
  if (!STATUS_WRITERS.has(method)) return false;
  return statusesOf(method, args).some((w) => fault.status === undefined || w.status === fault.status);
}

/** The real memory store with injected failures on named methods (a provider outage, a bug). */
export function withFaults(store: OpenMessageStore, faults: Fault[]): OpenMessageStore {
  return new Proxy(store, {
    get(target, property, receiver) {
      const value = Reflect.get(target, property, receiver);
      if (typeof value !== 'function' || typeof property !== 'string') return value;
      return async (...args: unknown[]) => {
        const fault = faults.find((f) => matches(f, property, args));
        if (fault && (fault.times === undefined || fault.times > 0)) {
          if (fault.times !== undefined) fault.times -= 1;
          throw fault.error();
        }
        return value.apply(target, args);
      };
    },
  });
}
