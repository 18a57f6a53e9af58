/**
 * BRAND_LOGO_FILE: a logo on the server's disk, read and checked once (at start,
 * a step of the start-up, so a bad file stops the server with a message) and
 * served from memory at /brand/logo (app/brand/logo/route.ts). The type comes
 * from the file's first bytes, not its name; SVG is served under a policy that
 * runs nothing, since a browser opening /brand/logo directly renders it as a page.
 */
import { readFile, stat } from 'node:fs/promises';
import { processShared } from '../platform/process.ts';

/** Large enough for any logo, small enough to keep in memory and on every sign-in page. */
export const LOGO_MAX_BYTES = 256 * 1024;

export interface LogoFile {
  bytes: Uint8Array;
  type: 'image/svg+xml' | 'image/png' | 'image/webp' | 'image/jpeg';
}

/** The image type of these bytes, by their signature; undefined for anything else. */
export function sniffImageType(bytes: Uint8Array): LogoFile['type'] | undefined {
  const ascii = (from: number, to: number) => String.fromCharCode(...bytes.subarray(from, to));
  if (bytes[0] === 0x89 && ascii(1, 4) === 'PNG') return 'image/png';
  if (bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return 'image/jpeg';
  if (ascii(0, 4) === 'RIFF' && ascii(8, 12) === 'WEBP') return 'image/webp';
  const head = new TextDecoder()
    .decode(bytes.subarray(0, 1024))
    .replace(/^\uFEFF/, '')
    .trimStart();
  if (/^(<\?xml[^>]*>\s*)?(<!--[\s\S]*?-->\s*)*(<!DOCTYPE svg[^>]*>\s*)?<svg[\s>]/i.test(head)) return 'image/svg+xml';
  return undefined;
}

/** Reads and checks the file; throws an Error that names BRAND_LOGO_FILE and what is wrong. */
export async function readLogoFile(path: string): Promise<LogoFile> {
  const info = await stat(path).catch((error: NodeJS.ErrnoException) => {
    throw new Error(`BRAND_LOGO_FILE: cannot read ${path} (${error.code ?? error.message})`);
  });
  if (!info.isFile()) throw new Error(`BRAND_LOGO_FILE: ${path} is not a file`);
  if (info.size > LOGO_MAX_BYTES) throw new Error(`BRAND_LOGO_FILE: ${path} is ${info.size} bytes; a logo may have at most ${LOGO_MAX_BYTES}`);
  const bytes = new Uint8Array(await readFile(path));
  const type = sniffImageType(bytes);
  if (!type) throw new Error(`BRAND_LOGO_FILE: ${path} is not an SVG, PNG, WebP or JPEG image`);
  return { bytes, type };
}

/** The server's logo file, read once per process (shared by Next's module graphs: lib/platform/process.ts). */
export function serverLogoFile(path: string): Promise<LogoFile> {
  const shared = processShared();
  shared.logo ??= readLogoFile(path);
  return shared.logo;
}
