/**
 * The shapes the server hands the pages: what every page knows of the
 * service (SiteContext, resources/views/components/layout.edge) and the
 * dashboard's props. This file imports only other import-free files: the
 * pages import its types (`import type`), so they never copy them.
 */
import type { SourceChoice } from '../feeds/source_choice.js'

export interface SiteContext {
  publicUrl: string
  network: 'mainnet' | 'testnet' | 'devnet'
  /** The address prefix of single-signature wallets here (ST… on testnet and devnet). */
  addressPrefix: 'SP' | 'ST'
  explorer: { url: string; chain: 'mainnet' | 'testnet' }
  /** How often live parts poll (config/web.ts). */
  polls: { activityMs: number; withdrawalMs: number; dashboardMs: number }
  /** The caps of a feed's output declaration (the dashboard's declaration card). */
  outputDeclaration: { maxBytes: number }
  /** What the forms check before the API does (config/withdrawals.ts, the feed validators). */
  limits: {
    /** The smallest and largest withdrawal (µSTX), and the most withdrawals one list answer holds (the CSV export). */
    withdrawal: { minimumMicrostx: number; maximumMicrostx: number; historyMax: number }
    /** A feed's price per call, µSTX. */
    price: { minimumMicrostx: number; maximumMicrostx: number }
    /** Lengths of the names and descriptions of providers and feeds, and of a feed's slug. */
    text: { displayName: number; description: number; slug: number }
  }
}

/** The dashboard island's props (resources/views/pages/dashboard.edge). */
export interface DashboardProps {
  screen: string
  providerId: string | null
  slug: string | null
  /** The feed sources providers may choose, from the drivers' declarations (config/feeds.ts). */
  sources: SourceChoice[]
}

/** The credit page island's props (resources/views/pages/credit.edge): config/credit.ts's refund minimum. */
export interface CreditPageProps {
  refundMinimumMicrostx: string
}
