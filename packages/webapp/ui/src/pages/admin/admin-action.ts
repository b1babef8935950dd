import { type QueryKey, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { ApiError } from '../../api.js';

/**
 * An administration page's actions: `run(what, call)` clears the last notice and error, runs the call, shows
 * `what` on success or the API's message on failure, and then re-reads the page's query.
 */
export function useAdminAction(queryKey: QueryKey) {
  const client = useQueryClient();
  const [notice, setNotice] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const run = async (what: string, call: () => Promise<unknown>) => {
    setNotice(null);
    setError(null);
    try {
      await call();
      setNotice(what);
    } catch (e) {
      setError(e instanceof ApiError ? e.message : String(e));
    }
    await client.invalidateQueries({ queryKey });
  };
  return { notice, error, run };
}
