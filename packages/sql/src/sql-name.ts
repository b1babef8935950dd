import { NimBusError, NimBusErrorCode } from '@nimbus/core';

/**
 * The longest name a NimBus option may give a schema, a table prefix or a table: PostgreSQL truncates identifiers
 * at 63 bytes, and the longest suffix the product appends to such a name is the inbox index's `_endpoint_created`
 * (17), so 63 − 17 = 46. The others are shorter: `nimbus_state_` (13, the store's LISTEN channel), `_migrations`
 * (11, a journal), `_pending` (8, the outbox index), `_wakeup` (7, the transport's channel).
 */
export const MAX_SQL_NAME_LENGTH = 46;

const PLAIN = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** Whether `name` is a plain SQL identifier (letters, digits and `_`, not starting with a digit) of at most 46. */
export function isSqlName(name: string): boolean {
  return PLAIN.test(name) && name.length <= MAX_SQL_NAME_LENGTH;
}

/**
 * The one identifier rule: returns `name` when it is a plain SQL identifier of at most `maxLength` (default
 * `MAX_SQL_NAME_LENGTH`) characters, so it can be put into SQL text quoted; otherwise throws `InvalidOption` naming
 * `what`. A name the product builds from an option plus a suffix (a LISTEN channel) passes PostgreSQL's own 63.
 */
export function sqlName(name: string, what: string, maxLength = MAX_SQL_NAME_LENGTH): string {
  if (!PLAIN.test(name) || name.length > maxLength) {
    throw new NimBusError(
      NimBusErrorCode.InvalidOption,
      `${what} '${name}' must be a plain SQL identifier: letters, digits and _, not starting with a digit, ` +
        `at most ${maxLength} characters.`,
    );
  }
  return name;
}
