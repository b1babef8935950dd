import { Link } from '../components/Link.js';

/** An address the UI does not know: say so, instead of silently showing another page. */
export function NotFoundPage({ path }: { path: string }) {
  return (
    <section data-testid="not-found">
      <h1>Page not found</h1>
      <p>
        There is no page at <code>{path}</code>. It may have been mistyped, or the link is from an older
        version.
      </p>
      <p>
        <Link to="/">Go to the endpoints</Link>
      </p>
    </section>
  );
}
