// `@raspa/core/signer`: Node-only (node:crypto). The browser-safe part is canonical-json.ts,
// which the main `@raspa/core` entry re-exports on its own.
export { CanonicalJsonError, canonicalJson, MAX_CANONICAL_DEPTH } from './canonical-json.ts';
export {
  canonicalBody,
  SIGNATURE_HEADER,
  SIGNATURE_HEX_LENGTH,
  signBody,
  signCanonical,
  verifySignature,
} from './sign-request.ts';
