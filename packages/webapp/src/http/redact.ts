/** Anything that looks like an absolute url (scheme://…) in a text. */
const URL_IN_TEXT = /\b[a-z][a-z0-9+.-]*:\/\/[^\s'"<>`]+/gi;

/**
 * A url with what may be secret taken out: credentials (`user:pass@`) and the query; the path is kept up to
 * its first segment only (`https://host/hooks/…`): webhook paths often are the token themselves.
 */
export function redactUrl(raw: string): string {
  try {
    const url = new URL(raw);
    const [first, ...rest] = url.pathname.split('/').filter(Boolean);
    const path = first === undefined ? '' : `/${first}${rest.length > 0 ? '/…' : ''}`;
    return `${url.protocol}//${url.host}${path}${url.search ? '?…' : ''}`;
  } catch {
    return '…';
  }
}

/** The text with every url in it redacted (error messages of failed calls, which often repeat the url). */
export function redactSecrets(text: string): string {
  return text.replace(URL_IN_TEXT, (match) => redactUrl(match));
}

/** A request url for logs: the path, with the query string's values taken out (`?token=…`). */
export function redactRequestUrl(url: string): string {
  const at = url.indexOf('?');
  if (at < 0) return url;
  const names = url
    .slice(at + 1)
    .split('&')
    .filter(Boolean)
    .map((pair) => `${pair.split('=')[0]}=…`);
  return `${url.slice(0, at)}?${names.join('&')}`;
}
