import { parser } from '@prometheus-io/lezer-promql';

/** The metric names a PromQL expression selects (every vector selector's identifier); throws on a syntax error. */
export function selectedMetricNames(expr: string): string[] {
  const tree = parser.parse(expr);
  const names: string[] = [];
  tree.iterate({
    enter(node) {
      if (node.type.isError) throw new Error(`PromQL syntax error at ${node.from} in: ${expr}`);
      if (node.name === 'VectorSelector') {
        const identifier = node.node.getChild('Identifier');
        if (identifier) names.push(expr.slice(identifier.from, identifier.to));
      }
    },
  });
  return names;
}
