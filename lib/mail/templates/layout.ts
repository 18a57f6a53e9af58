/**
 * The frame every mail shares: the brand's name on top (in its accent colour), one paragraph per
 * line of text, one button for the link, and the link again as text for mail
 * readers that show no buttons. Plain HTML with inline styles (mail readers
 * ignore style sheets), no images and nothing loaded from anywhere: no tracking,
 * hence no logo. The button's text and the links take the contrast rules of
 * lib/config/brand.ts (4.5:1 on the button and on the white card).
 */
import type { MailBrand } from '../../config/brand.ts';
import { readableOn, withContrast } from '../../config/colour.ts';
import type { Locale } from '../../i18n/locale.ts';
import { translator } from '../../i18n/messages.ts';

export type { MailBrand };

export interface MailContent {
  subject: string;
  /** What the mail says, one paragraph each. */
  paragraphs: string[];
  /** The one thing to do; absent in a mail that carries a code alone. */
  action?: { label: string; url: string };
  /** A code to type instead of (or without) the link: `lead` says where, `value` is set apart in large type. */
  code?: { lead: string; value: string };
  /** After the link: what to do if this was not expected, when the link stops working. */
  footnotes: string[];
}

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** Both bodies of a mail from the operator's brand (`mailBrand(config)`, lib/config/brand.ts), in the content's language. */
export function render(brand: MailBrand, content: MailContent, locale: Locale = 'en'): { subject: string; text: string; html: string } {
  const openLink = translator(locale, 'mail')('openLink');
  const accentText = withContrast(brand.accent, ['#ffffff'], 4.5, 'darker');
  const { action, code } = content;
  const text = [
    brand.name,
    '',
    ...content.paragraphs.flatMap((p) => [p, '']),
    ...(action ? [`${action.label}:`, action.url, ''] : []),
    ...(code ? [code.lead, code.value, ''] : []),
    ...content.footnotes,
  ].join('\n');
  const p = (body: string, style = '') => `<p style="margin:0 0 16px;font-size:15px;line-height:1.5;color:#1e293b;${style}">${body}</p>`;
  const html = `<!doctype html>
<html lang="${locale}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width"><title>${escapeHtml(content.subject)}</title></head>
<body style="margin:0;padding:24px;background:#f8fafc;font-family:system-ui,-apple-system,'Segoe UI',Roboto,sans-serif">
<div style="max-width:480px;margin:0 auto;background:#ffffff;border:1px solid #e2e8f0;border-radius:12px;padding:32px">
${p(escapeHtml(brand.name), `font-weight:700;letter-spacing:0.05em;text-transform:uppercase;color:${accentText};font-size:13px`)}
${content.paragraphs.map((para) => p(escapeHtml(para))).join('\n')}
${
  action
    ? `<p style="margin:24px 0"><a href="${escapeHtml(action.url)}" style="display:inline-block;background:${brand.accent};color:${readableOn(brand.accent)};text-decoration:none;font-weight:600;padding:10px 18px;border-radius:8px">${escapeHtml(action.label)}</a></p>
${p(`${escapeHtml(openLink)} <a href="${escapeHtml(action.url)}" style="color:${accentText};word-break:break-all">${escapeHtml(action.url)}</a>`, 'font-size:13px;color:#475569')}`
    : ''
}
${
  code
    ? `${p(escapeHtml(code.lead))}
${p(escapeHtml(code.value), 'font-size:28px;font-weight:700;letter-spacing:0.3em;font-family:ui-monospace,Menlo,Consolas,monospace')}`
    : ''
}
${content.footnotes.map((note) => p(escapeHtml(note), 'font-size:13px;color:#475569')).join('\n')}
</div></body></html>
`;
  return { subject: content.subject, text, html };
}
