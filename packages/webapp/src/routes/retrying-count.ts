import type { NimBusMessageStore } from '@nimbus/message-store';

/**
 * How many of an endpoint's Failed rows are retrying (the retry policy will run them again) rather than
 * awaiting an operator. Every Failed row that is not retrying is in exactly one failure group (retrying rows
 * carry no failure signature), so the difference is exact and needs no count of its own in the store.
 */
export async function retryingCount(
  store: Pick<NimBusMessageStore, 'getFailureGroups'>,
  endpointId: string,
  storedFailedCount: number,
): Promise<number> {
  if (storedFailedCount === 0) return 0;
  const groups = await store.getFailureGroups({ endpointIds: [endpointId] });
  const awaitingOperator = groups.reduce((sum, g) => sum + g.failedCount, 0);
  return Math.max(0, storedFailedCount - awaitingOperator);
}
