import { defineConfig } from 'vite';

// The panel is served by the Raspa server at /panel/…, its hashed files at /panel/assets/*.
// `pnpm dev` proxies /v1 to a service on 127.0.0.1:8080 (start it with `npm start`).
export default defineConfig({
  base: '/panel/',
  build: {
    outDir: 'dist',
    assetsDir: 'assets',
    target: 'es2022',
    sourcemap: false,
    reportCompressedSize: false,
    chunkSizeWarningLimit: 1024,
    rollupOptions: {
      // zod's sources carry `@__PURE__` comments in places Rollup cannot use; harmless, and noisy.
      onwarn(warning, warn) {
        if (warning.code === 'INVALID_ANNOTATION') return;
        warn(warning);
      },
    },
  },
  server: { host: '127.0.0.1', port: 5176, proxy: { '/v1': 'http://127.0.0.1:8080' } },
});
