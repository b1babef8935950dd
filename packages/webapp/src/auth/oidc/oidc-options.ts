import { NimBusError, NimBusErrorCode } from '@nimbus/core';
import { GRANTABLE_ROLES, type GrantableRole, maxRole, Role } from '../../identity/roles.js';

/**
 * How claim values (Entra ID app roles or group object ids, or any provider's) become NimBus roles. The
 * first listed claim present in the ID token (or userinfo) is read; a string or an array of strings.
 */
export interface OidcRoleMapping {
  /** Claims to read, in order (default `['roles', 'groups']`). */
  readonly claims?: readonly string[];
  /** Claim value → site role. The highest mapped one applies. */
  readonly site?: Readonly<Record<string, GrantableRole>>;
  /** Claim value → { endpointId: role }. The highest mapped one per endpoint applies. */
  readonly endpoints?: Readonly<Record<string, Readonly<Record<string, GrantableRole>>>>;
}

/** `createWebApp({ oidc })`: sign-in with an OpenID Connect provider (Entra ID or any standard one). */
export interface OidcOptions {
  /** The issuer, e.g. `https://login.microsoftonline.com/<tenant id>/v2.0`; its discovery document is read. */
  readonly issuer: string;
  readonly clientId: string;
  /** A client secret, or… */
  readonly clientSecret?: string;
  /** …a certificate's private key (PKCS#8 PEM) with the certificate's SHA-1 thumbprint (base64url, `x5t`). */
  readonly clientCertificate?: { readonly privateKeyPem: string; readonly thumbprint: string };
  readonly roleMapping: OidcRoleMapping;
  /** The button's label (default "Sign in with single sign-on"). */
  readonly label?: string;
  /** The registered redirect URI (default: this WebApp's `/account/oidc/callback` as requested). */
  readonly redirectUrl?: string;
  /** Default `openid profile email`. */
  readonly scopes?: readonly string[];
  /** How long a session started by this sign-in lasts (default: the WebApp's `sessionTtlMs`). */
  readonly sessionTtlMs?: number;
  /** Allows an http issuer on a loopback address (tests and local providers only). */
  readonly allowInsecureLoopbackIssuer?: boolean;
}

export interface MappedRoles {
  readonly siteRole: Role;
  readonly endpointRoles: ReadonlyMap<string, GrantableRole>;
  /** The claim values that mapped to something (for the audit row). */
  readonly matched: readonly string[];
}

function claimValues(claims: Readonly<Record<string, unknown>>, names: readonly string[]): string[] {
  for (const name of names) {
    const value = claims[name];
    if (typeof value === 'string') return [value];
    if (Array.isArray(value)) return value.filter((v): v is string => typeof v === 'string');
  }
  return [];
}

/** The roles the claims map to; `null` when none of the user's values is mapped (the sign-in is refused). */
export function mapRoles(
  mapping: OidcRoleMapping,
  claims: Readonly<Record<string, unknown>>,
): MappedRoles | null {
  const values = claimValues(claims, mapping.claims ?? ['roles', 'groups']);
  let siteRole: Role = Role.None;
  const endpointRoles = new Map<string, GrantableRole>();
  const matched: string[] = [];
  for (const value of values) {
    const site = mapping.site?.[value];
    const endpoints = mapping.endpoints?.[value];
    if (site) siteRole = maxRole(siteRole, site);
    for (const [endpointId, role] of Object.entries(endpoints ?? {})) {
      endpointRoles.set(
        endpointId,
        maxRole(endpointRoles.get(endpointId) ?? Role.None, role) as GrantableRole,
      );
    }
    if (site || endpoints) matched.push(value);
  }
  return matched.length === 0 ? null : { siteRole, endpointRoles, matched };
}

function problemsOfMapping(mapping: unknown): string[] {
  if (typeof mapping !== 'object' || mapping === null) return ['must be a JSON object'];
  const { claims, site, endpoints } = mapping as Record<string, unknown>;
  const problems: string[] = [];
  const isRole = (r: unknown) => (GRANTABLE_ROLES as readonly unknown[]).includes(r);
  if (claims !== undefined && !(Array.isArray(claims) && claims.every((c) => typeof c === 'string')))
    problems.push('claims must be a list of claim names');
  for (const [value, role] of Object.entries((site ?? {}) as object))
    if (!isRole(role)) problems.push(`site['${value}'] must be one of ${GRANTABLE_ROLES.join(', ')}`);
  for (const [value, grants] of Object.entries((endpoints ?? {}) as object))
    for (const [endpointId, role] of Object.entries((grants ?? {}) as object))
      if (!isRole(role)) problems.push(`endpoints['${value}']['${endpointId}'] must be a grantable role`);
  return problems;
}

/**
 * OIDC settings from the environment (secrets never through argv): `NIMBUS_OIDC_ISSUER`,
 * `NIMBUS_OIDC_CLIENT_ID`, `NIMBUS_OIDC_CLIENT_SECRET` or `NIMBUS_OIDC_CLIENT_KEY` (PKCS#8 PEM) with
 * `NIMBUS_OIDC_CLIENT_CERT_THUMBPRINT`, `NIMBUS_OIDC_ROLE_MAPPING` (JSON), optional `NIMBUS_OIDC_LABEL`,
 * `NIMBUS_OIDC_REDIRECT_URL`. No issuer: no OIDC sign-in (`undefined`).
 */
export function oidcOptionsFromEnv(
  env: Readonly<Record<string, string | undefined>>,
): OidcOptions | undefined {
  const issuer = env.NIMBUS_OIDC_ISSUER?.trim();
  if (!issuer) return undefined;
  const clientId = env.NIMBUS_OIDC_CLIENT_ID?.trim();
  if (!clientId)
    throw new NimBusError(
      NimBusErrorCode.InvalidOption,
      'NIMBUS_OIDC_CLIENT_ID is needed with NIMBUS_OIDC_ISSUER.',
    );
  const secret = env.NIMBUS_OIDC_CLIENT_SECRET;
  const key = env.NIMBUS_OIDC_CLIENT_KEY;
  const thumbprint = env.NIMBUS_OIDC_CLIENT_CERT_THUMBPRINT?.trim();
  if (!secret && !(key && thumbprint))
    throw new NimBusError(
      NimBusErrorCode.InvalidOption,
      'OIDC needs NIMBUS_OIDC_CLIENT_SECRET, or NIMBUS_OIDC_CLIENT_KEY with NIMBUS_OIDC_CLIENT_CERT_THUMBPRINT.',
    );
  let mapping: unknown;
  try {
    mapping = JSON.parse(env.NIMBUS_OIDC_ROLE_MAPPING ?? '');
  } catch (error) {
    throw new NimBusError(
      NimBusErrorCode.InvalidOption,
      `NIMBUS_OIDC_ROLE_MAPPING must be JSON: ${(error as Error).message}`,
    );
  }
  const problems = problemsOfMapping(mapping);
  if (problems.length > 0)
    throw new NimBusError(NimBusErrorCode.InvalidOption, `NIMBUS_OIDC_ROLE_MAPPING: ${problems.join('; ')}.`);
  return {
    issuer,
    clientId,
    ...(secret ? { clientSecret: secret } : {}),
    ...(!secret && key && thumbprint ? { clientCertificate: { privateKeyPem: key, thumbprint } } : {}),
    roleMapping: mapping as OidcRoleMapping,
    ...(env.NIMBUS_OIDC_LABEL ? { label: env.NIMBUS_OIDC_LABEL } : {}),
    ...(env.NIMBUS_OIDC_REDIRECT_URL ? { redirectUrl: env.NIMBUS_OIDC_REDIRECT_URL } : {}),
  };
}
