/**
 * A node:test reporter for scripts/test.ts: it reads the runner's events, not the spec reporter's text, and
 * writes one JSON line at the end: the run's counts (from the closing `test:summary` event; counted from the
 * tests' own events if that never came) and the seconds each test file's top-level tests took, so the run can
 * say where its time went, and each failed test's file, name and first error lines. `--test-reporter=./scripts/test-counts-reporter.mjs --test-reporter-destination=<file>`.
 */
export default async function* countsReporter(source) {
  const counted = { passed: 0, failed: 0, cancelled: 0, skipped: 0, todo: 0 };
  /** @type {Record<string, number> | undefined} */
  let summary;
  /** @type {Record<string, number>} */
  const fileSeconds = {};
  /** @type {{ file?: string, name: string, error: string }[]} */
  const failures = [];
  for await (const event of source) {
    const data = event.data ?? {};
    if (event.type === 'test:summary' && data.file === undefined) summary = data.counts;
    if (event.type !== 'test:pass' && event.type !== 'test:fail') continue;
    if (data.nesting === 0 && data.file) fileSeconds[data.file] = (fileSeconds[data.file] ?? 0) + (data.details?.duration_ms ?? 0) / 1000;
    // A suite's own event repeats what its tests already reported (unless its hook failed: then it counts once).
    if (data.details?.type === 'suite' && event.type === 'test:pass') continue;
    if (event.type === 'test:fail') {
      if (data.details?.error?.failureType === 'cancelledByParent') counted.cancelled += 1;
      else counted.failed += 1;
      // Named again at the end of the whole run: CI shows only the output's tail.
      if (data.details?.error?.failureType !== 'cancelledByParent' && data.details?.error?.failureType !== 'subtestsFailed') {
        const error = data.details?.error;
        const message = String(error?.cause?.message ?? error?.message ?? error ?? '')
          .split('\n')
          .slice(0, 3)
          .join(' ')
          .slice(0, 300);
        failures.push({ file: data.file, name: data.name, error: message });
      }
    } else if (data.skip !== undefined) counted.skipped += 1;
    else if (data.todo !== undefined) counted.todo += 1;
    else counted.passed += 1;
  }
  const counts = summary
    ? { passed: summary.passed, failed: summary.failed, cancelled: summary.cancelled, skipped: summary.skipped, todo: summary.todo }
    : counted;
  yield `${JSON.stringify({ counts, fromSummary: summary !== undefined, fileSeconds, failures })}\n`;
}
