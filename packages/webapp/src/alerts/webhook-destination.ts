import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { BlockList, isIP, type LookupFunction } from 'node:net';
import { NimBusError, NimBusErrorCode } from '@nimbus/core';

/**
 * Where a webhook may point. By default not at this machine or its network: loopback, private, link-local
 * (cloud metadata), carrier-grade NAT, multicast and reserved ranges are refused — after DNS resolution, on
 * every delivery (a name can change what it resolves to), and redirects are never followed. An Owner of one
 * endpoint could otherwise use deliveries to probe internal services. `allowPrivateTargets` (an operator
 * setting: `alerts.allowPrivateWebhookTargets`, `NIMBUS_ALERTS_ALLOW_PRIVATE_WEBHOOKS=true`) opens them.
 */
const DENIED = new BlockList();
for (const [network, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.0.2.0', 24],
  ['192.88.99.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const)
  DENIED.addSubnet(network, prefix, 'ipv4');
for (const [network, prefix] of [
  ['::', 128],
  ['::1', 128],
  // IPv4-mapped and NAT64 forms of any address, and the other special-purpose ranges.
  ['::ffff:0:0', 96],
  ['64:ff9b::', 96],
  ['100::', 64],
  ['2001:db8::', 32],
  ['fc00::', 7],
  ['fe80::', 10],
  ['fec0::', 10],
  ['ff00::', 8],
] as const)
  DENIED.addSubnet(network, prefix, 'ipv6');

/** True for an address in a loopback, private, link-local or reserved range. */
export function isDeniedAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 0) return true;
  return DENIED.check(address, family === 4 ? 'ipv4' : 'ipv6');
}

/** A webhook delivery that could not be made or was refused (what the attempt log records is the message). */
export function notificationFailed(message: string): NimBusError {
  return new NimBusError(NimBusErrorCode.NotificationFailed, message);
}

const OPEN_IT = 'an operator can allow such targets with alerts.allowPrivateWebhookTargets';

function refusal(host: string, address: string): NimBusError {
  const via = host === address ? '' : ` (it resolves to ${address})`;
  return notificationFailed(
    `webhook target ${host} is a loopback, private, link-local or reserved address${via}; ${OPEN_IT}`,
  );
}

/** The url's host as an address when it is an IP literal (`[::1]` → `::1`), else `null`. */
function literalAddress(url: URL): string | null {
  const host = url.hostname.replace(/^\[(.*)\]$/, '$1');
  return isIP(host) === 0 ? null : host;
}

/** What is wrong with the url itself: not http(s), credentials in it, or (by default) a denied IP literal. */
function literalProblem(raw: string, allowPrivateTargets: boolean): string | null {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return 'not a valid url';
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return 'the url must be http or https';
  if (url.username || url.password)
    return 'the url must not hold credentials (a user name or password); deliveries are signed with the shared secret';
  const address = literalAddress(url);
  if (!allowPrivateTargets && address !== null && isDeniedAddress(address))
    return refusal(url.hostname, address).message;
  return null;
}

/**
 * A webhook url problem the subscriber can fix, checked when subscribing: the url's own problems, and
 * `localhost` by name. Other names are checked when delivering, against what they resolve to then.
 */
export function webhookUrlProblem(raw: string, allowPrivateTargets: boolean): string | null {
  const problem = literalProblem(raw, allowPrivateTargets);
  if (problem || allowPrivateTargets) return problem;
  const host = new URL(raw).hostname.toLowerCase().replace(/\.$/, '');
  return host === 'localhost' || host.endsWith('.localhost') ? refusal(host, host).message : null;
}

/** A DNS lookup that fails when any address of the name is denied (checked at connect time: no rebinding). */
const guardedLookup: LookupFunction = (hostname, options, callback) => {
  dnsLookup(hostname, { ...options, all: true }, (error, addresses: LookupAddress[]) => {
    if (error) return callback(error, '', 0);
    const denied = addresses.find((a) => isDeniedAddress(a.address));
    if (denied) return callback(refusal(hostname, denied.address), '', 0);
    if (options.all) return (callback as (e: null, a: LookupAddress[]) => void)(null, addresses);
    const [first] = addresses;
    if (!first) return callback(notificationFailed(`${hostname} has no address`), '', 0);
    return callback(null, first.address, first.family);
  });
};

export interface WebhookPost {
  readonly headers: Readonly<Record<string, string>>;
  readonly body: string;
  readonly timeoutMs: number;
  readonly allowPrivateTargets: boolean;
}

/** POSTs the body and resolves the HTTP status; no redirect is followed, the answer's body is discarded. */
export function postWebhook(raw: string, post: WebhookPost): Promise<number> {
  const problem = literalProblem(raw, post.allowPrivateTargets);
  if (problem) return Promise.reject(notificationFailed(problem));
  const url = new URL(raw);
  return new Promise((resolve, reject) => {
    const send = url.protocol === 'https:' ? httpsRequest : httpRequest;
    const request = send(
      url,
      {
        method: 'POST',
        headers: { ...post.headers, 'content-length': String(Buffer.byteLength(post.body)) },
        signal: AbortSignal.timeout(post.timeoutMs),
        ...(post.allowPrivateTargets ? {} : { lookup: guardedLookup }),
      },
      (response) => {
        response.resume();
        resolve(response.statusCode ?? 0);
      },
    );
    request.on('error', (error) =>
      reject(
        error.name === 'AbortError' ? notificationFailed(`no answer within ${post.timeoutMs} ms`) : error,
      ),
    );
    request.end(post.body);
  });
}
