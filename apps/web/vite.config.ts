import { defineConfig, type Plugin } from 'vite';
import react from '@vitejs/plugin-react';

// Dev: http://localhost:5173 with /v1 and /api proxied to the server on 9380. Build: apps/web/dist,
// which the server serves as a single-page app.
const server = 'http://localhost:9380';

/**
 * `@lectern/shared` is pure declarations, but its package does not say so; without this the zod
 * schemas the web app never uses would ride along in the main bundle.
 */
const sharedIsPure: Plugin = {
  name: 'lectern-shared-is-pure',
  transform(code, id) {
    if (id.includes('/packages/shared/src/')) return { code, map: null, moduleSideEffects: false };
    return undefined;
  },
};

export default defineConfig({
  plugins: [react(), sharedIsPure],
  server: {
    port: 5173,
    proxy: { '/v1': server, '/api': server },
  },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    rollupOptions: {
      // zod's sources carry comments Rollup cannot place; harmless, and zod is not even in our bundle.
      onwarn(warning, warn) {
        if (warning.code === 'INVALID_ANNOTATION' && warning.id?.includes('node_modules')) return;
        warn(warning);
      },
      output: {
        // Libraries change less often than our code: keep them in their own long-cached chunks.
        manualChunks(id) {
          if (!id.includes('node_modules')) return undefined;
          if (/node_modules\/(react|react-dom|scheduler|react-router)\//.test(id)) return 'react';
          if (/node_modules\/(i18next|react-i18next|@tanstack)\//.test(id)) return 'vendor';
          return undefined;
        },
      },
    },
  },
});
