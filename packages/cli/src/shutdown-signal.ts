/**
 * Resolves with the signal name at the first SIGINT or SIGTERM. A second signal while shutting down
 * exits at once (code 130), for the impatient Ctrl+C.
 */
export function waitForShutdownSignal(
  onForce: () => void = () => process.exit(130),
): Promise<NodeJS.Signals> {
  return new Promise((resolve) => {
    let received = false;
    const handler = (signal: NodeJS.Signals) => {
      if (received) {
        onForce();
        return;
      }
      received = true;
      resolve(signal);
    };
    process.on('SIGINT', handler);
    process.on('SIGTERM', handler);
  });
}
