import { diffLines } from 'diff';

function pretty(json: string): string {
  try {
    return JSON.stringify(JSON.parse(json), null, 2);
  } catch {
    return json;
  }
}

/** A line diff (jsdiff) of two JSON payloads, both pretty-printed so only real changes show. */
export function PayloadDiff({ before, after, testId }: { before: string; after: string; testId?: string }) {
  const parts = diffLines(pretty(before), pretty(after));
  if (parts.every((p) => !p.added && !p.removed)) return <p className="hint">No changes.</p>;
  // Each line is keyed by its line numbers in the old and the new text, which never repeat.
  let oldLine = 0;
  let newLine = 0;
  const lines = parts.flatMap((part) => {
    const kind: 'added' | 'removed' | 'same' = part.added ? 'added' : part.removed ? 'removed' : 'same';
    return part.value
      .replace(/\n$/, '')
      .split('\n')
      .map((text) => {
        if (kind !== 'added') oldLine += 1;
        if (kind !== 'removed') newLine += 1;
        return { kind, text, key: `${oldLine}:${newLine}:${kind}` };
      });
  });
  const mark = { added: '+ ', removed: '- ', same: '  ' } as const;
  return (
    <pre className="code diff" data-testid={testId}>
      {lines.map((line) => (
        <span key={line.key} className={`diff-${line.kind}`} data-diff={line.kind}>
          {mark[line.kind]}
          {line.text}
          {'\n'}
        </span>
      ))}
    </pre>
  );
}
