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

/**
 * The headers `securityHeaders` sets, as name → value, for an answer Express does not write (an
 * error Node's HTTP parser raises before routing: http/client-error.ts), so that answer carries
 * exactly the same ones.
 */
export function securityHeaderValues(handler: RequestHandler): Record<string, string> {
  const headers: Record<string, string> = {};
  const recorder = {
    setHeader(name: string, value: string | number | readonly string[]) {
      headers[name] = Array.isArray(value) ? value.join(', ') : String(value);
    },
    removeHeader(name: string) {
      delete headers[name];
    },
  };
  // helmet only sets and removes headers, synchronously; it reads nothing of the request.
  handler(
    {} as Parameters<RequestHandler>[0],
    recorder as unknown as Parameters<RequestHandler>[1],
    () => {},
  );
  return headers;
}
