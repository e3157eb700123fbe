// Writes deploy/environment.md from the configuration schema (environment-reference.ts): `pnpm env-reference`.
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { renderEnvironmentReference } from './environment-reference.ts';

const target = fileURLToPath(new URL('../../../../deploy/environment.md', import.meta.url));
writeFileSync(target, renderEnvironmentReference());
console.log(`wrote ${target}`);
