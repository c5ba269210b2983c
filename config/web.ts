import { defineConfig } from '#web/define_config'

/**
 * The pages: how long their lists are, and how often their live parts poll
 * the same JSON API as everyone else (tests shorten the cadences).
 */
const webConfig = defineConfig({
  /** Cards per page of the marketplace, the providers and a provider's feeds. */
  pageSize: 24,
  /** The live activity feed and a feed page's recent purchases. */
  activityPollMs: 3_000,
  /** A withdrawal's status until it is confirmed or failed. */
  withdrawalPollMs: 3_000,
  /** The dashboard's figures and chart. */
  dashboardPollMs: 15_000,
})

export default webConfig
export type { WebConfig } from '#web/define_config'
