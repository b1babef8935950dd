import type {
  CustomCheckResult,
  InputControl,
  InputState,
  InputThresholds,
  StoredCustomCheck,
} from './input-control.js';

const NO_THRESHOLDS: InputThresholds = { maxBacklog: null, maxCriticalTimeMs: null };

const byText = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/** The in-process `InputControl` (the memory transport's; tests). Inputs are matched case-insensitively. */
export class MemoryInputControl implements InputControl {
  readonly #states = new Map<string, InputState>();
  readonly #checks = new Map<string, StoredCustomCheck>();

  constructor(private readonly now: () => number = Date.now) {}

  async inputStates(): Promise<InputState[]> {
    return [...this.#states.values()].sort((a, b) => byText(a.input, b.input));
  }

  async pausedInputs(): Promise<ReadonlySet<string>> {
    return new Set([...this.#states.values()].filter((s) => s.paused).map((s) => s.input));
  }

  async setPaused(input: string, change: { readonly paused: boolean; readonly by: string }): Promise<void> {
    const current = this.#state(input);
    this.#states.set(input.toLowerCase(), {
      ...current,
      input,
      paused: change.paused,
      changedBy: change.by,
      changedAt: new Date(this.now()),
    });
  }

  async setThresholds(input: string, thresholds: InputThresholds): Promise<void> {
    this.#states.set(input.toLowerCase(), { ...this.#state(input), ...thresholds });
  }

  async reportChecks(endpointId: string, results: readonly CustomCheckResult[]): Promise<void> {
    for (const r of results) this.#checks.set(`${endpointId}\u0000${r.name}`, { ...r, endpointId });
  }

  async customChecks(): Promise<StoredCustomCheck[]> {
    return [...this.#checks.values()].sort(
      (a, b) => byText(a.endpointId, b.endpointId) || byText(a.name, b.name),
    );
  }

  #state(input: string): InputState {
    return (
      this.#states.get(input.toLowerCase()) ?? {
        input,
        paused: false,
        changedBy: null,
        changedAt: null,
        ...NO_THRESHOLDS,
      }
    );
  }
}
