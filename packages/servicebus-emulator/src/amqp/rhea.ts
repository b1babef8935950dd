import { createRequire } from 'node:module';
import type * as Rhea from 'rhea';

// rhea is CommonJS; load it once with its typings.
const require = createRequire(import.meta.url);
export const rhea = require('rhea') as typeof Rhea;
export const types = rhea.types as unknown as RheaTypes;
export const messageCodec = rhea.message as unknown as MessageCodec;

export interface RheaTypes {
  wrap_long(value: Buffer | number): unknown;
  wrap_int(value: number): unknown;
  wrap_uint(value: number): unknown;
  wrap_string(value: string): unknown;
  wrap_symbol(value: string): unknown;
  wrap_boolean(value: boolean): unknown;
  wrap_binary(value: Buffer): unknown;
  wrap_timestamp(value: number): unknown;
  wrap_uuid(value: Buffer): unknown;
  wrap_map(value: Record<string, unknown>, key?: (key: string) => unknown): unknown;
  wrap_array(values: unknown[], code: number, descriptor?: unknown): unknown;
  wrap_list(values: unknown[]): unknown;
  wrap_ulong(value: Buffer | number): unknown;
  described(descriptor: unknown, value: unknown): unknown;
}

export interface MessageCodec {
  encode(message: object): Buffer;
  decode(buffer: Buffer): Record<string, unknown>;
  accepted(): { described(): unknown };
  rejected(fields: { error: { condition: string; description: string } }): { described(): unknown };
  released(): { described(): unknown };
  data_section(buffer: Buffer): unknown;
}

/** A decoded AMQP value: rhea gives them no static types. */
// biome-ignore lint/suspicious/noExplicitAny: the one place AMQP's dynamic values enter the type system
export type Untyped = any;

/** Loose views of rhea's runtime objects (its typings do not cover the server side). */
export interface RheaLink {
  readonly name: string;
  readonly credit: number;
  readonly connection: RheaConnection;
  readonly remote: { attach?: Record<string, Untyped> };
  readonly local: { attach: Record<string, Untyped> };
  readonly state: { local_open: boolean; open_requests: number };
  set_source(fields: unknown): void;
  set_target(fields: unknown): void;
  open(): void;
  close(error?: { condition: string; description: string }): void;
  is_open(): boolean;
  is_closed(): boolean;
  sendable(): boolean;
  send(message: object, tag?: Buffer, format?: number): RheaDelivery;
  set_drained(drained: boolean): void;
  on(event: string, handler: (context: RheaContext) => void): void;
  add_credit?(credit: number): void;
}

export interface RheaConnection {
  readonly options: { id?: string };
  [key: symbol]: unknown;
}

export interface RheaDelivery {
  readonly id: number;
  readonly tag: Buffer;
  readonly format?: number;
  readonly remote_state?: Record<string, Untyped>;
  update(settled: boolean, state?: unknown): void;
  accept(): void;
  reject(error: { condition: string; description: string }): void;
  [key: symbol]: unknown;
}

export interface RheaContext {
  readonly connection: RheaConnection;
  readonly sender?: RheaLink;
  readonly receiver?: RheaLink;
  readonly delivery?: RheaDelivery;
  readonly message?: Record<string, Untyped>;
}
