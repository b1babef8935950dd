/** A tiny cookie-keeping HTTP client over real fetch, the way a browser talks to the WebApp. */
export class ApiClient {
  readonly cookies = new Map<string, string>();
  /** Raw Set-Cookie headers of the last response. */
  lastSetCookies: string[] = [];

  constructor(readonly baseUrl: string) {}

  get csrfToken(): string | undefined {
    return this.cookies.get('NimBus.Csrf');
  }

  async request(
    method: string,
    path: string,
    body?: unknown,
    options: { csrf?: boolean; headers?: Record<string, string> } = {},
  ): Promise<{ status: number; body: unknown; headers: Headers }> {
    const headers: Record<string, string> = { ...options.headers };
    if (this.cookies.size > 0) headers.cookie = [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
    if (body !== undefined) headers['content-type'] ??= 'application/json';
    if ((options.csrf ?? true) && this.csrfToken && method !== 'GET')
      headers['x-csrf-token'] = this.csrfToken;
    const response = await fetch(`${this.baseUrl}${path}`, {
      method,
      headers,
      body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
      redirect: 'manual',
    });
    this.lastSetCookies = response.headers.getSetCookie();
    for (const cookie of this.lastSetCookies) {
      const [pair] = cookie.split(';');
      const index = pair!.indexOf('=');
      const name = pair!.slice(0, index);
      const value = pair!.slice(index + 1);
      if (value === '' || /expires=Thu, 01 Jan 1970/i.test(cookie)) this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
    const text = await response.text();
    let parsed: unknown = text;
    try {
      parsed = text === '' ? null : JSON.parse(text);
    } catch {
      // not JSON: keep the text
    }
    return { status: response.status, body: parsed, headers: response.headers };
  }

  /** The status of a stream (SSE) the server keeps open: the body is not read, the request is ended. */
  async streamStatus(path: string): Promise<number> {
    const controller = new AbortController();
    const headers: Record<string, string> = {};
    if (this.cookies.size > 0) headers.cookie = [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
    const response = await fetch(`${this.baseUrl}${path}`, { headers, signal: controller.signal });
    controller.abort();
    return response.status;
  }

  get = (path: string) => this.request('GET', path);
  post = (path: string, body?: unknown) => this.request('POST', path, body ?? {});
  put = (path: string, body?: unknown) => this.request('PUT', path, body ?? {});
  delete = (path: string) => this.request('DELETE', path);

  async login(email: string, password: string): Promise<void> {
    const result = await this.post('/account/login', { email, password });
    if (result.status !== 200)
      throw new Error(`login failed: ${result.status} ${JSON.stringify(result.body)}`);
  }
}
