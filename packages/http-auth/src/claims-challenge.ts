/**
 * The claims of a claims challenge (Continuous Access Evaluation, conditional access): a 401 whose
 * `WWW-Authenticate` header is `Bearer … error="insufficient_claims", claims="<base64 JSON>"`. Returns
 * the decoded JSON text, as `GetTokenOptions.claims` takes it, or undefined when the header holds none.
 */
export function claimsFromChallenge(header: string | null): string | undefined {
  if (header === null) return undefined;
  // Parameters of every Bearer challenge in the header: name="value" pairs (values may hold commas).
  for (const match of header.matchAll(/(?:^|[\s,])claims\s*=\s*"([^"]*)"/gi)) {
    const encoded = match[1]?.trim() ?? '';
    if (encoded === '') continue;
    const text = Buffer.from(encoded, 'base64').toString('utf8');
    try {
      JSON.parse(text);
    } catch {
      continue; // not base64 JSON: not a claims challenge this code can pass on
    }
    return text;
  }
  return undefined;
}
