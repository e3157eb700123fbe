import { hash, verify } from '@node-rs/argon2';

/**
 * Panel passwords: argon2id with OWASP's parameters (19 MiB, 2 passes, 1 lane), through
 * @node-rs/argon2 (maintained, prebuilt for Linux from the npm registry, runs off the main thread).
 */
const OWASP_ARGON2ID = { algorithm: 2, memoryCost: 19_456, timeCost: 2, parallelism: 1 } as const;

export interface PasswordHasher {
  hash(password: string): Promise<string>;
  verify(hashed: string, password: string): Promise<boolean>;
}

export const argon2idHasher: PasswordHasher = {
  hash: (password) => hash(password, OWASP_ARGON2ID),
  verify: async (hashed, password) => {
    try {
      return await verify(hashed, password);
    } catch {
      return false;
    }
  },
};

/** A hash of a random password, verified against when an account is unknown, so timing reveals nothing. */
export const DUMMY_PASSWORD = 'raspa-no-such-account-password';
