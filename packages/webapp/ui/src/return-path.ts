/**
 * Where to go after signing in: only a path on this origin. The value is parsed the way the browser will
 * navigate to it (tabs and newlines dropped, backslashes read as slashes, percent-escapes resolved) and
 * checked after that normalisation, so `/\evil.example`, `/%09/evil.example` or `//evil.example` cannot
 * leave the site. Anything else gives `/`.
 */
export function safeReturnPath(raw: string | null | undefined, origin: string): string {
  if (!raw?.startsWith('/')) return '/';
  // Control characters and backslashes have no place in a path we produced ourselves.
  // biome-ignore lint/suspicious/noControlCharactersInRegex: refusing them is the point
  if (/[\u0000-\u001f\u007f\\]/.test(raw)) return '/';
  let url: URL;
  try {
    url = new URL(raw, origin);
  } catch {
    return '/';
  }
  if (url.origin !== new URL(origin).origin) return '/';
  const path = `${url.pathname}${url.search}${url.hash}`;
  // A path starting with two slashes would be read as another host on the next navigation.
  return path.startsWith('//') || path.startsWith('/\\') ? '/' : path;
}

/** The sign-in page's address, remembering the current page to come back to. */
export function loginUrl(currentPath: string): string {
  return `/account/login?returnUrl=${encodeURIComponent(currentPath)}`;
}
