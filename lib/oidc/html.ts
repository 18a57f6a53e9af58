/**
 * The few pages oidc-provider renders itself (errors it cannot redirect, the
 * logout confirmation, the post-logout page). Plain HTML with one inline style
 * that matches the Tailwind pages, in the operator's brand (lib/config/brand.ts)
 * and in both colour schemes, so they need no asset and no JavaScript.
 */
import { createHash } from 'node:crypto';
import { type Brand, brandCss } from '../config/brand.ts';
import { gateMarkSvg } from '../config/gate-mark.ts';

export function escapeHtml(value: unknown): string {
  return String(value).replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

// The same surfaces and greys as app/globals.css gives the pages (slate, and its dark remapping).
const layout = `*{box-sizing:border-box}:root{color-scheme:light dark;--page:#f8fafc;--card:#fff;--border:#e2e8f0;--text:#0f172a;--muted:#475569;
--code:#f1f5f9;--control:#7d889a;--alert:#b91c1c}@media (prefers-color-scheme:dark){:root{--page:#020617;--card:#0f172a;--border:#334155;--text:#f1f5f9;
--muted:#a9b5c7;--code:#1e293b;--control:#64748b;--alert:#fca5a5}}body{margin:0;min-height:100vh;display:flex;align-items:center;justify-content:center;
background:var(--page);color:var(--text);font-family:ui-sans-serif,system-ui,-apple-system,"Segoe UI",Roboto,sans-serif}
main{width:100%;max-width:26rem;margin:1.5rem;padding:2rem;background:var(--card);border:1px solid var(--border);border-radius:.75rem;
box-shadow:0 1px 3px rgba(15,23,42,.08)}h1{font-size:1.25rem;margin:0 0 .75rem}p{color:var(--muted);line-height:1.5;margin:.5rem 0}
code{font-size:.85rem;background:var(--code);padding:.1rem .3rem;border-radius:.25rem;word-break:break-all}
button{width:100%;margin-top:.75rem;padding:.6rem 1rem;border-radius:.5rem;border:1px solid var(--control);background:var(--card);color:var(--text);
font:inherit;font-weight:600;cursor:pointer}button.primary{background:var(--brand-accent);border-color:var(--brand-accent);color:var(--brand-on-accent)}
button.primary:hover{background:var(--brand-accent-hover);color:var(--brand-on-accent-hover)}
button:focus-visible,a:focus-visible,summary:focus-visible{outline:3px solid var(--brand-accent-ring);outline-offset:2px}
a.button{display:block;box-sizing:border-box;width:100%;margin-top:1rem;padding:.6rem 1rem;border-radius:.5rem;text-align:center;text-decoration:none;
font-weight:600;background:var(--brand-accent);color:var(--brand-on-accent)}a.button:hover{background:var(--brand-accent-hover);color:var(--brand-on-accent-hover)}
.support{margin-top:1.5rem;padding-top:1rem;border-top:1px solid var(--border);font-size:.85rem}.support p{margin:.25rem 0}
details{margin-top:.5rem;color:var(--muted);font-size:.85rem}summary{cursor:pointer}.brand{display:flex;align-items:center;gap:.625rem;
font-weight:600;margin-bottom:1.5rem}.brand svg{color:var(--brand-accent-text)}.brand img{height:2rem;width:auto;max-width:10rem}
label{display:block;font-weight:600;margin-top:1rem}input[type=text]{width:100%;margin-top:.35rem;padding:.6rem .75rem;border:1px solid var(--control);
border-radius:.5rem;background:var(--card);color:var(--text);font:inherit;font-size:1.25rem;letter-spacing:.15em;text-transform:uppercase}
input:focus-visible{outline:3px solid var(--brand-accent-ring);outline-offset:2px}p.hint{font-size:.85rem}
p.alert{color:var(--alert);font-weight:600}.user-code code{font-size:1.5rem;letter-spacing:.15em}
.qr{margin:1.25rem 0 0;text-align:center}.qr svg{width:11rem;height:11rem;border-radius:.5rem}.qr figcaption{color:var(--muted);font-size:.85rem}`;

export interface ProviderPages {
  /** A complete page in `locale` (its `<html lang>`); `body` must already be escaped. */
  page(title: string, body: string, locale: string): string;
  /** The pages' one inline style, as their Content-Security-Policy names it (CSP3 §2.3.1 hash-source). */
  styleSource: string;
}

/** The provider's pages in `brand`: the logo (or the gate mark) and the name on top, the accent on the buttons and focus rings. */
export function providerPages(brand: Brand): ProviderPages {
  const style = `${brandCss(brand)}${layout}`;
  const name = escapeHtml(brand.name);
  const logo = brand.logo ? `<img src="${escapeHtml(brand.logo.src)}" alt="${name}">` : gateMarkSvg(28);
  const header = `<div class="brand">${logo}<span${brand.logo ? ' aria-hidden="true"' : ''}>${name}</span></div>`;
  return {
    styleSource: `'sha256-${createHash('sha256').update(style).digest('base64')}'`,
    page: (
      title,
      body,
      locale,
    ) => `<!DOCTYPE html><html lang="${escapeHtml(locale)}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)} · ${name}</title><link rel="icon" href="/favicon.svg" type="image/svg+xml"><style>${style}</style></head>
<body><main>${header}${body}</main></body></html>`,
  };
}
