/**
 * The few pages oidc-provider renders itself (errors it cannot redirect, the
 * logout confirmation, the post-logout page). Plain HTML with inline styles that
 * match the Tailwind pages, so they need no asset and no JavaScript.
 */
import { createHash } from 'node:crypto';

export function escapeHtml(value: unknown): string {
  return String(value).replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

const style = `*{box-sizing:border-box}body{margin:0;min-height:100vh;display:flex;align-items:center;justify-content:center;
background:#f8fafc;color:#0f172a;font-family:ui-sans-serif,system-ui,-apple-system,"Segoe UI",Roboto,sans-serif}
main{width:100%;max-width:26rem;margin:1.5rem;padding:2rem;background:#fff;border:1px solid #e2e8f0;border-radius:.75rem;
box-shadow:0 1px 3px rgba(15,23,42,.08)}h1{font-size:1.25rem;margin:0 0 .75rem}p{color:#475569;line-height:1.5;margin:.5rem 0}
code{font-size:.85rem;background:#f1f5f9;padding:.1rem .3rem;border-radius:.25rem;word-break:break-all}
button{width:100%;margin-top:.75rem;padding:.6rem 1rem;border-radius:.5rem;border:1px solid #cbd5e1;background:#fff;
font:inherit;font-weight:600;cursor:pointer}button.primary{background:#4f46e5;border-color:#4f46e5;color:#fff}
button:focus-visible{outline:3px solid #a5b4fc;outline-offset:2px}.brand{font-size:.8rem;letter-spacing:.08em;
text-transform:uppercase;color:#4f46e5;font-weight:700;margin-bottom:1rem}`;

/** The one inline style every page has, as its Content-Security-Policy names it (CSP3 §2.3.1 hash-source). */
export const STYLE_SOURCE = `'sha256-${createHash('sha256').update(style).digest('base64')}'`;

/** A complete page; `body` must already be escaped. */
export function page(title: string, body: string): string {
  return `<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)} · Gatehouse</title><style>${style}</style></head>
<body><main><div class="brand">Gatehouse</div>${body}</main></body></html>`;
}
