import { BrokerError, Condition } from '../wire/errors.js';

export type Token =
  | { readonly kind: 'string'; readonly value: string }
  | { readonly kind: 'number'; readonly value: number }
  | { readonly kind: 'word'; readonly value: string }
  | { readonly kind: 'symbol'; readonly value: string };

const SYMBOLS = ['<>', '!=', '<=', '>=', '=', '<', '>', '(', ')', ',', ';', '.', '+', '-'];

export function sqlSyntaxError(expression: string, detail: string): BrokerError {
  return new BrokerError(Condition.invalidField, `invalid SQL rule expression '${expression}': ${detail}`);
}

/** Splits a Service Bus SQL filter or action expression into tokens. */
export function tokenize(expression: string): Token[] {
  const tokens: Token[] = [];
  let i = 0;
  while (i < expression.length) {
    const char = expression[i]!;
    if (/\s/.test(char)) {
      i++;
    } else if (char === "'") {
      let value = '';
      i++;
      for (;;) {
        if (i >= expression.length) throw sqlSyntaxError(expression, 'unterminated string literal');
        if (expression[i] === "'" && expression[i + 1] === "'") {
          value += "'";
          i += 2;
        } else if (expression[i] === "'") {
          i++;
          break;
        } else value += expression[i++];
      }
      tokens.push({ kind: 'string', value });
    } else if (char === '[') {
      const end = expression.indexOf(']', i);
      if (end < 0) throw sqlSyntaxError(expression, 'unterminated [identifier]');
      tokens.push({ kind: 'word', value: expression.slice(i + 1, end) });
      i = end + 1;
    } else if (/[0-9]/.test(char)) {
      const match = /^[0-9]+(\.[0-9]+)?/.exec(expression.slice(i))!;
      tokens.push({ kind: 'number', value: Number(match[0]) });
      i += match[0].length;
    } else if (/[A-Za-z_$@]/.test(char)) {
      const match = /^[A-Za-z_$@][A-Za-z0-9_$@]*/.exec(expression.slice(i))!;
      tokens.push({ kind: 'word', value: match[0] });
      i += match[0].length;
    } else {
      const symbol = SYMBOLS.find((s) => expression.startsWith(s, i));
      if (!symbol) throw sqlSyntaxError(expression, `unexpected character '${char}' at ${i}`);
      tokens.push({ kind: 'symbol', value: symbol });
      i += symbol.length;
    }
  }
  return tokens;
}
