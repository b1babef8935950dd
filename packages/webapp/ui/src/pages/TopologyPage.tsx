import { useQuery } from '@tanstack/react-query';
import { useMemo } from 'react';
import { api, ok } from '../api.js';
import { LABEL_FONT, LABEL_LINE_HEIGHT, layoutTopology, NODE_FONT } from '../components/topology-layout.js';
import { navigate } from '../router.js';

let canvas: HTMLCanvasElement | null = null;
function textWidth(text: string, font: string): number {
  canvas ??= document.createElement('canvas');
  const context = canvas.getContext('2d');
  if (!context) return text.length * 8;
  context.font = font;
  return context.measureText(text).width;
}

/** A smooth path through dagre's edge points: each bend becomes a quadratic curve to the next midpoint. */
function pathOf(points: readonly { x: number; y: number }[]): string {
  const [first, ...rest] = points;
  if (!first) return '';
  const last = rest.pop();
  let d = `M${first.x},${first.y}`;
  rest.forEach((p, i) => {
    const next = rest[i + 1] ?? last ?? p;
    d += ` Q${p.x},${p.y} ${(p.x + next.x) / 2},${(p.y + next.y) / 2}`;
  });
  return last ? `${d} L${last.x},${last.y}` : d;
}

/** The platform as a graph: endpoints are boxes, each event type an arrow from its producer to a consumer. */
export function TopologyPage() {
  const { data, error } = useQuery({ queryKey: ['topology'], queryFn: () => ok(api.GET('/api/topology')) });
  const graph = useMemo(() => (data ? layoutTopology(data, textWidth) : null), [data]);
  if (error) return <p className="error">{error.message}</p>;
  return (
    <section>
      <h1>Topology</h1>
      {graph && graph.nodes.length === 0 && <p className="empty">The platform defines no endpoints.</p>}
      {graph && graph.nodes.length > 0 && (
        <>
          <p className="hint">
            {graph.nodes.length} endpoints, {data?.routes.length} routes. Arrows go from the endpoint that
            publishes an event type to each endpoint that consumes it, labelled with the event types; click an
            endpoint to open it.
          </p>
          <div className="topology-scroll">
            <svg
              className="topology"
              width={graph.width}
              height={graph.height}
              role="img"
              aria-label="endpoints and the event types routed between them"
            >
              <defs>
                <marker
                  id="arrow"
                  viewBox="0 0 10 10"
                  refX="10"
                  refY="5"
                  markerWidth="8"
                  markerHeight="8"
                  orient="auto"
                >
                  <path d="M0,0 L10,5 L0,10 z" fill="#64748b" />
                </marker>
              </defs>
              {graph.edges.map((edge) => (
                <g
                  key={edge.key}
                  className="topology-edge"
                  data-source={edge.source}
                  data-target={edge.target}
                >
                  <path d={pathOf(edge.points)} fill="none" stroke="#94a3b8" markerEnd="url(#arrow)" />
                  <g className="topology-edge-label">
                    <rect
                      x={edge.labelX - edge.labelWidth / 2}
                      y={edge.labelY - edge.labelHeight / 2}
                      width={edge.labelWidth}
                      height={edge.labelHeight}
                      rx={4}
                      fill="#f8fafc"
                      stroke="#cbd5e1"
                    />
                    <text textAnchor="middle" dominantBaseline="central" style={{ font: LABEL_FONT }}>
                      {edge.eventTypeIds.map((id, i) => (
                        <tspan
                          key={id}
                          data-event-type={id}
                          x={edge.labelX}
                          y={edge.labelY + (i - (edge.eventTypeIds.length - 1) / 2) * LABEL_LINE_HEIGHT}
                        >
                          {id}
                        </tspan>
                      ))}
                    </text>
                  </g>
                </g>
              ))}
              {graph.nodes.map((node) => (
                // biome-ignore lint/a11y/useSemanticElements: an SVG group cannot be a <button>
                <g
                  key={node.id}
                  className="topology-node"
                  data-endpoint={node.id}
                  role="button"
                  tabIndex={0}
                  onClick={() => navigate(`/endpoints/${encodeURIComponent(node.id)}`)}
                  onKeyDown={(e) =>
                    e.key === 'Enter' && navigate(`/endpoints/${encodeURIComponent(node.id)}`)
                  }
                >
                  <rect
                    x={node.x - node.width / 2}
                    y={node.y - node.height / 2}
                    width={node.width}
                    height={node.height}
                    rx={6}
                    fill="#1e3a8a"
                  />
                  <text
                    x={node.x}
                    y={node.y}
                    textAnchor="middle"
                    dominantBaseline="central"
                    fill="#fff"
                    style={{ font: NODE_FONT }}
                  >
                    {node.id}
                  </text>
                </g>
              ))}
            </svg>
          </div>
        </>
      )}
    </section>
  );
}
