/**
 * The ledger's accounts, typed (docs/architecture.md#the-ledger). Each one is
 * a row of `ledger_accounts`, which the posting path creates on first use from
 * these values; the database checks that a name, its kind, its owner and its
 * limit agree, and refuses an entry on an account it does not hold.
 */
export type AccountKind =
  /** What the platform's wallet received and paid, on the ledger's side. */
  | 'platform_wallet'
  /** The platform's 3 % of provider feeds' payments. */
  | 'platform_fees'
  /** The built-in feeds' payments. */
  | 'platform_revenue'
  /** Withdrawals debited from providers and not yet paid out on chain. */
  | 'payouts_in_flight'
  /** The network fees the platform pays for its own transactions (withdrawals). */
  | 'network_fees'
  /** A provider's revenue not yet withdrawn. */
  | 'provider_pending'
  /** A wallet's prepaid credit: what the platform owes that wallet (docs/credit.md). */
  | 'buyer_credit'

export interface LedgerAccount {
  readonly name: string
  readonly kind: AccountKind
  /** The provider the account belongs to; null for the platform's own. */
  readonly providerId: string | null
  /** The wallet a credit account belongs to; null for every other kind. */
  readonly walletAddress: string | null
  /**
   * False for what the platform owes (credit accounts): their debits may never
   * exceed their credits, which the database checks when the transaction
   * commits (TigerBeetle's `debits_must_not_exceed_credits`).
   */
  readonly mayGoNegative: boolean
}

function platformAccount(kind: AccountKind, name: string, mayGoNegative: boolean): LedgerAccount {
  return { name, kind, providerId: null, walletAddress: null, mayGoNegative }
}

export const accounts = {
  platformWallet: platformAccount('platform_wallet', 'platform:wallet', true),
  platformFees: platformAccount('platform_fees', 'platform:fees', true),
  platformRevenue: platformAccount('platform_revenue', 'platform:revenue', true),
  payoutsInFlight: platformAccount('payouts_in_flight', 'platform:payouts_in_flight', false),
  networkFees: platformAccount('network_fees', 'platform:network_fees', true),
  providerPending: (providerId: string): LedgerAccount => ({
    name: `provider:${providerId}:pending`,
    kind: 'provider_pending',
    providerId,
    walletAddress: null,
    mayGoNegative: false,
  }),
  buyerCredit: (address: string): LedgerAccount => ({
    name: `credit:${address}`,
    kind: 'buyer_credit',
    providerId: null,
    walletAddress: address,
    mayGoNegative: false,
  }),
}
