/**
 * `nimbus events show … | head` closes stdout early; the reader has what it wanted, so end quietly (exit 0)
 * instead of printing an EPIPE stack trace.
 */
export function exitQuietlyOnClosedPipe(stream: NodeJS.WriteStream = process.stdout): void {
  stream.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code === 'EPIPE') process.exit(0);
    throw error;
  });
}
