// The public face of @raspa/core: pure rules shared by the server, the player's page and the sandbox.

export * from './cards/index.ts';
export * from './csv/csv.ts';
export * from './forced-cards/index.ts';
export * from './ladder/index.ts';
export * from './models.ts';
export * from './money/index.ts';
export * from './par-sheet/index.ts';
export * from './pool/index.ts';
export * from './promotions/index.ts';
export * from './protection/index.ts';
export * from './protocol/index.ts';
export * from './random/rng.ts';
export { CanonicalJsonError, canonicalJson } from './signer/canonical-json.ts';
export { signBodyWebCrypto } from './signer/web-sign-body.ts';
export * from './simulation/index.ts';
export * from './statistics/index.ts';
