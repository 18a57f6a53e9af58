/**
 * A user agent in a few words ("Chrome on Linux"), as /account's sessions and activity and the password
 * reset mail show where something came from: the browser and the system, names that need no translating,
 * or the header as it is, shortened, when it names no known browser.
 */

const browsers: Array<[RegExp, string]> = [
  [/\bEdg(?:e|A|iOS)?\//, 'Edge'],
  [/\b(?:OPR|Opera)\//, 'Opera'],
  [/\bFirefox\/|\bFxiOS\//, 'Firefox'],
  [/\b(?:Headless)?Chrom(?:e|ium)\/|\bCriOS\//, 'Chrome'],
  [/\bVersion\/[\d.]+.*\bSafari\//, 'Safari'],
];
const systems: Array<[RegExp, string]> = [
  [/\b(?:iPhone|iPad|iPod)\b/, 'iOS'],
  [/\bAndroid\b/, 'Android'],
  [/\bWindows\b/, 'Windows'],
  [/\bMac OS X\b|\bMacintosh\b/, 'macOS'],
  [/\bCrOS\b/, 'ChromeOS'],
  [/\bLinux\b/, 'Linux'],
];

/** A user agent as a known browser and system (names that need no translating), or as it is, shortened. */
export type UserAgentSummary = { browser: string; system: string | null } | { other: string };

export function summarizeUserAgent(userAgent: string | null): UserAgentSummary | null {
  if (!userAgent) return null;
  const browser = browsers.find(([pattern]) => pattern.test(userAgent))?.[1];
  const system = systems.find(([pattern]) => pattern.test(userAgent))?.[1];
  if (browser) return { browser, system: system ?? null };
  return { other: userAgent.length > 60 ? `${userAgent.slice(0, 59)}…` : userAgent };
}

/** "Chrome on Linux" in English (the admin portal); a user agent that is no known browser shows as it is, shortened. */
export function describeUserAgent(userAgent: string | null): string | null {
  const summary = summarizeUserAgent(userAgent);
  if (!summary) return null;
  if ('other' in summary) return summary.other;
  return summary.system ? `${summary.browser} on ${summary.system}` : summary.browser;
}
