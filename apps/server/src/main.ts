// The service's entry point: the only file that reads the environment, opens the database and listens.
import { loadDotEnv, readConfig } from './config.ts';
import { demoCredentialLines, writeDemoCredentials } from './demo-credentials.ts';
import { setUpDemo } from './demo-setup.ts';
import { buildDeps, startServer } from './server.ts';

loadDotEnv();
const configured = readConfig();
if (!configured.ok) {
  console.error(`Raspa cannot start: the configuration has problems:\n  ${configured.errors.join('\n  ')}`);
  process.exit(1);
}
const config = configured.config;
const deps = buildDeps(config);
// /ready waits for the demo set-up below: a first start's apiKey must work once it says ready.
const running = await startServer(deps, config.HOST, config.PORT, { startingUntilToldReady: true });
const demo = await setUpDemo(running.app.services, deps, config.DEMO_API_KEY);
const database = `${config.DATA_DIR}/raspa.sqlite`;

if (config.OUTBOUND_ALLOW_PRIVATE) {
  // Said at every start, so a setting meant for local integration is not left on in production.
  deps.logger.warn(
    'OUTBOUND_ALLOW_PRIVATE=true: wallets and webhooks may reach private addresses (local use only)',
  );
}
if (process.stdout.isTTY) {
  // A person at a terminal: the banner, secrets included, as they are shown only this once.
  const lines = [
    '',
    `Raspa is running at ${running.url} (public URL ${config.PUBLIC_URL})`,
    `  API docs:  ${config.PUBLIC_URL}/docs`,
    `  database:  ${database}`,
  ];
  if (demo) lines.push('', ...demoCredentialLines(demo, config.PUBLIC_URL));
  console.log(`${lines.join('\n')}\n`);
} else {
  // stdout is the log stream (a collector, a file): secrets go to a file only its owner can read.
  deps.logger.info('Raspa is running', {
    url: running.url,
    publicUrl: config.PUBLIC_URL,
    docs: `${config.PUBLIC_URL}/docs`,
    database,
  });
  if (demo) {
    const path = writeDemoCredentials(config.DATA_DIR, demoCredentialLines(demo, config.PUBLIC_URL));
    deps.logger.info('demo API client created; its apiKey, panel password and a gameUrl are in a file', {
      path,
    });
  }
}

running.app.readiness.started();

let stopping = false;
const stop = async (signal: string) => {
  if (stopping) return;
  stopping = true;
  deps.logger.info('stopping', { signal });
  await running.close(); // /ready answers 503 from its first step
  await running.app.services.panel.settled(); // queued reset e-mails go out before exit
  await deps.store.close();
  process.exit(0);
};
process.on('SIGTERM', () => void stop('SIGTERM'));
process.on('SIGINT', () => void stop('SIGINT'));
