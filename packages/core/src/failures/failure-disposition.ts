/** What happens to a message whose handler threw. */
export type FailureDisposition = 'retry' | 'deadLetter' | 'discard';

/** Decides the disposition of a handler failure. The default answers `retry` for everything. */
export interface FailureClassifier {
  readonly name: string;
  classify(error: unknown, eventTypeId: string | null, endpointId: string): FailureDisposition;
}

export const retryEverything: FailureClassifier = {
  name: 'retryEverything',
  classify: () => 'retry',
};
