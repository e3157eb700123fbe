// The admin command (docs/contract.md §2): `pnpm admin create-client --name … --email … [--password …]`,
// `pnpm admin migrate-to-postgres --to postgres://… [--data-dir <dir>]` (docs/store.md).
// It reads the same configuration as the server (environment and .env) and opens the same database.
import { parseArgs } from 'node:util';
import { z } from 'zod';
import { loadDotEnv, readConfig } from '../config.ts';
import { emailAddress } from '../http/routes/panel-auth-routes.ts';
import { issueMessages } from '../http/validation.ts';
import { createLogger } from '../logger.ts';
import { ApiError } from '../services/api-error.ts';
import { WriteRefusedError } from '../store/write-guard.ts';
import {
  type MigrateToPostgresArgs,
  migrateToPostgres,
  migrateToPostgresArgs,
} from './migrate-to-postgres.ts';

const USAGE = `Usage: pnpm admin <command> [options]

Commands:
  create-client --name <name> --email <email> [--password <password>]
      Creates an API client and prints its apiKey (shown only this once) and its
      web-panel password (generated when --password is not given; at least 8 characters).
  migrate-to-postgres --to <postgres://user:password@host:port/database> [--data-dir <dir>]
      Copies the embedded SQLite database (DATA_DIR/raspa.sqlite) into an empty PostgreSQL
      database, checks every table row for row and commits only if all agree. Stop the service
      first; afterwards start it with DATABASE_URL and the same SECRET_KEY (or DATA_DIR/secret.key).
  help
      Shows this text.

The configuration is the server's: environment variables and .env (DATA_DIR, SECRET_KEY, …).`;

const EXIT = { ok: 0, failed: 1, usage: 2 } as const;

const createClientArgs = z.object({
  name: z.string('is required').trim().min(1, 'must not be empty').max(120, 'must be at most 120 characters'),
  email: emailAddress,
  password: z
    .string()
    .min(8, 'must be at least 8 characters')
    .max(1024, 'must be at most 1024 characters')
    .optional(),
});

class UsageError extends Error {}

const ARG_OPTIONS = {
  name: { type: 'string' },
  email: { type: 'string' },
  password: { type: 'string' },
  to: { type: 'string' },
  'data-dir': { type: 'string' },
  help: { type: 'boolean', short: 'h' },
} as const;

function readArgs(argv: string[]) {
  try {
    const args = argv[0] === '--' ? argv.slice(1) : argv; // what some runners put before the arguments
    return parseArgs({ args, options: ARG_OPTIONS, allowPositionals: true, strict: true });
  } catch (error) {
    throw new UsageError(error instanceof Error ? error.message : String(error));
  }
}

function parseCommand(argv: string[]) {
  const parsed = readArgs(argv);
  const [command, ...extra] = parsed.positionals;
  if (parsed.values.help || command === 'help') return { command: 'help' as const };
  if (command === undefined) throw new UsageError('a command is required');
  if (extra.length > 0) throw new UsageError(`unexpected argument: ${extra[0]}`);
  if (command === 'create-client')
    return {
      command: 'create-client' as const,
      options: validated(createClientArgs, parsed.values, ['name', 'email', 'password']),
    };
  if (command === 'migrate-to-postgres')
    return {
      command: 'migrate-to-postgres' as const,
      options: validated(migrateToPostgresArgs, parsed.values, ['to', 'data-dir']),
    };
  throw new UsageError(`unknown command: ${command}`);
}

/** The command's options, checked by its schema; an option another command takes is refused. */
function validated<T>(schema: z.ZodType<T>, values: Record<string, unknown>, allowed: string[]): T {
  const foreign = Object.keys(values).find((name) => name !== 'help' && !allowed.includes(name));
  if (foreign) throw new UsageError(`--${foreign} is not an option of this command`);
  const options = schema.safeParse(values);
  if (!options.success) {
    const messages = issueMessages(options.error.issues, values, 'arguments');
    throw new UsageError(messages.map((message) => `--${message}`).join('\n'));
  }
  return options.data;
}

async function createClient(options: z.infer<typeof createClientArgs>): Promise<number> {
  loadDotEnv();
  const configured = readConfig();
  if (!configured.ok) {
    console.error(`The configuration has problems:\n  ${configured.errors.join('\n  ')}`);
    return EXIT.failed;
  }
  const { config } = configured;
  // Loaded here, not at the top: the whole service is only needed by this command.
  const [{ buildDeps }, { createServices }] = await Promise.all([
    import('../server.ts'),
    import('../services/services.ts'),
  ]);
  const deps = buildDeps(config, {
    logger: createLogger(config.LOG_LEVEL, (line) => process.stderr.write(`${line}\n`)),
  });
  try {
    const password = options.password ?? deps.random(12).toString('base64url');
    const { client, apiKey } = await createServices(deps).auth.createClient({
      name: options.name,
      email: options.email,
      password,
    });
    console.log(
      [
        'API client created.',
        `  clientId:        ${client.id}`,
        `  name:            ${client.name}`,
        `  e-mail:          ${client.email}`,
        `  apiKey:          ${apiKey}`,
        `  panel password:  ${password}${options.password ? '' : ' (generated)'}`,
        '',
        'The apiKey is shown only this once: keep it now.',
      ].join('\n'),
    );
    return EXIT.ok;
  } catch (error) {
    // A build older than the database's generation writes nothing (docs/operating.md, "Upgrading").
    if (error instanceof WriteRefusedError) {
      console.error(`error: ${error.message}`);
      return EXIT.failed;
    }
    if (!(error instanceof ApiError)) throw error;
    console.error(`error: ${error.messages.join('; ')}`);
    return EXIT.failed;
  } finally {
    await deps.store.close();
  }
}

async function main(argv: string[]): Promise<number> {
  let parsed: ReturnType<typeof parseCommand>;
  try {
    parsed = parseCommand(argv);
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    console.error(`error: ${error.message}\n\n${USAGE}`);
    return EXIT.usage;
  }
  if (parsed.command === 'help') {
    console.log(USAGE);
    return EXIT.ok;
  }
  if (parsed.command === 'create-client') return createClient(parsed.options);
  return migrate(parsed.options);
}

async function migrate(options: MigrateToPostgresArgs): Promise<number> {
  loadDotEnv();
  const configured = readConfig();
  if (!configured.ok) {
    console.error(`The configuration has problems:\n  ${configured.errors.join('\n  ')}`);
    return EXIT.failed;
  }
  return migrateToPostgres(options, configured.config, {
    out: (line) => console.log(line),
    err: (line) => console.error(line),
  });
}

// Exit explicitly: nothing the services might start should keep a one-shot command alive.
process.exit(await main(process.argv.slice(2)));
