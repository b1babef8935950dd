import type { LifecycleState, ServiceLifecycle, StopOptions } from '@nimbus/core';
import type { MessageStateChangeNotifier, StateChangeListener } from '@nimbus/message-store';

/**
 * A state-change notifier that reaches every process on the same database: what one process reports
 * (`notify(change)`), every process's subscribers hear, after a short coalescing window. After a reconnect or
 * a gap its subscribers get `{ kind: 'resync' }`: re-read everything shown.
 */
export interface SqlStateChangeNotifier extends MessageStateChangeNotifier, ServiceLifecycle {
  readonly dialect: 'sqlite' | 'postgres';
  subscribe(listener: StateChangeListener): () => void;
  /** Sends what is waiting in the coalescing window now. */
  flush(): Promise<void>;
  /** False while the notifier cannot hear other processes (its connection is down). */
  readonly listening: boolean;
}

export interface SqlNotifierTuning {
  /** Changes within this window go out together. Default 50 ms. */
  readonly coalesceMs?: number;
  /** Wait before resending after a failed send. Default 1 000 ms. */
  readonly retryMs?: number;
}

export type { LifecycleState, StopOptions };
