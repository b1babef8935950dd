import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';
import { NimBusError, NimBusErrorCode } from '@nimbus/core';
// Loaded by the worker thread, by path; imported here for their types (and so the dependencies show).
import type { ZxcvbnResult } from '@zxcvbn-ts/core';
import type * as Common from '@zxcvbn-ts/language-common';
import type * as English from '@zxcvbn-ts/language-en';

/**
 * zxcvbn on a worker thread: its matching is superlinear in the password's length (seconds for a long
 * repetitive one), and the WebApp's event loop — in `nimbus dev` also the Resolver's and the adapters' — must
 * not wait for it. Only the first `SCORED_LENGTH` characters are scored, so one check stays well under a
 * second of worker time; a longer password is at least as strong as its scored prefix.
 */
export const SCORED_LENGTH = 48;
/** A check that takes longer than this (a wedged worker) fails instead of holding the request. */
const CHECK_TIMEOUT_MS = 15_000;

/** The worker builds its estimator from these modules' dictionaries, graphs and translations. */
export type StrengthModules = [typeof Common.dictionary, typeof English.translations];

export interface Strength {
  readonly score: ZxcvbnResult['score'];
  readonly warning: string | null;
}

const require = createRequire(import.meta.url);
const MODULES = {
  core: require.resolve('@zxcvbn-ts/core'),
  common: require.resolve('@zxcvbn-ts/language-common'),
  english: require.resolve('@zxcvbn-ts/language-en'),
};

// Evaluated as a CommonJS script in the worker (no file to locate from src/ or dist/).
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const { ZxcvbnFactory } = require(workerData.core);
const common = require(workerData.common);
const english = require(workerData.english);
const estimator = new ZxcvbnFactory({
  dictionary: { ...common.dictionary, ...english.dictionary },
  graphs: common.adjacencyGraphs,
  translations: english.translations,
});
parentPort.on('message', ({ id, password, userInputs }) => {
  try {
    const result = estimator.check(password, userInputs);
    parentPort.postMessage({ id, score: result.score, warning: result.feedback.warning || null });
  } catch (error) {
    parentPort.postMessage({ id, error: String((error && error.message) || error) });
  }
});
`;

type Reply = { id: number; score: Strength['score']; warning: string | null } | { id: number; error: string };
type Pending = { resolve(s: Strength): void; reject(e: Error): void; timer: NodeJS.Timeout };

let worker: Worker | null = null;
let nextId = 0;
const pending = new Map<number, Pending>();

function failAll(error: Error): void {
  worker = null;
  for (const [id, p] of pending) {
    clearTimeout(p.timer);
    pending.delete(id);
    p.reject(error);
  }
}

function theWorker(): Worker {
  if (worker) return worker;
  const started = new Worker(WORKER_SOURCE, { eval: true, workerData: MODULES });
  started.on('message', (reply: Reply) => {
    const p = pending.get(reply.id);
    if (!p) return;
    pending.delete(reply.id);
    clearTimeout(p.timer);
    if (pending.size === 0) started.unref();
    if ('error' in reply)
      p.reject(new NimBusError(NimBusErrorCode.Internal, `password strength check failed: ${reply.error}`));
    else p.resolve({ score: reply.score, warning: reply.warning });
  });
  started.on('error', (error) =>
    failAll(new NimBusError(NimBusErrorCode.Internal, `password strength worker failed: ${error.message}`)),
  );
  started.on('exit', (code) => {
    if (worker === started)
      failAll(new NimBusError(NimBusErrorCode.Internal, `password strength worker exited (code ${code})`));
  });
  worker = started;
  return started;
}

/** The zxcvbn score (0–4) and warning of the password's first `SCORED_LENGTH` characters, off this thread. */
export function passwordStrength(password: string, userInputs: readonly string[]): Promise<Strength> {
  return new Promise((resolve, reject) => {
    const id = nextId++;
    const timer = setTimeout(() => {
      pending.delete(id);
      reject(
        new NimBusError(
          NimBusErrorCode.Internal,
          `password strength check took more than ${CHECK_TIMEOUT_MS} ms`,
        ),
      );
    }, CHECK_TIMEOUT_MS);
    pending.set(id, { resolve, reject, timer });
    const thread = theWorker();
    // Busy, it keeps the process alive until it answers; idle, it does not.
    thread.ref();
    thread.postMessage({
      id,
      password: password.slice(0, SCORED_LENGTH),
      userInputs: userInputs.map((input) => input.slice(0, SCORED_LENGTH)),
    });
  });
}
