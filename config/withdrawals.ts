import { defineConfig } from '#withdrawals/define_config'

/**
 * Money out: limits, the platform wallet's transaction pipeline and the
 * confirmation job. Every delay is configurable so tests never wait on real
 * time (docs/architecture.md#caches-and-time).
 */
const withdrawalsConfig = defineConfig({
  minimumMicrostx: 1_000_000n,
  maximumMicrostx: 1_000_000_000n,
  maxChained: 25,
  fee: { estimatedBytes: 200, capMicrostx: 100_000n },
  broadcast: { attempts: 3, firstDelayMs: 500, maxRetryAfterMs: 2_000 },
  confirm: {
    graceSeconds: 30,
    droppedGraceMs: 10 * 60_000,
    batchSize: 200,
    warnAfterAttempts: 10,
    leaseMs: 5 * 60_000,
  },
  sendLeaseMs: 120_000,
  list: { defaultLimit: 50, maxLimit: 1_000 },
})

export default withdrawalsConfig
