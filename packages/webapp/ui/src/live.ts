import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import type { LiveUpdate } from './api.js';

/** The data of one named event of the stream, typed by the OpenAPI document's description of `/api/live`. */
function dataOf<T extends LiveUpdate['type']>(_type: T, event: Event): Extract<LiveUpdate, { type: T }> {
  return JSON.parse((event as MessageEvent<string>).data) as Extract<LiveUpdate, { type: T }>;
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
    const source = new EventSource('/api/live');
    let opened = false;
    source.onopen = () => {
      setConnected(true);
      if (opened) void client.invalidateQueries();
      opened = true;
    };
    source.addEventListener('resync', () => void client.invalidateQueries());
    source.onerror = () => setConnected(false);
    source.addEventListener('endpointupdate', (event) => {
      const { endpointId } = dataOf('endpointupdate', event);
      void client.invalidateQueries({ queryKey: ['endpoints'] });
      void client.invalidateQueries({ queryKey: ['endpoint', endpointId] });
      void client.invalidateQueries({ queryKey: ['failure-groups'] });
    });
    for (const name of ['heartbeatupdate', 'servicehealthupdate']) {
      source.addEventListener(name, () => void client.invalidateQueries({ queryKey: ['health'] }));
    }
    source.addEventListener('bulkprogress', (event) => {
      client.setQueryData(['bulk'], dataOf('bulkprogress', event));
      void client.invalidateQueries({ queryKey: ['bulk-jobs'] });
    });
    return () => source.close();
  }, [client]);
  return connected;
}
