import type { ApiClient } from './api-client.js';

/** A real SSE connection with the client's cookies (or a bearer token), read as text. */
export async function openLiveStream(client: ApiClient, headers: Record<string, string> = {}) {
  const controller = new AbortController();
  const cookie = [...client.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
  const response = await fetch(`${client.baseUrl}/api/live`, {
    headers: { ...(cookie ? { cookie } : {}), ...headers },
    signal: controller.signal,
  });
  if (response.status !== 200) throw new Error(`live stream refused: ${response.status}`);
  const reader = response.body!.getReader();
  const decoder = new TextDecoder();
  let text = '';
  let ended = false;
  const pump = (async () => {
    try {
      for (;;) {
        const { value, done } = await reader.read();
        if (done) break;
        text += decoder.decode(value);
      }
    } catch {
      // aborted by the test
    }
    ended = true;
  })();
  const waitFor = async (predicate: () => boolean, what: string, ms = 3000) => {
    const until = Date.now() + ms;
    while (!predicate()) {
      if (Date.now() > until) throw new Error(`timed out waiting for ${what}; got:\n${text}`);
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  };
  return {
    get text() {
      return text;
    },
    get ended() {
      return ended;
    },
    waitFor,
    waitForText: (needle: string) => waitFor(() => text.includes(needle), `'${needle}'`),
    waitForEnd: () => waitFor(() => ended, 'the stream to end'),
    close: async () => {
      controller.abort();
      await pump;
    },
  };
}
