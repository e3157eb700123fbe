import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { signBody } from './sign-body.ts';

interface Vector {
  name: string;
  signatureToken: string;
  body: unknown;
  signature: string;
}

const vectors: Vector[] = JSON.parse(
  readFileSync(new URL('../../../../docs/signature-vectors.json', import.meta.url), 'utf8'),
).vectors;

describe('signBody (WebCrypto, as the page signs)', () => {
  it.each(vectors.map((vector) => [vector.name, vector] as const))(
    'reproduces the vector: %s',
    async (_, vector) => {
      expect(await signBody(vector.body, vector.signatureToken)).toBe(vector.signature);
    },
  );
});
