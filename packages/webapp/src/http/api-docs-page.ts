interface OpenApiLike {
  readonly info: { readonly title: string; readonly version: string };
  readonly paths: Record<string, Record<string, unknown>>;
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** A dependency-free HTML page listing every operation, grouped by tag; the full schema is /openapi.json. */
export function renderApiDocsPage(doc: OpenApiLike): string {
  const byTag = new Map<string, string[]>();
  for (const [path, operations] of Object.entries(doc.paths)) {
    for (const [method, operation] of Object.entries(operations)) {
      const op = operation as { tags?: string[]; summary?: string };
      const tag = op.tags?.[0] ?? 'Other';
      const rows = byTag.get(tag) ?? [];
      rows.push(
        `<tr><td><code>${method.toUpperCase()}</code></td><td><code>${escapeHtml(path)}</code></td><td>${escapeHtml(op.summary ?? '')}</td></tr>`,
      );
      byTag.set(tag, rows);
    }
  }
  const sections = [...byTag]
    .map(([tag, rows]) => `<h2>${escapeHtml(tag)}</h2><table>${rows.join('')}</table>`)
    .join('');
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(doc.info.title)} API</title>
<style>body{font-family:system-ui,sans-serif;margin:2rem;max-width:70rem}td{padding:.2rem .6rem;border-bottom:1px solid #ddd;vertical-align:top}code{font-size:.9em}</style>
</head><body><h1>${escapeHtml(doc.info.title)} <small>${escapeHtml(doc.info.version)}</small></h1>
<p>Machine-readable schema: <a href="/openapi.json">/openapi.json</a>. Sign in with <code>POST /account/login</code>;
state-changing calls need the <code>x-csrf-token</code> header (value of the <code>NimBus.Csrf</code> cookie).</p>
${sections}</body></html>`;
}
