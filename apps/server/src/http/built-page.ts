import { readFile } from 'node:fs/promises';
import { join } from 'node:path';

/** The languages the service's built pages speak. */
export const PAGE_LANGS = ['en', 'pt', 'es'];

/**
 * A page's HTML from its app's Vite build, read at each request so a new build is served at once;
 * undefined when that build is missing (the caller answers its not-built page).
 */
export async function readBuiltPage(distDir: string, file: string): Promise<string | undefined> {
  try {
    return await readFile(join(distDir, file), 'utf8');
  } catch {
    return undefined;
  }
}

/**
 * The page with the service's own root element: how it tells a built page what it serves. Values are
 * escaped, since some come from an operator (a session's returnUrl); an undefined one is left out.
 */
export function withRoot(html: string, attributes: Record<string, string | undefined>): string {
  const written = Object.entries(attributes)
    .filter((entry): entry is [string, string] => entry[1] !== undefined)
    .map(([name, value]) => ` ${name}="${escapeAttribute(value)}"`)
    .join('');
  return html.replace(/<html[^>]*>/, () => `<html${written}>`);
}

const ATTRIBUTE_ESCAPES: Record<string, string> = {
  '&': '&amp;',
  '"': '&quot;',
  "'": '&#39;',
  '<': '&lt;',
  '>': '&gt;',
};

export const escapeAttribute = (value: string): string =>
  value.replace(/[&"'<>]/g, (char) => ATTRIBUTE_ESCAPES[char] ?? char);
