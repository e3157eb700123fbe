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

/** The page with the service's own root element: how it tells a built page what it serves. */
export const withRoot = (html: string, root: string): string => html.replace(/<html[^>]*>/, root);
