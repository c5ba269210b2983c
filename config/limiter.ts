import { defineConfig, stores } from '@adonisjs/limiter'
import type { InferLimiters } from '@adonisjs/limiter/types'

/**
 * The rate limiter's store (docs/architecture.md#rate-limits): its counters
 * live in PostgreSQL, table `rate_limits`, so every instance counts against
 * the same limits. The limits themselves are in config/rate_limits.ts.
 */
const limiterConfig = defineConfig({
  default: 'db',
  stores: {
    db: stores.database({ connectionName: 'limiter', tableName: 'rate_limits' }),
  },
})

export default limiterConfig

declare module '@adonisjs/limiter/types' {
  export interface LimitersList extends InferLimiters<typeof limiterConfig> {}
}
