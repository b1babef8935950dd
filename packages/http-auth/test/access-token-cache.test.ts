import { ManualClock } from '@nimbus/core';
import { describe, expect, it } from 'vitest';
import { AccessTokenCache, bearerTokenFetch, TokenRequestError } from '../src/index.js';
import { ControlledCredential } from './support/fake-credential.js';

const MINUTE = 60_000;
const SCOPE = 'https://contoso.crm.dynamics.com/.default';

function setup() {
  const clock = new ManualClock(Date.UTC(2026, 0, 1));
  const credential = new ControlledCredential();
  const cache = new AccessTokenCache(credential, SCOPE, { clock });
  return { clock, credential, cache };
}

const flush = () => new Promise((resolve) => setImmediate(resolve));

describe('AccessTokenCache', () => {
  it('concurrent first calls share one token request', async () => {
    const { clock, credential, cache } = setup();
    const tokens = [cache.getToken(), cache.getToken()];
    const header = cache.authorizationHeader();
    await flush();
    expect(credential.calls).toBe(1);
    expect(credential.pending[0]?.scopes).toEqual([SCOPE]);
    credential.answer({ token: 't1', expiresOnTimestamp: clock.now() + 60 * MINUTE });
    const [a, b] = await Promise.all(tokens);
    expect(a?.token).toBe('t1');
    expect(b).toBe(a);
    expect(await header).toBe('Bearer t1');
  });

  it('reuses the token until 5 minutes before expiry, then fetches a new one', async () => {
    const { clock, credential, cache } = setup();
    const first = cache.getToken();
    credential.answer({ token: 't1', expiresOnTimestamp: clock.now() + 60 * MINUTE });
    await first;
    clock.advance(55 * MINUTE - 1);
    expect((await cache.getToken()).token).toBe('t1');
    expect(credential.calls).toBe(1);
    clock.advance(1);
    const second = cache.getToken();
    await flush();
    expect(credential.calls).toBe(2);
    credential.answer({ token: 't2', expiresOnTimestamp: clock.now() + 60 * MINUTE });
    expect((await second).token).toBe('t2');
  });

  it("refreshes at the token's refresh time when it carries one", async () => {
    const { clock, credential, cache } = setup();
    const first = cache.getToken();
    credential.answer({
      token: 't1',
      expiresOnTimestamp: clock.now() + 60 * MINUTE,
      refreshAfterTimestamp: clock.now() + 30 * MINUTE,
    });
    await first;
    clock.advance(30 * MINUTE - 1);
    expect((await cache.getToken()).token).toBe('t1');
    clock.advance(1);
    const second = cache.getToken();
    await flush();
    expect(credential.calls).toBe(2);
    credential.answer({ token: 't2', expiresOnTimestamp: clock.now() + 60 * MINUTE });
    expect((await second).token).toBe('t2');
  });

  it('a failed request rejects all its waiters and the next call asks again', async () => {
    const { clock, credential, cache } = setup();
    const waiters = [cache.getToken(), cache.getToken()];
    await flush();
    credential.fail(new Error('AADSTS7000215: Invalid client secret provided.'));
    for (const w of waiters) {
      await expect(w).rejects.toBeInstanceOf(TokenRequestError);
      await expect(w).rejects.toThrow(/Invalid client secret.*|contoso/);
    }
    const retry = cache.getToken();
    await flush();
    expect(credential.calls).toBe(2);
    credential.answer({ token: 't2', expiresOnTimestamp: clock.now() + 60 * MINUTE });
    expect((await retry).token).toBe('t2');
  });

  it('a failed refresh keeps the still-valid token, asks again after 10 s, and fails once it expired', async () => {
    const { clock, credential, cache } = setup();
    const first = cache.getToken();
    credential.answer({ token: 't1', expiresOnTimestamp: clock.now() + 60 * MINUTE });
    await first;
    clock.advance(56 * MINUTE);
    const during = cache.getToken();
    await flush();
    credential.fail(new Error('AADSTS90033: temporarily unavailable'));
    expect((await during).token).toBe('t1');
    clock.advance(9_999);
    expect((await cache.getToken()).token).toBe('t1');
    expect(credential.calls).toBe(2);
    clock.advance(1);
    const retried = cache.getToken();
    await flush();
    expect(credential.calls).toBe(3);
    credential.fail(new Error('still down'));
    expect((await retried).token).toBe('t1');
    clock.advance(4 * MINUTE); // 10 s before expiry: no longer handed out
    const expired = cache.getToken();
    await flush();
    credential.fail(new Error('still down'));
    await expect(expired).rejects.toBeInstanceOf(TokenRequestError);
  });

  it('a credential that returns null is an error, not an empty header', async () => {
    const credential = { getToken: async () => null };
    const cache = new AccessTokenCache(credential, SCOPE);
    await expect(cache.getToken()).rejects.toThrow(/returned no access token/);
  });

  it('rejects missing scopes and a negative margin with a clear message', () => {
    const credential = new ControlledCredential();
    expect(() => new AccessTokenCache(credential, [])).toThrow(/at least one non-empty scope/);
    expect(() => new AccessTokenCache(credential, SCOPE, { refreshMarginMs: -1 })).toThrow(/refreshMarginMs/);
  });
});

describe('bearerTokenFetch', () => {
  it('adds the bearer header to every request, keeps the caller headers, and drops the token after a 401', async () => {
    const { clock, credential, cache } = setup();
    const seen: Headers[] = [];
    let status = 200;
    const fetch = bearerTokenFetch(cache, {
      fetch: async (_input, init) => {
        seen.push(new Headers(init?.headers));
        return new Response('{}', { status });
      },
    });
    const calls = [
      fetch('https://contoso.crm.dynamics.com/api/data/v9.2/accounts', {
        headers: { accept: 'application/json' },
      }),
      fetch('https://contoso.crm.dynamics.com/api/data/v9.2/contacts'),
    ];
    await flush();
    credential.answer({ token: 't1', expiresOnTimestamp: clock.now() + 60 * MINUTE });
    await Promise.all(calls);
    expect(credential.calls).toBe(1);
    expect(seen.map((h) => h.get('authorization'))).toEqual(['Bearer t1', 'Bearer t1']);
    expect(seen[0]?.get('accept')).toBe('application/json');

    status = 401;
    expect((await fetch('https://contoso.crm.dynamics.com/api/data/v9.2/accounts')).status).toBe(401);
    status = 200;
    const afterRejection = fetch('https://contoso.crm.dynamics.com/api/data/v9.2/accounts');
    await flush();
    expect(credential.calls).toBe(2);
    credential.answer({ token: 't2', expiresOnTimestamp: clock.now() + 60 * MINUTE });
    await afterRejection;
    expect(seen.at(-1)?.get('authorization')).toBe('Bearer t2');
  });
});
