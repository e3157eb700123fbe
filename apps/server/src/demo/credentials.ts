import { chmodSync, mkdirSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { DEMO_GAME, DEMO_PLAYER, type DemoInfo } from './setup.ts';

export const DEMO_CREDENTIALS_FILE = 'demo-credentials.txt';

/** The first start's secrets, as a person reads them: the demo apiKey, panel password and a gameUrl. */
export function demoCredentialLines(demo: DemoInfo, publicUrl: string): string[] {
  return [
    'Demo API client created (shown once; keep it):',
    `  apiKey:          ${demo.apiKey}`,
    `  panel e-mail:    ${demo.email}`,
    `  panel password:  ${demo.password}`,
    '',
    `  log in:  curl -s -X POST ${publicUrl}/v1/auth/login -H 'Content-Type: application/json' -d '{"apiKey":"${demo.apiKey}"}'`,
    '',
    `Demo profile ${demo.game.profileId}: an active ${DEMO_GAME.gameModel} game, player ${DEMO_PLAYER} and a session:`,
    `  gameUrl:  ${demo.game.gameUrl}`,
    `            (valid until ${demo.game.expireAt}; open it in a browser to play the scratch card)`,
  ];
}

/**
 * Writes the demo credentials to DATA_DIR/demo-credentials.txt, readable by its owner only, for a
 * start whose stdout is a log collector rather than a person. Written under another name and
 * renamed, so whoever sees the file sees it whole. Returns its path.
 */
export function writeDemoCredentials(dataDir: string, lines: readonly string[]): string {
  mkdirSync(dataDir, { recursive: true });
  const file = join(dataDir, DEMO_CREDENTIALS_FILE);
  const partial = `${file}.partial`;
  writeFileSync(partial, `${lines.join('\n')}\n`, { mode: 0o600 });
  chmodSync(partial, 0o600); // the mode above is masked by the umask; this is not
  renameSync(partial, file);
  return file;
}
