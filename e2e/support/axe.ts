/**
 * WCAG checks of a page with axe-core (@axe-core/playwright), as the browser
 * specs run them: the WCAG 2.0, 2.1 and 2.2 A and AA rules, and only what axe
 * rates serious or critical, which issue 12 makes a failure. Each finding names
 * the page, the rule, axe's one-line help and the elements, so a failed run
 * says what to fix without opening a report.
 *
 * axe does not check non-text contrast (WCAG 1.4.11), which issue 12 found
 * broken on the form fields (1.49:1 borders): `controlFindings` measures the
 * boundary of every text field, select and text area against what surrounds it.
 */
import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';
import { contrast } from '../../lib/config/colour.ts';

export const WCAG_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa'];

const FAILING = new Set(['serious', 'critical']);

export interface Finding {
  /** The walk's name for the page ("sign-in", "admin-client-edit"), and where it was. */
  page: string;
  url: string;
  /** What the page was seen in: scheme, size, language. */
  variant: string;
  rule: string;
  impact: string;
  help: string;
  /** The CSS selectors axe gives for each failing element, with its own summary of the first. */
  targets: string[];
  summary: string;
}

/**
 * The WCAG A and AA rules whose outcome depends on colours alone: what a page seen in another colour
 * scheme of the same document (app/globals.css changes colours and nothing else) can fail anew.
 */
export const COLOUR_RULES = ['color-contrast', 'link-in-text-block'];

/** The serious and critical WCAG violations on the page as it is now (only under `rules`, when given; else every WCAG A and AA rule). */
export async function wcagFindings(page: Page, name: string, variant: string, rules?: string[]): Promise<Finding[]> {
  // Legacy mode runs axe in the page itself: the default opens a blank page per scan to merge the frames'
  // results, which these pages (no iframes) do not need and which doubled the time of a walk.
  // resultTypes: only violations carry every node; passes and the rest one each (axe's own speed-up).
  const builder = new AxeBuilder({ page });
  const results = await (rules ? builder.withRules(rules) : builder.withTags(WCAG_TAGS))
    .options({ resultTypes: ['violations'] })
    .setLegacyMode()
    .analyze();
  // A scan that checked nothing (axe not run, an empty document) must not pass as a clean page.
  if (results.passes.length + results.violations.length === 0) throw new Error(`axe checked no rule on ${name} (${page.url()})`);
  return results.violations
    .filter((v) => v.impact && FAILING.has(v.impact))
    .map((v) => ({
      page: name,
      url: page.url(),
      variant,
      rule: v.id,
      impact: v.impact ?? '',
      help: v.help,
      targets: v.nodes.map((n) => n.target.map(String).join(' ')),
      summary: (v.nodes[0]?.failureSummary ?? '').replace(/\s+/g, ' ').trim(),
    }));
}

/** One paragraph per page and rule: "<page> [variant] <url>\n  <rule> (<impact>): <help>\n    <target>..." */
export function describeFindings(findings: Finding[]): string {
  return findings
    .map((f) => {
      const targets = f.targets.slice(0, 6).map((t) => `    ${t}`);
      if (f.targets.length > 6) targets.push(`    …and ${f.targets.length - 6} more`);
      return [`${f.page} [${f.variant}] ${f.url}`, `  ${f.rule} (${f.impact}): ${f.help}`, ...targets, `    (${f.summary})`].join('\n');
    })
    .join('\n');
}

/** What a control's boundary is drawn with, as the page paints it (each `#rrggbb`, transparency blended in). */
interface ControlColours {
  control: string;
  border: string;
  fill: string;
  around: string;
}

/**
 * WCAG 1.4.11 for the form fields people type into or pick from: the border against what surrounds
 * the field, or else the field's own fill against it, must reach 3:1, or the field cannot be seen to be
 * one. Disabled fields are exempt, as WCAG exempts inactive components.
 */
export async function controlFindings(page: Page, name: string, variant: string): Promise<Finding[]> {
  const controls: ControlColours[] = await page.evaluate(() => {
    const canvas = document.createElement('canvas');
    canvas.width = 1;
    canvas.height = 1;
    const ctx = canvas.getContext('2d', { willReadFrequently: true })!;
    type Rgba = [number, number, number, number];
    // The browser parses any CSS colour (oklch included) into sRGB on a canvas.
    const rgba = (css: string): Rgba => {
      ctx.clearRect(0, 0, 1, 1);
      ctx.fillStyle = css;
      ctx.fillRect(0, 0, 1, 1);
      const [r, g, b, a] = ctx.getImageData(0, 0, 1, 1).data;
      return [r, g, b, a / 255];
    };
    const over = (top: Rgba, under: Rgba): Rgba => [0, 1, 2].map((i) => top[i] * top[3] + under[i] * (1 - top[3])).concat(1) as Rgba;
    const hex = (c: Rgba) =>
      `#${c
        .slice(0, 3)
        .map((v) => Math.round(v).toString(16).padStart(2, '0'))
        .join('')}`;
    const behind = (element: Element): Rgba => {
      const chain: Element[] = [];
      for (let e = element.parentElement; e; e = e.parentElement) chain.unshift(e);
      return chain.reduce<Rgba>((colour, e) => over(rgba(getComputedStyle(e).backgroundColor), colour), [255, 255, 255, 1]);
    };
    const fields = document.querySelectorAll<HTMLElement>(
      'input:not([type=hidden]):not([type=checkbox]):not([type=radio]):not([type=submit]):not([type=button]), select, textarea',
    );
    return (
      [...fields]
        // A field nobody sees has no boundary to perceive (WCAG 1.4.11 is about what is drawn): visually hidden helpers such as
        // the recovery codes' copy source (sr-only, aria-hidden) are left out, as axe leaves them out of its own rules.
        .filter((f) => !(f as HTMLInputElement).disabled && f.getClientRects().length > 0 && getComputedStyle(f).visibility !== 'hidden')
        .filter((f) => f.closest('[aria-hidden=true]') === null && f.getBoundingClientRect().width > 1 && f.getBoundingClientRect().height > 1)
        .map((f) => {
          const style = getComputedStyle(f);
          const around = behind(f);
          const width = Number.parseFloat(style.borderBottomWidth);
          return {
            control: `${f.tagName.toLowerCase()}${f.id ? `#${f.id}` : f.getAttribute('name') ? `[name=${f.getAttribute('name')}]` : ''}`,
            border: hex(width > 0 ? over(rgba(style.borderBottomColor), around) : around),
            fill: hex(over(rgba(style.backgroundColor), around)),
            around: hex(around),
          };
        })
    );
  });
  return controls
    .filter((c) => Math.max(contrast(c.border, c.around), contrast(c.fill, c.around)) < 3)
    .map((c) => ({
      page: name,
      url: page.url(),
      variant,
      rule: 'non-text-contrast',
      impact: 'serious',
      help: 'A form field’s boundary must reach 3:1 against its surroundings (WCAG 1.4.11; not checked by axe)',
      targets: [c.control],
      summary: `border ${c.border} is ${contrast(c.border, c.around).toFixed(2)}:1 and fill ${c.fill} is ${contrast(c.fill, c.around).toFixed(2)}:1 against ${c.around}`,
    }));
}
