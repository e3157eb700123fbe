import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

/** What build answers (the certification pack's build.json, docs/certification.md). */
export interface BuildIdentity {
  /** The service's package version. */
  version: string;
  /**
   * SHA-256 (hex) of the service's code as it runs: every code and SQL file under its code directory
   * (src/ in a checkout, the bundle's directory in a production build), each as its path relative to
   * that directory, a NUL, its bytes and a NUL, in byte order of the paths.
   */
  sourceHash: string;
  /** The files hashed. */
  sourceFiles: number;
  /** process.version. */
  node: string;
}

const CODE = /\.(ts|js|mjs|cjs|sql)$/;

function filesUnder(directory: string): string[] {
  const found: string[] = [];
  for (const entry of readdirSync(directory, { withFileTypes: true })) {
    if (entry.name === 'node_modules' || entry.name.startsWith('.')) continue;
    const path = join(directory, entry.name);
    if (entry.isDirectory()) found.push(...filesUnder(path));
    else if (entry.isFile() && CODE.test(entry.name)) found.push(path);
  }
  return found;
}

/** The hash of the code under `directory` (see BuildIdentity.sourceHash). */
export function sourceHashOf(directory: string): { sourceHash: string; sourceFiles: number } {
  const files = filesUnder(directory)
    .map((path) => ({ path, name: relative(directory, path).split('\\').join('/') }))
    .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  const hash = createHash('sha256');
  for (const { path, name } of files) {
    hash.update(`${name}\0`);
    hash.update(readFileSync(path));
    hash.update('\0');
  }
  return { sourceHash: hash.digest('hex'), sourceFiles: files.length };
}

/** This file's code directory: src/ when it runs from source, the bundle's directory once built. */
function codeDirectory(): string {
  const here = fileURLToPath(import.meta.url);
  return here.endsWith('.ts') ? join(dirname(here), '..') : dirname(here);
}

function packageVersion(directory: string): string {
  for (const candidate of [join(directory, '..', 'package.json'), join(directory, 'package.json')]) {
    try {
      const parsed = JSON.parse(readFileSync(candidate, 'utf8')) as { version?: unknown };
      if (typeof parsed.version === 'string') return parsed.version;
    } catch {
      // not there: the next candidate
    }
  }
  return 'unknown';
}

let known: BuildIdentity | undefined;

/** The running build's identity, worked out once per process (a few hundred files read). */
export function buildIdentity(): BuildIdentity {
  if (!known) {
    const directory = codeDirectory();
    known = { version: packageVersion(directory), ...sourceHashOf(directory), node: process.version };
  }
  return known;
}
