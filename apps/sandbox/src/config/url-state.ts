import { type ConfigField, configFrom, type SandboxConfig } from './sandbox-config.ts';

/** The whole page: configuration A, and B when comparing. */
export interface SandboxState {
  a: SandboxConfig;
  b: SandboxConfig | null;
}

/** Query-string names, short and readable in a shared link. */
const PARAMS: ReadonlyArray<[ConfigField, string]> = [
  ['model', 'model'],
  ['currency', 'currency'],
  ['rtp', 'rtp'],
  ['sampling', 'sampling'],
  ['prizedPercent', 'prized'],
  ['betPrice', 'bet'],
  ['lang', 'lang'],
  ['cards', 'cards'],
  ['seed', 'seed'],
];

/** B's parameters carry this prefix: `?rtp=0.9&b.rtp=0.92`. */
const B_PREFIX = 'b.';

export function stateFromQuery(search: string): SandboxState {
  const query = new URLSearchParams(search);
  const read = (prefix: string) => {
    const values: Partial<Record<ConfigField, string>> = {};
    let any = false;
    for (const [field, name] of PARAMS) {
      const value = query.get(prefix + name);
      if (value !== null) {
        values[field] = value;
        any = true;
      }
    }
    return { values, any };
  };
  const a = configFrom(read('').values);
  const b = read(B_PREFIX);
  return { a, b: b.any || query.get('compare') === '1' ? configFrom(b.values, a) : null };
}

export function stateToQuery(state: SandboxState): string {
  const query = new URLSearchParams();
  const write = (config: SandboxConfig, prefix: string) => {
    for (const [field, name] of PARAMS) query.set(prefix + name, config[field]);
  };
  write(state.a, '');
  if (state.b) write(state.b, B_PREFIX);
  return `?${query.toString()}`;
}
