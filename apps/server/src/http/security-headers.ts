import type { RequestHandler } from 'express';
import helmet from 'helmet';

/**
 * The security headers of every answer, set in this one place (helmet, configured once in app.ts):
 * nothing may frame the service (`frame-ancestors 'none'`) except the player's page, which replaces
 * the CSP with its own from the profile's allowedOrigins (http/play-page.ts); no MIME sniffing; no
 * referrer. The CSP fits the service's own pages: Swagger UI at /docs (its bundle and our
 * signing.js are files; its styles are inline, and its icons data: URIs) and the back office at
 * /panel (its script files, the captcha widget's worker among them). No page has an inline script.
 */
export function securityHeaders(options: {
  /** The API's public origin, which "Try it out" calls when it differs from the page's. */
  publicUrl: () => string;
}): RequestHandler {
  return helmet({
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'"],
        styleSrc: ["'self'", "'unsafe-inline'"],
        imgSrc: ["'self'", 'data:'],
        fontSrc: ["'self'"],
        connectSrc: ["'self'", () => originOf(options.publicUrl())],
        objectSrc: ["'none'"],
        baseUri: ["'none'"],
        formAction: ["'self'"],
        frameAncestors: ["'none'"],
      },
    },
    // The API is called from integrators' servers and the play page is framed by their pages:
    // cross-origin isolation headers beyond these would only break them.
    crossOriginEmbedderPolicy: false,
    crossOriginResourcePolicy: { policy: 'same-origin' },
    referrerPolicy: { policy: 'no-referrer' },
    // Ignored over plain HTTP; behind TLS, no includeSubDomains: the operator's other hosts are not ours.
    strictTransportSecurity: { maxAge: 15_552_000, includeSubDomains: false },
    xFrameOptions: { action: 'deny' },
  });
}

function originOf(url: string): string {
  try {
    return new URL(url).origin;
  } catch {
    return "'self'";
  }
}
