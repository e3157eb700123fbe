import type { Deps } from './deps.ts';
import type { Services } from './services/services.ts';

export interface DemoInfo {
  apiKey: string;
  email: string;
  password: string;
}

export const DEMO_EMAIL = 'demo@raspa.local';

/**
 * On an empty database: the demo API client (with DEMO_API_KEY as its key when set), so a newcomer
 * can log in at once. Returns what to print, or undefined when the database already has clients.
 */
export async function setUpDemo(
  services: Services,
  deps: Pick<Deps, 'store' | 'logger' | 'random'>,
  demoApiKey: string | undefined,
): Promise<DemoInfo | undefined> {
  if (deps.store.clients.countClients() > 0) return undefined;
  const password = deps.random(12).toString('base64url');
  const { apiKey } = await services.auth.createClient({
    name: 'Demo operator',
    email: DEMO_EMAIL,
    password,
    ...(demoApiKey && { apiKey: demoApiKey }),
  });
  deps.logger.info('created the demo API client', { email: DEMO_EMAIL });
  return { apiKey, email: DEMO_EMAIL, password };
}
