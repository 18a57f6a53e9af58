/**
 * WCAG checks of a page with axe-core (@axe-core/playwright), as the browser
 * specs run them: the WCAG 2.0, 2.1 and 2.2 A and AA rules, and only what axe
 * rates serious or critical, which issue 12 makes a failure. Each finding names
 * the page, the rule, axe's one-line help and the elements, so a failed run
 * says what to fix without opening a report.
 */
import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';

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

/** The serious and critical WCAG violations on the page as it is now. */
export async function wcagFindings(page: Page, name: string, variant: string): Promise<Finding[]> {
  // Legacy mode runs axe in the page itself: the default opens a blank page per scan to merge the frames'
  // results, which these pages (no iframes) do not need and which doubled the time of a walk.
  // resultTypes: only violations carry every node; passes and the rest one each (axe's own speed-up).
  const results = await new AxeBuilder({ page })
    .withTags(WCAG_TAGS)
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
