// `@raspa/core/signer`: Node-only (node:crypto). The browser-safe parts, canonical-json.ts and
// web-sign-body.ts, the main `@raspa/core` entry re-exports on their own.
export { CanonicalJsonError, canonicalJson, MAX_CANONICAL_DEPTH } from './canonical-json.ts';
export {
  canonicalBody,
  SIGNATURE_HEADER,
  SIGNATURE_HEX_LENGTH,
  signBody,
  signCanonical,
  verifySignature,
} from './sign-request.ts';
