/**
 * The HTML of a page the service serves from a Vite build (the player's page, the back office) when
 * that build is missing: says what to build and how, instead of a bare 404.
 */
export function notBuiltHtml(page: { title: string; heading: string; what: string; build: string }): string {
  return [
    `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${page.title}</title></head>`,
    '<body style="font-family: system-ui, sans-serif; max-width: 40rem; margin: 3rem auto; line-height: 1.5">',
    `<h1>${page.heading}</h1>`,
    `<p>The service is running, but ${page.what} has not been built yet. Build it with `,
    `<code>${page.build}</code> (or start the service with <code>npm start</code>, which `,
    'builds it first), then reload.</p></body></html>',
  ].join('');
}
