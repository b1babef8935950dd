import type {
  FailureGroup,
  FailureGroupRequest,
  ResolutionStatus,
  TrackingFailureGroups,
} from '@nimbus/message-store';
import { aggregateFailureGroups, type FailureGroupRow } from '@nimbus/message-store/provider';
import { type CosmosStoreContext, queryAll } from './cosmos-context.js';
import { LIVE } from './tracking-document.js';
import { Where } from './where.js';

interface GroupedFields {
  readonly sessionId: string;
  readonly failureSignature: string;
  readonly resolutionStatus: ResolutionStatus;
  readonly updatedAt: string;
  readonly seq: number;
  readonly eventTypeId: string | null;
  readonly errorText?: string | null;
  readonly deadLetterErrorDescription: string | null;
}

/**
 * Failure groups on Cosmos DB: each endpoint container is asked for a small projection of its live rows that
 * carry a stamped `failureSignature` (no payloads), and the groups are folded here, since a GROUP BY with a
 * distinct session count is not available across partitions. The cost grows with the number of failed rows,
 * not with the endpoint's total (see docs/storage-cosmos.md).
 */
export class CosmosFailureGroups implements TrackingFailureGroups {
  constructor(private readonly context: CosmosStoreContext) {}

  async getFailureGroups({
    endpointIds = null,
    acrossEndpoints = false,
    signature = null,
  }: FailureGroupRequest): Promise<FailureGroup[]> {
    const endpoints = endpointIds === null ? await this.context.endpointIds() : [...new Set(endpointIds)];
    const rows: FailureGroupRow[] = [];
    for (const endpointId of endpoints) {
      const container = await this.context.endpointContainer(endpointId);
      if (container === null) continue;
      const where = new Where(LIVE, 'IS_STRING(c.failureSignature)').equalsIfGiven(
        'c.failureSignature',
        signature,
      );
      const found = await queryAll<GroupedFields>(
        container,
        `SELECT c.sessionId, c.failureSignature, c.resolutionStatus, c.updatedAt, c.seq, c.eventTypeId,
           c.messageContent.errorContent.errorText AS errorText, c.deadLetterErrorDescription FROM c ${where}`,
        where.parameters,
      );
      for (const f of found) {
        rows.push({
          endpointId,
          sessionId: f.sessionId,
          signature: f.failureSignature,
          status: f.resolutionStatus,
          updatedAt: new Date(f.updatedAt),
          order: f.seq,
          errorText: f.errorText ?? f.deadLetterErrorDescription ?? null,
          eventTypeId: f.eventTypeId ?? null,
        });
      }
    }
    return aggregateFailureGroups(rows, acrossEndpoints);
  }
}
