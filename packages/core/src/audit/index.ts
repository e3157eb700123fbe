// `@raspa/core/audit`: Node-only (node:crypto's SHA-256 and Ed25519). The rules of the
// tamper-evident record (contract §16): Merkle hashing, anchors, and their verification.
export * from './anchor.ts';
export * from './merkle.ts';
export * from './verify-audit.ts';
