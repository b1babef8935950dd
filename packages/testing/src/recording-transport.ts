import type {
  AcceptOptions,
  PublishRequest,
  ReceivedMessage,
  ScheduleHandle,
  SessionHandle,
  SettleEffects,
  Transport,
  TransportMessage,
} from '@nimbus/core';

/**
 * Wraps a transport and remembers when scheduled work becomes due (retries, scheduled publishes), so that a
 * test can move a manual clock straight to the next due time.
 */
export class RecordingTransport implements Transport {
  readonly #inner: Transport;
  readonly #dueTimes: number[] = [];

  constructor(inner: Transport) {
    this.#inner = inner;
  }

  get name() {
    return this.#inner.name;
  }
  get capabilities() {
    return this.#inner.capabilities;
  }

  /** Due times later than `now`, earliest first. */
  pendingDueTimes(now: number): number[] {
    return this.#dueTimes.filter((t) => t > now).sort((a, b) => a - b);
  }

  #record(requests: readonly PublishRequest[] | undefined): void {
    for (const request of requests ?? []) {
      if (request.enqueueAt) this.#dueTimes.push(request.enqueueAt.getTime());
    }
  }

  applyTopology: Transport['applyTopology'] = (topology) => this.#inner.applyTopology(topology);
  getTopology: Transport['getTopology'] = () => this.#inner.getTopology();
  publish = async (requests: readonly PublishRequest[]): Promise<void> => {
    await this.#inner.publish(requests);
    this.#record(requests);
  };
  schedule = async (source: string, message: TransportMessage, at: Date): Promise<ScheduleHandle> => {
    const handle = await this.#inner.schedule(source, message, at);
    this.#dueTimes.push(at.getTime());
    return handle;
  };
  cancelScheduled: Transport['cancelScheduled'] = (handle) => this.#inner.cancelScheduled(handle);
  acceptSession = async (input: string, options: AcceptOptions): Promise<SessionHandle | null> => {
    const session = await this.#inner.acceptSession(input, options);
    return session === null ? null : this.track(session);
  };
  peek: Transport['peek'] = (input, options) => this.#inner.peek(input, options);
  counts: Transport['counts'] = (input) => this.#inner.counts(input);
  peekDeadLetters: Transport['peekDeadLetters'] = (input, max) => this.#inner.peekDeadLetters(input, max);
  requeueDeadLetters: Transport['requeueDeadLetters'] = (input, ids) =>
    this.#inner.requeueDeadLetters(input, ids);
  purge: Transport['purge'] = (input, target) => this.#inner.purge(input, target);
  close: Transport['close'] = () => this.#inner.close();
  abort: Transport['abort'] = () => this.#inner.abort();
  closed: Transport['closed'] = () => this.#inner.closed();

  /** The session with its settlements' scheduled publishes recorded (for a handle obtained elsewhere too). */
  track(session: SessionHandle): SessionHandle {
    const record = (effects: SettleEffects | undefined) => this.#record(effects?.publish);
    return {
      get input() {
        return session.input;
      },
      get sessionId() {
        return session.sessionId;
      },
      get lockedUntil() {
        return session.lockedUntil;
      },
      receive: (options) => session.receive(options),
      getState: () => session.getState(),
      setState: (state) => session.setState(state),
      complete: async (message: ReceivedMessage, effects?: SettleEffects) => {
        await session.complete(message, effects);
        record(effects);
      },
      abandon: (message) => session.abandon(message),
      deadLetter: async (message, options) => {
        await session.deadLetter(message, options);
        record(options.effects);
      },
      readParked: (from, max) => session.readParked(from, max),
      renewLock: () => session.renewLock(),
      release: () => session.release(),
    };
  }
}
