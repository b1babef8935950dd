import { type Clock, uuidv7 } from '@nimbus/core';
import { MessageAuditType } from '@nimbus/message-store';
import { z } from 'zod';
import type { AuditLog } from '../audit/audit-log.js';
import { HttpError, notFound } from '../http/http-error.js';
import { type AnyRouteSpec, defineRoute } from '../http/route.js';
import type { ApiTokenRecord, IdentityStore } from '../identity/identity-store.js';
import { atLeast, GRANTABLE_ROLES, maxRole } from '../identity/roles.js';
import { apiTokenKey, type StreamRegistry } from '../live/stream-registry.js';
import { requireSession } from './credential-guard.js';
import { hashToken, newToken } from './tokens.js';

export interface ApiTokenDeps {
  readonly identityStore: IdentityStore;
  readonly auditLog: AuditLog;
  readonly clock: Clock;
  readonly streams: StreamRegistry;
}

/** Prefix of every API token, so a leaked one is recognisable (secret scanners, logs). */
export const API_TOKEN_PREFIX = 'nimbus_pat_';
const DAY = 86_400_000;
export const MAX_TOKEN_DAYS = 365;

const ApiTokenDto = z.object({
  id: z.string(),
  name: z.string(),
  maxRole: z.string().nullable().describe('the token acts with at most this role; null = the user’s roles'),
  createdAt: z.string(),
  expiresAt: z.string(),
  revokedAt: z.string().nullable(),
  active: z.boolean(),
});

function dto(token: ApiTokenRecord, now: number): z.input<typeof ApiTokenDto> {
  return {
    id: token.id,
    name: token.name,
    maxRole: token.maxRole,
    createdAt: token.createdAt.toISOString(),
    expiresAt: token.expiresAt.toISOString(),
    revokedAt: token.revokedAt?.toISOString() ?? null,
    active: token.revokedAt === null && token.expiresAt.getTime() > now,
  };
}

/** Personal API tokens for scripts and CI: shown once, stored hashed, capped, expiring, revocable, audited. */
export function apiTokenRoutes(deps: ApiTokenDeps): AnyRouteSpec[] {
  const { identityStore, auditLog, clock, streams } = deps;
  return [
    defineRoute({
      method: 'GET',
      url: '/api/account/tokens',
      tag: 'Account',
      summary: 'The signed-in user’s API tokens (never their secrets)',
      access: 'authenticated',
      response: z.array(ApiTokenDto),
      handler: async ({ principal }) => {
        const now = clock.now();
        return (await identityStore.listApiTokens(principal!.user.id)).map((t) => dto(t, now));
      },
    }),
    defineRoute({
      method: 'POST',
      url: '/api/account/tokens',
      tag: 'Account',
      summary: 'Create an API token for `Authorization: Bearer …`; the secret is in this response only',
      access: 'authenticated',
      body: z.object({
        name: z.string().trim().min(1, 'name is required').max(100),
        maxRole: z.enum(GRANTABLE_ROLES).nullable().optional(),
        expiresInDays: z.number().int().min(1).max(MAX_TOKEN_DAYS).default(30),
      }),
      response: ApiTokenDto.extend({ token: z.string().describe('the secret; it cannot be shown again') }),
      successStatus: 201,
      handler: async ({ body, principal }) => {
        const owner = requireSession(principal, 'Managing API tokens');
        const highest = [owner.siteRole, ...owner.endpointGrants().map((g) => g.role)].reduce(maxRole);
        if (body.maxRole && !atLeast(highest, body.maxRole)) {
          const message = `maxRole ${body.maxRole} is above your own roles (the highest is ${highest})`;
          throw new HttpError(400, 'ValidationError', `body.maxRole: ${message}`, [
            { path: 'body.maxRole', message },
          ]);
        }
        const now = clock.now();
        const secret = `${API_TOKEN_PREFIX}${newToken()}`;
        const token: ApiTokenRecord = {
          id: uuidv7(now),
          userId: owner.user.id,
          name: body.name,
          tokenHash: hashToken(secret),
          maxRole: body.maxRole ?? null,
          createdAt: new Date(now),
          expiresAt: new Date(now + body.expiresInDays * DAY),
          revokedAt: null,
        };
        await auditLog.write({
          type: MessageAuditType.CreateApiToken,
          principal: owner,
          subject: `token:${token.id}`,
          data: { tokenId: token.id, name: token.name, maxRole: token.maxRole, expiresAt: token.expiresAt },
        });
        await identityStore.createApiToken(token);
        return { ...dto(token, now), token: secret };
      },
    }),
    defineRoute({
      method: 'DELETE',
      url: '/api/account/tokens/:tokenId',
      tag: 'Account',
      summary: 'Revoke one of the signed-in user’s API tokens; its live streams end',
      access: 'authenticated',
      params: z.object({ tokenId: z.string().min(1).max(64) }),
      handler: async ({ params, principal }) => {
        const owner = requireSession(principal, 'Managing API tokens');
        const mine = (await identityStore.listApiTokens(owner.user.id)).find((t) => t.id === params.tokenId);
        if (!mine || mine.revokedAt !== null) throw notFound(`API token '${params.tokenId}' not found.`);
        await auditLog.write({
          type: MessageAuditType.RevokeApiToken,
          principal: owner,
          subject: `token:${mine.id}`,
          data: { tokenId: mine.id, name: mine.name },
        });
        await identityStore.revokeApiToken(owner.user.id, mine.id, new Date(clock.now()));
        streams.closeCredential(apiTokenKey(mine.id));
        return undefined;
      },
    }),
  ];
}
