/** The operator REST API as the chaos suite uses it: sign in once, then JSON calls with the session cookie. */
export class WebAppClient {
  #cookie = '';
  #csrf = '';

  constructor(
    readonly baseUrl: string,
    private readonly email: string,
    private readonly password: string,
  ) {}

  async signIn(): Promise<void> {
    const response = await fetch(`${this.baseUrl}/account/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: this.email, password: this.password }),
    });
    if (response.status !== 200)
      throw new Error(`sign-in failed: HTTP ${response.status} ${await response.text()}`);
    const cookies = response.headers.getSetCookie().map((c) => c.split(';')[0] ?? '');
    this.#cookie = cookies.join('; ');
    // State-changing calls send the session's CSRF token (also in the NimBus.Csrf cookie) as x-csrf-token.
    const user = (await response.json()) as { csrfToken?: string | null };
    this.#csrf =
      user.csrfToken ??
      decodeURIComponent(
        cookies.find((c) => c.startsWith('NimBus.Csrf='))?.slice('NimBus.Csrf='.length) ?? '',
      );
  }

  /** Returns status and parsed body; signs in again once on 401 (the WebApp may have restarted). */
  async call<T = unknown>(
    method: string,
    path: string,
    body?: unknown,
  ): Promise<{ status: number; body: T }> {
    for (let attempt = 0; ; attempt++) {
      const response = await fetch(`${this.baseUrl}${path}`, {
        method,
        headers: {
          cookie: this.#cookie,
          ...(method === 'GET' ? {} : { 'x-csrf-token': this.#csrf }),
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
      if (response.status === 401 && attempt === 0) {
        await this.signIn();
        continue;
      }
      const text = await response.text();
      let parsed: unknown = text;
      try {
        parsed = text ? JSON.parse(text) : null;
      } catch {
        // not JSON
      }
      return { status: response.status, body: parsed as T };
    }
  }
}
