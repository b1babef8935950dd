import { NimBusError, NimBusErrorCode } from '@nimbus/core';

/** `VerifyOnly` found migrations that were never applied; `unapplied` lists every one of them. */
export class SchemaOutOfDateError extends NimBusError<typeof NimBusErrorCode.SchemaOutOfDate> {
  constructor(
    readonly placement: string,
    readonly unapplied: readonly string[],
  ) {
    super(
      NimBusErrorCode.SchemaOutOfDate,
      `The message store schema (${placement}) is out of date: ${unapplied.length} unapplied migration(s): ` +
        `${unapplied.join(', ')}. migrationMode 'VerifyOnly' never changes the schema; apply them with ` +
        `migrationMode 'AutoApply' (for example from the deployment pipeline) and start again.`,
    );
    this.name = 'SchemaOutOfDateError';
  }
}
