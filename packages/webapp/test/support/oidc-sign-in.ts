import { ApiClient } from './api-client.js';
import { startHarness } from './harness.js';
import { OIDC_CLIENT, startOidcProvider } from './oidc-provider.js';
import { ERP } from './seed.js';
import type { StoreFactory } from './store-factories.js';

/** Cookies of the provider's pages, kept across the redirects of one sign-in. */
class Jar {
  readonly #cookies = new Map<string, string>();
  header(): string {
    return [...this.#cookies].map(([k, v]) => `${k}=${v}`).join('; ');
  }
  take(response: Response): void {
    for (const cookie of response.headers.getSetCookie()) {
      const [pair] = cookie.split(';');
      const at = pair!.indexOf('=');
      this.#cookies.set(pair!.slice(0, at), pair!.slice(at + 1));
    }
  }
}

const decode = (text: string) =>
  text
    .replace(/&amp;/g, '&')
    .replace(/&#x2F;/g, '/')
    .replace(/&quot;/g, '"');

/**
 * Signs in through the WebApp's OIDC flow without a browser, the way one would with a browser: the WebApp's
 * redirect, the provider's (oidc-provider's development) login and consent forms, the callback. Returns a
 * client holding the WebApp session.
 */
export async function signInWithOidc(webAppUrl: string, login: string): Promise<ApiClient> {
  const client = new ApiClient(webAppUrl);
  const start = await client.request('GET', '/account/oidc/login?returnUrl=/');
  let location = start.headers.get('location');
  const jar = new Jar();
  for (let step = 0; step < 20 && location && !location.startsWith(webAppUrl); step++) {
    const response = await fetch(location, { headers: { cookie: jar.header() }, redirect: 'manual' });
    jar.take(response);
    if (response.status >= 300 && response.status < 400) {
      location = new URL(response.headers.get('location')!, location).href;
      continue;
    }
    const html = await response.text();
    const action = /<form[^>]*action="([^"]+)"/.exec(html)?.[1];
    if (!action) throw new Error(`no form at ${location}: ${html.slice(0, 200)}`);
    const fields = new URLSearchParams();
    for (const [, name, value] of html.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)"/g))
      fields.set(name!, decode(value!));
    if (html.includes('name="login"')) {
      fields.set('login', login);
      fields.set('password', 'any password');
    }
    const posted = await fetch(new URL(decode(action), location), {
      method: 'POST',
      headers: { cookie: jar.header(), 'content-type': 'application/x-www-form-urlencoded' },
      body: fields.toString(),
      redirect: 'manual',
    });
    jar.take(posted);
    location = new URL(posted.headers.get('location')!, location).href;
  }
  if (!location?.startsWith(webAppUrl))
    throw new Error(`the provider did not return to the WebApp (${location})`);
  const callback = await client.request('GET', location.slice(webAppUrl.length));
  if (callback.status !== 302)
    throw new Error(`callback answered ${callback.status}: ${String(callback.body)}`);
  return client;
}

/**
 * A harness whose WebApp also signs in through a real OIDC provider on loopback: `carol` is in the group
 * `erp-operators`, mapped to site Reader and Contributor on Erp. `oidcClient` is signed in as her.
 */
export async function startOidcHarness(factory: StoreFactory) {
  const provider = await startOidcProvider({
    carol: { sub: 'carol', email: 'carol@example.test', name: 'Carol', groups: ['erp-operators'] },
  });
  const h = await startHarness(factory, {
    webApp: {
      oidc: {
        issuer: provider.issuer,
        clientId: OIDC_CLIENT.id,
        clientSecret: OIDC_CLIENT.secret,
        roleMapping: {
          site: { 'erp-operators': 'Reader' },
          endpoints: { 'erp-operators': { [ERP]: 'Contributor' } },
        },
        allowInsecureLoopbackIssuer: true,
      },
    },
  });
  provider.configure(h.url);
  const oidcClient = await signInWithOidc(h.url, 'carol');
  const close = async () => {
    await h.close();
    await provider.close();
  };
  return { h, oidcClient, close };
}
