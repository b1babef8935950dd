import type { MigrationProgress } from '@nimbus/message-store-sql';

/** `store: applying 0002_x (2/3)` / `store: applied 0002_x (2/3)`. */
export function migrationProgressLine(progress: MigrationProgress, subject = 'store'): string {
  return `${subject}: ${progress.step} ${progress.migration} (${progress.index}/${progress.total})`;
}
