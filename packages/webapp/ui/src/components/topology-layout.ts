import { Graph, layout } from '@dagrejs/dagre';

export interface TopologyInput {
  readonly endpoints: readonly { readonly id: string }[];
  readonly routes: readonly {
    readonly source: string;
    readonly eventTypeId: string;
    readonly target: string;
  }[];
}

export interface LaidOutNode {
  readonly id: string;
  readonly x: number;
  readonly y: number;
  readonly width: number;
  readonly height: number;
}

/** Every route from one producer to one consumer: one arrow whose label lists their event types. */
export interface LaidOutEdge {
  readonly key: string;
  readonly eventTypeIds: readonly string[];
  readonly source: string;
  readonly target: string;
  readonly points: readonly { x: number; y: number }[];
  /** Centre of the label box. */
  readonly labelX: number;
  readonly labelY: number;
  readonly labelWidth: number;
  readonly labelHeight: number;
}

export interface TopologyLayout {
  readonly width: number;
  readonly height: number;
  readonly nodes: readonly LaidOutNode[];
  readonly edges: readonly LaidOutEdge[];
}

export const NODE_FONT = '600 13px system-ui, sans-serif';
export const LABEL_FONT = '12px system-ui, sans-serif';
const NODE_PADDING = { x: 16, height: 34 };
const LABEL_PADDING = { x: 8, y: 4 };
export const LABEL_LINE_HEIGHT = 16;

/**
 * Lays the platform out left to right with dagre: endpoints are nodes, the routes from one producer to one
 * consumer a single edge whose label lists their event types, one a line. Dagre places each label as a box
 * of its own, so labels and nodes never overlap.
 * `textWidth` measures a string in a font (canvas in the browser).
 */
export function layoutTopology(
  input: TopologyInput,
  textWidth: (text: string, font: string) => number,
): TopologyLayout {
  const graph = new Graph({ multigraph: true, directed: true });
  // The greedy acyclicer reverses few edges of a cyclic platform, so producers stay left of their consumers.
  graph.setGraph({
    rankdir: 'LR',
    acyclicer: 'greedy',
    nodesep: 20,
    ranksep: 60,
    edgesep: 12,
    marginx: 16,
    marginy: 16,
  });
  graph.setDefaultEdgeLabel(() => ({}));
  for (const endpoint of input.endpoints) {
    graph.setNode(endpoint.id, {
      width: Math.ceil(textWidth(endpoint.id, NODE_FONT)) + 2 * NODE_PADDING.x,
      height: NODE_PADDING.height,
    });
  }
  const pairs = new Map<string, { source: string; target: string; eventTypeIds: string[] }>();
  for (const route of input.routes) {
    const key = edgeKey(route);
    const pair = pairs.get(key) ?? { source: route.source, target: route.target, eventTypeIds: [] };
    pair.eventTypeIds.push(route.eventTypeId);
    pairs.set(key, pair);
  }
  for (const [key, pair] of pairs) {
    for (const id of [pair.source, pair.target])
      if (!graph.hasNode(id)) graph.setNode(id, { width: 80, height: NODE_PADDING.height });
    const widest = Math.max(...pair.eventTypeIds.map((id) => textWidth(id, LABEL_FONT)));
    graph.setEdge(
      pair.source,
      pair.target,
      {
        width: Math.ceil(widest) + 2 * LABEL_PADDING.x,
        height: pair.eventTypeIds.length * LABEL_LINE_HEIGHT + 2 * LABEL_PADDING.y,
        labelpos: 'c',
      },
      key,
    );
  }
  layout(graph);
  const nodes = graph.nodes().map((id) => {
    const node = graph.node(id);
    return { id, x: node.x ?? 0, y: node.y ?? 0, width: node.width ?? 0, height: node.height ?? 0 };
  });
  const edges = [...pairs].map(([key, pair]) => {
    const edge = graph.edge(pair.source, pair.target, key);
    return {
      key,
      ...pair,
      points: edge.points ?? [],
      labelX: edge.x ?? 0,
      labelY: edge.y ?? 0,
      labelWidth: edge.width ?? 0,
      labelHeight: edge.height ?? 0,
    };
  });
  const size = graph.graph();
  return { width: size.width ?? 0, height: size.height ?? 0, nodes, edges };
}

function edgeKey(route: { source: string; target: string }): string {
  return `${route.source}\u0000${route.target}`;
}
