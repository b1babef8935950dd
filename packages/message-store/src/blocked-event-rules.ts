import { Addresses } from '@nimbus/core';

export function isSelfOriginating(id: string | null | undefined): boolean {
  return id != null && id.toLowerCase() === Addresses.self.toLowerCase();
}

/** A self-originated event is identified by its last message instead of the "self" marker. */
export function resolveOriginatingId(originating: string | null, lastMessageId: string | null): string {
  return isSelfOriginating(originating) ? (lastMessageId ?? '') : (originating ?? '');
}
