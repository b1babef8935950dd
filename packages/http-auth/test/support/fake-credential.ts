import type { AccessToken, TokenCredential } from '@azure/core-auth';

interface PendingRequest {
  readonly scopes: string[];
  resolve(token: AccessToken): void;
  reject(error: Error): void;
}

/** A TokenCredential whose requests the test answers by hand. */
export class ControlledCredential implements TokenCredential {
  readonly pending: PendingRequest[] = [];
  calls = 0;

  getToken(scopes: string | string[]): Promise<AccessToken | null> {
    this.calls += 1;
    return new Promise((resolve, reject) => {
      this.pending.push({ scopes: typeof scopes === 'string' ? [scopes] : scopes, resolve, reject });
    });
  }

  /** Answers the oldest open request. */
  answer(token: AccessToken): void {
    const next = this.pending.shift();
    if (!next) throw new Error('no token request is waiting');
    next.resolve(token);
  }

  fail(error: Error): void {
    const next = this.pending.shift();
    if (!next) throw new Error('no token request is waiting');
    next.reject(error);
  }
}
