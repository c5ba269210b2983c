import { defineConfig } from '#credit/define_config'

/** Prepaid credit: top-up bounds, credit tokens and refunds (docs/credit.md). */
const creditConfig = defineConfig({
  topUp: { minimumMicrostx: 100_000n, maximumMicrostx: 100_000_000n },
  token: { maxLifetimeSeconds: 3_600 },
  refund: { minimumMicrostx: 100_000n },
})

export default creditConfig
