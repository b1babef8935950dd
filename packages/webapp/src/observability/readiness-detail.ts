import type { ReadinessReport } from '@nimbus/core';

const ADDRESS_PATTERNS: readonly RegExp[] = [
  // scheme://anything (connection strings, with their credentials)
  /\b[a-z][a-z0-9+.-]*:\/\/[^\s'"<>`]+/gi,
  // [IPv6]:port and bare IPv6
  /\[[0-9a-f:.]+\](?::\d+)?/gi,
  /\b(?:[0-9a-f]{0,4}:){2,7}[0-9a-f]{0,4}\b/gi,
  // IPv4 with an optional port
  /\b\d{1,3}(?:\.\d{1,3}){3}(?::\d+)?\b/g,
  // host.name:port and host:port
  /\b[a-z0-9-]+(?:\.[a-z0-9-]+)*:\d{2,5}\b/gi,
  // the host a name lookup failed for
  /\b(ENOTFOUND|EAI_AGAIN|EAI_FAIL)\s+\S+/g,
  // file paths (a SQLite file, a socket)
  /(?<=^|[\s'"(=])\/[^\s'"),]+/g,
];

/** A readiness reason without host names, addresses, ports, connection strings or file paths. */
export function withoutAddresses(reason: string): string {
  return ADDRESS_PATTERNS.reduce(
    (text, pattern) =>
      text.replace(pattern, (_match, code?: unknown) =>
        typeof code === 'string' && /^E[A-Z_]+$/.test(code) ? `${code} <host>` : '<address>',
      ),
    reason,
  );
}

/** The report as an anonymous caller sees it: the same checks and reasons, no addresses in them. */
export function publicReadiness(report: ReadinessReport): ReadinessReport {
  const checks = Object.fromEntries(
    Object.entries(report.checks).map(([name, check]) => [
      name,
      check.reason === undefined ? check : { ...check, reason: withoutAddresses(check.reason) },
    ]),
  );
  return { ...report, checks };
}
