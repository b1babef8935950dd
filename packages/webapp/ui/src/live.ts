import { type QueryClient, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import type { LiveUpdate } from './api.js';

/** The data of one named event of the stream, typed by the OpenAPI document's description of `/api/live`. */
function dataOf<T extends LiveUpdate['type']>(_type: T, event: Event): Extract<LiveUpdate, { type: T }> {
  return JSON.parse((event as MessageEvent<string>).data) as Extract<LiveUpdate, { type: T }>;
}

/**
 * Re-reads at most once a second per query key: a bulk job or a burst of traffic sends many updates a second,
 * and re-reading on every one would load the WebApp with the same reads (the trailing one still comes).
 */
const REREAD_EVERY_MS = 1_000;

function throttledInvalidation(client: QueryClient) {
  const due = new Map<string, ReturnType<typeof setTimeout>>();
  const last = new Map<string, number>();
  const run = (key: string, queryKey: readonly unknown[]) => {
    due.delete(key);
    last.set(key, Date.now());
    void client.invalidateQueries({ queryKey: [...queryKey] });
  };
  return {
    invalidate(queryKey: readonly unknown[]) {
      const key = JSON.stringify(queryKey);
      if (due.has(key)) return;
      const wait = (last.get(key) ?? 0) + REREAD_EVERY_MS - Date.now();
      if (wait <= 0) run(key, queryKey);
      else
        due.set(
          key,
          setTimeout(() => run(key, queryKey), wait),
        );
    },
    stop() {
      for (const timer of due.values()) clearTimeout(timer);
      due.clear();
    },
  };
}

/**
 * How long to wait before opening a new stream when the browser gave up on one. EventSource retries a dropped
 * connection by itself, but closes for good when an answer is not the stream (e.g. a WebApp process that is
 * starting answers 502/503 through a proxy), so the page would stay offline until reloaded.
 */
const REOPEN_AFTER_MS = 3_000;

function listen(source: EventSource, client: QueryClient, reread: ReturnType<typeof throttledInvalidation>) {
  source.addEventListener('resync', () => void client.invalidateQueries());
  source.addEventListener('endpointupdate', (event) => {
    const { endpointId } = dataOf('endpointupdate', event);
    reread.invalidate(['endpoints']);
    reread.invalidate(['endpoint', endpointId]);
    reread.invalidate(['failure-groups']);
    reread.invalidate(['monitoring']);
  });
  for (const name of ['heartbeatupdate', 'servicehealthupdate']) {
    source.addEventListener(name, () => reread.invalidate(['health']));
  }
  source.addEventListener('bulkprogress', (event) => {
    const progress = dataOf('bulkprogress', event);
    client.setQueryData(['bulk'], progress);
    // The job's end is shown at once; progress on the way at most once a second.
    if (progress.done) void client.invalidateQueries({ queryKey: ['bulk-jobs'] });
    else reread.invalidate(['bulk-jobs']);
  });
}

/**
 * Listens to `/api/live` and invalidates the queries an update concerns; the browser re-reads, so the
 * stream only carries hints. EventSource reconnects by itself; after a reconnect (and on `resync`, sent
 * when the server's notifier reconnected) every query is re-read, since updates may have been missed.
 */
export function useLiveUpdates(): boolean {
  const client = useQueryClient();
  const [connected, setConnected] = useState(false);
  useEffect(() => {
    const reread = throttledInvalidation(client);
    let source: EventSource | null = null;
    let reopen: ReturnType<typeof setTimeout> | undefined;
    let opened = false;
    const open = () => {
      const current = new EventSource('/api/live');
      source = current;
      current.onopen = () => {
        setConnected(true);
        if (opened) void client.invalidateQueries();
        opened = true;
      };
      current.onerror = () => {
        setConnected(false);
        if (current.readyState !== EventSource.CLOSED || reopen !== undefined) return;
        reopen = setTimeout(() => {
          reopen = undefined;
          open();
        }, REOPEN_AFTER_MS);
      };
      listen(current, client, reread);
    };
    open();
    return () => {
      if (reopen !== undefined) clearTimeout(reopen);
      reread.stop();
      source?.close();
    };
  }, [client]);
  return connected;
}
