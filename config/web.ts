/**
 * The pages. Live parts poll the same JSON API as everyone else; these are
 * their cadences (tests shorten them).
 */
const webConfig = {
  /** The live activity feed and a feed page's recent purchases. */
  activityPollMs: 3_000,
  /** A withdrawal's status until it is confirmed or failed. */
  withdrawalPollMs: 3_000,
  /** The dashboard's figures and chart. */
  dashboardPollMs: 15_000,
}

export type WebConfig = typeof webConfig
export default webConfig
