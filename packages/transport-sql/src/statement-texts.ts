const MAX_CACHED_COUNT = 512;

/**
 * Statement texts whose shape depends only on a row count (`VALUES (?, ?), (?, ?)…`), built once per count.
 * Reusing the same string also spares the driver's statement cache from hashing a fresh multi-kilobyte key.
 */
export class StatementTexts {
  readonly #byKind = new Map<string, Map<number, string>>();

  get(kind: string, count: number, build: (count: number) => string): string {
    if (count > MAX_CACHED_COUNT) return build(count);
    let texts = this.#byKind.get(kind);
    if (!texts) {
      texts = new Map();
      this.#byKind.set(kind, texts);
    }
    let text = texts.get(count);
    if (text === undefined) {
      text = build(count);
      texts.set(count, text);
    }
    return text;
  }
}

/** Serialises headers once per headers object: a routed copy often goes to a consumer and to the Resolver. */
export function headersEncoder(): (headers: object) => string {
  const encoded = new Map<object, string>();
  return (headers) => {
    let text = encoded.get(headers);
    if (text === undefined) {
      text = JSON.stringify(headers);
      encoded.set(headers, text);
    }
    return text;
  };
}
