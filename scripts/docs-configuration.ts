/**
 * `npm run docs`: writes docs/configuration.md from lib/config/env.ts, the one place a setting
 * is defined: its name and default from the zod schema, its meaning from the doc comment above
 * it (an `@default` line there says what the default is when the schema's is no value, such as
 * "generated, printed once", or adds a note, in parentheses, after it). `npm run docs -- --check`
 * only says whether the page is current; scripts/docs-configuration.test.ts fails when it is
 * not, or when a setting has no comment.
 *
 * Node 24's TypeScript is the Go compiler without a JavaScript API, so the comments are read
 * from the source text: each property of the schema's object literal, two spaces in, with the
 * doc comment right above it. What is read is checked against the schema's own keys, so a
 * property the reading misses fails the test instead of vanishing from the page.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { OTHER_SETTINGS, SETTINGS } from '../lib/config/env.ts';

const ENV_SOURCE = fileURLToPath(new URL('../lib/config/env.ts', import.meta.url));
export const CONFIGURATION_PAGE = fileURLToPath(new URL('../docs/configuration.md', import.meta.url));

export interface SettingDoc {
  name: string;
  /** The comment's text, its lines joined. */
  description: string;
  /** The comment's `@default` line, if any. */
  defaultNote?: string;
}

/**
 * The properties of the object literal whose first line is `opening` in `source`, with their doc
 * comments (undefined where a property has none), in source order.
 */
export function documentedProperties(source: string, opening: string): Map<string, SettingDoc | undefined> {
  const lines = source.split('\n');
  const start = lines.findIndex((line) => line.startsWith(opening));
  if (start < 0) throw new Error(`no line starts with ${JSON.stringify(opening)}`);
  const found = new Map<string, SettingDoc | undefined>();
  for (let i = start + 1; i < lines.length && !lines[i].startsWith('}'); i++) {
    const name = /^ {2}([A-Z][A-Z0-9_]*):/.exec(lines[i])?.[1];
    if (name) found.set(name, docComment(lines, i, name));
  }
  return found;
}

/** The doc comment that ends on the line above `at`, or undefined. */
function docComment(lines: string[], at: number, name: string): SettingDoc | undefined {
  let first = at - 1;
  if (!lines[first]?.trim().endsWith('*/')) return undefined;
  while (first >= 0 && !lines[first].trim().startsWith('/**')) first--;
  if (first < 0) return undefined;
  const text = lines
    .slice(first, at)
    .join('\n')
    .replace(/^\s*\/\*\*/, '')
    .replace(/\*\/\s*$/, '')
    .split('\n')
    .map((line) => line.replace(/^\s*\* ?/, '').trim());
  const prose: string[] = [];
  let defaultNote: string | undefined;
  for (const line of text) {
    if (line.startsWith('@default ')) defaultNote = line.slice('@default '.length).trim();
    else if (line.startsWith('@')) throw new Error(`${name}: only @default is understood in a setting's comment, not ${line.split(' ')[0]}`);
    else if (line) prose.push(line);
  }
  const description = prose.join(' ');
  return description ? { name, description, defaultNote } : undefined;
}

/** The Default column: the schema's default as code, or the comment's `@default` text, or both. */
function defaultText(value: unknown, note: string | undefined): string {
  const unset = value === undefined || (Array.isArray(value) && value.length === 0);
  const shown = unset ? undefined : `\`${String(value)}\``;
  if (note && shown && note.startsWith('(')) return `${shown} ${note}`;
  return note ?? shown ?? 'unset';
}

/** Every setting's documentation, or the list of what is missing or unreadable. */
export function readSettings(source = readFileSync(ENV_SOURCE, 'utf8')) {
  const problems: string[] = [];
  const read = (opening: string, names: string[], defaultOf: (name: string) => unknown) => {
    const docs = documentedProperties(source, opening);
    for (const name of docs.keys()) if (!names.includes(name)) problems.push(`${name}: read from the source but not a key of ${opening.trim()}`);
    return names.map((name) => {
      const doc = docs.get(name);
      if (!doc) problems.push(`${name}: no doc comment (/** ... */) right above it in lib/config/env.ts`);
      return { name, description: doc?.description ?? '', default: defaultText(defaultOf(name), doc?.defaultNote) };
    });
  };
  const shape = SETTINGS.shape as Record<string, { safeParse(v: unknown): { success: boolean; data?: unknown } }>;
  const settings = read('const envSchema = z.object({', Object.keys(shape), (name) => shape[name].safeParse(undefined).data);
  const others = read('export const OTHER_SETTINGS = {', Object.keys(OTHER_SETTINGS), () => undefined);
  return { settings, others, problems };
}

type Row = { name: string; default: string; description: string };
const table = (rows: Row[]) =>
  ['| Variable | Default | Meaning |', '|---|---|---|', ...rows.map((r) => `| \`${r.name}\` | ${r.default} | ${r.description.replaceAll('|', '\\|')} |`)].join(
    '\n',
  );

/** docs/configuration.md as the current schema writes it. */
export function configurationPage(): string {
  const { settings, others, problems } = readSettings();
  if (problems.length > 0) throw new Error(`lib/config/env.ts cannot be documented:\n  ${problems.join('\n  ')}`);
  return `# Configuration

<!-- Written by \`npm run docs\` from lib/config/env.ts: change the comments there, then run it. -->

Every setting is an environment variable, and all are optional: with none, \`npm start\` serves on
\`http://localhost:3000\` with an embedded SQLite database. They are parsed and validated once at start;
a bad value stops the server with a message naming the variable.

A variable that looks like a setting and is none (\`SECRET_KEY\`, \`REDIS_URI\`, \`METRIC_TOKEN\`, \`LOGLEVEL\`:
a name a letter or an underscore away from a setting's, in any case, or one that starts like a family of
settings, such as \`THROTTLE_\`, \`SMTP_\`, \`SESSION_\`, \`BRAND_\`) is ignored, and the start says so in one
\`warn\` line each, with the setting it probably meant: \`{"variable":"SECRET_KEY","meant":"SECRETS_KEY","msg":"SECRET_KEY
is not a Gatehouse setting and is ignored: did you mean SECRETS_KEY?"}\` (names only, never values). Other
software's variables (\`PATH\`, \`HOME\`, \`NODE_*\`, \`npm_*\`, \`OTEL_*\`, Kubernetes' \`*_SERVICE_HOST\`, ...) are
never named.

${table(settings)}

## Read by the server script and the tracing SDK

${table(others)}

The server's memory limit and the other Node flags: see [Deploying](deploying.md#memory). The variables
of the tests (\`TEST_DATABASE_URL\`, \`TEST_REDIS_URL\`, \`CHROMIUM_PATH\`): see [Testing](testing.md).
`;
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const page = configurationPage();
  const current = (() => {
    try {
      return readFileSync(CONFIGURATION_PAGE, 'utf8');
    } catch {
      return '';
    }
  })();
  if (process.argv.includes('--check')) {
    if (current !== page) {
      console.error('docs/configuration.md is stale: run `npm run docs`');
      process.exit(1);
    }
  } else if (current !== page) {
    writeFileSync(CONFIGURATION_PAGE, page);
    console.log('wrote docs/configuration.md');
  }
}
