import { createServer, type Server, type Socket } from 'node:net';

export interface LatencyProxy {
  readonly port: number;
  /** Delay added to every chunk the broker sends back to the client (0 passes them straight through). */
  replyDelayMs: number;
  close(): Promise<void>;
}

/**
 * A TCP proxy in front of the emulator that holds the broker's answers back for `replyDelayMs`, in order: a slow
 * broker or a loaded machine, as the client sees it, with real sockets on both sides.
 */
export async function startLatencyProxy(targetPort: number): Promise<LatencyProxy> {
  const sockets = new Set<Socket>();
  const proxy: LatencyProxy = {
    port: 0,
    replyDelayMs: 0,
    close: () =>
      new Promise((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
  const server: Server = createServer((client) => {
    const broker = new (client.constructor as typeof Socket)();
    sockets.add(client).add(broker);
    client.setNoDelay(true);
    broker.setNoDelay(true);
    broker.connect(targetPort, '127.0.0.1');
    client.pipe(broker);
    // One queue per connection, sent strictly in order: the delay never reorders the byte stream.
    const queue: { due: number; chunk: Buffer }[] = [];
    let timer: NodeJS.Timeout | null = null;
    const flush = () => {
      timer = null;
      while (queue.length > 0 && queue[0]!.due <= Date.now()) {
        const { chunk } = queue.shift()!;
        if (!client.destroyed) client.write(chunk);
      }
      if (queue.length > 0) timer = setTimeout(flush, queue[0]!.due - Date.now());
    };
    broker.on('data', (chunk: Buffer) => {
      queue.push({ due: Date.now() + proxy.replyDelayMs, chunk });
      if (timer === null) flush();
    });
    const end = () => {
      client.destroy();
      broker.destroy();
    };
    client.on('error', end).on('close', end);
    broker.on('error', end).on('close', end);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('latency proxy: no port');
  return Object.assign(proxy, { port: address.port });
}
