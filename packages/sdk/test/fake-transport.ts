import {
  decodeEnvelope,
  type MessageEnvelope,
  type PublishRequest,
  type ScheduleHandle,
  type Transport,
  type TransportMessage,
} from '@nimbus/core';

/** Records what the SDK sends; only the publishing side of the SPI is implemented. */
export class FakeTransport implements Transport {
  readonly name = 'fake';
  readonly capabilities;
  readonly calls: PublishRequest[][] = [];
  readonly scheduled = new Map<string, { message: TransportMessage; at: Date }>();
  #next = 0;

  constructor(maxBatchBytes = 64_000) {
    this.capabilities = {
      atomicSettleAndPublish: true,
      nativeScheduling: true,
      maxBatchBytes,
      maxDeliveryCount: 10,
      lockDurationMs: 30_000,
    };
  }

  get sent(): MessageEnvelope[] {
    return this.calls
      .flat()
      .flatMap((r) => r.messages)
      .map((m) => decodeEnvelope({ ...m, headers: { From: 'publisher', EventId: 'not-yet', ...m.headers } }));
  }

  async publish(requests: readonly PublishRequest[]) {
    this.calls.push([...requests]);
  }
  async schedule(source: string, message: TransportMessage, at: Date): Promise<ScheduleHandle> {
    const id = `h-${++this.#next}`;
    this.scheduled.set(id, { message, at });
    return { id, source };
  }
  async cancelScheduled(handle: ScheduleHandle) {
    if (!this.scheduled.delete(handle.id)) throw new Error('unknown handle');
  }
  applyTopology = notUsed;
  getTopology = notUsed;
  acceptSession = notUsed;
  peek = notUsed;
  counts = notUsed;
  peekDeadLetters = notUsed;
  requeueDeadLetters = notUsed;
  purge = notUsed;
  async close() {}
  async abort() {}
  async closed() {}
}

async function notUsed(): Promise<never> {
  throw new Error('not used by the SDK under test');
}
