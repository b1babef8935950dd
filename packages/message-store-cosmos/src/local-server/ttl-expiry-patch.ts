import { createRequire } from 'node:module';

/*
 * @vercel/cosmosdb-server stores `ttl` but never expires anything. This patch adds Cosmos's rule to its
 * in-memory item store: when the container has `defaultTtl` set, an item expires `ttl` seconds (or the
 * container default when the item has none) after its `_ts`; `-1` never expires. Expired items are
 * dropped before every read, query and point lookup, so a client never sees them.
 */

interface ServerItem {
  read(): { _ts: number; ttl?: number } | null;
}

interface ServerItems {
  _data: Map<string, ServerItem>;
  _parent: { read(): { defaultTtl?: number } | null };
  delete(id: string, partition: unknown): void;
  _getPartition(data: unknown): unknown;
}

type ItemsPrototype = Record<string, (...args: unknown[]) => unknown> & { __nimbusTtlPatched?: boolean };

let offsetMs = 0;

/** Moves the server's expiry clock forward (tests of the TTL values the provider writes). */
export function advanceLocalServerClock(ms: number): void {
  offsetMs += ms;
}

function serverNowSeconds(): number {
  return (Date.now() + offsetMs) / 1000;
}

const lastScan = new WeakMap<ServerItems, number>();

function dropExpired(items: ServerItems): void {
  const defaultTtl = items._parent.read()?.defaultTtl;
  if (defaultTtl === undefined || defaultTtl === null || defaultTtl === 0) return;
  const now = serverNowSeconds();
  // A full scan at most once per server-clock second: ttl has whole-second resolution anyway.
  const second = Math.floor(now);
  if (lastScan.get(items) === second) return;
  lastScan.set(items, second);
  for (const [rid, item] of items._data) {
    const data = item.read();
    if (data === null) continue;
    const ttl = typeof data.ttl === 'number' ? data.ttl : defaultTtl;
    if (ttl > 0 && data._ts + ttl <= now) items._data.delete(rid);
  }
}

/** Applies the patch once per process (idempotent). */
export function patchLocalServerTtlExpiry(): void {
  const require = createRequire(import.meta.url);
  const items = require('@vercel/cosmosdb-server/lib/account/items.js') as {
    default: { prototype: ItemsPrototype };
  };
  const proto = items.default.prototype;
  if (proto.__nimbusTtlPatched) return;
  proto.__nimbusTtlPatched = true;
  // Writes stamp `_ts` from the same (advanceable) clock the expiry reads.
  const set = proto._set!;
  proto._set = function (this: ServerItems, data: unknown) {
    (data as { _ts: number })._ts = Math.floor(serverNowSeconds());
    return set.call(this, data);
  };
  for (const method of ['query', 'read', '_item', 'upsert', 'create']) {
    const original = proto[method]!;
    proto[method] = function (this: ServerItems, ...args: unknown[]) {
      dropExpired(this);
      return original.apply(this, args);
    };
  }
}
