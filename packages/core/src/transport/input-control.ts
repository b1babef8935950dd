/**
 * Operational state the console sets and every host of the bus observes, kept by the transport beside the
 * messages so that it reaches hosts in other processes and outlasts restarts: which inputs are paused (their
 * consumers take nothing until resumed), the monitoring thresholds of each input, and the latest result of every
 * custom check an endpoint's host runs.
 */
export interface InputControl {
  /** Every input with stored control state (paused or with thresholds), ordered by input. */
  inputStates(): Promise<InputState[]>;
  /** Paused inputs (as stored, case kept); hosts read this on their poll. */
  pausedInputs(): Promise<ReadonlySet<string>>;
  setPaused(input: string, change: { readonly paused: boolean; readonly by: string }): Promise<void>;
  setThresholds(input: string, thresholds: InputThresholds): Promise<void>;
  /** Replaces the stored result of each check of `endpointId` named in `results`. */
  reportChecks(endpointId: string, results: readonly CustomCheckResult[]): Promise<void>;
  /** Every stored check result, ordered by endpoint then name. */
  customChecks(): Promise<StoredCustomCheck[]>;
}

export interface InputThresholds {
  /** Alert when more messages than this wait on the input; `null`: no backlog threshold. */
  readonly maxBacklog: number | null;
  /** Alert when the average critical time (publish → handled) exceeds this; `null`: none. */
  readonly maxCriticalTimeMs: number | null;
}

export interface InputState extends InputThresholds {
  readonly input: string;
  readonly paused: boolean;
  readonly changedBy: string | null;
  readonly changedAt: Date | null;
}

export interface CustomCheckResult {
  readonly name: string;
  readonly healthy: boolean;
  /** Why it is unhealthy (or a note when healthy); `null` when the check gave none. */
  readonly reason: string | null;
  readonly checkedAt: Date;
}

export interface StoredCustomCheck extends CustomCheckResult {
  readonly endpointId: string;
}

/** Bounds a check's name and reason so a misbehaving adapter cannot fill the table. */
export const MAX_CHECK_NAME_LENGTH = 200;
export const MAX_CHECK_REASON_LENGTH = 2000;
