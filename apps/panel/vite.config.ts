import { defineConfig, type Plugin } from 'vite';

/**
 * Fails the build if zod or a module of the server is in the bundle. The panel's wire types come from
 * the server's zod schemas by type-only imports (`@raspa/server/wire`), which the build erases; a
 * value import would ship zod (and server code) to the browser, and this says so at once.
 */
function typesOnlyFromTheServer(): Plugin {
  const unwanted = /[\\/]node_modules[\\/]zod[\\/]|[\\/]apps[\\/]server[\\/]/;
  return {
    name: 'raspa-types-only-from-the-server',
    generateBundle(_options, bundle) {
      const shipped = Object.values(bundle).flatMap((item) => (item.type === 'chunk' ? item.moduleIds : []));
      const found = shipped.filter((id) => unwanted.test(id));
      if (found.length > 0) {
        this.error(`the panel's bundle must not hold zod or server code, but holds:\n${found.join('\n')}`);
      }
    },
  };
}

// The panel is served by the Raspa server at /panel/…, its hashed files at /panel/assets/*.
// `pnpm dev` proxies /v1 to a service on 127.0.0.1:8080 (start it with `npm start`).
export default defineConfig({
  base: '/panel/',
  plugins: [typesOnlyFromTheServer()],
  build: {
    outDir: 'dist',
    assetsDir: 'assets',
    target: 'es2022',
    sourcemap: false,
    reportCompressedSize: false,
    chunkSizeWarningLimit: 1024,
  },
  server: { host: '127.0.0.1', port: 5176, proxy: { '/v1': 'http://127.0.0.1:8080' } },
});
