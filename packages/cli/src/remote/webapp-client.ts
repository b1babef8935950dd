import {
  createNimbusClient,
  NimbusApiError,
  type NimbusAuth,
  type NimbusClient,
  signIn,
  unwrap,
} from '@nimbus/client';
import { CliError, ExitCode, usageError } from '../exit-codes.js';

/** Where a remote WebApp is and how to authenticate: environment only, so no secret is ever in argv. */
export const WEBAPP_URL_ENV = 'NIMBUS_WEBAPP_URL';
export const API_TOKEN_ENV = 'NIMBUS_API_TOKEN';
export const WEBAPP_EMAIL_ENV = 'NIMBUS_WEBAPP_EMAIL';
export const WEBAPP_PASSWORD_ENV = 'NIMBUS_WEBAPP_PASSWORD';

type Env = Readonly<Record<string, string | undefined>>;

/** The WebApp API through `@nimbus/client`: a bearer token, or a sign-in session with its CSRF token. */
export class WebAppClient {
  #api: NimbusClient;

  constructor(
    readonly baseUrl: string,
    auth: NimbusAuth | null,
  ) {
    this.#api = createNimbusClient({ baseUrl, ...(auth ? { auth } : {}) });
  }

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
    return new WebAppClient(url.replace(/\/+$/, ''), token ? { type: 'token', token } : null);
  }

  /** The typed client; call it through `call` so that a refusal becomes a `WebAppRefusal`. */
  get api(): NimbusClient {
    return this.#api;
  }

  async signIn(env: Env = process.env): Promise<void> {
    const email = env[WEBAPP_EMAIL_ENV];
    const password = env[WEBAPP_PASSWORD_ENV];
    if (!email || !password)
      throw usageError(`Set ${WEBAPP_EMAIL_ENV} and ${WEBAPP_PASSWORD_ENV} to sign in to the WebApp.`);
    const session = await refusalOf(signIn({ baseUrl: this.baseUrl, email, password }), 'sign-in');
    this.#api = createNimbusClient({ baseUrl: this.baseUrl, auth: session });
  }

  /** The data of a typed call, or a `WebAppRefusal` naming the operation, the status and the WebApp's message. */
  call<T>(request: Promise<{ data?: T; error?: unknown; response: Response }>): Promise<T> {
    return refusalOf(unwrap(request));
  }
}

async function refusalOf<T>(pending: Promise<T>, what?: string): Promise<T> {
  try {
    return await pending;
  } catch (error) {
    if (!(error instanceof NimbusApiError)) throw error;
    throw new WebAppRefusal(
      `WebApp refused ${what ?? error.operation ?? 'the request'}: ${error.status} ${error.message}`,
      error.status,
      error.code,
    );
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
