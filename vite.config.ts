import { createServer } from 'node:net'
import { join } from 'node:path'
import { defineConfig } from 'vite'
import adonisjs from '@adonisjs/vite/client'

const testing = process.env.NODE_ENV === 'test'
const root = import.meta.dirname
const cacheDir = testing ? 'node_modules/.vite-test' : 'node_modules/.vite'

/**
 * The pages' bundles: one entry (resources/js/app.tsx) that mounts the
 * Preact islands a page names, each island a lazily loaded chunk, and the
 * stylesheet. JSX is compiled for Preact by Vite's own transform (Oxc).
 */
export default defineConfig(({ command }) => ({
  plugins: [
    adonisjs({
      entryPoints: ['resources/css/app.css', 'resources/js/app.tsx'],
      reload: ['resources/views/**/*.edge'],
    }),
    {
      // Tests need no hot reload. Their pages still open Vite's client socket:
      // it gets a free port of its own, never the HMR port of a developer's
      // `npm run dev` (whose answer would reload the test's page mid-test).
      name: 'tollbooth:own-socket-in-tests',
      apply: 'serve',
      async config(config) {
        if (!testing) return
        config.server = { ...config.server, hmr: false, ws: { port: await freePort() } }
      },
    },
  ],
  oxc: {
    jsx: { runtime: 'automatic', importSource: 'preact', development: command === 'serve' },
  },
  resolve: {
    alias: {
      '@reown/appkit-universal-connector': `${import.meta.dirname}/resources/js/vendor/no_walletconnect.ts`,
    },
  },
  // Dependencies pre-bundled when the dev server starts, never discovered
  // later: a discovery mid-session reloads every open page (and a browser test).
  // Tests keep theirs apart, so a test run and `npm run dev` never rebuild
  // one another's copy.
  cacheDir,
  optimizeDeps: {
    include: ['preact', 'preact/hooks', 'preact/jsx-runtime', '@stacks/connect'],
    noDiscovery: true,
  },
  build: { target: 'es2022' },
  server: {
    // The dev server reads only what the pages load: their sources, the three
    // app modules they share, the pre-bundled dependencies (Vite adds its own
    // client). By default it reads the whole checkout — the development
    // database's files under tmp/ included — for any path it is sent.
    fs: {
      strict: true,
      allow: [
        join(root, 'resources/js'),
        join(root, 'resources/css'),
        join(root, 'app/ledger/money.ts'),
        join(root, 'app/feeds/feed_paths.ts'),
        join(root, 'app/web/words.ts'),
        join(root, cacheDir),
      ],
      // Vite's own defaults (a list given here replaces them), and the
      // checkout's data and secrets, should a later allow entry reach them.
      deny: [
        '.env',
        '.env.*',
        '*.{crt,pem,key,p12,pfx,cer,der}',
        '.npmrc',
        '.yarnrc.yml',
        '**/.git/**',
        join(root, 'tmp/**'),
        join(root, 'database/**'),
        join(root, 'config/**'),
        join(root, 'start/**'),
      ],
    },
  },
}))

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer()
    server.once('error', reject)
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number }
      server.close(() => resolve(port))
    })
  })
}
