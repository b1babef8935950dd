import type { ActionStatement, Expr, Predicate, Scope } from './sql-ast.js';
import { sqlSyntaxError, type Token, tokenize } from './sql-lexer.js';

/** Recursive-descent parser for the Service Bus SQL subset NimBus topologies use (filters and SET/REMOVE actions). */
class Parser {
  #at = 0;
  readonly #tokens: Token[];

  constructor(readonly expression: string) {
    this.#tokens = tokenize(expression);
  }

  get done(): boolean {
    return this.#at >= this.#tokens.length;
  }

  fail(detail: string): never {
    throw sqlSyntaxError(this.expression, detail);
  }

  peekWord(...words: string[]): boolean {
    const token = this.#tokens[this.#at];
    return token?.kind === 'word' && words.includes(token.value.toUpperCase());
  }

  peekSymbol(...symbols: string[]): boolean {
    const token = this.#tokens[this.#at];
    return token?.kind === 'symbol' && symbols.includes(token.value);
  }

  next(): Token {
    const token = this.#tokens[this.#at++];
    if (!token) this.fail('unexpected end of expression');
    return token;
  }

  expectWord(word: string): void {
    if (!this.peekWord(word)) this.fail(`expected ${word}`);
    this.#at++;
  }

  expectSymbol(symbol: string): void {
    if (!this.peekSymbol(symbol)) this.fail(`expected '${symbol}'`);
    this.#at++;
  }

  predicate(): Predicate {
    let left = this.conjunction();
    while (this.peekWord('OR')) {
      this.#at++;
      left = { kind: 'or', left, right: this.conjunction() };
    }
    return left;
  }

  conjunction(): Predicate {
    let left = this.negation();
    while (this.peekWord('AND')) {
      this.#at++;
      left = { kind: 'and', left, right: this.negation() };
    }
    return left;
  }

  negation(): Predicate {
    if (this.peekWord('NOT')) {
      this.#at++;
      return { kind: 'not', inner: this.negation() };
    }
    return this.condition();
  }

  condition(): Predicate {
    if (this.peekSymbol('(')) {
      this.#at++;
      const inner = this.predicate();
      this.expectSymbol(')');
      return inner;
    }
    if (this.peekWord('EXISTS')) {
      this.#at++;
      this.expectSymbol('(');
      const property = this.value();
      this.expectSymbol(')');
      return { kind: 'exists', property };
    }
    if (this.peekWord('TRUE', 'FALSE') && this.#isLast()) {
      return { kind: 'constant', value: (this.next().value as string).toUpperCase() === 'TRUE' };
    }
    const value = this.value();
    if (this.peekWord('IS')) {
      this.#at++;
      const negated = this.#optionalNot();
      this.expectWord('NULL');
      return { kind: 'isNull', negated, value };
    }
    const negated = this.#optionalNot();
    if (this.peekWord('IN')) {
      this.#at++;
      this.expectSymbol('(');
      const list = [this.value()];
      while (this.peekSymbol(',')) {
        this.#at++;
        list.push(this.value());
      }
      this.expectSymbol(')');
      return { kind: 'in', negated, value, list };
    }
    if (this.peekWord('LIKE')) {
      this.#at++;
      const pattern = this.next();
      if (pattern.kind !== 'string') this.fail('LIKE needs a string pattern');
      return { kind: 'like', negated, value, pattern: pattern.value };
    }
    if (negated) this.fail('NOT must be followed by IN or LIKE here');
    if (!this.peekSymbol('=', '<>', '!=', '<', '>', '<=', '>=')) this.fail('expected a comparison');
    const op = this.next().value as string;
    return { kind: 'compare', op: op === '!=' ? '<>' : op, left: value, right: this.value() };
  }

  value(): Expr {
    const first = this.term();
    if (!this.peekSymbol('+')) return first;
    const parts = [first];
    while (this.peekSymbol('+')) {
      this.#at++;
      parts.push(this.term());
    }
    return { kind: 'concat', parts };
  }

  term(): Expr {
    const token = this.next();
    if (token.kind === 'string' || token.kind === 'number') return { kind: 'literal', value: token.value };
    if (token.kind === 'symbol' && token.value === '-') {
      const number = this.next();
      if (number.kind !== 'number') this.fail('expected a number after -');
      return { kind: 'literal', value: -number.value };
    }
    if (token.kind !== 'word') this.fail(`unexpected '${token.value}'`);
    const upper = token.value.toUpperCase();
    if (upper === 'NULL') return { kind: 'literal', value: null };
    if (upper === 'TRUE' || upper === 'FALSE') return { kind: 'literal', value: upper === 'TRUE' };
    if (upper === 'NEWID' && this.peekSymbol('(')) {
      this.#at++;
      this.expectSymbol(')');
      return { kind: 'newid' };
    }
    if ((upper === 'SYS' || upper === 'USER') && this.peekSymbol('.')) {
      this.#at++;
      const name = this.next();
      if (name.kind !== 'word') this.fail('expected a property name');
      return { kind: 'property', scope: upper.toLowerCase() as Scope, name: name.value };
    }
    return { kind: 'property', scope: 'user', name: token.value };
  }

  action(): ActionStatement {
    if (this.peekWord('SET')) {
      this.#at++;
      const target = this.term();
      if (target.kind !== 'property') this.fail('SET needs a property');
      this.expectSymbol('=');
      return { kind: 'set', target, value: this.value() };
    }
    if (this.peekWord('REMOVE')) {
      this.#at++;
      const target = this.term();
      if (target.kind !== 'property') this.fail('REMOVE needs a property');
      return { kind: 'remove', target };
    }
    return this.fail('an action statement starts with SET or REMOVE');
  }

  #optionalNot(): boolean {
    if (!this.peekWord('NOT')) return false;
    this.#at++;
    return true;
  }

  #isLast(): boolean {
    return this.#at === this.#tokens.length - 1;
  }
}

export function parseFilter(expression: string): Predicate {
  const parser = new Parser(expression);
  const predicate = parser.predicate();
  if (!parser.done) parser.fail('unexpected text after the filter');
  return predicate;
}

export function parseAction(expression: string): ActionStatement[] {
  const parser = new Parser(expression);
  const statements: ActionStatement[] = [];
  while (!parser.done) {
    statements.push(parser.action());
    if (parser.peekSymbol(';')) parser.next();
  }
  if (statements.length === 0) parser.fail('an action needs at least one statement');
  return statements;
}
