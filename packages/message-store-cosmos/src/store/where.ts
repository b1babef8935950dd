import type { SqlParameter } from '@azure/cosmos';

/** Builds a parameterised WHERE clause; values never enter the query text. */
export class Where {
  readonly #conditions: string[] = [];
  readonly parameters: SqlParameter[] = [];

  constructor(...conditions: string[]) {
    this.#conditions.push(...conditions);
  }

  #param(value: unknown): string {
    const name = `@p${this.parameters.length}`;
    this.parameters.push({ name, value: value as SqlParameter['value'] });
    return name;
  }

  raw(condition: string): this {
    this.#conditions.push(condition);
    return this;
  }

  equals(field: string, value: unknown): this {
    return this.raw(`${field} = ${this.#param(value)}`);
  }

  /** Skipped when `value` is null, undefined or "". */
  equalsIfGiven(field: string, value: string | null | undefined): this {
    return value == null || value === '' ? this : this.equals(field, value);
  }

  /** Case-insensitive prefix; skipped when no prefix is given. */
  prefix(field: string, prefix: string | null | undefined): this {
    if (prefix == null || prefix === '') return this;
    return this.raw(
      `(IS_STRING(${field}) AND STARTSWITH(LOWER(${field}), ${this.#param(prefix.toLowerCase())}))`,
    );
  }

  /** Membership; skipped when the list is absent or empty. */
  oneOf(field: string, values: readonly unknown[] | null | undefined): this {
    if (values == null || values.length === 0) return this;
    return this.raw(`ARRAY_CONTAINS(${this.#param([...values])}, ${field})`);
  }

  /** Inclusive range over ISO-8601 strings (they sort as the instants they name). */
  between(field: string, from: Date | null | undefined, to: Date | null | undefined): this {
    if (from != null) this.raw(`${field} >= ${this.#param(from.toISOString())}`);
    if (to != null) this.raw(`${field} <= ${this.#param(to.toISOString())}`);
    return this;
  }

  contains(field: string, text: string | null | undefined): this {
    if (text == null || text === '') return this;
    return this.raw(`(IS_STRING(${field}) AND CONTAINS(${field}, ${this.#param(text)}))`);
  }

  /** A parameter for use in a clause outside the WHERE (for example `TOP @p0`). */
  value(value: unknown): string {
    return this.#param(value);
  }

  toString(): string {
    return this.#conditions.length === 0 ? '' : `WHERE ${this.#conditions.join(' AND ')}`;
  }
}
