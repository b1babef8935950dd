import { CliError, ExitCode, usageError } from '../exit-codes.js';

/** Where a remote WebApp is and how to authenticate: environment only, so no secret is ever in argv. */
export const WEBAPP_URL_ENV = 'NIMBUS_WEBAPP_URL';
export const API_TOKEN_ENV = 'NIMBUS_API_TOKEN';
export const WEBAPP_EMAIL_ENV = 'NIMBUS_WEBAPP_EMAIL';
export const WEBAPP_PASSWORD_ENV = 'NIMBUS_WEBAPP_PASSWORD';

type Env = Readonly<Record<string, string | undefined>>;

/** A small REST client for the WebApp API: a bearer token, or a sign-in session with its CSRF token. */
export class WebAppClient {
  #cookies = '';
  #csrf = '';

  constructor(
    readonly baseUrl: string,
    private readonly bearer: string | null,
  ) {}

  /** `null` when NIMBUS_WEBAPP_URL is not set (the command then works on the local store). */
  static fromEnv(env: Env = process.env, options: { needsToken: boolean } = { needsToken: true }) {
    const url = env[WEBAPP_URL_ENV]?.trim();
    if (!url) return null;
    if (!/^https?:\/\//.test(url))
      throw usageError(`${WEBAPP_URL_ENV} must be an http(s) URL; got '${url}'.`);
    const token = env[API_TOKEN_ENV]?.trim() || null;
    if (options.needsToken && !token) {
      throw usageError(
        `${WEBAPP_URL_ENV} is set: set ${API_TOKEN_ENV} to an API token (create one with 'nimbus tokens create').`,
      );
    }
    return new WebAppClient(url.replace(/\/+$/, ''), token);
  }

  async signIn(env: Env = process.env): Promise<void> {
    const email = env[WEBAPP_EMAIL_ENV];
    const password = env[WEBAPP_PASSWORD_ENV];
    if (!email || !password)
      throw usageError(`Set ${WEBAPP_EMAIL_ENV} and ${WEBAPP_PASSWORD_ENV} to sign in to the WebApp.`);
    const response = await fetch(`${this.baseUrl}/account/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email, password }),
    });
    await this.#check(response, 'sign-in');
    const cookies = response.headers.getSetCookie().map((c) => c.split(';')[0]!);
    this.#cookies = cookies.join('; ');
    this.#csrf = cookies.find((c) => c.startsWith('NimBus.Csrf='))?.slice('NimBus.Csrf='.length) ?? '';
  }

  async request<T>(method: string, path: string, body?: unknown): Promise<T> {
    const headers: Record<string, string> = {};
    if (this.bearer) headers.authorization = `Bearer ${this.bearer}`;
    else if (this.#cookies) {
      headers.cookie = this.#cookies;
      if (method !== 'GET') headers['x-csrf-token'] = decodeURIComponent(this.#csrf);
    }
    if (body !== undefined) headers['content-type'] = 'application/json';
    const response = await fetch(`${this.baseUrl}${path}`, {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    await this.#check(response, `${method} ${path}`);
    const text = await response.text();
    return (text ? JSON.parse(text) : null) as T;
  }

  async #check(response: Response, what: string): Promise<void> {
    if (response.ok) return;
    const text = await response.clone().text();
    let message = text;
    let code: string | null = null;
    try {
      const problem = JSON.parse(text) as { message?: string; error?: string };
      message = problem.message ?? text;
      code = typeof problem.error === 'string' ? problem.error : null;
    } catch {
      // not JSON: keep the text
    }
    throw new WebAppRefusal(`WebApp refused ${what}: ${response.status} ${message}`, response.status, code);
  }
}

/**
 * The exit code of a WebApp refusal, as the same mistake run locally would exit: bad input (a payload that fails
 * its schema, an invalid value: 400) is a usage error (2), an unknown event or endpoint (404) is not found (4),
 * anything else (a refused action, no permission, an outage) failed (1).
 */
function exitCodeOf(status: number): ExitCode {
  if (status === 400) return ExitCode.Usage;
  if (status === 404) return ExitCode.NotFound;
  return ExitCode.Failed;
}

/** The WebApp answered with an error: its status and problem code (`error`), for callers that explain it. */
export class WebAppRefusal extends CliError {
  constructor(
    message: string,
    readonly status: number,
    readonly code: string | null,
  ) {
    super(message, exitCodeOf(status));
  }
}

export const segment = (value: string) => encodeURIComponent(value);
