/*
|--------------------------------------------------------------------------
| Environment variables
|--------------------------------------------------------------------------
|
| Validated once at boot. In production the app refuses to start, with one
| line naming each bad variable, when a required one is missing or malformed.
| See .env.example and docs/operations.md for their meaning.
|
*/
import { Env } from '@adonisjs/core/env'
import {
  type NodeEnvironment,
  appKey,
  memoPrefix,
  optional,
  positiveInteger,
  privateKey,
  proxyList,
  requiredIn,
  stacksNetwork,
  url,
} from '#core/env_rules'
import { UPSTREAM_NAMES, upstreamUrlVariable } from '#feeds/builtin/upstreams'

const nodeEnv = (process.env.NODE_ENV ?? 'development') as NodeEnvironment
const everywhere: NodeEnvironment[] = ['development', 'production', 'test']

export default await Env.create(new URL('../', import.meta.url), {
  NODE_ENV: Env.schema.enum(['development', 'production', 'test'] as const),
  PORT: Env.schema.number.optional(),
  HOST: Env.schema.string.optional({ format: 'host' }),
  /** Names the service in payment requirements and sign-in messages (localhost outside production). */
  PUBLIC_URL: requiredIn(nodeEnv, ['production'], url(['http', 'https'])),
  LOG_LEVEL: Env.schema.enum.optional([
    'fatal',
    'error',
    'warn',
    'info',
    'debug',
    'trace',
    'silent',
  ] as const),
  LOG_FILE: Env.schema.string.optional(),
  TRUSTED_PROXIES: optional(proxyList),
  /** HTTP workers `npm start` runs beside its one scheduler (app/core/process_budget.ts); unset → one per core. */
  WEB_CONCURRENCY: optional(positiveInteger),
  /** Bearer token of GET /metrics; unset in production → no /metrics (docs/operations.md#metrics). */
  METRICS_TOKEN: Env.schema.string.optional(),

  APP_KEY: requiredIn(nodeEnv, everywhere, appKey),

  /** Unset outside production: an embedded PostgreSQL under tmp/ (config/embedded_postgres.ts). */
  DATABASE_URL: requiredIn(nodeEnv, ['production'], url(['postgres', 'postgresql'])),
  DB_POOL_MAX: Env.schema.number.optional(),
  /** Every connection one instance's processes may open together (app/core/process_budget.ts). */
  DB_MAX_CONNECTIONS: optional(positiveInteger),
  EMBEDDED_PG_PORT: Env.schema.number.optional(),
  EMBEDDED_PG_DATA_DIR: Env.schema.string.optional(),

  STACKS_NETWORK: requiredIn(nodeEnv, ['production'], stacksNetwork),
  STACKS_API_URL: optional(url(['http', 'https'])),
  STACKS_API_KEY: Env.schema.string.optional(),
  PLATFORM_PRIVATE_KEY: requiredIn(nodeEnv, everywhere, privateKey),
  FACILITATOR_URL: optional(url(['http', 'https'])),
  EXPLORER_URL: optional(url(['https', 'http'])),
  WITHDRAWAL_MEMO_PREFIX: optional(memoPrefix),
  ALLOW_PRIVATE_TARGETS: Env.schema.boolean.optional(),

  DEVNET_BLOCK_TIME_MS: Env.schema.number.optional(),
  DEVNET_STATE_PATH: Env.schema.string.optional(),

  UPSTREAM_SIMULATOR_URL: optional(url(['http'])),
  ETHPLORER_API_KEY: Env.schema.string.optional(),
  GITHUB_TOKEN: Env.schema.string.optional(),
  /** UPSTREAM_MEMPOOL_URL, UPSTREAM_COINGECKO_URL, …: override one built-in feed upstream. */
  ...Object.fromEntries(
    UPSTREAM_NAMES.map((name) => [upstreamUrlVariable(name), optional(url(['https', 'http']))])
  ),
})
