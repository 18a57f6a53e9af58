/**
 * Reads a V8 .cpuprofile (from --cpu-prof) and tells where the time went during
 * the load windows only (profile timestamps and process.hrtime share Linux's
 * monotonic clock, so windows recorded by the benchmark select the samples):
 * top functions by self time, by total time, and self time per package.
 *
 * Usage: tsx bench/profile.ts <file.cpuprofile> [startUs-endUs ...]
 */
import { existsSync, readFileSync } from 'node:fs';
import { SourceMap } from 'node:module';
import { fileURLToPath, pathToFileURL } from 'node:url';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number; columnNumber: number };
  children?: number[];
}

interface CpuProfile {
  nodes: ProfileNode[];
  startTime: number;
  endTime: number;
  samples: number[];
  timeDeltas: number[];
}

export interface Window {
  startUs: number;
  endUs: number;
}

export interface Hotspot {
  name: string;
  where: string;
  selfPct: number;
  totalPct: number;
}

export interface ProfileSummary {
  samples: number;
  ms: number;
  idlePct: number;
  bySelf: Hotspot[];
  byTotal: Hotspot[];
  byPackage: { name: string; selfPct: number }[];
  byFile: { name: string; selfPct: number }[];
}

/** Which package a script belongs to: node_modules/<pkg>, Node's internals, or Next's compiled app chunks. */
/** Next's build folder in a script's URL: `.next`, or the benchmark's own `.next-bench` (lib/config/dist-dir.ts). */
const BUILD_FOLDER = /\/\.next(-[a-z0-9-]+)?\//;

export function packageOf(url: string): string {
  if (!url) return '(native / V8)';
  const inModules = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
  if (inModules) return inModules[1];
  if (url.startsWith('node:')) return 'node (internals)';
  if (BUILD_FOLDER.test(url)) return 'app code (.next chunks)';
  // Our own source, from a source map ("lib/db/sql.ts:83") or run directly (the baseline under tsx).
  const own = /^(?:file:\/\/.*?\/)?(lib|app|bench)\/(?:([^/]+)\/)?/.exec(url.replace(/^\/(?:[^/]+\/)*?(?=(lib|app|bench)\/)/, ''));
  if (own) return `${own[1]}/${own[2] && !own[2].includes('.') ? `${own[2]}/` : ''}`;
  return url
    .replace(/^file:\/\//, '')
    .split('/')
    .slice(-2)
    .join('/');
}

const sourceMaps = new Map<string, SourceMap | undefined>();

/** Next's compiled chunks are minified: their source maps (next to them in .next) name the original file and line. */
function original(frame: ProfileNode['callFrame']): string | undefined {
  if (!BUILD_FOLDER.test(frame.url)) return undefined;
  const file = fileURLToPath(frame.url.startsWith('file:') ? frame.url : pathToFileURL(frame.url).href);
  if (!sourceMaps.has(file)) {
    sourceMaps.set(file, existsSync(`${file}.map`) ? new SourceMap(JSON.parse(readFileSync(`${file}.map`, 'utf8'))) : undefined);
  }
  const entry = sourceMaps.get(file)?.findEntry(frame.lineNumber, frame.columnNumber) as { originalSource?: string; originalLine?: number } | undefined;
  if (!entry?.originalSource) return undefined;
  return `${entry.originalSource.replace(/^(\.\.\/)+/, '')}:${(entry.originalLine ?? 0) + 1}`;
}

function where(frame: ProfileNode['callFrame']): string {
  if (!frame.url) return '';
  const mapped = original(frame);
  if (mapped) return mapped.replace(/^.*node_modules\//, '');
  const short = frame.url
    .replace(/^file:\/\//, '')
    .replace(`${process.cwd()}/`, '')
    .replace(/^.*node_modules\//, '')
    .replace(/^.*\/(\.next[^/]*)\//, '$1/');
  return `${short}:${frame.lineNumber + 1}`;
}

export function summarizeProfile(profile: CpuProfile, windows: Window[] = [], top = 25): ProfileSummary {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);

  const keyOf = (n: ProfileNode) => `${n.callFrame.functionName || '(anonymous)'}\u0000${where(n.callFrame)}`;
  const self = new Map<string, number>();
  const total = new Map<string, number>();
  const packages = new Map<string, number>();
  const files = new Map<string, number>();
  let counted = 0;
  let idle = 0;
  let t = profile.startTime;
  const inWindow = (ts: number) => windows.length === 0 || windows.some((w) => ts >= w.startUs && ts <= w.endUs);

  for (let i = 0; i < profile.samples.length; i++) {
    t += profile.timeDeltas[i] ?? 0;
    if (!inWindow(t)) continue;
    const node = byId.get(profile.samples[i]);
    if (!node) continue;
    counted++;
    if (node.callFrame.functionName === '(idle)') {
      idle++;
      continue;
    }
    const key = keyOf(node);
    self.set(key, (self.get(key) ?? 0) + 1);
    const pkg = node.callFrame.url ? packageOf(original(node.callFrame) ?? node.callFrame.url) : node.callFrame.functionName;
    packages.set(pkg, (packages.get(pkg) ?? 0) + 1);
    const file = where(node.callFrame).replace(/:\d+$/, '') || node.callFrame.functionName;
    files.set(file, (files.get(file) ?? 0) + 1);
    const seen = new Set<string>();
    for (let id: number | undefined = node.id; id !== undefined; id = parent.get(id)) {
      const k = keyOf(byId.get(id)!);
      if (seen.has(k)) continue;
      seen.add(k);
      total.set(k, (total.get(k) ?? 0) + 1);
    }
  }

  const busy = Math.max(1, counted - idle);
  const pct = (n: number) => Math.round((n / busy) * 1000) / 10;
  const hotspots = (m: Map<string, number>, exclude: (name: string) => boolean) =>
    [...m.entries()]
      .filter(([k]) => !exclude(k.split('\u0000')[0]))
      .sort((a, b) => b[1] - a[1])
      .slice(0, top)
      .map(([k]) => {
        const [name, loc] = k.split('\u0000');
        return { name, where: loc, selfPct: pct(self.get(k) ?? 0), totalPct: pct(total.get(k) ?? 0) };
      });
  const meanInterval = profile.samples.length ? (profile.endTime - profile.startTime) / profile.samples.length : 0;
  return {
    samples: counted,
    ms: Math.round((counted * meanInterval) / 1000),
    idlePct: counted ? Math.round((idle / counted) * 1000) / 10 : 0,
    bySelf: hotspots(self, () => false),
    // (root), (program) and generic runners say nothing about where time goes.
    byTotal: hotspots(total, (name) => name === '(root)' || name === '(program)' || name === 'processTicksAndRejections' || name === 'runMicrotasks').slice(
      0,
      15,
    ),
    byPackage: [...packages.entries()]
      .sort((a, b) => b[1] - a[1])
      .slice(0, 15)
      .map(([name, n]) => ({ name, selfPct: pct(n) })),
    byFile: [...files.entries()]
      .sort((a, b) => b[1] - a[1])
      .slice(0, 20)
      .map(([name, n]) => ({ name, selfPct: pct(n) })),
  };
}

export function profileMarkdown(title: string, s: ProfileSummary): string {
  const lines = [
    `### ${title}`,
    '',
    `${s.samples} samples (~${s.ms} ms) inside the load windows; idle ${s.idlePct} %. Percentages are of busy (non-idle) samples.`,
    '',
    '| self % | total % | function | where |',
    '|---:|---:|---|---|',
    ...s.bySelf.map((h) => `| ${h.selfPct} | ${h.totalPct} | ${h.name} | ${h.where} |`),
    '',
    'By total (inclusive) time:',
    '',
    '| total % | self % | function | where |',
    '|---:|---:|---|---|',
    ...s.byTotal.map((h) => `| ${h.totalPct} | ${h.selfPct} | ${h.name} | ${h.where} |`),
    '',
    'Self time by package:',
    '',
    '| self % | package |',
    '|---:|---|',
    ...s.byPackage.map((p) => `| ${p.selfPct} | ${p.name} |`),
    '',
    'Self time by file:',
    '',
    '| self % | file |',
    '|---:|---|',
    ...s.byFile.map((p) => `| ${p.selfPct} | ${p.name} |`),
  ];
  return lines.join('\n');
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const [file, ...ranges] = process.argv.slice(2);
  if (!file) {
    console.error('usage: tsx bench/profile.ts <file.cpuprofile> [startUs-endUs ...]');
    process.exit(2);
  }
  const windows = ranges.map((r) => {
    const [startUs, endUs] = r.split('-').map(Number);
    return { startUs, endUs };
  });
  console.log(profileMarkdown(file, summarizeProfile(JSON.parse(readFileSync(file, 'utf8')) as CpuProfile, windows)));
}
