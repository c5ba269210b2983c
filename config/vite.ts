import { defineConfig } from '@adonisjs/vite'

/**
 * The pages' bundles: `vite build` (run by `npm run build`) writes them and
 * their manifest to public/assets, served by the app itself at /assets (no
 * CDN). In development and tests the Vite dev server serves them instead,
 * inside the app's HTTP server (vite_middleware), with hot reload.
 */
export default defineConfig({
  buildDirectory: 'public/assets',
  manifestFile: 'public/assets/.vite/manifest.json',
  assetsUrl: '/assets',
  scriptAttributes: { defer: true },
})
