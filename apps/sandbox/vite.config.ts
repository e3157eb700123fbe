import { defineConfig } from 'vite';

// A local page: the dev server listens on 127.0.0.1 only; the build uses relative paths so any
// static server can serve dist/.
export default defineConfig({
  base: './',
  server: { host: '127.0.0.1', port: 5175 },
  preview: { host: '127.0.0.1', port: 5175 },
  worker: { format: 'es' },
  build: {
    outDir: 'dist',
    target: 'es2022',
    sourcemap: false,
    reportCompressedSize: false,
    chunkSizeWarningLimit: 1024,
  },
});
