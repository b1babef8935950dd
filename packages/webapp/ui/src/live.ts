import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';

/**
 * Listens to `/api/live` and invalidates the queries an update concerns; the browser re-reads, so the
 * stream only carries hints. EventSource reconnects by itself.
 */
export function useLiveUpdates(): boolean {
  const client = useQueryClient();
  const [connected, setConnected] = useState(false);
  useEffect(() => {
    const source = new EventSource('/api/live');
    source.onopen = () => setConnected(true);
    source.onerror = () => setConnected(false);
    source.addEventListener('endpointupdate', (event) => {
      const { endpointId } = JSON.parse((event as MessageEvent).data) as { endpointId: string };
      void client.invalidateQueries({ queryKey: ['endpoints'] });
      void client.invalidateQueries({ queryKey: ['endpoint', endpointId] });
    });
    for (const name of ['heartbeatupdate', 'servicehealthupdate']) {
      source.addEventListener(name, () => void client.invalidateQueries({ queryKey: ['health'] }));
    }
    source.addEventListener('bulkprogress', (event) => {
      client.setQueryData(['bulk'], JSON.parse((event as MessageEvent).data));
    });
    return () => source.close();
  }, [client]);
  return connected;
}
