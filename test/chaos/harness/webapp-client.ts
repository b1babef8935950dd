/** The operator REST API as the chaos suite uses it: sign in once, then JSON calls with the session cookie. */
export class WebAppClient {
  #cookie = '';

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
    this.#cookie = response.headers
      .getSetCookie()
      .map((c) => c.split(';')[0] ?? '')
      .join('; ');
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
