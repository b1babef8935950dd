import type { TransportMessage } from '@nimbus/core';

/** Bytes a message counts against a publish budget: UTF-8 body plus header names and values. */
export function messageSize(message: TransportMessage): number {
  let size = Buffer.byteLength(message.body, 'utf8');
  for (const [name, value] of Object.entries(message.headers)) {
    size += Buffer.byteLength(name, 'utf8') + Buffer.byteLength(value, 'utf8');
  }
  return size;
}
