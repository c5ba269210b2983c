/**
 * The owner API's answers (docs/api.md, "Providers"), as the server types
 * them: the pages share these types with the code that builds the answers.
 */
export type {
  FeedView as Feed,
  IntegrationMode,
  ProviderView as Provider,
  SourceHealthView as SourceHealth,
} from '../../../app/provider_accounts/owner_api'
export type { AnalyticsView as Analytics, DayFigures } from '../../../app/stats/analytics_api'
export type {
  WithdrawalStatus,
  WithdrawalView as Withdrawal,
} from '../../../app/withdrawals/withdrawal_api'
