import { type ChildProcess, spawn } from 'node:child_process';

/** A long-running OS process whose stdout and stderr are kept apart, line by line, for the JSON check. */
export class StreamedProcess {
  readonly child: ChildProcess;
  readonly lines: { readonly stream: 'stdout' | 'stderr'; readonly text: string }[] = [];
  readonly exited: Promise<number | null>;
  readonly #partial = { stdout: '', stderr: '' };

  constructor(
    readonly name: string,
    script: string,
    args: readonly string[],
    env: NodeJS.ProcessEnv,
  ) {
    this.child = spawn(process.execPath, [script, ...args], { env, stdio: ['pipe', 'pipe', 'pipe'] });
    for (const stream of ['stdout', 'stderr'] as const) {
      this.child[stream]?.on('data', (chunk: Buffer) => {
        const text = this.#partial[stream] + chunk.toString();
        const parts = text.split('\n');
        this.#partial[stream] = parts.pop() ?? '';
        for (const line of parts) this.lines.push({ stream, text: line });
      });
    }
    this.exited = new Promise((resolve) =>
      this.child.on('close', (code) => {
        for (const stream of ['stdout', 'stderr'] as const)
          if (this.#partial[stream]) this.lines.push({ stream, text: this.#partial[stream] });
        resolve(code);
      }),
    );
  }

  /** The JSON records written so far (lines that do not parse are left out; `notJson` lists them). */
  records(): Record<string, unknown>[] {
    return this.lines.flatMap(({ text }) => {
      try {
        const value: unknown = JSON.parse(text);
        return value && typeof value === 'object' ? [value as Record<string, unknown>] : [];
      } catch {
        return [];
      }
    });
  }

  /** Every non-empty line that is not one JSON object. */
  notJson(): string[] {
    return this.lines
      .filter(({ text }) => {
        if (text.trim() === '') return false;
        try {
          const value: unknown = JSON.parse(text);
          return !(value && typeof value === 'object' && !Array.isArray(value));
        } catch {
          return true;
        }
      })
      .map(({ stream, text }) => `${this.name} ${stream}: ${text}`);
  }

  send(line: string): void {
    this.child.stdin?.write(`${line}\n`);
  }

  async stop(timeoutMs = 20_000): Promise<number | null> {
    if (this.child.exitCode !== null || this.child.signalCode !== null) return this.child.exitCode;
    this.child.kill('SIGTERM');
    const timer = setTimeout(() => this.child.kill('SIGKILL'), timeoutMs);
    const code = await this.exited;
    clearTimeout(timer);
    return code;
  }
}
