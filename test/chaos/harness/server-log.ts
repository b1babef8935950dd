import { readFileSync, statSync } from 'node:fs';

/**
 * The suite's own PostgreSQL server log (the cluster runs with `log_statement = ddl`), read from the moment the
 * schema was migrated: once it is, no process may run DDL on the transport schema when it opens the transport
 * (issue 12.2: that DDL deadlocked live traffic), and no statement may deadlock.
 */
export class ServerLog {
  readonly #from: number;

  constructor(readonly file: string) {
    this.#from = statSync(file).size;
  }

  problems(): string[] {
    const text = readFileSync(this.file, 'utf8').slice(this.#from);
    const lines = text.split('\n');
    const ddl = lines.filter(
      (line) => /statement: (create|alter|drop) /i.test(line) && line.includes('nimbus_transport'),
    );
    const deadlocks = lines.filter((line) => line.includes('deadlock detected'));
    const problems: string[] = [];
    if (ddl.length > 0)
      problems.push(
        `${ddl.length} DDL statements on the transport schema after it was migrated (first: ${ddl[0]!.slice(0, 200)})`,
      );
    if (deadlocks.length > 0)
      problems.push(`${deadlocks.length} deadlocks (first: ${deadlocks[0]!.slice(0, 200)})`);
    return problems;
  }
}
