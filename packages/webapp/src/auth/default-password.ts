import type { IdentityUser } from '../identity/identity-store.js';
import { verifyPassword } from './password.js';

/**
 * Whether a user still has the documented dev password (`nimbus dev` keeps it so the embedded stack is one
 * command away); the UI shows a banner until it is changed. Remembered per stored hash, so the scrypt check
 * runs once per password, not per request.
 */
export class DefaultPasswordCheck {
  readonly #known = new Map<string, Promise<boolean>>();

  constructor(private readonly defaultPassword: string | null) {}

  /** Whether `password` is the documented default itself. */
  is(password: string): boolean {
    return this.defaultPassword !== null && password === this.defaultPassword;
  }

  uses(user: IdentityUser): Promise<boolean> {
    if (this.defaultPassword === null) return Promise.resolve(false);
    let answer = this.#known.get(user.passwordHash);
    if (!answer) {
      answer = verifyPassword(this.defaultPassword, user.passwordHash);
      if (this.#known.size > 1000) this.#known.clear();
      this.#known.set(user.passwordHash, answer);
    }
    return answer;
  }
}
