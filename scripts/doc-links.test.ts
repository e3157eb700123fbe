import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, normalize } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const pages = [
  'README.md',
  ...readdirSync(join(root, 'docs'))
    .filter((name) => name.endsWith('.md'))
    .map((name) => `docs/${name}`),
];

/** Relative link targets of a Markdown page (links and images), leaving out code blocks. */
function relativeTargets(text: string): string[] {
  const prose = text.replace(/```[\s\S]*?```/g, '');
  const targets = [
    ...[...prose.matchAll(/\]\(([^)\s]+)\)/g)].map((match) => match[1] ?? ''),
    ...[...prose.matchAll(/src="([^"]+)"/g)].map((match) => match[1] ?? ''),
  ];
  return targets.filter((target) => !/^[a-z]+:/.test(target) && !target.startsWith('#'));
}

// The reference moved out of the README into docs/ (issue 24): a page renamed or moved must not
// leave a link behind that leads nowhere.
describe('the README and docs/', () => {
  it.each(pages)('%s links only to files that exist', (page) => {
    const missing = relativeTargets(readFileSync(join(root, page), 'utf8'))
      .map((target) => target.split('#')[0] ?? '')
      .filter((path) => !existsSync(normalize(join(root, dirname(page), path))));
    expect(missing).toEqual([]);
  });
});
