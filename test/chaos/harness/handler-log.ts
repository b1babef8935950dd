import { existsSync, readFileSync } from 'node:fs';

/** One handler run, as the adapter host wrote it (fixtures/adapter-host.mjs). */
export interface HandlerRun {
  readonly at: number;
  readonly host: string;
  readonly pid: number;
  readonly eventId: string;
  readonly messageId: string;
  readonly orderId: string;
  readonly n: number;
  readonly mode: 'ok' | 'transient' | 'block' | 'permanent';
  readonly run: number;
  readonly replay: boolean;
  /** The message that ran the handler: EventRequest, RetryRequest, ResubmissionRequest. */
  readonly messageType?: string;
  /** The run failed with an error a retry policy matches: the bus must retry it by itself. */
  readonly retryable?: boolean;
  readonly outcome: 'handled' | 'failed';
}

/** Reads the handlers' own log; a line cut by a SIGKILL mid-write is ignored. */
export function readHandlerLog(file: string): HandlerRun[] {
  if (!existsSync(file)) return [];
  const runs: HandlerRun[] = [];
  for (const line of readFileSync(file, 'utf8').split('\n')) {
    if (!line.trim()) continue;
    try {
      runs.push(JSON.parse(line) as HandlerRun);
    } catch {
      // torn last line of a killed process
    }
  }
  return runs;
}

/** `orderId/n` keys of the events some handler run succeeded for. */
export function handledKeys(runs: readonly HandlerRun[]): Set<string> {
  return new Set(runs.filter((r) => r.outcome === 'handled').map((r) => `${r.orderId}/${r.n}`));
}
