import { type ChildProcess, spawn } from 'node:child_process';
import { createWriteStream, type WriteStream } from 'node:fs';

export interface ManagedProcessOptions {
  /** Short name for reports, e.g. `resolver` or `host-1`. */
  readonly name: string;
  /** Node script and its arguments. */
  readonly script: string;
  readonly args?: readonly string[];
  readonly env: NodeJS.ProcessEnv;
  /** Appends stdout and stderr here (kept for post-mortems). */
  readonly logFile: string;
}

export interface ExitRecord {
  readonly name: string;
  readonly pid: number;
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
  /** True when the test itself sent the signal (a deliberate kill or stop). */
  readonly expected: boolean;
}

/**
 * A long-running OS process the test starts, kills and restarts. Every exit is recorded, and an exit the test did
 * not cause is what "a process died" means in the reports.
 */
/**
 * What the product logs when its session's lease lapsed while it was slow: a settlement refused (nothing of it
 * applied), or the fence before a handler start (the messages in hand dropped unrun, the batch's earlier successes
 * not settled). Either way that turn is redelivered from its first unsettled message: at-least-once.
 */
const LEASE_LAPSED =
  /Settlement refused by the transport: the session lease lapsed|Session lease lost: its lease lapsed/g;

export class ManagedProcess {
  readonly exits: ExitRecord[] = [];
  /**
   * When this process reported a refused settlement (received time): its lease lapsed while it was slow (CPU
   * starvation on a loaded machine is a stall nobody injected), so the handler runs of that turn are redelivered.
   */
  readonly leaseLapses: { pid: number; at: number }[] = [];
  #child: ChildProcess | null = null;
  #output = '';
  #log: WriteStream;
  #expectingExit = false;
  #exited: Promise<void> = Promise.resolve();

  constructor(readonly options: ManagedProcessOptions) {
    this.#log = createWriteStream(options.logFile, { flags: 'a' });
  }

  get name(): string {
    return this.options.name;
  }

  get pid(): number | null {
    return this.#child?.pid ?? null;
  }

  get alive(): boolean {
    return this.#child !== null && this.#child.exitCode === null && this.#child.signalCode === null;
  }

  /** Output since the last (re)start. */
  get output(): string {
    return this.#output;
  }

  /** Exits the test did not cause. */
  get unexpectedExits(): ExitRecord[] {
    return this.exits.filter((exit) => !exit.expected);
  }

  start(): this {
    if (this.alive) throw new Error(`${this.name} is already running`);
    this.#output = '';
    this.#expectingExit = false;
    const child = spawn(process.execPath, [this.options.script, ...(this.options.args ?? [])], {
      env: this.options.env,
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    this.#child = child;
    const collect = (chunk: Buffer) => {
      const text = chunk.toString();
      for (const _ of text.matchAll(LEASE_LAPSED))
        this.leaseLapses.push({ pid: child.pid ?? -1, at: Date.now() });
      this.#output += text;
      this.#log.write(text);
    };
    child.stdout?.on('data', collect);
    child.stderr?.on('data', collect);
    child.stdin?.on('error', () => undefined);
    this.#log.write(`\n=== ${new Date().toISOString()} ${this.name} started (pid ${child.pid})\n`);
    this.#exited = new Promise((resolve) =>
      child.on('close', (code, signal) => {
        this.exits.push({
          name: this.name,
          pid: child.pid ?? -1,
          code,
          signal,
          expected: this.#expectingExit,
        });
        this.#log.write(
          `\n=== ${new Date().toISOString()} ${this.name} exited (code ${code}, signal ${signal})\n`,
        );
        resolve();
      }),
    );
    return this;
  }

  /** Writes one line to the process's stdin. */
  send(line: string): void {
    this.#child?.stdin?.write(`${line}\n`);
  }

  /** Resolves the first match in the output since start; fails when the process exits or time runs out. */
  async waitFor(pattern: RegExp, timeoutMs: number): Promise<RegExpMatchArray> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const match = this.#output.match(pattern);
      if (match) return match;
      if (!this.alive) throw new Error(`${this.name} exited while waiting for ${pattern}:\n${this.#output}`);
      if (Date.now() > deadline)
        throw new Error(`${this.name}: no ${pattern} within ${timeoutMs} ms:\n${this.#output}`);
      await new Promise((r) => setTimeout(r, 50));
    }
  }

  async kill(signal: NodeJS.Signals = 'SIGKILL'): Promise<void> {
    if (!this.alive) return;
    this.#expectingExit = true;
    this.#child?.kill(signal);
    await this.#exited;
  }

  /** Stalls the process (SIGSTOP), as a long GC pause, a VM stall or CPU starvation would; `resume()` ends it. */
  pause(): void {
    if (this.alive) this.#child?.kill('SIGSTOP');
  }

  /** Lets a paused process go on (SIGCONT). */
  resume(): void {
    if (this.alive) this.#child?.kill('SIGCONT');
  }

  /** SIGTERM, SIGKILL after `timeoutMs`. */
  async stop(timeoutMs = 10_000): Promise<void> {
    if (!this.alive) return;
    this.#expectingExit = true;
    this.#child?.kill('SIGCONT'); // a paused process would not hear the SIGTERM
    this.#child?.kill('SIGTERM');
    const timer = setTimeout(() => this.#child?.kill('SIGKILL'), timeoutMs);
    await this.#exited;
    clearTimeout(timer);
  }

  async close(): Promise<void> {
    await this.stop();
    await new Promise<void>((resolve) => this.#log.end(resolve));
  }
}
