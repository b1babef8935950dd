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
  return (
    <pre className="code diff" data-testid={testId}>
      {parts.flatMap((part, i) =>
        part.value
          .replace(/\n$/, '')
          .split('\n')
          .map((line, j) => {
            const kind = part.added ? 'added' : part.removed ? 'removed' : 'same';
            const mark = part.added ? '+ ' : part.removed ? '- ' : '  ';
            return (
              <span key={`${i}-${j}`} className={`diff-${kind}`} data-diff={kind}>
                {mark}
                {line}
                {'\n'}
              </span>
            );
          }),
      )}
    </pre>
  );
}
