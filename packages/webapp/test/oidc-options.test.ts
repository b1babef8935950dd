import { describe, expect, it } from 'vitest';
import { mapRoles, oidcOptionsFromEnv } from '../src/index.js';

const mapping = {
  site: { 'NimBus.Readers': 'Reader', 'NimBus.Owners': 'Owner' },
  endpoints: { 'Erp.Operators': { Erp: 'Contributor' }, 'Erp.Readers': { Erp: 'Reader' } },
} as const;

describe('OIDC settings and role mapping', () => {
  it('maps app roles (or groups) to the highest site role and per-endpoint grants; nothing mapped is null', () => {
    expect(mapRoles(mapping, { roles: ['NimBus.Readers', 'Erp.Readers', 'Erp.Operators', 'other'] })).toEqual(
      {
        siteRole: 'Reader',
        endpointRoles: new Map([['Erp', 'Contributor']]),
        matched: ['NimBus.Readers', 'Erp.Readers', 'Erp.Operators'],
      },
    );
    expect(mapRoles(mapping, { groups: 'NimBus.Owners' })?.siteRole).toBe('Owner');
    expect(mapRoles(mapping, { roles: ['other'] })).toBeNull();
    expect(mapRoles(mapping, {})).toBeNull();
    expect(mapRoles({ ...mapping, claims: ['wids'] }, { roles: ['NimBus.Owners'] })).toBeNull();
  });

  it('reads the environment, needs a client secret or a certificate, and names a bad mapping', () => {
    expect(oidcOptionsFromEnv({})).toBeUndefined();
    const env = {
      NIMBUS_OIDC_ISSUER: 'https://login.microsoftonline.com/tenant/v2.0',
      NIMBUS_OIDC_CLIENT_ID: 'client',
      NIMBUS_OIDC_CLIENT_SECRET: 'from-the-environment',
      NIMBUS_OIDC_ROLE_MAPPING: JSON.stringify(mapping),
    };
    expect(oidcOptionsFromEnv(env)).toMatchObject({
      clientId: 'client',
      clientSecret: 'from-the-environment',
    });
    expect(() => oidcOptionsFromEnv({ ...env, NIMBUS_OIDC_CLIENT_SECRET: '' })).toThrow(/CLIENT_SECRET, or/);
    expect(() => oidcOptionsFromEnv({ ...env, NIMBUS_OIDC_ROLE_MAPPING: '{"site":{"x":"Admin"}}' })).toThrow(
      /site\['x'\] must be one of Reader, Contributor, Owner/,
    );
    expect(() => oidcOptionsFromEnv({ ...env, NIMBUS_OIDC_ROLE_MAPPING: 'nope' })).toThrow(/must be JSON/);
  });
});
