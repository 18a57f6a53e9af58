/**
 * A node:test reporter for scripts/test.ts: it reads the runner's events, not the spec reporter's text, and
 * writes one JSON line at the end: the run's counts (from the closing `test:summary` event; counted from the
 * tests' own events if that never came) and the seconds each test file's top-level tests took, so the run can
 * say where its time went. `--test-reporter=./scripts/test-counts-reporter.mjs --test-reporter-destination=<file>`.
 */
export default async function* countsReporter(source) {
  const counted = { passed: 0, failed: 0, cancelled: 0, skipped: 0, todo: 0 };
  /** @type {Record<string, number> | undefined} */
  let summary;
  /** @type {Record<string, number>} */
  const fileSeconds = {};
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
    } else if (data.skip !== undefined) counted.skipped += 1;
    else if (data.todo !== undefined) counted.todo += 1;
    else counted.passed += 1;
  }
  const counts = summary
    ? { passed: summary.passed, failed: summary.failed, cancelled: summary.cancelled, skipped: summary.skipped, todo: summary.todo }
    : counted;
  yield `${JSON.stringify({ counts, fromSummary: summary !== undefined, fileSeconds })}\n`;
}
