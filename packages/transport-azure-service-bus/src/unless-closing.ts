/**
 * `work`, unless `closing` aborts first: then the call fails at once with the error `closedError()` throws, and a
 * result that still comes is handed to `late` (a session receiver to close). The SDK does not always settle a wait
 * whose client was closed under it (an `acceptNextSession` in flight), so a closing transport does not wait for it.
 */
export function unlessClosing<T>(
  work: Promise<T>,
  closing: AbortSignal,
  closedError: () => never,
  late: (value: T) => void = () => undefined,
): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const onClosing = () => {
      // The caller is answered with Closed; what the abandoned wait ends with no longer concerns anyone.
      work.then(late, () => undefined);
      try {
        closedError();
      } catch (error) {
        reject(error);
      }
    };
    if (closing.aborted) return onClosing();
    closing.addEventListener('abort', onClosing, { once: true });
    // The SDK's own abort listener may settle `work` first (an AbortError): once closing, the answer is Closed.
    work.then(
      (value) => {
        closing.removeEventListener('abort', onClosing);
        if (closing.aborted) return onClosing();
        resolve(value);
      },
      (error: unknown) => {
        closing.removeEventListener('abort', onClosing);
        if (closing.aborted) return onClosing();
        reject(error);
      },
    );
  });
}
