/** The error itself followed by every `cause` below it. */
export function causeChain(error: unknown): unknown[] {
  const chain: unknown[] = [];
  let current: unknown = error;
  while (current !== undefined && current !== null && chain.length < 16 && !chain.includes(current)) {
    chain.push(current);
    current = current instanceof Error ? current.cause : undefined;
  }
  return chain;
}

/** Name, message and stack of an error and of its causes, for dead-letter descriptions and text rules. */
export function fullErrorText(error: unknown): string {
  return causeChain(error)
    .map((e) => (e instanceof Error ? (e.stack ?? `${e.name}: ${e.message}`) : String(e)))
    .join('\n--- caused by ---\n');
}

export function errorTypeName(error: unknown): string {
  if (error instanceof Error) return error.name || error.constructor.name;
  return typeof error;
}

export function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
