import { defineConfig } from '@adonisjs/core/app'

export default defineConfig({
  experimental: {},

  /*
  | Ace commands from packages; our own are scanned from ./commands.
  */
  commands: [
    () => import('@adonisjs/core/commands'),
    () => import('@adonisjs/lucid/commands'),
    () => import('adonisjs-scheduler/commands'),
  ],

  /*
  | The embedded PostgreSQL provider comes first: it must be up (and its port
  | known) before Lucid boots, and is shut down last, after Lucid's pool.
  */
  providers: [
    () => import('#providers/embedded_postgres_provider'),
    () => import('@adonisjs/core/providers/app_provider'),
    {
      file: () => import('@adonisjs/core/providers/repl_provider'),
      environment: ['repl', 'test'],
    },
    () => import('@adonisjs/core/providers/vinejs_provider'),
    () => import('@adonisjs/lucid/database_provider'),
    () => import('@adonisjs/auth/auth_provider'),
    () => import('@adonisjs/limiter/limiter_provider'),
    () => import('@adonisjs/core/providers/edge_provider'),
    () => import('@adonisjs/vite/vite_provider'),
    () => import('@adonisjs/static/static_provider'),
    () => import('#providers/core_provider'),
    () => import('#providers/chain_provider'),
    () => import('#providers/payments_provider'),
    () => import('#providers/withdrawals_provider'),
    () => import('#providers/credit_provider'),
    () => import('#providers/metrics_provider'),
    () => import('#providers/feeds_provider'),
    () => import('#providers/provider_accounts_provider'),
    () => import('#providers/outbound_provider'),
    () => import('#providers/openapi_provider'),
    {
      file: () => import('adonisjs-scheduler/scheduler_provider'),
      environment: ['console'],
    },
  ],

  preloads: [
    () => import('#start/validator'),
    () => import('#start/routes'),
    () => import('#start/view'),
    () => import('#start/kernel'),
    {
      file: () => import('#start/scheduler'),
      environment: ['console'],
    },
  ],

  tests: {
    suites: [
      {
        files: ['tests/unit/**/*.spec.ts'],
        name: 'unit',
        timeout: 10_000,
      },
      {
        files: ['tests/functional/**/*.spec.ts'],
        name: 'functional',
        timeout: 30_000,
      },
      {
        files: ['tests/browser/**/*.spec.ts'],
        name: 'browser',
        timeout: 60_000,
      },
      {
        files: ['tests/simulation/**/*.spec.ts'],
        name: 'simulation',
        timeout: 120_000,
      },
      {
        files: ['bench/**/*.bench.ts'],
        name: 'bench',
        timeout: 600_000,
      },
    ],
    forceExit: true,
  },

  /*
  | Copied into build/ as they are: the partner-verifier package is plain
  | JavaScript (the Partner Bridge driver signs with it); the pages' Edge
  | templates and public/ (where `vite build` writes the bundles).
  */
  metaFiles: [
    { pattern: 'packages/partner-verifier/src/**', reloadServer: false },
    { pattern: 'resources/views/**/*.edge', reloadServer: false },
    { pattern: 'public/**', reloadServer: false },
  ],

  hooks: {
    buildStarting: [() => import('@adonisjs/vite/build_hook')],
  },
})
