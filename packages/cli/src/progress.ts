/** Prints progress of a long operation as plain lines (friendly to logs and CI): `label: 3/10 (30%)`. */
export interface Progress {
  update(done: number, detail?: string): void;
  finish(summary?: string): void;
}

export function createProgress(
  label: string,
  total: number,
  out: NodeJS.WritableStream = process.stderr,
): Progress {
  let lastPercent = -1;
  return {
    update(done, detail) {
      const percent = total === 0 ? 100 : Math.floor((done / total) * 100);
      if (percent === lastPercent && done !== total) return;
      lastPercent = percent;
      out.write(`${label}: ${done}/${total} (${percent}%)${detail ? ` ${detail}` : ''}\n`);
    },
    finish(summary) {
      out.write(`${label}: done${summary ? ` — ${summary}` : ''}\n`);
    },
  };
}
