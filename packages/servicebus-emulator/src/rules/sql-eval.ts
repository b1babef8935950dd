import { randomUUID } from 'node:crypto';
import type { AmqpMessage } from '../broker/message.js';
import type { ActionStatement, Expr, Predicate } from './sql-ast.js';

type Value = string | number | boolean | null;

/** System properties a rule may name, and the AMQP field each one reads. */
const SYSTEM_FIELDS: Record<string, keyof AmqpMessage> = {
  messageid: 'message_id',
  correlationid: 'correlation_id',
  label: 'subject',
  subject: 'subject',
  to: 'to',
  replyto: 'reply_to',
  sessionid: 'group_id',
  replytosessionid: 'reply_to_group_id',
  contenttype: 'content_type',
};

function normalise(value: unknown): Value {
  if (value === undefined || value === null) return null;
  if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') return value;
  if (typeof value === 'bigint') return Number(value);
  if (value instanceof Date) return value.getTime();
  return String(value);
}

function read(message: AmqpMessage, expr: Expr & { kind: 'property' }): Value {
  if (expr.scope === 'sys') {
    const field = SYSTEM_FIELDS[expr.name.toLowerCase()];
    return field ? normalise(message[field]) : null;
  }
  return normalise(message.application_properties?.[expr.name]);
}

function evaluate(message: AmqpMessage, expr: Expr): Value {
  switch (expr.kind) {
    case 'literal':
      return expr.value;
    case 'property':
      return read(message, expr);
    case 'newid':
      return randomUUID();
    case 'concat': {
      const parts = expr.parts.map((part) => evaluate(message, part));
      if (parts.some((p) => p === null)) return null;
      if (parts.every((p) => typeof p === 'number')) return (parts as number[]).reduce((a, b) => a + b, 0);
      return parts.join('');
    }
  }
}

function compare(op: string, left: Value, right: Value): boolean {
  if (left === null || right === null) return false;
  if (typeof left !== typeof right) return op === '<>';
  switch (op) {
    case '=':
      return left === right;
    case '<>':
      return left !== right;
    case '<':
      return left < right;
    case '>':
      return left > right;
    case '<=':
      return left <= right;
    case '>=':
      return left >= right;
    default:
      return false;
  }
}

function likeToRegExp(pattern: string): RegExp {
  const escaped = pattern
    .replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
    .replace(/%/g, '.*')
    .replace(/_/g, '.');
  return new RegExp(`^${escaped}$`, 's');
}

export function matches(message: AmqpMessage, predicate: Predicate): boolean {
  switch (predicate.kind) {
    case 'and':
      return matches(message, predicate.left) && matches(message, predicate.right);
    case 'or':
      return matches(message, predicate.left) || matches(message, predicate.right);
    case 'not':
      return !matches(message, predicate.inner);
    case 'constant':
      return predicate.value;
    case 'compare':
      return compare(predicate.op, evaluate(message, predicate.left), evaluate(message, predicate.right));
    case 'in': {
      const value = evaluate(message, predicate.value);
      if (value === null) return false;
      const found = predicate.list.some((item) => evaluate(message, item) === value);
      return predicate.negated ? !found : found;
    }
    case 'isNull': {
      const isNull = evaluate(message, predicate.value) === null;
      return predicate.negated ? !isNull : isNull;
    }
    case 'like': {
      const value = evaluate(message, predicate.value);
      if (typeof value !== 'string') return false;
      const found = likeToRegExp(predicate.pattern).test(value);
      return predicate.negated ? !found : found;
    }
    case 'exists':
      return predicate.property.kind === 'property' && read(message, predicate.property) !== null;
  }
}

/** Applies SET/REMOVE statements to a message copy (user properties; sys.To / sys.Label / sys.CorrelationId). */
export function applyAction(message: AmqpMessage, statements: readonly ActionStatement[]): void {
  for (const statement of statements) {
    const { target } = statement;
    const value = statement.kind === 'set' ? evaluate(message, statement.value) : null;
    if (target.scope === 'sys') {
      const field = SYSTEM_FIELDS[target.name.toLowerCase()];
      if (field) message[field] = value === null ? undefined : value;
      continue;
    }
    message.application_properties ??= {};
    const properties = message.application_properties;
    if (statement.kind === 'remove') delete properties[target.name];
    else properties[target.name] = value;
  }
}
