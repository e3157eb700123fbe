// The service's entry point: the only file that reads the environment, opens the database and listens.
import { loadDotEnv, readConfig } from './config.ts';
import { DEMO_GAME, DEMO_PLAYER, setUpDemo } from './demo-setup.ts';
import { buildDeps, startServer } from './server.ts';

loadDotEnv();
const configured = readConfig();
if (!configured.ok) {
  console.error(`Raspa cannot start: the configuration has problems:\n  ${configured.errors.join('\n  ')}`);
  process.exit(1);
}
const config = configured.config;
const deps = buildDeps(config);
const running = await startServer(deps, config.HOST, config.PORT);
const demo = await setUpDemo(running.app.services, deps, config.DEMO_API_KEY);

const lines = [
  '',
  `Raspa is running at ${running.url} (public URL ${config.PUBLIC_URL})`,
  `  API docs:  ${config.PUBLIC_URL}/docs`,
  `  database:  ${config.DATA_DIR}/raspa.sqlite`,
];
if (config.OUTBOUND_ALLOW_PRIVATE) {
  // Said at every start, so a setting meant for local integration is not left on in production.
  lines.push(
    '  OUTBOUND_ALLOW_PRIVATE=true: wallets and webhooks may reach private addresses (local use only)',
  );
}
if (demo) {
  lines.push(
    '',
    'Demo API client created (shown once; keep it):',
    `  apiKey:          ${demo.apiKey}`,
    `  panel e-mail:    ${demo.email}`,
    `  panel password:  ${demo.password}`,
    '',
    `  log in:  curl -s -X POST ${config.PUBLIC_URL}/v1/auth/login -H 'Content-Type: application/json' -d '{"apiKey":"${demo.apiKey}"}'`,
    '',
    `Demo profile ${demo.game.profileId}: an active ${DEMO_GAME.gameModel} game, player ${DEMO_PLAYER} and a session:`,
    `  gameUrl:  ${demo.game.gameUrl}`,
    `            (valid until ${demo.game.expireAt}; open it in a browser to play the scratch card)`,
  );
}
console.log(`${lines.join('\n')}\n`);

let stopping = false;
const stop = async (signal: string) => {
  if (stopping) return;
  stopping = true;
  deps.logger.info('stopping', { signal });
  await running.close();
  await running.app.services.panel.settled(); // queued reset e-mails go out before exit
  deps.store.close();
  process.exit(0);
};
process.on('SIGTERM', () => void stop('SIGTERM'));
process.on('SIGINT', () => void stop('SIGINT'));
