import type { UnresolvedEvent } from '@nimbus/message-store';
import { type CosmosStoreContext, queryAll } from './cosmos-context.js';
import { fromTrackingDocument, LIVE, type TrackingDocument } from './tracking-document.js';
import { Where } from './where.js';

/** Reads live resolver rows of one endpoint container, newest write first. */
export class EndpointRows {
  constructor(protected readonly context: CosmosStoreContext) {}

  /** Live rows matching `where` (built on a `Where` that already holds the visibility condition). */
  async live(
    endpointId: string,
    build: (where: Where) => Where = (w) => w,
    top?: number,
  ): Promise<UnresolvedEvent[]> {
    const docs = await this.liveDocuments(endpointId, build, top);
    return docs.map(fromTrackingDocument);
  }

  async liveDocuments(
    endpointId: string,
    build: (where: Where) => Where = (w) => w,
    top?: number,
  ): Promise<TrackingDocument[]> {
    const container = await this.context.endpointContainer(endpointId);
    if (container === null) return [];
    const where = build(new Where(LIVE));
    const topClause = top === undefined ? '' : `TOP ${where.value(top)} `;
    return queryAll<TrackingDocument>(
      container,
      `SELECT ${topClause}* FROM c ${where} ORDER BY c.seq DESC`,
      where.parameters,
    );
  }

  async countLive(endpointId: string, build: (where: Where) => Where): Promise<number> {
    const container = await this.context.endpointContainer(endpointId);
    if (container === null) return 0;
    const where = build(new Where(LIVE));
    const [count] = await queryAll<number>(
      container,
      `SELECT VALUE COUNT(1) FROM c ${where}`,
      where.parameters,
    );
    return count ?? 0;
  }
}
